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


def header(players, **extra):
    h = {"format": "azul-companion-record", "v": 1, "game": "azul", "variant": "colored", "players": players,
         "options": extra.pop("options", {})}
    h.update(extra)
    return json.dumps(h)


def two_rounds(players, **extra):
    """HAND's two rounds (Ann 2, Ben 5 for two players), every further seat entering nothing."""
    lines = [header(players, **extra)]
    for line in HAND.splitlines()[1:]:
        lines.append(line)
        if line.startswith('{"e": "wall", "p": 1'):
            lines += ['{"e": "wall", "p": %d, "tiles": [], "floor": 0}' % p for p in range(2, len(players))]
    return "\n".join(lines) + "\n"


def test_csv_text_cells_cannot_run_as_formulas_and_numbers_stay_numbers(tmp_path):
    """OWASP CSV injection: a text cell starting with = + - @ tab or CR is led by '."""
    names = ['=HYPERLINK("http://example.com/x","click")', "+1", "-2", "@SUM(A1)"]
    records = [tmp_path / "=1+1.jsonl", tmp_path / "tab.jsonl"]
    records[0].write_text(two_rounds(names))
    # Ann (seat 1) scores 1 in round 1, then floor 2 in round 2: -1 that round (rulebook
    # "Floor line": the first two slots are -1 each; the score never drops below 0)
    records[1].write_text(two_rounds(["\tTab", "\rCR"]).replace(
        '{"e": "wall", "p": 0, "tiles": [[1, "yellow"]], "floor": 1}', '{"e": "wall", "p": 0, "tiles": [], "floor": 2}'))
    out = tmp_path / "out.csv"
    r = run_cli("export", str(records[0]), str(records[1]), "--to", "csv", "--out", str(out))
    assert r.returncode == 0, r.stderr
    with open(str(out), encoding="utf-8", newline="") as f:
        text = f.read()
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    # (a tab or CR in a name is escaped as any control character is: host_tools.output.printable)
    assert {row["player"] for row in rows} == {"'" + n for n in names} | {"\\x09Tab", "\\x0dCR"}
    assert {row["file"] for row in rows} == {"'=1+1.jsonl", "tab.jsonl"}
    for row in rows:
        for cell in row.values():  # only a negative number may start like a formula
            assert not cell.startswith(export.FORMULA_START) or cell[1:].isdigit() and cell[0] == "-", row
    tab = [row for row in rows if row["file"] == "tab.jsonl" and row["seat"] == "0"]
    assert [(row["round_points"], row["total"]) for row in tab] == [("1", "1"), ("-1", "0")]  # numbers, unquoted
    assert "\ntab.jsonl,azul,colored," in text and ",-1,0," in text
    assert {row["final_floor"] for row in tab} == {"-1"}  # what the floor took: 1 point, not 2


def test_bgstats_duplicate_names_start_player_and_minutes(tmp_path):
    first = tmp_path / "first.jsonl"
    first.write_text(two_rounds(["Ann", "Ann", "Ben"], date="2024-05-06T10:30", options={"start": 2}))
    second = tmp_path / "second.jsonl"
    second.write_text(two_rounds(["Ann", "Cy"], started="2024-05-07T21:05:09+02:00"))
    third = tmp_path / "third.jsonl"
    third.write_text(two_rounds(["Ann", "Cy"], date="2024-05-08"))
    data = json.loads(export.export([str(first), str(second), str(third)], "bgstats"))
    names = {p["id"]: p["name"] for p in data["players"]}
    assert sorted(names.values()) == ["Ann", "Ann (2)", "Ben", "Cy"]
    assert len({p["uuid"] for p in data["players"]}) == 4
    plays = data["plays"]
    seats = [[names[s["playerRefId"]] for s in play["playerScores"]] for play in plays]
    assert seats == [["Ann", "Ann (2)", "Ben"], ["Ann", "Cy"], ["Ann", "Cy"]]
    assert plays[0]["playerScores"][0]["playerRefId"] == plays[1]["playerScores"][0]["playerRefId"]
    assert [s["score"] for s in plays[0]["playerScores"]] == ["2", "5", "0"]
    assert [s["startPlayer"] for s in plays[0]["playerScores"]] == [False, False, True]  # options.start = 2
    assert [s["startPlayer"] for s in plays[1]["playerScores"]] == [True, False]  # default: seat 1
    assert [p["playDate"] for p in plays] == ["2024-05-06 10:30:00", "2024-05-07 21:05:09", "2024-05-08 00:00:00"]


def test_html_rows_have_human_labels():
    page = export.export([os.path.join(ROOT, "tests", "golden", name)
                          for name in ("5211_long_5p.jsonl", "azul_grey_4p.jsonl")], "html")
    labels = [cell.split("</td>")[0] for cell in page.split("<tr><td>")[1:]]
    assert {"Deck 1", "Deck 4", "Complete rows", "Roosters kept", "Round 1", "<b>Score</b>"} <= set(labels)
    assert not [label for label in labels if "_" in label or any(c.isdigit() for c in label.split(" ")[0])]
    assert export.label("cards_kept") == "Cards kept" and export.label("deck12") == "Deck 12"


def test_a_lone_surrogate_in_a_name_is_shown_not_a_crash(tmp_path):
    """A record may hold a JSON escape of half a UTF-16 pair; it has no UTF-8 form. Every
    output writes U+FFFD in its place; a file name that is not UTF-8 is shown the same way."""
    record = tmp_path / "half.jsonl"
    record.write_text(two_rounds(["Ann\ud800", "Ben"]))
    assert "Ann\\ud800" in record.read_text()  # as JSON writes it
    r = subprocess.run([sys.executable, "-m", "host_tools", "replay", str(record)], capture_output=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "Ann\ufffd" in r.stdout.decode("utf-8")
    odd = os.path.join(os.fsencode(str(tmp_path)), b"odd-\xff.jsonl")
    shutil.copyfile(str(record), odd)
    for fmt in export.FORMATS:
        out = tmp_path / ("out." + fmt)
        r = subprocess.run([sys.executable, "-m", "host_tools", "export", str(record), odd, "--to", fmt, "--out", str(out)],
                           capture_output=True, cwd=ROOT, timeout=60)
        assert r.returncode == 0, r.stderr
        text = out.read_bytes().decode("utf-8")
        if fmt in ("json", "bgstats"):
            text = json.dumps(json.loads(text), ensure_ascii=False)
        assert "Ann\ufffd" in text and "odd-\ufffd.jsonl" in text, fmt
        r = subprocess.run([sys.executable, "-m", "host_tools", "export", str(record), "--to", fmt],
                           capture_output=True, cwd=ROOT, timeout=60)
        assert r.returncode == 0 and "Ann" in r.stdout.decode("utf-8"), r.stderr


def test_out_is_replaced_only_by_a_complete_file(tmp_path, records):
    """A write that fails halfway (the file-size limit makes it fail with EFBIG) leaves the
    earlier --out as it was, and no temporary file; a new --out is not created."""
    import resource

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    old = tmp_path / "report.html"
    old.write_text("the report of last week\n")
    for out in (old, tmp_path / "new.html"):
        r = subprocess.run([sys.executable, "-m", "host_tools", "export"] + records + ["--to", "html", "--out", str(out),
                                                                                   "--force"],
                           capture_output=True, text=True, cwd=ROOT, timeout=60, preexec_fn=small_files)
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert r.stderr == "azul-companion export: cannot write %s: File too large\n" % out
    assert old.read_text() == "the report of last week\n"
    assert sorted(os.listdir(str(tmp_path))) == ["full.jsonl", "hand.jsonl", "report.html"]
    r = run_cli("export", *records, "--to", "html", "--out", str(old), "--force")
    assert r.returncode == 0 and old.read_text().startswith("<!DOCTYPE html>")
    assert oct(old.stat().st_mode & 0o777) == oct(0o666 & ~umask())


def umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_out_never_overwrites_an_input(tmp_path, records):
    before = open(records[0], "rb").read()
    for spelling in (records[0], os.path.join(os.path.dirname(records[0]), ".", os.path.basename(records[0]))):
        r = run_cli("export", records[1], records[0], "--to", "csv", "--out", spelling)
        assert r.returncode == 1
        assert r.stderr == "azul-companion export: --out %s is one of the records read; refusing to overwrite it\n" % spelling
    assert open(records[0], "rb").read() == before


def test_html_seat_colours_are_the_devices():
    """Seat 1 red, 2 blue, 3 green, 4 yellow, 5 purple, as the LEDs show the players
    (app.colours): each report colour has the hue of the device's colour for that seat."""
    import colorsys
    from app.colours import PLAYER_COLOURS, rgb

    def hue(r, g, b):
        return colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)[0] * 360

    for hexcode, name in zip(export.PALETTE, PLAYER_COLOURS):
        want = hue(*rgb(name))
        got = hue(*(int(hexcode[i:i + 2], 16) for i in (1, 3, 5)))
        assert min(abs(got - want), 360 - abs(got - want)) < 15, (hexcode, name)


def playwright_missing():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[dev]')"
    return None if chromium() else "chromium is not installed (apt-get install chromium; .ci/run installs it)"


@pytest.mark.skipif(playwright_missing() is not None, reason=str(playwright_missing()))
def test_html_report_fits_a_phone_in_chromium(tmp_path):
    """A 390 px wide phone (Chromium): nothing wider than the screen, each chart and its
    legend whole on it, the lines in the seats' colours; a long 5211 game's rounds named by
    deck (its rounds count within each deck)."""
    from PIL import Image
    from web_browser import ARGS, PHONE
    from playwright.sync_api import sync_playwright
    page_file = tmp_path / "report.html"
    games = [os.path.join(ROOT, "tests", "golden", name) for name in ("5211_long_5p.jsonl", "garden_4p.jsonl")]
    r = run_cli("export", *games, "--to", "html", "--out", str(page_file))
    assert r.returncode == 0, r.stderr
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=ARGS)
        try:
            page = browser.new_page(viewport=PHONE, is_mobile=True)
            page.goto(page_file.as_uri())
            got = page.evaluate("""() => ({
                width: document.documentElement.scrollWidth,
                charts: [...document.querySelectorAll('svg')].map(s => s.getBoundingClientRect().toJSON()),
                legends: [...document.querySelectorAll('.legend li')].map(l => l.getBoundingClientRect().toJSON()),
                strokes: [...document.querySelectorAll('svg')].map(s =>
                    [...s.querySelectorAll('polyline')].map(l => l.getAttribute('stroke'))),
                rows: [...document.querySelectorAll('td:first-child')].map(t => t.textContent)})""")
            page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
        finally:
            browser.close()
    assert got["width"] <= PHONE["width"]
    assert len(got["charts"]) == 2 and len(got["legends"]) == 5 + 4
    for box in got["charts"] + got["legends"]:
        assert box["left"] >= 0 and box["right"] <= PHONE["width"] and box["width"] > 0, box
    assert all(c["width"] > 300 for c in got["charts"])  # scaled to the screen, not shrunk away
    assert got["strokes"] == [list(export.PALETTE), list(export.PALETTE[:4])]
    assert "Deck 1, round 1" in got["rows"] and "Deck 4, round 3" in got["rows"] and "Round 15" not in got["rows"]
    shot = Image.open(str(tmp_path / "phone.png")).convert("RGB")
    assert shot.size[0] == PHONE["width"]
    colours = shot.getcolors(shot.size[0] * shot.size[1])
    for hexcode in export.PALETTE:
        want = tuple(int(hexcode[i:i + 2], 16) for i in (1, 3, 5))
        assert sum(n for n, c in colours if all(abs(a - b) <= 40 for a, b in zip(c, want))) > 100, hexcode
