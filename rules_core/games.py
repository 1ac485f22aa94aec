"""The games this companion scores and what every game's rules share: one module, which
every replay loads whole (a module of its own costs a Pico's heap about 0.25 KB besides
its code).

The registry: one row a game, the one table the record reader, the setup flow and the
screens read (names, variants and their labels, players, start player). A row names its
rules class instead of holding it: a board's heap holds the code of one game, so a game's
rules module is imported only when that game is played (by rules_core.session.rules_class;
the rules modules import this one, never the reverse). The table is four str rows, and an
entry (Game) is built from its row when asked for: a module's data stays on the heap as
long as the module, and four entries held as objects with their tuples cost a board 2 KB
more than the text (tests/test_micropython.py's replay budget). A Pico builds an entry in
about 1.3 ms: the device keeps its game's (keep(): a game's start, its screens and an
undo's refold ask for it many times), a replay keeps none (0.4-0.6 KB of a board's heap),
and modules() reads the rows without building.

The rules base (Rules): the state and hooks Session reads (with their defaults), field
checks whose message names the event and the field, and one way to name a player. A rules
class validates every field it reads and raises RecordError (a malformed field) or
RuleError (a rule forbids the event): anything else escaping apply() is a bug.
"""
from rules_core import RecordError

# key | rules class | name (menus) | short (a 16-character row) | variants (the record's
# names, the default first) | their labels | players | a start player each round |
# unverified: colour and pattern names the rulebook text does not give (marked "?")
_ROWS = (
    "azul|rules_core.azul.AzulRules|Azul|Azul|colored,grey|coloured wall,grey wall|2-4|yes|",
    "sintra|rules_core.sintra.SintraRules|Sintra|Sintra|A,B|side A,side B|2-4|yes|green,blue",
    "garden|rules_core.garden.GardenRules|Queen's Garden|Garden|standard,variant|standard,variant side|2-4|"
    "yes|lightgreen,darkgreen,lilac,purple,plant,lily",
    "5211|rules_core.game5211.Rules5211|5211|5211|standard,long|standard,long (to 50)|2-5|no|",
)
_kept = None  # the device's game's entry (keep()), which game() returns without building


class Game:
    """One row of the table: key, name, short, variants, labels, players (min, max),
    has_start_player (False where nobody starts a round: 5211's reveals are simultaneous),
    module and class_name (the game's rules), unverified."""

    def __init__(self, row):
        f = row.split("|")
        self.key, self.name, self.short = f[0], f[2], f[3]
        self.module, self.class_name = f[1].rsplit(".", 1)
        self.variants, self.labels = tuple(f[4].split(",")), tuple(f[5].split(","))
        self.players = (int(f[6][0]), int(f[6][2]))
        self.has_start_player = f[7] == "yes"
        self.unverified = tuple(f[8].split(",")) if f[8] else ()

    def check(self, variant, nplayers):
        """The variant played (None: the default), once it and the player count are valid."""
        if variant is None:
            variant = self.variants[0]
        if variant not in self.variants:
            raise RecordError("%s has no variant %r (one of %s)" % (self.key, variant, ", ".join(self.variants)))
        lo, hi = self.players
        if type(nplayers) is not int or not lo <= nplayers <= hi:
            raise RecordError("%s needs %d to %d players, got %r" % (self.key, lo, hi, nplayers))
        return variant


def games():
    """Every game's entry, in the menus' order."""
    for row in _ROWS:
        yield Game(row)


def modules():
    """[(key, rules module)] of every game, read off the rows (no entry built)."""
    out = []
    for row in _ROWS:
        i = row.find("|")
        out.append((row[:i], row[i + 1:row.rfind(".", 0, row.find("|", i + 1))]))
    return out


def game(key):
    """The entry of a record's "game" (any JSON value: a list or a dict is simply unknown)."""
    if _kept is not None and _kept.key == key:
        return _kept
    if type(key) is str:
        for row in _ROWS:
            if row.startswith(key + "|"):
                return Game(row)
    keys = []
    for g in games():
        keys.append(g.key)
    keys.sort()
    raise RecordError("unknown game %r (one of %s)" % (key, ", ".join(keys)))


def keep(key):
    """game(key), kept until another is: the device's game in play (its set-up, its
    session's checks and screens) then builds no other."""
    global _kept
    _kept = game(key)
    return _kept


# --- the rules base: what every game's rules share ---

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

    A game sets GAME (its key in the registry above) and TIEBREAK, calls Rules.__init__ first,
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
