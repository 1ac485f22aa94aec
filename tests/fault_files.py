"""Files that fail like a full flash, for CPython tests and MicroPython test scripts alike.

Storage(Flash().open, os) is the board's storage over the real files of the current folder;
fill(path) fills the real flash until it refuses a byte, read(path) is what a file holds.
"""
ENOSPC = 28  # errno.ENOSPC: MicroPython's errno module leaves it out


def read(path):
    """A file's bytes, or None when it is missing."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def fill(path):
    """Write path until even one byte is refused: the flash is full (every chunk that
    returned is on it). Removing path gives the room back."""
    for size in (512, 64, 8, 1):
        while True:
            try:
                with open(path, "ab") as f:
                    f.write(b"x" * size)
            except OSError:
                break


class Flash:
    """Files opened through a Flash fail like a full flash while `full` is set (and for the
    next `fail` writes): a write stores the first half of its bytes, then raises ENOSPC.
    `truncate=False` hides the files' truncate(), as on MicroPython, so a torn line can only
    be cut by a copy, which a full flash refuses as well. `seek=True` shows the files' seek(),
    as littlefs, FAT and CPython have it (Storage then reads a file's length off it)."""

    def __init__(self, truncate=True, seek=False):
        self.full = False
        self.fail = 0
        self.truncate = truncate
        self.seek = seek

    def open(self, path, mode="r"):
        return FaultFile(open(path, mode), self)


class FaultFile:
    def __init__(self, f, flash):
        self.f = f
        self.flash = flash

    def write(self, data):
        if self.flash.full or self.flash.fail:
            self.flash.fail = max(0, self.flash.fail - 1)
            data = bytes(data)
            self.f.write(data[:len(data) // 2])
            self.f.flush()
            raise OSError(ENOSPC, "No space left on device")
        return self.f.write(data)

    def read(self):
        return self.f.read()

    def flush(self):
        self.f.flush()

    def close(self):
        self.f.close()

    def __getattr__(self, name):
        if name == "truncate" and self.flash.truncate:
            return self.f.truncate
        if name == "seek" and self.flash.seek:
            return self.f.seek
        raise AttributeError(name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()
        return False
