"""What the tests read back of the device's files, through its Storage (hal.storage)."""


def read_lines(st, path):
    """(complete lines as str, without their newline; True when bytes follow the last one),
    ([], False) for a missing file."""
    if not st.exists(path):
        return [], False
    parts = st.read(path).split(b"\n")
    return [p.decode("utf-8") for p in parts[:-1]], len(parts[-1]) > 0


def read_text(st, path, default=None):
    """The file as str, or default when it is missing."""
    return st.read(path).decode("utf-8") if st.exists(path) else default


def recover_lines(st, path):
    """read_lines(), with bytes after the last complete line cut off the file (what boot
    does to the game in play, keeping them aside: app.keeper)."""
    lines, torn = read_lines(st, path)
    if torn:
        st.cut(path, sum(len(line.encode("utf-8")) + 1 for line in lines))
    return lines, torn
