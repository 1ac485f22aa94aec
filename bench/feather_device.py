"""Runs on the emulated Feather (bench/feather.py puts it on the drive as featherbench.py).

game(keys): the App built as main.py builds it on a clean data folder (the board file's
SSD1306 on board.I2C(), the NeoPixel, the FAT drive), then the keys (one byte each, hal.keys
codes; WAIT = two seconds pass) fed to App.step with a virtual clock, 100 ms a press, each
timed with time.monotonic_ns around App.step (the key, drawing, the frame's I2C transfer,
the LEDs). Between presses main.py's idle work runs as its loop runs it, each piece timed:
the longest piece is the longest the loop goes without polling the buttons. Prints one
"RESULT {json}" line.
"""
import gc
import json
import os
import time

WAIT = 255
KEY_MS = 100
WAIT_MS = 2000
FRAME_MS = 10


def _us():
    return time.monotonic_ns() // 1000


def _clean():
    for name in ("data/current.jsonl", "data/settings.json"):
        try:
            os.remove(name)
        except OSError:
            pass


def build():
    """main.main() up to its loop; (app, us from the first import to the first frame's end)."""
    t0 = _us()
    import main
    from hal import clock
    board = main.load_board(main.board_name())
    from hal.display import display_from_board
    from hal.leds import leds_from_board
    from hal.storage import Storage
    from app.app import App
    display = display_from_board(board)
    leds = leds_from_board(board)
    gc.collect()
    app = App(display, leds, Storage(), clock, board)
    app.step(clock.ticks_ms(), None)
    return app, _us() - t0


def _idle(app, gap_us, pieces):
    """main.py's loop between presses for gap_us: after_press, then idle() a frame apart while
    more is left. Each piece's us goes to pieces; returns the us the next key waits."""
    import main
    t = 0
    t0 = _us()
    main.after_press()
    dt = _us() - t0
    pieces.append(dt)
    t += dt
    while True:
        t0 = _us()
        more = main.idle(app)
        dt = _us() - t0
        pieces.append(dt)
        t += dt
        if t > gap_us:
            return t - gap_us
        if not more:
            return 0
        t += FRAME_MS * 1000
        if t >= gap_us:
            return 0


def game(path):
    _clean()
    app, first_us = build()
    with open(path, "rb") as f:
        keys = f.read()
    now = 0
    presses, waits, pieces = [], [], []
    waits.append(_idle(app, KEY_MS * 1000, pieces))
    for k in keys:
        if k == WAIT:
            now += WAIT_MS
            _idle(app, WAIT_MS * 1000, pieces)
            continue
        now += KEY_MS
        t0 = _us()
        app.step(now, k)
        presses.append(_us() - t0)
        waits.append(_idle(app, KEY_MS * 1000, pieces))
    gc.collect()
    print("RESULT " + json.dumps({"first_frame_us": first_us, "presses_us": presses, "waits_us": waits,
                                  "longest_idle_piece_us": max(pieces), "idle_pieces": len(pieces),
                                  "screen": type(app.screen).__name__, "mem_free": gc.mem_free()}))
