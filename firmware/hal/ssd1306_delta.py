"""SSD1306 on I2C that sends only what changed: micropython-lib's SSD1306_I2C with show()
comparing the frame buffer against `sent`, a copy of what the display RAM holds.

Per 8-pixel page, the first and last 8-column chunk (one character of the 8x8 font) that
differ bound the columns sent, through the controller's page/column window (horizontal
addressing, as the driver sets up). Consecutive pages that changed across the whole width
go as one window. A cursor move then costs two pages (~280 bytes of I2C), a changed digit
a few dozen, an unchanged frame nothing; a whole frame is the driver's 1,025 bytes plus 8
of window commands.

Invariant: after show() returns, `sent` equals what the display RAM holds, so the
picture is the frame buffer. A transfer that raises leaves `sent` as it was for the pages
not yet sent, and the next show() sends them again.
Everything is made once: show() allocates nothing (micropython-lib's show() hands
writevto two buffers, which the rp2 port joins in a new 1 KB heap block every frame).
"""
from hal.compat import const
from ssd1306 import SSD1306_I2C

CHUNK = const(8)  # columns compared and sent together


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
        if w % CHUNK:
            raise ValueError("SSD1306Delta: width %d is not a multiple of %d" % (w, CHUNK))
        n = w // CHUNK
        self._n = n
        self._x_offset = (128 - w) // 2  # narrow displays use the centre columns (as the driver)
        self.sent = bytearray(w * pages)
        buf = memoryview(self.buffer)
        sent = memoryview(self.sent)
        self._pages = [buf[p * w:(p + 1) * w] for p in range(pages)]
        self._sent_pages = [sent[p * w:(p + 1) * w] for p in range(pages)]
        self._chunks = [buf[i * CHUNK:(i + 1) * CHUNK] for i in range(n * pages)]
        self._sent_chunks = [sent[i * CHUNK:(i + 1) * CHUNK] for i in range(n * pages)]
        # the data transfer: control byte 0x40 (Co=0, D/C#=1: data to the end), then pixels;
        # _tx_chunks[m] = the first m chunks, _tx_pages[k] = the first k whole pages
        self._tx = bytearray(1 + w * pages)
        self._tx[0] = 0x40
        tx = memoryview(self._tx)
        self._tx_chunks = [tx[:1 + m * CHUNK] for m in range(n + 1)]
        self._tx_pages = [tx[:1 + k * w] for k in range(pages + 1)]
        # control byte 0x00 (Co=0, D/C#=0: commands to the end), page range, column range
        self._window = bytearray((0x00, 0x22, 0, 0, 0x21, 0, 0))

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
        """Pages p0 .. p0+k-1, whole width, in one transfer."""
        w = self.width
        tx = self._tx
        pages = self._pages
        for j in range(k):
            tx[1 + j * w:1 + (j + 1) * w] = pages[p0 + j]
        self._send_window(p0, p0 + k - 1, 0, w - 1)
        self.i2c.writeto(self.addr, self._tx_pages[k])
        for j in range(k):
            self._sent_pages[p0 + j][:] = pages[p0 + j]

    def _send_chunks(self, p, a, b):
        """Chunks a..b of page p."""
        tx = self._tx
        chunks = self._chunks
        i = p * self._n
        j = 1
        for c in range(a, b + 1):
            tx[j:j + CHUNK] = chunks[i + c]
            j += CHUNK
        self._send_window(p, p, a * CHUNK, b * CHUNK + CHUNK - 1)
        self.i2c.writeto(self.addr, self._tx_chunks[b - a + 1])
        self._sent_pages[p][:] = self._pages[p]
