"""`azul-companion sim --script` plays a whole game of each title to the final standings.

The scripts are the presses the Driver makes in test_app_games, written in the --script
syntax and run in a subprocess, as a user would from the command line.
"""
import json
import os
import subprocess
import sys

import pytest

import test_app_games as games
from host_tools import sim
from hal.keys import NAMES, CODE_MASK, LONG, REPEAT
from rules_core.session import replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def script_of(keys):
    out = []
    for k in keys:
        if k is None:
            out.append("wait")
            continue
        tok = NAMES[k & CODE_MASK]
        if k & LONG:
            tok += ":long"
        if k & REPEAT:
            tok += ":repeat"
        out.append(tok)
    return " ".join(out)


def run_sim(args):
    return subprocess.run([sys.executable, "-m", "host_tools", "sim"] + args, cwd=ROOT,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)


def azul(d):
    from rules_core import azul_engine
    header, events = azul_engine.random_game(2, 7, "colored")[:2]
    d.new_game("Azul", "coloured", 2)
    games.play_azul(d, header, events)


def sintra(d):
    d.new_game("Sintra", "side B", 2)
    games.board_check(d, "B")
    for c in games.ROUND_COLOURS:
        d.choose(c)
    games.play_sintra(d, games.sintra_events())


def garden(d):
    d.new_game("Queen's Garden", "standard", 2)
    games.play_garden(d, games.garden_events("standard"))


def five(d):
    from rules_core import game5211_engine
    header, events = game5211_engine.random_game(2, 4, "standard")[:2]
    d.new_game("5211", "standard", 2)
    games.play_5211(d, events, 2)


@pytest.mark.parametrize("play", [azul, sintra, garden, five], ids=["azul", "sintra", "garden", "5211"])
def test_sim_script_plays_a_full_game(tmp_path, play):
    d = games.Driver(tmp_path / "driver")
    play(d)
    script = tmp_path / "game.keys"
    script.write_text("# made by test_app_sim\n" + script_of(d.keys) + "\n")
    data = tmp_path / "sim-data"
    png = tmp_path / "final.png"
    r = run_sim(["--script", str(script), "--data", str(data), "--screenshot", str(png)])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].endswith(" final"), r.stdout
    with open(data / "current.jsonl") as f:
        s = replay(f.read())[0]
    assert s.finished and s.scores == d.app.session.scores
    assert "won: " + ", ".join(s.players[p] for p in s.winners()) in lines
    from PIL import Image
    assert Image.open(png).size[0] >= 512


def test_sim_script_sintra_board_check_takes_every_window_value(tmp_path):
    """A Sintra game in `sim --script`: OK alone, 60 times, never passes the first game's
    board check (no record, no settings); the values set one by one reach options.board and
    the score (第三步 3c, side A 3 1 4 1 5 2 6 2: window 5 scores 5, then window 2 scores
    1 + 5 = 6: 11; the placeholder table would give 1 + 3 = 4)."""
    d = games.Driver(tmp_path / "driver")
    d.new_game("Sintra", "side A", 2)
    script = tmp_path / "ok.keys"
    script.write_text(script_of(d.keys) + " OK*60\n")
    r = run_sim(["--script", str(script), "--data", str(tmp_path / "ok")])
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[:3] == ["A windows L to R", "win 1 ?", "win 2 ?"], r.stdout
    assert sorted(os.listdir(tmp_path / "ok")) == ["history"]  # (made at boot, empty)
    assert os.listdir(tmp_path / "ok" / "history") == []
    games.board_check(d, "A")
    for c in games.ROUND_COLOURS:
        d.choose(c)
    games.play_sintra(d, [{"e": "window", "p": 0, "col": col, "keep": "orange", "bonus": 0} for col in (5, 2)])
    script.write_text(script_of(d.keys) + "\n")
    data = tmp_path / "sim-data"
    r = run_sim(["--script", str(script), "--data", str(data)])
    assert r.returncode == 0, r.stderr
    with open(data / "current.jsonl") as f:
        record = f.read()
    assert json.loads(record.splitlines()[0])["options"]["board"]["windows"] == [3, 1, 4, 1, 5, 2, 6, 2]
    assert replay(record)[0].scores == [11, 0]
    assert "1 Red      11 S" in r.stdout.splitlines()


def test_script_syntax():
    assert sim.parse_script("DOWN*2 ok back:long, DDRO wait # comment\nZ") == [
        2, 2, 5, 6 | LONG, 2, 2, 4, 5, None, 6 | LONG]
    with pytest.raises(sim.SimError):
        sim.parse_script("JUMP")


def test_sim_without_terminal_or_script_says_so_in_one_line(tmp_path):
    r = run_sim(["--data", str(tmp_path)])
    assert r.returncode == 1
    assert r.stderr.strip().count("\n") == 0 and "not a terminal" in r.stderr


def test_sim_unknown_board_is_one_line(tmp_path):
    r = run_sim(["--board", "nano", "--script", "OK", "--data", str(tmp_path)])
    assert r.returncode == 1 and "unknown board" in r.stderr and r.stderr.strip().count("\n") == 0


# (--script argument or file bytes, start of the one stderr line after "azul-companion sim: ")
BAD_SCRIPTS = [
    ("OK*999999999999", "too many presses at 'OK*999999999999': a script holds at most 20000"),
    ("DOWN*30000000", "too many presses at 'DOWN*30000000'"),
    ("OK*10000 DOWN*10001", "too many presses at 'DOWN*10001'"),  # the bound is on the total
    ("OK*\u00b2", "bad repeat count in 'OK*\u00b2'"),  # superscript two: str.isdigit() says yes
    ("OK*0", "bad repeat count in 'OK*0'"),
    (b"OK\nDOWN \xff\xfe\n", "script {file} is not UTF-8 text (byte 0xff at offset 8)"),
    (b"OK\n# fine\nDOWN JUMP\n", "unknown key 'JUMP' ({file} line 3)"),
    (b"OK\nDOWN*99999\n", "too many presses at 'DOWN*99999' ({file} line 2)"),
]


@pytest.mark.parametrize("script,start", BAD_SCRIPTS, ids=[repr(s)[:30] for s, _ in BAD_SCRIPTS])
def test_bad_script_is_one_line_before_any_press(tmp_path, script, start):
    if isinstance(script, bytes):
        path = tmp_path / "keys.txt"
        path.write_bytes(script)
        script = str(path)
    r = run_sim(["--script", script, "--data", str(tmp_path / "data")])
    assert r.returncode == 1 and r.stdout == "" and "Traceback" not in r.stderr
    assert r.stderr.startswith("azul-companion sim: " + start.format(file=tmp_path / "keys.txt")), r.stderr
    assert r.stderr.count("\n") == 1 and r.stderr.endswith("\n"), r.stderr
    assert not (tmp_path / "data").exists()  # nothing ran, no record started


def test_screenshot_must_be_named_png(tmp_path):
    out = tmp_path / "out"
    r = run_sim(["--script", "OK", "--data", str(tmp_path / "data"), "--screenshot", str(out)])
    assert r.returncode == 1 and r.stdout == "" and r.stderr.count("\n") == 1
    assert r.stderr.startswith("azul-companion sim: --screenshot %s: the picture is a PNG" % out)
    assert not out.exists() and not (tmp_path / "data").exists()


def test_script_bound_counts_presses_before_expanding():
    with pytest.raises(sim.SimError, match="too many presses"):
        sim.parse_script("OK*999999999999999999999999999999999999")
    assert len(sim.parse_script("DOWN*%d" % sim.MAX_PRESSES)) == sim.MAX_PRESSES
    assert sim.parse_script("DDR*2") == [2, 2, 4, 2, 2, 4]  # a letter run repeats as a whole


def test_screenshots_of_the_dimmed_and_the_dark_display(tmp_path):
    """Two minutes without a key dim the display (drawn grey), ten darken it (drawn empty)
    and leave one LED blinking (the default Settings > Display times)."""
    from PIL import Image
    shots = {}
    for name, script in (("lit", "DOWN"), ("dimmed", "DOWN wait*60"), ("dark", "DOWN wait*300")):
        path = tmp_path / (name + ".png")
        r = run_sim(["--data", str(tmp_path / name), "--script", script, "--screenshot", str(path)])
        assert r.returncode == 0, r.stderr
        shots[name] = Image.open(path).convert("RGB")
        state = [line for line in r.stdout.splitlines() if line.startswith("[display")]
        assert state == ([] if name == "lit" else ["[display %s]" % name])
    lcd = (0, 0, 128 * 4, 64 * 4)
    colours = dict((n, set(c for _, c in img.crop(lcd).getcolors(1 << 16))) for n, img in shots.items())
    glass = (20, 20, 20)
    assert colours["lit"] == {glass, (230, 240, 255)}
    assert colours["dimmed"] == {glass, (110, 115, 122)}
    assert colours["dark"] == {glass}
    # the same picture lit and dimmed: the pixels that are not glass are the same ones
    def lit_mask(img):
        return img.crop(lcd).convert("L").point(lambda v: 255 if v > 20 else 0).tobytes()
    assert lit_mask(shots["lit"]) == lit_mask(shots["dimmed"])


def test_keep_message_keeps_the_last_message_in_the_picture(tmp_path):
    """Without --keep-message a message the last press brought up times out before the text
    and the picture are taken; with it, both show the message (the device guide's pictures)."""
    from PIL import Image
    plain = run_sim(["--script", "BACK:long", "--data", str(tmp_path / "a"), "--screenshot", str(tmp_path / "a.png")])
    kept = run_sim(["--script", "BACK:long", "--data", str(tmp_path / "b"), "--keep-message",
                    "--screenshot", str(tmp_path / "b.png")])
    assert "nothing to undo" not in plain.stdout and "nothing to undo" in kept.stdout, kept.stderr
    a, b = Image.open(tmp_path / "a.png"), Image.open(tmp_path / "b.png")
    assert a.mode == b.mode == "P"  # a palette picture: a few colours, small
    assert a.convert("RGB").tobytes() != b.convert("RGB").tobytes()
