"""Boot: read the board name, build the HAL devices from its board file, run the App.

On the board the firmware folder's content sits at the root (app/, hal/, boards/,
paths.py, main.py) next to rules_core/; board.txt names the board file (written by
`azul-companion flash`). The host puts firmware/ on sys.path to import the same names.
Safe mode: hold BACK (three-button boards: OK) while powering on and the app does not
start, so mpremote gets the REPL.

Between frames the loop sleeps for as long as the App has nothing due (App.quiet_ms), a
frame apart while a button is down (BACK held: HELD_WORK_MS) or while work is left to do
ahead (idle).
Where the board file says "sleep": "lightsleep" a press wakes the chip (hal.clock,
hal.buttons), so it sleeps up to NAP_MS, inside the watchdog's timeout (fed every loop);
elsewhere it wakes at least every POLL_MS, so that a press is seen, debounced and drawn
within 100 ms. Where it says "deep_sleep": "dormant", once the App is dark (app.idle: the
display off; app.leds: the LEDs off, their rail too) with nothing due, the chip sleeps until
a button (hal.clock.deep_sleep), which resets it: the boot resumes the game from flash.
No display found at power-on: app.nodisplay runs the LEDs and the buttons alone.
"""
import gc
import sys

from boards import load as load_board  # (the tests and circuitpython_boot.py use it by this name)

FRAME_MS = 10
# While BACK (the undo key) is held, its first HELD_WORK_MS run a piece of the game's undo
# work ahead a frame (App.prepare_undo), nothing else: undos one after another give that work most of
# its time there, not in the gaps between them; the undo BACK fires at 600 ms (hal.buttons)
# meets no piece under way, and nothing longer (an import) is met by a release.
HELD_WORK_MS = 450
POLL_MS = 40
NAP_MS = 2000
WATCHDOG_MS = 8000
SAFE_MODE_MS = 60  # sample the buttons this long at power-on (longer than the debounce)
# The collector runs only right after a press's frame is sent (and the boot's first frame),
# once fewer than COLLECT_FREE bytes are free: the frame is on the screen and the next press
# is a human's press away. COLLECT_FREE is more than a press and the idle work after it
# allocate, so no press runs one. gc.mem_free() scans the whole allocation table: only here.
COLLECT_FREE = 80 * 1024
_mem_free = getattr(gc, "mem_free", None)  # (MicroPython, CircuitPython): looked up once
# Built-in modules the app imports again and again (the keeper, the session, the settings):
# MicroPython keeps no built-in module that a file could replace (json, time, ...) in
# sys.modules and looks for such a file at every import (six stats of the flash). Put there
# once, here, an import finds it at once. (Module-level code: its bytecode goes once run.)
try:
    import json
    import collections
    sys.modules["json"] = json
    sys.modules["collections"] = collections
    del json, collections
except ImportError:  # (a port built without one of them)
    pass


def board_name():
    """board.txt's (written by `azul-companion flash`), else the image's (frozen by
    `azul-companion build`), else "pico"."""
    try:
        with open("board.txt") as f:
            return f.read().strip() or "pico"
    except OSError:
        pass
    try:
        import image  # type: ignore[import-not-found]  # (frozen in an image only)
        return image.BOARD
    except ImportError:
        return "pico"


def safe_mode(buttons, board, clock):
    """True when BACK (or OK on a three-button board) is held at power-on."""
    from hal.keys import BACK, OK
    start = clock.ticks_ms()
    while clock.ticks_diff(clock.ticks_ms(), start) < SAFE_MODE_MS:
        buttons.poll(clock.ticks_ms())
        clock.sleep_ms(5)
    return buttons.logic.held(OK if board.get("three_button") else BACK)


def after_press():
    """Right after a press's frame (or the first) is sent: collect once less than
    COLLECT_FREE is free."""
    if _mem_free is not None and _mem_free() < COLLECT_FREE:
        gc.collect()


def idle(app, work=None):
    """The loop's work while nobody presses, one piece a frame (a press that comes meanwhile
    waits for it): App.prepare (while BACK is held, `work`: App.prepare_undo). True while more is left. A bug in that work is logged as a press's
    is (data/errors.log) and stops it until the next key, whose press does the same work
    and says what went wrong: the loop goes on, and the log does not grow a line a frame."""
    if app.paused:
        return False
    try:
        return (work or app.prepare)()
    except Exception as e:
        app.paused = True
        app.keeper.log_error(e)
        return False


def turn(app, buttons, now):
    """One turn of the device's loop, the same on the board, the web page and the terminal:
    the buttons polled and every key they latched handed to the App (a frame each; with none,
    one frame all the same). True when a key came."""
    buttons.poll(now)
    key = buttons.take()
    app.step(now, key)
    pressed = key is not None
    key = buttons.take()
    while key is not None:  # several presses latched in one frame
        app.step(now, key)
        pressed = True
        key = buttons.take()
    return pressed


def storage_from_board(board):
    """The Storage the games live on: where the board file has a "store" (an I2C FRAM:
    hal.fram_fs), the files on it; where that is missing or unreadable, the board's own
    filesystem, marked not cut_safe (the keeper says so at power-on: docs/reliability.md)."""
    from hal.storage import Storage
    cfg = board.get("store")
    if not cfg:
        return Storage()
    try:
        from hal.display import i2c_bus
        from hal.fram_fs import FramFS, I2CMemory
        fs = FramFS(I2CMemory(i2c_bus(cfg, board.get("runtime") == "circuitpython"), cfg.get("addr", 0x50)))
    except (OSError, RuntimeError) as e:  # (RuntimeError: CircuitPython found no pull-ups on the bus)
        print("store: %s" % (e,))
        return Storage(cut_safe=False)
    return Storage(fs.open, fs, remount=None, warm_bytes=0)


def watchdog(board):
    if not board.get("watchdog"):
        return None
    try:
        from machine import WDT
        return WDT(timeout=WATCHDOG_MS)
    except ImportError:  # CircuitPython / host: no machine.WDT
        return None


def deep_sleeper(board):
    """The board's sleep until a button once dark (a function that does not return), or None."""
    if board.get("deep_sleep") != "dormant":
        return None
    from hal.clock import deep_sleep
    pins = list(board["buttons"].values())
    if board.get("encoder"):
        pins.append(board["encoder"]["push"])
    level = 0 if board.get("button_pull", "up") == "up" else 1  # a pressed button's level
    return lambda: deep_sleep(pins, level)


def sleeper(board, clock):
    """(sleep function, longest sleep) for the board: a light sleep that a press ends (the
    button pins' interrupts, hal.buttons), or plain sleeps short enough to see a press in time."""
    if board.get("sleep") == "lightsleep":
        return clock.light_sleep_ms, NAP_MS
    return clock.sleep_ms, POLL_MS


def main():
    from hal import clock
    from hal.buttons import buttons_from_board
    board = load_board(board_name())
    buttons = buttons_from_board(board)
    if safe_mode(buttons, board, clock):
        print("safe mode: button held at power-on, app not started")
        return
    from hal.display import display_from_board, NoDisplay
    from hal.leds import leds_from_board
    try:
        display = display_from_board(board)
    except NoDisplay as e:
        display = e
    leds = leds_from_board(board)
    storage = storage_from_board(board)
    deep = deep_sleeper(board)
    nap, longest = sleeper(board, clock)
    if isinstance(display, NoDisplay):
        from app.nodisplay import run
        run(display, leds, buttons, storage, clock, nap, deep, watchdog(board))
        return
    from app.app import App
    from app.idle import BLANK, FOREVER_MS
    gc.collect()
    app = App(display, leds, storage, clock, board)
    dog = watchdog(board)
    drawn = True  # a press's frame (or the first) is being sent
    down = None  # when a button went down (ticks_ms), while one is
    from hal.keys import BACK
    while True:
        now = clock.ticks_ms()
        drawn = turn(app, buttons, now) or drawn
        if drawn:
            after_press()
            drawn = False
        if dog:
            dog.feed()
        if buttons.busy():
            down = now if down is None else down
            if clock.ticks_diff(now, down) < HELD_WORK_MS and buttons.logic.held(BACK):
                idle(app, app.prepare_undo)  # (its work: the game's undo, guarded as idle work is)
            clock.sleep_ms(FRAME_MS)
            continue
        down = None
        if idle(app):  # nobody is pressing: the work ahead now, not in a press
            clock.sleep_ms(FRAME_MS)  # more left: the next piece a frame later
            continue
        quiet = app.quiet_ms(clock.ticks_ms())
        if deep and quiet >= FOREVER_MS and app.idle.level == BLANK:
            deep()  # dark, nothing due: only a key changes anything (it resets the chip; a port that
            # cannot sleep so returns, and naps)
        nap(max(FRAME_MS, min(quiet, longest)))


if __name__ == "__main__":
    main()
