"""The host never hurts the terminal or a file: every command run as a user runs it.

A name a record holds is printed with its control and bidirectional characters escaped (an
ESC]0;...BEL would set the terminal's title, ESC[2J clear it, U+202E turn the line around);
one that is not valid text (a lone surrogate) shows as U+FFFD, on the screen too. An --out
never replaces a file unless --force; a --port that is an option and a --data that is a
file are refused with one line.
"""
import json
import os
import subprocess
import sys

import pytest

from rules_core.record import dumps
from rules_core.session import new_header

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
FLIP = "\u202e"
NAMES = ["Ann" + TITLE, "Ben" + CLEAR + FLIP]


def cli(*args, cwd=ROOT):
    r = subprocess.run([sys.executable, "-m", "host_tools"] + list(args), capture_output=True, cwd=cwd,
                       timeout=120)
    return r.returncode, r.stdout.decode("utf-8"), r.stderr.decode("utf-8")


def record(tmp_path, players, name="game.jsonl"):
    header = new_header("azul", "colored", players, {})
    events = [{"e": "wall", "p": 0, "tiles": [[1, "blue"]], "floor": 1}]
    path = tmp_path / name
    path.write_text("".join(dumps(x) + "\n" for x in [header] + events), encoding="utf-8")
    return str(path)


def assert_harmless(text):
    assert "\x1b" not in text and "\x07" not in text and FLIP not in text, repr(text)


def test_replay_export_and_sim_print_names_escaped(tmp_path):
    path = record(tmp_path, NAMES)
    code, out, err = cli("replay", path)
    assert code == 0, err
    assert_harmless(out)
    assert "Ann\\x1b]0;pwned\\x07" in out and "Ben\\x1b[2J\\u202e" in out
    for fmt in ("csv", "html", "bgstats"):
        code, out, err = cli("export", path, "--to", fmt)
        assert code == 0, err
        assert_harmless(out)
    data = tmp_path / "data"
    data.mkdir()
    os.replace(path, data / "current.jsonl")
    code, out, err = cli("sim", "--data", str(data), "--script", "wait")
    assert code == 0, err
    assert_harmless(out)
    assert "1 Ann\\x1b]0;   0" in out  # the row as the screen has it, cut to 7 characters


def test_an_error_naming_a_path_is_escaped_too(tmp_path):
    code, out, err = cli("replay", str(tmp_path / ("missing" + CLEAR + ".jsonl")))
    assert code == 1 and "missing\\x1b[2J.jsonl" in err
    assert_harmless(err)


def test_a_name_that_is_not_valid_text_is_drawn_as_u_fffd(tmp_path):
    """A lone surrogate (another tool's "\\ud800" escape): the simulator starts on the game
    (it crashed at every start), shows U+FFFD, and draws the name as it draws "A\ufffdn"."""
    from host_tools import sim
    shown = {}
    for key, name in (("lone", "A\ud800n"), ("fffd", "A\ufffdn")):
        data = tmp_path / key
        data.mkdir()
        record(data, [name, "Ben"], "current.jsonl")
        code, out, err = cli("sim", "--data", str(data), "--script", "wait")
        assert code == 0, err
        assert out.splitlines()[1].startswith("1 A\ufffdn ")
        app, display, leds, clock = sim.build("pico", str(data))
        shown[key] = bytes(display.buffer)
    assert shown["lone"] == shown["fffd"]


def test_export_and_simulate_never_replace_a_file_unless_forced(tmp_path):
    path = record(tmp_path, ["Ann", "Ben"])
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("an unrelated spreadsheet\n")
    code, out, err = cli("export", path, "--to", "csv", "--out", str(sheet))
    assert code == 1 and err.strip() == "azul-companion export: %s exists: give --force to replace it" % sheet
    assert sheet.read_text() == "an unrelated spreadsheet\n"
    code, out, err = cli("export", path, "--to", "csv", "--out", str(sheet), "--force")
    assert code == 0 and sheet.read_text().startswith("file,game")

    code, out, err = cli("simulate", "--game", "azul", "--players", "2", "--out", str(sheet))
    assert code == 1 and "exists: give --force" in err and sheet.read_text().startswith("file,game")
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "azul_2p_2.jsonl").write_text("mine\n")
    code, out, err = cli("simulate", "--game", "azul", "--players", "2", "--games", "3", "--out-dir", str(folder))
    assert code == 1 and "azul_2p_2.jsonl exists" in err
    assert os.listdir(folder) == ["azul_2p_2.jsonl"]  # none written: the check comes first
    code, out, err = cli("simulate", "--game", "azul", "--players", "2", "--games", "3", "--out-dir", str(folder),
                         "--force")
    assert code == 0 and sorted(os.listdir(folder)) == ["azul_2p_%d.jsonl" % k for k in (1, 2, 3)]
    assert json.loads((folder / "azul_2p_2.jsonl").read_text().splitlines()[0])["game"] == "azul"


@pytest.mark.parametrize("command", [["flash", "--dry-run"], ["pull"]])
def test_a_port_that_is_an_option_is_refused(command):
    code, out, err = cli(*command, "--port=--help")
    assert code == 1 and out == ""
    assert err.strip() == ("azul-companion %s: --port --help is not a port: auto, a serial port "
                           "(/dev/ttyACM0, COM3) or socket://HOST:PORT" % command[0])


def test_sim_data_that_is_a_file_is_not_a_folder(tmp_path):
    path = record(tmp_path, ["Ann", "Ben"])
    code, out, err = cli("sim", "--data", path, "--script", "OK")
    assert code == 1 and out == ""
    assert "--data %s is not a folder" % path in err and len(err.strip().splitlines()) == 1
