"""A reader of X11 PCF bitmap fonts (what Debian's xfonts-* packages install, gzipped): the
glyph bitmap of a code point, placed on the font's baseline in a cell. Enough of the format
(X.Org's pcfread.c) for the fonts host_tools/lang/make.py subsets."""
import gzip
import struct

_ACCELERATORS, _METRICS, _BITMAPS, _ENCODINGS, _BDF_ACCELERATORS = 2, 4, 8, 32, 256
_BYTE_MSB, _BIT_MSB, _COMPRESSED = 1 << 2, 1 << 3, 0x100


class PcfError(Exception):
    pass


class Font:
    def __init__(self, path):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b"\x01fcp":
            raise PcfError("%s: not a PCF font" % path)
        (count,) = struct.unpack_from("<i", d, 4)
        self.tables = {}
        for i in range(count):
            kind, fmt, size, offset = struct.unpack_from("<iiii", d, 8 + 16 * i)
            self.tables[kind] = (fmt, offset)
        self._accelerators()
        self._metrics()
        self._bitmaps()
        self._encodings()

    def _table(self, kind):
        fmt, offset = self.tables[kind]
        (fmt,) = struct.unpack_from("<i", self.data, offset)
        return fmt, offset + 4, ">" if fmt & _BYTE_MSB else "<"

    def _accelerators(self):
        fmt, at, e = self._table(_BDF_ACCELERATORS if _BDF_ACCELERATORS in self.tables else _ACCELERATORS)
        self.ascent, self.descent = struct.unpack_from(e + "ii", self.data, at + 8)

    def _metrics(self):
        fmt, at, e = self._table(_METRICS)
        d = self.data
        self.metrics = []
        if fmt & _COMPRESSED:
            (n,) = struct.unpack_from(e + "h", d, at)
            for i in range(n):
                lsb, rsb, width, asc, desc = (b - 0x80 for b in d[at + 2 + 5 * i:at + 7 + 5 * i])
                self.metrics.append((lsb, rsb, width, asc, desc))
        else:
            (n,) = struct.unpack_from(e + "i", d, at)
            for i in range(n):
                self.metrics.append(struct.unpack_from(e + "hhhhh", d, at + 4 + 12 * i))

    def _bitmaps(self):
        fmt, at, e = self._table(_BITMAPS)
        d = self.data
        (n,) = struct.unpack_from(e + "i", d, at)
        self.offsets = struct.unpack_from(e + "%di" % n, d, at + 4)
        self.bits = at + 4 + 4 * n + 16
        self.pad = 1 << (fmt & 3)
        self.bit_msb = bool(fmt & _BIT_MSB)

    def _encodings(self):
        fmt, at, e = self._table(_ENCODINGS)
        d = self.data
        self.min2, self.max2, self.min1, self.max1, self.default = struct.unpack_from(e + "hhhhh", d, at)
        n = (self.max2 - self.min2 + 1) * (self.max1 - self.min1 + 1)
        self.index = struct.unpack_from(e + "%dH" % n, d, at + 10)

    def has(self, code):
        return self._glyph(code) is not None

    def _glyph(self, code):
        b1, b2 = code >> 8, code & 0xFF
        if not (self.min1 <= b1 <= self.max1 and self.min2 <= b2 <= self.max2):
            return None
        i = self.index[(b1 - self.min1) * (self.max2 - self.min2 + 1) + b2 - self.min2]
        return None if i == 0xFFFF else i

    def rows(self, code, size):
        """The glyph of code in a size x size cell, its baseline at the font's ascent (the
        cell's top row the font's top): size ints, bit size - 1 - x set for a pixel at x."""
        g = self._glyph(code)
        if g is None:
            raise PcfError("no glyph for U+%04X" % code)
        lsb, rsb, width, asc, desc = self.metrics[g]
        w = rsb - lsb
        stride = ((w + 7) // 8 + self.pad - 1) // self.pad * self.pad
        base = self.bits + self.offsets[g]
        out = [0] * size
        top = self.ascent - asc
        for r in range(asc + desc):
            y = top + r
            if not 0 <= y < size:
                continue
            row = self.data[base + r * stride:base + (r + 1) * stride]
            for x in range(w):
                byte = row[x // 8]
                bit = byte >> (7 - x % 8) & 1 if self.bit_msb else byte >> (x % 8) & 1
                cx = lsb + x
                if bit and 0 <= cx < size:
                    out[y] |= 1 << (size - 1 - cx)
        return out
