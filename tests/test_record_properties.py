"""Property tests of the record and session (hypothesis, CPython): corrupted events, undo/redo."""
import json
import os

from hypothesis import given, settings, strategies as st

from rules_core.record import dumps
from rules_core.session import replay

ORACLES = os.path.join(os.path.dirname(__file__), "oracles", "azul-random-games")
RECORDS = sorted(f for f in os.listdir(ORACLES) if f.endswith(".jsonl"))


def reference_dumps(obj):
    """The canonical JSON of RECORD_FORMAT.md spelled out plainly, one character and one item
    at a time: rules_core.record.dumps takes shortcuts on a Pico and must write the same."""
    if isinstance(obj, bool) or obj is None:
        return {True: "true", False: "false", None: "null"}[obj]
    if isinstance(obj, int):
        return repr(obj)
    if isinstance(obj, str):
        return '"' + "".join("\\" + c if c in '"\\' else "\\u%04x" % ord(c)
                             if ord(c) < 0x20 or 0xD800 <= ord(c) <= 0xDFFF else c for c in obj) + '"'
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(reference_dumps(x) for x in obj) + "]"
    first = [k for k in ("format", "v", "game", "variant", "players", "options", "e", "p") if k in obj]
    keys = first + sorted(k for k in obj if k not in first)
    return "{" + ", ".join(reference_dumps(k) + ": " + reference_dumps(obj[k]) for k in keys) + "}"


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**29, 2**29) | st.text(),
                    lambda inner: st.lists(inner) | st.tuples(inner, inner) | st.dictionaries(
                        st.sampled_from(["e", "p", "v", "tiles", "floor", "é", 'q"', "a\\b", "\n"]) | st.text(),
                        inner), max_leaves=20)


@settings(max_examples=500, deadline=None)
@given(JSON)
def test_dumps_writes_the_canonical_json_of_any_value(obj):
    assert dumps(obj) == reference_dumps(obj)
    assert json.loads(dumps(obj)) == json.loads(json.dumps(obj))


def load(name):
    with open(os.path.join(ORACLES, name)) as f:
        return f.read().splitlines()


# mutations that always break an Azul event: (description, function(event) -> event)
BREAKING = [
    ("p out of range", lambda ev: dict(ev, p=9)),
    ("p not an int", lambda ev: dict(ev, p="0")),
    ("unknown event", lambda ev: dict(ev, e="dance")),
    ("missing e", lambda ev: {k: v for k, v in ev.items() if k != "e"}),
    ("floor out of range", lambda ev: dict(ev, floor=8) if ev["e"] == "wall" else dict(ev, p=-1)),
    ("row out of range", lambda ev: dict(ev, tiles=[[6, "blue"]]) if ev["e"] == "wall" else dict(ev, p=None)),
    ("unknown colour", lambda ev: dict(ev, tiles=[[1, "pink"]]) if ev["e"] == "wall" else dict(ev, p=[0])),
    ("tiles wrong type", lambda ev: dict(ev, tiles={"1": "blue"}) if ev["e"] == "wall" else dict(ev, p=1.5)),
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(RECORDS), st.integers(min_value=1, max_value=10**6), st.sampled_from(BREAKING))
def test_any_single_broken_event_is_rejected_with_its_line_number(name, where, mutation):
    lines = load(name)
    candidates = [i for i in range(1, len(lines)) if json.loads(lines[i])["e"] in ("wall", "first")]
    i = candidates[where % len(candidates)]
    lines[i] = dumps(mutation[1](json.loads(lines[i])))
    try:
        replay("\n".join(lines) + "\n")
    except ValueError as e:
        assert str(e).startswith("line %d: " % (i + 1)), (mutation[0], str(e))
    else:
        raise AssertionError("%s at line %d was accepted" % (mutation[0], i + 1))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(RECORDS), st.integers(min_value=1, max_value=10**6), st.integers(0, 4),
       st.text(min_size=1, max_size=20))
def test_any_change_of_one_line_is_rejected_or_replays(name, where, kind, junk):
    """Whatever one line becomes, replay either works or names a line at or after it: never a crash."""
    lines = load(name)
    i = 1 + where % (len(lines) - 1)
    ev = json.loads(lines[i])
    if kind == 0:
        lines[i] = junk
    elif kind == 1:
        lines[i] = lines[i][: len(lines[i]) * (where % 100) // 100]
    elif kind == 2:
        ev[junk] = where
        lines[i] = dumps(ev)
    elif kind == 3 and ev["e"] == "wall" and ev["tiles"]:
        ev["tiles"][0][0] = where % 7
        lines[i] = dumps(ev)
    else:
        lines.insert(i, lines[i])  # a duplicated event
    try:
        replay("\n".join(lines) + "\n")
    except ValueError as e:
        n = int(str(e).split(":")[0].split()[1])
        assert n >= i + 1, str(e)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(RECORDS), st.integers(min_value=0, max_value=10**6), st.integers(1, 6))
def test_undo_then_redo_is_identity(name, where, depth):
    lines = load(name)
    cut = 1 + where % (len(lines) - 1)
    head = "\n".join(lines[:cut + 1]) + "\n"
    before = replay(head)[0].result()
    session = replay(head)[0]
    undone = 0
    while undone < depth and session.can_undo():
        session.add({"e": "undo"})
        undone += 1
    for _ in range(undone):
        session.add({"e": "redo"})
    assert session.result() == before
    # and the same through the record itself
    tail = "".join(dumps({"e": "undo"}) + "\n" for _ in range(undone)) + "".join(dumps({"e": "redo"}) + "\n" for _ in range(undone))
    assert replay(head + tail)[0].result() == before
