"""The screens explain themselves: what the scoreboard's flags mean, why a player is missing
from the First-marker menu, why LEFT/RIGHT skipped a value, what OK does on a form.
Every assertion reads the texts the screen drew (app.text()), as a player reads the screen."""
import json

from test_app_games import Driver, NAMES, end_round, play_azul, play_garden, garden_events, \
    play_sintra, sintra_events, ROUND_COLOURS, board_check
from app.ui import wrap
from app import form
from hal.keys import DOWN, LEFT, RIGHT, OK


def record(d):
    """The current record's text ("" before the first game)."""
    try:
        return d.record()
    except FileNotFoundError:
        return ""


def entries(d):
    return [json.loads(line) for line in d.record().splitlines()[1:]]


def test_scoreboard_legend_says_what_the_flags_mean(tmp_path):
    d = Driver(tmp_path / "azul")
    d.new_game("Azul", "coloured", 2)
    assert d.app.text() == ["Azul R1", "1 Red       0 S!", "1 Blue      0 !", "S=starts !=to do", "Wall Red"]
    for who in ("Red", "Blue"):
        d.entry("Wall " + who)
        d.save()
    text = d.app.text()
    assert "S=starts" in text and not any("!" in row for row in text), text
    d5211 = Driver(tmp_path / "5211")  # nobody starts a round of 5211: only "!" is explained
    d5211.new_game("5211", "standard", 2)
    assert d5211.app.text()[3] == "!=to do"


def test_the_last_round_is_in_the_title(tmp_path):
    """Azul (game end): the round in which a horizontal row is completed is the last one."""
    from rules_core import azul_engine
    header, events = azul_engine.random_game(2, 7, "colored")[:2]
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    play_azul(d, header, events[:-1])  # all but the last round's end
    assert d.app.text()[0] == "Azul R%d LAST" % d.app.session.round
    end_round(d)
    assert d.app.text()[0] == "Azul final"
    assert not any("S=" in row or "!=" in row for row in d.app.text())  # no flags, no legend


def test_first_marker_menu_says_why_a_player_is_missing(tmp_path):
    """Azul (floor line): the first-player marker goes on the floor, so a player whose wall
    was entered with floor 0 cannot have taken it; the menu says so, and OK on that row
    explains instead of entering anything."""
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 3)
    d.entry("Wall Red")
    d.save()  # floor 0
    d.entry("First marker")
    assert d.app.text() == ["First marker", "Blue", "Green", "Red: floor 0"]
    before = d.record()
    d.choose("Red: floor 0")
    assert d.app.text()[-2:] == ["the marker needs", "a floor slot"]
    assert d.record() == before and d.screen.title == "First marker"
    d.choose("Blue")
    assert entries(d)[-1] == {"e": "first", "p": 1}
    d.press(OK)
    assert "First marker" not in d.rows()  # taken this round: nothing left to enter


def test_sintra_start_tile_menu_says_who_has_finished(tmp_path):
    """Sintra round VI: a player whose leftover glass is entered is out of the round."""
    d = Driver(tmp_path)
    d.new_game("Sintra", "side A", 2)
    board_check(d, "A")
    for c in ROUND_COLOURS:
        d.choose(c)
    evs = sintra_events()
    last = max(i for i, e in enumerate(evs) if e["e"] == "end_round" and i < len(evs) - 1)
    play_sintra(d, evs[:last + 1])  # rounds I..V
    d.entry("Leftover Red")
    d.set("glass", 3)
    d.save()
    d.entry("First from ctr")
    assert d.app.text() == ["Start tile", "Blue", "Red: done"]
    d.choose("Red: done")
    assert "leftover glass" in " ".join(d.app.text())


def test_a_skipped_colour_says_why_once(tmp_path):
    """Azul (wall tiling): a colour already in a row of the wall is not offered again; the
    first time RIGHT jumps over it the screen says why, then never again on this form."""
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    d.entry("Wall Red")
    d.set("R1", "blue")
    d.save()
    d.entry("Wall Blue")
    d.save()
    end_round(d)
    d.entry("Wall Red")
    d.press(RIGHT)  # "-" -> yellow, over blue
    text = d.app.text()
    assert "R1 yel" in text and text[-2:] == ["R1 blu: already", "in row"]
    d.wait()
    d.press(LEFT)
    d.press(RIGHT)
    assert d.app.text()[-1] != "in row" and "R1 yel" in d.app.text()


def test_grey_wall_skips_say_which_column(tmp_path):
    """Azul grey wall (wall tiling, variant): a colour may not repeat in a column, and a
    filled cell takes no tile."""
    d = Driver(tmp_path)
    d.new_game("Azul", "grey", 2)
    d.entry("Wall Red")
    d.set("R1", (1, "blue"))
    d.set("R2", (2, "yellow"))
    d.save()
    d.entry("Wall Blue")
    d.save()
    end_round(d)
    d.entry("Wall Red")
    d.press(DOWN)
    d.press(RIGHT)  # R2: "-" -> blue c3, over blue c1 (column 1 has blue) and blue c2 (filled)
    assert d.screen.fields[1].value() == (3, "blue")
    assert " ".join(d.app.text()[-2:]) == "R2 blu c1: column has blu"
    d.wait()
    d.press(LEFT)  # back to "-", over blue c2: the one not explained yet
    assert " ".join(d.app.text()[-2:]) == "R2 blu c2: column taken"


def test_the_twenty_tiles_of_a_colour_are_explained(tmp_path):
    """Azul (game contents: 20 tiles of each colour): four complete fifth lines of blue use
    all 20 blue tiles, so no more blue can be placed this round."""
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 4)
    for who in NAMES[:4]:
        d.entry("Wall " + who)
        d.set("R5", "blue")
        if who != "Yellow":
            d.save()
    d.set("R1", "yellow")  # Yellow's row 1: one RIGHT, from "-" over blue
    assert d.keys[-2:] == [DOWN, RIGHT]
    assert " ".join(d.app.text()[-2:]) == "R1 blu: all 20 blu in use"


def test_floor_zero_with_the_marker_is_explained(tmp_path):
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    d.entry("First marker")
    d.choose("Red")
    d.entry("Wall Red")
    d.set("floor", 1)
    d.press(LEFT)  # 1 -> 7, over 0
    assert d.screen.fields[5].value() == 7
    assert d.app.text()[-2:] == ["floor 0: the", "marker is on it"]


def test_a_form_says_what_ok_does(tmp_path):
    """On a field the cursor's row ends in "OK>" (OK goes on to the next row); the last row
    says "save" and what the entry gives."""
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    d.entry("Wall Red")
    d.set("R1", "blue")
    text = d.app.text()
    assert text[:2] == ["Wall Red", "R1 blu"] and "OK>" in text
    d.press(OK)  # OK on a field: the next row
    assert d.screen.cursor == 1 and "OK>" in d.app.text()
    d.press(DOWN, 5)
    assert d.app.text()[7] == "save Red+1" and "OK>" not in d.app.text()
    d.press(OK)
    assert entries(d)[-1]["tiles"] == [[1, "blue"]]


def test_the_hint_shrinks_where_the_row_is_long(tmp_path):
    """Grey wall rows beside the wall drawing have 11 characters: "R3 blu c3" leaves room
    for ">" only."""
    d = Driver(tmp_path)
    d.new_game("Azul", "grey", 2)
    d.entry("Wall Red")
    d.set("R3", (3, "blue"))
    text = d.app.text()
    assert "R3 blu c3" in text and ">" in text and "OK>" not in text


def test_every_explanation_fits_the_message_rows(tmp_path, monkeypatch):
    """Every field of every form met in whole games is turned through all its values: each
    thing the screen says about a skipped value fits the two 16-character message rows
    uncut, and turning the values never enters anything."""
    said = []
    real_init = form.Form.__init__

    def probing(self, *args, **kw):
        real_init(self, *args, **kw)
        app = self.app
        say, refuse, lines = app.say, app.refuse, record(d)
        app.say = lambda text, ms=None: said.append(text)
        app.refuse = lambda text: said.append(text)
        start = [f.index for f in self.fields]
        for i, f in enumerate(self.fields):
            if len(f.choices) <= 30:
                for _ in range(len(f.choices)):
                    self._turn(i, 1, True)
            for f2, k in zip(self.fields, start):
                f2.index = k
        self._explained = []
        app.say, app.refuse = say, refuse
        assert record(d) == lines

    monkeypatch.setattr(form.Form, "__init__", probing)
    from rules_core import azul_engine
    d = Driver(tmp_path / "grey")
    d.new_game("Azul", "grey", 2)
    play_azul(d, *azul_engine.random_game(2, 5, "grey")[:2])
    d = Driver(tmp_path / "sintra")
    d.new_game("Sintra", "side A", 2)
    board_check(d, "A")
    for c in ROUND_COLOURS:
        d.choose(c)
    play_sintra(d, sintra_events())
    d = Driver(tmp_path / "garden")
    d.new_game("Queen's Garden", "standard", 2)
    play_garden(d, garden_events("standard"))
    kinds = set()
    for text in said:
        rows = wrap(text, 16, 2)
        assert " ".join(rows) == text, "cut on the screen: %r -> %r" % (text, rows)
        kinds.add(text.split(": ", 1)[-1].split(" ")[0])
    # the explanations met: Azul grey wall, Sintra's bonus, the garden's colour groups
    assert {"column", "already", "the", "kept", "3+"} <= kinds, kinds


def save_row(d):
    """The save row and the row under it, as drawn with the cursor on the save row."""
    n = len(d.screen.fields)
    d.press(DOWN, (n - d.screen.cursor) % (n + 1))
    text = d.app.text()
    i = max(k for k, t in enumerate(text) if t.startswith("save"))
    return text[i:i + 2]


def test_a_number_on_a_save_row_comes_with_its_reason(tmp_path):
    """Queen's Garden (D, 略過): the first to pass loses 1 point besides the discards, which no
    field shows. Sintra (第一步, 遊戲結束): broken glass moves the marker, scored at the
    game's end, so its entry gives +0 now; a round's end gives nothing either. Azul: a round
    before the last ends with +0 (the walls were scored as entered, the bonuses at the end)."""
    d = Driver(tmp_path / "garden")
    d.new_game("Queen's Garden", "standard", 2)
    d.entry("Pass Red")
    assert save_row(d) == ["save Red-1", "-1 first pass"]
    d.set("value 2 x", 1)
    assert save_row(d) == ["save Red-3", "-1 first pass"]
    d.save()
    d.entry("Pass Blue")  # not the first: nothing to explain
    assert save_row(d)[0] == "save +0" and save_row(d)[1:] in ([], ["OK>"])

    d = Driver(tmp_path / "sintra")
    d.new_game("Sintra", "side A", 2)
    board_check(d, "A")
    for c in ROUND_COLOURS:
        d.choose(c)
    d.entry("Broken Blue")
    d.set("glass", 2)
    assert save_row(d) == ["save +0", "track: at end"]
    d.save()
    d.entry("End round")
    assert d.app.text()[1:3] == ["save +0", "track: at end"]

    d = Driver(tmp_path / "azul")
    d.new_game("Azul", "coloured", 2)
    for who in ("Red", "Blue"):
        d.entry("Wall " + who)
        d.set("floor", 1)
        d.save()
    d.entry("First marker")
    d.choose("Red")
    d.entry("End round")
    assert d.app.text()[1:3] == ["save +0", "bonuses: at end"]
