"""`azul-companion simulate` never writes something `replay` or `export` cannot read: one
record per file (docs/RECORD_FORMAT.md), several games only into a folder (--out-dir)."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), capture_output=True,
                          text=True, cwd=str(cwd), timeout=300, stdin=subprocess.DEVNULL)


def test_several_games_go_to_a_folder_one_readable_record_each(tmp_path):
    out = tmp_path / "games"
    r = cli("simulate", "--game", "5211", "--players", "3", "--seed", "40", "--games", "3", "--out-dir", str(out))
    assert r.returncode == 0, r.stderr
    printed = r.stdout.splitlines()
    names = sorted(os.listdir(out))
    assert names == ["5211_3p_40.jsonl", "5211_3p_41.jsonl", "5211_3p_42.jsonl"]
    for name, line in zip(names, printed):
        path = str(out / name)
        r = cli("replay", path, "--json")
        assert r.returncode == 0, r.stderr
        result = json.loads(r.stdout)
        assert result["finished"] and line == "%s: scores %s" % (path, result["scores"])
    r = cli("export", *[str(out / n) for n in names], "--to", "csv", "--out", str(tmp_path / "all.csv"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "all.csv").stat().st_size > 0


def test_one_game_to_a_file_and_to_stdout_replays(tmp_path):
    r = cli("simulate", "--game", "azul", "--players", "2", "--seed", "5", "--out", str(tmp_path / "one.jsonl"))
    assert r.returncode == 0, r.stderr
    assert cli("replay", str(tmp_path / "one.jsonl")).returncode == 0
    r = cli("simulate", "--game", "azul", "--players", "2", "--seed", "5")
    assert r.returncode == 0 and r.stdout == (tmp_path / "one.jsonl").read_text()


@pytest.mark.parametrize("args,start", [
    (["--games", "3", "--out", "{tmp}/games.jsonl"], "--games 3 makes 3 records, one per file: give --out-dir DIR"),
    (["--games", "3"], "--games 3 makes 3 records, one per file: give --out-dir DIR"),
    (["--out", "{tmp}/a.jsonl", "--out-dir", "{tmp}/d"], "give --out FILE (one game) or --out-dir DIR, not both"),
    (["--games", "0", "--out-dir", "{tmp}/d"], "--games must be at least 1"),
])
def test_several_games_without_a_folder_is_one_line_and_writes_nothing(tmp_path, args, start):
    r = cli("simulate", "--game", "azul", "--players", "2", *[a.format(tmp=tmp_path) for a in args], cwd=tmp_path)
    assert r.returncode == 1 and r.stdout == "" and "Traceback" not in r.stderr
    assert r.stderr == "azul-companion simulate: %s\n" % start
    assert os.listdir(tmp_path) == []
