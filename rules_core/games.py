"""The games this companion scores, one row each: the one table the record reader, the
setup flow and the screens read (names, variants and their labels, players, start player).

A row names its rules class instead of holding it: a board's heap holds the code of one
game, so a game's rules module is imported only when that game is played (by
rules_core.session.rules_class; the rules modules import this table, never the reverse).
The table is one str, and an entry (Game) is built from its row when asked for: a module's
data stays on the heap as long as the module, and four entries held as objects with their
tuples cost a board 2 KB more than the text (tests/test_micropython.py's replay budget).
"""
from rules_core.errors import RecordError

# key | name (menus) | short (a 16-character row) | variants (the record's names, the
# default first) | their labels | players | a start player each round | rules class |
# unverified: colour and pattern names the rulebook text does not give (marked "?")
_TABLE = """\
azul|Azul|Azul|colored,grey|coloured wall,grey wall|2-4|yes|rules_core.azul.AzulRules|
sintra|Sintra|Sintra|A,B|side A,side B|2-4|yes|rules_core.sintra.SintraRules|green,blue
garden|Queen's Garden|Garden|standard,variant|standard,variant side|2-4|yes|rules_core.garden.GardenRules|\
lightgreen,darkgreen,lilac,purple,plant,lily
5211|5211|5211|standard,long|standard,long (to 50)|2-5|no|rules_core.game5211.Rules5211|
"""


def _names(field):
    return tuple(field.split(",")) if field else ()


class Game:
    """One row of the table: key, name, short, variants, labels, players (min, max),
    has_start_player (False where nobody starts a round: 5211's reveals are simultaneous),
    module and class_name (the game's rules), unverified."""

    def __init__(self, row):
        f = row.split("|")
        self.key, self.name, self.short = f[0], f[1], f[2]
        self.variants, self.labels = _names(f[3]), _names(f[4])
        self.players = (int(f[5][0]), int(f[5][2]))
        self.has_start_player = f[6] == "yes"
        self.module, self.class_name = f[7].rsplit(".", 1)
        self.unverified = _names(f[8])

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
    for row in _TABLE[:-1].split("\n"):
        yield Game(row)


def game(key):
    """The entry of a record's "game" (any JSON value: a list or a dict is simply unknown)."""
    for g in games():
        if g.key == key:
            return g
    raise RecordError("unknown game %r (one of %s)" % (key, ", ".join(sorted(g.key for g in games()))))
