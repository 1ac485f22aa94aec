"""A rules state's clone() (previews, undo states) is independent of the state it was made
from: at every event of every golden game, the next event applied to a clone leaves the
original as it was. Guards Rules.NESTED: a list, dict or bytearray changed in place below
the top level must be named there, else a clone shares it."""
import json
import os

from app.current import clone, copy_data
from rules_core.session import replay

GOLDEN = "tests/golden/"


def state(rules):
    return {k: copy_data(v) for k, v in rules.__dict__.items()}


def test_a_clone_shares_nothing_an_event_changes():
    names = sorted(f for f in os.listdir(GOLDEN) if f.endswith(".jsonl"))
    assert len(names) >= 4
    for name in names:
        with open(GOLDEN + name) as f:
            lines = f.read().splitlines()
        s = replay(lines[0] + "\n")[0]
        for i in range(1, len(lines)):
            ev = json.loads(lines[i])
            before = state(s.rules)
            copy = clone(s.rules)
            assert state(copy) == before, (name, i)
            copy.apply(ev)
            assert state(s.rules) == before, "%s line %d: %s changed the original" % (name, i + 1, ev["e"])
            s.add(ev)
