"""The App's screens, LEDs, undo, resume and crash handling, through the virtual board.

Golden frame buffers live in tests/golden/screens/*.pbm; regenerate them after a deliberate
layout change with  UPDATE_GOLDEN=1 pytest tests/test_app_screens.py  and look at them.
"""
import json
import os

import pytest

from test_app_games import Driver, board_check, end_round, play_azul, play_5211
from host_tools import sim
from hal.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, LONG
from rules_core.session import replay
from rules_core import azul_engine
from app import play

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "screens")


def pbm(display):
    """The last shown frame as a binary PBM (P4): 1 = lit pixel."""
    w, h = display.width, display.height
    rows = bytearray()
    for y in range(h):
        for x0 in range(0, w, 8):
            b = 0
            for x in range(x0, x0 + 8):
                b = b << 1 | (display.last_frame[(y // 8) * w + x] >> (y % 8) & 1)
            rows.append(b)
    return b"P4\n%d %d\n" % (w, h) + bytes(rows)


def check_golden(display, name):
    path = os.path.join(GOLDEN, name + ".pbm")
    got = pbm(display)
    if os.environ.get("UPDATE_GOLDEN") or not os.path.exists(path):
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "wb") as f:
            f.write(got)
    with open(path, "rb") as f:
        assert f.read() == got, "%s differs (UPDATE_GOLDEN=1 to accept a new layout)" % path


def azul_round1(d):
    """Three players; Red places blue in row 1 (1 point), white in row 2 below it (2 points:
    a vertical run of 2) and 2 tiles on the floor (-1 -1): 1 point (Azul rulebook, scoring)."""
    d.new_game("Azul", "coloured", 3)
    d.entry("Wall Red")
    d.set("R1", "blue")
    d.set("R2", "white")
    d.set("floor", 2)


def test_azul_wall_form_text_preview_and_golden(tmp_path):
    d = Driver(tmp_path)
    azul_round1(d)
    assert d.screen.rows()[-1] == "save Red+1"
    text = d.app.text()
    assert text[:4] == ["Wall Red", "R1 blu", "R2 wht", "R3 -"]
    assert "B" in text and "W" in text  # the wall's letters (colour symbols on)
    check_golden(d.display, "azul_wall_form_128x64")


def test_only_free_colours_are_offered(tmp_path):
    """Azul rulebook, wall tiling: a colour already in a row of the wall is not offered again."""
    d = Driver(tmp_path)
    azul_round1(d)
    d.save()
    d.entry("Wall Blue")
    d.press(BACK)  # leave Blue's form unentered
    d.entry("Wall Blue")
    d.set("floor", 0)
    d.save()
    d.entry("Wall Green")
    d.save()
    end_round(d)
    d.entry("Wall Red")
    d.press(DOWN, 0)
    offered = []
    for _ in range(6):
        d.press(RIGHT)
        offered.append(d.screen.fields[0].value())
    assert "blue" not in offered and set(offered) == {None, "yellow", "red", "black", "white"}


def test_scoreboard_text_and_golden_64_and_32(tmp_path):
    for board, h in (("pico", 64), ("feather_rp2040", 32)):
        d = Driver(tmp_path / board, board)
        azul_round1(d)
        d.save()
        text = d.app.text()
        assert text[0] == "Azul R1"
        assert text[1] == "1 Red       1 S"
        assert len(text) == min(6, h // 8)  # title + as many rows as fit
        check_golden(d.display, "azul_scoreboard_128x%d" % h)
        d.press(DOWN, 3)  # a 32-pixel screen scrolls to the rest
        assert d.app.text()[-1] == "Wall Blue"


def test_one_show_per_frame_and_none_when_idle(tmp_path):
    d = Driver(tmp_path)
    before = d.display.frames
    d.press(DOWN)
    assert d.display.frames == before + 1
    leds_before = len(d.leds.frames)
    for _ in range(5):
        d.wait()
    assert d.display.frames == before + 1 and len(d.leds.frames) == leds_before


def test_undo_from_any_screen_is_recorded_and_said(tmp_path):
    d = Driver(tmp_path)
    azul_round1(d)
    d.save()
    assert d.app.session.scores == [1, 0, 0]
    d.entry("Wall Blue")  # in the middle of another entry
    d.press(BACK | LONG)
    assert type(d.screen).__name__ == "Scoreboard"
    assert "undone: Wall Red" in d.app.text()
    assert d.app.session.scores == [0, 0, 0]
    lines = d.record().splitlines()
    assert json.loads(lines[-1]) == {"e": "undo"}
    d.press(OK)
    d.choose("Redo")
    assert d.app.session.scores == [1, 0, 0]
    assert replay(d.record())[0].scores == [1, 0, 0]


def test_resume_replays_the_record_and_keeps_a_torn_line_aside(tmp_path):
    """A power cut in the middle of a write: the game resumes from the complete lines, the
    torn bytes are cut off the record and kept, byte for byte, as data/torn-1."""
    d = Driver(tmp_path)
    azul_round1(d)
    d.save()
    path = os.path.join(d.data, "current.jsonl")
    whole = open(path, "rb").read()
    with open(path, "ab") as f:
        f.write(b'{"e": "wall", "p": 1, "til')
    d2 = Driver(tmp_path)  # power on again over the same flash
    assert d2.app.session.scores == [1, 0, 0]
    assert type(d2.screen).__name__ == "Scoreboard"
    assert "last entry lost: kept as torn-1" in " ".join(d2.app.text())
    assert open(path, "rb").read() == whole
    assert open(os.path.join(d.data, "torn-1"), "rb").read() == b'{"e": "wall", "p": 1, "til'


def test_crash_in_a_screen_is_logged_and_the_game_kept(tmp_path):
    d = Driver(tmp_path)
    azul_round1(d)
    d.save()

    def broken(k):
        raise KeyError("boom")
    d.press(OK)
    d.screen.key = broken
    d.press(DOWN)
    assert type(d.screen).__name__ == "Scoreboard"
    assert d.app.session.scores == [1, 0, 0]
    with open(os.path.join(d.data, "errors.log")) as f:
        assert "KeyError" in f.read()


def test_refused_input_flashes_red_and_leds_show_players(tmp_path):
    d = Driver(tmp_path, "esp32s3")  # an 8-LED strip, brightness 3 of 5
    d.new_game("Azul", "coloured", 2)
    frame = d.leds.frame_rgb()
    # LED 0/1: Red and Blue, full while their wall is pending; LED 2: the start player (Red)
    assert frame[:3] == [(153, 0, 0), (0, 24, 153), (153, 0, 0)]
    d.press(BACK | LONG)  # nothing to undo yet: refused
    assert "nothing to undo" in d.app.text()
    assert d.leds.frame_rgb() == [(153, 0, 0)] * 8
    d.wait()
    assert d.leds.frame_rgb()[:3] == [(153, 0, 0), (0, 24, 153), (153, 0, 0)]
    d.press(OK)
    d.choose("First marker")
    d.choose("Blue")
    d.entry("Wall Blue")  # Blue holds the marker: the floor starts at 1, 0 is never offered
    assert d.screen.fields[5].value() == 1
    d.save()
    # Blue is done: dim (1/6 of full)
    assert d.leds.frame_rgb()[:2] == [(153, 0, 0), (0, 40 * 3 // 30, 255 * 3 // 30)]


def test_matrix_shows_the_wall_being_entered(tmp_path):
    d = Driver(tmp_path, "pico")  # a 5x5 matrix
    azul_round1(d)
    frame = d.leds.frame_rgb()
    assert frame[0] == (0, 24, 153)  # row 1, column 1: blue
    assert frame[5] == (120, 120, 120)  # row 2, column 1: white
    assert frame[1] == (0, 0, 0)


def test_finished_game_goes_to_history(tmp_path):
    from rules_core import azul_engine
    header, events, scores = azul_engine.random_game(2, 3, "colored")[:3]
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    play_azul(d, header, events)
    assert "final" in d.app.text()[0]
    d.press(OK)  # final -> main menu
    d.choose("New game")
    d.press(BACK)
    d.choose("History")
    assert d.rows()[1] == "#1 Azul Red Blue"
    d.press(OK)
    d.choose("Standings")
    assert type(d.screen).__name__ == "Final" and d.screen.won == replay(
        open(os.path.join(d.data, "history", "000001.jsonl")).read())[0].winners()


def test_filing_a_game_moves_it_into_the_history_and_trims_it_in_the_idle_frames_after_its_press(tmp_path):
    """The final standings' OK files the record beside the current one (data/filed.jsonl)
    and shows the main menu; the next idle frame moves it into the history, and the one
    after drops the oldest games beyond the kept number: neither in that press."""
    header, events = azul_engine.random_game(2, 5, "colored")[:2]
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    play_azul(d, header, events)
    history = os.path.join(d.data, "history")
    os.makedirs(history, exist_ok=True)
    for n in (1, 2, 3):
        with open(os.path.join(history, "%06d.jsonl" % n), "w") as f:
            f.write("{}\n")
    d.app.settings["history_keep"] = 2
    record = d.record()
    d.press(OK)
    assert type(d.screen).__name__ == "MainMenu"
    assert sorted(os.listdir(history)) == ["%06d.jsonl" % n for n in (1, 2, 3)]
    assert not os.path.exists(os.path.join(d.data, "current.jsonl"))
    with open(os.path.join(d.data, "filed.jsonl")) as f:
        assert f.read() == record
    assert d.app.prepare() and d.app.keeper.trim_due
    assert sorted(os.listdir(history)) == ["%06d.jsonl" % n for n in (1, 2, 3, 4)]
    assert not os.path.exists(os.path.join(d.data, "filed.jsonl"))
    assert d.app.prepare() and not d.app.keeper.trim_due
    assert sorted(os.listdir(history)) == ["000003.jsonl", "000004.jsonl"]
    with open(os.path.join(history, "000004.jsonl")) as f:
        assert replay(f.read())[0].finished


def test_the_history_listed_at_boot_names_the_filed_game_with_no_listing_after_it(tmp_path, monkeypatch):
    """With games filed before power-on (a gap among their numbers), the boot lists the
    history before its first frame: no idle frame lists it, and the final standings' OK
    files the game under the number after the newest (moved there in the idle frame after
    it) without a listing; the trim after that lists the folder once (the oldest games to
    drop are found in the listing, never by walking the numbers)."""
    history = tmp_path / "data" / "history"
    history.mkdir(parents=True)
    for n in list(range(3, 12)) + [14]:
        (history / ("%06d.jsonl" % n)).write_text("{}\n")
    header, events = azul_engine.random_game(2, 5, "colored")[:2]
    listings = []
    listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda p=".": listings.append(str(p)) or listdir(p))
    d = Driver(tmp_path)
    assert [p for p in listings if p.endswith("history")]
    del listings[:]
    d.app.settings["history_keep"] = 9
    while d.app.prepare():
        pass
    d.new_game("Azul", "coloured", 2)
    play_azul(d, header, events)
    while d.app.prepare():
        pass
    d.press(OK)
    assert type(d.screen).__name__ == "MainMenu"
    assert d.app.prepare() and d.app.keeper.trim_due  # moved into the history
    del listings[:]
    assert d.app.prepare() and not d.app.keeper.trim_due  # the history trimmed: one listing
    assert len([p for p in listings if p.endswith("history")]) == 1
    assert sorted(os.listdir(history)) == ["%06d.jsonl" % n for n in [5, 6, 7, 8, 9, 10, 11, 14, 15]]
    assert replay((history / "000015.jsonl").read_text())[0].finished


def test_a_finished_game_resumed_at_power_on_lists_the_history_before_its_first_frame(tmp_path, monkeypatch):
    """Power-on over a finished game lists the history before the first frame, so neither
    its idle frames nor the OK that files the game nor the idle frame that moves it into the
    history (under the number after the newest) list it."""
    header, events = azul_engine.random_game(2, 5, "colored")[:2]
    played = Driver(tmp_path / "played")
    played.new_game("Azul", "coloured", 2)
    play_azul(played, header, events)
    history = tmp_path / "data" / "history"
    history.mkdir(parents=True)
    for n in range(1, 10):
        (history / ("%06d.jsonl" % n)).write_text("{}\n")
    (tmp_path / "data" / "current.jsonl").write_text(played.record())
    listed = []
    listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda p=".": listed.append(str(p)) or listdir(p))
    d = Driver(tmp_path)
    assert type(d.screen).__name__ == "Final" and d.app.text() == played.app.text()
    assert [p for p in listed if p.endswith("history")]
    del listed[:]
    while d.app.prepare():
        pass
    d.press(OK)
    assert d.app.prepare()
    assert type(d.screen).__name__ == "MainMenu" and not [p for p in listed if p.endswith("history")]
    assert replay((history / "000010.jsonl").read_text())[0].finished


def test_final_standings_show_whole_and_add_the_breakdowns_below_later(tmp_path):
    """The press that ends the game shows the final standings' first screen whole; each
    player's breakdown below it comes in the idle frames after that press (App.prepare), or at
    the first scroll when none came: the same rows either way, every player's breakdown
    from the rules, and the screen as it was."""
    from rules_core import game5211_engine
    from test_app_games import play_5211
    events = game5211_engine.random_game(4, 3, "standard")[1]
    idle, scroll = Driver(tmp_path / "idle"), Driver(tmp_path / "scroll")
    for d in (idle, scroll):
        d.new_game("5211", "standard", 4)
        play_5211(d, events, 4)
        assert type(d.screen).__name__ == "Final"
    s = idle.app.session
    first, frames = idle.app.text(), idle.display.frames
    assert len(first) == 8 and first[0] == "5211 final"  # the title and 7 rows
    history = os.path.join(idle.data, "history")
    assert os.listdir(history) == []  # made at boot
    frames_ahead = 1
    while idle.app.prepare():
        if s._work is None:  # the screen's work (the game's own comes after it: ReadBack.prepare)
            frames_ahead += 1
    idle.wait()
    # the first player's came with the press, one a frame after it, then the scoreboard an
    # undo shows, then its frame; not the state the undo after that one takes (folded once
    # undoing, while BACK is held for it: main.HELD_WORK_MS; the history folder the OK files
    # the game into, and the listing that names it there, came at boot)
    assert frames_ahead == 5 and os.listdir(history) == []
    assert s._next is None
    assert idle.app.keeper.listed and idle.app.keeper.newest == 0
    assert idle.app.session.finished and os.path.exists(os.path.join(idle.data, "current.jsonl"))
    assert idle.app.text() == first and idle.display.frames == frames  # nothing redrawn
    scroll.press(DOWN)
    assert scroll.rows() == idle.rows()
    rows = idle.rows()
    for p in range(4):
        b = s.result()["breakdown"][p]
        at = rows.index("- " + s.players[p])
        assert rows[at + 1:at + len(b)] == [
            "%s %s" % (k.replace("_", " "), b[k]) for k in sorted(b) if k != "total"]
    idle.press(DOWN)
    assert idle.app.text()[1:] == rows[1:8]
    assert scroll.app.text() == idle.app.text()


def test_sintra_setup_offers_each_later_round_colour_once(tmp_path):
    """Sintra setup 7: rounds II..VI show each glass colour once."""
    d = Driver(tmp_path)
    d.new_game("Sintra", "side A", 3)
    board_check(d, "A")
    d.choose("pink")
    d.choose("pink")
    assert "pink" not in d.rows()
    assert len(d.rows()) == 4


def test_settings_are_saved_and_change_the_leds(tmp_path):
    d = Driver(tmp_path, "esp32s3")
    d.new_game("Azul", "coloured", 2)
    d.press(BACK)  # scoreboard -> main menu
    d.choose("Settings")
    d.choose("LEDs")
    d.set("bright", 5)
    d.set("symbols", False)
    d.save()
    with open(os.path.join(d.data, "settings.json")) as f:
        saved = json.load(f)
    assert saved["brightness"] == 5 and saved["symbols"] is False
    d.press(BACK)
    d.choose("Resume")
    assert d.leds.frame_rgb()[0] == (255, 0, 0)
    d2 = Driver(tmp_path, "esp32s3")  # read back at power-on
    assert d2.app.settings["brightness"] == 5


def test_button_test_shows_keys_and_hold_back_leaves(tmp_path):
    d = Driver(tmp_path)
    d.choose("Settings")
    d.choose("Button test")
    d.press(LEFT | LONG)
    assert d.app.text()[1] == "LEFT long"
    d.press(BACK | LONG)
    assert d.screen.title == "Settings"



class IdleDriver(Driver):
    """The Driver with (idle=True) the main loop's idle frames before each press: App.prepare()
    until it has nothing left. Keeps each press's frame and the screens made ahead
    (App.home_screen with a state), and checks that the idle work changes nothing of the
    game: its state, scores and record. Counts the draws of each screen home_screen() made
    (`draws`): one drawn ahead is drawn once, by Canvas.draw_ahead, not again by its press."""

    def __init__(self, tmp_path, idle):
        Driver.__init__(self, tmp_path)
        self.idle = idle
        self.frames = []  # (text, frame buffer, LEDs) after each press
        self.made = []  # the screens made in idle frames
        self.drawn = []  # the screens a press showed with the frame drawn ahead (Canvas.draw_ahead)
        self.lit = []  # the screens whose player LEDs made ahead a press showed (LedView.take)
        make = self.app.home_screen

        def home_screen(state=None, session=None):
            screen = make(state, session)
            if state is not None:
                self.made.append(screen)
            draw = screen.draw
            screen.draws = 0

            def counted_draw(cv):
                screen.draws += 1
                draw(cv)
            screen.draw = counted_draw
            return screen
        self.app.home_screen = home_screen
        self.worked = 0  # LED frames worked out (LedView.seats_for, _chase)
        view = self.app.ledview
        players, chase = view.seats_for, view._chase

        def counted(s, waiting):
            self.worked += 1
            return players(s, waiting)

        def chased(w, phase, won):
            self.worked += 1
            chase(w, phase, won)
        view.seats_for, view._chase = counted, chased

    def press(self, k, times=1):
        for _ in range(times):
            s = self.app.session
            if s is not None:
                state, scores, record = s.rules, list(s.scores), self.record()
            while self.idle and self.app.prepare():
                pass
            if s is not None:
                assert s.rules is state and s.scores == scores and self.record() == record
            spare, worked, was = self.app.cv.spare, self.worked, self.screen
            Driver.press(self, k)
            if spare is not None and self.screen is spare[0] and self.app.cv.spare is None:
                self.drawn.append(self.screen)
                assert self.screen.draws == 1  # by Canvas.draw_ahead; the press copied its frame in
            if worked == self.worked and self.screen is not was and hasattr(self.screen, "leds"):
                self.lit.append(self.screen)  # a scoreboard's LEDs, not worked out in its press
            self.frames.append((self.app.text(), bytes(self.display.buffer), self.leds.frames[-1]))

    def record(self):
        with open(os.path.join(self.data, "current.jsonl")) as f:
            return f.read()


@pytest.mark.parametrize("game", ["azul", "5211"])
def test_a_save_prepared_in_idle_frames_writes_and_shows_what_one_without_them_does(tmp_path, game):
    """The idle frames on a form's save row make its work ahead (the state after the entry,
    its record line, the scoreboard or final standings it goes to): every press shows the
    same frame and the game ends with the same record as when no idle frame comes, and each
    save from a form (walls, reveals, round ends, the last one) and from a menu (who took the
    first-player marker) shows the screen made ahead."""
    from rules_core import game5211_engine
    idle, plain = IdleDriver(tmp_path / "idle", True), IdleDriver(tmp_path / "plain", False)
    for d in (idle, plain):
        shown = d.shown = []  # the screen each save from a form goes to
        if game == "azul":
            header, events = azul_engine.random_game(3, 11, "colored")[:2]
            d.new_game("Azul", "coloured", 3)
            for ev in events:
                play_azul(d, header, [ev])
                shown.append(d.screen)
        else:
            events = game5211_engine.random_game(3, 2, "standard")[1]
            d.new_game("5211", "standard", 3)
            for ev in events:
                play_5211(d, [ev], 3)
                shown.append(d.screen)
        assert type(d.screen).__name__ == "Final"
    assert idle.frames == plain.frames and idle.record() == plain.record()
    assert replay(idle.record())[0].result() == idle.app.session.result()
    assert idle.shown and all(any(s is m for m in idle.made) for s in idle.shown) and not plain.made
    # and each was shown with its first frame drawn ahead and its LED frame made ahead (the
    # scoreboards' player LEDs, the final standings' chase); none without the idle frames
    assert all(any(s is m for m in idle.drawn) for s in idle.shown) and not plain.drawn
    assert all(any(s is m for m in idle.lit) for s in idle.shown) and not plain.lit


def test_an_entry_menu_makes_the_form_under_its_cursor_in_idle_frames(tmp_path):
    """The entry menu's idle frames make the form of the entry under the cursor (Opens) and
    its OK shows that one; the form made for an entry the cursor left is dropped, and one
    made before an event was entered is made again (the state it read is gone)."""
    d = IdleDriver(tmp_path, True)
    d.new_game("Azul", "coloured", 3)
    d.press(OK)
    menu = d.screen
    walls = [cb for label, cb in menu.items if label.startswith("Wall ")]
    while d.app.prepare():
        pass
    first = walls[0].made
    assert type(first).__name__ == "WallForm" and first.p == 0 and walls[1].made is None
    d.press(DOWN)
    while d.app.prepare():
        pass
    assert walls[0].made is None and walls[1].made.p == 1
    d.press(UP)
    while d.app.prepare():
        pass
    made = walls[0].made
    assert made is not first and walls[1].made is None
    d.press(OK)
    assert d.screen is made and d.app.text()[0] == "Wall Red"
    d.press(BACK)
    d.press(OK)
    while d.app.prepare():
        pass
    made = d.screen.items[0][1].made
    assert play.enter(d.app, {"e": "note", "text": "x"})
    d.press(OK)
    assert type(d.screen).__name__ == "WallForm" and d.screen is not made




def test_a_bug_in_the_work_made_ahead_is_raised_and_only_a_refusal_or_a_full_heap_left_to_the_press(
        tmp_path, monkeypatch):
    """The work made ahead in idle frames lets go only of what an entry refused (a ValueError:
    Save.prepare) or a full heap raises, which its press meets again and says; a bug (a
    TypeError of a rules class, of a form's making: Opens.prepare) is raised where it is."""
    from app.form import Opens, Save
    from rules_core import RuleError
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 3)
    rules = type(d.app.session.rules)

    def failing(error):
        def fail(*args):
            raise error
        return fail
    for error in (RuleError("no"), MemoryError(), TypeError("a bug")):
        monkeypatch.setattr(rules, "apply", failing(error))
        save = Save(d.app, {"e": "first", "p": 0})
        if type(error) is TypeError:
            with pytest.raises(TypeError):
                save.prepare()
        else:
            assert not save.prepare() and save.after is None and not save.prepare()
    for error in (MemoryError(), TypeError("a bug"), RuleError("a bug too")):
        opens = Opens(d.app, failing(error))
        if type(error) is MemoryError:
            opens.prepare()
            assert opens.made is False
        else:
            with pytest.raises(type(error)):
                opens.prepare()
    monkeypatch.undo()
    d.entry("First marker")  # a menu of Saves: the idle frames make the one under the cursor
    monkeypatch.setattr(rules, "apply", failing(TypeError("a bug")))
    with pytest.raises(TypeError):
        while d.app.prepare():
            pass

def play_to_final(d, game):
    """A random 2-player Azul grey or 3-player 5211 game played to its final standings."""
    from rules_core import game5211_engine
    if game == "azul":
        header, events = azul_engine.random_game(2, 5, "grey")[:2]
        d.new_game("Azul", "grey", 2)
        play_azul(d, header, events)
    else:
        events = game5211_engine.random_game(3, 4, "standard")[1]
        d.new_game("5211", "standard", 3)
        play_5211(d, events, 3)
    assert type(d.screen).__name__ == "Final"


@pytest.mark.parametrize("game", ["azul", "5211"])
def test_an_undo_from_the_final_standings_shows_the_scoreboard_made_and_drawn_ahead(tmp_path, game):
    """The final standings' idle frames make the scoreboard an undo of the last round end
    shows, and its first frame (Final.prepare, play.make_undo): the undo shows that one, drawn
    once, with the frame, LEDs and record an undo without idle frames gives; the game then
    goes on (its entry menu, its last round ended again)."""
    idle, plain = IdleDriver(tmp_path / "idle", True), IdleDriver(tmp_path / "plain", False)
    for d in (idle, plain):
        play_to_final(d, game)
        d.press(BACK | LONG)
        assert type(d.screen).__name__ == "Scoreboard" and " ".join(d.app.text()[-2:]) == "undone: End round"
        d.undone = d.screen
        d.press(OK)
        assert d.screen.title.startswith("Round ")
        d.choose("End round")
        d.press(DOWN, len(d.rows()))
        d.press(OK)
        assert type(d.screen).__name__ == "Final"
    assert idle.frames == plain.frames and idle.record() == plain.record()
    assert any(m is idle.undone for m in idle.made) and idle.undone in idle.drawn
    assert not any(m is plain.undone for m in plain.made)


@pytest.mark.parametrize("game", ["azul", "5211"])
def test_undos_in_a_row_after_idle_frames_show_what_undos_without_them_do(tmp_path, game):
    """Undoing a finished game back over several round ends: between undos the idle frames
    fold the state the next undo takes and the older round-end state (ReadBack.prepare), and
    the undos take them (no undo after the first reads the record back), and each undo of a
    round end shows the scoreboard made and drawn ahead (Scoreboard.prepare, Final.prepare):
    every undo shows the frame and LEDs, and writes the record, that undos without idle
    frames give, and the game after each is a fresh replay of its record's."""
    idle, plain = IdleDriver(tmp_path / "idle", True), IdleDriver(tmp_path / "plain", False)
    for d in (idle, plain):
        play_to_final(d, game)
        d.undone = []
        d.ends = []  # the screens the undos of round ends showed
        start = d.app.session.round
        s = d.app.session
        d.reads = 0
        reread = s.reread

        def counted(d=d, reread=reread):
            d.reads += 1
            return reread()
        s.reread = counted
        d.in_press = 0  # reads of the record in the undos' presses
        for _ in range(min(24, len(s.done) - 1)):
            while d.idle and d.app.prepare():  # (the idle frames before the undo, not in it)
                pass
            reads = d.reads
            d.press(BACK | LONG)
            d.in_press += d.reads - reads
            assert type(d.screen).__name__ == "Scoreboard" and "undone:" in " ".join(d.app.text()[-2:])
            d.undone.append(d.screen)
            if "End round" in " ".join(d.app.text()[-2:]):
                d.ends.append(d.screen)
            assert replay(d.record())[0].result() == d.app.session.result()
        assert d.app.session.round <= start - 2  # round ends undone on the way
    assert idle.frames == plain.frames and idle.record() == plain.record()
    assert len(idle.ends) >= 3 and all(e in idle.made and e in idle.drawn for e in idle.ends)
    assert not any(e in plain.made for e in plain.ends)
    assert idle.in_press == 0 and plain.in_press > 0 and idle.reads > 0


@pytest.mark.parametrize("game", ["sintra", "garden"])
def test_a_game_started_after_idle_frames_shows_and_writes_what_one_without_them_does(tmp_path, game):
    """The idle frames on the last set-up step make the new game's header line and session
    and scoreboard, its first frame and player LEDs (app.setup.ready): the set-up's every press shows the same frame and the game starts with the
    same record as with no idle frame, for the games whose own steps end the set-up (Sintra's
    round colours, the Queen's Garden variant side)."""
    from test_app_games import ROUND_COLOURS, board_check
    idle, plain = IdleDriver(tmp_path / "idle", True), IdleDriver(tmp_path / "plain", False)
    for d in (idle, plain):
        if game == "sintra":
            d.new_game("Sintra", "side A", 3, start=2)
            board_check(d, "A")
            for c in ROUND_COLOURS[:5]:
                d.choose(c)
            d.press(DOWN, [r.startswith(ROUND_COLOURS[5]) for r in d.rows()].index(True) - d.screen.cursor)
            while d.idle and d.app.prepare():  # (what the OK press's idle frames do)
                pass
            d.made_ahead = d.screen.items[d.screen.cursor][1].cfg.get("made")
            d.press(OK)
        else:
            d.new_game("Queen's Garden", "variant", 2, start=1)
        assert type(d.screen).__name__ == "Scoreboard"
    assert idle.frames == plain.frames and idle.record() == plain.record()
    s = replay(idle.record())[0]
    assert s.start_player == idle.app.session.start_player == (2 if game == "sintra" else 1)
    # its scoreboard shown with the first frame and the player LEDs made ahead
    assert idle.drawn == idle.lit == [idle.screen] and not plain.drawn and not plain.lit
    if game == "sintra":
        assert s.header["options"]["round_colors"] == ROUND_COLOURS
        made = idle.made_ahead  # the session and the scoreboard made ahead are the game's
        assert made.session is idle.app.session and made.screen is idle.screen and plain.made_ahead is None


def test_the_last_set_up_step_starts_the_choice_pressed_not_the_one_made_ahead(tmp_path):
    """The idle frames make the game the cursor's choice starts (here: Red starts); a press on
    another choice (Blue) starts that one, its own header on flash and its own session."""
    from rules_core.record import dumps
    from rules_core.session import new_header
    d = Driver(tmp_path)
    for step in ("New game", "Azul", "coloured", "2 players", "Red", "Blue"):
        d.choose(step)
    assert d.screen.title == "Start player" and d.screen.cursor == 0
    while d.app.prepare():
        pass
    made = d.screen.items[0][1].cfg["made"]
    assert made.line == dumps(new_header("azul", "colored", ["Red", "Blue"], {})) and made.session is not None
    d.press(DOWN)
    d.press(OK)
    assert d.record() == dumps(new_header("azul", "colored", ["Red", "Blue"], {"start": 1})) + "\n"
    s = d.app.session
    assert s is not made.session and s.start_player == 1 and s.header["options"] == {"start": 1}
    assert type(d.screen).__name__ == "Scoreboard"


def test_the_garden_groups_save_enters_the_state_its_screen_checked(tmp_path, monkeypatch):
    """The groups screen checks the entry with the rules (ReadBack.trial) when it opens, for
    the points on its save row; the save enters that state, with no second check in the
    press, and the record replays to the game on screen."""
    from test_app_games import add_garden_groups, garden_events, play_garden
    from app.current import ReadBack
    d = Driver(tmp_path)
    d.new_game("Queen's Garden", "standard", 2)
    events = garden_events("standard")
    at = [i for i, ev in enumerate(events) if ev["e"] == "garden"][0]
    play_garden(d, events[:at])
    ev = events[at]
    d.entry("Garden " + ["Red", "Blue"][ev["p"]])
    add_garden_groups(d, ev["groups"])
    trials = []
    trial = ReadBack.trial
    monkeypatch.setattr(ReadBack, "trial", lambda s, e: trials.append(e) or trial(s, e))
    before = list(d.app.session.scores)
    d.choose("save")
    assert type(d.screen).__name__ == "Scoreboard" and trials == []
    assert d.app.session.scores != before
    assert replay(d.record())[0].scores == d.app.session.scores
    play_garden(d, events[at + 1:])
    assert replay(d.record())[0].result() == d.app.session.result()
