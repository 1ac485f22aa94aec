"""Azul engine properties (CPython, hypothesis).

The engine is checked against models written here from the rulebook (seed 002), not against
its own tables: a record scorer with 2-D boards (itself checked on the 90 oracle records), a
shadow of the pattern lines and walls that derives the legal moves, and hand-worked cases.
"""
import json
import os

import pytest
from hypothesis import given, settings, strategies as st

import mp
from rules_core.azul_engine import ROUND_LIMIT, AzulEngine, random_game
from rules_core import RuleError
from rules_core.rng import Rng

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLES = os.path.join(ROOT, "tests", "oracles", "azul-random-games")
NAMES = ["blue", "yellow", "red", "black", "white"]
PENALTY = [1, 1, 2, 2, 2, 3, 3]

players = st.integers(min_value=2, max_value=4)
variants = st.sampled_from(["colored", "grey"])
seeds = st.integers(min_value=0, max_value=2 ** 30 - 1)


# ---- an independent scorer of v1 records, straight from the rulebook ----------------------
def coloured_column(row, name):
    """Seed 002 wall: row 0 reads blue, yellow, red, black, white; each row shifts one right."""
    return (NAMES.index(name) + row) % 5


def score_record(variant, n, events):
    """Fold wall events with 2-D boards: (scores, winners, finished). Asserts the wall rules."""
    walls = [[[None] * 5 for _ in range(5)] for _ in range(n)]
    scores = [0] * n
    for ev in events:
        if ev["e"] != "wall":
            continue
        p = ev["p"]
        w = walls[p]
        for t in sorted(ev["tiles"]):           # wall tiling goes top to bottom
            if variant == "grey":
                r, c, name = t[0] - 1, t[1] - 1, t[2]
                assert all(w[rr][c] != name for rr in range(5)), "column %d holds %s twice" % (c + 1, name)
            else:
                r, name = t[0] - 1, t[1]
                c = coloured_column(r, name)
            assert w[r][c] is None and name not in w[r]
            w[r][c] = name
            h = 1
            i = c - 1
            while i >= 0 and w[r][i]:
                h, i = h + 1, i - 1
            i = c + 1
            while i < 5 and w[r][i]:
                h, i = h + 1, i + 1
            v = 1
            i = r - 1
            while i >= 0 and w[i][c]:
                v, i = v + 1, i - 1
            i = r + 1
            while i < 5 and w[i][c]:
                v, i = v + 1, i + 1
            pts = (h if h > 1 else 0) + (v if v > 1 else 0)
            scores[p] += pts if pts else 1
        scores[p] = max(0, scores[p] - sum(PENALTY[:ev["floor"]]))
    rows = [sum(1 for r in range(5) if all(w[r])) for w in walls]
    finished = any(rows)
    if finished:
        for p, w in enumerate(walls):
            cols = sum(1 for c in range(5) if all(w[r][c] for r in range(5)))
            colours = sum(1 for name in NAMES if sum(row.count(name) for row in w) == 5)
            scores[p] += 2 * rows[p] + 7 * cols + 10 * colours
    best = max((scores[p], rows[p]) for p in range(n))
    winners = [p for p in range(n) if (scores[p], rows[p]) == best]
    return scores, winners, finished


def test_scorer_agrees_with_the_90_oracle_records():
    """The scorer above reproduces an independent engine's results on every oracle record."""
    with open(os.path.join(ORACLES, "expected.json")) as f:
        expected = json.load(f)
    assert len(expected) == 90
    for name, want in expected.items():
        with open(os.path.join(ORACLES, name)) as f:
            lines = [json.loads(x) for x in f if x.strip()]
        header = lines[0]
        scores, winners, finished = score_record(header["variant"], len(header["players"]), lines[1:])
        assert (scores, winners, finished) == (want["scores"], want["winners"], want["finished"]), name


# ---- whole games -----------------------------------------------------------------------------
def check_event_shape(n, events, variant):
    """Per round: one wall event per player in player order, optional first, then end_round."""
    i = 0
    while i < len(events):
        for p in range(n):
            ev = events[i + p]
            assert ev["e"] == "wall" and ev["p"] == p and 0 <= ev["floor"] <= 7
            for t in ev["tiles"]:
                assert len(t) == (3 if variant == "grey" else 2) and 1 <= t[0] <= 5 and t[-1] in NAMES
        i += n
        if events[i]["e"] == "first":
            assert 0 <= events[i]["p"] < n
            i += 1
        assert events[i] == {"e": "end_round"}
        i += 1


@settings(max_examples=300, deadline=None)
@given(players, seeds, variants)
def test_engine_scores_equal_the_scorer_on_its_own_events(n, seed, variant):
    """Final scores and winners follow from the recorded events alone (grey columns legal)."""
    header, events, scores, winners = random_game(n, seed, variant)
    assert header == {"format": "azul-companion-record", "v": 1, "game": "azul", "variant": variant,
                      "players": ["P%d" % (i + 1) for i in range(n)], "options": {}}
    check_event_shape(n, events, variant)
    s, w, finished = score_record(variant, n, events)
    assert s == scores and w == winners


@settings(max_examples=60, deadline=None)
@given(players, seeds, variants)
def test_replay_through_the_rules_class_gives_the_engine_scores(n, seed, variant):
    """Differential check with AzulRules: a finished engine game replays to the same result."""
    from rules_core.record import dumps
    from rules_core.session import replay
    header, events, scores, winners = random_game(n, seed, variant)
    text = "".join(dumps(x) + "\n" for x in [header] + events)
    result = replay(text)[0].result()
    assert result["scores"] == scores
    if result["finished"]:
        assert result["winners"] == winners


@settings(max_examples=200, deadline=None)
@given(players, seeds, variants)
def test_games_terminate(n, seed, variant):
    eng = AzulEngine(n, Rng(seed), variant)
    eng.play_random()
    assert eng.finished and 1 <= eng.round <= ROUND_LIMIT
    assert eng.legal_moves() == []
    assert eng.stalled or max(eng.complete_rows(p) for p in range(n)) >= 1
    assert eng.events[-1] == {"e": "end_round"}
    assert sum(eng.tile_counts().values()) == 100


# ---- every step --------------------------------------------------------------------------------
class Shadow:
    """Pattern lines and walls rebuilt from the moves and the wall events only."""

    def __init__(self, n):
        self.lines = [[None, 0] for _ in range(5 * n)]     # [colour, count] of player p's line r at 5p+r
        self.walls = [[[None] * 5 for _ in range(5)] for _ in range(n)]

    def take(self, p, colour, line, ntiles):
        if line:
            ln = self.lines[5 * p + line - 1]
            ln[0] = colour
            ln[1] = min(line, ln[1] + ntiles)

    def round_closed(self, n, events, variant):
        for ev in events:
            if ev["e"] == "wall":
                for t in ev["tiles"]:
                    r = t[0] - 1
                    c = t[1] - 1 if variant == "grey" else coloured_column(r, t[-1])
                    self.walls[ev["p"]][r][c] = t[-1]
        for i, ln in enumerate(self.lines):                 # complete lines empty (wall or floor)
            if ln[1] == i % 5 + 1:
                ln[0], ln[1] = None, 0

    def legal(self, p, src):
        """Every move the rulebook allows: any colour present in a source, to the floor or a line
        that is empty or holds that colour with room left, whose wall row lacks the colour."""
        out = set()
        for s, counts in enumerate(src):
            for c in range(5):
                if not counts[c]:
                    continue
                out.add((s, c, 0))
                for r in range(5):
                    colour, cnt = self.lines[5 * p + r]
                    if NAMES[c] in self.walls[p][r] or cnt == r + 1:
                        continue
                    if cnt == 0 or colour == c:
                        out.add((s, c, r + 1))
        return out


class FixedRng:
    """Answers randbelow with a chosen value and remembers the bound it was asked for."""

    def __init__(self, x):
        self.x = x
        self.bound = None

    def randbelow(self, n):
        self.bound = n
        return self.x


def sampler_support(eng):
    """Every move _sample can return, one per value of its random number."""
    real = eng.rng
    probe = FixedRng(0)
    eng.rng = probe
    try:
        eng._sample(eng.cur)
        moves = []
        for x in range(probe.bound):
            probe.x = x
            moves.append(eng._sample(eng.cur))
    finally:
        eng.rng = real
    return moves


@settings(max_examples=120, deadline=None)
@given(players, seeds, variants)
def test_every_step_conserves_tiles_and_offers_exactly_the_legal_moves(n, seed, variant):
    """Seed 002 'A. 工廠供應': tiles are never created or lost (100 in all), scores never go
    below 0, legal_moves() is exactly the rulebook's set, and the sampler hits each move once."""
    eng = AzulEngine(n, Rng(seed), variant)
    shadow = Shadow(n)
    closed = 0
    while not eng.finished:
        counts = eng.tile_counts()
        assert sum(counts.values()) == 100 and min(counts.values()) >= 0, counts
        assert min(eng.scores) >= 0
        legal = eng.legal_moves()
        assert len(set(legal)) == len(legal)
        assert set(legal) == shadow.legal(eng.cur, eng.src)
        support = sampler_support(eng)
        assert sorted(support) == sorted(legal)          # a bijection: uniform over legal moves
        p = eng.cur
        move = eng.random_move()
        ntiles = eng.src[move[0]][move[1]]
        eng.apply(move)
        shadow.take(p, move[1], move[2], ntiles)
        if len(eng.events) > closed:
            shadow.round_closed(n, eng.events[closed:], variant)
            closed = len(eng.events)
    assert min(eng.scores) >= 0


@settings(max_examples=100, deadline=None)
@given(players, seeds, variants)
def test_play_random_is_the_same_game_as_stepping(n, seed, variant):
    a = AzulEngine(n, Rng(seed), variant)
    a.play_random()
    b = AzulEngine(n, Rng(seed), variant)
    while not b.finished:
        b.apply(b.random_move())
    assert a.events == b.events and a.scores == b.scores and a.winners == b.winners


@settings(max_examples=60, deadline=None)
@given(players, seeds, variants, st.data())
def test_apply_rejects_what_the_rules_forbid(n, seed, variant, data):
    eng = AzulEngine(n, Rng(seed), variant)
    for _ in range(data.draw(st.integers(0, 30))):
        if eng.finished:
            return
        eng.apply(eng.random_move())
    if eng.finished:
        return
    legal = set(eng.legal_moves())
    s = data.draw(st.integers(0, eng.nfac))
    c = data.draw(st.integers(0, 4))
    line = data.draw(st.integers(0, 5))
    if (s, c, line) not in legal:
        with pytest.raises(RuleError):
            eng.apply((s, c, line))
        assert set(eng.legal_moves()) == legal      # a rejected move changes nothing
    with pytest.raises(RuleError, match="does not exist"):
        eng.apply((eng.nfac + 1, 0, 0))


# ---- hand-worked cases ---------------------------------------------------------------------------
def fresh_round_end(variant="colored"):
    """An engine whose sources are emptied (tiles to the bag) so a round end can be set up by hand."""
    eng = AzulEngine(2, Rng(7), variant)
    for f in eng.src:
        for c in range(5):
            eng.bag[c] += f[c]
            eng.bag_n += f[c]
            f[c] = 0
    eng.nsrc = [0] * 5
    eng.left = 0
    return eng


def put_on_wall(eng, p, r, col, c):
    eng.wall[p] |= 1 << (5 * r + col)
    eng.wallT[p] |= 1 << (5 * col + r)
    eng.rowcol[p] |= 1 << (5 * r + c)
    eng.colcol[p][c] |= 1 << col


def fill_line(eng, p, r, c):
    eng.lcol[p][r] = c
    eng.lcnt[p][r] = r + 1


def test_placement_four_across_three_down_scores_seven():
    """Seed 002 '計分': 4 tiles connected horizontally and 3 vertically score 7."""
    eng = fresh_round_end()
    for col in (0, 1, 2):                  # row 3 (0-based 2): three tiles left of column 4
        put_on_wall(eng, 0, 2, col, (col - 2) % 5)
    for r in (0, 1):                       # column 4 (0-based 3): two tiles above row 3
        put_on_wall(eng, 0, r, 3, (3 - r) % 5)
    fill_line(eng, 0, 2, 1)                # line 3 full of yellow: cell (2, 3) is yellow
    eng.scores[0] = 5
    eng._end_round()
    assert eng.events[0] == {"e": "wall", "p": 0, "tiles": [[3, "yellow"]], "floor": 0}
    assert eng.scores[0] == 5 + 7
    assert eng.lid[1] == 2                 # the other two tiles of the line go to the lid


def test_same_phase_tiles_count_as_neighbours():
    """Seed 002 'B. 牆面鋪磚': lines go top to bottom, a tile placed earlier in the phase is
    adjacent for the later ones: line 1 blue (1 point), then line 2 white below it (2 points)."""
    eng = fresh_round_end()
    fill_line(eng, 1, 0, 0)                # blue at (0, 0)
    fill_line(eng, 1, 1, 4)                # white at (1, 0)
    eng._end_round()
    assert eng.events[1] == {"e": "wall", "p": 1, "tiles": [[1, "blue"], [2, "white"]], "floor": 0}
    assert eng.scores[1] == 3


def test_floor_four_tiles_and_marker_lose_eight_and_never_below_zero():
    """Seed 002 '計分': 4 tiles and the first-player marker on the floor lose 8 (1+1+2+2+2);
    a score does not drop below 0. The marker's holder starts the next round."""
    eng = fresh_round_end()
    eng.ftiles = [4, 3]
    eng.fcol = [[4, 0, 0, 0, 0], [0, 0, 3, 0, 0]]
    eng.holder = 1
    eng.scores = [10, 3]
    eng._end_round()
    assert eng.events[:3] == [{"e": "wall", "p": 0, "tiles": [], "floor": 4},
                              {"e": "wall", "p": 1, "tiles": [], "floor": 4},
                              {"e": "first", "p": 1}]
    assert eng.scores == [10 - 6, 0]
    assert eng.start == 1 and eng.cur == 1


def test_grey_wall_line_without_a_legal_cell_drops_all_its_tiles():
    """Seed 002 '變體規則': no legal cell for the line's rightmost tile: ALL its tiles go to
    the floor. Row 2's free columns 1 and 2 already hold red, so line 2 (2 red) drops 2 tiles."""
    eng = fresh_round_end("grey")
    put_on_wall(eng, 0, 0, 0, 2)           # red in column 1
    put_on_wall(eng, 0, 2, 1, 2)           # red in column 2
    for col, c in ((2, 0), (3, 1), (4, 3)):
        put_on_wall(eng, 0, 1, col, c)     # row 2: columns 3..5 filled
    fill_line(eng, 0, 1, 2)
    eng.ftiles[0] = 6
    eng.fcol[0][0] = 6
    eng.scores[0] = 20
    eng._end_round()
    assert eng.events[0] == {"e": "wall", "p": 0, "tiles": [], "floor": 7}
    assert eng.scores[0] == 20 - 14        # all 7 slots: 1+1+2+2+2+3+3
    assert eng.lcnt[0][1] == 0 and eng.lmask[0][2] & 2   # line 2 is empty and may take red again


def test_marker_onto_a_full_floor_keeps_seven_slots():
    """Seed 002 '地板排': the marker takes the leftmost free slot and floor tiles beyond 7 go to
    the lid; with 7 tiles already on the floor, one makes room for the marker (7 slots stay)."""
    eng = AzulEngine(2, Rng(3))
    p = eng.cur
    spare = eng.bag.index(max(eng.bag))
    eng.bag[spare] -= 7                    # 7 tiles of the bag onto p's floor
    eng.bag_n -= 7
    eng.ftiles[p] = 7
    eng.fcol[p][spare] = 7
    mixed = next(s for s in range(1, eng.nfac + 1) if sum(1 for k in eng.src[s] if k) >= 2)
    c = next(c for c in range(5) if eng.src[mixed][c])
    lid = sum(eng.lid)
    n = eng.src[mixed][c]
    eng.apply((mixed, c, 0))               # floor full: all of them go to the lid
    assert sum(eng.lid) == lid + n and eng.ftiles[p] == 7
    eng.apply(next(m for m in eng.legal_moves() if m[0] > 0 and m[2] == 0))
    lid = sum(eng.lid)
    move = next(m for m in eng.legal_moves() if m[0] == 0 and m[2] == 0)
    n = eng.src[0][move[1]]
    eng.apply(move)
    assert eng.holder == p
    assert eng.ftiles[p] == 6              # six tiles and the marker: 7 slots
    assert sum(eng.lid) == lid + 1 + n     # the displaced tile and all the taken ones
    assert sum(eng.tile_counts().values()) == 100


def test_same_seed_same_game_on_micropython():
    """The engine runs on MicroPython and a seed names the same game there."""
    code = ("import sys\nsys.path.insert(0, '.')\nfrom rules_core.azul_engine import random_game\n"
            "for v in ('colored', 'grey'):\n for n in (2, 3, 4):\n  for seed in (1, 99, 12345):\n"
            "   h, e, s, w = random_game(n, seed, v)\n   print(s, w, len(e))\n")
    want = []
    for v in ("colored", "grey"):
        for n in (2, 3, 4):
            for seed in (1, 99, 12345):
                h, e, s, w = random_game(n, seed, v)
                want.append("%s %s %d" % (s, w, len(e)))
    r = mp.run(["-c", code])
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:-1] == want
