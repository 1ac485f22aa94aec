"""The keeper (app.keeper): every game's life on storage, against faults made for real.

Each test builds a flash (host_tools.vhal.MemFS: fails where littlefs fails, with its errno;
or a host folder) holding what a user's week would leave there, runs the keeper or the App
over it, and checks what the screen says and what stays on flash, byte for byte.
"""
import json
import re
import os

import paths
from app.keeper import Keeper
from paths import game_number
from files import read_lines
from hal.clock import Manual
from hal.storage import Storage
from host_tools import sim
from host_tools.vhal import CutStorage, MemFS, VirtualDisplay, VirtualLeds
from rules_core import azul_engine
from rules_core.record import dumps
from rules_core.session import replay
from app import play

H = paths.HISTORY_DIR


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
    folders named like games, and other entries in the folder ("a/b": b in a folder a)."""
    fs = MemFS(None)
    fs.dirs.update((paths.DATA_DIR, H))
    for n in numbers:
        fs.files["%s/%06d.jsonl" % (H, n)] = bytearray(b"%d\n" % n)
    for n in dirs:
        fs.dirs.add("%s/%06d.jsonl" % (H, n))
    for name in other:
        if "/" in name:
            fs.dirs.add(H + "/" + name.split("/")[0])
        fs.files[H + "/" + name] = bytearray(b"x\n")
    return fs


def keeper_on(fs):
    listed = ListedFS(fs)
    k = Keeper(Storage(fs.open, listed))
    return k, listed


def games_on(fs):
    return sorted(game_number(p[len(H) + 1:]) for p in fs.files
                  if p.startswith(H + "/") and "/" not in p[len(H) + 1:] and game_number(p[len(H) + 1:]))


def put_aside_and_file(k, fs, text):
    fs.files[paths.CURRENT] = bytearray(text)
    k.put_aside()
    k.file()


# (a folder named like a game: littlefs removes an empty one, refuses one that holds a file)
HISTORIES = [((), (), ()), ((1, 2, 3), (), ()), ((4, 9, 7), (), ("notes.txt",)),
             ((2, 3), (5,), ()), ((2, 3, 9), (5,), ("000007.jsonl/notes.txt",)),
             ((11,), (), ("12.json", "x.jsonl", "\u00b2.jsonl", "\u0661\u0662.jsonl", "my game.jsonl")),
             ((1, 2, 9999999), (), ())]


def test_a_game_filed_takes_the_number_after_the_newest_and_overwrites_nothing():
    """After a folder named like a game too; every file there stays as it was."""
    for numbers, dirs, other in HISTORIES:
        fs = history_fs(numbers, dirs, other)
        before = dict((p, bytes(b)) for p, b in fs.files.items())
        k, _ = keeper_on(fs)
        put_aside_and_file(k, fs, b"game\n")
        want = max(list(numbers) + list(dirs) + [0]) + 1
        assert bytes(fs.files["%s/%06d.jsonl" % (H, want)]) == b"game\n", numbers
        assert all(bytes(fs.files[p]) == b for p, b in before.items())


def test_the_history_kept_after_filings_and_trims_acts_as_a_fresh_listing():
    """A keeper that listed the history once and since filed and trimmed games itself leaves
    the same files as one that lists the folder before each of them."""
    for numbers, dirs, other in HISTORIES:
        kept_fs, fresh_fs = history_fs(numbers, dirs, other), history_fs(numbers, dirs, other)
        kept = keeper_on(kept_fs)[0]
        kept.list_history()
        for step, keep in enumerate((3, 1, 2, 5, 1, 1)):
            for fs, k in ((kept_fs, kept), (fresh_fs, keeper_on(fresh_fs)[0])):
                put_aside_and_file(k, fs, b"game %d\n" % step)
                k.trim(keep)
            assert kept_fs.files == fresh_fs.files and kept_fs.dirs == fresh_fs.dirs
            fresh = keeper_on(fresh_fs)[0]
            fresh.list_history()
            assert (kept.count, kept.newest) == (fresh.count, fresh.newest)


def test_a_trim_removes_games_only_and_keeps_a_folder_named_like_one():
    """littlefs's remove takes an empty folder as it takes a file (MemFS's too): a trim that
    passes a user's folder named like a game keeps it, with what it holds, and `keep` games."""
    for dirs, other in (((3,), ()), ((3, 7), ("000004.jsonl/notes.txt",))):
        fs = history_fs((1, 2, 5, 6, 8, 9), dirs, other)
        k = keeper_on(fs)[0]
        assert k.trim(2) == 4
        assert all("%s/%06d.jsonl" % (H, n) in fs.dirs for n in dirs), dirs
        assert games_on(fs) == [8, 9]
        assert all(H + "/" + p in fs.files for p in other)
        assert k.count == 2


def test_a_stray_big_number_costs_the_history_one_listing_not_a_walk_of_the_numbers():
    """data/history/9999999.jsonl beside 60 games: filing and trimming to 50 games, and the
    History's pages, list the folder a few times over; nothing walks from 1 to 9,999,999 (an
    idle frame that did would stall past the watchdog)."""
    fs = history_fs(list(range(1, 61)) + [9999999])
    k, listed = keeper_on(fs)
    for step in range(3):
        put_aside_and_file(k, fs, b"game %d\n" % step)
        k.trim(50)
    assert games_on(fs)[-4:] == [9999999, 10000000, 10000001, 10000002] and len(games_on(fs)) == 50
    page = k.page(16)
    assert page[:4] == [10000002, 10000001, 10000000, 9999999] and len(page) == 16
    assert listed.read < 20 * 64  # a few listings of ~60 entries


def test_names_that_are_no_game_are_ignored_and_named_once_in_the_log():
    """"².jsonl" and "١٢.jsonl" (digits, but not ASCII), "my game.jsonl", a folder named like
    a game: no game; the boot's listing names each once in data/errors.log."""
    fs = history_fs((3,), (5,), ("\u00b2.jsonl", "\u0661\u0662.jsonl", "my game.jsonl"))
    k = keeper_on(fs)[0]
    k.boot()
    k.boot()  # (a second boot of the same keeper names nothing again)
    assert (k.count, k.oldest, k.newest) == (3 - 2, 3, 5)
    log = fs.files[paths.ERRORS].decode("utf-8").splitlines()
    assert sorted(log) == sorted("%s/%s: not a game file, left as it is" % (H, n) for n in
                                 ("000005.jsonl", "\u00b2.jsonl", "\u0661\u0662.jsonl", "my game.jsonl"))
    assert k.page(16) == [3] and k.backup() == [H + "/000003.jsonl"]


def test_a_page_is_the_one_a_listing_gives_and_lists_nothing_when_the_numbers_run_unbroken():
    def by_listing(games, count, below, above):
        if above is None:
            return sorted((n for n in games if below is None or n < below), reverse=True)[:count]
        return sorted(n for n in games if n > above)[:count][::-1]
    histories = HISTORIES + [(range(1, 41), (), ()), (range(7, 30), (), ("notes.txt",)), ((1, 2, 4), (), ())]
    for numbers, dirs, other in histories:
        for filed, keep in ((0, 0), (3, 20), (5, 2)):
            fs = history_fs(numbers, dirs, other)
            k, listed = keeper_on(fs)
            for i in range(filed):
                put_aside_and_file(k, fs, b"game %d\n" % i)
                k.trim(keep)
            games = games_on(fs)
            k.list_history()
            unbroken = games == list(range(k.oldest, k.newest + 1))
            read = listed.read
            for size in (1, 3, 16):
                for edge in [None, -1, 0] + games + [max(games or [0]) + 1]:
                    assert k.page(size, below=edge) == by_listing(games, size, edge, None)
                    if edge is not None:
                        assert k.page(size, above=edge) == by_listing(games, size, None, edge)
            assert (listed.read == read) == unbroken or not games


def test_a_name_taken_behind_the_keeper_is_not_overwritten():
    fs = history_fs((1,))
    k = keeper_on(fs)[0]
    k.list_history()
    fs.files[H + "/000002.jsonl"] = bytearray(b"b\n")  # (another writer, the folder changed)
    put_aside_and_file(k, fs, b"c\n")
    assert [bytes(fs.files["%s/%06d.jsonl" % (H, n)]) for n in (1, 2, 3)] == [b"1\n", b"b\n", b"c\n"]


def test_the_record_read_a_piece_at_a_time_gives_its_lines(tmp_path, monkeypatch):
    """Keeper.lines (what the game in play reads back of its record) reads the file a piece
    at a time: a line (and a character of it) cut by a piece's end reads whole, a torn last
    line is left out, and a replay of the pieces is the file's."""
    monkeypatch.chdir(tmp_path)
    st = Storage()
    st.ensure_dir(paths.DATA_DIR)
    header = dumps({"format": "azul-companion-record", "v": 1, "game": "azul", "players": ["Zo\u00eb", "Ben"]})
    lines = [header] + ['{"e": "note", "text": "%s\u2713"}' % ("\u00e9" * k) for k in range(60, 400, 17)]
    for line in lines:
        st.append_line(paths.CURRENT, line)
    with open(paths.CURRENT, "ab") as f:
        f.write(b'{"e": "no')  # a write cut by power loss
    k = Keeper(st)
    assert list(k.lines()) == [(t + "\n").encode("utf-8") for t in lines]
    assert k.torn_at == os.path.getsize(paths.CURRENT) - 9
    s = replay(k.lines())[0]
    assert s.result() == replay("".join(t + "\n" for t in lines))[0].result()


# ---- boot never discards bytes it read ----------------------------------------------------
_HEADER, _EVENTS = azul_engine.random_game(2, 5, "colored")[:2]
GAME = [dumps(x) for x in [_HEADER] + list(_EVENTS[:5])]


def app_on(fs):
    from app.app import App
    b = sim.load_board("pico")
    clock = Manual()
    app = App(VirtualDisplay(128, 64), VirtualLeds(25, 1.0, "RGB"), Storage(fs.open, fs), clock, b)
    app.step(0, None)
    return app


def flash_with(record):
    fs = MemFS(None)
    fs.dirs.add(paths.DATA_DIR)
    fs.files[paths.CURRENT] = bytearray(record)
    return fs


def said(app):
    return " ".join(app.text())


def test_a_record_that_will_not_resume_is_set_aside_byte_for_byte():
    """Lines ending in CR only, one line with no newline at all, text that is not JSON, a
    line that is not UTF-8: kept as data/damaged-1.jsonl exactly as they were."""
    body = "\n".join(GAME).encode()
    for record in (body.replace(b"\n", b"\r") + b"\r", b"no newline at all", b"not json\n" + body + b"\n",
                   body + b"\n\xff\xfe\n", b"\xff" * 5000):
        fs = flash_with(record)
        app = app_on(fs)
        assert app.session is None and type(app.screen).__name__ == "MainMenu", record[:20]
        assert bytes(fs.files[paths.DAMAGED % 1]) == record and paths.CURRENT not in fs.files
        assert "bad record kept as damaged-1" in said(app)


def test_a_torn_tail_is_cut_off_and_kept_and_an_unended_last_event_is_kept_as_an_event():
    """After the last complete line: a torn line (a power cut) or erased flash (0xFF, NUL)
    is kept as data/torn-1, byte for byte, and cut off; the screen says which. A last line
    that is a whole event lacking only its newline is the event it is: the newline is
    added, the game has it."""
    body = ("\n".join(GAME) + "\n").encode()
    unreadable = "record end unreadable, entries lost"
    for tail, words in ((b'{"e": "wall", "p": 1, "ti', "last entry lost"), (b"\xff" * 700, unreadable),
                        (b'{"e": "fi\x00\x00\x00', unreadable), (b"\x00" * 600, unreadable)):
        fs = flash_with(body + tail)
        app = app_on(fs)
        assert len(app.session.done) == len(GAME) - 1
        assert bytes(fs.files[paths.CURRENT]) == body and bytes(fs.files[paths.TORN % 1]) == tail
        assert "%s: kept as torn-1" % words in said(app)
    fs = flash_with(body[:-1])  # an editor dropped the last newline
    app = app_on(fs)
    assert len(app.session.done) == len(GAME) - 1 and bytes(fs.files[paths.CURRENT]) == body
    assert paths.TORN % 1 not in fs.files and paths.DAMAGED % 1 not in fs.files and not app.message


def test_torn_bytes_that_cannot_be_kept_yet_are_kept_before_the_next_entry():
    """A flash too full for data/torn-1 at boot: the record stays as it was (nothing is
    cut away unkept); the next entry keeps the tail first, then saves, once there is room."""
    body = ("\n".join(GAME) + "\n").encode()
    tail = b'{"e": "wall", "p": 1, "ti'
    fs = flash_with(body + tail)
    fs.size = fs.used()  # full
    app = app_on(fs)
    assert bytes(fs.files[paths.CURRENT]) == body + tail and "last entry: storage full" in said(app)
    fs.size = None
    app.step(1, None)
    assert play.enter(app, {"e": "note", "text": "x"})
    assert bytes(fs.files[paths.TORN % 1]) == tail
    assert bytes(fs.files[paths.CURRENT]) == body + b'{"e": "note", "text": "x"}\n'


# ---- settings of any bytes boot ------------------------------------------------------------
def test_settings_of_any_bytes_boot_and_are_written_again_valid():
    """Deep nesting, tens of KB, binary, NaN: the device boots with the defaults (the fields
    it can read kept), logs why, and writes the file again as JSON every reader takes."""
    cases = [b"[" * 100000 + b"]" * 100000, b'{"brightness": 2, "x": "' + b"y" * 40000 + b'"}',
             bytes(range(256)) * 20, b'{"brightness": NaN, "dim_after": 30, "z": [Infinity]}',
             b'{"a":' * 40 + b"1" + b"}" * 40]
    for raw in cases:
        fs = MemFS(None)
        fs.dirs.add(paths.DATA_DIR)
        fs.files[paths.SETTINGS] = bytearray(raw)
        app = app_on(fs)
        assert type(app.screen).__name__ == "MainMenu"
        text = bytes(fs.files[paths.SETTINGS]).decode("utf-8")
        again = json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        assert again == app.settings and app.settings["brightness"] == 3
        assert b"settings" in fs.files[paths.ERRORS]
        if raw.startswith(b'{"brightness": NaN'):
            assert app.settings["dim_after"] == 30 and "z" not in app.settings


# ---- a new game never buries a game ---------------------------------------------------------
def test_put_aside_games_are_listed_resumed_and_deleted_from_the_history(tmp_path):
    """A game in play put aside for a new one is in the History ("R3 unfinished" or "won
    Ann 74", then "#N Azul Ann Ben"), resumes where it was (the game then in play put aside
    in its turn), and a finished one can be deleted."""
    from test_app_games import Driver, play_azul
    from hal.keys import OK, BACK
    header, events, scores = azul_engine.random_game(2, 5, "colored")[:3]
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    play_azul(d, header, events[:7])
    first = d.record()
    rnd = d.app.session.round
    d.press(BACK)
    d.choose("New game")
    assert d.screen.title == "Azul in play" and d.rows() == ["put aside R%d" % rnd, "cancel"]
    d.choose("cancel")
    assert type(d.screen).__name__ == "MainMenu" and d.record() == first
    d.new_game("5211", "standard", 2)
    second = d.record()
    history = os.path.join(d.data, "history")
    assert open(os.path.join(d.data, "filed.jsonl")).read() == first
    while d.app.prepare():  # the idle frames: it goes on into the history
        pass
    assert open(os.path.join(history, "000001.jsonl")).read() == first
    d.press(BACK)
    d.choose("History")
    assert d.rows() == ["R%d unfinished" % rnd, "#1 Azul Red Blue"]
    d.press(OK)
    assert d.rows() == ["Standings", "Resume", "Delete"]
    d.choose("Resume")
    assert d.screen.title == "5211 in play"
    d.choose("put aside")
    assert type(d.screen).__name__ == "Scoreboard" and d.app.session.game == "azul"
    assert d.record() == first and d.app.session.round == rnd
    while d.app.prepare():
        pass
    assert open(os.path.join(history, "000002.jsonl")).read() == second
    assert sorted(os.listdir(history)) == ["000002.jsonl"]
    play_azul(d, header, events[7:])
    d.press(OK)  # the final standings' OK files it
    d.choose("History")
    won = replay(first + "".join(dumps(e) + "\n" for e in events[7:]))[0]
    w = won.winners()[0]
    assert d.rows()[:2] == ["won %s %d" % (won.players[w], scores[w]), "#3 Azul Red Blue"]
    assert d.rows()[2:] == ["R1 unfinished", "#2 5211 Red Blue"]
    d.press(OK)
    assert d.rows() == ["Standings", "Delete"]
    d.choose("Delete")
    d.choose("delete")
    assert d.screen.title == "History" and d.rows() == ["R1 unfinished", "#2 5211 Red Blue"]
    assert sorted(os.listdir(history)) == ["000002.jsonl"]
    index = open(os.path.join(d.data, "history.txt")).read().splitlines()
    assert [line.split()[0] for line in index] == ["2"]  # the deleted game's summary went with it


def test_a_record_gone_from_storage_mid_game_offers_a_new_game(tmp_path):
    """Site storage cleared (or the file removed behind the device) while a game is in
    play: the next entry says so and the main menu offers a new game, nothing refused."""
    from test_app_games import Driver
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    os.remove(os.path.join(d.data, "current.jsonl"))
    assert not play.enter(d.app, {"e": "note", "text": "x"})
    d.app.step(d.clock.now, None)
    assert d.app.session is None and type(d.screen).__name__ == "MainMenu"
    assert "record is gone from storage" in said(d.app) and d.rows()[0] == "New game"
    assert not os.path.exists(os.path.join(d.data, "current.jsonl"))


def test_open_record_checks_room_before_the_game_in_play_moves():
    """The web page's "Open a record": a flash too full for the record refuses it with
    "storage full", the game in play stays in play, no .tmp is left."""
    fs = flash_with(("\n".join(GAME) + "\n").encode())
    k = Keeper(Storage(fs.open, fs))
    other = ("\n".join(GAME[:3]) + "\n").encode()
    fs.size = fs.used() + 10
    opened, line = k.open_record("big.jsonl", other)
    assert not opened and line == "big.jsonl not opened: storage full"
    assert bytes(fs.files[paths.CURRENT]) == ("\n".join(GAME) + "\n").encode()
    assert sorted(fs.files) == [paths.CURRENT]
    fs.size = None
    assert k.open_record("ok.jsonl", other) == (True, "")
    assert bytes(fs.files[paths.CURRENT]) == other and paths.FILED in fs.files


def test_a_store_a_power_cut_can_damage_is_named_on_screen_and_in_the_log():
    """The Feather without its FRAM breakout keeps the games on its FAT drive (main.
    storage_from_board: Storage.cut_safe False): the first frame says what a cut can take,
    in the device guide's words, until a key; errors.log says it too. A cut-safe store
    says nothing."""
    from app.app import App
    from app.keeper import NOT_CUT_SAFE
    from host_tools.sim import load_board
    from test_app_words import guide_words
    board = load_board("feather_rp2040")
    shown = {}
    for safe in (True, False):
        fs = MemFS(None)
        clock = Manual()
        app = App(VirtualDisplay(128, 32), VirtualLeds(1, 1.0, "RGB"), Storage(fs.open, fs, cut_safe=safe), clock, board)
        app.step(clock.now, None)
        shown[safe] = said(app)
        log = bytes(fs.files.get(paths.ERRORS, b"")).decode()
        assert (NOT_CUT_SAFE in log) == (not safe), log
    assert "power cut can lose saved entries" in shown[False] and "FRAM" in shown[False], shown
    assert "power cut" not in shown[True] and shown[True].startswith("Azul Companion"), shown
    words = set(w.lower() for w in re.findall(r"[A-Za-z]+", NOT_CUT_SAFE))
    assert words <= guide_words(), words - guide_words()
