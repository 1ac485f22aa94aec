"""Fake `machine` for the MicroPython unix port: Pin levels set by the test, I2C that records.

Pin(id, mode, pull) keeps one shared level per pin id in LEVELS (1 = high: an open
pull-up button); tests press a button with set_level(id, 0).
I2C records every writeto/writevto as (addr, bytes) in I2C.log.
"""
LEVELS = {}


def set_level(pin_id, level):
    LEVELS[pin_id] = level


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        if pin_id not in LEVELS:
            LEVELS[pin_id] = 0 if pull == Pin.PULL_DOWN else 1
        if value is not None:
            LEVELS[pin_id] = value

    def value(self, v=None):
        if v is None:
            return LEVELS[self.id]
        LEVELS[self.id] = v

    def __call__(self, v=None):
        return self.value(v)


class I2C:
    def __init__(self, i2c_id=0, scl=None, sda=None, freq=400000):
        self.id = i2c_id
        self.scl = scl
        self.sda = sda
        self.freq = freq
        self.log = []

    def scan(self):
        return [0x3C]

    def writeto(self, addr, buf, stop=True):
        self.log.append((addr, bytes(buf)))
        return len(buf)

    def writevto(self, addr, bufs, stop=True):
        data = b"".join(bytes(b) for b in bufs)
        self.log.append((addr, data))
        return len(data)
