"""New game: game -> variant -> number of players -> names -> start player
(-> Sintra: board check once, round colours I..VI) -> the scoreboard.

Each step is a menu offering only what the rules allow; BACK goes to the main menu.
The start player goes into the record as options.start (5211 has none: reveals are
simultaneous).
"""
from rules_core.record import rules_class
from app.ui import Menu
from app import colours

GAMES = (("Azul", "azul"), ("Sintra", "sintra"), ("Queen's Garden", "garden"), ("5211", "5211"))
VARIANT_NAMES = {"colored": "coloured wall", "grey": "grey wall", "A": "side A", "B": "side B",
                 "standard": "standard", "variant": "variant side", "long": "long (to 50)"}


def start(app):
    def menu_back():
        from app.system import MainMenu
        app.show(MainMenu(app))

    def step(title, items):
        app.show(Menu(app, title, items, back=menu_back))

    cfg = {}

    def pick_game(game):
        cfg["game"] = game
        cls = rules_class(game)
        step("Variant", [(VARIANT_NAMES.get(v, v), _bind(pick_variant, v)) for v in cls.VARIANTS])

    def pick_variant(v):
        cfg["variant"] = v
        lo, hi = rules_class(cfg["game"]).PLAYERS
        step("Players", [("%d players" % n, _bind(pick_count, n)) for n in range(lo, hi + 1)])

    def pick_count(n):
        cfg["n"] = n
        cfg["names"] = []
        ask_name()

    def ask_name():
        names = cfg["names"]
        i = len(names)
        if i == cfg["n"]:
            if cfg["game"] == "5211":  # reveals are simultaneous: no start player
                return finish(0)
            return step("Start player", [(names[p], _bind(finish, p)) for p in range(i)])
        own = colours.PLAYER_COLOURS[i]
        choices = [own[0].upper() + own[1:]] + list(colours.PRESET_NAMES)
        step("Player %d (%s)" % (i + 1, colours.label(own)),
             [(c, _bind(add_name, c)) for c in choices if c not in names])

    def add_name(name):
        cfg["names"].append(name)
        ask_name()

    def finish(first):
        cfg["start"] = first
        if cfg["game"] == "sintra":
            if "sintra_windows" in app.settings:
                return round_colour([])
            from app.system import board_check
            return app.show(board_check(app, lambda: round_colour([])))
        create({})

    def round_colour(chosen):
        from rules_core.sintra import COLOURS
        k = len(chosen)
        if k == 6:
            return create({"round_colors": chosen, "board": {"windows": app.settings["sintra_windows"]}})
        # rounds II..VI show each colour once (rulebook setup 7): offer the ones not yet shown
        left = [c for c in COLOURS if k == 0 or c not in chosen[1:]]
        step("Round %d colour" % (k + 1),
             [(c, _bind(round_colour, chosen + [c])) for c in left])

    def create(options):
        if cfg.get("start"):
            options["start"] = cfg["start"]
        app.new_game(cfg["game"], cfg["variant"], cfg["names"], options)

    step("Game", [(label, _bind(pick_game, g)) for label, g in GAMES])


def _bind(fn, arg):
    return lambda: fn(arg)
