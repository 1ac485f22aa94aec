"""No display at power-on (nothing answered where the board file puts it: a loose or crossed
wire, a module at another address, no module): the device cannot run the game, so it says so
on its LEDs, writes why in data/errors.log, and lets its buttons be tested with the LEDs
alone (hardware/README.md, "No display"). The record on flash is not touched: the game
resumes once the display is fixed.

The fault: LED 0 blinks red twice every FAULT_MS. A key event lights every LED in use in the
key's colour (KEY_COLOURS: a long press or a repeat lights its key's too; a three-button
board's long presses light LEFT, BACK and RIGHT's) for KEY_MS: a button that never lights
them is a loose wire or a wrong pin. After DARK_MS without a key the LEDs go dark and a
board that can sleep until a key does so (its boot then looks for the display again).
"""
from hal.keys import CODE_MASK

FAULT_MS = 2000
BLINKS = ((0, 150), (300, 450))  # when LED 0 is lit in each FAULT_MS, ms
KEY_MS = 500
DARK_MS = 600000  # the default "dark" setting: 10 minutes
RED = (160, 0, 0)
# by key code (hal.keys): UP white, DOWN blue, LEFT yellow, RIGHT cyan, OK green, BACK magenta
KEY_COLOURS = (None, (96, 96, 96), (0, 0, 160), (128, 96, 0), (0, 112, 112), (0, 160, 0), (128, 0, 128))
OFF = (0, 0, 0)


def frame(since_start, lit):
    """The LED 0 colour of the fault pattern at since_start ms, or the lit key's colour; and
    the ms until it changes."""
    if lit is not None:
        return lit, 0
    t = since_start % FAULT_MS
    for on, off in BLINKS:
        if t < on:
            return OFF, on - t
        if t < off:
            return RED, off - t
    return OFF, FAULT_MS - t


def run(error, leds, buttons, storage, clock, nap, deep=None, dog=None):
    """The LEDs and buttons alone, for ever (or until deep() sleeps). nap(ms): the board's
    sleep between frames, which a key ends; deep(): its sleep until a key, or None."""
    from app.keeper import Keeper
    keeper = Keeper(storage)
    keeper.boot()  # (its folders made: the first boot may have no display)
    keeper.log("display: %s" % (error,))  # (a flash that cannot take it: the LEDs still say it)
    print("display: %s" % (error,))
    start = last_key = clock.ticks_ms()
    colour = None  # the lit key's colour while KEY_MS lasts
    shown = None
    while True:
        now = clock.ticks_ms()
        buttons.poll(now)
        k = buttons.take()
        while k is not None:
            colour = KEY_COLOURS[k & CODE_MASK]
            last_key = now
            k = buttons.take()
        if colour is not None and clock.ticks_diff(now, last_key) >= KEY_MS:
            colour = None
        if dog:
            dog.feed()
        dark = clock.ticks_diff(now, last_key) >= DARK_MS
        c, ms = frame(clock.ticks_diff(now, start), colour)
        if dark:
            c = OFF
        if c is not shown:
            for i in range(leds.n):
                leds[i] = OFF
            if colour is not None and c is colour:
                leds.fill(c)
            else:
                leds[0] = c
            leds.show()
            shown = c
        if dark and deep is not None and not buttons.busy():
            deep()
        if buttons.busy():
            clock.sleep_ms(10)
        elif colour is not None:
            nap(max(10, KEY_MS - clock.ticks_diff(now, last_key)))
        else:
            nap(max(10, min(ms, 2000)))
