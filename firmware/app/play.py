"""The game in play: started, entered, undone, redone and put aside, between the keeper
(app.keeper: every line on flash before the game applies it), the session
(app.current.ReadBack) and the screens (the App's stack and messages).

Power-safe by construction: a write that fails is cut back and said on the screen, and the
game does not apply what was not written; undo and redo are appended events too, so the
record on flash always replays to what the screen shows.
"""
import sys

from hal.compat import const
from app.ui import Menu
from app.keeper import why, ON_BOARD
from app.lang import tr

# undo and redo as entered, and their record lines as rules_core.record.dumps writes them
_UNDO, _UNDO_LINE = {"e": "undo"}, '{"e": "undo"}'
_REDO, _REDO_LINE = {"e": "redo"}, '{"e": "redo"}'
_ENOENT = const(2)
# what a game in play does not need: the menus' modules (dropped at its start on a board,
# where a module read from a file is heap; imported again when next needed)
MENUS = ("app.system", "app.setup", "app.history", "app.settings", "app.sintra_board", "app.check",
         "rules_core.verify")


def unload(names):
    """Drop modules on a board (their code is heap there), collected between presses; on a
    desktop a class a test imported must stay the one in use."""
    if ON_BOARD:
        for name in names:
            if sys.modules.pop(name, None) is not None:
                pkg, _, attr = name.rpartition(".")
                pkg = sys.modules.get(pkg)
                if hasattr(pkg, attr):  # the package's name for it goes too
                    delattr(pkg, attr)


def other_games(game):
    """The rules and entry-screen modules of every other title: a board's heap holds the code
    of one game (module bytecode loaded from .mpy files lives on the heap)."""
    from rules_core.games import GAMES
    return [m for g in GAMES if g.key != game for m in (g.module, g.screens)]


class Undo:
    """An undo made ahead in idle frames (make_undo): the state it takes back, the
    scoreboard it shows then, and its message's rows."""

    def __init__(self, state, screen, rows):
        self.state, self.screen, self.rows = state, screen, rows


def new_game(app, line, session, screen):
    """Put the game in play aside and start `session`, its header `line` put on flash,
    then shown with `screen` (app.setup makes the three, mostly in idle frames); on a
    write that fails, say so and stay."""
    if not put_aside(app):
        return
    try:
        app.keeper.start(line)
    except OSError as e:
        app.log("new game not saved: %s" % (e,))
        app.refuse(tr("not saved: %s") % why(e))
        return
    resume(app, session, screen)


def resume(app, session, screen=None):
    """`session` is the game in play now: its scoreboard (or `screen`), without the menus'
    and the other games' modules (collected between presses)."""
    app.session = session
    unload(MENUS + tuple(other_games(session.game)))
    app.home(screen)


def ask_put_aside(app, then):
    """then(), after asking where a game is in play ("Azul in play": put aside R3, which
    sends it into the History, where it can be resumed, or cancel); the new game's start
    or the resume from the History puts it aside."""
    s = app.session
    if s is None:
        return then()

    def go():
        app.back()
        then()
    app.push(Menu(app, tr("%s in play") % tr(s.info.short), [(tr("put aside R%d") % s.round, go),
                                                             (tr("cancel"), app.back)]))


def put_aside(app):
    """The game in play (finished or not) into the history (Keeper.put_aside); False, and
    says why, when it could not be: it stays in play."""
    try:
        app.keeper.put_aside(app.session)
    except OSError as e:
        app.log("game not put aside: %s" % (e,))
        app.refuse(tr("not filed: %s") % why(e))
        return False
    app.session = None
    return True


def enter(app, ev, after=None, line=None):
    """Enter an event: True once its line is on flash and the game applied it. Refused
    by the rules, or not saved (the flash is full...), it says why and returns False, and
    the screen that entered it stays as it is. after, line: what the screen has of the
    work (Keeper.add). A record gone from storage (cleared behind the device) ends the
    game in play: the main menu offers a new one."""
    try:
        app.keeper.add(app.session, ev, after, line)
    except ValueError as e:
        app.refuse(str(e))
        return False
    except OSError as e:
        app.log("not saved: %s: %s" % (app.describe(ev), e))
        if e.args and e.args[0] == _ENOENT:
            app.session = None
            app.home()
            app.say(tr("the game's record is gone from storage"), None)
        else:
            app.refuse(tr("not saved: %s") % why(e))
        return False
    app.entered += 1
    return True


def undo(app):
    s = app.session
    if s is None or not s.can_undo():
        app.refuse(tr("nothing to undo"))
        return
    made = app.screen.undo  # (final standings: make_undo(), made for the game as it is)
    if made and s.undo_state() is not made.state:
        made = None
    what = None if made else tr("undone: %s") % app.describe(s.last_event())
    if enter(app, _UNDO, line=_UNDO_LINE):
        app.say(what, rows=made.rows if made else None)
        app.home(made.screen if made and s.rules is made.state else None)


def make_undo(app):
    """The Undo of the game as it is, where the undo only takes back a kept state
    (ReadBack.undo_state): made in an idle frame; else None."""
    s = app.session
    state = s.undo_state()
    if state is None:
        return None
    screen = app.home_screen(state)
    if screen.leds is not None and screen.leds[2] is None:  # (a scoreboard's player LEDs)
        screen.leds = app.ledview.frame(screen.leds)
    return Undo(state, screen, app.cv.wrap(tr("undone: %s") % app.describe(s.last_event())))


def redo(app):
    s = app.session
    if s is None or not s.can_redo():
        app.refuse(tr("nothing to redo"))
        return
    if enter(app, _REDO, line=_REDO_LINE):
        app.say(tr("redone: %s") % app.describe(s.last_event()))
        app.home()
