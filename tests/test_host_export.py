"""Exports of game records: CSV, JSON, BG Stats, HTML (rendered in headless chromium)."""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host_tools import export  # noqa: E402

# Two rounds of Azul worked out by hand (rulebook "Wall-tiling": a tile alone scores 1, a
# tile joined to others scores the length of its row and of its column; floor slots -1 each,
# the first-player marker takes a slot; the score never drops below 0). Colored wall,
# row 1: blue yellow red black white; row 2: white blue yellow red black.
#  round 1: Ann blue r1c1 = 1.  Ben yellow r1c2 = 1, white r2c1 = 1 (diagonal), floor 1 -> 1
#  round 2: Ann yellow r1c2 joins blue = 2, floor 1 (marker) -> 1 + 2 - 1 = 2
#           Ben blue r1c1: row blue-yellow 2 + column blue-white 2 = 4 -> 1 + 4 = 5
HAND = "\n".join([
    '{"format": "azul-companion-record", "v": 1, "game": "azul", "variant": "colored", "players": ["Ann", "Ben"], "options": {}}',
    '{"e": "wall", "p": 0, "tiles": [[1, "blue"]], "floor": 0}',
    '{"e": "wall", "p": 1, "tiles": [[1, "yellow"], [2, "white"]], "floor": 1}',
    '{"e": "first", "p": 1}',
    '{"e": "end_round"}',
    '{"e": "wall", "p": 0, "tiles": [[1, "yellow"]], "floor": 1}',
    '{"e": "wall", "p": 1, "tiles": [[1, "blue"]], "floor": 0}',
    '{"e": "first", "p": 0}',
    '{"e": "end_round"}',
]) + "\n"
ORACLES = os.path.join(ROOT, "tests", "oracles", "azul-random-games")


@pytest.fixture
def records(tmp_path):
    hand = tmp_path / "hand.jsonl"
    hand.write_text(HAND)
    full = tmp_path / "full.jsonl"
    shutil.copyfile(os.path.join(ORACLES, "azul_3p_6000.jsonl"), str(full))
    return [str(hand), str(full)]


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_csv_has_one_row_per_round_and_player_with_hand_scores(records):
    rows = list(csv.DictReader(io.StringIO(export.export(records[:1], "csv"))))
    assert [(r["round"], r["player"], r["round_points"], r["total"]) for r in rows] == [
        ("1", "Ann", "1", "1"), ("1", "Ben", "1", "1"), ("2", "Ann", "1", "2"), ("2", "Ben", "4", "5")]
    assert {r["final_score"] for r in rows if r["player"] == "Ben"} == {"5"}


def test_csv_last_round_totals_are_the_replayed_scores(records):
    from rules_core.session import replay

    with open(records[1]) as f:
        scores = replay(f)[0].result()["scores"]
    rows = list(csv.DictReader(io.StringIO(export.export(records[1:], "csv"))))
    last = max(int(r["round"]) for r in rows)
    assert len(rows) == last * len(scores)
    assert [int(r["total"]) for r in rows if int(r["round"]) == last] == scores


def test_json_is_a_list_of_results(records):
    items = json.loads(export.export(records, "json"))
    assert [i["file"] for i in items] == ["hand.jsonl", "full.jsonl"]
    assert items[0]["scores"] == [2, 5] and items[0]["players"] == ["Ann", "Ben"]
    assert items[0]["round_scores"] == [[1, 1], [2, 5]]


def test_bgstats_has_the_fields_bg_stats_reads(records):
    data = json.loads(export.export(records, "bgstats"))
    for table in ("games", "players", "locations", "plays"):
        assert isinstance(data[table], list) and data[table]
    players = {p["id"]: p["name"] for p in data["players"]}
    games = {g["id"] for g in data["games"]}
    locations = {loc["id"] for loc in data["locations"]}
    assert data["games"][0]["name"] == "Azul" and data["games"][0]["bggId"] == 230802
    for play in data["plays"]:
        assert play["gameRefId"] in games and play["locationRefId"] in locations
        assert len(play["playDate"]) == 19 and play["playDate"][4] == "-"  # "YYYY-MM-DD HH:MM:SS"
        assert play["uuid"]
        for s in play["playerScores"]:
            assert s["playerRefId"] in players
            assert isinstance(s["score"], str) and isinstance(s["winner"], bool)
    hand = data["plays"][0]
    assert [(players[s["playerRefId"]], s["score"]) for s in hand["playerScores"]] == [("Ann", "2"), ("Ben", "5")]
    assert hand["ignored"] is True  # the hand record stops after round 2: not a finished play
    full = data["plays"][1]
    assert sum(s["winner"] for s in full["playerScores"]) >= 1


def test_broken_record_is_one_line_and_nonzero(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(HAND.replace('"floor": 0}', '"floor": 0', 1))
    r = run_cli("export", str(bad), "--to", "csv")
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == ["azul-companion export: %s: line 2: not valid JSON" % bad]


def test_bad_format_argument_is_rejected(records):
    r = run_cli("export", records[0], "--to", "xml")
    assert r.returncode == 2 and "invalid choice" in r.stderr and "Traceback" not in r.stderr


def test_html_is_self_contained(records):
    page = export.export(records, "html")
    assert page.count("<svg") == 2 and "<polyline" in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # no external assets
    assert "<td>+4</td>" in page  # Ben's round-2 points in the table


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.mark.skipif(chromium() is None, reason="chromium is not installed (apt-get install chromium)")
def test_html_renders_in_headless_chromium(records, tmp_path):
    from PIL import Image

    page = tmp_path / "report.html"
    r = run_cli("export", records[0], records[1], "--to", "html", "--out", str(page))
    assert r.returncode == 0, r.stderr
    shot = tmp_path / "shot.png"
    profile = tempfile.mkdtemp(prefix="chromium-")
    try:
        subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run",
                        "--user-data-dir=" + profile, "--screenshot=" + str(shot), "--window-size=1000,800",
                        page.as_uri()], capture_output=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    img = Image.open(str(shot)).convert("RGB")
    assert img.size == (1000, 800)
    colours = img.getcolors(1000 * 800)
    assert len(colours) > 20  # text, grid, lines: not a blank page

    def near(rgb, hexcode):
        want = tuple(int(hexcode[i:i + 2], 16) for i in (1, 3, 5))
        return all(abs(a - b) <= 40 for a, b in zip(rgb, want))

    for hexcode in export.PALETTE[:2]:  # seats 1 and 2 in the first chart, above the fold
        count = sum(n for n, rgb in colours if near(rgb, hexcode))
        assert count > 200, "chart colour %s has only %d pixels" % (hexcode, count)
