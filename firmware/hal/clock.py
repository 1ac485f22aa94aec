"""Millisecond ticks that wrap, and sleeping, with the same functions on every runtime.

ticks_ms() counts up and wraps at TICKS_PERIOD; only differences taken with ticks_diff()
are meaningful. MicroPython: time.ticks_* (period 2**30). CircuitPython:
supervisor.ticks_ms (period 2**29). CPython: time.monotonic (period 2**30, like MicroPython).

light_sleep_ms(ms) sleeps with the chip's clocks slowed where the board file says its port
can ("sleep": "lightsleep"): MicroPython's machine.lightsleep(ms). On rp2 (v1.28) that runs
the system clock from the 12 MHz crystal with the PLLs off, gates every clock but the timer's
(ticks_ms keeps counting), keeps the USB clock while a USB host has configured the board (the
REPL survives), and ends early on any pin interrupt that has a handler (hal.buttons arms the
button pins). Elsewhere it is sleep_ms.

deep_sleep(gpios, level) sleeps as deep as an RP2040 can under MicroPython and does not
return: see there.
"""
import time

# RP2040 IO_BANK0: DORMANT_WAKE_INTE0..3, 8 GPIOs a register, 4 bits a GPIO (level low,
# level high, edge low, edge high); +0x2000 is the register's atomic bit-set alias
_DORMANT_WAKE_SET = 0x40014160 + 0x2000
RELEASE_MS = 3000  # after a wake, the press's release is awaited this long at most


def deep_sleep(gpios, level=0):
    """rp2 (the board file's "deep_sleep": "dormant"): stop every clock, the crystal's
    included (DORMANT: machine.lightsleep() with no time), until one of `gpios` reads
    `level` (a button pressed), then reset once they have all left it (the press only
    wakes: it acts on nothing) or after RELEASE_MS. RAM is lost: the boot resumes the game
    from its record on flash, whole after every entry, as after a power cut. The watchdog
    counts from the crystal, so it stops meanwhile; USB stops too. Returns at once on a port
    without machine.mem32 (the virtual board's unix port), whose loop then naps as usual."""
    try:
        from machine import Pin, lightsleep, mem32, reset
    except ImportError:
        return
    pins = [Pin(g) for g in gpios]  # (set up as inputs by the buttons: left as they are)
    for g in gpios:
        mem32[_DORMANT_WAKE_SET + 4 * (g >> 3)] = 1 << (4 * (g & 7) + (1 if level else 0))
    lightsleep()
    start = ticks_ms()
    clear = 0  # samples in a row with every pin released (3: past a contact's bounce)
    while clear < 3 and ticks_diff(ticks_ms(), start) < RELEASE_MS:
        clear += 1
        for p in pins:
            if p.value() == level:
                clear = 0
        sleep_ms(10)
    reset()

try:
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
    ticks_add = time.ticks_add
    sleep_ms = time.sleep_ms
    TICKS_PERIOD = 1 << 30

    try:
        # imported once, here: machine is a built-in that a file may extend, so an import
        # statement in the loop would look for machine.py on the flash at every nap
        from machine import lightsleep as _lightsleep
    except ImportError:  # a port without it (the unix port)
        _lightsleep = sleep_ms  # type: ignore[assignment]

    def light_sleep_ms(ms):
        _lightsleep(ms)
except AttributeError:
    try:
        from supervisor import ticks_ms as _raw_ms
        TICKS_PERIOD = 1 << 29
    except ImportError:
        TICKS_PERIOD = 1 << 30
        if hasattr(time, "monotonic_ns"):
            def _raw_ms():
                # CPython only: MicroPython's time (the stubs) has ticks_ms instead
                return time.monotonic_ns() // 1000000  # type: ignore[attr-defined]
        else:
            def _raw_ms():
                return int(time.monotonic() * 1000)  # type: ignore[attr-defined]  # as above

    _MASK = TICKS_PERIOD - 1
    _HALF = TICKS_PERIOD >> 1

    def ticks_ms():
        return _raw_ms() & _MASK

    def ticks_diff(a, b):
        """Signed a - b, correct across one wrap (|a - b| < TICKS_PERIOD / 2)."""
        return ((a - b + _HALF) & _MASK) - _HALF

    def ticks_add(t, delta):
        return (t + delta) & _MASK

    def sleep_ms(ms):
        time.sleep(ms / 1000)

    light_sleep_ms = sleep_ms


class Manual:
    """A clock whose time its owner sets (the simulator and the tests step it): ticks_ms()
    is `now`, differences do not wrap."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b
