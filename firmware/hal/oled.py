"""The 128x64 OLED modules makers buy, as one FrameBuffer whose show() sends only what
changed: the SSD1306 (0.96-inch modules) and the SH1106 (1.3-inch: 132-column RAM, page
addressing only), on I2C or 4-wire SPI. The bus is a seam of two calls, cmd(buf) and
data(buf) (I2CBus, SPIBus); MicroPython's framebuf draws, or framebuf_py where there is none
(CircuitPython), so a screen is the same bytes on every controller, bus and runtime.

show() compares the frame buffer against `sent`, a copy of what the display RAM holds. Per
8-pixel page, the first and last 16-column chunk (two characters of the 8x8 font) that
differ bound the columns sent; where the two middle chunks are the same, the page goes as
two pieces, either side of them (a list row whose rank and score changed but not its name).
Consecutive pages changed over the same chunks share one addressing command on the SSD1306
(a page/column window, horizontal addressing: its column pointer wraps to the window's next
page); the SH1106 has no windows, so each page gets its page and column address (3 bytes).
A cursor move then costs two pages, a changed digit a few dozen bytes, an unchanged frame
nothing, a frame changed everywhere the whole RAM (1,048 bytes over I2C on the SSD1306).

Invariant: after show() returns, `sent` equals what the display RAM holds, so the picture is
the frame buffer. After a show() in which a transfer raised (maybe cut half-way: part of a
page sent, or a command left waiting for its arguments) the next show() sends two no-op
commands and then the whole frame. The panel is switched on by the first show(), once its
RAM holds the frame: what the RAM holds at power-on is never seen, and no blank frame goes.
Everything is made once: show(), fill(), contrast(), poweroff() and poweron() allocate
nothing. A changed page is copied into a scratch page, and what the display holds there into
another: their chunks are compared and sent through views of those two buffers (each view
is a heap object: one per chunk, not per page).
"""
from hal.compat import const

try:
    from framebuf import FrameBuffer, MONO_VLSB
except ImportError:  # CircuitPython (and CPython): the same drawing in pure Python
    from hal.framebuf_py import FrameBuffer, MONO_VLSB  # type: ignore[assignment]  # (its twin)

# columns compared and sent together. 8, or a page split where unchanged chunks lie between
# changed ones, sends fewer bytes but costs more in compares and transfers than the bus saves
_CHUNK = const(16)
# two no-op commands: they complete the arguments of a command that a broken transfer cut
# short (the controller takes a command's arguments from the transfers that follow it)
_NOPS = b"\x00\xe3\xe3"
DRIVERS = ("ssd1306", "sh1106")


class I2CBus:
    """An I2C controller at `addr`: each buffer starts with its control byte (0x00 commands,
    0x40 data), sent whole."""
    lead = 0  # bytes of a buffer not sent

    def __init__(self, i2c, addr):
        self.i2c = i2c
        self.addr = addr

    def cmd(self, buf):
        self.i2c.writeto(self.addr, buf)

    def data(self, buf):
        self.i2c.writeto(self.addr, buf)


class SPIBus:
    """4-wire SPI: D/C low for commands, high for data, CS low around each transfer. dc and
    cs are functions of the level (a MicroPython Pin is one); the buffers come without the
    control byte (lead 1)."""
    lead = 1

    def __init__(self, spi, dc, cs):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        cs(1)

    def cmd(self, buf):
        self.dc(0)
        self.cs(0)
        self.spi.write(buf)
        self.cs(1)

    def data(self, buf):
        self.dc(1)
        self.cs(0)
        self.spi.write(buf)
        self.cs(1)


class Oled(FrameBuffer):
    """driver: "ssd1306" or "sh1106"; bus: I2CBus or SPIBus. Raises OSError when the bus
    does (on I2C: nothing answers at the address)."""

    def __init__(self, width, height, bus, driver="ssd1306"):
        if driver not in DRIVERS:
            raise ValueError("Oled: driver %r is not one of %s" % (driver, ", ".join(DRIVERS)))
        if width % 8 or height % 8:
            raise ValueError("Oled: %dx%d is not a multiple of 8 pixels each way" % (width, height))
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, MONO_VLSB)
        self.bus = bus
        self.sh1106 = driver == "sh1106"
        # narrow panels use the centre columns of the RAM (128 on the SSD1306, 132 on the SH1106)
        self._x_offset = ((132 if self.sh1106 else 128) - width) // 2
        s = bus.lead
        n = self._n = (width + _CHUNK - 1) // _CHUNK  # the last chunk may be narrower (72 = 4 * 16 + 8)
        self.sent = bytearray(width * self.pages)
        self._pages = [memoryview(buf)[p * width:(p + 1) * width] for buf in (self.buffer, self.sent)
                       for p in range(self.pages)]  # the frame's pages, then sent's
        # two scratch pages after a control byte 0x40 (data to the end): _tx holds a changed page
        # of the frame, _old what the display holds there, then the chunks to send
        self._tx = bytearray(1 + width)
        self._old = bytearray(1 + width)
        self._tx[0] = self._old[0] = 0x40
        tx = memoryview(self._tx)
        old = memoryview(self._old)
        self._page = tx[s:]  # a whole page, as the bus sends it
        # chunk c of the page in _tx, then of the one in _old
        self._chunks = [buf[1 + c * _CHUNK:1 + min(width, (c + 1) * _CHUNK)] for buf in (tx, old) for c in range(n)]
        self._from = [tx[1 + c * _CHUNK:] for c in range(n)]  # the page in _tx from chunk c on
        self._lens = [old[s:1 + 8 * k] for k in range(width // 8 + 1)]  # 8k columns, as the bus sends them
        self._zeros = bytearray(width)  # one blank page: fill(0)
        # the addressing command: SSD1306 page range then column range (a window), SH1106 page
        # then column (low and high nibble)
        self._addr = bytearray((0x00, 0xB0, 0, 0x10) if self.sh1106 else (0x00, 0x22, 0, 0, 0x21, 0, 0))
        self._addr_v = memoryview(self._addr)[s:]
        self._c = bytearray(3)  # a command of one or two bytes: contrast(), poweroff(), poweron()
        self._c1 = memoryview(self._c)[s:2]
        self._c2 = memoryview(self._c)[s:3]
        self._nops = memoryview(_NOPS)[s:]
        self.init_display()

    def init_display(self):
        """The controller's set-up, the panel left off; the next show() sends the whole frame
        (the display RAM holds anything after power-on) and then turns the panel on."""
        h = self.height - 1
        if self.sh1106:  # its own DC-DC on (0xAD 0x8B); pre-charge, VCOM, pump at their reset values
            init = (0x00, 0xAE, 0xD5, 0x80, 0xA8, h, 0xD3, 0x00, 0x40, 0xAD, 0x8B, 0xA1, 0xC8, 0xDA, 0x12,
                    0x81, 0xFF, 0xD9, 0x22, 0xDB, 0x35, 0x32, 0xA4, 0xA6)  # type: tuple
        else:  # micropython-lib's ssd1306 set-up: horizontal addressing, charge pump on
            init = (0x00, 0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, h, 0xC8, 0xD3, 0x00,
                    0xDA, 0x02 if self.width > 2 * self.height else 0x12, 0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30,
                    0x81, 0xFF, 0xA4, 0xA6, 0xAD, 0x30, 0x8D, 0x14)
        self._whole = True
        self._wake = True  # the next show() ends with the panel on
        self.bus.cmd(memoryview(bytes(init))[self.bus.lead:])  # (control byte 0x00: commands to the end)

    def _command(self, a, b=-1):
        c = self._c
        c[1] = a
        if b < 0:
            self.bus.cmd(self._c1)
            return
        c[2] = b
        self.bus.cmd(self._c2)

    def poweroff(self):
        """The panel dark (sleep mode), its RAM kept."""
        self._wake = False
        self._command(0xAE)

    def poweron(self):
        self._wake = False
        self._command(0xAF)

    def contrast(self, value):
        self._command(0x81, value)

    def fill(self, c):
        """The whole frame in colour c. fill(0), which the app does for every new screen, is
        one copy per page (framebuf's fill() sets the 8,192 pixels one at a time)."""
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
            self.bus.cmd(self._nops)
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
        if self._wake:
            self._wake = False
            self._command(0xAF)

    def _send_runs(self, p0, k, a, b, c, d):
        """Chunks a..b of pages p0 .. p0+k-1, as chunks a..c and d..b where c >= 0."""
        if c < 0:
            self._send_run(p0, k, a, b)
        else:
            self._send_run(p0, k, a, c)
            self._send_run(p0, k, d, b)

    def _send_run(self, p0, k, a, b):
        """Chunks a..b of pages p0 .. p0+k-1: on the SSD1306 one window, a transfer per page;
        on the SH1106 each page's address, then the page. A page is copied into _tx; part of
        a page goes from there to _old, which is sent up to its length."""
        w = self.width
        x0 = a * _CHUNK
        cols = min(w, (b + 1) * _CHUNK) - x0
        x = x0 + self._x_offset
        adr = self._addr
        bus = self.bus
        if not self.sh1106:
            adr[2] = p0
            adr[3] = p0 + k - 1
            adr[5] = x
            adr[6] = x + cols - 1
            bus.cmd(self._addr_v)
        else:
            adr[2] = x & 15
            adr[3] = 0x10 | x >> 4
        tx = self._tx
        for p in range(p0, p0 + k):
            if self.sh1106:
                adr[1] = 0xB0 | p
                bus.cmd(self._addr_v)
            tx[1:] = self._pages[p]
            if cols == w:
                bus.data(self._page)
            else:
                self._old[1:1 + w - x0] = self._from[a]
                bus.data(self._lens[cols // 8])
            self._pages[self.pages + p][:] = self._pages[p]  # page p is on the display
