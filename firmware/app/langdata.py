"""A language's table (app.lang): its translations and its font, read in place from a
frozen module's bytes or a piece at a time from its file. Loaded only for a language other
than English. The layout is app.lang's docstring's."""
from hal.compat import const

REPLACEMENT = const(0xFFFD)  # the glyph drawn for a character the font does not hold
_HEADER = const(16)


def key_hash(text):
    """The catalogue's 24-bit hash of an English text (djb2 over its UTF-8 bytes): small
    ints on every runtime (host_tools/lang/make.py hashes the keys with it)."""
    h = 5381
    for b in text.encode():
        h = (h * 33 + b) & 0xFFFFFF
    return h


def _folder():
    """The folder this module was loaded from ("app/"), where flash puts the tables' files."""
    path = globals().get("__file__") or "app/x"
    return path[:path.rfind("/") + 1]


def _u16(m, i):
    return m[i] | m[i + 1] << 8


class Table:
    """A language's table: get(english) finds a translation, the font draws the glyphs."""

    def __init__(self, data, f=None):
        self.f = f  # the file the texts and glyphs are read from (data: its index), or None
        m = self.m = memoryview(data)
        self.n = _u16(m, 4)
        self.g = _u16(m, 6)
        self.texts = m[8] | m[9] << 8 | m[10] << 16 | m[11] << 24
        self.glyphs = m[12] | m[13] << 8 | m[14] << 16 | m[15] << 24
        self.codes = _HEADER + 3 * self.n
        self.offsets = self.codes + 2 * self.g
        self.fonts = {}

    @staticmethod
    def open(code):
        """The table of module app.lang_<code> ("zh_hant"): its bytes in place, or its .bin
        file; None when neither is there."""
        try:
            return Table(__import__("app.lang_" + code, None, None, ["DATA"]).DATA)
        except ImportError:
            pass
        try:
            f = open("%slang_%s.bin" % (_folder(), code), "rb")
        except OSError:
            return None
        return Table.read(f)

    @staticmethod
    def read(f):
        """The table of an open file: its index read whole, the rest left in the file."""
        head = bytearray(_HEADER)
        f.readinto(head)
        index = bytearray(_HEADER + 3 * (head[4] | head[5] << 8) + 2 * (head[6] | head[7] << 8))
        f.seek(0)
        f.readinto(index)
        return Table(index, f)

    def close(self):
        if self.f is not None:
            self.f.close()
            self.f = None

    def get(self, text):
        """The translation of text, or None."""
        h = key_hash(text)
        m = self.m
        lo, hi = 0, self.n
        while lo < hi:  # the first hash >= h
            mid = (lo + hi) >> 1
            i = _HEADER + 3 * mid
            if (m[i] | m[i + 1] << 8 | m[i + 2] << 16) < h:
                lo = mid + 1
            else:
                hi = mid
        if lo == self.n:
            return None
        i = _HEADER + 3 * lo
        if (m[i] | m[i + 1] << 8 | m[i + 2] << 16) != h:
            return None
        o = self.offsets + 2 * lo
        f = self.f
        if f is None:
            a = _u16(m, o)
            return str(m[self.texts + a:self.texts + _u16(m, o + 2)], "utf-8")
        ab = bytearray(4)
        f.seek(o)
        f.readinto(ab)
        buf = bytearray(_u16(ab, 2) - _u16(ab, 0))
        f.seek(self.texts + _u16(ab, 0))
        f.readinto(buf)
        return str(buf, "utf-8")

    def glyph(self, code):
        """The index of code's glyph, or of the replacement glyph where the font has none."""
        m = self.m
        c0 = self.codes
        lo, hi = 0, self.g
        while lo < hi:  # (inline: a call costs a Pico more than the comparison)
            mid = (lo + hi) >> 1
            i = c0 + 2 * mid
            if (m[i] | m[i + 1] << 8) < code:
                lo = mid + 1
            else:
                hi = mid
        i = c0 + 2 * lo
        if lo < self.g and (m[i] | m[i + 1] << 8) == code:
            return lo
        return self.g - 1  # U+FFFD sorts last

    def font(self, height):
        """The Font for a display `height` pixels high (12x12 glyphs from 64, else 10x10)."""
        size = 12 if height >= 64 else 10
        f = self.fonts.get(size)
        if f is None:
            f = self.fonts[size] = Font(self, size)
        return f


def _framebuf():
    try:
        import framebuf
        return framebuf.FrameBuffer, framebuf.MONO_HLSB
    except ImportError:  # (CircuitPython; CPython without the simulator's framebuf)
        from hal.framebuf_py import FrameBuffer, MONO_HLSB
        return FrameBuffer, MONO_HLSB


class Font:
    """Text drawn with a table's glyphs: ASCII with the display's own 8x8 font (8 pixels
    wide, set in the row's middle), every other character a size x size cell. Rows are
    `line` pixels high. Drawing allocates nothing per glyph: a glyph is copied out of the
    glyph sheet (or read from the file) into one buffer, then blitted from it."""

    def __init__(self, table, size):
        FrameBuffer, HLSB = _framebuf()
        self.table = table
        self.size = self.line = size
        self.dy = (size - 8) // 2  # where the 8x8 font sits in a row
        self.bytes = 2 * size  # a glyph's bytes
        at = table.glyphs + (0 if size == 12 else 24 * table.g)
        self.at = at
        self.buf = bytearray(self.bytes)
        self.cell = FrameBuffer(self.buf, size, size, HLSB)
        self.sheet = None
        if table.f is None:  # every glyph of the size, one under the other: a read-only framebuffer
            self.sheet = (table.m[at:at + self.bytes * table.g], size, size * table.g, HLSB)
        pal = bytearray(1)
        self.inverse = FrameBuffer(pal, 2, 1, HLSB)  # pixel 0 -> 1, pixel 1 -> 0
        self.inverse.pixel(0, 0, 1)

    def width(self, s):
        """s's width in pixels."""
        w = 0
        cell = self.size
        for b in s.encode():
            if b < 0x80:
                w += 8
            elif b >= 0xC0:  # a character's first byte
                w += cell
        return w

    def fit(self, s, width):
        """s cut to `width` pixels (s itself when it fits)."""
        w = 0
        n = 0  # characters that fit
        cell = self.size
        for b in s.encode():
            if b < 0x80:
                w += 8
            elif b >= 0xC0:
                w += cell
            else:
                continue
            if w > width:
                return s[:n]
            n += 1
        return s

    def text(self, d, s, x, y, c=1):
        """s at x, y (the row's top) on framebuffer d, in colour c: set pixels only."""
        data = s.encode()
        if len(data) == len(s):  # ASCII: the display's own font, as in English
            d.text(s, x, y + self.dy, c)
            return
        cell = self.size
        table = self.table
        n = len(data)
        i = 0
        while i < n and x < d.width:
            b = data[i]
            if b < 0x80:
                d.text(chr(b), x, y + self.dy, c)
                x += 8
                i += 1
                continue
            if b >= 0xF0:  # beyond the BMP: never in the font
                code = REPLACEMENT
                i += 4
            elif b >= 0xE0:
                code = (b & 0x0F) << 12 | (data[i + 1] & 0x3F) << 6 | (data[i + 2] & 0x3F)
                i += 3
            elif b >= 0xC0:
                code = (b & 0x1F) << 6 | (data[i + 1] & 0x3F)
                i += 2
            else:  # (a stray continuation byte)
                code = REPLACEMENT
                i += 1
            self.glyph(d, table.glyph(code), x, y, c)
            x += cell

    def glyph(self, d, k, x, y, c):
        """Glyph k at x, y on d."""
        if self.sheet is not None:
            self.cell.blit(self.sheet, 0, -self.size * k)
        else:
            f = self.table.f
            f.seek(self.at + self.bytes * k)
            f.readinto(self.buf)
        if c:
            d.blit(self.cell, x, y, 0)
        else:
            d.blit(self.cell, x, y, 1, self.inverse)
