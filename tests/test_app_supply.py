"""The device refuses an entry no table could produce with the rules' own words, before its
line is on flash: Records.add runs the rules (Session.trial) first. Each game is resumed
from a record written by hand (tests/core/test_supply.py has the same records replayed)."""
import json
import os

import pytest

from app.ui import wrap
from hal.keys import RIGHT, OK
from test_app_games import Driver, NAMES
from app import play


def resumed(tmp_path, game, variant, n, events, options=None):
    """A Driver powered on over a record of `events` ("e": end_round) on its flash."""
    data = tmp_path / "data"
    data.mkdir()
    lines = [{"format": "azul-companion-record", "v": 1, "game": game, "variant": variant,
              "players": NAMES[:n], "options": options or {}}]
    lines += [{"e": "end_round"} if e == "e" else e for e in events]
    (data / "current.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    d = Driver(tmp_path)
    assert type(d.screen).__name__ == "Scoreboard", d.app.text()
    return d


def refused(d, ev, words):
    """ev is refused with `words` on the screen, and the record on flash is as it was."""
    before = d.record()
    entered = d.app.entered
    assert not play.enter(d.app, ev)
    assert d.app.message == wrap(words, 16, 7) and d.app.flashing(d.app.now)
    assert d.record() == before and d.app.entered == entered


def test_azul_wall_form_refuses_a_floor_beyond_the_round_tiles(tmp_path):
    """Round 1, 2 players (20 tiles): Red completed rows 1..5 with 3 on the floor; Blue's row
    2 and the marker fill the round, so Blue's floor stops at 1: RIGHT on it skips 2..7 and
    says why in two rows, and the entry itself is refused in the rules' words."""
    red = {"e": "wall", "p": 0, "floor": 3,
           "tiles": [[1, "blue"], [2, "yellow"], [3, "red"], [4, "black"], [5, "white"]]}
    d = resumed(tmp_path, "azul", "colored", 2, [red])
    words = ("round 1 brings out at most 20 tiles (5 factories of 4): the lines completed and floors "
             "entered need 21 and the marker")
    d.entry("Wall Blue")
    d.set("R2", "yellow")
    d.set("floor", 1)
    d.press(RIGHT)  # 2..7 skipped: back to 0
    assert d.screen.fields[5].value() == 0
    assert d.app.message == ["floor 2: 20", "tiles a round"]
    d.press(OK)  # (the message read)
    refused(d, {"e": "wall", "p": 1, "tiles": [[2, "yellow"]], "floor": 2}, words)


def test_sintra_a_fifth_strip_in_round_one_is_refused(tmp_path):
    """Round I, 2 players: four strips completed took all 20 panes of the 5 factories."""
    wins = [{"e": "window", "p": p, "col": c, "keep": "blue", "bonus": 0} for p in (0, 1) for c in (1, 2)]
    d = resumed(tmp_path, "sintra", "A", 2, wins, {"round_colors": ["pink", "orange", "yellow", "green", "blue", "pink"]})
    refused(d, {"e": "window", "p": 0, "col": 3, "keep": "blue", "bonus": 0},
            "round 1 brings out at most 20 panes (5 factories of 4): the strips completed and glass broken need 25")
    refused(d, {"e": "broken", "p": 1, "n": 1},
            "round 1 brings out at most 20 panes (5 factories of 4): the strips completed and glass broken need 21")


def test_garden_offers_no_37th_buy(tmp_path):
    """36 expansions: once they are all bought, the entries offer no Buy and the entry is refused."""
    events = []
    for rnd, buys in ((1, 2), (2, 33), (3, 1)):
        events += [{"e": "buy", "p": 0}] * buys
        events += [{"e": "pass", "p": 1}, {"e": "pass", "p": 0},
                   {"e": "round_score", "p": 1, "matches": [0, 0, 0], "pillars": 0},
                   {"e": "round_score", "p": 0, "matches": [54, 54, 54], "pillars": 36}, "e"]
    d = resumed(tmp_path, "garden", "standard", 2, events)
    assert d.app.session.scores[0] >= 6
    d.press(OK)
    assert not [r for r in d.screen.rows() if r.startswith("Buy")], d.screen.rows()
    refused(d, {"e": "buy", "p": 0}, "all 36 expansions are bought")


@pytest.mark.parametrize("bad", ["track", "ornaments"])
def test_a_sintra_board_the_settings_refuse_is_refused_in_a_record(tmp_path, bad):
    """One check: a board value the device's settings would not take (app.settings.sintra_problem)
    makes a record refused with the same words: at power-on it is kept aside untouched and
    the log says why."""
    from app.settings import sintra_problem
    value = {"track": [0, -1, -18], "ornaments": [[1, 2], [3, 4]]}[bad]
    problem = sintra_problem("sintra_" + bad, value)  # (format, values: app.lang translates it)
    words = problem[0] % problem[1:]
    assert words in ("track: 13 spaces 0 .. -18", "ornaments: 4 window pairs")
    data = tmp_path / "data"
    data.mkdir()
    header = {"format": "azul-companion-record", "v": 1, "game": "sintra", "variant": "A", "players": NAMES[:2],
              "options": {"round_colors": ["pink", "orange", "yellow", "green", "blue", "pink"], "board": {bad: value}}}
    (data / "current.jsonl").write_text(json.dumps(header) + "\n")
    d = Driver(tmp_path)
    assert d.app.session is None
    assert d.app.message == ["bad record kept", "as damaged-1"]
    with open(os.path.join(d.data, "errors.log")) as f:
        assert "RecordError: line 1: options.board %s, got %s\n" % (words, json.dumps(value)) in f.read()
    with open(os.path.join(d.data, "damaged-1.jsonl")) as f:
        assert json.loads(f.read()) == header
