"""Display seam on CPython: VirtualDisplay read-back, the framebuf fake, the display built
from a board file on CircuitPython (fakes of board, busio, digitalio): I2C found by scanning,
SPI with its D/C, CS and reset pins, and no display named in one line.

Glyph bytes are MicroPython's font_petme128_8x8 ('A' = 00 7c 7e 0b 0b 7e 7c 00).
"""
import sys
import types

import pytest

from hal import display
from host_tools.vhal import VirtualDisplay, install_framebuf
from oled_model import Panel


def test_text_lands_on_the_font_bytes_and_reads_back():
    d = VirtualDisplay()
    d.text("A", 0, 0, 1)
    assert bytes(d.buffer[0:8]) == bytes([0x00, 0x7c, 0x7e, 0x0b, 0x0b, 0x7e, 0x7c, 0x00])
    d.text("Round 3", 4, 8, 1)
    d.text("Ann  27", 0, 16, 1)
    lines = d.text_lines()
    assert lines[:3] == ["A", "Round 3", "Ann  27"] and lines[3:] == [""] * 5


def test_show_counts_frames_and_keeps_a_copy():
    d = VirtualDisplay(16, 8)
    d.pixel(0, 0, 1)
    d.show()
    d.pixel(1, 0, 1)
    assert d.frames == 1 and d.last_frame[0] == 1 and d.buffer[1] == 1
    d.contrast(10)
    assert d.contrast_value == 10


def test_ascii_and_block_rendering():
    d = VirtualDisplay(4, 4)
    d.pixel(0, 0, 1)
    d.pixel(0, 1, 1)
    d.pixel(3, 1, 1)
    assert d.rows() == ["#...", "#..#", "....", "...."]
    assert d.blocks() == ["\u2588  \u2584", ""]


def test_framebuf_fake_importable_as_framebuf():
    fb_module = install_framebuf()
    assert sys.modules["framebuf"] is fb_module
    buf = bytearray(8)
    fb = fb_module.FrameBuffer(buf, 8, 8, fb_module.MONO_VLSB)
    fb.hline(0, 7, 8, 1)
    assert buf == bytearray([0x80] * 8)


class FakeI2C:
    """busio.I2C with a model controller at `at` (None: nothing on the bus)."""

    def __init__(self, scl, sda, frequency=100000, at=0x3D, pull_ups=True):
        if not pull_ups:
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        self.at = at
        self.chip = Panel("sh1106")
        self.locked = False

    def try_lock(self):
        self.locked = True
        return True

    def scan(self):
        assert self.locked
        return [0x18] + ([self.at] if self.at else [])

    def writeto(self, address, buffer):
        assert self.locked and address == self.at
        self.chip.write(bytes(buffer))


class FakeSPI:
    def __init__(self, clock, MOSI=None):
        self.chip = Panel("ssd1306")
        self.pins = {}
        self.config = None
        self.locked = False

    def try_lock(self):
        self.locked = True
        return True

    def configure(self, baudrate, polarity, phase):
        self.config = (baudrate, polarity, phase)

    def write(self, buffer):
        assert self.locked and self.config and not self.pins["CS"].value  # selected
        self.chip.spi(self.pins["DC"].value, bytes(buffer))


class FakeDigitalInOut:
    def __init__(self, pin):
        self.name = pin
        self.value = None
        self.levels = []

    def switch_to_output(self, value=False):
        self.value = value

    def __setattr__(self, name, v):
        object.__setattr__(self, name, v)
        if name == "value" and v is not None:
            self.levels.append(bool(v))


@pytest.fixture
def circuitpython(monkeypatch):
    """board, busio and digitalio as CircuitPython has them (only what hal.display uses)."""
    install_framebuf()
    made = {}
    board = types.SimpleNamespace(**dict((n, n) for n in ("SDA", "SCL", "SCK", "MOSI", "D4", "D5", "D6", "D9")))
    busio = types.ModuleType("busio")
    busio.I2C = lambda scl, sda, frequency=0: made.setdefault("i2c", FakeI2C(scl, sda, frequency, **made.get("opts", {})))

    def spi(clock, MOSI=None):
        made["spi"] = FakeSPI(clock, MOSI)
        made["spi"].pins = made.setdefault("pins", {})
        return made["spi"]
    busio.SPI = spi
    digitalio = types.ModuleType("digitalio")

    def pin(name):
        p = made.setdefault("pins", {})[{"D5": "RES", "D6": "DC", "D9": "CS"}[name]] = FakeDigitalInOut(name)
        return p
    digitalio.DigitalInOut = pin
    for name, module in (("board", board), ("busio", busio), ("digitalio", digitalio)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr(display, "_BUSES", {})  # (the buses made: a board's, made once a boot)
    return made


I2C_BOARD = {"name": "test", "runtime": "circuitpython",
             "display": {"driver": "sh1106", "bus": "i2c", "i2c_id": 0, "sda": "D4", "scl": "D5",
                         "width": 128, "height": 64}}
SPI_BOARD = {"name": "test", "runtime": "circuitpython",
             "display": {"driver": "ssd1306", "bus": "spi", "spi_id": 0, "sck": "SCK", "mosi": "MOSI",
                         "dc": "D6", "cs": "D9", "res": "D5", "width": 128, "height": 64}}


def test_circuitpython_finds_the_display_at_0x3d_by_scanning(circuitpython):
    board = dict(I2C_BOARD)
    board["display"] = dict(I2C_BOARD["display"], sda="SDA", scl="SCL")  # busio.I2C on them (no board.I2C())
    d = display.display_from_board(board)
    d.text("SH1106", 0, 0, 1)
    d.show()
    chip = circuitpython["i2c"].chip
    assert d.bus.addr == 0x3D and chip.on and chip.image() == bytes(d.buffer)


@pytest.mark.parametrize("opts,why", [
    ({"at": None}, "no display on I2C0 (SDA D4, SCL D5): nothing answered at 0x3C or 0x3D (found 0x18)"),
    ({"pull_ups": False}, "no display on I2C0 (SDA D4, SCL D5): No pull up found on SDA or SCL; check your wiring")])
def test_circuitpython_with_no_display_says_where_it_looked(circuitpython, opts, why):
    circuitpython["opts"] = opts
    with pytest.raises(display.NoDisplay) as e:
        display.display_from_board(I2C_BOARD)
    assert str(e.value) == why


def test_circuitpython_spi_resets_the_panel_and_sends_with_dc_and_cs(circuitpython):
    d = display.display_from_board(SPI_BOARD)
    d.fill_rect(10, 10, 20, 20, 1)
    d.show()
    spi = circuitpython["spi"]
    assert spi.config == (8000000, 0, 0)  # the SSD1306's default: 8 MHz, mode 0
    assert circuitpython["pins"]["RES"].levels == [False, True]  # a reset pulse before the set-up
    assert circuitpython["pins"]["CS"].value  # deselected between transfers
    assert spi.chip.on and spi.chip.image() == bytes(d.buffer)


def test_a_board_file_naming_another_display_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"board 'test': display 'st7735' on bus 'i2c' is not supported "
                                         r"\(ssd1306 or sh1106 on i2c or spi are\)"):
        display.display_from_board({"name": "test", "display": {"driver": "st7735", "bus": "i2c"}})
