"""5211 (Azul special edition, 2024) scoring and record validation (rulebook, seed 004)."""
# A `play` is one reveal: 2 cards, then 1, then 1. `round` counts rounds within the deck;
# round_scores are the totals when each round closed. Messages number players from 1.
from rules_core.games import Rules, player
from rules_core import RecordError, RuleError, const

COLOURS = ("green", "yellow", "blue", "orange", "teal")
VALUE_COUNTS = {1: 5, 2: 6, 3: 5, 4: 2, 5: 1, 6: 1}  # copies per colour; 1 is the rooster
REMOVED = {2: 10, 3: 13, 4: 0, 5: 15}  # setup ("遊戲設置"): cards removed unseen, by players
HAND_SIZE = const(5)
_CARDS_PER_ROUND = const(4)  # per player, revealed 2, 1, 1
LONG_TARGET = const(50)
ROOSTERS = "roosters"


def rounds_per_deck(nplayers):
    """Rounds with drawing until the pile is empty, plus the last one from hand: 11, 7, 6, 4."""
    pile = 100 - REMOVED[nplayers] - HAND_SIZE * nplayers
    return pile // (_CARDS_PER_ROUND * nplayers) + 1


def full_deck_counts():
    """{(colour, value): copies} of one 100-card deck."""
    out = {}
    for c in COLOURS:
        for v in VALUE_COUNTS:
            out[(c, v)] = VALUE_COUNTS[v]
    return out


def card_index(colour, value):
    """Position of a card kind in a flat list of 30 (a small state for replays on the device)."""
    return COLOURS.index(colour) * 6 + value - 1


def scoring_colour(plays, nplayers):
    """What scores a round: "roosters", a colour or None (rulebook 2.1, 2.2)."""
    count = {}
    roosters = 0
    for cards in plays:
        for c, v in cards:
            count[c] = count.get(c, 0) + 1
            roosters += v == 1
    if roosters == nplayers + 2:
        return ROOSTERS
    by_count = {}  # count -> colours with it, for colours revealed and below the cap
    for c in count:
        if count[c] < nplayers + 3:
            by_count.setdefault(count[c], []).append(c)
    for n in sorted(by_count, reverse=True):
        if len(by_count[n]) == 1:
            return by_count[n][0]
    return None


def kept_cards(cards, scoring):
    """The cards of one player's reveals that go to the score pile."""
    i, want = (1, 1) if scoring == ROOSTERS else (0, scoring)  # a rooster's value is 1
    out = []
    for cv in cards:
        if cv[i] == want:
            out.append(cv)
    return out


def parse_cards(cards):
    """A play's cards as (colour, value) tuples; RecordError for a malformed card."""
    if not isinstance(cards, list) or not cards:
        raise RecordError("play needs a non-empty list of cards")
    out = []
    for card in cards:
        if not isinstance(card, list) or len(card) != 2:
            raise RecordError("a card is [colour, value], not %r" % (card,))
        if card[0] not in COLOURS:
            raise RecordError("unknown colour %r" % (card[0],))
        if type(card[1]) is not int or card[1] not in VALUE_COUNTS:
            raise RecordError("card value %r is not 1..6" % (card[1],))
        out.append((card[0], card[1]))
    return out


class Game5211Rules(Rules):
    GAME = "5211"
    TIEBREAK = "most cards in the score pile"
    NESTED = ("plays", "deck_points")

    def __init__(self, variant, nplayers, options):
        Rules.__init__(self, variant, nplayers, options)
        if options:
            raise RecordError("5211 has no options")
        self.rounds_total = rounds_per_deck(nplayers)
        self.deck = 1
        # start_player stays 0: reveals are simultaneous, nobody starts
        self.deck_used_up = False  # long variant: waiting for new_deck
        self.kept = [0] * nplayers      # cards kept over the whole game
        # cards in each score pile: the deck being played's (long variant: a new deck is
        # shuffled from all 100 cards, score piles included, 久時變體)
        self.pile = [0] * nplayers
        self.roosters = [0] * nplayers  # roosters among them
        self.deck_points = [[0] * nplayers]  # per deck, per player
        self.round_scoring = []  # per closed round: "roosters", a colour or None
        self.plays = []  # cards revealed this round, per player
        for _ in range(nplayers):
            self.plays.append([])
        self.seen = bytearray(30)  # copies revealed from the current deck, at card_index()

    def apply(self, ev):
        e = ev.get("e")
        if e not in ("play", "end_round", "new_deck"):
            raise RecordError("unknown 5211 event %r" % (e,))
        if self.finished:
            raise RuleError("the game is over: no %s after the end" % e)
        if e == "play":
            self._play(ev)
        elif e == "end_round":
            self._end_round()
        else:
            self._new_deck()

    def _play(self, ev):
        p = self.player_field(ev)
        cards = parse_cards(ev.get("cards"))
        if self.deck_used_up:
            raise RuleError("the deck is used up: new_deck comes before more plays")
        want = self.next_reveal_size(p)
        if not want:
            raise RuleError("%s already revealed 4 cards this round" % player(p))
        if len(cards) != want:
            nth = ("first", "", "second", "third")[len(self.plays[p])]
            raise RuleError("%s's %s reveal of the round is %d card%s, not %d" % (
                player(p), nth, want, "s" * (want > 1), len(cards)))
        seen = bytearray(self.seen)  # conservation: no more copies than one deck has
        for c, v in cards:
            seen[card_index(c, v)] += 1
            if seen[card_index(c, v)] > VALUE_COUNTS[v]:
                raise RuleError("no %s %s left in the deck" % (c, "rooster" if v == 1 else v))
        self.seen = seen
        self.plays[p].extend(cards)

    def _end_round(self):
        if self.deck_used_up:
            raise RuleError("the deck is used up: new_deck comes before the next round")
        for p in range(self.nplayers):
            if len(self.plays[p]) != _CARDS_PER_ROUND:
                raise RuleError("%s revealed %d of 4 cards this round" % (player(p), len(self.plays[p])))
        scoring = scoring_colour(self.plays, self.nplayers)
        for p in range(self.nplayers):
            keep = kept_cards(self.plays[p], scoring)
            pts = roosters = 0
            for c, v in keep:
                pts += v
                roosters += v == 1
            self.kept[p] += len(keep)
            self.pile[p] += len(keep)
            self.roosters[p] += roosters
            self.scores[p] += pts
            self.deck_points[-1][p] += pts
        self.round_scores.append(list(self.scores))
        self.round_scoring.append(scoring)
        self.plays = []
        for _ in range(self.nplayers):
            self.plays.append([])
        top = max(self.scores)
        if self.round == self.rounds_total:
            # the pile ran out ("遊戲結束"; long variant "每次抽牌堆耗盡時": go on below 50)
            if self.variant == "long" and top < LONG_TARGET:
                self.deck_used_up = True
            else:
                self.finished = True
        elif self.deck > 1 and top >= LONG_TARGET:
            self.finished = True  # long variant "從現在開始": ends with the round reaching 50
        else:
            self.round += 1

    def _new_deck(self):
        if self.variant != "long":
            raise RuleError("new_deck is only in the long variant")
        if not self.deck_used_up:
            raise RuleError("new_deck only when the deck is used up (round %d of %d)" % (
                self.round, self.rounds_total))
        self.deck_used_up = False
        self.deck += 1
        self.round = 1
        self.seen = bytearray(30)
        self.deck_points.append([0] * self.nplayers)
        self.pile = [0] * self.nplayers

    def pending(self):
        if self.finished:
            return []
        if self.deck_used_up:
            return [("new_deck", None)]
        out = []
        for p in range(self.nplayers):
            if self.next_reveal_size(p):
                out.append(("play", p))
        return out

    def round_name(self):
        """The long game counts rounds within each deck: its reports name the deck too."""
        name = Rules.round_name(self)
        return "deck %d, %s" % (self.deck, name) if self.variant == "long" else name

    def last_round(self):
        """The current round is known to end the game (long: someone already has 50)."""
        if self.variant == "long" and max(self.scores) < LONG_TARGET:
            return False
        return self.round == self.rounds_total

    def cards_left(self):
        """{(colour, value): copies} not yet revealed from the current deck (entry screens)."""
        left = full_deck_counts()
        for cv in left:
            left[cv] -= self.seen[card_index(cv[0], cv[1])]
        return left

    def round_plays(self, p):
        """Cards player p revealed so far this round, as (colour, value) tuples."""
        return list(self.plays[p])

    def next_reveal_size(self, p):
        """Cards player p's next play carries: 2 first, then 1 and 1; 0 once 4 are revealed."""
        n = len(self.plays[p])
        return 2 if n == 0 else int(n < _CARDS_PER_ROUND)

    def scoring_colour_of_round(self):
        """What scored in the last closed round: "roosters", a colour, or None."""
        return self.round_scoring[-1] if self.round_scoring else None

    def rank_key(self, p):
        # 遊戲勝利: on a tie, the most cards in the score pile
        return (self.scores[p], self.pile[p])

    def breakdown(self, p):
        last = self.scoring_colour_of_round()
        b = {"total": self.scores[p], "cards_kept": self.kept[p], "score_pile": self.pile[p],
             "roosters_kept": self.roosters[p],
             "decks": len(self.deck_points), "last_scored": last or "-"}
        for i in range(len(self.deck_points)):
            b["deck%d" % (i + 1)] = self.deck_points[i][p]
        return b
