"""Espressif ESP32-S3-DevKitC-1, MicroPython: OLED 128x64 on I2C0, 6 buttons, 8-LED NeoPixel stick.

Pins are GPIO numbers. Left unused on purpose: strapping pins 0, 3, 45, 46; 19/20 (USB);
26-32 (SPI flash); 33-37 (octal PSRAM on N8R8/N16R8 modules); 43/44 (UART0 console).
The on-board addressable RGB LED is on GPIO38 (board v1.1) or GPIO48 (v1.0); it is not used.
"""

BOARD = {
    "name": "ESP32-S3-DevKitC-1",
    "runtime": "micropython",
    # SSD1306 (0.96-inch) or "sh1106" (1.3-inch); its address is found by scanning
    "display": {"driver": "ssd1306", "bus": "i2c", "i2c_id": 0, "sda": 8, "scl": 9,
                "freq": 400000, "width": 128, "height": 64},
    # buttons wire a pin to GND; the internal pull-up holds it high (pressed = 0)
    "buttons": {"UP": 4, "DOWN": 5, "LEFT": 6, "RIGHT": 7, "OK": 15, "BACK": 16},
    "button_pull": "up",
    # optional EC11/KY-040 rotary encoder with push switch, wired to GND like the buttons;
    # fit it instead of (or beside) the six buttons
    "encoder": {"a": 10, "b": 11, "push": 12},
    "leds": {"driver": "neopixel", "pin": 17, "count": 8, "layout": "strip",
             "order": "GRB", "brightness_max": 0.25, "ma_per_led_full": 60},
    "watchdog": True,
    # no "sleep": "lightsleep": not tried on this chip (its light sleep clock-gates the digital
    # peripherals, the USB REPL's among them, and wakes on pin levels set up with
    # Pin.irq(wake=...), not on rp2's edge interrupts); the loop polls every 40 ms instead
}
