"""A block device in RAM for MicroPython's VfsLfs2 and VfsFat (the unix port's scripts import it).

RamBlocks(count, size, data, limit): `data` is the initial image; with `limit`, the
limit-th block write or erase raises Cut (a power cut), so a script can cut a filesystem
at every block write and mount the blocks that persisted.
"""


class Cut(Exception):
    """The block device lost power."""


class RamBlocks:
    # readblocks/writeblocks with the optional offset (littlefs) or whole blocks (FAT)
    def __init__(self, count, size, data, limit):
        self.count, self.size = count, size
        self.data = bytearray(data)
        self.limit, self.ops = limit, 0

    def _op(self):
        if self.limit is not None and self.ops >= self.limit:
            raise Cut()
        self.ops += 1

    def readblocks(self, n, buf, off=0):
        a = n * self.size + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:  # FAT: one or more whole blocks, each its own flash write
            for i in range(len(buf) // self.size):
                self._op()
                a = (n + i) * self.size
                self.data[a:a + self.size] = buf[i * self.size:(i + 1) * self.size]
        else:
            self._op()
            a = n * self.size + off
            self.data[a:a + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return self.count
        if op == 5:
            return self.size
        if op == 6:  # erase a block (littlefs)
            self._op()
            self.data[arg * self.size:(arg + 1) * self.size] = b"\xff" * self.size
        return 0
