"""The device in Traditional Chinese and Japanese: every screen of the eight scripted games
(tests/test_app_words.py's), played with the same keys as in English, on the Pico's 128x64
display and the Feather's 128x32.

- Every text fits its display (nothing drawn beyond its edges, no row wider than it) and
  every character drawn is ASCII or a glyph of the language's font subset (never the
  replacement glyph): the catalogue's glyphs are all in the table.
- No English word is left on a screen but the players' names and the buttons' (OK, BACK...).
- The record the game leaves is byte for byte the English one: records never depend on
  the language.

The same for the screens outside a game (Check a score, the Settings, About): the device
guide's scripts of them (docs/device), run in each language.
"""
import json
import os
import re

import pytest

from test_app_games import Driver
from test_app_words import Screens, names, GAMES, play_game, final_details
from app.ui import Canvas
from app import lang

LANGUAGES = ("zh-Hant", "ja")
# Latin words a translated screen may show: the buttons' names, LED, and what the catalogue
# keeps in Latin letters on purpose (a file name the host tools read: torn-N); and the
# device's own name, the main menu's title
LATIN = {"ok", "back", "left", "right", "up", "down", "led", "torn"}
PRODUCT = "Azul Companion"

def play_english(where, board, game):
    """Game `game` of GAMES played in English: (its keys, its record)."""
    d = Driver(where, board)
    play_game(d, game)
    return list(d.keys), d.record()


def driver_in(where, board, code):
    """A Driver whose device speaks `code` (its settings file says so)."""
    data = where / "data"
    data.mkdir(parents=True)
    (data / "settings.json").write_text(json.dumps({"language": code}), encoding="utf-8")
    return Driver(where, board)


def replay_keys(d, keys):
    for k in keys:
        if k is None:
            d.wait()
        else:
            d.press(k)


class Drawn:
    """Every text the canvas draws in a language: beyond the display, or with a character
    the font does not hold."""

    def __init__(self, monkeypatch):
        self.problems = {}
        self.chars = set()
        drawn = self
        draw = Canvas.draw_text

        def watched(cv, s, x, y, c=1):
            if x < 0 or y < 0 or x + cv.width(s) > cv.w or y + cv.line > cv.h:
                drawn.problems.setdefault("%r drawn at %d,%d (%d pixels wide) on %dx%d"
                                          % (s, x, y, cv.width(s), cv.w, cv.h), None)
            self.chars.update(s)
            draw(cv, s, x, y, c)
        monkeypatch.setattr(Canvas, "draw_text", watched)

    def missing(self, table):
        """Characters drawn that the table's font has no glyph of."""
        return sorted(ch for ch in self.chars if ord(ch) > 0x7E and table.glyph(ord(ch)) == table.g - 1)


def english_left(texts):
    """{word: text} of the Latin words of a translated screen that are no name or button."""
    known = names() | LATIN
    out = {}
    for t in texts:
        for w in re.findall(r"[A-Za-z]{2,}", t.replace(PRODUCT, "")):
            if w.lower() not in known:
                out.setdefault(w, t)
    return out


@pytest.fixture(autouse=True)
def back_to_english():
    """The language is the process's (app.lang, as on a board): English again for the tests after."""
    yield
    lang.use("en")


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    """The eight games' keys and records in English, on each board."""
    out = {}
    for board in ("pico", "feather_rp2040"):
        for i, game in enumerate(GAMES):
            out[board, i] = play_english(tmp_path_factory.mktemp("en"), board, game)
    return out


@pytest.mark.parametrize("board", ["pico", "feather_rp2040"])
@pytest.mark.parametrize("code", LANGUAGES)
def test_every_screen_of_the_eight_games_fits_in_each_language(tmp_path, monkeypatch, english, code, board):
    screens = Screens(monkeypatch)
    drawn = Drawn(monkeypatch)
    for i, game in enumerate(GAMES):
        keys, record = english[board, i]
        d = driver_in(tmp_path / str(i), board, code)
        assert d.app.cv.language == code and d.app.cv.font is not None
        replay_keys(d, keys)
        assert type(d.screen).__name__ == "Final", d.app.text()
        assert d.record() == record, "%s %s: the %s record differs from the English one" % (game[0], game[1], code)
        final_details(d)
    assert len(screens.texts) > 500
    problems = dict(screens.beyond)
    problems.update(drawn.problems)
    assert not problems, "\n".join("%s\n  in %r" % b for b in problems.items())
    assert not drawn.missing(lang.chosen()), "no glyph of %r in the %s font" % (drawn.missing(lang.chosen()), code)
    left = english_left(screens.texts)
    assert not left, "\n".join("%r, English on a %s screen: %r" % (w, code, t) for w, t in left.items())


@pytest.mark.parametrize("board", ["pico", "feather_rp2040"])
@pytest.mark.parametrize("code", LANGUAGES)
def test_check_a_score_and_the_settings_fit_in_each_language(tmp_path, monkeypatch, code, board):
    """Every guide script of Check a score and the Settings (the verdicts, the wall the board
    leaves to the page, About...), in `code`: the same checks as the games' screens."""
    from test_device_guide import make
    screens = Screens(monkeypatch)
    drawn = Drawn(monkeypatch)
    for device in ("check", "settings"):
        data = tmp_path / code / device / "data"
        data.mkdir(parents=True)
        (data / "settings.json").write_text(json.dumps({"language": code}), encoding="utf-8")
        for name in make.scripts(device):
            script = os.path.join(make.HERE, device, name)
            exit_code, text, err = make.run_sim(["sim", "--board", board, "--data", str(data), "--script", script])
            assert exit_code == 0, "%s: %s" % (name, err)
    assert lang.chosen() is not None and len(screens.texts) > 40
    problems = dict(screens.beyond)
    problems.update(drawn.problems)
    assert not problems, "\n".join("%s\n  in %r" % b for b in problems.items())
    assert not drawn.missing(lang.chosen()), "no glyph of %r in the %s font" % (drawn.missing(lang.chosen()), code)
    # About names the board as its file does; the Language menu names English in English
    from host_tools.sim import load_board
    kept = set(re.findall(r"[A-Za-z]{2,}", load_board(board)["name"])) | {"English"}
    left = dict((w, t) for w, t in english_left(screens.texts).items() if w not in kept)
    assert not left, "\n".join("%r, English on a %s screen: %r" % (w, code, t) for w, t in left.items())


def test_a_name_the_font_does_not_hold_is_drawn_with_the_replacement_glyph(tmp_path):
    """A player's name in another script (a record from elsewhere) draws a box a character."""
    d = driver_in(tmp_path, "pico", "zh-Hant")
    table = lang.chosen()
    font = d.app.cv.font
    before = bytes(d.display.buffer)
    font.text(d.display, "한글", 0, 52)
    box = table.g - 1
    assert table.glyph(ord("한")) == box
    assert bytes(d.display.buffer) != before
    # the box's pixels, where the two glyphs went
    cell = [[d.display.pixel(x, 52 + y) for x in range(12)] for y in range(12)]
    assert cell[1][1] and cell[1][10] and cell[10][1] and not cell[5][5], cell
