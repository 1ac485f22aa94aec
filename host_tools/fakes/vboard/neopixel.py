"""Fake `neopixel` for the virtual board: write() records the GRB bytes it would send."""
import vb_trace


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # GRB(W), as the MicroPython driver

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)

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
        vb_trace.record("np", getattr(self.pin, "id", self.pin), self.buf)
