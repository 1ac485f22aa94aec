"""The App: one game session, the current screen, the record on flash, settings and LEDs.

Power-safe by construction: an event is validated by Session.add() first and only then
appended to the record (flushed); undo and redo are appended events too, so the record on
flash always replays to what the screen shows. Boot replays data/current.jsonl.
"""
import gc
import json
import sys

import paths
from hal.keys import BACK, LONG
from hal.clock import ticks_diff
from rules_core.record import dumps, new_header
from rules_core.session import Session, replay
from app.ui import Canvas
from app.leds import LedView

TOAST_MS = 1500
FLASH_MS = 250

# history_keep: finished games kept in data/history; older ones are removed (flash is small)
DEFAULT_SETTINGS = {"brightness": 3, "symbols": True, "history_keep": 50}


def describe(session, ev):
    """Short text of an event for messages: "wall Ann", "end_round"."""
    if ev is None:
        return "-"
    p = ev.get("p")
    if type(p) is int and 0 <= p < len(session.players):
        return "%s %s" % (ev["e"], session.players[p])
    return ev["e"]


def unload_other_games(game):
    """Drop the rules and entry-screen modules of every other title: a board's heap holds
    the code of one game (module bytecode loaded from .mpy files lives on the heap)."""
    if sys.implementation.name == "cpython":  # a desktop: classes others imported stay the same
        return
    from rules_core.games import GAMES
    for g in GAMES:
        if g.key == game:
            continue
        for name in (g.module, "app.entry_" + g.key):
            if name in sys.modules:
                del sys.modules[name]
                pkg, _, attr = name.rpartition(".")
                if hasattr(sys.modules.get(pkg), attr):
                    delattr(sys.modules[pkg], attr)
    gc.collect()


class App:
    def __init__(self, display, leds, storage, clock, board):
        self.cv = Canvas(display)
        self.display = display
        self.storage = storage
        self.clock = clock
        self.board = board
        self.session = None
        self.screen = None
        self.toast = ""
        self.toast_until = 0
        self.flash_until = 0
        self.flash_shown = False
        self.now = 0
        self.dirty = True
        self.entered = 0  # events entered since boot (LedView redraws the seats when it moves)
        storage.ensure_dir(paths.DATA_DIR)
        self.settings = self._load_settings()
        self.ledview = LedView(leds)
        self.apply_settings()
        self.resume()

    # ---- settings ----
    def _load_settings(self):
        s = dict(DEFAULT_SETTINGS)
        leds = self.board.get("leds") or {}
        s["led_count"] = leds.get("count", 0)
        s["led_layout"] = leds.get("layout", "strip")
        try:
            lines, _ = self.storage.read_lines(paths.SETTINGS)
            if lines:
                s.update(json.loads("".join(lines)))
        except (OSError, ValueError) as e:
            self.log("settings unreadable, defaults used: %s" % e)
        return s

    def save_settings(self):
        self.storage.write_atomic(paths.SETTINGS, dumps(self.settings) + "\n")
        self.apply_settings()

    def apply_settings(self):
        s = self.settings
        self.ledview.configure(s["brightness"], s["led_count"], s["led_layout"])

    # ---- the game record ----
    def resume(self):
        """Boot: replay the current record. A torn last line (a write cut by power loss) is
        cut off the file, not only skipped: the next append must start on a fresh line."""
        self.session = None
        try:
            lines, torn = self.storage.recover_lines(paths.CURRENT)
        except OSError:
            lines, torn = [], False
        if lines:
            try:
                self.session, _ = replay(l.rstrip("\n") + "\n" for l in lines)
                unload_other_games(self.session.game)
                if torn:
                    self.say("last entry lost")
            except ValueError as e:
                self.log("current record does not replay: %s" % e)
                self.archive()
                self.say("record damaged")
        self.home()

    def new_game(self, game, variant, players, options):
        header = new_header(game, variant, players, options)
        self.archive()
        self.storage.write_atomic(paths.CURRENT, dumps(header) + "\n")
        unload_other_games(game)
        self.session = Session(header)
        self.home()

    def archive(self):
        """Move the current record (finished or not) into the history folder."""
        if self.storage.exists(paths.CURRENT):
            self.storage.move_to_history(paths.CURRENT, paths.HISTORY_DIR, self.settings["history_keep"])
        self.session = None

    def enter(self, ev):
        """Validate, then append; True if entered. A refused event says why."""
        try:
            self.session.add(ev)
        except ValueError as e:
            self.refuse(str(e))
            return False
        self.storage.append_line(paths.CURRENT, dumps(ev))
        self.entered += 1
        return True

    def undo(self):
        s = self.session
        if s is None or not s.can_undo():
            self.refuse("nothing to undo")
            return
        what = describe(s, s.last_event())
        if self.enter({"e": "undo"}):
            self.say("undone: " + what)
            self.home()

    def redo(self):
        s = self.session
        if s is None or not s.can_redo():
            self.refuse("nothing to redo")
            return
        if self.enter({"e": "redo"}):
            self.say("redone: " + describe(s, s.last_event()))
            self.home()

    # ---- screens ----
    def show(self, screen):
        self.screen = screen
        self.dirty = True

    def home(self):
        """The scoreboard (or the final standings) of the current game, else the main menu."""
        if self.session is None:
            from app import system  # imported only when needed: each module costs heap
            self.show(system.MainMenu(self))
            return
        from app import scoreboard
        if self.session.finished:
            self.show(scoreboard.Final(self, self.session))
        else:
            self.show(scoreboard.Scoreboard(self))

    def on_final(self):
        return getattr(self.screen, "final", False)

    def screen_wall(self):
        """25 colour names (or None) when the screen shows an Azul wall, else None."""
        return self.screen.wall_cells()  # a method call: getattr() would allocate a bound method

    def say(self, text):
        self.toast = text
        self.toast_until = self.now + TOAST_MS
        self.dirty = True

    def refuse(self, text):
        self.flash_until = self.now + FLASH_MS
        self.say(text)

    def flashing(self, now):
        return ticks_diff(self.flash_until, now) > 0

    def log(self, text):
        try:
            self.storage.append_line(paths.ERRORS, text)
        except OSError:
            pass

    def crash(self, e):
        """An exception in a screen: log it, say so, back to the scoreboard, game intact."""
        self.log("%s: %s" % (type(e).__name__, e))
        self.home()
        self.say("error: %s" % (e,))

    # ---- the loop ----
    def step(self, now, key):
        """Handle one input (or None) and redraw if anything changed: one show() per frame."""
        self.now = now
        if key is not None:
            try:
                if key == BACK | LONG and not getattr(self.screen, "raw_keys", False):
                    self.undo()
                else:
                    self.screen.key(key)
            except Exception as e:  # a screen bug must never lose the game
                self.crash(e)
            self.dirty = True
        if self.toast and ticks_diff(now, self.toast_until) >= 0:
            self.toast = ""
            self.dirty = True
        flash = self.flashing(now)
        if self.dirty:
            self.draw()
        if self.dirty or flash != self.flash_shown or self.on_final():
            self.ledview.update(self, now)  # writes the LEDs only if the frame changed
        self.flash_shown = flash
        self.dirty = False

    def draw(self):
        cv = self.cv
        cv.clear()
        try:
            self.screen.draw(cv)
        except Exception as e:
            self.crash(e)
            cv.clear()
            self.screen.draw(cv)
        if self.toast:
            y = cv.h - 8
            cv.d.fill_rect(0, y - 1, cv.w, 9, 1)
            cv.text(self.toast[:cv.w // 8], 0, y, 0)
        self.display.show()

    def text(self):
        """The strings drawn in the last frame (tests, simulator)."""
        return self.cv.texts()
