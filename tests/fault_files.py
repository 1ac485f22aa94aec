"""Files that fail like a full flash, for CPython tests and MicroPython test scripts alike.

Storage(Flash().open, os) is the board's storage over the real files of the current folder.
"""
ENOSPC = 28  # errno.ENOSPC: MicroPython's errno module leaves it out


class Flash:
    """Files opened through a Flash fail like a full flash while `full` is set (and for the
    next `fail` writes): a write stores the first half of its bytes, then raises ENOSPC.
    `truncate=False` hides the files' truncate(), as on MicroPython, so a torn line can only
    be cut by a copy, which a full flash refuses as well."""

    def __init__(self, truncate=True):
        self.full = False
        self.fail = 0
        self.truncate = truncate

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
        raise AttributeError(name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()
        return False
