"""Storage under power loss: appends resume at the last complete line, settings are atomic.

The flash double keeps exactly the first N bytes written; every N from 0 to the total is
tried, so each byte boundary of every line (including inside a multi-byte UTF-8 name) is cut.
"""
import os

from hal.storage import Storage
from host_tools.vhal import CutStorage, PowerCut
from files import read_lines, read_text, recover_lines

RECORD = "game.jsonl"
LINES = ['{"format": "azul-companion-record", "v": 1, "game": "azul", "players": ["Zoë", "Ben"]}',
         '{"e": "wall", "p": 0, "tiles": [[1, "blue"]], "floor": 0}',
         '{"e": "undo"}',
         '{"e": "note", "text": "café ✓"}']


def append_all(st):
    for line in LINES:
        st.append_line(RECORD, line)


def total_bytes():
    return sum(len(line.encode("utf-8")) + 1 for line in LINES)


def test_power_cut_at_every_byte_of_appends_resumes_to_last_complete_line():
    total = total_bytes()
    ends = []  # byte offset at which line k is complete
    acc = 0
    for line in LINES:
        acc += len(line.encode("utf-8")) + 1
        ends.append(acc)
    for cut in range(total + 1):
        st = CutStorage(cut)
        try:
            append_all(st)
        except PowerCut:
            pass
        complete = sum(1 for end in ends if end <= cut)
        rebooted = st.after_reboot()
        lines, torn = read_lines(rebooted, RECORD)
        assert lines == LINES[:complete], cut
        assert torn == (cut not in [0] + ends), cut
        # recover, then keep appending: the file must be the complete prefix plus new lines
        recovered, _ = recover_lines(rebooted, RECORD)
        assert recovered == LINES[:complete]
        rebooted.append_line(RECORD, '{"e": "end_round"}')
        again, torn_again = read_lines(rebooted, RECORD)
        assert again == LINES[:complete] + ['{"e": "end_round"}'] and not torn_again, cut


def test_write_atomic_cut_at_every_byte_leaves_old_or_new():
    old, new = '{"brightness": 2, "name": "old"}', '{"brightness": 5, "name": "néw settings"}'
    size = len(new.encode("utf-8"))
    seen_new = False
    for cut in range(size + 2):
        st = CutStorage(None)
        st.write_atomic("settings.json", old)
        st.fs.cut_at_byte = st.fs.written + cut
        try:
            st.write_atomic("settings.json", new)
        except PowerCut:
            pass
        text = read_text(st.after_reboot(), "settings.json")
        assert text in (old, new), (cut, text)
        seen_new = seen_new or text == new
        # until the whole tmp file is written, the rename cannot have happened
        if cut <= size:
            assert text == old, cut
    assert seen_new


def test_append_rejects_newline():
    st = CutStorage(None)
    try:
        st.append_line(RECORD, 'a\nb')
    except ValueError as e:
        assert RECORD in str(e)
    else:
        raise AssertionError("newline accepted")


def test_real_filesystem_functions(tmp_path):
    storage = Storage()
    path = str(tmp_path / "rec.jsonl")
    storage.append_line(path, "one")
    storage.append_line(path, "two")
    with open(path, "ab") as f:
        f.write(b'{"torn')
    assert read_lines(storage, path) == (["one", "two"], True)
    assert storage.read(path, 4, 3) == b"two" and storage.read(path, 100) == b""
    storage.cut(path, 8)
    with open(path, "rb") as f:
        assert f.read() == b"one\ntwo\n"
    settings = str(tmp_path / "settings.json")
    storage.write_atomic(settings, "a")
    storage.write_atomic(settings, (b"b", "\u00e9"))
    assert read_text(storage, settings) == "b\u00e9"
    assert not os.path.exists(settings + ".tmp")
    os.mkdir(str(tmp_path / "folder"))
    assert sorted(storage.entries(str(tmp_path))) == [("folder", True), ("rec.jsonl", False), ("settings.json", False)]
    assert list(storage.entries(str(tmp_path / "nothing"))) == []
    assert read_lines(storage, str(tmp_path / "nothing")) == ([], False)


def test_undo_and_redo_are_written_as_the_record_writes_them():
    from app import play
    from rules_core.record import dumps
    assert play._UNDO_LINE == dumps(play._UNDO) and play._REDO_LINE == dumps(play._REDO)


def test_the_walk_of_the_flash_is_taken_in_an_idle_frame_once_enough_blocks_were_allocated(tmp_path):
    """Storage.refresh: littlefs's lookahead, filled by a walk of the flash, runs out after as
    many blocks allocated as the walk found free, and the next block (a press's line) waits
    for the next walk. Once REFRESH_BLOCKS lines were appended since the last walk, an idle
    frame mounts the flash again and writes the warm-up file, whose block takes the walk;
    before that it does nothing, and where there is nothing to mount again it is not tried
    again."""
    from hal.storage import REFRESH_BLOCKS, lfs_remount
    assert lfs_remount() is False  # (CPython: no littlefs to mount again, nothing changed)
    warm, record = str(tmp_path / ".warm"), str(tmp_path / "r.jsonl")
    mounts, opened = [], []
    st = Storage(lambda p, m: opened.append(p) or open(p, m), os, remount=lambda: mounts.append(1) or True)
    st.warm(warm)
    for i in range(REFRESH_BLOCKS - 1):
        st.append_line(record, "line %d" % i)
        assert st.refresh(warm) is False
    assert mounts == [] and opened.count(warm) == 1
    st.append_line(record, "the last")
    assert st.refresh(warm) is False and mounts == [1] and opened.count(warm) == 2
    assert not os.path.exists(warm)
    assert st.refresh(warm) is False and mounts == [1]  # the walk taken: none due
    for result in (False, OSError(5)):
        calls = []

        def remount():
            calls.append(1)
            if isinstance(result, Exception):
                raise result
            return result
        st = Storage(remount=remount)
        for i in range(2 * REFRESH_BLOCKS):
            st.append_line(record, "more")
            st.refresh(warm)
        assert calls == [1] and not os.path.exists(warm)
