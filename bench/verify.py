"""Check a score's work (rules_core.verify) on walls of 15, 20 and 25 tiles: CPython, the
MicroPython unix port, the emulated Pico and the web page's MicroPython (webassembly, under
node). The table of docs/performance.md ("Check a score").

    .venv/bin/python bench/verify.py [--on cpython,unix,pico,page] [--sizes 15,20,25]

For each wall, one JSON line per interpreter:
  most_ms     the most placement points, proved by an order (Range(dp=False): no programme)
  range_ms    the fewest and the most, the programme over the subsets of the touching tiles
              (null where it was not run: more than --dp-max tiles on that interpreter, a
              Pico's heap holds the programme of 15 at most)
  kb          the programme's arrays (Range.memory())
  low, high   the placement points (a check: every interpreter gives the same)
CPython is timed with time.perf_counter, the others with time.ticks_us on the interpreter
(the emulated Pico's is device time: tests/picosim.py; the page's, node's clock: the port
the page loads, package.json's, run as a script with the two modules in one file). The
unix port runs with a heap
large enough for the arrays (-X heapsize). The emulated Pico gets only the two core modules
on its flash, compiled as `azul-companion flash` compiles them; without ../shared/picosim
(AZUL_PICOSIM) or node, its lines say why and the bench goes on. The emulator started here
is always stopped, by its PID.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[0:0] = [os.path.join(ROOT, "tests"), ROOT]

# end-of-game walls with a complete row (the game ends after it): their tiles all touch
WALLS = {13: "xxxxx,xxx..,xxx..,xx...,.....",
         14: "xxxxx,xxxxx,xx...,xx...,.....",
         16: "xxxxx,xxxxx,xxx..,xxx..,.....",
         15: "xxxxx,xxx..,x.xx.,.xxx.,.x...",
         20: "xxxxx,xxxx.,xxx.x,xx.xx,.xxx.",
         25: "xxxxx,xxxxx,xxxxx,xxxxx,xxxxx"}
DP_MAX = {"cpython": 25, "unix": 25, "pico": 15, "page": 18}
PAGE_PORT = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript", "micropython.mjs")

CODE = """import time, gc
from rules_core.verify import Range, parse_wall
def timed(m, dp):
    gc.collect()
    t = time.ticks_us()
    r = Range(m, 1 << 20, dp)
    r.run()
    return time.ticks_diff(time.ticks_us(), t) // 1000, r
for n, w, dp in %r:
    m = parse_wall(w)
    most, r = timed(m, False)
    out = {"tiles": n, "most_ms": most, "range_ms": None, "kb": r.memory() // 1024, "high": r.high}
    if dp:
        out["range_ms"], r = timed(m, True)
        out["low"], out["high"] = r.low, r.high
    print("RESULT", out)
"""


def cpython(sizes):
    from rules_core.verify import Range, parse_wall
    for n in sizes:
        m = parse_wall(WALLS[n])
        t = time.perf_counter()
        r = Range(m, 1 << 20, False)
        r.run()
        out = {"on": "cpython", "tiles": n, "most_ms": round((time.perf_counter() - t) * 1000),
               "range_ms": None, "kb": r.memory() // 1024, "high": r.high}
        if n <= DP_MAX["cpython"]:
            t = time.perf_counter()
            r = Range(m, 1 << 20)
            out["low"], out["high"] = r.run()
            out["range_ms"] = round((time.perf_counter() - t) * 1000)
        print(json.dumps(out), flush=True)


def results(text, on):
    for line in text.splitlines():
        if line.startswith("RESULT "):
            r = eval(line[7:], {"None": None})  # (a MicroPython dict's repr)
            r["on"] = on
            print(json.dumps(r), flush=True)


def unix(sizes):
    jobs = [(n, WALLS[n], n <= DP_MAX["unix"]) for n in sizes]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.py")
        with open(path, "w") as f:
            f.write("import sys\nsys.path.insert(0, %r)\n" % ROOT + CODE % (jobs,))
        r = subprocess.run([os.path.join(os.path.dirname(sys.executable), "micropython"), "-X", "heapsize=96M", path],
                           capture_output=True, text=True, timeout=7200)
        if r.returncode:
            print(json.dumps({"on": "unix", "error": (r.stderr or r.stdout).strip()[-300:]}))
        results(r.stdout, "unix")


def page(sizes):
    if not os.path.exists(PAGE_PORT) or not shutil.which("node"):
        print(json.dumps({"on": "page", "skipped": "no node or no %s (./dev.sh setup with npm)" % PAGE_PORT}))
        return
    jobs = [(n, WALLS[n], n <= DP_MAX["page"]) for n in sizes]
    with open(os.path.join(ROOT, "rules_core", "__init__.py")) as f:
        src = f.read()
    with open(os.path.join(ROOT, "rules_core", "verify.py")) as f:
        src += f.read().replace("from rules_core import const\n", "")
    code = CODE.replace("from rules_core.verify import Range, parse_wall\n", "")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.py")
        with open(path, "w") as f:
            f.write(src + "\n" + code % (jobs,))
        r = subprocess.run(["node", PAGE_PORT, "-X", "heapsize=16m", path], capture_output=True, text=True,
                           timeout=7200, cwd=tmp)
        results(r.stdout, "page")


def pico(sizes):
    import picosim
    reason = picosim.missing()
    if reason:
        print(json.dumps({"on": "pico", "skipped": reason}))
        return
    from host_tools import flash
    jobs = [(n, WALLS[n], n <= DP_MAX["pico"]) for n in sizes]
    with tempfile.TemporaryDirectory() as tmp:
        emu = picosim.Emulator(os.path.join(tmp, "flash.img"), log=os.path.join(tmp, "picosim.log"))
        emu.start()
        try:
            march = flash.compile_args(flash.ask_board(emu.port)[0], flash.mpy_cross_version())
            steps = [(os.path.join(ROOT, "rules_core", name + ".py"), "rules_core/%s.mpy" % name, "mpy")
                     for name in ("__init__", "verify")]
            files = flash.stage(steps, "pico", march, os.path.join(tmp, "stage"))
            files.pop(flash.BOARD_FILE)
            emu.mpremote("exec", flash.mkdirs_code(["rules_core"]))
            args = []
            for dest in sorted(files):
                args += (["+"] if args else []) + ["fs", "cp", files[dest], ":" + dest]
            emu.mpremote(*args)
            results(emu.mpremote("exec", CODE % (jobs,), timeout=7200), "pico")
        finally:
            emu.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--on", default="cpython,unix,pico,page")
    ap.add_argument("--sizes", default="15,20,25")
    args = ap.parse_args(argv)
    sizes = [int(n) for n in args.sizes.split(",")]
    for on in args.on.split(","):
        {"cpython": cpython, "unix": unix, "pico": pico, "page": page}[on](sizes)


if __name__ == "__main__":
    main()
