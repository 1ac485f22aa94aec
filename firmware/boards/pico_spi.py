"""Raspberry Pi Pico / Pico W with a 7-pin SPI OLED module (SSD1306 or SH1106), MicroPython:
the Pico build of boards/pico.py but for the display, a whole frame about nine times faster
than over I2C (docs/performance.md, "Displays").

Pins are GPIO numbers; the display's take the left header from GP5 to GP9, around a GND.
"""

BOARD = {
    "name": "Raspberry Pi Pico / Pico W, SPI display",
    "runtime": "micropython",
    # a 0.96-inch SSD1306 module (8 MHz); "driver": "sh1106" for a 1.3-inch one (2 MHz)
    "display": {"driver": "ssd1306", "bus": "spi", "spi_id": 0, "sck": 6, "mosi": 7, "res": 8,
                "dc": 9, "cs": 5, "width": 128, "height": 64},
    # buttons wire a pin to GND; the internal pull-up holds it high (pressed = 0)
    "buttons": {"UP": 10, "DOWN": 11, "LEFT": 12, "RIGHT": 13, "OK": 14, "BACK": 15},
    "button_pull": "up",
    "encoder": None,
    # rail: the pin that switches the LEDs' +5V (high = on), off whenever they are all dark
    "leds": {"driver": "neopixel", "pin": 16, "count": 25, "layout": "matrix5x5",
             "order": "GRB", "brightness_max": 0.25, "ma_per_led_full": 60, "rail": 17},
    "watchdog": True,
    "sleep": "lightsleep",
    "deep_sleep": "dormant",
}
