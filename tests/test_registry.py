"""The games registry (rules_core.games.GAMES): every game's modules exist and agree with its
entry, and a new game is one registry entry, a rules module and an entry-screen module
(docs/ARCHITECTURE.md, "Adding a game"): a throwaway sixth game, registered only here, is
played through the App from the main menu to its final standings.
"""
import glob
import importlib
import json
import os
import sys
import textwrap

import pytest

from rules_core import RecordError
from rules_core.games import GAMES, Game, Rules, game
from rules_core.session import replay, rules_class


@pytest.mark.parametrize("g", GAMES, ids=lambda g: g.key)
def test_each_games_modules_exist_and_agree_with_its_entry(g):
    cls = rules_class(g)
    assert issubclass(cls, Rules) and cls.GAME == g.key
    assert game(g.key) is g and len(g.variants) == len(g.labels) and g.players[0] <= g.players[1]
    for variant in g.variants:
        for n in range(g.players[0], g.players[1] + 1):
            assert g.check(variant, n) == variant
    with pytest.raises(RecordError):
        g.check(g.variants[0], g.players[1] + 1)
    golden = [path for path in glob.glob(os.path.join(os.path.dirname(__file__), "golden", "*.jsonl"))
              if json.loads(open(path).readline())["game"] == g.key]
    for path in golden:  # its golden records replay with its rules class
        s = replay(open(path, encoding="utf-8").read())[0]
        assert s.info is g and type(s.rules) is cls
    screens = importlib.import_module(g.screens)
    assert callable(screens.actions) and type(screens.WORDS) is dict  # (no event name on screen)
    steps = getattr(screens, "STEPS", ())
    assert set(steps) <= set(g.variants) and (not steps or callable(screens.options))
    assert not g.settings or callable(screens.settings)
    assert len(g.short) <= 8 and g.name and g.title
    if g.engine:  # its random games are records every reader takes
        header, events = importlib.import_module(g.engine).random_game(g.players[0], 1, g.variants[-1])[:2]
        from rules_core.record import dumps
        s = replay("".join(dumps(x) + "\n" for x in [header] + list(events)))[0]
        assert s.game == g.key and s.finished


def test_the_host_tools_ask_the_registry():
    """simulate offers the games with an engine; exports name each game by its box title."""
    from host_tools import cli, export
    import argparse
    p = argparse.ArgumentParser(prog="azul-companion simulate")
    cli.add_arguments(p)
    choices = [a for a in p._actions if a.dest == "game"][0].choices
    assert choices == [g.key for g in GAMES if g.engine] == ["azul", "5211"]
    assert "game(key).title" in open(export.__file__).read()


RULES = '''
    """A throwaway game for the registry test: each player enters the coins they hold, one
    round; the most coins wins."""
    from rules_core import RecordError, RuleError
    from rules_core.games import Rules, int_field


    class CoinRules(Rules):
        GAME = "coins"

        def __init__(self, variant, nplayers, options):
            Rules.__init__(self, variant, nplayers, options)
            self.rounds_total = 1
            self.entered = [False] * nplayers

        def apply(self, ev):
            e = ev.get("e")
            if e == "coins":
                p = self.player_field(ev)
                n = int_field(ev, "n", 0, 9)
                if self.entered[p]:
                    raise RuleError("coins entered already")
                self.entered[p] = True
                self.scores[p] += n
            elif e == "end_round":
                if self.pending():
                    raise RuleError("coins to enter first")
                self.round_scores.append(list(self.scores))
                self.finished = True
            else:
                raise RecordError("no event %r in coins" % (e,))

        def pending(self):
            return [("coins", p) for p in range(self.nplayers) if not self.entered[p]]

        def breakdown(self, p):
            return {"coins": self.scores[p], "total": self.scores[p]}
'''

SCREENS = '''
    """The throwaway game's entry screens: a form per player."""
    from app.form import Form, Opens, count_field

    WORDS = {"coins": "Coins"}


    def actions(app):
        s = app.session
        return [("Coins %s" % s.players[p], _form(app, p)) for _, p in s.pending()]


    def _form(app, p):
        return Opens(app, lambda: Form(app, "Coins", [count_field("coins", 0, 9)],
                                       build=lambda v: {"e": "coins", "p": p, "n": v[0]}))
'''


@pytest.fixture
def sixth_game(tmp_path, monkeypatch):
    """The throwaway game: its two modules in a folder on the path, its entry in GAMES."""
    (tmp_path / "coin_rules.py").write_text(textwrap.dedent(RULES))
    (tmp_path / "coin_screens.py").write_text(textwrap.dedent(SCREENS))
    monkeypatch.syspath_prepend(str(tmp_path))
    g = Game("coins", "Coins", "Coins", "Coins", ("standard",), ("standard",), (2, 3), True,
             "coin_rules.CoinRules", "coin_screens")
    GAMES.append(g)
    yield g
    GAMES.remove(g)
    for name in ("coin_rules", "coin_screens"):
        sys.modules.pop(name, None)


def test_a_sixth_game_is_one_entry_and_two_modules_and_plays_in_the_app(sixth_game, tmp_path):
    from test_app_games import Driver
    from hal.keys import OK
    test_each_games_modules_exist_and_agree_with_its_entry(sixth_game)
    d = Driver(tmp_path / "device")
    d.new_game("Coins", "standard", 2)
    assert d.screen.title == "Coins R1/1 LAST" and d.app.text()[-1] == "Coins Red"
    for name, coins in (("Red", 3), ("Blue", 7)):
        d.entry("Coins " + name)
        d.set("coins", coins)
        d.save()
    d.entry("End round")
    d.press(OK)
    assert type(d.screen).__name__ == "Final" and "won: Blue" in d.rows()
    s = replay(d.record())[0]
    assert s.game == "coins" and s.scores == [3, 7] and s.winners() == [1]
    d.press(OK)  # filed: the History names it as every game
    d.choose("History")
    assert d.rows() == ["won Blue 7", "#1 Coins Red Blue"]
    assert os.path.exists(os.path.join(d.data, "history", "000001.jsonl"))
