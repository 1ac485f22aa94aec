"""Fake of CircuitPython's `board` for the Adafruit Feather RP2040: its pin names, I2C()."""
import busio

board_id = "adafruit_feather_rp2040"


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


for _name in ("A0", "A1", "A2", "A3", "D0", "D1", "D4", "D5", "D6", "D9", "D10", "D11", "D12",
              "D13", "D24", "D25", "SCK", "MOSI", "MISO", "SCL", "SDA", "TX", "RX", "NEOPIXEL", "LED"):
    globals()[_name] = Pin(_name)

_i2c = None


def I2C():
    """The board's shared default I2C bus (STEMMA QT / Feather SCL and SDA)."""
    global _i2c
    if _i2c is None:
        _i2c = busio.I2C(SCL, SDA)  # noqa: F821 (defined in the loop above)
    return _i2c
