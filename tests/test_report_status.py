"""`replay` and the HTML report name the round being played, never a round not yet closed."""
import os
import subprocess
import sys

from host_tools import export
from rules_core.record import dumps, new_header

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
