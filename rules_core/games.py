"""The games this companion scores, one row each: the one table the record reader, the
setup flow and the screens read (names, variants and their labels, players, start player).

A row names its rules class instead of holding it: a board's heap holds the code of one
game, so a game's rules module is imported only when that game is played (by
rules_core.session.rules_class; the rules modules import this table, never the reverse).
The table is four str rows, and an entry (Game) is built from its row when asked for: a
module's data stays on the heap as long as the module, and four entries held as objects
with their tuples cost a board 2 KB more than the text (tests/test_micropython.py's replay
budget). A Pico builds an entry in about 1.3 ms: the device keeps its game's (keep(): a
game's start, its screens and an undo's refold ask for it many times), a replay keeps none
(0.4-0.6 KB of a board's heap), and modules() reads the rows without building.
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
