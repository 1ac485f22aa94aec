"""The filesystem operations the firmware's Storage makes, each from the same small flash,
and what comes of each: the return value or the OSError's errno, and the whole flash after.

Plain Python that MicroPython runs too: tests/test_fs_differential.py runs the table on
host_tools.vhal.MemFS (CPython) and on littlefs (VfsLfs2 on the unix port) and asserts the
same outcome for every case. `o` is the filesystem: open(path, mode) and the os functions.
"""

START = (("f", b"x"), ("d", None), ("e", None), ("e/g", b"g"))  # a file, an empty folder, a folder with a file
FLASH = 8192  # the flash's bytes (littlefs: 16 blocks of 512, a few taken by its own records)
MORE = b"y" * 10240  # more than the flash holds


def write(o, path, data, mode="wb"):
    with o.open(path, mode) as f:
        f.write(data)


def read(o, path):
    with o.open(path, "rb") as f:
        return f.read().decode()


def kind(o, path):
    st = o.stat(path)
    return "dir" if st[0] & 0x4000 else st[6]  # (a folder's size: littlefs gives none)


CASES = (
    ("read a missing file", lambda o: read(o, "nope")),
    ("read a file in a missing folder", lambda o: read(o, "m/x")),
    ("read a folder", lambda o: read(o, "d")),
    ("read below a file", lambda o: read(o, "f/x")),
    ("write a new file", lambda o: write(o, "n", b"new")),
    ("write over a file", lambda o: write(o, "f", b"new")),
    ("write in a missing folder", lambda o: write(o, "m/x", b"1")),
    ("write two folders below a missing one", lambda o: write(o, "m/n/x", b"1")),
    ("write below a file", lambda o: write(o, "f/x", b"1")),
    ("write a folder", lambda o: write(o, "d", b"1")),
    ("append to a file", lambda o: write(o, "e/g", b"h", "ab")),
    ("append makes a file", lambda o: write(o, "d/n", b"h", "ab")),
    ("append in a missing folder", lambda o: write(o, "m/x", b"1", "ab")),
    ("append to a folder", lambda o: write(o, "d", b"1", "ab")),
    ("rename a missing file", lambda o: o.rename("nope", "z")),
    ("rename into a missing folder", lambda o: o.rename("f", "m/f")),
    ("rename below a file", lambda o: o.rename("e/g", "f/g")),
    ("rename into a folder", lambda o: o.rename("f", "d/f")),
    ("rename onto a file", lambda o: o.rename("e/g", "f")),
    ("rename onto itself", lambda o: o.rename("f", "f")),
    ("rename a file onto an empty folder", lambda o: o.rename("f", "d")),
    ("rename a file onto a folder", lambda o: o.rename("f", "e")),
    ("rename a folder", lambda o: o.rename("e", "d/e")),
    ("rename a folder onto a file", lambda o: o.rename("d", "f")),
    ("rename a folder onto an empty folder", lambda o: o.rename("e", "d")),
    ("rename a folder onto a folder", lambda o: o.rename("d", "e")),
    ("remove a file", lambda o: o.remove("e/g")),
    ("remove a missing file", lambda o: o.remove("nope")),
    ("remove in a missing folder", lambda o: o.remove("m/x")),
    ("remove below a file", lambda o: o.remove("f/x")),
    ("remove an empty folder", lambda o: o.remove("d")),
    ("remove a folder with a file", lambda o: o.remove("e")),
    ("make a folder", lambda o: o.mkdir("n")),
    ("make a folder in a folder", lambda o: o.mkdir("e/n")),
    ("make a folder that is there", lambda o: o.mkdir("d")),
    ("make a folder named as a file", lambda o: o.mkdir("f")),
    ("make a folder in a missing folder", lambda o: o.mkdir("m/n")),
    ("make a folder below a file", lambda o: o.mkdir("f/n")),
    ("list the root", lambda o: o.listdir("")),
    ("list a folder", lambda o: o.listdir("e")),
    ("list an empty folder", lambda o: o.listdir("d")),
    ("list a missing folder", lambda o: o.listdir("nope")),
    ("list a file", lambda o: o.listdir("f")),
    ("list below a file", lambda o: o.listdir("f/x")),
    ("list the root with kinds", lambda o: sorted([e[0], e[1]] for e in o.ilistdir(""))),
    ("list a folder with kinds", lambda o: sorted([e[0], e[1]] for e in o.ilistdir("e"))),
    ("stat a file", lambda o: kind(o, "e/g")),
    ("stat a folder", lambda o: kind(o, "d")),
    ("stat a missing path", lambda o: kind(o, "nope")),
    ("stat in a missing folder", lambda o: kind(o, "m/x")),
    ("stat below a file", lambda o: kind(o, "f/x")),
    ("write more than the flash holds", lambda o: write(o, "n", MORE)),
    ("append more than the flash holds", lambda o: write(o, "f", MORE, "ab")),
)


def flash(o, folder=""):
    """Everything on the flash: [path, its text or "dir"], in name order."""
    out = []
    for name in o.listdir(folder):
        path = folder + "/" + name if folder else name
        if kind(o, path) == "dir":
            out.append([path, "dir"])
            out += flash(o, path)
        else:
            out.append([path, read(o, path)])
    return out


def outcomes(fresh):
    """[case, the value returned or "errno N", the flash after] for each case; fresh()
    gives the filesystem holding START, anew for each case."""
    got = []
    for name, op in CASES:
        o = fresh()
        try:
            value = op(o)
        except OSError as e:
            value = "errno %d" % e.args[0]
        got.append([name, value, flash(o)])
    return got
