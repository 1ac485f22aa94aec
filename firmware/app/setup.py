"""New game: game -> variant -> number of players -> names -> start player (where the game
has one) -> the game's own set-up steps (Sintra: board check once, round colours I..VI)
-> the scoreboard.

Each step is a menu offering only what the rules allow. The first step is pushed over the
main menu and each later one replaces it, so BACK at any step returns to the main menu.
The games and their variants come from rules_core.games; the start player goes into the
record as options.start. Once the game is chosen, what the later steps and the start of the
game import is imported ahead (App.expect): the last step's press waits for no flash.
"""
from rules_core.games import game, games
from app.ui import Menu
from app import colours

# the screens a game's own set-up steps (app.entry_<key>.options) import
OWN_STEPS = {"sintra": ("app.sintra_board",)}


def needs(g):
    """The modules the presses from the choice of game g to its scoreboard's entry menu
    import, leaves first: the rules (base, then the game's), its entry screens (whose
    options() run its own set-up steps), the record and the session (App.new_game), the
    entry menu and the scoreboard."""
    return (("rules_core.compat", "rules_core.base", g.module, "app.entry_" + g.key) + OWN_STEPS.get(g.key, ())
            + ("rules_core.record", "rules_core.session", "app.entries", "app.scoreboard"))


def start(app):
    def step(title, items):
        app.show(Menu(app, title, items))

    cfg = {}

    def pick_game(key):
        g = cfg["game"] = game(key)
        app.expect(needs(g))
        step("Variant", [(g.labels[i], _bind(pick_variant, g.variants[i])) for i in range(len(g.variants))])

    def pick_variant(v):
        cfg["variant"] = v
        lo, hi = cfg["game"].players
        step("Players", [("%d players" % n, _bind(pick_count, n)) for n in range(lo, hi + 1)])

    def pick_count(n):
        cfg["n"] = n
        cfg["names"] = []
        ask_name()

    def ask_name():
        names = cfg["names"]
        i = len(names)
        if i == cfg["n"]:
            if not cfg["game"].has_start_player:
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
        from app.entries import module
        cfg["start"] = first
        module(cfg["game"].key).options(app, cfg["variant"], step, create)

    def create(options):
        if cfg.get("start"):
            options["start"] = cfg["start"]
        app.new_game(cfg["game"].key, cfg["variant"], cfg["names"], options)

    app.push(Menu(app, "Game", [(g.name, _bind(pick_game, g.key)) for g in games()]))


def _bind(fn, arg):
    return lambda: fn(arg)
