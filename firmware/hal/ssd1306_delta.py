"""SSD1306 on I2C that sends only what changed: micropython-lib's SSD1306_I2C with show()
comparing the frame buffer against `sent`, a copy of what the display RAM holds.

Per 8-pixel page, the first and last 16-column chunk (two characters of the 8x8 font)
that differ bound the columns sent, through the controller's page/column window
(horizontal addressing, as the driver sets up). Consecutive pages that changed across the
whole width share one window, a data transfer each. A cursor move then costs two pages
(~270 bytes of I2C), a changed digit a few dozen, an unchanged frame nothing; a whole
frame what the driver's show() costs (1,048 bytes on the bus against its 1,044).

Invariant: after show() returns, `sent` equals what the display RAM holds, so the
picture is the frame buffer. A transfer that raises leaves `sent` as it was for the pages
not yet sent, and the next show() sends them again.
fill() copies whole pages instead of setting pixels. Everything is made once: show() and
fill() allocate nothing (micropython-lib's show() hands writevto two buffers, which the
rp2 port joins in a new 1 KB heap block every frame).
"""
from hal.compat import const
from ssd1306 import SSD1306_I2C

# columns compared and sent together: 8 would send a changed digit in half the bytes
# (0.2 ms less) but its 256 views of 8 bytes cost 2.5 KB more heap
CHUNK = const(16)


class SSD1306Delta(SSD1306_I2C):
    def init_display(self):
        """The driver's set-up; the next show() sends the whole frame (the display RAM holds
        anything after power-on)."""
        if not hasattr(self, "sent"):
            self._prepare()
        self._whole = True
        super().init_display()

    def rotate(self, rotate):
        super().rotate(rotate)
        self._whole = True  # the RAM now maps to other pixels

    def _prepare(self):
        w = self.width
        pages = self.pages
        if w % 8:
            raise ValueError("SSD1306Delta: width %d is not a multiple of 8" % w)
        n = (w + CHUNK - 1) // CHUNK  # the last chunk of a page may be narrower (72 = 4 * 16 + 8)
        self._n = n
        self._x_offset = (128 - w) // 2  # narrow displays use the centre columns (as the driver)
        self.sent = bytearray(w * pages)
        buf = memoryview(self.buffer)
        sent = memoryview(self.sent)
        self._pages = [buf[p * w:(p + 1) * w] for p in range(pages)]
        self._sent_pages = [sent[p * w:(p + 1) * w] for p in range(pages)]
        self._chunks = [buf[p * w + c * CHUNK:p * w + min(w, (c + 1) * CHUNK)]
                        for p in range(pages) for c in range(n)]
        self._sent_chunks = [sent[p * w + c * CHUNK:p * w + min(w, (c + 1) * CHUNK)]
                             for p in range(pages) for c in range(n)]
        # a data transfer: control byte 0x40 (Co=0, D/C#=1: data to the end), then pixels;
        # _tx_columns[k] = the control byte and 8 * k columns
        self._tx = bytearray(1 + w)
        self._tx[0] = 0x40
        tx = memoryview(self._tx)
        self._tx_columns = [tx[:1 + 8 * k] for k in range(w // 8 + 1)]
        self._blank = (bytearray(w), bytearray(b"\xff" * w))  # one page of 0s, of 1s: fill()
        # control byte 0x00 (Co=0, D/C#=0: commands to the end), page range, column range
        self._window = bytearray((0x00, 0x22, 0, 0, 0x21, 0, 0))

    def fill(self, c):
        """The whole frame in colour c: one copy per page (framebuf's fill() sets the 8,192
        pixels one at a time: 0.7 ms of a Pico's time, and the app clears every frame)."""
        blank = self._blank[1 if c else 0]
        for page in self._pages:
            page[:] = blank

    def show(self):
        n = self._n
        last = n - 1
        pages, sent_pages = self._pages, self._sent_pages
        chunks, sent_chunks = self._chunks, self._sent_chunks
        whole = self._whole
        run = 0  # pages changed across the whole width, waiting to go as one window
        for p in range(self.pages):
            a = -1  # first changed chunk of page p (-1: none), b the last
            b = last
            if whole:
                a = 0
            elif pages[p] != sent_pages[p]:
                i = p * n
                a = 0
                while chunks[i + a] == sent_chunks[i + a]:
                    a += 1
                while chunks[i + b] == sent_chunks[i + b]:
                    b -= 1
            if a == 0 and b == last:
                run += 1
                continue
            if run:
                self._send_pages(p - run, run)
                run = 0
            if a >= 0:
                self._send_chunks(p, a, b)
        if run:
            self._send_pages(self.pages - run, run)
        self._whole = False

    def _send_window(self, p0, p1, x0, x1):
        win = self._window
        win[2] = p0
        win[3] = p1
        win[5] = x0 + self._x_offset
        win[6] = x1 + self._x_offset
        self.i2c.writeto(self.addr, win)

    def _send_pages(self, p0, k):
        """Pages p0 .. p0+k-1, whole width: one window, a transfer per page (the column
        pointer wraps to the next page of the window)."""
        tx = self._tx
        pages = self._pages
        self._send_window(p0, p0 + k - 1, 0, self.width - 1)
        for p in range(p0, p0 + k):
            tx[1:] = pages[p]
            self.i2c.writeto(self.addr, tx)
            self._sent_pages[p][:] = pages[p]

    def _send_chunks(self, p, a, b):
        """Chunks a..b of page p."""
        tx = self._tx
        chunks = self._chunks
        i = p * self._n
        j = 1
        for c in range(a, b + 1):
            chunk = chunks[i + c]
            tx[j:j + len(chunk)] = chunk
            j += len(chunk)
        self._send_window(p, p, a * CHUNK, a * CHUNK + j - 2)
        self.i2c.writeto(self.addr, self._tx_columns[(j - 1) // 8])
        self._sent_pages[p][:] = self._pages[p]
