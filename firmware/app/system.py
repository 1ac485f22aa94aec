"""The main menu, the Settings, the button test and About."""
from hal.keys import NAMES, CODE_MASK, LONG, REPEAT, BACK, OK, UP, DOWN
from app.ui import Menu, Screen, ListScreen, COLS
from app.lang import tr
from app import play

ONOFF = [("off", False), ("on", True)]
LAYOUTS = [("strip", "strip"), ("5x5", "matrix5x5")]
# seconds without a key before the display dims / goes dark (app.idle)
DIM_AFTER = [("off", 0), ("30 s", 30), ("1 min", 60), ("2 min", 120), ("5 min", 300), ("10 min", 600)]
DARK_AFTER = [("off", 0), ("2 min", 120), ("5 min", 300), ("10 min", 600), ("20 min", 1200),
              ("30 min", 1800), ("1 h", 3600)]


class MainMenu(Menu):
    """Resume (a game is in play), New game, Check a score, History, Settings: each loads its
    screens when chosen, so the menu alone is all the first frame holds."""

    def __init__(self, app):
        items = [(tr("Resume"), lambda: play.resume(app, app.session))] if app.session is not None else []
        items += [(tr("New game"), lambda: play.ask_put_aside(app, lambda: _setup().start(app))),
                  (tr("Check a score"), lambda: _check().start(app)),
                  (tr("History"), lambda: app.push(_history().History(app))),
                  (tr("Settings"), lambda: app.push(Settings(app)))]
        Menu.__init__(self, app, "Azul Companion", items)


def _setup():
    from app import setup
    return setup


def _history():
    from app import history
    return history


def _check():
    from app import check
    return check


class Settings(Menu):
    def __init__(self, app):
        from rules_core.games import GAMES
        items = [(tr("LEDs & symbols"), lambda: app.push(led_form(app))),
                 (tr("Display"), lambda: app.push(display_form(app))),
                 (tr("Button test"), lambda: app.push(ButtonTest(app)))]
        # a game's own settings (Sintra's board values): its registry entry names the item,
        # its entry module makes the screen (settings(app)), imported when chosen
        items += [(tr(g.settings), _own(app, g.key)) for g in GAMES if g.settings]
        items += [(tr("Games kept"), lambda: app.push(history_form(app))), (tr("About"), lambda: app.push(About(app))),
                  (tr("Language"), lambda: app.push(language_menu(app)))]
        Menu.__init__(self, app, tr("Settings"), items)


def _own(app, key):
    def show():
        from app.entries import module
        app.push(module(key).settings(app))
    return show


def _words(choices):
    """Choices [(English text, value)] with their texts in the chosen language."""
    return [(tr(text), value) for text, value in choices]


def _index(choices, value):
    for i in range(len(choices)):
        if choices[i][1] == value:
            return i
    return 0


def led_form(app):
    from app.form import Form, Field, count_field
    s = app.settings
    n = app.ledview.n
    fields = [count_field(tr("bright"), 1, 5, s["brightness"]),
              count_field(tr("LEDs"), 0, n, min(s["led_count"], n)),
              Field(tr("layout"), _words(LAYOUTS), _index(LAYOUTS, s["led_layout"])),
              Field(tr("symbols"), _words(ONOFF), _index(ONOFF, s["symbols"]))]

    def save(values):
        b, count, layout, symbols = values
        if _save(app, {"brightness": b, "led_count": count, "led_layout": layout, "symbols": symbols}):
            app.say(tr("saved"))
            app.back()
    return Form(app, tr("LEDs"), fields, save=save, legal=lambda values: None)


def _nearest(choices, seconds):
    """The index of the choice closest to seconds (a value set in the file by hand)."""
    best = 0
    for i in range(len(choices)):
        if abs(choices[i][1] - seconds) < abs(choices[best][1] - seconds):
            best = i
    return best


def display_form(app):
    from app.form import Form, Field
    s = app.settings
    fields = [Field(tr("dim"), _words(DIM_AFTER), _nearest(DIM_AFTER, s["dim_after"])),
              Field(tr("dark"), _words(DARK_AFTER), _nearest(DARK_AFTER, s["blank_after"]))]

    def save(values):
        if _save(app, {"dim_after": values[0], "blank_after": values[1]}):
            app.say(tr("saved"))
            app.back()
    return Form(app, tr("Display"), fields, save=save, legal=lambda values: None)


def history_form(app):
    """How many finished games the flash keeps (the oldest beyond go when the next is filed).
    Fewer makes room at once when the flash is full, once the player confirms the loss."""
    from app.form import Form, count_field
    from app.settings import HISTORY_KEEP_MAX
    fields = [count_field(tr("keep"), 1, HISTORY_KEEP_MAX, app.settings["history_keep"])]

    def save(values):
        keep = values[0]
        app.keeper.list_history()
        extra = app.keeper.count - keep
        if extra <= 0:
            _keep_games(app, keep, 1)
            return
        app.push(Menu(app, tr("Keep %d games?") % keep, [
            (tr("delete %d oldest") % extra, lambda: _keep_games(app, keep, 2)),
            (tr("cancel"), app.back)]))
    return Form(app, tr("Games kept"), fields, save=save, legal=lambda values: None)


def _keep_games(app, keep, screens):
    """Drop the oldest games beyond `keep`, store the setting, close `screens` screens."""
    from app.keeper import why
    try:
        removed = app.keeper.trim(keep)
    except OSError as e:
        app.log("history not trimmed: %s" % (e,))
        app.refuse(tr("not deleted: %s") % why(e))
        return
    if not _save(app, {"history_keep": keep}):
        if removed:
            app.say(tr("%d deleted, setting not saved") % removed)
        return
    app.say(tr("saved, %d deleted") % removed if removed else tr("saved"))
    for _ in range(screens):
        app.back()


class ButtonTest(Screen):
    """Shows the last key event; hold BACK leaves (it is the undo gesture elsewhere)."""
    raw_keys = True

    def __init__(self, app):
        Screen.__init__(self, app)
        self.last = tr("press a key")

    def key(self, k):
        text = NAMES[k & CODE_MASK]
        if k & LONG:
            text += tr(" long")
        if k & REPEAT:
            text += tr(" rep")
        self.last = text
        if k == BACK | LONG:
            self.app.back()

    def draw(self, cv):
        cv.row(0, tr("Button test"))
        cv.row(1, self.last)
        cv.row(2, tr("hold BACK: exit"))


class About(ListScreen):
    """The firmware's version, the board, and how the firmware is installed: an image that
    holds it all (azul-companion build: its frozen image.py names the board it was built
    for) or files on flash (azul-companion flash); then the MicroPython it runs on."""
    def __init__(self, app):
        ListScreen.__init__(self, app)
        self.title = tr("About")
        self.cursor = None  # type: ignore[assignment]  # read-only: UP/DOWN scroll (ListScreen.move)
        import sys
        from version import VERSION
        try:
            import image  # type: ignore[import-not-found]  # (frozen in an image only)
            how = tr("image: %s") % (getattr(image, "BOARD", "?"),)
        except ImportError:
            how = tr("files on flash")
        impl = sys.implementation
        under = [tr("simulator")]  # (a desktop's: no version, so that the guide's picture stays)
        if impl.name in ("micropython", "circuitpython"):
            under = [("MicroPython" if impl.name == "micropython" else "CircuitPython"),
                     "v" + ".".join(str(n) for n in impl.version[:3])]
        board = []  # type: list[str]  # the board file's name, in rows of whole words
        for word in app.board.get("name", "?").split():
            if board and len(board[-1]) + 1 + len(word) <= COLS:
                board[-1] += " " + word
            else:
                board.append(word)
        self.lines = [tr("version %s") % VERSION] + board + [how] + under

    def rows(self):
        return self.lines

    def key(self, k):
        base = k & CODE_MASK
        if base in (UP, DOWN):
            self.move(base, len(self.lines))
        elif base in (OK, BACK):
            self.app.back()


def _save(app, changes):
    from app.settings import save  # (dropped while a game is played)
    return save(app, changes)


def language_menu(app):
    """The languages (the chosen one under the cursor): OK saves it in
    the settings and shows the main menu in it. Until one is chosen the device speaks the
    board's language (the web page: the browser's)."""
    from app.lang import LANGUAGES

    def choose(code):
        def save():
            from app.settings import save as save_settings
            if save_settings(app, {"language": code}):
                app.home()
                app.say(tr("saved"))
        return save
    now = app.language()
    codes = [code for code, _ in LANGUAGES]
    return Menu(app, tr("Language"), [(tr(name), choose(code)) for code, name in LANGUAGES],
                codes.index(now) if now in codes else 0)
