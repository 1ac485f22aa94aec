"""Main menu, history of finished games, settings, button test and the Sintra board check."""
import paths
from hal.keys import NAMES, CODE_MASK, LONG, REPEAT, BACK
from rules_core.session import replay
from app.ui import Menu, Form, Field, Screen, count_field
from app import setup

ONOFF = [("off", False), ("on", True)]
LAYOUTS = [("strip", "strip"), ("5x5", "matrix5x5")]


class MainMenu(Menu):
    def __init__(self, app):
        items = []
        if app.session is not None:
            items.append(("Resume", app.home))
        items += [("New game", lambda: setup.start(app)),
                  ("History", lambda: app.show(History(app))),
                  ("Settings", lambda: app.show(Settings(app)))]
        Menu.__init__(self, app, "Azul Companion", items, back=app.home)


class History(Menu):
    """Past games, newest first; OK shows the standings of one."""

    def __init__(self, app):
        self.app = app
        self.names = app.storage.list_history(paths.HISTORY_DIR)[::-1]
        items = [(self._label(n), self._opener(n)) for n in self.names]
        Menu.__init__(self, app, "History", items or [("(none)", app.home)],
                      back=lambda: app.show(MainMenu(app)))

    def _label(self, name):
        return name.replace(".jsonl", "")

    def _opener(self, name):
        app = self.app

        def open_game():
            from app.scoreboard import Final
            lines, _ = app.storage.read_lines(paths.HISTORY_DIR + "/" + name)
            try:
                s, _ = replay("".join(l.rstrip("\n") + "\n" for l in lines))
            except ValueError as e:
                app.refuse(str(e))
                return
            app.show(Final(app, s, back=lambda: app.show(History(app))))
        return open_game


class Settings(Menu):
    def __init__(self, app):
        Menu.__init__(self, app, "Settings", [
            ("LEDs & symbols", lambda: app.show(led_form(app))),
            ("Button test", lambda: app.show(ButtonTest(app))),
            ("Sintra board", lambda: app.show(board_check(app, lambda: app.show(Settings(app))))),
        ], back=lambda: app.show(MainMenu(app)))


def _index(choices, value):
    for i in range(len(choices)):
        if choices[i][1] == value:
            return i
    return 0


def led_form(app):
    s = app.settings
    n = app.ledview.n
    fields = [count_field("bright", 1, 5, s["brightness"]),
              count_field("LEDs", 0, n, min(s["led_count"], n)),
              Field("layout", LAYOUTS, _index(LAYOUTS, s["led_layout"])),
              Field("symbols", ONOFF, _index(ONOFF, s["symbols"]))]

    def save(values):
        s["brightness"], s["led_count"], s["led_layout"], s["symbols"] = values
        app.save_settings()
        app.say("saved")
        app.show(Settings(app))
    return Form(app, "LEDs", fields, save=save, legal=lambda values: None)


def board_check(app, done):
    """The printed window values of the Sintra palace board, checked once and kept."""
    from rules_core.sintra import DEFAULT_BOARD
    windows = app.settings.get("sintra_windows") or list(DEFAULT_BOARD["windows"])
    fields = [count_field("win %d" % (i + 1), 0, 9, windows[i]) for i in range(8)]

    def save(values):
        app.settings["sintra_windows"] = list(values)
        app.save_settings()
        done()
    return Form(app, "Board windows", fields, save=save, legal=lambda values: None)


class ButtonTest(Screen):
    """Shows the last key event; hold BACK leaves (it is the undo gesture elsewhere)."""
    raw_keys = True

    def __init__(self, app):
        Screen.__init__(self, app)
        self.last = "press a key"

    def key(self, k):
        text = NAMES[k & CODE_MASK]
        if k & LONG:
            text += " long"
        if k & REPEAT:
            text += " rep"
        self.last = text
        if k == BACK | LONG:
            self.app.show(Settings(self.app))

    def draw(self, cv):
        cv.row(0, "Button test")
        cv.row(1, self.last)
        cv.row(2, "hold BACK: exit")
