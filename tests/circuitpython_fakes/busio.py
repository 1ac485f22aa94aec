"""Fake of CircuitPython's `busio`: an I2C bus whose writes go to the trace as
"i2c AA HEX" lines (the virtual board's format, decoded by host_tools.vboard.Ssd1306), with
the FRAM breakout of the board file's store on it (an MB85RC256V at 0x50, its device ID at
0x7C, blank at each run) unless the environment has FAKE_FRAM=0. Nothing else answers
(OSError 19, as a NACK raises on the board)."""
import os

import harness

FRAM = bytearray(32768) if os.environ.get("FAKE_FRAM", "1") != "0" else None
FRAM_ID = bytes((0x00, 0xA5, 0x10))


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        self.scl, self.sda = scl, sda
        self.at = 0  # the FRAM's address latch

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def scan(self):
        return [0x3C] + ([0x50, 0x7C] if FRAM is not None else [])

    def _answers(self, address):
        if address != 0x3C and (FRAM is None or address not in (0x50, 0x7C)):
            raise OSError(19, "No such device")

    def writeto(self, address, buffer, *, start=0, end=None):
        self._answers(address)
        data = bytes(buffer[start:end])
        if address == 0x50:
            self.at = data[0] << 8 | data[1]
            FRAM[self.at:self.at + len(data) - 2] = data[2:]
            return
        if address == 0x7C:
            return
        harness.log("i2c %02x %s" % (address, data.hex()))
        if len(data) > 1 and data[0] == 0x40 and harness.first_frame_ms is None:
            harness.first_frame_ms = harness.now_ms()

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        self._answers(address)
        end = len(buffer) if end is None else end
        for i in range(start, end):
            buffer[i] = FRAM[self.at + i - start] if address == 0x50 else FRAM_ID[i - start] if address == 0x7C else 0

    def writeto_then_readfrom(self, address, out, into, *, out_start=0, out_end=None, in_start=0, in_end=None):
        self.writeto(address, out, start=out_start, end=out_end)
        self.readfrom_into(address, into, start=in_start, end=in_end)

    def deinit(self):
        pass
