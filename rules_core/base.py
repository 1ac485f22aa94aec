"""What every game's rules share: the state and hooks Session reads (with their defaults),
field checks whose message names the event and the field, and one way to name a player.

A rules class validates every field it reads and raises RecordError (a malformed field) or
RuleError (a rule forbids the event): anything else escaping apply() is a bug.
"""
from rules_core import RecordError
from rules_core.games import game


def player(p):
    """A player as messages name them: "player 1" is index 0, as the screens number seats."""
    return "player %d" % (p + 1)


def check_int(what, x, lo, hi):
    """x as an int lo..hi (a bool is not a number here), or RecordError naming `what`."""
    if type(x) is not int or x < lo or x > hi:
        raise RecordError("%s must be a whole number %d..%d, got %r" % (what, lo, hi, x))
    return x


def check_ints(what, x, n_lo, n_hi, lo, hi):
    """x as a list (or tuple) of n_lo..n_hi ints, each lo..hi."""
    if type(x) not in (list, tuple) or not n_lo <= len(x) <= n_hi:
        raise RecordError("%s must be a list of %d..%d whole numbers, got %r" % (what, n_lo, n_hi, x))
    for v in x:
        if type(v) is not int or v < lo or v > hi:
            raise RecordError("%s must be whole numbers %d..%d, got %r" % (what, lo, hi, v))
    return x


def int_field(ev, key, lo, hi):
    """ev[key] as an int lo..hi; the message names the event and the field ("window col")."""
    x = ev.get(key)
    if type(x) is not int or x < lo or x > hi:
        check_int("%s %s" % (ev.get("e"), key), x, lo, hi)   # formats the message only here
    return x


class Rules:
    """The base of a game's rules: a state you apply events to (python-chess style).

    A game sets GAME (its key in rules_core.games) and TIEBREAK, calls Rules.__init__ first,
    and implements apply(ev), pending() (entries still required: [(event, player or None)],
    those due before end_round first) and breakdown(p) (score parts for screens and exports,
    with "total"); the other hooks have defaults.
    """
    GAME = ""
    TIEBREAK = None   # what decides a tie in the result text, or None: tied players share
    # attributes holding lists, dicts or bytearrays that change in place (a player's cards
    # this round): a clone (app.current.clone) copies them all the way down. Any other list, dict or bytearray
    # is copied one level: its items are ints, strs, tuples, or never changed once in it
    # (round_scores' rows). tests/core/test_clone.py checks it on every golden game.
    NESTED = ()

    def __init__(self, variant, nplayers, options):
        self.variant = game(self.GAME).check(variant, nplayers)
        if type(options) is not dict and options is not None:
            raise RecordError("%s options must be an object, got %r" % (self.GAME, options))
        self.nplayers = nplayers
        self.round = 1             # 1-based; after the last round, the last round's number
        self.rounds_total = None   # None when play decides it (Azul)
        self.start_player = 0      # who starts the current round (Session sets options.start)
        self.finished = False
        self.closed = False        # the last round has ended and final-scoring entries are awaited
        self.scores = [0] * nplayers
        self.round_scores = []     # every player's total when each round closed

    def player_field(self, ev):
        """ev["p"] as a player index of this game."""
        return int_field(ev, "p", 0, self.nplayers - 1)

    def last_round(self):
        """True when the current round is known to be the game's last."""
        return self.rounds_total is not None and self.round >= self.rounds_total

    def round_name(self):
        """The current round as reports name it: "round 3", "round 3/6" when the number of
        rounds is known."""
        if self.rounds_total:
            return "round %d/%d" % (self.round, self.rounds_total)
        return "round %d" % self.round

    def bonus_colour(self):
        """The colour this round rewards, or None (Sintra's round indicator)."""
        return None

    def assumed(self):
        """Names of the board values the record does not give, taken from the project's
        unverified tables (Sintra); replay warns about them."""
        return []

    def rank_key(self, p):
        """Bigger is better: the score, then the game's tie-break value."""
        return (self.scores[p],)
