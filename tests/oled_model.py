"""A model SSD1306 or SH1106 that applies every byte sent to it, for the display tests:
what the panel shows, rebuilt from the bus traffic alone.

The SSD1306 is host_tools.vboard's model (its addressing modes, column and page windows)
over the whole 128-column RAM. The SH1106 differs where a driver would get it wrong: a
132-column RAM, page addressing only (its column pointer stops at 131, wrapping nowhere),
and no 0x20/0x21/0x22, which are one-byte no-ops there, so an SSD1306 window's arguments
land as commands of their own (what an SSD1306 driver garbles on a 1.3-inch module). The
RAM starts as noise, as after power-on. `image()` is what the panel shows in the frame
buffer's layout: the centre `width` columns of the RAM, its first `height` rows.

I2C: write(data) per transfer (control byte first: Co, D/C). SPI: spi(dc, data) per transfer.
"""
import random

from host_tools.vboard import Ssd1306

SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
RAM_WIDTH = {"ssd1306": 128, "sh1106": 132}


class Panel(Ssd1306):
    def __init__(self, driver="ssd1306", width=128, height=64, seed=1):
        Ssd1306.__init__(self, RAM_WIDTH[driver], 64)  # the controller's whole RAM
        self.driver = driver
        self.panel = (width, height)
        rng = random.Random(seed)
        self.ram[:] = bytes(rng.getrandbits(8) for _ in range(len(self.ram)))
        self.seg_remap = self.com_reverse = False  # (reset values: the driver sets both)
        self.contrast = 0x7F
        self.data_bytes = 0
        if driver == "sh1106":
            self.ARGS = SH1106_ARGS

    def spi(self, dc, data):
        """One SPI transfer with D/C at `dc`."""
        for b in data:
            self._data(b) if dc else self._command(b)

    def _command(self, b):
        if self._cmd == [0x81]:
            self.contrast = b
        if self.driver == "sh1106" and not self._cmd and 0x20 <= b <= 0x22:
            return  # no addressing modes nor windows on the SH1106
        Ssd1306._command(self, b)

    def _data(self, b):
        self.data_bytes += 1
        if self.driver == "ssd1306":
            return Ssd1306._data(self, b)
        self.ram[self.page * self.width + self.col] = b
        if self.col < self.width - 1:
            self.col += 1

    def image(self):
        """The RAM under the panel (its centre columns), in the frame buffer's layout."""
        width, height = self.panel
        x0 = (self.width - width) // 2
        return b"".join(bytes(self.ram[p * self.width + x0:p * self.width + x0 + width])
                        for p in range(height // 8))
