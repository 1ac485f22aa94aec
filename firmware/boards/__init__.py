"""Board files: one data module per supported board, each defining a `BOARD` dict."""

BOARDS = ("pico", "pico_spi", "esp32s3", "feather_rp2040")


def load(name):
    """Return the BOARD dict of board `name` (one of BOARDS); __import__ works on every runtime."""
    if name not in BOARDS:
        raise ValueError("unknown board %r in firmware/boards: expected one of %s" % (name, ", ".join(BOARDS)))
    module = __import__("boards." + name, None, None, ("BOARD",))
    return module.BOARD
