"""The Sintra board values on the device (Settings > Sintra board and a new game's set-up),
driven by keys through the virtual board.

The rulebook (Stained Glass of Sintra, Traditional Chinese edition) prints no window values,
no broken-glass track other than its bottom space (-18, 遊戲結束's note) and does not say
which windows surround side A's ornaments: the owner reads them off the board once. These
tests hold that nothing is played on a guess the owner did not confirm, that the values
entered reach the record and the score, and that a damaged entry is asked for again.
"""
import json
import os

from test_app_games import Driver, WINDOWS, board_check, enter_windows, garden_events, play_garden, play_sintra
from hal.keys import DOWN, OK, BACK
from rules_core.session import replay

TRACK = [0, -1, -2, -3, -4, -5, -6, -7, -9, -11, -13, -15, -18]  # an owner's board, top to bottom


def to_board_menu(d, side="A", n=2):
    d.choose("New game")
    d.choose("Sintra")
    d.choose("side " + side)
    d.choose("%d players" % n)
    for name in ("Red", "Blue", "Green", "Yellow")[:n]:
        d.choose(name)
    d.choose("Red")  # start player


def window(col, keep, bonus=0):
    """Red completes the strip over window col."""
    return {"e": "window", "p": 0, "col": col, "keep": keep, "bonus": bonus}


# rounds I..V end with nothing more, then round VI: no glass left on anyone's strips
TO_THE_END = [{"e": "end_round"}] * 5 + [{"e": "leftover", "p": p, "n": 0} for p in (0, 1)] + [{"e": "end_round"}]


def settings_of(d):
    with open(os.path.join(d.data, "settings.json"), encoding="utf-8") as f:
        return json.load(f)


def header_of(d):
    return json.loads(d.record().splitlines()[0])


def test_board_check_cannot_be_passed_with_one_press(tmp_path):
    """第三步 3c scores the values printed under the windows, which the rulebook text does
    not give: the first game on a side waits for all 8 of them. OK alone, pressed 40 times on
    the menu, the form and its save row, starts nothing, saves nothing and never shows the
    placeholder 1 2 1 2 1 2 1 2 as values."""
    d = Driver(tmp_path)
    to_board_menu(d)
    assert d.screen.title == "Side A board"
    assert d.rows() == ["A win ????????", "Track unverified", "Orn A unverified", "Continue"]
    assert d.screen.cursor == 0  # on what must be entered first
    d.choose("Continue")
    assert d.app.message == ["enter the A", "windows first"]
    d.press(DOWN, 1)  # back on the windows row
    d.press(OK, 40)
    assert d.screen.title == "A windows L to R"
    assert d.rows()[:2] == ["win 1 ?", "win 2 ?"] and d.rows()[-1] == "save: 8 ? left"
    assert d.screen.cursor == 0  # OK on a "?" does not move on: LEFT/RIGHT sets it
    d.save()
    assert d.app.message == ["win 1 is still ?"] and d.screen.cursor == 0
    assert not os.path.exists(os.path.join(d.data, "settings.json"))
    assert not os.path.exists(os.path.join(d.data, "current.jsonl"))
    # seven values set, the eighth still "?": still refused, and the cursor goes to it
    for i in range(7):
        d.set("win %d" % (i + 1), WINDOWS["A"][i])
    d.save()
    assert d.app.message == ["win 8 is still ?"] and d.screen.cursor == 7
    assert not os.path.exists(os.path.join(d.data, "settings.json"))
    d.set("win 8", WINDOWS["A"][7])
    d.save()
    assert settings_of(d)["sintra_windows_A"] == WINDOWS["A"]
    assert d.screen.title == "Side A board" and d.rows()[0] == "A win 31415262"
    assert d.rows()[d.screen.cursor] == "Continue"  # entered: the next OK goes on to the round colours


def test_each_side_has_its_own_windows_which_reach_the_record_and_the_score(tmp_path):
    """第三步 3c: a window scores the value under it plus the value under every window to its
    right holding glass. Side A entered as 3 1 4 1 5 2 6 2, round I (pink), Red:
    window 5 (orange, bonus 0): 5; window 2 (orange): 1 + 5 = 6 -> 11; window 7 (pink, 2
    pink on the strip, 3a): 2 + 6 -> 19; window 2 again (bottom frame): 1 + 5 + 6 = 12 -> 31.
    (The placeholder would give 1, 3, 2 + 2, 3 + 2: 13.) Side B is another board: its first
    game asks for its own values (2 7 1 8 2 8 1 8): window 1 (pink, bonus 1): 1 + 2 = 3."""
    d = Driver(tmp_path)
    d.new_game("Sintra", "side A", 2)
    board_check(d, "A")
    for c in ("pink", "orange", "yellow", "green", "blue", "pink"):
        d.choose(c)
    board = header_of(d)["options"]["board"]
    assert board == {"windows": [3, 1, 4, 1, 5, 2, 6, 2], "track": [0, -1, -2, -3, -4, -5, -6, -8, -10, -12, -14, -16, -18],
                     "ornaments": [[1, 2], [3, 4], [5, 6], [7, 8]]}
    for ev, total in ((window(5, "orange"), 5), (window(2, "orange"), 11), (window(7, "pink", 2), 19),
                      (window(2, "orange"), 31)):
        play_sintra(d, [ev])
        assert d.app.session.scores == [total, 0]
    assert "1 Red      31 S" in d.app.text()
    assert replay(d.record())[0].scores == [31, 0]
    # side B: its own values, asked for once; side A's are not asked again
    d.press(BACK)
    d.choose("New game")
    d.choose("put aside")  # (the side A game goes into the History)
    d.choose("Sintra")
    d.choose("side B")
    d.choose("2 players")
    d.choose("Red")
    d.choose("Blue")
    d.choose("Red")
    assert d.rows() == ["B win ????????", "Track unverified", "Continue"]
    board_check(d, "B")
    for c in ("pink", "orange", "yellow", "green", "blue", "pink"):
        d.choose(c)
    assert header_of(d)["options"]["board"]["windows"] == [2, 7, 1, 8, 2, 8, 1, 8]
    play_sintra(d, [window(1, "pink", 1)])
    assert d.app.session.scores == [3, 0]
    assert settings_of(d)["sintra_windows_A"] == WINDOWS["A"]
    assert settings_of(d)["sintra_windows_B"] == WINDOWS["B"]


def confirm_track(d, track):
    """The track form: every space from the second to the twelfth OK'd or changed."""
    for i in range(1, 12):
        d.set("space %d" % (i + 1), track[i])
        d.press(OK)


def test_track_and_ornaments_are_confirmed_value_by_value_and_score(tmp_path):
    """The broken-glass track (遊戲結束 2: lose the value at the marker; only the bottom, -18,
    is printed in the text) and side A's ornaments (遊戲結束 3 A面: 4 around an ornament 10,
    3 -> 6, 2 -> 3) start as the inferred tables, marked "?" value by value; one OK does not
    confirm them, and what is confirmed is used.

    The owner's track here has -7 on the eighth space (the inferred one -8), and the 4th
    ornament is between windows 6 and 7 (the inferred one 7-8). Red, side A windows
    3 1 4 1 5 2 6 2: window 6 top and bottom (2, 2), window 5 (5 + 2), window 7 (6): 17
    (round I's 20 panes); round II, 7 glass broken: marker on the eighth space, -7; ornaments 5-6 (3 panes) 6 and 6-7
    (3 panes) 6: 12. Final 17 - 7 + 12 = 22 (with the inferred tables: 17 - 8 + 6 = 15)."""
    d = Driver(tmp_path)
    d.choose("Settings")
    d.choose("Sintra board")
    assert d.rows() == ["A win ????????", "B win ????????", "Track unverified", "Orn A unverified"]
    d.choose("Track")
    assert d.screen.title == "Track top-bottom"
    assert d.rows()[:3] == ["space 1 0", "space 2 -1?", "space 3 -2?"]
    assert d.rows()[12:] == ["space 13 -18", "save: 11 ? left"]  # top and bottom are fixed
    d.save()
    assert d.app.message == ["space 2 is still", "?"] and d.screen.cursor == 1
    d.press(OK)  # one OK confirms one value
    assert d.rows()[1] == "space 2 -1" and d.rows()[-1] == "save: 10 ? left"
    rising = list(TRACK)
    rising[8] = -5
    confirm_track(d, rising)
    d.save()
    assert d.app.message == ["track rises at", "space 9"]
    assert not os.path.exists(os.path.join(d.data, "settings.json"))  # nothing saved
    d.set("space 9", TRACK[8])
    d.save()
    assert settings_of(d)["sintra_track"] == TRACK
    assert d.rows()[2] == "Track confirmed"
    d.choose("Orn A")
    assert d.rows() == ["orn 1: win 1-2?", "orn 2: win 3-4?", "orn 3: win 5-6?", "orn 4: win 7-8?", "save: 4 ? left"]
    d.press(OK, 3)
    d.set("orn 4: win", [6, 7])  # a window may be next to two ornaments; a gap holds one
    d.set("orn 2: win", [5, 6])
    d.save()
    assert d.app.message == ["2 ornaments at", "win 5-6"]
    d.set("orn 2: win", [3, 4])
    d.save()
    assert settings_of(d)["sintra_ornaments"] == [[1, 2], [3, 4], [5, 6], [6, 7]]
    assert d.rows()[3] == "Orn A confirmed"
    enter_windows(d, "A", WINDOWS["A"])
    d.press(BACK)
    d.press(BACK)
    # everything entered and confirmed: a new game goes straight to the round colours
    d.new_game("Sintra", "side A", 2)
    assert d.screen.title == "Round 1 colour"
    for c in ("pink", "orange", "yellow", "green", "blue", "pink"):
        d.choose(c)
    assert header_of(d)["options"]["board"] == {"windows": WINDOWS["A"], "track": TRACK,
                                                "ornaments": [[1, 2], [3, 4], [5, 6], [6, 7]]}
    play_sintra(d, [window(6, "orange"), window(6, "orange"), window(5, "orange"), window(7, "orange"),
                    {"e": "end_round"}, {"e": "broken", "p": 0, "n": 7}])
    assert d.app.session.scores == [17, 0]
    play_sintra(d, TO_THE_END[1:])
    r = d.app.session.result()
    assert r["finished"] and r["scores"] == [22, 0]
    assert (r["breakdown"][0]["marker_penalty"], r["breakdown"][0]["side_points"]) == (7, 12)
    s, warnings = replay(d.record())
    assert s.scores == [22, 0] and warnings == []


DAMAGED = {"sintra_windows_A": [1, 2, 3], "sintra_windows_B": "12121212",
           "sintra_track": [0, -1, -2, -3, -4, -5, -6, -8, -10, -12, -14, -16, -17],
           "sintra_ornaments": [[1, 2], [2, 3], [3, 4], [1, 2]],
           "sintra_windows": [1, 2, 1, 2, 1, 2, 1, 2],  # an earlier firmware's one table for both sides
           "brightness": 2}


def test_damaged_board_settings_boot_and_are_asked_for_again(tmp_path):
    """Each damaged board value is logged, counts as not entered (windows) or unverified
    (track, ornaments), and the next game asks again; the other settings stay."""
    os.makedirs(str(tmp_path / "data"))
    with open(str(tmp_path / "data" / "settings.json"), "w") as f:
        json.dump(DAMAGED, f)
    d = Driver(tmp_path)
    with open(os.path.join(d.data, "errors.log")) as f:
        log = f.read()
    assert log == "settings: defaults used for sintra_windows_A, sintra_windows_B, sintra_track, sintra_ornaments\n"
    assert d.app.settings["brightness"] == 2
    to_board_menu(d)
    assert d.rows() == ["A win ????????", "Track unverified", "Orn A unverified", "Continue"]
    d.choose("Continue")
    assert d.screen.title == "Side A board"  # refused
    board_check(d, "A")
    assert d.screen.title == "Round 1 colour"


def test_unverified_names_are_marked_on_the_screens(tmp_path):
    """Names the rulebook text does not give carry a "?": Sintra's green and blue glass (it
    names pink, orange and yellow), Queen's Garden's light/dark green, lilac and purple (it
    names blue, yellow and green) and the patterns plant and lily (it names tree, bird,
    butterfly and flower)."""
    d = Driver(tmp_path / "sintra")
    d.new_game("Sintra", "side B", 2)
    board_check(d, "B")
    assert d.rows() == ["pink", "orange", "yellow", "green?", "blue?"]
    for c in ("blue", "orange", "yellow", "green", "blue", "pink"):
        d.choose(c)
    assert "bonus blu? (B)" in d.app.text()
    d.entry("Window Red")
    keep = d.screen.fields[1]
    assert [text for text, _ in keep.choices] == ["pnk", "org", "yel", "grn?", "blu?"]
    d.press(BACK)
    play_sintra(d, [window(1, "blue", 1)] + TO_THE_END)
    assert "colour blue?" in d.screen.rows()  # side B: the colour named for the bonus
    d = Driver(tmp_path / "garden")
    d.new_game("Queen's Garden", "standard", 2)
    events = garden_events("standard")
    play_garden(d, events[:[ev["e"] for ev in events].index("garden")])
    d.entry("Garden Red")
    d.choose("Add group")
    of = d.screen.fields[0]
    assert [text for text, _ in of.choices] == ["blu", "yel", "lgr?", "dgr?", "lil?", "pur?", "tree", "bird",
                                                "butterfly", "flower", "plant?", "lily?"]
    assert [f.label for f in d.screen.fields[2:]] == ["tree", "bird", "butterfly", "flower", "plant?", "lily?"]
    d.set("of", "lilac")
    d.save()
    assert d.rows()[0] == "lil? 1+2+3"


def test_a_board_form_saves_the_values_on_screen_with_the_text_made_ahead_or_not(tmp_path):
    """On a board form's save row, with every reading set, an idle frame makes the settings'
    text the save writes (BoardForm.prepare); the save writes that text. A reading changed after
    it was made is saved as changed: the file holds the settings in use either way."""
    d = Driver(tmp_path)
    to_board_menu(d)
    d.choose("A win")
    for i, v in enumerate(WINDOWS["A"]):
        d.set("win %d" % (i + 1), v)
    form = d.screen
    n = len(form.fields)
    d.press(DOWN, n - form.cursor)  # the save row
    assert form.prepare() is False  # one piece, made in that frame
    made = form._text[2]
    assert json.loads(made)["sintra_windows_A"] == WINDOWS["A"]
    d.set("win 1", 9)  # changed after the text was made
    d.press(DOWN, n - form.cursor)
    d.press(OK)  # no idle frame between
    with open(os.path.join(d.data, "settings.json"), encoding="utf-8") as f:
        text = f.read()
    assert json.loads(text)["sintra_windows_A"] == [9] + WINDOWS["A"][1:] and text != made
    assert settings_of(d) == d.app.settings
    # again, unchanged after the idle frame: the text made ahead is what is written
    d.choose("A win")
    form = d.screen
    d.set("win 1", 7)
    d.press(DOWN, n - form.cursor)
    form.prepare()
    made = form._text[2]
    d.press(OK)
    with open(os.path.join(d.data, "settings.json"), encoding="utf-8") as f:
        assert f.read() == made
    assert settings_of(d)["sintra_windows_A"] == [7] + WINDOWS["A"][1:] and settings_of(d) == d.app.settings
