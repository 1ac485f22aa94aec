"""Adafruit Feather RP2040 + OLED FeatherWing 128x32, CircuitPython 9+: no wiring, the wing stacks on the Feather.

Pins are `board` attribute names. The wing's buttons A, B, C sit on D9, D6, D5 (GPIO9, GPIO8,
GPIO7 on this Feather) and short to GND; only B has a pull-up on the wing (100K), so every
button uses the internal pull-up. Three buttons: the app maps long press OK to BACK.
The LED is the Feather's own NeoPixel (board.NEOPIXEL, a strip of one). For an external
8-LED stick, set "pin": "D10", "count": 8 (D10 is free with the wing fitted).
"""

BOARD = {
    "name": "Adafruit Feather RP2040 + OLED FeatherWing 128x32",
    "runtime": "circuitpython",
    # bus "i2c" with sda/scl SDA/SCL is board.I2C() (the STEMMA QT / Feather I2C pins)
    "display": {"driver": "ssd1306", "bus": "i2c", "i2c_id": 0, "sda": "SDA", "scl": "SCL",
                "freq": 400000, "addr": 0x3C, "width": 128, "height": 32},
    # FeatherWing A, B, C
    "buttons": {"UP": "D9", "OK": "D6", "DOWN": "D5"},
    "button_pull": "up",
    "three_button": True,
    "encoder": None,
    "leds": {"driver": "neopixel", "pin": "NEOPIXEL", "count": 1, "layout": "strip",
             "order": "GRB", "brightness_max": 0.25, "ma_per_led_full": 60},
    "watchdog": True,
}
