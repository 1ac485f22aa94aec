"""The games this companion scores, one entry each: the one table the record reader, the
setup flow and the screens read (names, variants and their labels, players, start player).

An entry names its rules class instead of holding it: a board's heap holds the code of one
game, so a game's rules module is imported only when that game is played (by
rules_core.session.rules_class; the rules modules import this table, never the reverse).
"""
from rules_core.errors import RecordError


class Game:
    """key: the record's "game"; name: the full title (menus); short: the title on a
    16-character row; variants: the record's names, the first is the default, and labels:
    theirs on the screens; players: (min, max); has_start_player: False where nobody starts
    a round (5211's reveals are simultaneous); module, class_name: the game's rules;
    unverified: colour and pattern names of the game's module that its rulebook text does not
    give (working names, marked "?" on the screens)."""

    def __init__(self, key, name, short, variants, labels, players, has_start_player, module, class_name,
                 unverified=()):
        self.key = key
        self.name = name
        self.short = short
        self.variants = variants
        self.labels = labels
        self.players = players
        self.has_start_player = has_start_player
        self.module = module
        self.class_name = class_name
        self.unverified = unverified

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


GAMES = (
    Game("azul", "Azul", "Azul", ("colored", "grey"), ("coloured wall", "grey wall"), (2, 4), True,
         "rules_core.azul", "AzulRules"),
    Game("sintra", "Sintra", "Sintra", ("A", "B"), ("side A", "side B"), (2, 4), True,
         "rules_core.sintra", "SintraRules", ("green", "blue")),
    Game("garden", "Queen's Garden", "Garden", ("standard", "variant"), ("standard", "variant side"),
         (2, 4), True, "rules_core.garden", "GardenRules",
         ("lightgreen", "darkgreen", "lilac", "purple", "plant", "lily")),
    Game("5211", "5211", "5211", ("standard", "long"), ("standard", "long (to 50)"), (2, 5), False,
         "rules_core.game5211", "Rules5211"),
)


def game(key):
    """The entry of a record's "game" (any JSON value: a list or a dict is simply unknown)."""
    for g in GAMES:
        if g.key == key:
            return g
    raise RecordError("unknown game %r (one of %s)" % (key, ", ".join(sorted(g.key for g in GAMES))))
