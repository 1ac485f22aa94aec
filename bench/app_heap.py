"""The smallest MicroPython heap each scripted game completes in (the unix port's -X heapsize).

    .venv/bin/python bench/app_heap.py [--games NAME,NAME] [--root CHECKOUT] [--idle]

Plays the scripted games of tests/test_firmware_micropython.py (the keys its CPython Driver
pressed) on the unix port, with the .mpy files `flash` would copy, and bisects over the heap
size in 1 KB steps for the smallest in which the game ends on its final standings with
nothing logged in errors.log and the record CPython wrote. This is the figure the tests'
192 KB heap stands for (test_firmware_micropython.HEAP). --root CHECKOUT measures another
checkout, its own firmware, tests and keys, with this machine's MicroPython (the same
interpreter for both); --idle runs main.py's idle frames between the keys (a checkout that
has them). One JSON line per game: the smallest heap in KB and the runs it took.
"""
import argparse
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOW, HIGH = 64, 320  # KB: the bisection's bounds (a game that fails at HIGH is reported as such)


def completes(mp_app, keys, record, heap_kb, idle):
    """True when the game ends finished at heap_kb, nothing logged, its record as CPython's."""
    data = tempfile.mkdtemp(prefix="azul-heap-")
    extra = {"idle": True} if idle else {}
    try:
        r = mp_app.run_app_on_micropython(keys, heap="%dK" % heap_kb, data_dir=data,
                                          measure_heap=False, **extra)
    except (RuntimeError, AssertionError):  # the interpreter itself ran out (MemoryError at the top)
        return False
    if r["errors"] or r["screen"] != "Final" or not r["finished"]:
        return False
    with open(r["record"], encoding="utf-8") as f:
        return f.read() == record


def smallest(mp_app, keys, record, idle):
    """(the smallest heap in KB, runs) by bisection, or (None, runs) when HIGH is too small."""
    lo, hi, runs = LOW, HIGH, 1
    if not completes(mp_app, keys, record, hi, idle):
        return None, runs
    while hi - lo > 1:  # invariant: fails at lo (or lo is the floor), completes at hi
        mid = (lo + hi) // 2
        runs += 1
        if completes(mp_app, keys, record, mid, idle):
            hi = mid
        else:
            lo = mid
    return hi, runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", help="comma-separated names (default: all eight)")
    ap.add_argument("--root", default=ROOT, help="the checkout to measure (default: this one)")
    ap.add_argument("--idle", action="store_true", help="main.py's idle frames between the keys")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    sys.path[0:0] = [os.path.join(root, "tests"), root, os.path.join(root, "firmware")]
    import pathlib
    import mp_app
    import test_firmware_micropython as games
    names = args.games.split(",") if args.games else sorted(games.VARIANTS)
    for name in names:
        where = pathlib.Path(tempfile.mkdtemp(prefix="azul-heap-cpython-"))
        driver = games.VARIANTS[name](where)
        kb, runs = smallest(mp_app, driver.keys, driver.record(), args.idle)
        print(json.dumps({"game": name, "presses": len(driver.keys), "smallest_heap_kb": kb,
                          "runs": runs, "idle": args.idle}), flush=True)


if __name__ == "__main__":
    main()
