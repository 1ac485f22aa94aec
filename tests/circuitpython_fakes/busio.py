"""Fake of CircuitPython's `busio`: an I2C bus whose writes go to the trace as
"i2c AA HEX" lines (the virtual board's format, decoded by host_tools.vboard.Ssd1306)."""
import harness


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        self.scl, self.sda = scl, sda

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def scan(self):
        return [0x3C]

    def writeto(self, address, buffer, *, start=0, end=None):
        data = bytes(buffer[start:end])
        harness.log("i2c %02x %s" % (address, data.hex()))
        if len(data) > 1 and data[0] == 0x40 and harness.first_frame_ms is None:
            harness.first_frame_ms = harness.now_ms()

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        end = len(buffer) if end is None else end
        for i in range(start, end):
            buffer[i] = 0

    def deinit(self):
        pass
