"""Golden records (tests/golden/*.jsonl → *.expected.json) replay to the same bytes on every interpreter."""
import os

from rules_core.record import dumps
from rules_core.session import replay

GOLDEN = "tests/golden/"
# the Sintra golden records give no options.board: replay says which unverified tables it used
ASSUMED = {"sintra_4p": "windows, track, ornaments", "sintra_B_3p": "windows, track"}


def test_golden_records_replay_to_their_expected_results():
    names = sorted(f[:-6] for f in os.listdir(GOLDEN) if f.endswith(".jsonl"))
    assert len(names) >= 4
    for name in names:
        with open(GOLDEN + name + ".jsonl") as f:
            session, warnings = replay(f)
        with open(GOLDEN + name + ".expected.json") as f:
            want = f.read().strip()
        assumed = ASSUMED.get(name)
        assert warnings == (["line 1: options.board gives no %s: the project's unverified values are used"
                             % assumed] if assumed else []), name
        assert session.finished, name
        assert dumps(session.result()) == want, name
