"""Bad records: a few hundred fuzzed records (bench/fuzz_records.py) replay or fail with a
one-line "line N: " ValueError; never another exception (RECORD_FORMAT.md: errors name the line)."""
import os
import sys

import pytest

from rules_core.session import replay

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
import fuzz_records  # noqa: E402

HEADER = '{"format": "azul-companion-record", "v": 1, "game": %s, "variant": "A", "players": ["a", "b"]}\n'


def test_fuzzed_records_end_in_a_line_error_or_a_result():
    out = fuzz_records.fuzz(400, seed=11)
    counts = out["counts"]
    assert out["findings"] == [] and counts["crash"] == counts["bad_error"] == counts["timeout"] == 0
    # both outcomes happen: the mutations are neither all harmless nor all fatal
    assert counts["ok"] > 20 and counts["line_error"] > 200


@pytest.mark.parametrize("game", ['["azul"]', '{"g": 1}', "5", "null"])
def test_a_game_name_that_is_not_a_string_is_a_line_error(game):
    """Found by the fuzzer: a list or dict as "game" raised TypeError (unhashable)."""
    with pytest.raises(ValueError, match="^line 1: unknown game"):
        replay(HEADER % game)


def test_mutations_are_checked_by_the_classifier():
    """The fuzzer's own judge: a record cut mid-line is ok, a bad byte is a line error."""
    lines = [b'{"format": "azul-companion-record", "v": 1, "game": "azul", "players": ["a", "b"]}',
             b'{"e": "first", "p": 0}']
    assert fuzz_records.run_case(lines, True) == ("ok", None)
    assert fuzz_records.run_case(lines[:1] + [b'{"e": "fir'], False) == ("ok", None)
    assert fuzz_records.run_case(lines[:1] + [b'{"e": "first", "p": 9}'], True)[0] == "line_error"
    assert fuzz_records.run_case(lines[:1] + [b'\xff{}'], True)[0] == "line_error"
