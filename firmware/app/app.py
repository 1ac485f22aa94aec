"""The App: the screen stack, the frame, messages and the LEDs. The games on storage are the
keeper's (app.keeper); the game in play is a session (app.current.ReadBack), entered,
undone and put aside through app.play.

Screens form a stack (micro-gui's Screen.change/back): push() opens a screen over the
current one, back() returns to the one below, replace() puts the next step of a task in its
place, and home() starts again from the game's scoreboard (or its final standings, or the
main menu).
"""
from hal.compat import const
from hal.keys import BACK, LONG
from app.ui import Canvas
from app.leds import LedView
from app.idle import Idle, BLANK
from app.keeper import Keeper, why, NOT_CUT_SAFE
from app import play
from app import lang
from app.lang import tr

# a message stays until the next key, or this long without one: time to read two rows
MESSAGE_MS = const(4000)
_FLASH_MS = const(250)  # the LEDs flash red this long when an input is refused


class App:
    def __init__(self, display, leds, storage, clock, board):
        self.cv = Canvas(display)
        self.display = display
        self.clock = clock
        self.board = board
        self.keeper = Keeper(storage)
        self.session = None
        self.screen = None
        self.stack = []  # screens, the current one last
        self.message = []  # the message's rows, drawn over the bottom of the screen
        self.message_until = 0
        self.message_sticky = False  # shown until the next key instead
        self.flash_until = 0
        self.flash_shown = False
        self.message_rows = 0  # rows of the message the last frame showed
        self.now = 0
        self.dirty = True
        self.entered = 0  # events entered since boot (LedView redraws the seats when it moves)
        self.paused = False  # the idle work raised: none until the next key (main.idle)
        problem = self.keeper.boot()
        from app.settings import load
        self.settings = load(self.keeper, board)
        play.unload(("app.settings",))
        self.ledview = LedView(leds)
        self.idle = Idle(display, clock)
        self.apply_settings()
        self.session, message = self.keeper.resume()
        self.home()
        if problem is not None:
            problem = tr(NOT_CUT_SAFE) if problem is NOT_CUT_SAFE else tr("not in history: %s") % why(problem)
        if message or problem:
            self.say(message or problem, None)

    def apply_settings(self):
        s = self.settings
        self.ledview.configure(s["brightness"], s["led_count"], s["led_layout"])
        self.idle.configure(s["dim_after"], s["blank_after"], self.ledview.count > 0)
        code = self.language()
        lang.use(code)  # (the texts: one language at a time, the App's)
        if code != self.cv.language:
            table = lang.chosen()
            self.cv.use(code, table.font(self.cv.h) if table is not None else None)

    def language(self):
        """The language chosen in the settings, else the board's (the web page: the
        browser's), else English."""
        return self.settings.get("language") or self.board.get("language") or "en"

    # ---- the screen stack ----
    def _top(self, screen):
        self.screen = screen
        self.dirty = True

    def push(self, screen):
        """Open screen over the current one; back() returns to it."""
        self.stack.append(screen)
        self._top(screen)

    def replace(self, screen):
        """Put screen in the current one's place (the next step of the same task)."""
        if self.stack:
            self.stack[-1] = screen
        else:
            self.stack.append(screen)
        self._top(screen)

    def back(self):
        """Close the current screen; the one below it again, or home() when none is."""
        if len(self.stack) > 1:
            self.stack.pop()
            self._top(self.stack[-1])
        else:
            self.home()

    def home(self, made=None):
        """The scoreboard (or the final standings) of the game in play, else the main menu,
        alone on the stack. made: that screen, made ahead for the state the session has now
        (home_screen())."""
        del self.stack[:]
        if self.session is None:
            from app.system import MainMenu
            made = MainMenu(self)
        else:
            made = made or self.home_screen()
            self.ledview.take(made.leds, self.session, self.entered)
            made.leds = None  # (taken: the screen holds them no longer)
            if self.session.finished:  # final standings enter nothing: the next OK after an
                play.unload(("app.form", "app.entries", self.session.info.screens))  # undo imports them
        self.push(made)

    def home_screen(self, state=None, session=None):
        """The scoreboard or final standings of `session` (default: the game in play), made
        for `state` where given (app.scoreboard.screen_for)."""
        from app.scoreboard import screen_for
        return screen_for(self, session or self.session, state)

    def describe(self, ev):
        """Short text of an event of the game in play, for messages: "Wall Ann", "End round"."""
        from app.scoreboard import entry_name  # (the screens' words; home() imports it anyway)
        if ev is None:
            return "-"
        s = self.session
        p = ev.get("p")
        return entry_name(s.game, ev["e"], s.players[p] if type(p) is int and 0 <= p < len(s.players) else None)

    def main_menu(self):
        """The main menu over the game in play (its Resume goes back)."""
        from app.system import MainMenu
        self.push(MainMenu(self))

    # ---- idle work ----
    def prepare_undo(self):
        """A piece of the game's undo work ahead (ReadBack.prepare): the main loop's work in a
        frame while BACK is held, and one of ahead()'s; True while more is left."""
        s = self.session
        return s is not None and s.prepare()

    def prepare(self):
        """The main loop's work in an idle frame, a piece a frame: the keeper's (a game put
        aside moved into the history, the history trimmed), else the screen's own work ahead
        (Screen.prepare), else a piece of the game's next undo, else littlefs's walk of the
        flash (Keeper.refresh). True while more is left."""
        try:
            if self.keeper.idle(self.settings["history_keep"]):
                return True
        except OSError as e:
            self.log("game not moved into the history: %s" % (e,))
            self.say(tr("not in history: %s") % why(e), None)
            return True
        return self.screen.prepare() or self.prepare_undo() or self.keeper.refresh()

    # ---- messages ----
    def say(self, text, ms=MESSAGE_MS, rows=None):
        """A message over the bottom rows until the next key, or for ms without one (None:
        until a key however long). One longer than two rows (a record's line that no longer
        plays, a storage error) is never cut: it covers all but the title row and stays until
        a key, as long as it takes to read. rows: the message wrapped already (made ahead),
        instead of text."""
        self.message = rows or self.cv.wrap(text)
        self.message_sticky = ms is None or len(self.message) > 2
        self.message_until = self.now + (ms or 0)
        self.dirty = True

    def refuse(self, text):
        self.flash_until = self.now + _FLASH_MS
        self.say(text)

    def flashing(self, now):
        return self.clock.ticks_diff(self.flash_until, now) > 0

    def log(self, text):
        """One line in data/errors.log (the screen says what the user must know)."""
        self.keeper.log(text)

    def crash(self, e):
        """An exception in a screen: log it and its traceback, say so, back to the
        scoreboard, the game intact."""
        self.keeper.log_error(e)
        self.home()
        self.say(tr("error: %s") % (e,))

    # ---- the frame ----
    def step(self, now, key):
        """Handle one input (or None) and redraw if anything changed: one show() per frame."""
        self.now = now
        if key is not None and self.idle.key(now):
            key = None  # it only woke a dark screen: nothing is entered unseen
            self.dirty = True
        if key is not None:
            self.paused = False
            if self.message:
                self.message = []  # the message was on screen until this key: it was read
                self.message_sticky = False
            try:
                if key == BACK | LONG and not self.screen.raw_keys:
                    play.undo(self)
                else:
                    self.screen.key(key)
            except Exception as e:  # a screen bug must never lose the game
                self.crash(e)
            self.dirty = True
        if self.message and not self.message_sticky and self.clock.ticks_diff(now, self.message_until) >= 0:
            self.message = []
            self.dirty = True
        idled = self.idle.update(now)  # dimmer or dark: the picture stays, the LEDs follow
        flash = self.flashing(now)
        dark = self.idle.level == BLANK
        if self.dirty and not dark:  # a dark screen is drawn again when a key wakes it
            self.draw()
        if dark:
            self.idle.mark(now)
            self.cv.forget()  # the dark screen's dot is drawn in the frame buffer
        if self.dirty or idled or dark or flash != self.flash_shown or self.screen.winners() is not None:
            self.update_leds(now, flash)  # writes the LEDs only if the frame changed
        self.flash_shown = flash
        self.dirty = False

    def quiet_ms(self, now):
        """How long the App can go without a frame when no key comes: until a message times
        out, the red flash ends, the LEDs move by themselves or the screen dims. The main loop
        sleeps that long (a key wakes it where the board allows)."""
        ms = min(self.idle.quiet_ms(now), self.ledview.quiet_ms(now, self.screen.winners()))
        diff = self.clock.ticks_diff
        if self.message and not self.message_sticky:
            ms = min(ms, diff(self.message_until, now))
        if self.flash_shown:
            ms = min(ms, diff(self.flash_until, now))
        return max(0, ms)

    def update_leds(self, now, flash):
        """The LED frame for the game and the screen (final standings chase, a 5x5 picture)."""
        scr = self.screen
        self.ledview.update(now, self.session, flash, scr.winners(), scr.matrix(), self.entered,
                            self.idle.level)

    def draw(self):
        cv = self.cv
        message = self.message
        if len(message) < self.message_rows:
            # a message went or shrank: from clear, for the rows it uncovers (a message is
            # drawn over the rows it covers in every frame, so while it stays, or comes, the
            # frame is drawn over the previous one and those rows stay covered)
            cv.forget()
        if not cv.begin(self.screen):  # (True: its frame was drawn ahead, whole)
            try:
                self.screen.draw(cv)
            except Exception as e:
                self.crash(e)
                cv.forget()
                cv.begin(self.screen)
                self.screen.draw(cv)
            cv.finish()
        message = self.message  # (a crash while drawing says so)
        self.message_rows = len(message)
        if message:
            line = cv.line
            y = cv.h - line * len(message)
            cv.d.fill_rect(0, y - 1, cv.w, line * len(message) + 1, 1)
            for i in range(len(message)):
                cv.text(message[i], 0, y + line * i, 0)
        self.display.show()

    def text(self):
        """The strings drawn in the last frame (tests, simulator)."""
        return self.cv.texts()
