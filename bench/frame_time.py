"""Frame time: from a button event to a finished frame buffer, per kind of screen.

    .venv/bin/python bench/frame_time.py [--runtime micropython|cpython|both] [--presses N]

Times App.step(now, key) for one key press: the screen handles the key and the whole
128x64 frame buffer is redrawn (and the LEDs recomputed); the OLED transfer (about 25 ms of
I2C at 400 kHz on the board) is not included. MicroPython: the unix port running the .mpy
files flash would copy (tests/mp_app.py), the display being hal.oled's driver on a sink
bus. CPython: the simulator's App (host_tools.sim.build). The keys that open each screen
come from the app tests' Driver. Prints one JSON line per screen and runtime: median and
max microseconds per press, and the heap peak of the run (MicroPython).
"""
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[0:0] = [os.path.join(ROOT, "tests"), ROOT, os.path.join(ROOT, "firmware")]

import pathlib  # noqa: E402

import mp_app  # noqa: E402
import test_firmware_micropython as games  # noqa: E402
from hal.keys import UP, DOWN, LEFT, RIGHT  # noqa: E402
from host_tools import sim  # noqa: E402

# screen -> the presses timed (they cycle, so the screen stays the same kind)
TIMED = {"scoreboard": [DOWN, UP], "azul wall form": [RIGHT, LEFT],
         "5211 card form": [RIGHT, LEFT], "final standings": [DOWN, UP]}


def scripts(where):
    """screen -> keys that open it (from the CPython Driver of the app tests)."""
    forms = games.form_scripts(pathlib.Path(where))
    out = {name: forms[name] for name in ("scoreboard", "azul wall form", "5211 card form")}
    out["final standings"] = games.VARIANTS["azul colored"](pathlib.Path(where) / "final").keys
    return out


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def on_micropython(name, keys, presses):
    r = mp_app.run_app_on_micropython(keys, heap="192K", data_dir=tempfile.mkdtemp(prefix="azul-bench-"),
                                      bench=[{"name": name, "keys": TIMED[name], "reps": presses}])
    us = r["bench"][0]["us"]
    return {"runtime": "micropython-unix", "screen": name, "presses": len(us), "median_us": median(us),
            "max_us": max(us), "peak_heap": r["heap"]["peak"], "screen_class": r["screen"]}


def on_cpython(name, keys, presses):
    app, _, _, clock = sim.build("pico", tempfile.mkdtemp(prefix="azul-bench-"))
    sim.run_script(app, clock, keys)
    us = []
    timed = TIMED[name]
    for i in range(presses):
        clock.now += sim.KEY_STEP_MS
        t0 = time.perf_counter_ns()
        app.step(clock.now, timed[i % len(timed)])
        us.append((time.perf_counter_ns() - t0) // 1000)
    return {"runtime": "cpython", "screen": name, "presses": len(us), "median_us": median(us),
            "max_us": max(us), "screen_class": type(app.screen).__name__}


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runtime", choices=("micropython", "cpython", "both"), default="both")
    parser.add_argument("--presses", type=int, default=200)
    args = parser.parse_args(argv)
    runtime, presses = args.runtime, args.presses
    with tempfile.TemporaryDirectory() as where:
        for name, keys in scripts(where).items():
            if runtime in ("micropython", "both"):
                print(json.dumps(on_micropython(name, keys, presses)), flush=True)
            if runtime in ("cpython", "both"):
                print(json.dumps(on_cpython(name, keys, presses)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
