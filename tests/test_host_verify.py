"""`azul-companion verify WALL [--grey] [--claim N] [--json]`: the range a final wall allows
and a verdict on a claim, as text or one JSON object; a bad WALL is one line and exit 2."""
import json
import os
import subprocess
import sys

import pytest

from host_tools import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WALL = "xxxxx,.x.x.,..x..,.....,x...."   # 9 tiles, row 1 complete


def run(args, capsys):
    code = cli.main(["verify"] + args)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_object(capsys):
    """The placement range as the brute force over every legal order finds it (tests/
    test_verify.py), row 1's bonus (+2), and a claim of 3: at least 16 lost on the floor."""
    code, out, err = run([WALL, "--json", "--claim", "3"], capsys)
    assert code == 0 and err == ""
    got = json.loads(out)
    assert got == {"wall": WALL, "placement_min": 17, "placement_max": 23, "bonus": 2, "colour_bonus": 0,
                   "min": 19, "max": 25, "claim": 3, "verdict": "floor", "by": 16}


@pytest.mark.parametrize("claim,verdict", [(26, {"verdict": "impossible", "by": 1}), (25, {"verdict": "plausible"}),
                                           (19, {"verdict": "plausible"}), (18, {"verdict": "floor", "by": 1})])
def test_verdicts(capsys, claim, verdict):
    got = json.loads(run([WALL, "--json", "--claim", str(claim)], capsys)[1])
    assert {k: got[k] for k in ("verdict", "by") if k in got} == verdict


def test_grey_wall_colour_bonus_is_null(capsys):
    """On the grey wall the cells do not tell the colours: bonus holds the rows and columns,
    colour_bonus is null and the colours' range widens min and max (a diagonal may be one
    colour, +10, or not)."""
    got = json.loads(run([WALL, "--grey", "--json"], capsys)[1])
    assert got["colour_bonus"] is None and got["colour_bonus_range"] == [0, 0] and got["bonus"] == 2
    got = json.loads(run(["x....,.x...,..x..,...x.,....x", "--grey", "--json"], capsys)[1])
    assert got["colour_bonus_range"] == [0, 10] and (got["min"], got["max"]) == (5, 15)


def test_text(capsys):
    code, out, err = run([WALL, "--claim", "30"], capsys)
    assert code == 0 and out.splitlines() == [
        "wall xxxxx,.x.x.,..x..,.....,x....: 9 tiles", "placement points 17..23", "bonus +2 (colours +0)",
        "score 19..25", "claim 30: impossible: 5 more than the most"]


@pytest.mark.parametrize("wall,words", [
    ("xxxxx,.x.x.", "a wall is 5 rows of 5 separated by commas (x a tile, . empty), got 2 rows"),
    ("xxxxx,.x.x.,..x..,.....,x..", "row 5 has 3 cells, not 5: 'x..'"),
    ("xxxxx,.x.x.,..#..,.....,x....", "row 3, column 3 is '#': x is a tile, . an empty cell"),
])
def test_a_bad_wall_is_one_line_and_exit_2(wall, words):
    r = subprocess.run([sys.executable, "-m", "host_tools", "verify", wall], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "azul-companion verify: WALL: %s\n" % words
