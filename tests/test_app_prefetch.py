"""Modules imported ahead (App.expect / App.prefetch, main.idle): at a main menu with no game
open, the idle frames import the new-game steps; once a game is chosen, what the later presses
would import. So no press imports a module; a game started that way plays to the end as usual; leaving the set-up
for the main menu drops what was imported ahead.

Each game runs in a bare interpreter that unloads modules as a board does (app.app's
ON_BOARD), from a main menu that holds no rules core, as on a board after boot.
"""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = r'''
import json, sys
root, data, game, mode = sys.argv[1:5]
sys.path[0:0] = [root, root + "/firmware", root + "/tests"]
import test_app_games as games
from rules_core import azul_engine, engine5211

OURS = ("app", "rules_core", "hal", "boards", "paths", "main")


def ours():
    return set(m for m in sys.modules if m.split(".")[0] in OURS)


if game == "azul":
    header, events, scores = azul_engine.random_game(2, 5, "grey")[:3]
elif game == "5211":
    header, events, scores = engine5211.random_game(4, 3, "standard")[:3]
for m in ours():  # the test's own imports gone: the App boots as on a board
    del sys.modules[m]
import app.app
app.app.ON_BOARD = True  # unload as a board does
import main

log = {"prefetched": [], "pressed": [], "idle_frames": 0}


class Driver(games.Driver):
    """Presses keys; before each, with mode "prefetch" or "leave", main.py's idle work until
    nothing is wanted. Logs what the idle work and the presses import."""

    def press(self, k, times=1):
        for _ in range(times):
            if not mode.endswith("plain"):
                while True:
                    before = ours()
                    more = main.idle(self.app)
                    log["prefetched"] += sorted(ours() - before)
                    log["idle_frames"] += 1
                    if not more:
                        break
            before = ours()
            games.Driver.press(self, k)
            log["pressed"] += sorted(ours() - before)


import pathlib
d = Driver(pathlib.Path(data))
log["boot_holds"] = sorted(m for m in ours() if m.startswith("app.") and m != "app.app")
if mode == "leave":
    d.choose("New game")
    d.choose({"azul": "Azul", "sintra": "Sintra", "garden": "Queen's", "5211": "5211"}[game])
    d.press(games.OK)  # the first variant: one idle frame's work is done before it
    d.press(games.BACK)  # back to the main menu
    log["left_to"] = type(d.screen).__name__
    log["wanted"] = list(d.app.wanted)
    log["held"] = sorted(m for m in log["prefetched"] if m in sys.modules)
elif mode.startswith("menus"):  # the main menu's History, then its Settings (mode "menus-plain": no idle work)
    d.press(games.DOWN, 2)  # (below New game and Check a score)
    d.press(games.OK)
    log["history"] = type(d.screen).__name__
    d.press(games.BACK)
    d.press(games.DOWN)
    d.press(games.OK)
    log["settings"] = d.screen.title
    log["history_held"] = "app.history" in sys.modules  # (the cursor left History: dropped)
elif mode == "resume-plain":  # a game's main menu, its History opened and left, then Resume
    d.new_game("Azul", "grey", 2)
    d.press(games.BACK)
    d.press(games.DOWN, 3)  # (below Resume, New game and Check a score)
    d.press(games.OK)
    d.press(games.BACK)
    log["hovered"] = "app.history" in sys.modules
    d.press(games.UP, 3)
    d.press(games.OK)
    log["resumed"] = type(d.screen).__name__
    log["held"] = sorted(m for m in ("app.history", "app.system", "app.setup") if m in sys.modules)
elif game == "azul":
    d.new_game("Azul", "grey", 2)
    games.play_azul(d, header, events)
    games.check_final(d, scores)
    if mode == "undo":  # from the final standings: undo, then the scoreboard's OK
        log["before_idle"] = sorted(m for m in ours() if m.startswith(("app.entr", "app.form")))
        while main.idle(d.app):  # the final standings' idle frames
            pass
        log["final_holds"] = sorted(m for m in ours() if m.startswith(("app.entr", "app.form")))
        log["pressed"] = []
        log["prefetched"] = []
        d.press(games.BACK | games.LONG)
        log["undone_to"] = type(d.screen).__name__
        d.press(games.OK)
        log["opened"] = d.screen.title
    elif mode == "file":  # the final standings' OK files the game: the main menu
        d.press(games.OK)
        log["filed_to"] = type(d.screen).__name__
        log["menu_holds"] = sorted(m for m in ours() if m.startswith(("app.entr", "app.form")))
elif game == "5211":
    d.new_game("5211", "standard", 4)
    games.play_5211(d, events, 4)
    games.check_final(d, scores)
elif game == "sintra":
    d.new_game("Sintra", "side A", 2)
    games.board_check(d, "A")  # the side's window values: a settings form saved
    for c in games.ROUND_COLOURS:
        d.choose(c)
    games.play_sintra(d, games.sintra_events())
    games.check_final(d)
else:
    d.new_game("Queen's Garden", "variant side", 2)
    games.play_garden(d, games.garden_events("variant"))
    games.check_final(d)
log["screen"] = type(d.screen).__name__
print(json.dumps(log))
'''


def run(tmp_path, game, mode):
    data = tmp_path / mode / "data"
    r = subprocess.run([sys.executable, "-c", PROBE, ROOT, str(data), game, mode], capture_output=True,
                       text=True, cwd=ROOT, timeout=600, env=dict(os.environ, PYTHONPATH=""))
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.splitlines()[-1])


@pytest.mark.parametrize("game", ["azul", "sintra", "garden", "5211"])
def test_idle_frames_import_exactly_what_the_presses_import(tmp_path, game):
    plain = run(tmp_path, game, "plain")
    ahead = run(tmp_path, game, "prefetch")
    # without idle work the presses import the new-game steps, the rules, the entry screens...
    assert {"app.setup", "rules_core.session", "app.scoreboard", "app.entry_" + game} <= set(plain["pressed"])
    # with it, the idle frames import the same modules, one per frame, and no press any
    assert sorted(ahead["prefetched"]) == sorted(plain["pressed"])
    assert len(set(ahead["prefetched"])) == len(ahead["prefetched"])
    assert ahead["pressed"] == []
    # and the game so started played to its final standings (check_final in the probe)
    assert ahead["screen"] == plain["screen"] == "Final"
    if game == "sintra":  # the board form's save: the settings writer came ahead too
        assert "app.settings" in ahead["prefetched"]


def test_leaving_the_new_game_steps_drops_what_was_imported_ahead(tmp_path):
    got = run(tmp_path, "garden", "leave")
    assert got["left_to"] == "MainMenu"
    assert "rules_core.garden" in got["prefetched"]  # imported ahead, then dropped
    assert got["held"] == [] and got["wanted"] == []


def test_final_standings_let_the_entry_screens_go_and_an_undo_imports_them_ahead(tmp_path):
    """The final standings enter nothing: their idle frames let the game's entry screens go
    (the last entry's press had them). An undo from there brings back the scoreboard, whose
    idle frames import them again, so the scoreboard's OK, which opens the entry menu, imports
    nothing; nor does the undo's press. The main menu enters nothing either: the OK that
    files the game leaves none (as boot holds none)."""
    got = run(tmp_path, "azul", "undo")
    assert "app.form" not in got["boot_holds"] and "app.ui" in got["boot_holds"]
    assert got["before_idle"] == ["app.entries", "app.entry_azul", "app.form"]
    assert got["final_holds"] == []
    assert got["undone_to"] == "Scoreboard" and got["opened"].startswith("Round ")
    assert sorted(got["prefetched"]) == ["app.entries", "app.entry_azul", "app.form"]
    assert got["pressed"] == []
    filed = run(tmp_path, "azul", "file")
    assert filed["filed_to"] == "MainMenu" and filed["menu_holds"] == []


def test_the_main_menu_imports_ahead_what_the_item_under_its_cursor_imports(tmp_path):
    """The main menu's idle frames import the modules of the item under the cursor: History's
    and Settings' presses import none (without idle frames they import them); those of an
    item the cursor left go."""
    plain = run(tmp_path, "azul", "menus-plain")
    ahead = run(tmp_path, "azul", "menus")
    assert plain["history"] == ahead["history"] == "History"
    assert plain["settings"] == ahead["settings"] == "Settings"
    assert {"app.history", "app.system"} <= set(plain["pressed"])
    assert {"app.history", "app.scoreboard", "app.system"} <= set(ahead["prefetched"])
    assert ahead["pressed"] == [] and not ahead["history_held"]


def test_resuming_a_game_from_the_main_menu_drops_the_menus_modules(tmp_path):
    got = run(tmp_path, "azul", "resume-plain")
    assert got["hovered"] and got["resumed"] == "Scoreboard" and got["held"] == []
