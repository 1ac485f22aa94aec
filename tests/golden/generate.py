"""Write the golden records: complete 4-player games of every title, with their expected results.

    python tests/golden/generate.py

Sintra and Queen's Garden entries are proposed at random and kept only when the session
accepts them (the rules decide what is legal); Azul and 5211 come from the full engines.
The expected results are what the CPython core computes today: the core tests on every
interpreter replay these records and must reproduce them byte for byte.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from rules_core.record import dumps  # noqa: E402
from rules_core.rng import Rng  # noqa: E402
from rules_core.session import Session, new_header  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ["Ann", "Ben", "Cy", "Dee"]


class Game(Session):
    """A Session that keeps the record line of each event it took, as add() writes it
    (dumps(ev)): the lines after the header."""

    def __init__(self, header):
        Session.__init__(self, header)
        self.lines = []

    def add(self, ev):
        Session.add(self, ev)
        self.lines.append(dumps(ev))
        return ev


def _try(session, ev):
    try:
        session.add(ev)
        return True
    except ValueError:
        return False


def sintra_game(seed, variant="A", n=4):
    from rules_core.sintra import COLOURS
    rng = Rng(seed)
    order = list(COLOURS)
    rng.shuffle(order)
    s = Game(new_header("sintra", variant, NAMES[:n], {"round_colors": [rng.choice(COLOURS)] + order}))
    while not s.finished:
        r = s.rules
        for _ in range(3 * n):
            p = rng.randbelow(n)
            kind = rng.randbelow(4)
            if kind == 0 and r.open_windows(p):
                keep = rng.choice(COLOURS)
                bonus = rng.randbelow(3) + (1 if keep == r.bonus_colour() else 0)
                _try(s, {"e": "window", "p": p, "col": rng.choice(r.open_windows(p)), "bonus": bonus, "keep": keep})
            elif kind == 1:
                _try(s, {"e": "broken", "p": p, "n": rng.randbelow(4)})
            elif kind == 2:
                _try(s, {"e": "first", "p": p})
        for _, p in s.pending():
            _try(s, {"e": "leftover", "p": p, "n": rng.randbelow(9)})
        s.add({"e": "end_round"})
    return s


def garden_game(seed, variant="standard", n=4):
    from rules_core.garden import COLOURS, PATTERNS
    rng = Rng(seed)
    s = Game(new_header("garden", variant, NAMES[:n]))
    while not s.finished:
        r = s.rules
        for p in r.to_pass():
            if r.can_buy(p) and rng.randbelow(3) == 0:
                s.add({"e": "buy", "p": p})
            s.add({"e": "pass", "p": p, "discard": [rng.randbelow(6) + 1 for _ in range(rng.randbelow(3))]})
        for e, p in list(s.pending()):
            if e == "round_score":
                ev = {"e": e, "p": p, "pillars": rng.randbelow(3)}
                if variant == "variant":
                    ev["points"] = rng.randbelow(12)
                else:
                    ev["matches"] = [rng.randbelow(5) for _ in range(3)]
            elif e == "reserve":
                ev = {"e": e, "p": p, "jokers": rng.randbelow(3), "values": [rng.randbelow(6) + 1 for _ in range(rng.randbelow(3))]}
            elif e == "garden":
                groups = []
                for _ in range(rng.randbelow(4)):
                    size = 3 + rng.randbelow(4)
                    if rng.randbelow(2):
                        groups.append({"of": rng.choice(COLOURS), "values": list(range(1, size + 1))})
                    else:
                        v = rng.randbelow(6)
                        groups.append({"of": PATTERNS[v], "values": [v + 1] * size})
                ev = {"e": e, "p": p, "groups": groups}
            elif e == "bonus":
                ev = {"e": e, "p": p, "points": rng.randbelow(15)}
            else:
                continue
            s.add(ev)
        s.add({"e": "end_round"})
    return s


def engine_game(game, seed, variant, n=4):
    if game == "azul":
        from rules_core.azul_engine import random_game
    else:
        from rules_core.game5211_engine import random_game
    out = random_game(n, seed, variant)
    s = Game(out[0])
    for ev in out[1]:
        s.add(ev)
    assert s.scores == list(out[2]), (game, seed)
    return s


GOLDEN = {
    "azul_grey_4p": lambda: engine_game("azul", 11, "grey"),
    "sintra_4p": lambda: sintra_game(21, "A"),
    "sintra_B_3p": lambda: sintra_game(22, "B", 3),
    "garden_4p": lambda: garden_game(31, "standard"),
    "garden_variant_2p": lambda: garden_game(32, "variant", 2),
    "5211_4p": lambda: engine_game("5211", 41, "standard"),
    "5211_long_5p": lambda: engine_game("5211", 42, "long", 5),
}


def write(name, session):
    with open(os.path.join(HERE, name + ".jsonl"), "w") as f:
        f.write(dumps(session.header) + "\n")
        for line in session.lines:
            f.write(line + "\n")
    with open(os.path.join(HERE, name + ".expected.json"), "w") as f:
        f.write(dumps(session.result()) + "\n")


if __name__ == "__main__":
    for name in sys.argv[1:] or sorted(GOLDEN):
        write(name, GOLDEN[name]())
        print(name)
