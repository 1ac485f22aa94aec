"""LEDs: colours set by the app, written out once per show() with a brightness cap.

`leds[i] = (r, g, b)` stores the colour (0..255 each) in a preallocated bytearray and,
scaled by the cap (v * cap // 255, cap = round(brightness_max * 255)), in the wire-order
bytes; show() writes the whole strip once (an LED that changed costs its own scaling only). The cap protects the supply: a 5x5 matrix at full white
draws ~1.5 A. show() allocates nothing on the MicroPython and write-function paths.

`out` is one of:
- a function write(buf) taking the wire-order bytes (3 per LED, `order`, e.g. "GRB");
- a MicroPython neopixel.NeoPixel (has .buf and .write()): Leds fills its buf in place;
- a CircuitPython neopixel.NeoPixel (adafruit_pixelbuf): Leds sets each pixel as a
  packed 0xRRGGBB int and calls show(); build it with brightness=1.0, auto_write=False
  so the cap is applied once, here.

`power`, where the board switches the LEDs' supply (a "rail" pin in its board file: a
high-side switch in their +5V), is a function of the level (a MicroPython Pin is one):
power(1) RAIL_MS before the first lit frame is written, power(0) once a frame is all dark
(nothing is written then: an unpowered LED is dark). A WS2812B draws ~0.8 mA dark, 20 mA for
the Pico build's 25: more than the whole board asleep.
"""
from hal.compat import const
from hal.clock import sleep_ms

# from the rail switched on to the first frame: the LEDs' capacitor charged through the switch
# and each LED out of its power-on reset (no datasheet gives it: a margin, 2 ms of a wake)
RAIL_MS = const(2)

_WRITE_FN = const(0)
_MP_NEOPIXEL = const(1)
_PIXELBUF = const(2)


class Leds:
    def __init__(self, n, out, brightness_max=0.25, order="GRB", power=None):
        if not 0 <= brightness_max <= 1:
            raise ValueError("Leds: brightness_max %r is outside 0..1" % (brightness_max,))
        self.n = n
        self._rgb = bytearray(3 * n)
        self._cap = int(brightness_max * 255 + 0.5)
        self._r = order.index("R")
        self._g = order.index("G")
        self._b = order.index("B")
        self._out = out
        if callable(out):
            self._kind = _WRITE_FN
            self._buf = bytearray(3 * n)
        elif hasattr(out, "buf") and hasattr(out, "write"):
            self._kind = _MP_NEOPIXEL
            self._buf = out.buf
            if len(self._buf) != 3 * n:
                raise ValueError("Leds: device buffer holds %d bytes, %d LEDs need %d"
                                 % (len(self._buf), n, 3 * n))
        else:
            self._kind = _PIXELBUF
            self._buf = bytearray(0)  # unused: the pixelbuf keeps its own
        self._power = power
        self.switched = power is not None  # (app.leds: no "I am on" blink to power up)
        self.powered = power is None
        self._dark = bytearray(3 * n)  # every LED off, to compare a frame with in one call

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        if not 0 <= i < self.n:
            raise IndexError("Leds: index %d outside 0..%d" % (i, self.n - 1))
        j = 3 * i
        self._rgb[j] = rgb[0]
        self._rgb[j + 1] = rgb[1]
        self._rgb[j + 2] = rgb[2]
        if self._kind != _PIXELBUF:  # capped into the wire bytes now: show() only writes
            cap = self._cap
            buf = self._buf
            buf[j + self._r] = rgb[0] * cap // 255
            buf[j + self._g] = rgb[1] * cap // 255
            buf[j + self._b] = rgb[2] * cap // 255

    def set_changed(self, w, shown):
        """leds[i] = w[i] for each i whose colour is not shown[i] (the same object), noted
        in shown: a frame's LEDs in one call, without a leds[i]'s call and look-ups per LED.
        Allocates nothing."""
        rgb = self._rgb
        buf = self._buf
        cap = self._cap
        r = self._r
        g = self._g
        b = self._b
        wire = self._kind != _PIXELBUF  # capped into the wire bytes now, as __setitem__
        for i in range(self.n):
            c = w[i]
            if c is not shown[i]:
                shown[i] = c
                x, y, z = c
                j = 3 * i
                rgb[j] = x
                rgb[j + 1] = y
                rgb[j + 2] = z
                if wire:
                    buf[j + r] = x * cap // 255
                    buf[j + g] = y * cap // 255
                    buf[j + b] = z * cap // 255

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError("Leds: index %d outside 0..%d" % (i, self.n - 1))
        j = 3 * i
        return (self._rgb[j], self._rgb[j + 1], self._rgb[j + 2])

    def frame(self):
        """The colours set, as bytes that put() sets again in one copy each: a frame made
        ahead, whose press writes no LED one by one."""
        return bytes(self._rgb), bytes(self._buf)

    def put(self, frame):
        """Set every LED as frame() had them (shown by the next show())."""
        self._rgb[:] = frame[0]
        self._buf[:] = frame[1]

    def fill(self, rgb):
        for i in range(self.n):
            self[i] = rgb

    def show(self):
        rgb = self._rgb
        cap = self._cap
        if self._power is not None:
            if (rgb if self._kind == _PIXELBUF else self._buf) == self._dark:
                if self.powered:
                    self.powered = False
                    self._power(0)
                return
            if not self.powered:
                self.powered = True
                self._power(1)
                sleep_ms(RAIL_MS)
        if self._kind == _PIXELBUF:
            out = self._out
            for i in range(self.n):
                j = 3 * i
                out[i] = ((rgb[j] * cap // 255) << 16) | ((rgb[j + 1] * cap // 255) << 8) \
                    | (rgb[j + 2] * cap // 255)
            out.show()
            return
        if self._kind == _WRITE_FN:
            self._out(self._buf)
        else:
            self._out.write()


def leds_from_board(board):
    """Leds on the board's NeoPixel pin (MicroPython GPIO number or CircuitPython name), with
    its rail pin where the board file names one (MicroPython), driven low at once: the rail
    stays off until the first lit frame."""
    cfg = board["leds"]
    if cfg.get("driver") != "neopixel":
        raise ValueError("board %r: LED driver %r is not supported" % (board.get("name"), cfg.get("driver")))
    n = cfg["count"]
    order = cfg.get("order", "GRB")
    rail = cfg.get("rail")
    if board.get("runtime") == "circuitpython":
        if rail is not None:
            raise ValueError("board %r: an LED rail is not supported on CircuitPython" % (board.get("name"),))
        import board as pins
        import neopixel
        # CircuitPython's neopixel; the stubs describe MicroPython's (no brightness etc.)
        device = neopixel.NeoPixel(getattr(pins, cfg["pin"]), n, brightness=1.0,  # type: ignore[call-arg]
                                   auto_write=False, pixel_order=order)
    else:
        from machine import Pin
        import neopixel
        if order != "GRB":
            raise ValueError("board %r: MicroPython neopixel is GRB, board says %r" % (board.get("name"), order))
        device = neopixel.NeoPixel(Pin(cfg["pin"]), n)
        if rail is not None:
            rail = Pin(rail, Pin.OUT, value=0)
    return Leds(n, device, cfg.get("brightness_max", 0.25), order, rail)
