"""Storage faults through the real App on CPython: a write that fails halfway, records and
settings that do not read, archiving that fails, a history of a thousand games.

The flash is a host folder (the test changes into it); faults are real: a file object whose
write stores half its bytes and raises ENOSPC (tests/fault_files.py), bytes that are not UTF-8, a directory where a
file should be, a file where the history folder should be. Each test checks what the screen
says and what stays on the flash. The same faults on MicroPython: test_reliability_storage_mp.py.
"""
import errno
import json
import os

import pytest

from test_app_games import Driver
from core.checks import events
from fault_files import Flash
from host_tools import sim
from host_tools.vhal import VirtualDisplay, VirtualLeds
from hal.clock import Manual
from hal.keys import UP, DOWN, LEFT, OK, BACK, LONG
from hal.storage import Storage
from rules_core import azul_engine
from rules_core.record import dumps
from rules_core.session import replay


class FlashDriver(Driver):
    """The test Driver over a Flash in the current folder (the board's root)."""

    def __init__(self, tmp_path, flash=None, board="pico"):
        from app.app import App
        self.data = str(tmp_path / "data")
        b = sim.load_board(board)
        self.display = VirtualDisplay(b["display"]["width"], b["display"]["height"])
        self.leds = VirtualLeds(b["leds"]["count"], 1.0, "RGB")
        self.clock = Manual()
        self.flash = flash or Flash()
        self.app = App(self.display, self.leds, Storage(self.flash.open, os), self.clock, b)
        self.app.step(0, None)
        self.keys = []

    def said(self):
        return " ".join(self.app.text())

    def file(self, name):
        path = os.path.join(self.data, name)
        if not os.path.exists(path):
            return None
        with open(path, "rb") as f:
            return f.read()

    def errors(self):
        text = self.file("errors.log")
        return text.decode("utf-8").splitlines() if text else []

    def games(self):
        """The numbers of the games the History shows (the "#N ..." second row of each)."""
        return [int(r.split()[0][1:]) for r in self.rows()[1::2]]

    def open_game(self):
        """OK on the History's game under the cursor, then its standings."""
        self.press(OK)
        self.choose("Standings")


@pytest.fixture
def board(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def red_wall(d):
    """A 2-player Azul game; Red's wall form with row 1 blue (1 point), on the save row."""
    d.new_game("Azul", "coloured", 2)
    d.entry("Wall Red")
    d.set("R1", "blue")
    d.set("floor", 0)
    d.press(DOWN, len(d.screen.fields) - d.screen.cursor)


def finished_record(seed=5):
    header, events = azul_engine.random_game(2, seed, "colored")[:2]
    return "".join(dumps(x) + "\n" for x in [header] + events)


def put_files(root, files):
    """A board's flash under root: data/<path> = bytes or str, or a folder for None."""
    for path, content in files.items():
        full = root / "data" / path
        if content is None:
            full.mkdir(parents=True, exist_ok=True)
            continue
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_bytes(content if isinstance(content, bytes) else content.encode())
    (root / "data").mkdir(parents=True, exist_ok=True)
    return root


# ---- 1. a failed write is never shown as entered -----------------------------------------
@pytest.mark.parametrize("ahead", [False, True], ids=["", "made-ahead"])
@pytest.mark.parametrize("truncate", [True, False], ids=["truncate", "copy"])
def test_a_write_that_fails_halfway_is_cut_off_and_the_form_stays_open(board, truncate, ahead):
    """With truncate() the flash is full; without, only the line's write fails (the cut is a
    copy, which needs room: test_when_the_cut_fails_too... covers a flash with none). With
    the save's work made ahead in idle frames (its state, line and scoreboard), the same."""
    d = FlashDriver(board, Flash(truncate))
    red_wall(d)
    while ahead and d.app.prepare():
        pass
    form, values, before = d.screen, d.screen.values(), d.file("current.jsonl")
    d.flash.full = truncate
    d.flash.fail = 1
    d.press(OK)
    assert d.screen is form and form.values() == values and form.cursor == len(form.fields)
    assert d.app.text()[-2:] == ["not saved:", "storage full"]
    assert set(d.leds.frame_rgb()) == {(153, 0, 0)}  # every LED red: refused
    assert d.app.session.scores == [0, 0] and not d.app.session.can_undo()
    assert d.file("current.jsonl") == before  # the half line was cut off again
    # errors.log cannot take a line on a full flash either: the screen is where it shows
    d.flash.full = False
    d.press(OK)  # the same form, the same values: now it is saved
    assert type(d.screen).__name__ == "Scoreboard" and d.app.session.scores == [1, 0]
    assert replay(d.record())[0].scores == [1, 0]
    assert d.file("current.jsonl").startswith(before) and d.record().count("\n") == 2


def test_when_the_cut_fails_too_nothing_is_glued_onto_the_torn_line(board):
    """No truncate() and a full flash: the torn half line stays until there is room to cut
    it; meanwhile every entry is refused, a reboot resumes without it, and the first entry
    once there is room cuts it first."""
    d = FlashDriver(board, Flash(truncate=False))
    red_wall(d)
    before = d.file("current.jsonl")
    d.flash.full = True
    d.press(OK)
    torn = d.file("current.jsonl")
    assert torn.startswith(before) and len(torn) > len(before) and not torn.endswith(b"\n")
    assert d.app.text()[-2:] == ["not saved:", "storage full"]
    assert not os.path.exists(os.path.join(d.data, "current.jsonl.tmp"))
    d.wait()
    d.press(OK)  # again: refused before anything is written
    assert d.file("current.jsonl") == torn and d.app.text()[-2:] == ["not saved:", "storage full"]
    assert d.app.session.scores == [0, 0]
    d2 = FlashDriver(board, d.flash)  # power off and on, still full
    assert d2.app.session is not None and d2.app.session.scores == [0, 0]
    assert type(d2.screen).__name__ == "Scoreboard"
    d.flash.full = False
    d2.entry("Wall Red")
    d2.set("R1", "blue")
    d2.save()
    assert type(d2.screen).__name__ == "Scoreboard" and d2.app.session.scores == [1, 0]
    line = dumps({"e": "wall", "p": 0, "tiles": [[1, "blue"]], "floor": 0}) + "\n"
    assert d2.file("current.jsonl") == before + line.encode()


def test_a_game_left_with_its_torn_line_is_filed_whole_and_a_new_game_starts(board):
    """The cut of a torn line failed (no truncate(), a full flash), then there is room again
    and a new game is started instead of entering more: the old record is filed, and moved
    into the history in the idle frame after, as it is (its reader drops the torn line), and
    the new game's header is the whole of the new record: the cut still owed went with the
    old file."""
    d = FlashDriver(board, Flash(truncate=False))
    red_wall(d)
    d.flash.full = True
    d.press(OK)
    torn = d.file("current.jsonl")
    assert d.app.text()[-2:] == ["not saved:", "storage full"] and not torn.endswith(b"\n")
    d.flash.full = False
    for _ in range(4):  # out of the form, to the main menu
        if type(d.screen).__name__ == "MainMenu":
            break
        d.press(BACK)
    d.new_game("5211", "standard", 2)
    assert type(d.screen).__name__ == "Scoreboard" and d.app.session.game == "5211", d.app.text()
    assert d.file("filed.jsonl") == torn
    assert d.app.prepare() and d.file(os.path.join("history", "000001.jsonl")) == torn
    assert d.file("filed.jsonl") is None
    header = d.file("current.jsonl")
    assert header.count(b"\n") == 1 and json.loads(header)["game"] == "5211"
    assert replay(torn.decode("utf-8").rsplit("\n", 1)[0] + "\n")[0].scores == [0, 0]


def test_a_new_game_that_cannot_be_written_stays_on_the_last_setup_step(board):
    d = FlashDriver(board)
    d.flash.full = True
    d.new_game("Azul", "coloured", 2)
    assert d.screen.title == "Start player" and d.app.session is None
    assert d.app.text()[-2:] == ["not saved:", "storage full"]
    assert d.file("current.jsonl") is None and d.file("current.jsonl.tmp") is None


def test_settings_that_cannot_be_written_stay_as_they_were(board):
    d = FlashDriver(board)
    d.choose("Settings")
    d.choose("LEDs")
    d.set("bright", 5)
    d.flash.full = True
    d.save()
    assert d.screen.title == "LEDs" and d.app.settings["brightness"] == 3
    assert d.app.text()[-2:] == ["not saved:", "storage full"]
    assert d.file("settings.json") is None


def test_an_undo_past_the_kept_round_resumes_from_the_record_and_a_changed_record_refuses_it(board):
    """The session keeps only its last two rounds' lines; the undo after both kept round-end
    states were taken back reads the game back from the record on flash. Where that record
    no longer holds the game entered (an earlier line that no longer plays, a kept line
    that differs), the undo is refused with the line or event, its own line is cut back
    off, and the game stays."""
    lines = finished_record(7).splitlines()[:25]  # six rounds of a seven-round game closed
    record = "\n".join(lines) + "\n"
    put_files(board, {"current.jsonl": record})
    d = FlashDriver(board)
    assert d.app.session.done.lo > 0  # the first rounds' lines are the record's only
    undo = dumps({"e": "undo"}) + "\n"
    undos = 0
    while d.app.session._mark is not None:  # the sixth round end, its round, the fifth's
        d.press(BACK | LONG)
        assert "undone" in d.said()
        undos += 1
        d.press(BACK)  # the message goes
    assert undos == 5 and d.app.session.done.lo > 0
    assert d.file("current.jsonl") == (record + undo * undos).encode()
    kept = d.app.session.result()
    said = []
    for where, edit in ((4, dumps({"e": "note", "text": "x"})),
                        (18, dumps(dict(json.loads(lines[18]), floor=json.loads(lines[18])["floor"] ^ 1)))):
        changed = list(lines)
        changed[where] = edit
        assert changed[where] != lines[where]
        try:  # what the changed record says (an early line that no longer plays), else the event
            replay("\n".join(changed) + "\n")
            says = "record: event %d differs" % where
        except ValueError as e:
            says = str(e)  # the whole line, longer than a two-row message
        on_flash = ("\n".join(changed) + "\n" + undo * undos).encode()
        with open("data/current.jsonl", "wb") as f:
            f.write(on_flash)
        d.press(BACK)  # the message goes
        d.press(BACK | LONG)
        assert says in d.said(), d.said()
        d.wait()  # a message longer than two rows stays until a key; a shorter one goes (4 s)
        d.wait()
        assert (says in d.said()) == (len(says) > 32), d.said()
        assert d.file("current.jsonl") == on_flash  # the refused undo's line cut back off
        assert d.app.session.result() == kept and d.app.session.can_redo()
        said.append(says)
    assert said[0].startswith("line ") and len(said[0]) > 32 and said[1] == "record: event 18 differs"  # both kinds met
    with open("data/current.jsonl", "wb") as f:
        f.write((record + undo * undos).encode())
    d.press(BACK)
    d.press(BACK | LONG)
    want = replay("\n".join(lines[:-undos - 1]) + "\n")[0]
    assert d.app.session.result() == want.result() and d.app.session.last_event() == json.loads(lines[-undos - 2])
    assert d.file("current.jsonl") == (record + undo * (undos + 1)).encode()
    assert replay(d.record())[0].result() == want.result()
    d2 = FlashDriver(board)  # and the record resumes to the same game
    assert d2.app.session.result() == want.result()


# ---- 2. boot never raises ------------------------------------------------------------------
HEADER = dumps({"format": "azul-companion-record", "v": 1, "game": "azul", "variant": "colored",
                "players": ["Ann", "Ben"], "options": {}}).encode() + b"\n"
DAMAGED = {
    "not UTF-8": HEADER + b'{"e": "first", "p": 0}\n{"e": "note", "text": "caf\xe9"}\n',
    "not an object": HEADER + b"[1, 2, 3]\n",
    "header a list": b'["azul"]\n{"e": "first", "p": 0}\n',
    "wrong event shape": HEADER + b'{"e": "wall", "p": "x", "tiles": 7}\n',
    # (a record whose end is erased flash or zeros: tests/test_keeper.py, kept as data/torn-N)
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_a_record_that_will_not_resume_is_kept_aside_and_the_menu_says_so(board, case):
    put_files(board, {"current.jsonl": DAMAGED[case]})
    d = FlashDriver(board)
    assert d.app.session is None and type(d.screen).__name__ == "MainMenu"
    assert d.app.text()[-2:] == ["bad record kept", "as damaged-1"]
    assert d.file("damaged-1.jsonl") == DAMAGED[case] and d.file("current.jsonl") is None
    log = d.errors()
    assert len(log) == 1 and "data/current.jsonl does not resume, kept as data/damaged-1.jsonl" in log[0]
    d.press(DOWN)  # the message stays until a key is pressed
    assert "damaged-1" not in d.said() and d.rows()[0] == "New game"
    d.new_game("Azul", "coloured", 2)  # and the device goes on
    assert type(d.screen).__name__ == "Scoreboard" and d.file("damaged-1.jsonl") == DAMAGED[case]
    with open("data/current.jsonl", "ab") as f:  # damaged again: the next name
        f.write(b"\xff\xfe\n")
    d3 = FlashDriver(board)
    assert d3.file("damaged-2.jsonl") is not None and d3.file("damaged-1.jsonl") == DAMAGED[case]


def test_an_unreadable_record_is_kept_aside(board):
    """A real OSError on reading: the record's name is a folder."""
    put_files(board, {"current.jsonl": None})
    d = FlashDriver(board)
    assert type(d.screen).__name__ == "MainMenu" and d.app.text()[-1] == "as damaged-1"
    assert os.path.isdir("data/damaged-1.jsonl") and not os.path.exists("data/current.jsonl")


def test_a_half_written_tmp_is_cleaned_and_an_interrupted_replace_finished(board):
    good = HEADER + b'{"e": "first", "p": 1}\n'
    put_files(board, {"current.jsonl": good, "current.jsonl.tmp": HEADER[:20]})  # a write the power cut
    d = FlashDriver(board)
    assert events(d.app.session) == [{"e": "first", "p": 1}]
    assert d.file("current.jsonl.tmp") is None and d.file("current.jsonl") == good
    # alone, a tmp is a whole new text whose rename the power cut (FAT removes, then renames)
    os.remove("data/current.jsonl")
    put_files(board, {"current.jsonl.tmp": good})
    d = FlashDriver(board)
    assert events(d.app.session) == [{"e": "first", "p": 1}] and d.file("current.jsonl") == good
    assert d.file("current.jsonl.tmp") is None


def test_an_empty_record_is_removed_at_boot(board):
    put_files(board, {"current.jsonl": HEADER[:30]})  # the header's write was cut: no complete line
    d = FlashDriver(board)
    assert d.app.session is None and d.file("current.jsonl") is None


def test_a_full_flash_at_boot_resumes_the_game_and_leaves_no_warm_up_file(board):
    """The boot's warm-up write (Storage.warm: littlefs's first walk of the flash at boot,
    not in the first press that writes a line) fails like a full flash, half written: the
    game resumes, and the half-written file is gone."""
    put_files(board, {"current.jsonl": finished_record()})
    flash = Flash()
    flash.full = True
    d = FlashDriver(board, flash)
    assert d.app.session is not None and d.app.session.finished
    assert d.file(".warm") is None and d.file("current.jsonl") == finished_record().encode()
    assert "warm" not in d.said()


# ---- 3. settings of any shape --------------------------------------------------------------
SHAPES = {"1": {}, "null": {}, "[1]": {}, '{"brightness": 9}': {}, "-1": {}, '"x"': {}, "3.5": {},
          '{"led_count": "16"}': {}, '{"history_keep": 0}': {},
          '{"brightness": 5, "symbols": 1, "led_layout": "ring", "history_keep": 2.5}': {"brightness": 5},
          '{"sintra_windows_A": [1, 2], "led_count": 8, "future": [1]}': {"led_count": 8, "future": [1]},
          '{"brightness": true, "sintra_windows_B": [1, 2, 3, 4, 5, 6, 7, 8]}': {"sintra_windows_B": [1, 2, 3, 4, 5, 6, 7, 8]},
          '{"sintra_track": [0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12]}': {},  # not to -18
          '{"sintra_ornaments": [[1, 2], [3, 4], [5, 6], [1, 2]], "sintra_windows_A": "13"}': {},
          '{"dim_after": 0, "blank_after": 86401}': {"dim_after": 0},
          '{"dim_after": true, "blank_after": 30}': {"blank_after": 30},
          '{"dim_after": "120", "blank_after": -1}': {}}


@pytest.mark.parametrize("text", sorted(SHAPES))
def test_settings_of_any_shape_boot_with_defaults_field_by_field(board, text):
    put_files(board, {"settings.json": text})
    d = FlashDriver(board)
    want = {"brightness": 3, "symbols": True, "history_keep": 50, "led_count": 25, "led_layout": "matrix5x5",
            "dim_after": 120, "blank_after": 600}
    want.update(SHAPES[text])
    assert d.app.settings == want
    assert len(d.errors()) == 1 and d.errors()[0].startswith("settings")
    d.new_game("Azul", "coloured", 2)  # the LEDs run on the settings
    assert type(d.screen).__name__ == "Scoreboard" and d.leds.frames


def test_settings_not_utf8_boot_with_defaults(board):
    put_files(board, {"settings.json": b'{"brightness": 2, "x": "\xff"}'})
    d = FlashDriver(board)
    assert d.app.settings["brightness"] == 3 and "settings unreadable" in d.errors()[0]


def test_history_keep_one_never_deletes_the_game_just_finished(board):
    """A foreign name sorts after the numbered ones: rotation counts numbers, not names."""
    put_files(board, {"history/000001.jsonl": finished_record(), "history/000002.jsonl": finished_record(),
                      "history/zzz.jsonl": finished_record(), "settings.json": '{"history_keep": 1}',
                      "current.jsonl": finished_record(7)})
    d = FlashDriver(board)
    assert type(d.screen).__name__ == "Final"
    d.press(OK)  # files the game; the idle frames after it move it into the history, then trim it
    assert d.app.prepare()
    assert sorted(os.listdir("data/history")) == ["000001.jsonl", "000002.jsonl", "000003.jsonl", "zzz.jsonl"]
    assert d.app.prepare()
    assert sorted(os.listdir("data/history")) == ["000003.jsonl", "zzz.jsonl"]
    assert d.file("history/000003.jsonl") == finished_record(7).encode()


# ---- 4. archiving is exception-safe --------------------------------------------------------
ARCHIVE_FAULTS = {"history/000004.jsonl": None,  # a folder named like a game
                  "history/000002.jsonl": b"\xff\xfe not a record\n", "history/000001.jsonl": finished_record(),
                  "settings.json": '{"history_keep": "x"}', "current.jsonl": finished_record(7)}


def test_archiving_past_a_folder_an_unreadable_file_and_a_bad_keep(board):
    put_files(board, ARCHIVE_FAULTS)
    d = FlashDriver(board)
    d.press(OK)  # leave the final standings: the game is filed after the folder's number
    assert type(d.screen).__name__ == "MainMenu" and d.app.session is None
    assert d.file("current.jsonl") is None and d.file("filed.jsonl") == finished_record(7).encode()
    assert d.app.prepare()  # the idle frame that moves it into the history
    assert d.file("filed.jsonl") is None and d.file("history/000005.jsonl") == finished_record(7).encode()
    d.press(BACK | LONG)  # undo: there is no game, and no record appears without its header
    assert "nothing to undo" in d.said() and d.file("current.jsonl") is None
    d.choose("History")
    assert d.games() == [5, 2, 1]  # (the folder named like a game is no game)
    d.press(DOWN)
    d.open_game()  # the unreadable one: a message, no crash
    assert d.screen.title == "#2" and d.app.text()[-2:] == ["#2 line 1: not", "UTF-8 text"]
    bad_keep = "settings: defaults used for history_keep"
    folder = "data/history/000004.jsonl: not a game file, left as it is"
    assert d.errors() == [folder, bad_keep]  # nothing else went wrong
    d2 = FlashDriver(board)  # and the next boot is a plain one: the settings were written again
    assert type(d2.screen).__name__ == "MainMenu" and d2.errors() == [folder, bad_keep, folder]


def test_a_failed_move_to_the_history_keeps_the_game_filed_and_the_next_one_current(board):
    """A real failed rename: data/history is a file, not a folder. The final standings' OK
    files the game (data/filed.jsonl, in the data folder); the idle frame's move into the
    history fails: said on the screen, logged, and the record stays whole where it is. The
    next game cannot be filed over it: it stays current, and so does it at the next boot."""
    record = finished_record(7)
    put_files(board, {"history": "a file where the folder should be", "current.jsonl": record})
    d = FlashDriver(board)
    d.press(OK)
    assert type(d.screen).__name__ == "MainMenu" and d.app.session is None
    assert d.file("current.jsonl") is None and d.file("filed.jsonl") == record.encode()
    assert d.app.prepare()  # the move into the history: refused by the flash
    d.press(None)
    assert d.app.text()[-2:] == ["not in history:", "storage error %d" % errno.ENOTDIR]
    assert d.errors()[0].startswith("game not moved into the history")
    assert d.file("filed.jsonl") == record.encode()
    d.choose("New game")  # a new game starts (it files nothing: no game is current)
    for label in ("Azul", "coloured", "2 players", "Red", "Blue", "Red"):
        d.choose(label)
    assert type(d.screen).__name__ == "Scoreboard"
    second = d.record()
    d.press(BACK)
    d.choose("New game")  # a third would file the second: refused while the first stays filed
    for label in ("put aside", "Azul", "coloured", "2 players", "Red", "Blue", "Red"):
        d.choose(label)
    assert d.screen.title == "Start player" and d.app.text()[-2] == "not filed:"
    assert d.record() == second and d.file("filed.jsonl") == record.encode()
    d2 = FlashDriver(board)  # boot tries the move again, says why not, and resumes the game
    assert type(d2.screen).__name__ == "Scoreboard" and d2.app.text()[-1] == "storage error %d" % errno.ENOTDIR
    assert d2.record() == second and d2.file("filed.jsonl") == record.encode()


def test_a_power_cut_between_a_filings_two_renames_loses_nothing(board):
    """Power fails after the final standings' OK filed the game (data/filed.jsonl) and before
    an idle frame moved it into the history: the next boot moves it there before its first
    frame, under the next number, and History shows it."""
    put_files(board, {"history/000001.jsonl": finished_record(), "current.jsonl": finished_record(7)})
    d = FlashDriver(board)
    d.press(OK)  # filed; the power goes before any idle frame
    assert d.file("filed.jsonl") == finished_record(7).encode() and d.file("current.jsonl") is None
    d2 = FlashDriver(board)
    assert type(d2.screen).__name__ == "MainMenu" and d2.errors() == []
    assert d2.file("filed.jsonl") is None and d2.file("history/000002.jsonl") == finished_record(7).encode()
    d2.choose("History")
    assert d2.games() == [2, 1]


def test_a_game_filed_while_one_still_waits_for_its_idle_frame_goes_after_it(board):
    """Where no idle frame came between two filings (the simulator, the web page, a quick
    hand), the second filing moves the first into the history before it: both are kept, in
    the order they were played."""
    put_files(board, {"current.jsonl": finished_record(7)})
    d = FlashDriver(board)
    d.press(OK)  # the first game filed, not yet moved
    d.new_game("Azul", "coloured", 2)
    second = d.record()
    d.press(BACK)
    d.new_game("5211", "standard", 2)  # files the second (the first goes into the history first)
    assert d.file("history/000001.jsonl") == finished_record(7).encode()
    assert d.file("filed.jsonl") == second.encode()
    assert d.app.prepare() and d.file("history/000002.jsonl") == second.encode()
    assert d.file("filed.jsonl") is None and json.loads(d.record())["game"] == "5211"


# ---- 5. history at scale -------------------------------------------------------------------
def test_history_pages_through_a_thousand_games_and_rotation_keeps_fifty(board):
    os.makedirs("data/history")
    text = finished_record()
    for n in range(1, 1001):
        with open("data/history/%06d.jsonl" % n, "w") as f:
            f.write(text)
    with open("data/current.jsonl", "w") as f:
        f.write(finished_record(7))
    d = FlashDriver(board)
    d.press(OK)  # file the finished game: 1001 games, history_keep 50
    assert d.app.prepare() and len(os.listdir("data/history")) == 1001  # moved into the history
    assert d.app.prepare()  # the idle frame after that trims the history
    assert sorted(os.listdir("data/history")) == ["%06d.jsonl" % n for n in range(952, 1002)]
    d.choose("History")
    assert d.games()[0] == 1001 and len(d.games()) == 16
    d.press(DOWN, 20)  # past the first page of 16
    assert d.games()[d.screen.cursor] == 981
    d.open_game()
    assert type(d.screen).__name__ == "Final"
    d.press(BACK, 2)
    assert d.games()[d.screen.cursor] == 981  # back on the same page, the same row
    d.press(DOWN, 30)  # off the oldest game: round to the newest
    assert d.games()[d.screen.cursor] == 1001
    d.press(UP)  # and from the newest to the oldest
    assert d.games()[d.screen.cursor] == 952


# ---- a full flash: the player makes room on the device ------------------------------------
class FullWhileHistory(Flash):
    """A flash with no room left while the history holds more than `room_at` games."""

    def __init__(self, room_at):
        Flash.__init__(self)
        self.room_at = room_at

    @property
    def full(self):
        return len(os.listdir("data/history")) > self.room_at

    @full.setter
    def full(self, value):
        pass


def test_a_full_flash_is_freed_on_the_device_by_keeping_fewer_games(board):
    """"not saved: storage full" at the table: Settings > Games kept deletes the oldest
    finished games once confirmed, and the same entry then saves."""
    put_files(board, dict(("history/%06d.jsonl" % n, finished_record(n)) for n in range(1, 6)))
    d = FlashDriver(board, FullWhileHistory(room_at=5))
    red_wall(d)
    d.flash.room_at = 2  # the flash has filled up: room for the line once 3 games are gone
    before = d.file("current.jsonl")
    d.press(OK)
    assert d.app.text()[-2:] == ["not saved:", "storage full"] and d.file("current.jsonl") == before
    d.press(BACK, 2)  # the form, then the scoreboard: the main menu
    d.choose("Settings")
    d.choose("Games kept")
    assert d.screen.fields[0].value() == 50
    d.press(LEFT, 48)
    d.save()
    assert d.screen.title == "Keep 2 games?" and d.rows() == ["delete 3 oldest", "cancel"]
    d.choose("cancel")
    assert d.screen.title == "Games kept" and len(os.listdir("data/history")) == 5
    d.save()
    d.choose("delete 3 oldest")
    assert d.screen.title == "Settings" and d.app.text()[-1] == "saved, 3 deleted"
    assert sorted(os.listdir("data/history")) == ["000004.jsonl", "000005.jsonl"]
    assert json.loads(d.file("settings.json"))["history_keep"] == 2
    d.press(BACK)
    d.choose("Resume")
    assert d.app.session.scores == [0, 0] and d.file("current.jsonl") == before
    d.entry("Wall Red")
    d.set("R1", "blue")
    d.set("floor", 0)
    d.save()
    assert type(d.screen).__name__ == "Scoreboard" and d.app.session.scores == [1, 0]
    assert replay(d.record())[0].scores == [1, 0]
