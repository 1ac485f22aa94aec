"""What the screens say, read as a player reads them: every screen of the eight scripted
games (tests/test_app_games.py) and of the device guide's scripts (docs/device/*/*.keys),
on the Pico's 128x64 display and the Feather's 128x32.

- Every word on a screen is one the device guide (docs/device.md) uses, or a player's name:
  no event name, key or Python identifier (round_score) reaches a screen, and no word is
  cut short at the display's edge (windo).
- Every screen fits its display: no text drawn beyond its edges, no row longer than the
  display is wide, and the scoreboard's last row (the next entry) always in view.
"""
import os
import re

import pytest

from test_app_games import (Driver, NAMES, play_azul, play_5211, play_sintra, play_garden, board_check,
                            sintra_events, garden_events, ROUND_COLOURS)
from test_device_guide import make
from app.app import App
from hal.keys import DOWN
from app.colours import PRESET_NAMES
from app.ui import ListScreen
from rules_core import azul_engine, game5211_engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IDENTIFIER = re.compile(r"[A-Za-z]+_[A-Za-z_]+")


def guide_words():
    with open(os.path.join(ROOT, "docs", "device.md"), encoding="utf-8") as f:
        return {w.lower() for w in re.findall(r"[A-Za-z]+", f.read())}


def names():
    """Players' names as a screen may show them: whole, or their first three letters (a form's
    save row: "Blu+2")."""
    out = set()
    for n in NAMES + list(PRESET_NAMES):
        out |= {n.lower(), n[:3].lower()}
    return out


class Screens:
    """Watches every App frame: the texts it showed, and what went beyond the display."""

    def __init__(self, monkeypatch, as_text=False):
        self.as_text = as_text  # check the simulator's text view of each frame too
        self.texts = {}  # text -> the frame's texts it was first seen in
        self.beyond = {}  # what -> the frame's texts
        screens = self
        step = App.step

        def watched(app, now, key):
            display = app.display
            if not getattr(display, "watched", False):
                display.watched = True
                draw = display.text

                def text(s, x, y, c=1):
                    if x < 0 or y < 0 or x + 8 * len(s) > display.width or y + 8 > display.height:
                        screens.beyond.setdefault("%r drawn at %d,%d on %dx%d" % (
                            s, x, y, display.width, display.height), None)
                    draw(s, x, y, c)
                display.text = text
            step(app, now, key)
            screens.frame(app)
        monkeypatch.setattr(App, "step", watched)

    def frame(self, app):
        shown = app.text()
        for t in shown:
            self.texts.setdefault(t, shown)
        scr = app.screen
        cv = app.cv
        if isinstance(scr, ListScreen):
            w = scr.width(cv)
            for row in [scr.title] + list(scr.rows()):
                if cv.width(row) > w:
                    self.beyond.setdefault("%r is wider than %d pixels" % (row, w), shown)
        if self.as_text and app.display.on:  # the simulator's 80x24 view reads what was drawn
            lines = ["".join(ch for ch, _, _ in line) for line in app.display.cells()]
            for t in app.message or shown:  # (a message covers the rows under it)
                if not any(t in line for line in lines):
                    self.beyond.setdefault("%r not in the text view %r" % (t, lines), shown)
        if type(scr).__name__ == "Scoreboard" and not app.message and scr.rows()[-1] not in shown:
            self.beyond.setdefault("the scoreboard's last row %r is not in view" % scr.rows()[-1], shown)

    def unknown_words(self):
        """{word: the frame it was in} of every word that is not the guide's."""
        known = guide_words() | names()
        out = {}
        for t, shown in self.texts.items():
            for w in IDENTIFIER.findall(t) + re.findall(r"[A-Za-z]+", t):
                if len(w) > 1 and w.lower() not in known:
                    out.setdefault(w, shown)
        return out


def eight_games(tmp_path, board):
    """The eight variants played to the end on `board`, as tests/test_app_games.py plays them."""
    for i, game in enumerate(GAMES):
        d = Driver(tmp_path / str(i), board)
        play_game(d, game)
        final_details(d)


# the eight scripted games: (title, variant label, players, how its entries are played)
GAMES = [("Azul", "coloured", 3, lambda d: play_azul(d, *azul_engine.random_game(3, 11, "colored")[:2])),
         ("Azul", "grey", 2, lambda d: play_azul(d, *azul_engine.random_game(2, 5, "grey")[:2])),
         ("5211", "standard", 4, lambda d: play_5211(d, game5211_engine.random_game(4, 3, "standard")[1], 4)),
         ("5211", "long", 3, lambda d: play_5211(d, game5211_engine.random_game(3, 1, "long")[1], 3)),
         ("Sintra", "side A", 2, None), ("Sintra", "side B", 2, None),
         ("Queen's Garden", "standard", 2, lambda d: play_garden(d, garden_events("standard"))),
         ("Queen's Garden", "variant side", 2, lambda d: play_garden(d, garden_events("variant")))]


def play_game(d, game):
    """One of GAMES played from the main menu to its final standings."""
    title, label, n, play = game
    d.new_game(title, label, n)
    if title == "Sintra":
        board_check(d, label[-1])
        for c in ROUND_COLOURS:
            d.choose(c)
        play_sintra(d, sintra_events())
    else:
        play(d)
    assert type(d.screen).__name__ == "Final", d.app.text()


def final_details(d):
    """The final standings scrolled through, their breakdowns made."""
    d.press(DOWN)
    while d.app.prepare():
        pass
    for _ in d.screen.rows():
        d.press(DOWN)


@pytest.mark.parametrize("board", ["pico", "feather_rp2040"])
def test_every_screen_of_the_eight_games_in_the_guides_words_and_on_the_display(tmp_path, monkeypatch, board):
    screens = Screens(monkeypatch)
    eight_games(tmp_path, board)
    assert len(screens.texts) > 500
    assert not screens.beyond, "\n".join("%s\n  in %r" % b for b in screens.beyond.items())
    unknown = screens.unknown_words()
    assert not unknown, "\n".join("%r, not a word of docs/device.md, in %r" % (w, t) for w, t in unknown.items())


def test_every_screen_of_the_guides_scripts_in_its_words_and_on_the_display(tmp_path, monkeypatch):
    """... and the simulator's text view (host_tools.sim.text_view) reads every text drawn."""
    screens = Screens(monkeypatch, as_text=True)
    make.make(str(tmp_path))
    assert not screens.beyond, "\n".join("%s\n  in %r" % b for b in screens.beyond.items())
    unknown = screens.unknown_words()
    assert not unknown, "\n".join("%r, not a word of docs/device.md, in %r" % (w, t) for w, t in unknown.items())


def test_the_scoreboard_keeps_the_next_entry_in_view_on_128x32(tmp_path):
    """A 4-player game on the Feather: title, then two of the five rows above the last, which
    stays on the bottom row while DOWN scrolls the standings."""
    d = Driver(tmp_path, "feather_rp2040")
    d.new_game("Azul", "coloured", 4)
    assert d.app.text() == ["Azul R1", "1 Red       0 S!", "1 Blue      0 !", "Wall Red"]
    d.press(DOWN, 3)
    assert d.app.text() == ["Azul R1", "1 Yellow    0 !", "S=starts !=to do", "Wall Red"]
