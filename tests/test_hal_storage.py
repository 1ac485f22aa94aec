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


class ListedFS:
    """MemFS whose ilistdir counts the entries it hands out (`read`)."""

    def __init__(self, fs):
        self.fs = fs
        self.read = 0

    def __getattr__(self, name):
        return getattr(self.fs, name)

    def ilistdir(self, folder):
        for e in self.fs.ilistdir(folder):
            self.read += 1
            yield e


def history_fs(numbers, dirs=(), other=()):
    """A flash with history files of these numbers (each its number as its text), empty
    folders named like games, and other files in the folder ("a/b": b in a folder a)."""
    from host_tools.vhal import MemFS
    fs = MemFS(None)
    fs.dirs.add("history")
    for n in numbers:
        fs.files["history/%06d.jsonl" % n] = bytearray(b"%d\n" % n)
    for n in dirs:
        fs.dirs.add("history/%06d.jsonl" % n)
    for name in other:
        if "/" in name:
            fs.dirs.add("history/" + name.split("/")[0])
        fs.files["history/" + name] = bytearray(b"x\n")
    return fs


# (a folder named like a game: littlefs removes an empty one, refuses one that holds a file)
HISTORIES = [((), (), ()), ((1, 2, 3), (), ()), ((4, 9, 7), (), ("notes.txt",)),
             ((2, 3), (5,), ()), ((2, 3, 9), (5,), ("000007.jsonl/notes.txt",)),
             ((11,), (), ("12.json", "x.jsonl"))]


def test_the_history_listed_in_pieces_names_the_game_as_a_whole_listing_and_overwrites_nothing():
    """Filing with the listing made ahead in pieces (any number of them, finished or not, a
    piece of any size) takes the name a whole listing finds, and keeps every file there."""
    for numbers, dirs, other in HISTORIES:
        fs = history_fs(numbers, dirs, other)
        want = Storage(fs.open, ListedFS(fs)).next_in_history("history")  # one listing, whole
        for size in (1, 2, 3):
            for pieces in range(6):
                fs = history_fs(numbers, dirs, other)
                before = {p: bytes(b) for p, b in fs.files.items()}
                listed = ListedFS(fs)
                st = Storage(fs.open, listed)
                for _ in range(pieces):
                    st.scan_history("history", size)
                    assert listed.read <= size * (pieces + 1)
                fs.files["current.jsonl"] = bytearray(b"game\n")
                assert st.move_to_history("current.jsonl", "history") == want
                assert fs.files["history/" + want] == b"game\n"
                assert all(fs.files[p] == b for p, b in before.items())


def test_the_history_span_kept_after_moves_and_rotations_acts_as_a_fresh_listing():
    """A Storage that listed the history once and since filed and trimmed games itself
    leaves the same files as one that lists the folder before each of them (the history
    as it was before the listing was kept)."""
    for numbers, dirs, other in HISTORIES:
        kept_fs, fresh_fs = history_fs(numbers, dirs, other), history_fs(numbers, dirs, other)
        kept = Storage(kept_fs.open, ListedFS(kept_fs))
        while kept.scan_history("history", 2):
            pass
        for step, keep in enumerate((3, 1, 2, 5, 1, 1)):
            for fs, st in ((kept_fs, kept), (fresh_fs, Storage(fresh_fs.open, ListedFS(fresh_fs)))):
                fs.files["current.jsonl"] = bytearray(b"game %d\n" % step)
                st.move_to_history("current.jsonl", "history")
                st.rotate_history("history", keep)
            assert kept_fs.files == fresh_fs.files and kept_fs.dirs == fresh_fs.dirs
            fresh = Storage(fresh_fs.open, ListedFS(fresh_fs)).history_span("history")
            assert kept.history_span("history")[0::2] == fresh[0::2]  # count and newest


def test_a_history_trim_removes_games_only_and_keeps_a_folder_named_like_one():
    """littlefs's remove takes an empty folder as it takes a file, and MemFS's does too
    (tests/test_fs_differential.py): a trim that passes a user's folder named like a game
    keeps it, with what it holds, and keeps `keep` games."""
    for dirs, other in (((3,), ()), ((3, 7), ("000004.jsonl/notes.txt",))):
        fs = history_fs((1, 2, 5, 6, 8, 9), dirs, other)
        st = Storage(fs.open, fs)
        assert st.rotate_history("history", 2) == 4
        assert all("history/%06d.jsonl" % n in fs.dirs for n in dirs), dirs
        games = sorted(p for p in fs.files if p.endswith(".jsonl"))
        assert games == ["history/000008.jsonl", "history/000009.jsonl"], dirs
        assert all("history/" + p in fs.files for p in other)
        assert st.history_span("history")[0] == Storage(fs.open, fs).history_span("history")[0] == 2


def test_a_history_page_is_the_one_a_listing_gives_and_lists_nothing_when_the_numbers_run_unbroken():
    """history_page() over every kind of history (gaps, folders named like games, other
    files, after filings and rotations) gives the numbers a listing does, newest first; when
    every number from the oldest to the newest is a game, it lists nothing once the span is
    known (a Pico's littlefs lists 0.5-1.3 ms an entry)."""
    from app.history import history_page
    from hal.storage import history_number

    def by_listing(games, count, below, above):
        if above is None:
            return sorted((n for n in games if below is None or n < below), reverse=True)[:count]
        return sorted(n for n in games if n > above)[:count][::-1]
    histories = HISTORIES + [(range(1, 41), (), ()), (range(7, 30), (), ("notes.txt",)), ((1, 2, 4), (), ()),
                             ((1, 2, 3), (0,), ())]
    for numbers, dirs, other in histories:
        for filed, keep in ((0, 0), (3, 20), (5, 2)):
            fs = history_fs(numbers, dirs, other)
            listed = ListedFS(fs)
            st = Storage(fs.open, listed)
            for k in range(filed):
                fs.files["current.jsonl"] = bytearray(b"game %d\n" % k)
                st.move_to_history("current.jsonl", "history")
                st.rotate_history("history", keep)
            games = [history_number(p[8:]) for p in fs.files if p.startswith("history/")]
            games = [n for n in games if n is not None]
            count, oldest, newest = st.history_span("history")
            unbroken = sorted(games) == list(range(oldest, newest + 1))
            read = listed.read
            for size in (1, 3, 16):
                for edge in [None, -1, 0] + sorted(games) + [max(games or [0]) + 1]:
                    assert history_page(st, "history", size, below=edge) == by_listing(games, size, edge, None)
                    if edge is not None:
                        assert history_page(st, "history", size, above=edge) == by_listing(games, size, None, edge)
            assert (listed.read == read) == unbroken or not games


def test_a_history_listing_that_fails_in_an_idle_frame_is_made_again_by_the_filing():
    """An error part-way through the listing made ahead (the flash) raises nothing in the
    idle frame; the filing lists the folder again from its start and takes the right name."""
    fs = history_fs((1, 2, 3, 4, 5))
    listed = ListedFS(fs)
    st = Storage(fs.open, listed)
    whole = listed.ilistdir

    def failing(folder):
        for i, e in enumerate(whole(folder)):
            if i == 1:
                raise OSError(5, "EIO")
            yield e
    listed.ilistdir = failing
    assert st.scan_history("history", 1) and not st.scan_history("history", 1)
    listed.ilistdir = whole
    assert st.history_span("history") == (5, 1, 5)
    fs.files["current.jsonl"] = bytearray(b"game\n")
    assert st.move_to_history("current.jsonl", "history") == "000006.jsonl"
    assert sorted(fs.files) == ["history/%06d.jsonl" % n for n in range(1, 7)]


def test_a_history_name_taken_behind_the_storage_is_not_overwritten():
    """The next name the kept listing gives, taken meanwhile by a file it did not see (the
    folder changed behind this Storage), has the folder listed again: nothing is
    overwritten, and the game takes the name after the newest."""
    st = CutStorage(None)
    st.append_line("current.jsonl", "a")
    assert st.move_to_history("current.jsonl", "history") == "000001.jsonl"
    st.fs.files["history/000002.jsonl"] = bytearray(b"b\n")
    st.fs.files["history/000003.jsonl"] = bytearray(b"c\n")
    st.append_line("current.jsonl", "d")
    assert st.next_in_history("history") == "000002.jsonl"  # (what it kept)
    assert st.move_to_history("current.jsonl", "history") == "000004.jsonl"
    assert [st.read_lines("history/%06d.jsonl" % n)[0] for n in (1, 2, 3, 4)] == [["a"], ["b"], ["c"], ["d"]]


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


def test_the_current_record_read_back_a_piece_at_a_time_gives_its_lines(tmp_path, monkeypatch):
    """Records.current_lines (what a device session reads back of its record) reads the
    file a piece at a time: a line (and a character of it) cut by a piece's end reads whole,
    a torn last line comes without its newline, and a replay of the pieces is the file's."""
    import paths
    from app.records import Records
    from rules_core.session import replay
    monkeypatch.chdir(tmp_path)
    st = Storage()
    st.ensure_dir(paths.DATA_DIR)
    lines = [LINES[0]] + ['{"e": "note", "text": "%s✓"}' % ("é" * k) for k in range(60, 400, 17)]
    for line in lines:
        st.append_line(paths.CURRENT, line)
    with open(paths.CURRENT, "ab") as f:
        f.write(b'{"e": "no')  # a write cut by power loss
    got = list(Records(st, print).current_lines())
    assert got == [(t + "\n").encode("utf-8") for t in lines] + [b'{"e": "no']
    s, warnings = replay(Records(st, print).current_lines())
    assert s.result() == replay("".join(t + "\n" for t in lines))[0].result() and len(warnings) == 1


def test_undo_and_redo_are_written_as_the_record_writes_them():
    from app import app
    from rules_core.record import dumps
    assert app._UNDO_LINE == dumps(app._UNDO) and app._REDO_LINE == dumps(app._REDO)


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
