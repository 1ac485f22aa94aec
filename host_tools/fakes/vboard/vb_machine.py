"""Fake `machine` for the virtual board: Pin, I2C/SoftI2C (recording writes), WDT, reset.

Installed as sys.modules["machine"] by vbrepl.py. Only what the firmware uses is here;
anything else raises AttributeError the way a port without it would.

Buttons: the host presses them by appending steps to the file named by VBOARD_BUTTONS,
one line each: `SEQ MS PIN=LEVEL PIN=LEVEL ...`. Input pins read those levels. A step
starts at the first pin read that sees it and lasts until a pin read at least MS board
milliseconds later, which still returns its levels (so the firmware sampled it at both
ends); then "KEYS SEQ" goes to the host and the next step starts at a later millisecond.
"""
import os
import time

import vb_trace

_values = {}  # pin id -> level the firmware or a host step last set


class _ButtonSteps:
    """The host's button steps, applied to _values on pin reads (board clock)."""

    def __init__(self, path):
        self._file = open(path) if path else None  # opened before the flash is mounted
        self._buf = ""
        self._seq = -1     # step in force (-1: none yet)
        self._started = 0  # board ms when it started
        self._ms = 0       # how long it lasts
        self._done = True  # its end was sampled and reported
        self._looked = -1  # board ms of the last look at the file (one look per ms)

    def poll(self):
        if self._file is None:
            return
        now = time.ticks_ms()
        if not self._done:
            if time.ticks_diff(now, self._started) < self._ms:
                return
            self._done = True  # this read still returns the step's levels
            self._looked = now
            vb_trace.control("KEYS %d" % self._seq)
            return
        if now == self._looked:
            return
        self._looked = now
        if "\n" not in self._buf:
            self._buf += self._file.read()
            if "\n" not in self._buf:
                return
        line, self._buf = self._buf.split("\n", 1)
        parts = line.split()
        for part in parts[2:]:
            pin, level = part.split("=")
            _values[int(pin)] = int(level)
        self._seq, self._ms = int(parts[0]), int(parts[1])
        self._started = now
        self._done = False


_steps = _ButtonSteps(os.getenv("VBOARD_BUTTONS"))


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
            if self.mode == Pin.IN:
                _steps.poll()
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


class WDT:
    """Watchdog: records its timeout; feeds are not checked (a loaded host stalls)."""

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        vb_trace.record("wdt", id, timeout)

    def feed(self):
        pass


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
