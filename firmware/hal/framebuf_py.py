"""Pure-Python MONO_VLSB FrameBuffer with the API and the 8x8 font of MicroPython's framebuf.

Used where the runtime has no built-in framebuf (CircuitPython, CPython) so that text and
shapes land on exactly the same pixels everywhere; the drawing rules (clipping, Bresenham
steps, text transparency) follow MicroPython's extmod/modframebuf.c.
Formats: MONO_VLSB (the SSD1306 page layout) and MONO_HLSB (for icons); no ellipse/poly.
"""
from hal.compat import const

MONO_VLSB = const(0)
MONO_HLSB = const(3)
MVLSB = MONO_VLSB

# font_petme128_8x8 from MicroPython's extmod/font_petme128_8x8.h (MIT, Damien P. George):
# one bytes object: chars 32..127, 8 column bytes each (bit 0 at the top)
FONT_8X8 = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00"  # 32
    b"\x00\x00\x00\x4f\x4f\x00\x00\x00"  # 33 !
    b"\x00\x07\x07\x00\x00\x07\x07\x00"  # 34 "
    b"\x14\x7f\x7f\x14\x14\x7f\x7f\x14"  # 35 #
    b"\x00\x24\x2e\x6b\x6b\x3a\x12\x00"  # 36 $
    b"\x00\x63\x33\x18\x0c\x66\x63\x00"  # 37 %
    b"\x00\x32\x7f\x4d\x4d\x77\x72\x50"  # 38 &
    b"\x00\x00\x00\x04\x06\x03\x01\x00"  # 39 '
    b"\x00\x00\x1c\x3e\x63\x41\x00\x00"  # 40 (
    b"\x00\x00\x41\x63\x3e\x1c\x00\x00"  # 41 )
    b"\x08\x2a\x3e\x1c\x1c\x3e\x2a\x08"  # 42 *
    b"\x00\x08\x08\x3e\x3e\x08\x08\x00"  # 43 +
    b"\x00\x00\x80\xe0\x60\x00\x00\x00"  # 44 ,
    b"\x00\x08\x08\x08\x08\x08\x08\x00"  # 45 -
    b"\x00\x00\x00\x60\x60\x00\x00\x00"  # 46 .
    b"\x00\x40\x60\x30\x18\x0c\x06\x02"  # 47 /
    b"\x00\x3e\x7f\x49\x45\x7f\x3e\x00"  # 48 0
    b"\x00\x40\x44\x7f\x7f\x40\x40\x00"  # 49 1
    b"\x00\x62\x73\x51\x49\x4f\x46\x00"  # 50 2
    b"\x00\x22\x63\x49\x49\x7f\x36\x00"  # 51 3
    b"\x00\x18\x18\x14\x16\x7f\x7f\x10"  # 52 4
    b"\x00\x27\x67\x45\x45\x7d\x39\x00"  # 53 5
    b"\x00\x3e\x7f\x49\x49\x7b\x32\x00"  # 54 6
    b"\x00\x03\x03\x79\x7d\x07\x03\x00"  # 55 7
    b"\x00\x36\x7f\x49\x49\x7f\x36\x00"  # 56 8
    b"\x00\x26\x6f\x49\x49\x7f\x3e\x00"  # 57 9
    b"\x00\x00\x00\x24\x24\x00\x00\x00"  # 58 :
    b"\x00\x00\x80\xe4\x64\x00\x00\x00"  # 59 ;
    b"\x00\x08\x1c\x36\x63\x41\x41\x00"  # 60 <
    b"\x00\x14\x14\x14\x14\x14\x14\x00"  # 61 =
    b"\x00\x41\x41\x63\x36\x1c\x08\x00"  # 62 >
    b"\x00\x02\x03\x51\x59\x0f\x06\x00"  # 63 ?
    b"\x00\x3e\x7f\x41\x4d\x4f\x2e\x00"  # 64 @
    b"\x00\x7c\x7e\x0b\x0b\x7e\x7c\x00"  # 65 A
    b"\x00\x7f\x7f\x49\x49\x7f\x36\x00"  # 66 B
    b"\x00\x3e\x7f\x41\x41\x63\x22\x00"  # 67 C
    b"\x00\x7f\x7f\x41\x63\x3e\x1c\x00"  # 68 D
    b"\x00\x7f\x7f\x49\x49\x41\x41\x00"  # 69 E
    b"\x00\x7f\x7f\x09\x09\x01\x01\x00"  # 70 F
    b"\x00\x3e\x7f\x41\x49\x7b\x3a\x00"  # 71 G
    b"\x00\x7f\x7f\x08\x08\x7f\x7f\x00"  # 72 H
    b"\x00\x00\x41\x7f\x7f\x41\x00\x00"  # 73 I
    b"\x00\x20\x60\x41\x7f\x3f\x01\x00"  # 74 J
    b"\x00\x7f\x7f\x1c\x36\x63\x41\x00"  # 75 K
    b"\x00\x7f\x7f\x40\x40\x40\x40\x00"  # 76 L
    b"\x00\x7f\x7f\x06\x0c\x06\x7f\x7f"  # 77 M
    b"\x00\x7f\x7f\x0e\x1c\x7f\x7f\x00"  # 78 N
    b"\x00\x3e\x7f\x41\x41\x7f\x3e\x00"  # 79 O
    b"\x00\x7f\x7f\x09\x09\x0f\x06\x00"  # 80 P
    b"\x00\x1e\x3f\x21\x61\x7f\x5e\x00"  # 81 Q
    b"\x00\x7f\x7f\x19\x39\x6f\x46\x00"  # 82 R
    b"\x00\x26\x6f\x49\x49\x7b\x32\x00"  # 83 S
    b"\x00\x01\x01\x7f\x7f\x01\x01\x00"  # 84 T
    b"\x00\x3f\x7f\x40\x40\x7f\x3f\x00"  # 85 U
    b"\x00\x1f\x3f\x60\x60\x3f\x1f\x00"  # 86 V
    b"\x00\x7f\x7f\x30\x18\x30\x7f\x7f"  # 87 W
    b"\x00\x63\x77\x1c\x1c\x77\x63\x00"  # 88 X
    b"\x00\x07\x0f\x78\x78\x0f\x07\x00"  # 89 Y
    b"\x00\x61\x71\x59\x4d\x47\x43\x00"  # 90 Z
    b"\x00\x00\x7f\x7f\x41\x41\x00\x00"  # 91 [
    b"\x00\x02\x06\x0c\x18\x30\x60\x40"  # 92 \
    b"\x00\x00\x41\x41\x7f\x7f\x00\x00"  # 93 ]
    b"\x00\x08\x0c\x06\x06\x0c\x08\x00"  # 94 ^
    b"\xc0\xc0\xc0\xc0\xc0\xc0\xc0\xc0"  # 95 _
    b"\x00\x00\x01\x03\x06\x04\x00\x00"  # 96 `
    b"\x00\x20\x74\x54\x54\x7c\x78\x00"  # 97 a
    b"\x00\x7f\x7f\x44\x44\x7c\x38\x00"  # 98 b
    b"\x00\x38\x7c\x44\x44\x6c\x28\x00"  # 99 c
    b"\x00\x38\x7c\x44\x44\x7f\x7f\x00"  # 100 d
    b"\x00\x38\x7c\x54\x54\x5c\x58\x00"  # 101 e
    b"\x00\x08\x7e\x7f\x09\x03\x02\x00"  # 102 f
    b"\x00\x98\xbc\xa4\xa4\xfc\x7c\x00"  # 103 g
    b"\x00\x7f\x7f\x04\x04\x7c\x78\x00"  # 104 h
    b"\x00\x00\x00\x7d\x7d\x00\x00\x00"  # 105 i
    b"\x00\x40\xc0\x80\x80\xfd\x7d\x00"  # 106 j
    b"\x00\x7f\x7f\x30\x38\x6c\x44\x00"  # 107 k
    b"\x00\x00\x41\x7f\x7f\x40\x00\x00"  # 108 l
    b"\x00\x7c\x7c\x18\x30\x18\x7c\x7c"  # 109 m
    b"\x00\x7c\x7c\x04\x04\x7c\x78\x00"  # 110 n
    b"\x00\x38\x7c\x44\x44\x7c\x38\x00"  # 111 o
    b"\x00\xfc\xfc\x24\x24\x3c\x18\x00"  # 112 p
    b"\x00\x18\x3c\x24\x24\xfc\xfc\x00"  # 113 q
    b"\x00\x7c\x7c\x04\x04\x0c\x08\x00"  # 114 r
    b"\x00\x48\x5c\x54\x54\x74\x20\x00"  # 115 s
    b"\x04\x04\x3f\x7f\x44\x64\x20\x00"  # 116 t
    b"\x00\x3c\x7c\x40\x40\x7c\x3c\x00"  # 117 u
    b"\x00\x1c\x3c\x60\x60\x3c\x1c\x00"  # 118 v
    b"\x00\x1c\x7c\x30\x18\x30\x7c\x1c"  # 119 w
    b"\x00\x44\x6c\x38\x38\x6c\x44\x00"  # 120 x
    b"\x00\x9c\xbc\xa0\xa0\xfc\x7c\x00"  # 121 y
    b"\x00\x44\x64\x74\x5c\x4c\x44\x00"  # 122 z
    b"\x00\x08\x08\x3e\x77\x41\x41\x00"  # 123 {
    b"\x00\x00\x00\xff\xff\x00\x00\x00"  # 124 |
    b"\x00\x41\x41\x77\x3e\x08\x08\x00"  # 125 }
    b"\x00\x02\x03\x01\x03\x02\x03\x01"  # 126 ~
    b"\xaa\x55\xaa\x55\xaa\x55\xaa\x55"  # 127
)


_SLICE = const(256)  # the widest page span filled by slice copy
_FULL = memoryview(b"\xff" * _SLICE)
_EMPTY = memoryview(bytes(_SLICE))


class FrameBuffer:
    """A 1-bit frame buffer over `buf` (any writable buffer: bytearray, memoryview)."""

    def __init__(self, buf, width, height, format=MONO_VLSB, stride=None):
        if format != MONO_VLSB and format != MONO_HLSB:
            raise ValueError("FrameBuffer: only MONO_VLSB and MONO_HLSB are supported, got %r" % (format,))
        self.buf = buf
        self.width = width
        self.height = height
        self.format = format
        self.stride = width if stride is None else stride
        # MONO_HLSB rows are whole bytes
        if format == MONO_HLSB:
            self.stride = (self.stride + 7) & ~7
        need = self.stride * ((height + 7) // 8) if format == MONO_VLSB else self.stride * height // 8
        if len(buf) < need:
            raise ValueError("FrameBuffer: buffer of %d bytes is smaller than %d" % (len(buf), need))

    def _get(self, x, y):
        if self.format == MONO_VLSB:
            return (self.buf[(y >> 3) * self.stride + x] >> (y & 7)) & 1
        index = (x + y * self.stride) >> 3
        return (self.buf[index] >> (7 - (x & 7))) & 1

    def _set(self, x, y, c):
        if self.format == MONO_VLSB:
            index = (y >> 3) * self.stride + x
            bit = 1 << (y & 7)
        else:
            index = (x + y * self.stride) >> 3
            bit = 0x80 >> (x & 7)
        if c:
            self.buf[index] |= bit
        else:
            self.buf[index] &= ~bit & 0xFF

    def _fill_rect(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend = min(self.width, x + w)
        yend = min(self.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        if self.format == MONO_VLSB:
            # a page (8 rows, a byte a column) at a time: whole pages are slices copied from
            # _FULL / _EMPTY, the rest a byte a column with the rows' mask
            buf = self.buf
            n = xend - x
            fill = _FULL if c else _EMPTY
            for page in range(y >> 3, ((yend - 1) >> 3) + 1):
                top = max(y - page * 8, 0)
                mask = (0xFF << top) & (0xFF >> max(page * 8 + 8 - yend, 0))
                start = page * self.stride + x
                if mask == 0xFF and n <= _SLICE:
                    buf[start:start + n] = fill[:n]
                elif c:
                    for i in range(start, start + n):
                        buf[i] |= mask
                else:
                    mask = ~mask & 0xFF
                    for i in range(start, start + n):
                        buf[i] &= mask
        else:
            for yy in range(y, yend):
                for xx in range(x, xend):
                    self._set(xx, yy, c)

    def fill(self, c):
        self._fill_rect(0, 0, self.width, self.height, c)

    def pixel(self, x, y, c=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            if c is None:
                return self._get(x, y)
            self._set(x, y, c)
        return None

    def hline(self, x, y, w, c):
        self._fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self._fill_rect(x, y, 1, h, c)

    def fill_rect(self, x, y, w, h, c):
        self._fill_rect(x, y, w, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self._fill_rect(x, y, w, h, c)
        else:
            self._fill_rect(x, y, w, 1, c)
            self._fill_rect(x, y + h - 1, w, 1, c)
            self._fill_rect(x, y, 1, h, c)
            self._fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        dx = x2 - x1
        sx = 1
        if dx <= 0:
            dx = -dx
            sx = -1
        dy = y2 - y1
        sy = 1
        if dy <= 0:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                if 0 <= y1 < self.width and 0 <= x1 < self.height:
                    self._set(y1, x1, c)
            elif 0 <= x1 < self.width and 0 <= y1 < self.height:
                self._set(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < self.width and 0 <= y2 < self.height:
            self._set(x2, y2, c)

    def text(self, s, x, y, c=1):
        """8x8 glyphs, only set pixels drawn; bytes outside 32..127 draw glyph 127. A lone
        surrogate (a name from another tool's record, on CPython) draws as U+FFFD does.
        MONO_VLSB: a glyph column is one byte, shifted into the one or two pages it covers."""
        data = s.encode("utf-8", "surrogatepass") if isinstance(s, str) else s
        if self.format != MONO_VLSB:
            return self._text_pixels(data, x, y, c)
        if x >= self.width or x + 8 * len(data) <= 0 or y >= self.height or y <= -8:
            return
        buf = self.buf
        width = self.width
        shift = y & 7
        # the two pages the glyphs cover (-1: off the buffer), and the rows of each in it
        upper = y >> 3
        lower = upper + 1 if shift else -1
        last = (self.height - 1) >> 3
        clip = 0xFF >> (7 - ((self.height - 1) & 7))  # the last page's rows in the buffer
        upper_mask = 0 if upper < 0 else (0xFF if upper < last else clip) if upper <= last else 0
        lower_mask = 0 if lower < 0 or lower > last else 0xFF if lower < last else clip
        upper_at = upper * self.stride
        lower_at = lower * self.stride
        for ch in data:
            if ch < 32 or ch > 127:
                ch = 127
            base = (ch - 32) * 8
            for j in range(8):
                if 0 <= x < width:
                    column = FONT_8X8[base + j]
                    if upper_mask:
                        bits = (column << shift) & upper_mask
                        if c:
                            buf[upper_at + x] |= bits
                        else:
                            buf[upper_at + x] &= ~bits & 0xFF
                    if lower_mask:
                        bits = (column >> (8 - shift)) & lower_mask
                        if c:
                            buf[lower_at + x] |= bits
                        else:
                            buf[lower_at + x] &= ~bits & 0xFF
                x += 1
        return None

    def _text_pixels(self, data, x, y, c):
        for ch in data:
            if ch < 32 or ch > 127:
                ch = 127
            base = (ch - 32) * 8
            for j in range(8):
                if 0 <= x < self.width:
                    column = FONT_8X8[base + j]
                    yy = y
                    while column:
                        if column & 1 and 0 <= yy < self.height:
                            self._set(x, yy, c)
                        column >>= 1
                        yy += 1
                x += 1

    def blit(self, fbuf, x, y, key=-1, palette=None):
        """Copy fbuf (a FrameBuffer, or as MicroPython a tuple (buffer, width, height,
        format[, stride]) of a read-only buffer) at x, y; pixels equal to key (after the
        palette) are skipped."""
        if not isinstance(fbuf, FrameBuffer):
            fbuf = FrameBuffer(*fbuf)
        if x >= self.width or y >= self.height or -x >= fbuf.width or -y >= fbuf.height:
            return
        x0 = max(0, x)
        y0 = max(0, y)
        sx0 = max(0, -x)
        sy = max(0, -y)
        x0end = min(self.width, x + fbuf.width)
        y0end = min(self.height, y + fbuf.height)
        key &= 0xFFFFFFFF
        while y0 < y0end:
            sx = sx0
            for cx in range(x0, x0end):
                col = fbuf._get(sx, sy)
                if palette is not None:
                    col = palette._get(col, 0)
                if col != key:
                    self._set(cx, y0, col)
                sx += 1
            sy += 1
            y0 += 1

    def scroll(self, xstep, ystep):
        if xstep < 0:
            sx, xend, dx = 0, self.width + xstep, 1
            if xend <= 0:
                return
        else:
            sx, xend, dx = self.width - 1, xstep - 1, -1
            if xend >= sx:
                return
        if ystep < 0:
            y, yend, dy = 0, self.height + ystep, 1
            if yend <= 0:
                return
        else:
            y, yend, dy = self.height - 1, ystep - 1, -1
            if yend >= y:
                return
        while y != yend:
            x = sx
            while x != xend:
                self._set(x, y, self._get(x - xstep, y - ystep))
                x += dx
            y += dy


FrameBuffer1 = FrameBuffer
