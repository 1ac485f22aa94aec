"""The games this companion scores (the registry) and what every game's rules share (Rules).

GAMES is python-chess's VARIANTS as plain data: one Game a title, holding everything the
screens, the record reader, the exports, the CLI and the benches ask of it. A Game names its
modules instead of holding them, so that only the game played is imported (a board's heap
holds the code of one game): its rules class (rules_core.session.rules_class), its screens
(app.entries.module) and, where there is one, its engine of random legal games.

Adding a game: a Game below, a rules module (a Rules subclass whose GAME is the key) and an
entry-screen module (app/entry_<key>.py: actions(app), and the optional hooks it names);
docs/ARCHITECTURE.md lists the rest, tests/test_registry.py checks that they agree.

The rules base (Rules): the state and hooks Session reads (with their defaults), field
checks whose message names the event and the field, and one way to name a player. A rules
class validates every field it reads and raises RecordError (a malformed field) or
RuleError (a rule forbids the event): anything else escaping apply() is a bug.
"""
from rules_core import RecordError


class Game:
    """A game of the registry: key (the record's "game"), name (menus), short (a 16-character
    row), title (the box's, for exports), variants (the record's names, the default first)
    and their labels, players (min, max), start_player (False where nobody starts a round:
    5211's reveals are simultaneous), rules ("module.Class"), screens (the entry module),
    engine (a module with random_game(), or None), bgg (BoardGameGeek's id, 0: unknown),
    unverified (colour and pattern names its rulebook text does not give: shown with "?"),
    settings (the Settings menu's item of the game's own, from its screens' settings(app))."""

    def __init__(self, key, name, short, title, variants, labels, players, start_player, rules,
                 screens, engine=None, bgg=0, unverified=(), settings=None):
        self.key, self.name, self.short, self.title = key, name, short, title
        self.variants, self.labels, self.players = variants, labels, players
        self.has_start_player = start_player
        self.module, self.class_name = rules.rsplit(".", 1)
        self.screens, self.engine, self.bgg = screens, engine, bgg
        self.unverified, self.settings = unverified, settings

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


GAMES = [
    Game("azul", "Azul", "Azul", "Azul", ("colored", "grey"), ("coloured wall", "grey wall"), (2, 4), True,
         "rules_core.azul.AzulRules", "app.entry_azul", engine="rules_core.azul_engine", bgg=230802),
    Game("sintra", "Sintra", "Sintra", "Azul: Stained Glass of Sintra", ("A", "B"), ("side A", "side B"),
         (2, 4), True, "rules_core.sintra.SintraRules", "app.entry_sintra", bgg=256226,
         unverified=("green", "blue"), settings="Sintra board"),
    Game("garden", "Queen's Garden", "Garden", "Azul: Queen's Garden", ("standard", "variant"),
         ("standard", "variant side"), (2, 4), True, "rules_core.garden.GardenRules", "app.entry_garden",
         unverified=("lightgreen", "darkgreen", "lilac", "purple", "plant", "lily")),
    Game("5211", "5211", "5211", "5211", ("standard", "long"), ("standard", "long (to 50)"), (2, 5), False,
         "rules_core.game5211.Game5211Rules", "app.entry_5211", engine="rules_core.game5211_engine"),
]


def game(key):
    """The entry of a record's "game" (any JSON value: a list or a dict is simply unknown)."""
    for g in GAMES:
        if g.key == key:
            return g
    keys = [g.key for g in GAMES]
    keys.sort()
    raise RecordError("unknown game %r (one of %s)" % (key, ", ".join(keys)))


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
