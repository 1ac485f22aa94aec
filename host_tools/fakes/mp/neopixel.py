"""Fake MicroPython `neopixel` (same shape as micropython-lib's driver: buf in GRB wire
order, ORDER, write()). write() counts frames and, while `frames` is a list, keeps a copy
of each; set frames = None to write without allocating (heap_lock tests).
"""


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes = 0
        self.frames = []

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for k in range(self.bpp):
            self.buf[offset + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        self.writes += 1
        if self.frames is not None:
            self.frames.append(bytes(self.buf))
