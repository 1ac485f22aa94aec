"""Appends around faults and other writers, for CPython tests and MicroPython test scripts alike.

cases(st, path, fault, other) runs them on a Storage `st`: each append must return the file's
length before its line and leave exactly the bytes before plus the line, whatever came
between two appends: a write that failed (fault.on(): the next line's write fails, halfway or
on a full flash; fault.off(): room again), a cut, a torn tail recovered, the file replaced,
moved away and back, removed, emptied, or grown by another Storage (`other`, the same flash).
Raises AssertionError naming the case that went wrong.
"""
from fault_files import read
from files import recover_lines

ENOENT = 2
LONG = "x" * 600  # longer than a FAT cluster: it cannot fit the slack of the file's last one


def append(st, path, text, before, case, create=False):
    start = st.append_line(path, text, create)
    after = read(path)
    assert start == len(before), "%s: start %d, the file had %d bytes" % (case, start, len(before))
    assert after == before + text.encode("utf-8") + b"\n", "%s: the file ends %r" % (case, after[-80:])


def refused(st, path, text, fault, case, create=False):
    """The append raises OSError; fault.off() after it. Returns the error number."""
    try:
        st.append_line(path, text, create)
    except OSError as e:
        return e.args[0] if e.args else None
    finally:
        fault.off()
    raise AssertionError("%s: the append did not fail" % case)


def cases(st, path, fault, other):
    header = '{"format": "azul-companion-record", "v": 1, "game": "azul", "players": ["Zoë", "Ben"]}\n'
    st.write_atomic(path, header)
    good = header.encode("utf-8")
    append(st, path, '{"e": "note", "text": "café"}', good, "first line")
    good = read(path)

    fault.on()
    refused(st, path, LONG, fault, "a failed write")
    append(st, path, '{"e": "undo"}', good, "after a failed write")  # cuts a torn tail first
    good = read(path)

    fault.on()
    refused(st, path, LONG, fault, "a failed write")
    fault.on()
    refused(st, path, LONG, fault, "a second failed write")
    append(st, path, '{"e": "redo"}', good, "after two failed writes")

    st.cut(path, len(header.encode("utf-8")))
    append(st, path, '{"e": "note", "text": "cut"}', header.encode("utf-8"), "after a cut")
    good = read(path)

    with open(path, "ab") as f:
        f.write(b'{"e": "wall", "p"')  # a power cut inside a line
    assert recover_lines(st, path)[1], "the torn tail was not seen"
    append(st, path, '{"e": "note", "text": "recovered"}', good, "after recover_lines")

    st.write_atomic(path, "{}\n")
    append(st, path, '{"e": "note", "text": "replaced"}', b"{}\n", "after write_atomic")
    good = read(path)

    other.append_line(path, '{"e": "note", "text": "another writer"}')
    good2 = read(path)
    assert len(good2) > len(good)
    append(st, path, '{"e": "note", "text": "after it"}', good2, "after another Storage's line")
    good = read(path)

    st.rename(path, path + ".away")
    assert refused(st, path, "{}", fault, "moved away") == ENOENT
    assert read(path) is None, "an append with create=False left a file"
    st.rename(path + ".away", path)
    append(st, path, '{"e": "note", "text": "moved back"}', good, "after the file came back")
    good = read(path)

    other.append_line(path, '{"e": "note", "text": "then a fault"}')
    fault.on()
    refused(st, path, LONG, fault, "a failed write after another Storage's line")
    good += b'{"e": "note", "text": "then a fault"}\n'
    append(st, path, '{"e": "undo"}', good, "after another's line and a failed write")

    st.remove(path)
    assert refused(st, path, "{}", fault, "removed") == ENOENT
    assert read(path) is None, "an append with create=False left a file"
    append(st, path, "{}", b"", "a new file", create=True)

    st.write_atomic(path, "")
    assert refused(st, path, "{}", fault, "an empty record") == ENOENT
    assert read(path) is None, "an empty record was kept"
