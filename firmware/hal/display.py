"""Display: one object with FrameBuffer drawing methods, width, height, show(), contrast(v)
(0..255), poweroff() and poweron() (the SSD1306's sleep mode: dark, its RAM kept).

MicroPython: micropython-lib's `ssd1306` driver (installed on the board with
`mip install ssd1306`) already is that object: SSD1306_I2C subclasses framebuf.FrameBuffer;
hal.ssd1306_delta subclasses it so that show() sends only the columns that changed.
CircuitPython: `adafruit_ssd1306` drives the bus; drawing goes through framebuf_py (the
same font and pixel rules as MicroPython's framebuf) straight into the driver's buffer,
so a screen looks identical on both runtimes (framebuf_py.DriverDisplay; imported only
there: the pure-Python framebuf costs ~10 KB of a MicroPython heap).
Drawing methods: fill(c), pixel(x, y[, c]), hline(x, y, w, c), vline(x, y, h, c),
line(x1, y1, x2, y2, c), rect(x, y, w, h, c[, f]), fill_rect(x, y, w, h, c),
text(s, x, y[, c]) with 8x8 glyphs, blit(fbuf, x, y[, key]), scroll(dx, dy).
"""
import gc


def ssd1306_micropython(cfg):
    """MicroPython: SSD1306_I2C on machine.I2C from a board file's "display" dict."""
    from machine import I2C, Pin
    from hal.ssd1306_delta import SSD1306Delta
    i2c = I2C(cfg["i2c_id"], sda=Pin(cfg["sda"]), scl=Pin(cfg["scl"]), freq=cfg.get("freq", 400000))
    gc.collect()  # the frame buffer is one contiguous block: allocate it from a clean heap
    return SSD1306Delta(cfg["width"], cfg["height"], i2c, cfg.get("addr", 0x3C))


def ssd1306_circuitpython(cfg):
    """CircuitPython: adafruit_ssd1306 on busio.I2C, wrapped as a DriverDisplay."""
    import board
    import busio
    import adafruit_ssd1306
    if cfg.get("sda") == "SDA" and cfg.get("scl") == "SCL" and hasattr(board, "I2C"):
        i2c = board.I2C()  # the board's shared default bus
    else:
        i2c = busio.I2C(getattr(board, cfg["scl"]), getattr(board, cfg["sda"]),
                        frequency=cfg.get("freq", 400000))
    gc.collect()
    driver = adafruit_ssd1306.SSD1306_I2C(cfg["width"], cfg["height"], i2c, addr=cfg.get("addr", 0x3C))
    return wrap_adafruit_ssd1306(driver)


def wrap_adafruit_ssd1306(driver):
    """adafruit_ssd1306 keeps one I2C control byte before the pixels in driver.buffer."""
    from hal.framebuf_py import DriverDisplay
    pages = memoryview(driver.buffer)[1:]
    return DriverDisplay(driver, pages, driver.width, driver.height)


def display_from_board(board):
    cfg = board["display"]
    if cfg.get("driver") != "ssd1306" or cfg.get("bus", "i2c") != "i2c":
        raise ValueError("board %r: display %r on bus %r is not supported (ssd1306 on i2c is)"
                         % (board.get("name"), cfg.get("driver"), cfg.get("bus")))
    if board.get("runtime") == "circuitpython":
        return ssd1306_circuitpython(cfg)
    return ssd1306_micropython(cfg)
