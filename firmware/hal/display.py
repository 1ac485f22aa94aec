"""Display: one object with FrameBuffer drawing methods, width, height, buffer, show(),
contrast(v) (0..255), poweroff() and poweron() (the controller's sleep mode: dark, its RAM
kept): hal.oled.Oled, built here from a board file's "display" dict on either runtime.

Board file keys: "driver" "ssd1306" (0.96-inch modules) or "sh1106" (1.3-inch), "width",
"height", "bus" "i2c" or "spi", then
- i2c: "i2c_id", "sda", "scl", "freq" (400 kHz); "addr" when known, else the bus is scanned
  for 0x3C, then 0x3D (the two addresses the modules are sold with);
- spi: "spi_id", "sck", "mosi", "dc", "cs", "res" (reset, optional), "baudrate" (default
  8 MHz for the SSD1306, within its 10 MHz; 2 MHz for the SH1106, its datasheet's limit as
  the Linux kernel's SH1106 support reads it: hardware/README.md).
Pins are GPIO numbers (MicroPython) or `board` names (CircuitPython).
No display (nothing answers on I2C, or no pull-ups on its lines) raises NoDisplay, naming
the bus and pins; an SPI display cannot answer, so it is never found missing.
Drawing methods: fill(c), pixel(x, y[, c]), hline(x, y, w, c), vline(x, y, h, c),
line(x1, y1, x2, y2, c), rect(x, y, w, h, c[, f]), fill_rect(x, y, w, h, c),
text(s, x, y[, c]) with 8x8 glyphs, blit(fbuf, x, y[, key]), scroll(dx, dy).
"""
import gc

ADDRESSES = (0x3C, 0x3D)
SPI_BAUDRATE = {"ssd1306": 8000000, "sh1106": 2000000}
RESET_MS = 10  # a reset pulse, and the controller's wake from it (SSD1306: 3 us at least)


class NoDisplay(OSError):
    """Nothing answered where the board file puts the display."""


def _where(cfg):
    if cfg.get("bus", "i2c") == "spi":
        return "SPI%s (SCK %s, MOSI %s, DC %s, CS %s)" % (cfg["spi_id"], cfg["sck"], cfg["mosi"], cfg["dc"], cfg["cs"])
    return "I2C%s (SDA %s, SCL %s)" % (cfg["i2c_id"], cfg["sda"], cfg["scl"])


def _address(cfg, scan):
    """The board file's address, else the first of ADDRESSES that the scan found."""
    if "addr" in cfg:
        return cfg["addr"]
    found = scan()
    for a in ADDRESSES:
        if a in found:
            return a
    raise NoDisplay("no display on %s: nothing answered at 0x3C or 0x3D%s" % (
        _where(cfg), " (found %s)" % ", ".join("0x%02X" % a for a in found) if found else ""))


def micropython_bus(cfg):
    from machine import Pin
    from hal.oled import I2CBus, SPIBus
    if cfg.get("bus", "i2c") == "spi":
        from machine import SPI
        import time
        spi = SPI(cfg["spi_id"], baudrate=cfg.get("baudrate", SPI_BAUDRATE[cfg["driver"]]), polarity=0,
                  phase=0, sck=Pin(cfg["sck"]), mosi=Pin(cfg["mosi"]), miso=None)
        if "res" in cfg:
            res = Pin(cfg["res"], Pin.OUT, value=0)
            time.sleep_ms(RESET_MS)
            res(1)
            time.sleep_ms(RESET_MS)
        return SPIBus(spi, Pin(cfg["dc"], Pin.OUT, value=0), Pin(cfg["cs"], Pin.OUT, value=1))
    i2c = i2c_bus(cfg, False)
    return I2CBus(i2c, _address(cfg, i2c.scan))


def _level(pin):
    """A CircuitPython output as a function of the level, as a MicroPython Pin is."""
    def set_level(v):
        pin.value = v
    return set_level


def circuitpython_bus(cfg):
    from hal.oled import I2CBus, SPIBus
    if cfg.get("bus", "i2c") == "spi":
        import board
        import busio
        import digitalio
        import time
        spi = busio.SPI(getattr(board, cfg["sck"]), MOSI=getattr(board, cfg["mosi"]))
        while not spi.try_lock():  # held for good: the display is the bus's only device
            pass
        spi.configure(baudrate=cfg.get("baudrate", SPI_BAUDRATE[cfg["driver"]]), polarity=0, phase=0)
        out = []
        for name in ("res", "dc", "cs"):
            pin = None
            if name in cfg:
                pin = digitalio.DigitalInOut(getattr(board, cfg[name]))
                pin.switch_to_output(value=name == "cs")
            out.append(pin)
        if out[0] is not None:
            time.sleep(RESET_MS / 1000)
            out[0].value = True
            time.sleep(RESET_MS / 1000)
        return SPIBus(spi, _level(out[1]), _level(out[2]))
    try:
        i2c = i2c_bus(cfg, True)
    except RuntimeError as e:  # "No pull up found on SDA or SCL": no module on the lines
        raise NoDisplay("no display on %s: %s" % (_where(cfg), e))
    return I2CBus(i2c, _address(cfg, i2c.scan))


_BUSES = {}  # type: dict  # (scl, sda) -> the I2C bus made for them: the display and the store share one


def i2c_bus(cfg, circuitpython):
    """The I2C bus of a board file's dict ("i2c_id", "sda", "scl", "freq"), made once for
    every device on it: machine.I2C, or on CircuitPython board.I2C() (the board's default
    bus, "SDA" and "SCL") or busio.I2C, locked for good (the app is its only user)."""
    key = (cfg["scl"], cfg["sda"])
    i2c = _BUSES.get(key)
    if i2c is not None:
        return i2c
    if not circuitpython:
        from machine import I2C, Pin
        i2c = I2C(cfg["i2c_id"], sda=Pin(cfg["sda"]), scl=Pin(cfg["scl"]), freq=cfg.get("freq", 400000))
    else:
        import board
        if key == ("SCL", "SDA") and hasattr(board, "I2C"):
            i2c = board.I2C()
        else:
            import busio
            i2c = busio.I2C(getattr(board, cfg["scl"]), getattr(board, cfg["sda"]), frequency=cfg.get("freq", 400000))
        while not i2c.try_lock():
            pass
    _BUSES[key] = i2c
    return i2c


def display_from_board(board):
    cfg = board["display"]
    from hal.oled import DRIVERS
    if cfg.get("driver") not in DRIVERS or cfg.get("bus", "i2c") not in ("i2c", "spi"):
        raise ValueError("board %r: display %r on bus %r is not supported (%s on i2c or spi are)"
                         % (board.get("name"), cfg.get("driver"), cfg.get("bus"), " or ".join(DRIVERS)))
    if board.get("runtime") == "circuitpython":
        bus = circuitpython_bus(cfg)
    else:
        bus = micropython_bus(cfg)
    from hal.oled import Oled
    gc.collect()  # the frame buffer is one contiguous block: allocate it from a clean heap
    try:
        return Oled(cfg["width"], cfg["height"], bus, cfg["driver"])
    except OSError as e:  # the address given in the board file, and nothing there
        raise NoDisplay("no display on %s at 0x%02X: %s" % (_where(cfg), getattr(bus, "addr", 0), e))
