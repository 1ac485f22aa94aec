"""Where the fake peripherals record what the firmware sent them.

Each record is appended, when the virtual board was started with a trace file, to it as
one text line: `i2c <addr hex> <bytes hex>`, `np <pin> <bytes hex>`, `pin <id> <value>`,
`wdt <id> <timeout ms>`. The file is opened before the flash is mounted, so it lives
outside it. The last LIMIT records are also kept, cut to SHORT characters, for
`machine.trace()` over the REPL. Recording takes little of the board's heap (the firmware
under test owns it): hex goes to the file in CHUNK-byte pieces, never as one string.
"""
import os
import sys
from binascii import hexlify

LIMIT = 16
SHORT = 72
CHUNK = 64
records = []
_path = os.getenv("VBOARD_TRACE")
_file = open(_path, "a") if _path else None


def record(kind, where, data):
    """Keep one record; `data` is bytes-like (hexed) or an int."""
    head = "%s %s " % (kind, where)
    if isinstance(data, int):
        short = head + str(data)
    else:
        short = head + hexlify(data[:SHORT // 2]).decode()
    records.append(short[:SHORT])
    if len(records) > LIMIT:
        records.pop(0)
    if _file is None:
        return
    if isinstance(data, int):
        _file.write(short + "\n")
    else:
        _file.write(head)
        view = memoryview(data)
        for i in range(0, len(view), CHUNK):
            _file.write(hexlify(view[i:i + CHUNK]))
        _file.write("\n")
    _file.flush()


def control(word):
    """Tell the host side something (reset requests, button steps done) on stderr, which it reads apart."""
    sys.stderr.write("\x1bVB:" + word + "\n")
