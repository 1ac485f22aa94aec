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


def rules_core_imports():
    """{module: set of rules_core modules it imports}, function-level imports included."""
    import ast
    graph = {}
    folder = os.path.join(mp.ROOT, "rules_core")
    for f in sorted(os.listdir(folder)):
        if f.endswith(".py"):
            tree = ast.parse(open(os.path.join(folder, f), encoding="utf-8").read())
            deps = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    deps.add(node.module)
                elif isinstance(node, ast.Import):
                    deps.update(a.name for a in node.names)
            graph["rules_core." + f[:-3]] = deps
    return graph


def test_rules_core_imports_nothing_of_the_project_and_has_no_cycle():
    """The core is the bottom layer: it imports only the runtime's own modules and itself,
    one way (the record module and the session no longer import each other)."""
    graph = rules_core_imports()
    outside = {m for deps in graph.values() for m in deps
               if not m.startswith("rules_core.") and m not in ("json", "micropython")}
    assert not outside, outside
    done, path = set(), []

    def visit(m):
        assert m not in path, "import cycle: " + " -> ".join(path[path.index(m):] + [m])
        if m in done or m not in graph:
            return
        path.append(m)
        for d in sorted(graph[m]):
            visit(d)
        path.pop()
        done.add(m)
    for m in sorted(graph):
        visit(m)
    assert "rules_core.session" not in graph["rules_core.record"]
