"""The App: the open game, the screen stack, messages and the loop that draws a frame.

Power-safe by construction: records.Records writes an event's line to flash before the
session applies it, and a write that fails is cut back and said on the screen; undo and redo
are appended events too, so the record on flash always replays to what the screen shows.
Boot replays data/current.jsonl and never raises.

Screens form a stack (micro-gui's Screen.change/back): push() opens a screen over the
current one, back() returns to the one below, show() replaces the current one, and home()
starts again from the game's scoreboard (or its final standings, or the main menu).

Modules are imported ahead (expect(), prefetch()): a board holds only the code of what is on
screen, and a module imported from flash inside a press would cost that press 10-30 ms a
module on a Pico, so a screen that knows what the next presses will import names it, and the
main loop imports one module per idle frame.
"""
import gc
import sys

import paths
from hal.compat import const
from hal.keys import BACK, LONG
from app.ui import Canvas, Menu
from app.leds import LedView
from app.idle import Idle, BLANK
from app.records import Records, why, ON_BOARD

_TOAST_MS = const(1500)  # a message stays this long
_FLASH_MS = const(250)  # the LEDs flash red this long when an input is refused
# undo and redo as entered, and their record lines as rules_core.record.dumps writes them
# (a Pico dumps one in ~0.8 ms of the press)
_UNDO, _UNDO_LINE = {"e": "undo"}, '{"e": "undo"}'
_REDO, _REDO_LINE = {"e": "redo"}, '{"e": "redo"}'


def describe(session, ev):
    """Short text of an event for messages: "wall Ann", "end_round"."""
    if ev is None:
        return "-"
    p = ev.get("p")
    if type(p) is int and 0 <= p < len(session.players):
        return "%s %s" % (ev["e"], session.players[p])
    return ev["e"]


def unload(names, collect=True):
    """Drop modules, imported again when next needed: on a board their bytecode is heap the
    game's screens can use (after a collection: now, or with collect=False the next one,
    which the main loop runs between presses once the heap runs low). Only there: on a
    desktop a class a test imported must stay the one in use."""
    if ON_BOARD:
        for name in names:
            if sys.modules.pop(name, None) is not None:
                pkg, _, attr = name.rpartition(".")
                pkg = sys.modules.get(pkg)
                if hasattr(pkg, attr):  # the package's name for it goes too
                    delattr(pkg, attr)
        if collect:
            gc.collect()


def other_games(game):
    """The rules and entry-screen modules of every other title: a board's heap holds the code
    of one game (module bytecode loaded from .mpy files lives on the heap)."""
    from rules_core.games import modules
    return [m for key, rules in modules() if key != game for m in (rules, "app.entry_" + key)]


def entry_screens(game):
    """What a game's entry menu imports (its scoreboard's OK), leaves first: the forms, the
    menu, the game's entry screens. Held while the game is played; its final standings let
    them go (App.drop_entries) and an undo from there imports them ahead again (App.undo)."""
    return ("app.form", "app.entries", "app.entry_" + game)


# what the New game press imports, leaves first
NEW_GAME = ("rules_core", "rules_core.games", "app.setup")
# modules a game in play does not need: the menus, the new-game steps, the settings file
MENUS = ("app.system", "app.setup", "app.history", "app.settings", "app.sintra_board")
# what the main menu's History and Settings import, leaves first (MainMenu.ahead)
HISTORY = ("app.colours", "app.scoreboard", "app.history")
SETTINGS = ("app.system",)
# modules only the start needs: the settings reader, the devices' builders and the board
# files (boards.<name>; the board's dict stays, the App keeps it)
BOOT_ONLY = ("app.settings", "hal.display", "boards")


def fetch(app, name):
    """Import `name` ahead of the press that needs it; False (logged) where the file on flash
    or the heap refuses it."""
    try:
        __import__(name)
    # what importing from flash raises for a file missing or damaged there (ImportError;
    # OSError: a read the flash refuses; SyntaxError: a damaged .py; ValueError: an .mpy not
    # of this MicroPython, "incompatible .mpy file") or a heap with no room for it: the press
    # that needs the module imports it again and says what went wrong. Anything else is a
    # bug: raised (main.idle logs it).
    except (ImportError, OSError, SyntaxError, ValueError, MemoryError) as e:
        app.log("ahead %s: %s: %s" % (name, type(e).__name__, e))
        return False
    return True


def _module(name):
    """app.<name>, imported when first needed (each module costs heap): the menus' screens,
    dropped while a game is played (MENUS), and the settings file, read at boot."""
    return __import__("app." + name, None, None, ("x",))


class MainMenu(Menu):
    """Resume (a game is open), New game, History, Settings: each loads its screens when
    chosen, so the menu alone is all the first frame holds; the idle frames import those
    of the item under the cursor (ahead())."""

    def __init__(self, app):
        items = [("Resume", lambda: app.resume_game())] if app.session is not None else []
        if app.session is None:  # New game is the likely press: its first step loads meanwhile
            app.expect(NEW_GAME)
        items += [("New game", lambda: _module("setup").start(app)),
                  ("Check a score", lambda: _module("check").start(app)),
                  ("History", lambda: app.push(_module("history").History(app))),
                  ("Settings", lambda: app.push(_module("system").Settings(app)))]
        Menu.__init__(self, app, "Azul Companion", items)
        self.needs = [()] * (len(items) - 2) + [HISTORY, SETTINGS]  # what each item's press imports
        self.fetched = []  # the modules ahead() imported

    def ahead(self):
        """Idle frames: the modules the item under the cursor imports (History, Settings), one
        a frame (10-30 ms of a Pico each, which its press would wait for); those it imported
        for an item the cursor left go first (collected between presses), so the menu holds
        one item's (4-5 KB); a game started or resumed drops them all (MENUS). One that
        fails (fetch) is left to the press."""
        needs = self.needs[self.cursor]
        left = [m for m in self.fetched if m not in needs]
        if left:
            for m in left:
                self.fetched.remove(m)
            unload(left, collect=False)
            return True
        for name in needs:
            if name not in sys.modules:
                if not fetch(self.app, name):
                    self.needs[self.cursor] = ()
                    return False
                self.fetched.append(name)
                return True
        return False


def wrap(text, n, rows):
    """text in at most `rows` rows of n characters, each broken at a space where one fits
    (the last row cut when there is more)."""
    out = []  # type: list[str]
    while len(text) > n and len(out) < rows - 1:
        cut = text.rfind(" ", 0, n + 1)
        if cut <= 0:
            out.append(text[:n])
            text = text[n:]
        else:
            out.append(text[:cut])
            text = text[cut + 1:]
    out.append(text if len(text) <= n else text[:n])
    return out


class App:
    # what app.settings.save() imports, leaves first (the file is written with the record's dumps)
    SETTINGS_WRITER = ("rules_core.record", "app.settings")

    def __init__(self, display, leds, storage, clock, board):
        self.cv = Canvas(display)
        self.display = display
        self.storage = storage
        self.clock = clock
        self.board = board
        self.records = Records(storage, self.log)
        self.session = None
        self.screen = None
        self.stack = []  # screens, the current one last
        self.toast = []  # the message rows drawn over the bottom of the screen
        self.toast_until = 0
        self.toast_sticky = False  # shown until the next key instead
        self.flash_until = 0
        self.flash_shown = False
        self.toasted = 0  # rows of the message the last frame showed
        self.now = 0
        self.dirty = True
        self.entered = 0  # events entered since boot (LedView redraws the seats when it moves)
        self.wanted = []  # modules the next presses will import, in order (expect)
        self.fetched = []  # those prefetch() imported that no game holds yet
        self.filing = False  # a game filed waits for its move into the history: one try (file_game)
        self.trim = False  # then the history is trimmed to its size (ahead())
        self.stalled = False  # the work ahead raised: none until the next key (main.idle)
        storage.remount()  # (a Pico: littlefs's walks and listings a third cheaper, Storage.refresh)
        try:
            storage.ensure_dir(paths.DATA_DIR)
            storage.ensure_dir(paths.HISTORY_DIR)  # (the first game's mkdir: 16 ms of a Pico)
        except OSError as e:
            self.log("data folder: %s" % (e,))
        storage.warm(paths.WARM)  # the allocator's first walk of the flash here, not in a press
        # the history's listing, which names the game the next filing moves there: here, not
        # in idle frames, where a press would wait for a piece of it (~1 ms a game filed on a
        # Pico's littlefs, and a piece whole where the next press may file the game)
        storage.scan_history(paths.HISTORY_DIR, 1 << 30)
        self.filing = self.records.pending  # (a power cut between a filing's two renames)
        self.file_game()
        self.settings = _module("settings").load(storage, board, self.log)
        unload([m for m in sys.modules if m in BOOT_ONLY or m.startswith("boards.")])
        self.ledview = LedView(leds)
        self.idle = Idle(display, clock)
        self.apply_settings()
        self.resume()

    # ---- settings ----
    def apply_settings(self):
        s = self.settings
        self.ledview.configure(s["brightness"], s["led_count"], s["led_layout"])
        self.idle.configure(s["dim_after"], s["blank_after"], self.ledview.count > 0)

    # ---- the game ----
    def resume(self):
        """Boot: the current record's game, or the main menu with what went wrong."""
        from app.resume import resume  # (run once: dropped below)
        self.session, message = resume(self.records)
        s = self.session
        drop = ["app.resume"]
        if s is not None:
            drop += other_games(s.game) + list(MENUS)
            if not s.finished:  # (final standings enter nothing: App.undo asks for them)
                self.expect(entry_screens(s.game))  # what its scoreboard's first OK imports
        unload(drop)  # one collection
        self.home()
        if message:
            self.say(message, None)

    def new_game(self, line, session, screen):
        """File the current game and start `session`, its header `line` put on flash, then
        shown with `screen` (app.setup makes the three, mostly in idle frames); on a write
        that fails, say so and stay."""
        if not self.archive():
            return
        try:
            self.records.start(line)
        except OSError as e:
            self.log("new game not saved: %s" % (e,))
            self.refuse("not saved: " + why(e))
            return
        self.session = session
        del self.wanted[:]  # the presses they were for have come
        del self.fetched[:]  # and the game holds them now
        # not collected in this press (a Pico's collection here took 20 ms): between presses
        unload(other_games(session.game) + list(MENUS), collect=False)
        self.home(screen)

    def resume_game(self):
        """The main menu's Resume: the game's scoreboard, without the menus' modules (MENUS;
        collected between presses) that the main menu imported."""
        unload(MENUS, collect=False)
        self.home()

    def archive(self):
        """File the current record (finished or not) for the history (Records.archive; an idle
        frame moves it there: file_game); False (and says why) when it could not be filed: it
        stays the current game."""
        try:
            self.filing = self.records.archive(self.session is not None) or self.filing
        except OSError as e:
            self.log("game not filed: %s" % (e,))
            self.refuse("not filed: " + why(e))
            return False
        self.session = None
        return True

    def file_game(self):
        """Move the game archive() filed into the history (Records.file), where one is waiting:
        an idle frame's work, done first by boot and by what reads the history (History, the
        page's backup) where no idle frame came. The history is trimmed after it (ahead()).
        One that fails is said and logged, and stays filed (data/filed.jsonl): the next
        filing or boot moves it first. True when one was waiting."""
        if not self.filing:
            return False
        self.filing = False
        try:
            self.trim = self.records.file() or self.trim
        except OSError as e:
            self.log("game not moved into the history: %s" % (e,))
            self.say("not in history: " + why(e), None)
        return True

    def enter(self, ev, after=None, line=None):
        """Enter an event: True once its line is on flash and the game applied it. Refused
        by the rules, or not saved (the flash is full...), it says why and returns False, and
        the screen that entered it stays as it is. after, line: what the screen has of the
        work (Records.add)."""
        try:
            self.records.add(self.session, ev, after, line)
        except ValueError as e:
            self.refuse(str(e))
            return False
        except OSError as e:
            self.log("not saved: %s: %s" % (describe(self.session, ev), e))
            self.refuse("not saved: " + why(e))
            return False
        self.entered += 1
        return True

    def undo(self):
        s = self.session
        if s is None or not s.can_undo():
            self.refuse("nothing to undo")
            return
        made = self.screen.undone  # (final standings: undo_ahead(), made for the game as it is)
        if made and s.undone() is not made[0]:
            made = None
        what = None if made else "undone: " + describe(s, s.last_event())
        was = s.finished
        if self.enter(_UNDO, line=_UNDO_LINE):
            if was:  # from the final standings, which let the entry screens go (drop_entries)
                self.expect(entry_screens(s.game))
            self.say(what, rows=made[2] if made else None)
            self.home(made[1] if made and s.rules is made[0] else None)

    def undo_ahead(self):
        """(the state an undo takes back, the scoreboard it shows then, its message's rows)
        when the undo only takes back a kept state (ReadBack.undone), made in an idle frame;
        else None."""
        s = self.session
        state = s.undone()
        if state is None:
            return None
        screen = self.home_screen(state)
        if screen.leds is not None and screen.leds[2] is None:  # (a scoreboard's player LEDs)
            screen.leds = self.ledview.frame(screen.leds)
        return state, screen, wrap("undone: " + describe(s, s.last_event()), self.cv.w // 8,
                                                    self.cv.h // 8 - 1)

    def redo(self):
        s = self.session
        if s is None or not s.can_redo():
            self.refuse("nothing to redo")
            return
        if self.enter(_REDO, line=_REDO_LINE):
            self.say("redone: " + describe(s, s.last_event()))
            self.home()

    # ---- the screen stack ----
    def _top(self, screen):
        self.screen = screen
        self.dirty = True

    def push(self, screen):
        """Open screen over the current one; back() returns to it."""
        self.stack.append(screen)
        self._top(screen)

    def show(self, screen):
        """Replace the current screen (the next step of the same task)."""
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
            if type(self.screen) is MainMenu:
                self.drop_fetched()  # a new game or the settings were left
        else:
            self.home()

    def home(self, made=None):
        """The scoreboard (or the final standings) of the current game, else the main menu,
        alone on the stack. made: that screen, made ahead for the state the session has
        now (home_screen())."""
        del self.stack[:]
        if self.session is None:
            self.drop_fetched()
            made = MainMenu(self)
        else:
            made = made or self.home_screen()
            self.ledview.take(made.leds, self.session, self.entered)
            made.leds = None  # (taken: the screen holds them no longer)
        self.push(made)

    def home_screen(self, state=None, session=None):
        """The scoreboard of `session` (default: the current game), or its final standings
        once it is finished. With `state` (a Session.trial() the session has not taken yet):
        the screen for the game once it takes that state, made ahead in an idle frame; the
        session stays as it is. A scoreboard makes the player LEDs of the state it shows
        (LedView.ahead), final standings made ahead the frames of their chase
        (LedView.chases), which home() hands over."""
        from app import scoreboard
        s = session or self.session
        live = s.rules
        s.rules = state or live  # what the screen reads of the game, while it is made
        try:
            if not s.finished:
                return scoreboard.Scoreboard(self, s)
            screen = scoreboard.Final(self, s)
            if state is not None:  # its press shows the LEDs' chase
                screen.leds = self.ledview.chases(screen.won)
            return screen
        finally:
            s.rules = live

    def main_menu(self):
        self.push(MainMenu(self))

    # ---- modules imported ahead ----
    def expect(self, names):
        """The next presses will import `names` (leaves first, so that each import loads one
        module): prefetch() imports them while nobody presses."""
        for name in names:
            if name not in self.wanted:
                self.wanted.append(name)

    def prefetch(self):
        """Import the next module expect() named that is not loaded yet, one per call (the main
        loop calls it in idle frames: a press that comes meanwhile waits for this one import);
        True while more are wanted."""
        wanted = self.wanted
        while wanted:
            name = wanted.pop(0)
            if name not in sys.modules:
                pkg = name.rpartition(".")[0]
                if pkg and pkg not in sys.modules:  # the package comes with it, and goes with it
                    self.fetched.append(pkg)
                if not fetch(self, name):
                    del wanted[:]
                    return False
                self.fetched.append(name)
                break
        return len(wanted) > 0

    def held(self):
        """A piece of the game's undo work ahead (ReadBack.ahead, 2.5 ms of the board's time
        a piece): the main loop's work in a frame while BACK is held, and one of ahead()'s;
        True while more is left."""
        s = self.session
        return s is not None and s.ahead()

    def ahead(self):
        """The main loop's work in an idle frame, a piece a frame: first a game filed moved
        into the history (file_game), then the history trimmed (Records.trim); the next
        module expect() named imported (prefetch), else the screen's own work ahead
        (Screen.ahead), else a piece of the game's next undo (ReadBack.ahead), else a piece
        of the history's listing where it is to be made again (made at boot; a listing that
        failed: Storage.scan_history); then a finished game's entry screens let go
        (drop_entries); last of all, littlefs's walk of the flash, due every ~170 blocks
        allocated, taken here (Storage.refresh), not by the press whose line would allocate
        the block. True while more is left."""
        if self.file_game():
            return True
        if self.trim:
            self.trim = False
            self.records.trim(self.settings["history_keep"])
            return True
        if self.wanted:
            self.prefetch()
            return True  # (the screen's work, if any, in the next frame)
        return (self.screen.ahead() or self.held()
                or self.storage.scan_history(paths.HISTORY_DIR) or self.drop_entries()
                or self.storage.refresh(paths.WARM))

    def drop_entries(self):
        """Final standings enter nothing: their idle frame lets the game's entry screens go
        (7-11 KB of a Pico's heap; collected between presses). An undo from there imports
        them ahead again (App.undo) while BACK is released: the undo itself needs none, and
        the hold that fires it runs no import (main.HELD_WORK_MS). True when it let them go."""
        s = self.session
        if not ON_BOARD or s is None or not s.finished or "app.entries" not in sys.modules:
            return False  # (a desktop keeps its modules: unload)
        unload(entry_screens(s.game), collect=False)
        return True

    def drop_fetched(self):
        """Back at the main menu: the presses the modules were imported for will not come, so
        what prefetch() imported goes (an open game's modules were loaded before, but for the
        entry screens a resumed game imports ahead: its next OK imports them again)."""
        del self.wanted[:]
        if self.fetched:  # collected after the press's frame (main.after_press), not in it
            unload(self.fetched, collect=False)
            del self.fetched[:]

    # ---- messages ----
    def say(self, text, ms=_TOAST_MS, rows=None):
        """A message over the bottom rows for ms (None: until the next key). One longer than
        two rows (a record's line that no longer plays, a storage error) is never cut: it
        covers all but the title row and stays until a key, as long as it takes to read.
        rows: the message wrapped already (made ahead), instead of text."""
        self.toast = rows or wrap(text, self.cv.w // 8, self.cv.h // 8 - 1)
        self.toast_sticky = ms is None or len(self.toast) > 2
        self.toast_until = self.now + (ms or 0)
        self.dirty = True

    def refuse(self, text):
        self.flash_until = self.now + _FLASH_MS
        self.say(text)

    def flashing(self, now):
        return self.clock.ticks_diff(self.flash_until, now) > 0

    def log(self, text):
        """One line in data/errors.log (the screen says what the user must know)."""
        try:
            self.storage.append_line(paths.ERRORS, text.replace("\n", " "))
        except OSError:
            pass

    def crash(self, e):
        """An exception in a screen: log it and its traceback, say so, back to the
        scoreboard, the game intact."""
        self.log_error(e)
        self.home()
        self.say("error: %s" % (e,))

    def log_error(self, e):
        """An exception's summary line and its traceback, indented, in data/errors.log."""
        self.log("%s: %s" % (type(e).__name__, e))
        try:  # its traceback (sys.print_exception on MicroPython, traceback on CPython)
            import io
            buf = io.StringIO()
            print_exception = getattr(sys, "print_exception", None)  # MicroPython
            if print_exception is not None:
                print_exception(e, buf)
            else:
                import traceback  # type: ignore[import-not-found]  # CPython (not in the board's stubs)
                traceback.print_exception(type(e), e, e.__traceback__, file=buf)
            lines = buf.getvalue().splitlines()
        except Exception:  # out of memory while logging a crash: the summary line is enough
            lines = []
        for line in lines:
            self.log("  " + line)

    # ---- the loop ----
    def step(self, now, key):
        """Handle one input (or None) and redraw if anything changed: one show() per frame."""
        self.now = now
        if key is not None and self.idle.key(now):
            key = None  # it only woke a dark screen: nothing is entered unseen
            self.dirty = True
        if key is not None:
            self.stalled = False
            if self.toast_sticky:
                self.toast = []  # a message kept until a key: this key read it
                self.toast_sticky = False
            try:
                if key == BACK | LONG and not self.screen.raw_keys:
                    self.undo()
                else:
                    self.screen.key(key)
            except Exception as e:  # a screen bug must never lose the game
                self.crash(e)
            self.dirty = True
        if self.toast and not self.toast_sticky and self.clock.ticks_diff(now, self.toast_until) >= 0:
            self.toast = []
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
        if self.toast and not self.toast_sticky:
            ms = min(ms, diff(self.toast_until, now))
        if self.flash_shown:
            ms = min(ms, diff(self.flash_until, now))
        return max(0, ms)

    def update_leds(self, now, flash):
        """The LED frame for the game and the screen (final standings chase, Azul wall)."""
        scr = self.screen
        self.ledview.update(now, self.session, flash, scr.winners(), scr.wall_cells(), self.entered,
                            self.idle.level)

    def draw(self):
        cv = self.cv
        toast = self.toast
        if len(toast) < self.toasted:
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
        toast = self.toast  # (a crash while drawing says so)
        self.toasted = len(toast)
        if toast:
            y = cv.h - 8 * len(toast)
            cv.d.fill_rect(0, y - 1, cv.w, 8 * len(toast) + 1, 1)
            for i in range(len(toast)):
                cv.text(toast[i], 0, y + 8 * i, 0)
        self.display.show()

    def text(self):
        """The strings drawn in the last frame (tests, simulator)."""
        return self.cv.texts()
