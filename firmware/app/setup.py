"""New game: game -> variant -> number of players -> names -> start player (where the game
has one) -> the game's own set-up steps (Sintra: board check once, round colours I..VI)
-> the scoreboard.

Each step is a menu offering only what the rules allow. The first step is pushed over the
main menu and each later one replaces it, so BACK at any step returns to the main menu.
The games and their variants come from rules_core.games; the start player goes into the
record as options.start.
"""
from rules_core.games import GAMES, game
from app.ui import Menu
from app import colours
from app.entries import module


def start(app):
    def step(title, items):
        app.show(Menu(app, title, items))

    cfg = {}

    def pick_game(key):
        g = cfg["game"] = game(key)
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
        cfg["start"] = first
        module(cfg["game"].key).options(app, cfg["variant"], step, create)

    def create(options):
        if cfg.get("start"):
            options["start"] = cfg["start"]
        app.new_game(cfg["game"].key, cfg["variant"], cfg["names"], options)

    app.push(Menu(app, "Game", [(g.name, _bind(pick_game, g.key)) for g in GAMES]))


def _bind(fn, arg):
    return lambda: fn(arg)
