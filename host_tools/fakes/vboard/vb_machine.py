"""Fake `machine` for the virtual board: Pin, I2C/SoftI2C (recording writes), reset.

Installed as sys.modules["machine"] by vbrepl.py. Only what the firmware uses is here;
anything else raises AttributeError the way a port without it would.
"""
import time

import vb_trace

_values = {}  # pin id -> level the firmware or a test last set


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        if id not in _values:
            # inputs with a pull-up idle high: a button that is not pressed
            _values[id] = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            self.value(value)

    def init(self, mode=-1, pull=-1, value=None):
        self.__init__(self.id, mode, pull, value)

    def value(self, v=None):
        if v is None:
            return _values[self.id]
        _values[self.id] = 1 if v else 0
        if self.mode == Pin.OUT:
            vb_trace.record("pin", self.id, _values[self.id])

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=0):
        return None

    def __repr__(self):
        return "Pin(%s)" % (self.id,)


def set_input(pin_id, level):
    """Drive an input pin from outside (a test pressing a button over the REPL)."""
    _values[pin_id] = 1 if level else 0


class I2C:
    """An I2C bus with one SSD1306 at 0x3C; every write is recorded."""

    def __init__(self, id=0, scl=None, sda=None, freq=400000):
        self.id = id

    def scan(self):
        return [0x3C]

    def writeto(self, addr, buf, stop=True):
        vb_trace.record("i2c", "%02x" % addr, buf)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = bytearray()
        for part in vector:
            data.extend(part)
        vb_trace.record("i2c", "%02x" % addr, data)
        return len(data)

    def readfrom(self, addr, n, stop=True):
        return bytes(n)


SoftI2C = I2C


def trace():
    """The last recorded peripheral writes, oldest first."""
    return list(vb_trace.records)


def unique_id():
    return b"vboard01"


def freq(hz=None):
    return 125000000


def idle():
    time.sleep_ms(1)


def _wait_for_host():
    # the host kills and restarts this process; never return into the program
    while True:
        try:
            time.sleep_ms(100)
        except KeyboardInterrupt:  # a Ctrl-C racing the reset: the reset wins
            pass


def reset():
    """Hard reset: the host restarts the interpreter, keeps the pty/socket."""
    vb_trace.control("RESET")
    _wait_for_host()


def soft_reset():
    vb_trace.control("SOFT")
    _wait_for_host()


def reset_cause():
    return 1  # PWRON_RESET


PWRON_RESET = 1
