"""Where the fake peripherals record what the firmware sent them.

Each record is kept in memory (the last LIMIT ones, readable over the REPL as
`machine.trace()`) and, when the virtual board was started with a trace file, appended
to it as one text line: `i2c <addr hex> <bytes hex>`, `np <pin> <bytes hex>`,
`pin <id> <value>`. The file is opened before the flash is mounted, so it lives outside it.
"""
import os
import sys

LIMIT = 64
records = []
_path = os.getenv("VBOARD_TRACE")
_file = open(_path, "a") if _path else None


def _hex(buf):
    return "".join("%02x" % b for b in buf)


def record(kind, where, data):
    """Keep one record; `data` is bytes-like (hexed) or an int."""
    if isinstance(data, int):
        text = str(data)
    else:
        text = _hex(data)
    line = "%s %s %s" % (kind, where, text)
    records.append(line)
    if len(records) > LIMIT:
        records.pop(0)
    if _file is not None:
        _file.write(line + "\n")
        _file.flush()


def control(word):
    """Tell the host side something (reset requests), on stderr, which it reads apart."""
    sys.stderr.write("\x1bVB:" + word + "\n")
