"""Raspberry Pi Pico / Pico W, MicroPython: OLED 128x64 on I2C0, 6 buttons, NeoPixel 5x5 matrix.

A board file is data only: the composition root (firmware/main.py) builds the devices from it.
Pins are GPIO numbers (MicroPython) or board attribute names (CircuitPython).
"""

BOARD = {
    "name": "Raspberry Pi Pico / Pico W",
    "runtime": "micropython",
    # a 0.96-inch SSD1306 module; "driver": "sh1106" for a 1.3-inch one. Its address (0x3C or
    # 0x3D) is found by scanning; a 7-pin SPI module: boards/pico_spi.py
    "display": {"driver": "ssd1306", "bus": "i2c", "i2c_id": 0, "sda": 4, "scl": 5,
                "freq": 400000, "width": 128, "height": 64},
    # buttons wire a pin to GND; the internal pull-up holds it high (pressed = 0)
    "buttons": {"UP": 10, "DOWN": 11, "LEFT": 12, "RIGHT": 13, "OK": 14, "BACK": 15},
    "button_pull": "up",
    "encoder": None,
    # rail: the pin that switches the LEDs' +5V (high = on), off whenever they are all dark
    "leds": {"driver": "neopixel", "pin": 16, "count": 25, "layout": "matrix5x5",
             "order": "GRB", "brightness_max": 0.25, "ma_per_led_full": 60, "rail": 17},
    "watchdog": True,
    # between frames: machine.lightsleep, ended by a button's pin interrupt (firmware/main.py)
    "sleep": "lightsleep",
    # once dark: the chip dormant (every clock stopped) until a button, then a reset; the boot
    # resumes the game from flash (hal.clock.deep_sleep)
    "deep_sleep": "dormant",
}
