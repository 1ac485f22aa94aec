"""Button storms through the App on the virtual board: all buttons at once, contact bounce,
very long holds and random presses, fed through the real ButtonLogic (VirtualButtons).

Whatever the storm does (it may start new games, open history, change settings, undo), the
App must not crash (nothing in data/errors.log), every record it wrote must replay, and the
game on screen must be the one the record replays to.
"""
import os

import pytest

from test_app_games import Driver
from core.checks import events as effective_events
from host_tools.vhal import VirtualButtons, SIX_BUTTONS
from rules_core.session import replay
from rules_core.rng import Rng

FRAME_MS = 10
# single presses lean towards OK/DOWN/RIGHT so storms also get through forms and enter events
WEIGHTED = ("OK",) * 6 + ("DOWN",) * 4 + ("RIGHT",) * 3 + ("UP", "LEFT", "BACK")


def storm(buttons, rng, start, length):
    """Schedule random holds on buttons in [start, start + length) ms; returns the end."""
    t = start
    while t < start + length:
        kind = rng.randbelow(10)
        if kind == 0:  # every button at once
            d = 20 + rng.randbelow(1500)
            for name in SIX_BUTTONS:
                buttons.hold(name, t, d)
        elif kind == 1:  # a bouncing contact: short on/off flickers of one button
            name = rng.choice(SIX_BUTTONS)
            for _ in range(2 + rng.randbelow(8)):
                buttons.hold(name, t, 1 + rng.randbelow(12))
                t += 2 + rng.randbelow(15)
            d = 0
        elif kind == 2:  # a very long hold (repeats, long press)
            d = 3000 + rng.randbelow(8000)
            buttons.hold(rng.choice(SIX_BUTTONS), t, d)
        elif kind == 3:  # two buttons overlapping
            d = 50 + rng.randbelow(700)
            buttons.hold(rng.choice(SIX_BUTTONS), t, d)
            buttons.hold(rng.choice(SIX_BUTTONS), t + rng.randbelow(d), d)
        else:  # an ordinary press, sometimes a long one
            d = 30 + rng.randbelow(200) if rng.randbelow(4) else 600 + rng.randbelow(900)
            buttons.hold(rng.choice(WEIGHTED), t, d)
        t += d + rng.randbelow(200)
    return t


def run_storm(d, seed, length_ms):
    """Poll the buttons each frame and step the App with every latched key, as main.py does."""
    buttons = VirtualButtons()
    rng = Rng(seed)
    start = d.clock.now + 1000
    end = storm(buttons, rng, start, length_ms)
    keys = 0
    for t in range(start, end + 2000, FRAME_MS):
        d.clock.now = t
        buttons.poll(t)
        k = buttons.take()
        d.app.step(t, k)
        while k is not None:
            keys += 1
            k = buttons.take()
            if k is not None:
                d.app.step(t, k)
    return keys


def check_records(d):
    """Returns the number of event lines in the current record, a game filed (not yet moved
    into the history: no idle frame runs here) and the history."""
    assert not os.path.exists(os.path.join(d.data, "errors.log")), open(os.path.join(d.data, "errors.log")).read()
    current = os.path.join(d.data, "current.jsonl")
    if os.path.exists(current):
        with open(current, encoding="utf-8") as f:
            session, warnings = replay(f.read())
        assert not warnings
        assert d.app.session is not None
        assert d.app.session.result() == session.result()
        assert effective_events(d.app.session) == effective_events(session)
    events = 0
    paths = [p for p in (current, os.path.join(d.data, "filed.jsonl")) if os.path.exists(p)]
    history = os.path.join(d.data, "history")
    paths += [os.path.join(history, n) for n in (os.listdir(history) if os.path.isdir(history) else [])]
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        replay(text)
        events += text.count("\n") - 1
    return events


@pytest.mark.parametrize("title,variant,n", [("Azul", "coloured", 2), ("Azul", "grey", 4),
                                             ("Sintra", "side A", 3), ("Queen's Garden", "standard", 2),
                                             ("5211", "standard", 5)])
def test_button_storm_never_crashes_and_every_record_replays(tmp_path, title, variant, n):
    d = Driver(tmp_path)
    d.new_game(title, variant, n)
    keys = events = 0
    for seed in range(5):
        keys += run_storm(d, 1000 * n + seed + len(title), 60000)
        events = check_records(d)
    assert keys > 200 and events > 0  # the storm reached the App and entered events
