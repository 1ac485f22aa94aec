"""A model SSD1306 or SH1106 that applies every byte sent to it, for the display tests:
what the panel shows, rebuilt from the bus traffic alone.

SSD1306: 128-column RAM; horizontal, vertical and page addressing (0x20), column and page
windows (0x21, 0x22). SH1106: 132-column RAM, page addressing only: page 0xB0-0xB7 and
column 0x00-0x1F; the column pointer stops at 131 and wraps nowhere; every command it does
not know is a one-byte no-op, so an SSD1306 window's arguments land as commands of their own
(what an SSD1306 driver garbles on a 1.3-inch module). The RAM starts as noise, as after
power-on. `image()` is what the panel shows in the frame buffer's layout: the centre
`width` columns of the RAM, rows of the `height` lines.

I2C: write(data) per transfer (control byte first: Co, D/C). SPI: spi(dc, data) per transfer.
"""
import random

ARGS = {"ssd1306": {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1,
                    0xD9: 1, 0xDA: 1, 0xDB: 1},
        "sh1106": {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}}
RAM_WIDTH = {"ssd1306": 128, "sh1106": 132}


class Panel:
    def __init__(self, driver="ssd1306", width=128, height=64, seed=1):
        self.driver = driver
        self.ram_w = RAM_WIDTH[driver]
        self.width, self.height = width, height
        rng = random.Random(seed)
        self.ram = bytearray(rng.getrandbits(8) for _ in range(self.ram_w * 8))
        self.on = False
        self.contrast = 0x7F
        self.seg_remap = self.com_reverse = False
        self.mode = 2  # page addressing after reset
        self.col0, self.col1, self.page0, self.page1 = 0, self.ram_w - 1, 0, 7
        self.col = self.page = 0
        self.data_bytes = 0
        self._cmd = []  # a command waiting for its arguments (across transfers, as the chip)

    def write(self, data):
        """One I2C transfer to the display's address."""
        i = 0
        while i < len(data):
            ctrl = data[i]
            body = data[i + 1:i + 2] if ctrl & 0x80 else data[i + 1:]
            i += 1 + len(body)
            for b in body:
                self._data(b) if ctrl & 0x40 else self._command(b)

    def spi(self, dc, data):
        """One SPI transfer with D/C at `dc`."""
        for b in data:
            self._data(b) if dc else self._command(b)

    def _command(self, b):
        self._cmd.append(b)
        op = self._cmd[0]
        if len(self._cmd) <= ARGS[self.driver].get(op, 0):
            return
        args, self._cmd = self._cmd[1:], []
        if op == 0x81:
            self.contrast = args[0]
        elif op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op in (0xA0, 0xA1):
            self.seg_remap = op == 0xA1
        elif op in (0xC0, 0xC8):
            self.com_reverse = op == 0xC8
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        elif self.driver == "ssd1306" and op == 0x20:
            self.mode = args[0] & 3
        elif self.driver == "ssd1306" and op == 0x21:
            self.col0, self.col1 = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col0
        elif self.driver == "ssd1306" and op == 0x22:
            self.page0, self.page1 = args[0] & 7, args[1] & 7
            self.page = self.page0

    def _data(self, b):
        self.data_bytes += 1
        if self.col < self.ram_w:
            self.ram[self.page * self.ram_w + self.col] = b
        if self.mode == 0:  # SSD1306 horizontal: along the columns, then the next page
            self.col += 1
            if self.col > self.col1:
                self.col = self.col0
                self.page = self.page0 if self.page >= self.page1 else self.page + 1
        elif self.mode == 1:  # vertical
            self.page += 1
            if self.page > self.page1:
                self.page = self.page0
                self.col = self.col0 if self.col >= self.col1 else self.col + 1
        elif self.col < self.ram_w - 1:  # page addressing: along the page, no wrap
            self.col += 1

    def image(self):
        """The RAM under the panel (its centre columns), in the frame buffer's layout."""
        x0 = (self.ram_w - self.width) // 2
        return bytes(b"".join(bytes(self.ram[p * self.ram_w + x0:p * self.ram_w + x0 + self.width])
                              for p in range(self.height // 8)))
