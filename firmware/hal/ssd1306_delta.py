"""SSD1306 on I2C that sends only what changed: micropython-lib's SSD1306_I2C with show()
comparing the frame buffer against `sent`, a copy of what the display RAM holds.

Per 8-pixel page, the first and last 16-column chunk (two characters of the 8x8 font)
that differ bound the columns sent, through the controller's page/column window
(horizontal addressing, as the driver sets up); where the two middle chunks are the same,
the page goes as two windows, either side of the unchanged chunks around them (a list
row whose rank and score changed but not its name: the final standings against the
scoreboard). Consecutive pages that changed over the same chunks (across the whole width,
or a list's rows of one length) share their windows, a data transfer each: a window costs
8 bytes of the bus and a Pico ~0.1 ms more. A cursor move then costs two pages
(~270 bytes of I2C), a changed digit a few dozen, an unchanged frame nothing; a frame
changed everywhere what the driver's show() costs (1,048 bytes on the bus against its 1,044).

Invariant: after show() returns, `sent` equals what the display RAM holds, so the
picture is the frame buffer. After a show() in which a transfer raised (maybe cut half-way:
part of a page sent, or a command left waiting for its arguments) the next show() sends two
no-op commands and then the whole frame.
Everything is made once and show() and fill() allocate nothing (micropython-lib's show()
hands writevto two buffers, which the rp2 port joins in a new 1 KB heap block every
frame). A changed page is copied into a scratch page, and what the display holds there
into another: their chunks are compared and sent through views of those two buffers, not
of every page (each view is a heap object).
"""
from hal.compat import const
from ssd1306 import SSD1306_I2C

# columns compared and sent together. 8, or a page's window split where unchanged chunks
# lie between changed ones, sends fewer bytes (a new screen up to 2 ms less of the bus) but
# costs a Pico more than that: ~14 us a chunk compared, ~80 us a transfer
_CHUNK = const(16)
# two no-op commands: they complete the arguments of a command that a broken transfer cut
# short (the controller takes a command's arguments from the transfers that follow it)
_NOPS = b"\x00\xe3\xe3"


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
        if w % 8:
            raise ValueError("SSD1306Delta: width %d is not a multiple of 8" % w)
        n = self._n = (w + _CHUNK - 1) // _CHUNK  # the last chunk may be narrower (72 = 4 * 16 + 8)
        self._x_offset = (128 - w) // 2  # narrow displays use the centre columns (as the driver)
        self.sent = bytearray(w * self.pages)
        self._pages = [memoryview(buf)[p * w:(p + 1) * w] for buf in (self.buffer, self.sent)
                       for p in range(self.pages)]  # the frame's pages, then sent's
        # two scratch pages after a control byte 0x40 (Co=0, D/C#=1: data to the end): _tx
        # holds a changed page of the frame, _old what the display holds there, then the
        # chunks to send
        self._tx = bytearray(1 + w)
        self._old = bytearray(1 + w)
        self._tx[0] = self._old[0] = 0x40
        tx = memoryview(self._tx)
        old = memoryview(self._old)
        # chunk c of the page in _tx, then of the one in _old
        self._chunks = [buf[1 + c * _CHUNK:1 + min(w, (c + 1) * _CHUNK)] for buf in (tx, old) for c in range(n)]
        self._from = [tx[1 + c * _CHUNK:] for c in range(n)]  # the page in _tx from chunk c on
        self._lens = [old[:1 + 8 * k] for k in range(w // 8 + 1)]  # the control byte and 8k columns
        self._zeros = bytearray(w)  # one blank page: fill(0)
        # control byte 0x00 (Co=0, D/C#=0: commands to the end), page range, column range
        self._window = bytearray((0x00, 0x22, 0, 0, 0x21, 0, 0))

    def fill(self, c):
        """The whole frame in colour c. fill(0), which the app does for every new screen, is
        one copy per page (framebuf's fill() sets the 8,192 pixels one at a time: 0.7 ms of a
        Pico's time)."""
        if c:
            super().fill(c)
            return
        for p in range(self.pages):
            self._pages[p][:] = self._zeros

    def show(self):
        n = self._n
        last = n - 1
        pages = self._pages
        np = self.pages
        chunks = self._chunks
        whole = self._whole
        self._whole = True  # until the last transfer is done: one cut short leaves the RAM unknown
        if whole:
            self.i2c.writeto(self.addr, _NOPS)
        m = n // 2  # chunks m - 1 and m: the middle of a page
        run = 0  # pages changed over chunks ra..rb (less rc + 1..rd - 1), waiting to go as one window (two)
        ra = rb = rc = rd = 0
        for p in range(np):
            a = -1  # first changed chunk of page p (-1: none), b the last
            b = last
            c = d = -1  # (split) the last changed chunk left of the middle, the first right of it
            if whole:
                a = 0
            elif pages[p] != pages[np + p]:
                self._tx[1:] = pages[p]
                self._old[1:] = pages[np + p]
                a = 0
                while chunks[a] == chunks[n + a]:
                    a += 1
                while chunks[b] == chunks[n + b]:
                    b -= 1
                if a < m - 1 and b > m and chunks[m - 1] == chunks[n + m - 1] and chunks[m] == chunks[n + m]:
                    c = m - 2
                    while chunks[c] == chunks[n + c]:
                        c -= 1
                    d = m + 1
                    while chunks[d] == chunks[n + d]:
                        d += 1
            if run and (a != ra or b != rb or c != rc or d != rd):
                self._send_runs(p - run, run, ra, rb, rc, rd)
                run = 0
            if a >= 0:
                ra = a
                rb = b
                rc = c
                rd = d
                run += 1
        if run:
            self._send_runs(np - run, run, ra, rb, rc, rd)
        self._whole = False

    def _send_runs(self, p0, k, a, b, c, d):
        """Chunks a..b of pages p0 .. p0+k-1, as chunks a..c and d..b where c >= 0."""
        if c < 0:
            self._send_run(p0, k, a, b)
        else:
            self._send_run(p0, k, a, c)
            self._send_run(p0, k, d, b)

    def _send_window(self, p0, p1, x0, x1):
        win = self._window
        win[2] = p0
        win[3] = p1
        win[5] = x0 + self._x_offset
        win[6] = x1 + self._x_offset
        self.i2c.writeto(self.addr, win)

    def _sent(self, p):
        """Page p is on the display."""
        self._pages[self.pages + p][:] = self._pages[p]

    def _send_run(self, p0, k, a, b):
        """Chunks a..b of pages p0 .. p0+k-1: one window, a transfer per page (the column
        pointer wraps to the window's next page). A page is copied into _tx; part of a page
        goes from there to _old, which is sent up to its length."""
        w = self.width
        x0 = a * _CHUNK
        cols = min(w, (b + 1) * _CHUNK) - x0
        self._send_window(p0, p0 + k - 1, x0, x0 + cols - 1)
        tx = self._tx
        for p in range(p0, p0 + k):
            tx[1:] = self._pages[p]
            if cols == w:
                self.i2c.writeto(self.addr, tx)
            else:
                self._old[1:1 + w - x0] = self._from[a]
                self.i2c.writeto(self.addr, self._lens[cols // 8])
            self._sent(p)
