"""An FRAM chip for the tests of hal/fram_fs.py: its bytes in a bytearray, written one byte at
a time as the bus delivers them, and a power cut after any number of them.

    Chip(size, cut_at=None): the memory FramFS mounts (size, read_into, write); after cut_at
        bytes written, PowerCut (the write that crosses it lands its first bytes only)
    Chip.bus(): an I2C bus with the chip at 0x50 and its device ID at 0x7C, with
        MicroPython's calls (writeto(addr, buf, stop), readfrom_into) and, with
        circuitpython=True, busio's writeto_then_readfrom as well
"""
from host_tools.vhal import PowerCut

ID = bytes((0x00, 0xA5, 0x10))  # Fujitsu, MB85RC256V


class Chip:
    def __init__(self, size=32768, cut_at=None, data=None):
        self.size = size
        self.bytes = bytearray(data) if data is not None else bytearray(b"\xa5" * size)  # never blank: formatted
        self.cut_at = cut_at
        self.written = 0

    def read_into(self, at, buf):
        if self.cut_at is not None and self.written >= self.cut_at:
            raise PowerCut("power cut after byte %d" % self.written)
        buf[:] = self.bytes[at:at + len(buf)]

    def write(self, at, data):
        for k, b in enumerate(bytes(data)):
            if self.cut_at is not None and self.written >= self.cut_at:
                raise PowerCut("power cut after byte %d" % self.written)
            self.bytes[(at + k) % self.size] = b
            self.written += 1

    def after_reboot(self):
        """The same bytes, the power back."""
        return Chip(self.size, None, self.bytes)

    def bus(self, circuitpython=False, addr=0x50):
        return Bus(self, addr, circuitpython)


class Bus:
    """The I2C bus: the chip answers at addr (memory: two address bytes, then data written
    or read from there on) and at 0x7C (its device ID, after the byte addr << 1); nothing
    else answers (OSError 5, as a NACK raises on both runtimes)."""

    def __init__(self, chip, addr, circuitpython):
        self.chip = chip
        self.addr = addr
        self.at = 0  # the chip's address latch
        self.transfers = 0
        if circuitpython:
            self.writeto_then_readfrom = self._writeto_then_readfrom

    def _check(self, addr):
        if addr not in (self.addr, 0x7C):
            raise OSError(5, "no device at 0x%02X" % addr)
        self.transfers += 1

    def writeto(self, addr, buf, stop=True):
        self._check(addr)
        buf = bytes(buf)
        if addr == self.addr:
            self.at = (buf[0] << 8 | buf[1]) if len(buf) >= 2 else self.at
            self.chip.write(self.at, buf[2:])
            self.at += len(buf[2:])
        else:
            self.id_for = buf[:1] == bytes((self.addr << 1,))

    def readfrom_into(self, addr, buf, stop=True):
        self._check(addr)
        if addr == self.addr:
            self.chip.read_into(self.at, buf)
            self.at += len(buf)
        else:
            buf[:] = ID if self.id_for else bytes(3)

    def _writeto_then_readfrom(self, addr, out, into):
        self.writeto(addr, out, False)
        self.readfrom_into(addr, into)
