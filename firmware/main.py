"""Boot: read the board name, build the HAL devices from its board file, run the App.

On the board the firmware folder's content sits at the root (app/, hal/, boards/,
paths.py, main.py) next to rules_core/; board.txt names the board file (written by
`azul-companion flash`). The host puts firmware/ on sys.path to import the same names.
Safe mode: hold BACK (three-button boards: OK) while powering on and the app does not
start, so mpremote gets the REPL.
"""
import gc

FRAME_MS = 10
WATCHDOG_MS = 8000
SAFE_MODE_MS = 60  # sample the buttons this long at power-on (longer than the debounce)


def board_name():
    try:
        with open("board.txt") as f:
            return f.read().strip() or "pico"
    except OSError:
        return "pico"


def load_board(name):
    """The BOARD dict of boards/<name>.py (pin numbers live only there)."""
    return __import__("boards." + name, None, None, ("BOARD",)).BOARD


def safe_mode(buttons, board, clock):
    """True when BACK (or OK on a three-button board) is held at power-on."""
    from hal.keys import BACK, OK
    start = clock.ticks_ms()
    while clock.ticks_diff(clock.ticks_ms(), start) < SAFE_MODE_MS:
        buttons.poll(clock.ticks_ms())
        clock.sleep_ms(5)
    return buttons.logic.held(OK if board.get("three_button") else BACK)


def watchdog(board):
    if not board.get("watchdog"):
        return None
    try:
        from machine import WDT
        return WDT(timeout=WATCHDOG_MS)
    except ImportError:  # CircuitPython / host: no machine.WDT
        return None


def main():
    from hal import clock
    from hal.buttons import buttons_from_board
    board = load_board(board_name())
    buttons = buttons_from_board(board)
    if safe_mode(buttons, board, clock):
        print("safe mode: button held at power-on, app not started")
        return
    from hal.display import display_from_board
    from hal.leds import leds_from_board
    display = display_from_board(board)
    leds = leds_from_board(board)
    from hal.storage import Storage
    from app.app import App
    gc.collect()
    app = App(display, leds, Storage(), clock, board)
    dog = watchdog(board)
    while True:
        now = clock.ticks_ms()
        buttons.poll(now)
        app.step(now, buttons.take())
        key = buttons.take()
        while key is not None:  # several presses latched in one frame
            app.step(now, key)
            key = buttons.take()
        if dog:
            dog.feed()
        clock.sleep_ms(FRAME_MS)


if __name__ == "__main__":
    main()
