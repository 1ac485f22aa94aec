"""Display seam on CPython: VirtualDisplay read-back, the framebuf fake, the CircuitPython wrapper.

Glyph bytes are MicroPython's font_petme128_8x8 ('A' = 00 7c 7e 0b 0b 7e 7c 00).
"""
import sys

from hal.display import wrap_adafruit_ssd1306
from host_tools.vhal import VirtualDisplay, install_framebuf


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


class FakeAdafruitSSD1306:
    """Shape of adafruit_ssd1306.SSD1306_I2C: buffer = control byte 0x40 + pages."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.buffer = bytearray(1 + width * height // 8)
        self.buffer[0] = 0x40
        self.sent = []
        self.contrasts = []

    def show(self):
        self.sent.append(bytes(self.buffer))

    def contrast(self, value):
        self.contrasts.append(value)


def test_circuitpython_wrapper_draws_into_driver_buffer_after_control_byte():
    driver = FakeAdafruitSSD1306(128, 32)
    disp = wrap_adafruit_ssd1306(driver)
    assert (disp.width, disp.height) == (128, 32)
    disp.fill(0)
    disp.text("A", 0, 0, 1)
    disp.show()
    disp.contrast(40)
    assert driver.sent[0][0] == 0x40  # the I2C control byte is untouched
    assert driver.sent[0][1:9] == bytes([0x00, 0x7c, 0x7e, 0x0b, 0x0b, 0x7e, 0x7c, 0x00])
    assert driver.contrasts == [40]
