"""`replay` and the HTML report name the round being played, never a round not yet closed."""
import os
import subprocess
import sys

from host_tools import export
from rules_core.record import dumps
from rules_core.session import new_header

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def two_rounds_closed(tmp_path):
    header = new_header("sintra", "A", ["Ann", "Ben"], {"round_colors": ["pink", "pink", "orange", "yellow", "green", "blue"]})
    events = [{"e": "window", "p": 0, "col": 1, "bonus": 1, "keep": "pink"}, {"e": "end_round"}, {"e": "end_round"}]
    path = tmp_path / "two.jsonl"
    path.write_text("".join(dumps(x) + "\n" for x in [header] + events))
    return str(path)


def test_replay_says_in_progress_round_3(tmp_path):
    path = two_rounds_closed(tmp_path)
    r = subprocess.run([sys.executable, "-m", "host_tools", "replay", path], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "sintra (A) - in progress, round 3/6"


def test_html_report_says_in_progress_round_3(tmp_path):
    page = export.to_html(export.load([two_rounds_closed(tmp_path)]))
    assert "in progress, round 3/6" in page and "after round 3" not in page


def test_long_5211_names_the_deck_and_its_round():
    """5211 rulebook, long variant: each deck is played out in rounds (5 players: 3 + 1 from
    hand = 4 rounds a deck), then all 100 cards are reshuffled, until the round in which
    someone reaches 50. The golden 5-player long game has 3 new_deck and 15 end_round
    events: decks 1-3 took 4 rounds each (12), so it ended in deck 4 after its round 3.
    Its rounds count within each deck, so "round 3" alone would hide 12 rounds."""
    path = os.path.join(ROOT, "tests", "golden", "5211_long_5p.jsonl")
    r = subprocess.run([sys.executable, "-m", "host_tools", "replay", path], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "5211 (long) - final after deck 4, round 3/4"
    assert "final after deck 4, round 3/4" in export.to_html(export.load([path]))
