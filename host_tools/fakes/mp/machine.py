"""Fake `machine` for the MicroPython unix port: Pin and I2C. Used by the tests (this
folder first on sys.path) and by the virtual board (fakes/vboard/vbrepl.py installs it as
sys.modules["machine"] and plugs in its link to the host, which adds what needs a host:
WDT, reset). Only what the firmware uses is here, and small: tests measure the firmware's
heap with it loaded; anything else raises AttributeError as a port without it would.

Pins: one level per pin id; an input idles high with a pull-up (an open button), else low.
Tests drive an input with set_level(id, level); on the virtual board the host's button
steps do (board.poll() on each input read). lightsleep(ms) sleeps as rp2's does: until ms
have passed or a pin armed with Pin.irq changes level.
Writes: each I2C keeps its last KEEP transfers in `log` as (addr, bytes), each NeoPixel its
last KEEP frames (neopixel.py); KEEP = 0 keeps none. With a board plugged in, every write
also goes to board.record(kind, where, data) (the virtual board's trace file).
"""
KEEP = 8
LEVELS = {}  # pin id -> level the firmware, a test or a host step last set
ARMED = []   # ids of the pins with an interrupt (Pin.irq): they end a lightsleep
board = None  # the virtual board's link to its host (fakes/vboard/vb_host.py), if any


def set_level(pin_id, level):
    """Drive an input pin from outside (a test, or a press over the virtual board's REPL)."""
    LEVELS[pin_id] = 1 if level else 0


def keep(log, item):
    """Append item to a log of at most KEEP items."""
    if KEEP:
        log.append(item)
        if len(log) > KEEP:
            log.pop(0)


def lightsleep(ms):
    import time
    start = time.ticks_ms()
    before = [LEVELS[p] for p in ARMED]
    while time.ticks_diff(time.ticks_ms(), start) < ms:
        time.sleep_ms(2)
        if board:
            board.poll()
        for i in range(len(ARMED)):
            if LEVELS[ARMED[i]] != before[i]:
                return


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        if id not in LEVELS:
            LEVELS[id] = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            if board and self.mode == Pin.IN:
                board.poll()
            return LEVELS[self.id]
        LEVELS[self.id] = 1 if v else 0
        if board and self.mode == Pin.OUT:
            board.record("pin", self.id, LEVELS[self.id])

    def __call__(self, v=None):
        return self.value(v)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING):
        if self.id not in ARMED:
            ARMED.append(self.id)


class I2C:
    """An I2C bus with one SSD1306 at 0x3C."""

    def __init__(self, id=0, scl=None, sda=None, freq=400000):
        self.log = []

    def scan(self):
        return [0x3C]

    def writeto(self, addr, buf, stop=True):
        if board:
            board.record("i2c", "%02x" % addr, buf)
        keep(self.log, (addr, bytes(buf)))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = bytearray()
        for part in vector:
            data.extend(part)
        return self.writeto(addr, data, stop)
