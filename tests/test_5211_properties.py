"""5211 properties (CPython): engine games replay through Game5211Rules to the engine's scores,
cards are conserved at every step, and the round scoring matches a second formulation."""
from collections import Counter

from hypothesis import given, settings, strategies as st

from rules_core.game5211_engine import Engine5211, new_deck_cards, random_game
from rules_core.game5211 import (COLOURS, REMOVED, VALUE_COUNTS, Game5211Rules, full_deck_counts,
                                 rounds_per_deck, scoring_colour)
from rules_core.games import game
from rules_core.rng import Rng

players = st.integers(min_value=2, max_value=5)
variants = st.sampled_from(game("5211").variants)
seeds = st.integers(min_value=0, max_value=2 ** 30 - 1)


@settings(max_examples=150, deadline=None)
@given(players, seeds, variants)
def test_replay_gives_engine_scores_and_conserves_cards(n, seed, variant):
    header, events, scores = random_game(n, seed, variant)
    assert header["game"] == "5211" and len(header["players"]) == n
    r = Game5211Rules(variant, n, header["options"])
    revealed = Counter()  # this deck's revealed cards, counted from the events alone
    ends = 0
    for ev in events:
        r.apply(ev)
        if ev["e"] == "play":
            revealed.update((c, v) for c, v in ev["cards"])
        elif ev["e"] == "new_deck":
            assert ends % rounds_per_deck(n) == 0 and max(r.scores) < 50
            revealed = Counter()
        else:
            ends += 1
        left = r.cards_left()
        assert all(left[cv] == full_deck_counts()[cv] - revealed[cv] >= 0 for cv in left)
    assert r.finished and r.pending() == []
    assert r.scores == scores
    assert len(r.round_scores) == ends
    assert (r.round_scores[-1] if r.round_scores else [0] * len(scores)) == scores
    if variant == "standard":
        assert ends == rounds_per_deck(n) and r.round == r.rounds_total
    else:
        assert max(scores) >= 50
        assert sum(r.breakdown(0)["deck%d" % (d + 1)] for d in range(r.deck)) == scores[0]


@settings(max_examples=60, deadline=None)
@given(players, seeds, variants)
def test_engine_conserves_the_deck_every_round(n, seed, variant):
    """Removed + pile + hands + discarded/scored cards are always the full 100-card deck;
    hands hold 5 cards between rounds until the deck's last round."""
    eng = Engine5211(n, Rng(seed), variant)
    full = sorted(new_deck_cards())
    assert len(eng.removed) == REMOVED[n]
    while not eng.finished:
        assert sorted(eng.cards_in_play()) == full
        assert all(len(h) == 5 for h in eng.hands)
        events = eng.play_round()
        plays = [e for e in events if e["e"] == "play"]
        assert [len(e["cards"]) for e in plays] == [2] * n + [1] * (2 * n)
    assert sorted(eng.cards_in_play()) == full


def reference_scoring(plays, n):
    """Rulebook 2.1/2.2 stated as repeated elimination (a second formulation)."""
    cards = [c for hand in plays for c in hand]
    if sum(1 for c in cards if c[1] == 1) == n + 2:
        return "roosters"
    counts = Counter(c for c, _ in cards)
    left = {c: k for c, k in counts.items() if k < n + 3}
    while left:
        top = max(left.values())
        tied = [c for c, k in left.items() if k == top]
        if len(tied) == 1:
            return tied[0]
        for c in tied:
            del left[c]
    return None


card = st.tuples(st.sampled_from(COLOURS), st.sampled_from(sorted(VALUE_COUNTS)))


@settings(max_examples=400, deadline=None)
@given(players.flatmap(lambda n: st.lists(st.lists(card, min_size=4, max_size=4),
                                          min_size=n, max_size=n)))
def test_scoring_matches_reference(plays):
    n = len(plays)
    assert scoring_colour(plays, n) == reference_scoring(plays, n)


@settings(max_examples=50, deadline=None)
@given(players, seeds)
def test_rejected_event_leaves_state_unchanged(n, seed):
    """A rejected play (an extra card beyond the 4 of the round) changes nothing."""
    _, events, _ = random_game(n, seed)
    r = Game5211Rules("standard", n, {})
    for ev in events[:3 * n]:
        r.apply(ev)
    before = (r.cards_left(), [r.round_plays(p) for p in range(n)], r.pending())
    try:
        r.apply({"e": "play", "p": 0, "cards": [["blue", 2]]})
        raise AssertionError("a 5th card was accepted")
    except ValueError:
        pass
    assert (r.cards_left(), [r.round_plays(p) for p in range(n)], r.pending()) == before
