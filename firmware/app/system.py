"""Main menu, history of finished games, settings, button test and the Sintra board check."""
from hal.keys import NAMES, CODE_MASK, LONG, REPEAT, UP, DOWN, OK, BACK
from app.ui import Menu, Form, Field, Screen, ListScreen, count_field

ONOFF = [("off", False), ("on", True)]
LAYOUTS = [("strip", "strip"), ("5x5", "matrix5x5")]


class MainMenu(Menu):
    def __init__(self, app):
        items = []
        if app.session is not None:
            items.append(("Resume", app.home))
        items += [("New game", lambda: _setup().start(app)),
                  ("History", lambda: app.push(History(app))),
                  ("Settings", lambda: app.push(Settings(app)))]
        Menu.__init__(self, app, "Azul Companion", items)


def _setup():
    from app import setup  # loaded when first needed: the menu alone costs less heap
    return setup


class History(ListScreen):
    """Past games, newest first; OK shows the standings of one. The folder may hold a
    thousand games, so the screen holds one page of their numbers and asks for the next
    when the cursor leaves it (UP/DOWN wrap around the whole history, as a menu does)."""
    PAGE = 16

    def __init__(self, app):
        ListScreen.__init__(self, app)
        self.title = "History"
        self._page(app.records.history_page(self.PAGE), 0)

    def _page(self, numbers, cursor):
        self.numbers = numbers
        self.labels = ["%06d" % n for n in numbers] or ["(none)"]
        self.cursor = cursor
        self.top = 0

    def rows(self):
        return self.labels

    def key(self, k):
        base = k & CODE_MASK
        app = self.app
        nums = self.numbers
        if base == DOWN and nums and self.cursor == len(nums) - 1:
            page = app.records.history_page(self.PAGE, below=nums[-1]) or app.records.history_page(self.PAGE)
            self._page(page, 0)
        elif base == UP and nums and self.cursor == 0:
            page = app.records.history_page(self.PAGE, above=nums[0]) or app.records.history_page(self.PAGE, above=-1)
            self._page(page, len(page) - 1)
        elif base in (UP, DOWN):
            self.move(base, len(self.labels))
        elif base == OK and nums:
            try:
                s = app.records.open_history(nums[self.cursor])
            except ValueError as e:
                app.refuse(str(e))
                return
            from app.scoreboard import Final  # loaded when first needed: each module costs heap
            app.push(Final(app, s, filed=True))
        elif base == BACK or base == OK:
            app.back()


class Settings(Menu):
    def __init__(self, app):
        Menu.__init__(self, app, "Settings", [
            ("LEDs & symbols", lambda: app.push(led_form(app))),
            ("Button test", lambda: app.push(ButtonTest(app))),
            ("Sintra board", lambda: app.push(board_check(app, app.back))),
        ])


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
        b, count, layout, symbols = values
        if app.save_settings({"brightness": b, "led_count": count, "led_layout": layout, "symbols": symbols}):
            app.say("saved")
            app.back()
    return Form(app, "LEDs", fields, save=save, legal=lambda values: None)


def board_check(app, done):
    """The printed window values of the Sintra palace board, checked once and kept in the
    settings; done() runs once they are saved."""
    from rules_core.sintra import DEFAULT_BOARD
    windows = app.settings.get("sintra_windows") or list(DEFAULT_BOARD["windows"])
    fields = [count_field("win %d" % (i + 1), 0, 9, windows[i]) for i in range(8)]

    def save(values):
        if app.save_settings({"sintra_windows": list(values)}):
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
            self.app.back()

    def draw(self, cv):
        cv.row(0, "Button test")
        cv.row(1, self.last)
        cv.row(2, "hold BACK: exit")
