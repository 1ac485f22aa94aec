"""Fake MicroPython `neopixel` (the shape of micropython-lib's driver: buf in GRB wire order,
ORDER, write()). write() counts frames in `writes` and keeps the last machine.KEEP in
`frames` (set frames = None to write without allocating: heap_lock tests); on the virtual
board it also records the bytes it would send (machine.board).
"""
import machine


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # GRB(W), as the MicroPython driver

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
        if machine.board:
            machine.board.record("np", getattr(self.pin, "id", self.pin), self.buf)
        if self.frames is not None:
            machine.keep(self.frames, bytes(self.buf))
