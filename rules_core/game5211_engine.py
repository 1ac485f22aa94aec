"""5211 full game engine for simulation: deck, setup removal, hands, reveals, drawing.

Follows the rulebook: shuffle, remove cards unseen by player count, deal 5 each; a round is
three reveals of 2, 1, 1 cards, each followed by drawing back to 5 while the pile lasts; once
the pile is empty the last round is played from hand and the 5th card is discarded. Long
variant: a used-up deck with nobody at 50 is followed by a fresh shuffled deck.
Players choose uniformly at random among their cards (a legal, not a good, strategy).
Round scoring uses the same functions as `Game5211Rules` (one place for the rule); the engine
keeps its own hands, pile and score piles, and emits the record events.
"""
from rules_core.game5211 import (COLOURS, VALUE_COUNTS, HAND_SIZE, REMOVED, LONG_TARGET,
                                 Game5211Rules, scoring_colour, kept_cards)
from rules_core.games import game
from rules_core.rng import Rng

REVEAL_SIZES = (2, 1, 1)


def new_deck_cards():
    """The 100 cards of one deck as (colour, value) tuples, in a fixed order."""
    cards = []
    for c in COLOURS:
        for v in sorted(VALUE_COUNTS):
            cards.extend([(c, v)] * VALUE_COUNTS[v])
    return cards


class Engine5211:
    def __init__(self, nplayers, rng, variant="standard"):
        game(Game5211Rules.GAME).check(variant, nplayers)
        self.n = nplayers
        self.rng = rng
        self.variant = variant
        self.scores = [0] * nplayers
        self.score_piles = [[] for _ in range(nplayers)]  # all decks
        self.deck = 0
        self.finished = False
        self._deal()

    def _deal(self):
        """Shuffle a full deck, remove cards unseen, deal the hands; the rest is the pile."""
        cards = new_deck_cards()
        self.rng.shuffle(cards)
        r = REMOVED[self.n]
        self.removed = cards[:r]
        self.hands = []
        at = r
        for _ in range(self.n):
            self.hands.append(cards[at:at + HAND_SIZE])
            at += HAND_SIZE
        self.pile = cards[at:]
        self.out = []  # this deck's cards discarded or put in a score pile
        self.deck += 1

    def cards_in_play(self):
        """Every card of the current deck, wherever it is (conservation: always the full deck)."""
        cards = list(self.removed) + list(self.pile) + list(self.out)
        for h in self.hands:
            cards.extend(h)
        return cards

    def play_round(self):
        """Play one round; return its record events (plays, end_round, maybe new_deck)."""
        if self.finished:
            raise ValueError("the game is over")
        from_hand = not self.pile  # the last round of this deck
        events = []
        table = [[] for _ in range(self.n)]
        for size in REVEAL_SIZES:
            for p in range(self.n):
                hand = self.hands[p]
                reveal = [hand.pop(self.rng.randbelow(len(hand))) for _ in range(size)]
                table[p].extend(reveal)
                events.append({"e": "play", "p": p, "cards": [[c, v] for c, v in reveal]})
            if not from_hand:
                for p in range(self.n):
                    if len(self.pile) < size:
                        raise ValueError("pile ran out mid-round: deck sizes are inconsistent")
                    self.hands[p].extend(self.pile[:size])
                    del self.pile[:size]
        scoring = scoring_colour(table, self.n)
        for p in range(self.n):
            keep = kept_cards(table[p], scoring)
            for cv in keep:
                self.scores[p] += cv[1]
            self.score_piles[p].extend(keep)
            self.out.extend(table[p])
        events.append({"e": "end_round"})
        top = max(self.scores)
        if from_hand:
            for h in self.hands:  # the 5th card is discarded
                self.out.extend(h)
                del h[:]
            if self.variant == "long" and top < LONG_TARGET:
                events.append({"e": "new_deck"})
                self._deal()
            else:
                self.finished = True
        elif self.deck > 1 and top >= LONG_TARGET:
            self.finished = True
        return events


def random_game(nplayers, seed, variant="standard"):
    """A whole random game: (record header dict, v1 events, final scores)."""
    eng = Engine5211(nplayers, Rng(seed), variant)
    header = {"format": "azul-companion-record", "v": 1, "game": Game5211Rules.GAME,
              "variant": variant, "players": ["P%d" % (i + 1) for i in range(nplayers)],
              "options": {}}
    events = []
    while not eng.finished:
        events.extend(eng.play_round())
    return header, events, list(eng.scores)
