"""Storage under power loss: appends resume at the last complete line, settings are atomic.

The flash double keeps exactly the first N bytes written; every N from 0 to the total is
tried, so each byte boundary of every line (including inside a multi-byte UTF-8 name) is cut.
"""
import os

from hal.storage import Storage
from host_tools.vhal import CutStorage, PowerCut

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
        lines, torn = rebooted.read_lines(RECORD)
        assert lines == LINES[:complete], cut
        assert torn == (cut not in [0] + ends), cut
        # recover, then keep appending: the file must be the complete prefix plus new lines
        recovered, _ = rebooted.recover_lines(RECORD)
        assert recovered == LINES[:complete]
        rebooted.append_line(RECORD, '{"e": "end_round"}')
        again, torn_again = rebooted.read_lines(RECORD)
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
        text = st.after_reboot().read_text("settings.json")
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


def test_history_move_list_rotate():
    from app.history import history_page  # (the History screen's: not imported at collection)
    st = CutStorage(None)
    for k in range(5):
        st.append_line("current.jsonl", '{"game": %d}' % k)
        name = st.move_to_history("current.jsonl", "history")
        st.rotate_history("history", 3)
        assert name == "%06d.jsonl" % (k + 1)
        assert not st.exists("current.jsonl")
    assert history_page(st, "history", 10) == [5, 4, 3]
    assert st.read_lines("history/000005.jsonl") == (['{"game": 4}'], False)
    assert st.rotate_history("history", 1) == 2
    assert history_page(st, "history", 10) == [5]
    assert history_page(st, "missing", 10) == []


def test_a_history_name_found_ahead_is_taken_only_while_free():
    """move_to_history(name=...) files under the name a listing found earlier, unless a file
    took it meanwhile or its folder went: then it lists again, and nothing is overwritten."""
    st = CutStorage(None)
    st.ensure_dir("history")
    st.append_line("current.jsonl", "a")
    assert st.move_to_history("current.jsonl", "history", "000001.jsonl") == "000001.jsonl"
    ahead = st.next_in_history("history")
    assert ahead == "000002.jsonl"
    st.append_line("current.jsonl", "b")
    st.move_to_history("current.jsonl", "history")  # takes 000002 meanwhile
    st.append_line("current.jsonl", "c")
    assert st.move_to_history("current.jsonl", "history", ahead) == "000003.jsonl"
    assert [st.read_lines("history/%06d.jsonl" % n)[0] for n in (1, 2, 3)] == [["a"], ["b"], ["c"]]


def test_real_filesystem_functions(tmp_path):
    from app.history import history_page
    storage = Storage()
    path = str(tmp_path / "rec.jsonl")
    storage.append_line(path, "one")
    storage.append_line(path, "two")
    with open(path, "ab") as f:
        f.write(b'{"torn')
    assert storage.read_lines(path) == (["one", "two"], True)
    assert storage.recover_lines(path) == (["one", "two"], True)
    with open(path, "rb") as f:
        assert f.read() == b"one\ntwo\n"
    settings = str(tmp_path / "settings.json")
    storage.write_atomic(settings, "a")
    storage.write_atomic(settings, "b")
    assert storage.read_text(settings) == "b"
    assert not os.path.exists(settings + ".tmp")
    hist = str(tmp_path / "history")
    assert storage.move_to_history(path, hist) == "000001.jsonl"
    assert history_page(storage, hist, 10) == [1]
    assert storage.read_lines(str(tmp_path / "nothing")) == ([], False)
