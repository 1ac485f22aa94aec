"""New game: game -> variant -> number of players -> names -> start player (where the game
has one) -> the game's own set-up steps (Sintra: board check once, round colours I..VI)
-> the scoreboard (the game in play, if any, put aside then: play.new_game).

Each step is a menu offering only what the rules allow. The first step is pushed over the
main menu and each later one replaces it, so BACK at any step returns to the main menu.
The games and their variants come from rules_core.games; the start player goes into the
record as options.start. On the last step, the game the choice under the cursor starts is
made in idle frames (its header line, session and scoreboard: Start, ready()), so its press
only puts the game in play aside, puts the header on flash and shows the scoreboard; a
choice changed meanwhile lets it go.
"""
from rules_core.games import GAMES, game
from app.ui import Menu
from app.entries import module
from app import colours
from app.lang import tr
from app import play

def start(app):
    def step(title, items):
        menu(app, title, items)

    cfg = {}

    def pick_game(key):
        g = cfg["game"] = game(key)
        step(tr("Variant"), [(tr(g.labels[i], g.key), _bind(pick_variant, g.variants[i]))
                             for i in range(len(g.variants))])

    def pick_variant(v):
        cfg["variant"] = v
        lo, hi = cfg["game"].players
        step(tr("Players"), [(tr("%d players") % n, _bind(pick_count, n)) for n in range(lo, hi + 1)])

    def pick_count(n):
        cfg["n"] = n
        ask_name([])

    def ask_name(names):
        i = len(names)
        if i == cfg["n"]:  # (the start player's step; a game without one started on the last name)
            return step(tr("Start player"), [(names[p], Start(app, cfg, names, p)) for p in range(i)])
        last = i + 1 == cfg["n"] and not cfg["game"].has_start_player
        own = colours.PLAYER_COLOURS[i]
        choices = [own[0].upper() + own[1:]] + list(colours.PRESET_NAMES)
        step(tr("Player %d (%s)") % (i + 1, colours.label(own)),
             [(c, Start(app, cfg, names + [c], 0) if last else _bind(ask_name, names + [c]))
              for c in choices if c not in names])

    app.push(Menu(app, tr("Game"), [(tr(g.name), _bind(pick_game, g.key)) for g in GAMES]))


class Start:
    """A choice on a set-up step that starts the game (the players and the start player
    known): its press starts it, or first shows the game's own set-up steps
    (app.entry_<key>.options, for the variants in its STEPS), whose last choices are Starts
    with the options. While the cursor rests on one that starts the game, the idle frames
    make the game ahead (Step.prepare, ready()): the press puts the game in play aside, puts the
    header on flash and shows the scoreboard (play.new_game)."""

    def __init__(self, app, cfg, names, first, options=None):
        self.app = app
        self.cfg = cfg  # the set-up's choices, and cfg["made"]: the NewGame ready() made
        self.names = names
        self.first = first
        self.options = options

    def args(self):
        """The new game's (game, variant, players, options); None while the game's own
        set-up steps come first."""
        key, variant = self.cfg["game"].key, self.cfg["variant"]
        options = self.options
        if options is None:
            if variant in getattr(module(key), "STEPS", ()):
                return None
            options = {}
        if self.first:
            options = dict(options)
            options["start"] = self.first
        return key, variant, self.names, options

    def __call__(self):
        app, cfg = self.app, self.cfg
        args = self.args()
        if args is None:
            def step(title, items):
                menu(app, title, items)

            def own(options):
                return Start(app, cfg, self.names, self.first, options)
            return module(cfg["game"].key).options(app, cfg["variant"], step, own)
        while ready(app, cfg, args, False):  # what the idle frames have not made yet
            pass
        made = cfg.pop("made")
        play.new_game(app, made.line, made.session, made.screen)

    def prepare(self):
        args = self.args()
        try:
            return args is not None and ready(self.app, self.cfg, args)
        except MemoryError:  # a full heap: the press makes the game itself
            self.cfg.pop("made", None)
            return False


class NewGame:
    """A new game made ahead (ready()): the args it starts with, its header and header line,
    then its session and its scoreboard."""

    def __init__(self, args, line, header):
        self.args, self.line, self.header = args, line, header
        self.session = self.screen = None


def ready(app, cfg, args, draw=True):
    """The game that args start, made a piece a call: its header line, its session, its
    scoreboard (cfg["made"]), then (draw) the scoreboard's first frame (Canvas.draw_ahead);
    other args let the one made go. True while more is left."""
    made = cfg.get("made")
    if made is None or made.args != args:
        from rules_core.record import dumps
        from rules_core.session import new_header
        cfg["made"] = None  # (let go before the next is made)
        header = new_header(*args)
        cfg["made"] = made = NewGame(args, dumps(header), header)
    elif made.session is None:
        from app.current import ReadBack
        made.session = ReadBack(made.header, app.keeper.lines)  # (its lines read back from flash)
    elif made.screen is None:
        made.screen = app.home_screen(session=made.session)
        return draw
    else:
        if draw:
            app.cv.draw_ahead(made.screen)
        return False
    return True


class Step(Menu):
    """A set-up step: a menu whose idle frames make the work of the choice under the cursor
    where it has some (a Start's game)."""

    def prepare(self):
        ahead = getattr(self.items[self.cursor][1], "prepare", None) if self.items else None
        return ahead is not None and ahead()


def menu(app, title, items):
    """Show a set-up step: it replaces the one before (BACK returns to the main menu)."""
    app.replace(Step(app, title, items))


def _bind(fn, arg):
    return lambda: fn(arg)
