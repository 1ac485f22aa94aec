"""The device App on the real MicroPython unix port, from the .mpy files `flash` would copy
(tests/mp_app.py): complete games of all eight variants, a game of each title with the main
loop's idle frames between keys, and the no-allocation rule.

The key presses come from the CPython app tests (tests/test_app_games.py): their Driver
plays a game on CPython and keeps every key it pressed; the same keys are then pressed on
MicroPython. The record MicroPython writes must be byte-identical to CPython's and replay
(rules_core.session.replay on CPython) to the scores the device shows.
"""
import pytest

import mp_app
import test_app_games as games
from hal.keys import DOWN
from host_tools import sim
from rules_core import azul_engine, game5211_engine
from rules_core.session import replay

# The heap the games must fit in, the harness included: below a Pico's (about 241 KB free at
# boot on MicroPython 1.28), on a 64-bit port whose objects are larger than the Pico's. The
# plain run of Sintra A (no idle frames to tidy in) is the tightest; the device's own figures
# are bench/pico.py's.
HEAP = "208K"


def azul_game(tmp_path, variant, label, n, seed):
    header, events, scores = azul_engine.random_game(n, seed, variant)[:3]
    d = games.Driver(tmp_path)
    d.new_game("Azul", label, n)
    games.play_azul(d, header, events)
    assert d.app.session.scores == scores
    return d


def game_5211(tmp_path, variant, label, n, seed):
    header, events, scores = game5211_engine.random_game(n, seed, variant)[:3]
    d = games.Driver(tmp_path)
    d.new_game("5211", label, n)
    games.play_5211(d, events, n)
    assert d.app.session.scores == scores
    return d


def sintra_game(tmp_path, side):
    d = games.Driver(tmp_path)
    d.new_game("Sintra", "side " + side, 2)
    games.board_check(d, side)
    for c in games.ROUND_COLOURS:
        d.choose(c)
    games.play_sintra(d, games.sintra_events())
    return d


def garden_game(tmp_path, variant, label):
    d = games.Driver(tmp_path)
    d.new_game("Queen's Garden", label, 2)
    games.play_garden(d, games.garden_events(variant))
    return d


VARIANTS = {
    "azul colored": lambda t: azul_game(t, "colored", "coloured", 3, 11),
    "azul grey": lambda t: azul_game(t, "grey", "grey", 2, 5),
    "sintra A": lambda t: sintra_game(t, "A"),
    "sintra B": lambda t: sintra_game(t, "B"),
    "garden standard": lambda t: garden_game(t, "standard", "standard"),
    "garden variant": lambda t: garden_game(t, "variant", "variant side"),
    "5211 standard": lambda t: game_5211(t, "standard", "standard", 4, 3),
    "5211 long": lambda t: game_5211(t, "long", "long", 3, 1),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_complete_game_on_micropython_scores_as_cpython_replay(tmp_path, name):
    cpython = VARIANTS[name](tmp_path / "cpython")
    assert type(cpython.screen).__name__ == "Final"
    r = mp_app.run_app_on_micropython(cpython.keys, heap=HEAP, data_dir=str(tmp_path / "mp"), lock=True)
    assert r["errors"] == [], r["errors"]
    assert r["screen"] == "Final" and r["finished"]
    with open(r["record"], encoding="utf-8") as f:
        record = f.read()
    assert record == cpython.record()
    session, warnings = replay(record)
    result = session.result()
    assert not warnings and result["finished"]
    assert r["scores"] == result["scores"] == cpython.app.session.scores
    # the final standings as drawn: "rank name score" rows, then the winners
    for rank, p in session.standings():
        assert "%d %-7s%4d" % (rank, session.players[p][:7], result["scores"][p]) in r["text"]
    assert "won: " + ", ".join(session.players[p] for p in result["winners"]) in r["text"]
    # the final screen's idle frames (LED chase), an LED rewrite and a redraw allocate nothing
    assert r["lock"] == {"idle": "ok", "leds": "ok", "redraw": "ok"}
    h = r["heap"]
    print("%-16s peak heap %6d bytes (live max %d, after boot %d, heap %d), %d presses"
          % (name, h["peak"], h["live_max"], h["boot"], h["total"], len(cpython.keys)))


@pytest.mark.parametrize("name", ["azul colored", "sintra A", "garden standard", "5211 standard"])
def test_a_game_with_the_main_loops_idle_frames_between_keys_ends_as_one_without(tmp_path, name):
    """The work made ahead in idle frames (modules imported, entries checked and their
    screens made and drawn, undos folded: main.py's loop between keys) on the real
    MicroPython: the game ends on the same screen with the same record as without it."""
    keys = VARIANTS[name](tmp_path / "cpython").keys
    plain = mp_app.run_app_on_micropython(keys, heap=HEAP, data_dir=str(tmp_path / "plain"), measure_heap=False)
    idle = mp_app.run_app_on_micropython(keys, heap=HEAP, data_dir=str(tmp_path / "idle"), measure_heap=False,
                                         idle=True)
    assert plain["errors"] == idle["errors"] == []
    assert idle["drawn_ahead"] > 0  # presses that showed the screen made ahead, drawn ahead
    for k in ("screen", "text", "scores", "finished"):
        assert idle[k] == plain[k], k
    with open(plain["record"], "rb") as a, open(idle["record"], "rb") as b:
        assert a.read() == b.read()
    print("%-16s with idle frames: live max %d (the work made ahead held); %d frames with work ahead,"
          " %d of %d presses showed a frame drawn ahead" % (name, idle["live_ahead"], idle["prepare"],
                                                            idle["drawn_ahead"], len(keys)))


def form_scripts(tmp_path):
    """Keys that open each kind of screen, from the CPython Driver."""
    out = {"main menu": []}
    d = games.Driver(tmp_path / "azul")
    d.new_game("Azul", "coloured", 2)
    out["scoreboard"] = list(d.keys)
    d.entry("Wall Red")
    d.set("R1", "blue")
    out["azul wall form"] = list(d.keys)
    d = games.Driver(tmp_path / "5211")
    d.new_game("5211", "standard", 3)
    d.entry("Reveal Red")
    d.press(DOWN)
    out["5211 card form"] = list(d.keys)
    d = games.Driver(tmp_path / "sintra")
    d.new_game("Sintra", "side A", 2)
    games.board_check(d, "A")
    for c in games.ROUND_COLOURS:
        d.choose(c)
    d.entry("Window Red")
    out["sintra window form"] = list(d.keys)
    d = games.Driver(tmp_path / "garden")
    d.new_game("Queen's Garden", "standard", 2)
    d.entry("Pass Red")
    d.set("value 2 x", 1)
    out["garden pass form"] = list(d.keys)
    return out


def test_idle_frames_led_refresh_and_redraw_allocate_nothing(tmp_path):
    """House rule: no allocation in the draw/LED loop. Under micropython.heap_lock(), after
    the first frame of each screen: 50 idle App.step(now, None), a rewrite of every LED
    (and the red flash of a refused input), and three redraws of the unchanged screen."""
    for name, keys in sorted(form_scripts(tmp_path).items()):
        r = mp_app.run_app_on_micropython(keys, heap=HEAP, data_dir=str(tmp_path / "mp" / name), lock=True)
        assert r["errors"] == [], (name, r["errors"])
        assert r["lock"] == {"idle": "ok", "leds": "ok", "redraw": "ok"}, (name, r["lock"], r["text"])
        print("%-20s %s  peak heap %d" % (name, r["screen"], r["heap"]["peak"]))


def test_script_text_drives_the_app_as_the_simulator_does(tmp_path):
    """A `sim --script` text: New game, Azul, coloured, 2 players, Red, Blue, start player
    Red (OK on each first item) gives the same screen and record as `azul-companion sim`."""
    script = "OK*7"
    r = mp_app.run_app_on_micropython(script, heap=HEAP, data_dir=str(tmp_path / "mp"))
    app, _, _, clock = sim.build("pico", str(tmp_path / "cpython"))
    sim.run_script(app, clock, sim.parse_script(script))
    assert r["screen"] == "Scoreboard" and r["players"] == ["Red", "Blue"] and r["scores"] == [0, 0]
    assert r["text"] == app.text() == ["Azul R1", "1 Red       0 S!", "1 Blue      0 !", "S=starts !=to do",
                                          "Wall Red"]
    with open(r["record"], encoding="utf-8") as f:
        session, _ = replay(f.read())
    assert session.players == ["Red", "Blue"] and session.scores == [0, 0]


def test_a_game_in_chinese_on_micropython_leaves_the_english_record(tmp_path):
    """A 2-player Azul game played in 繁體中文 on the unix port, its table read a piece at a
    time from app/lang_zh_hant.bin as on a board: the record is byte for byte the one the
    English game leaves on CPython (records never depend on the language)."""
    import json
    english = azul_game(tmp_path / "cpython", "colored", "coloured", 2, 7)
    data = tmp_path / "mp"
    (data / "data").mkdir(parents=True)
    (data / "data" / "settings.json").write_text(json.dumps({"language": "zh-Hant"}))
    r = mp_app.run_app_on_micropython(english.keys, heap=HEAP, data_dir=str(data), lock=True)
    assert r["errors"] == [], r["errors"]
    assert r["screen"] == "Final" and r["text"][0] == "花磚密語 結束"
    with open(r["record"], encoding="utf-8") as f:
        assert f.read() == english.record()
    assert r["lock"] == {"idle": "ok", "leds": "ok", "redraw": "ok"}
