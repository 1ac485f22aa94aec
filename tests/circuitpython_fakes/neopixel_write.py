"""Fake of CircuitPython's `neopixel_write`: each write is an "np PIN HEX" trace line."""
import harness


def neopixel_write(digitalinout, buf):
    harness.log("np %s %s" % (digitalinout.pin.name, bytes(buf).hex()))
