"""The game records on flash: the current game (data/current.jsonl), finished games in the
history folder, and records that would not resume, set aside untouched (data/damaged-N.jsonl).
A game filed goes into the history in two renames: to data/filed.jsonl in the press that
files it, then into the history folder in an idle frame (archive, file).

Every read and write of a record goes through here (the resume at power-on through
app.resume, loaded for it alone), under one rule: the session never holds an event whose
line is not on flash. An event is checked, its line written (a failed write
is cut back off the file, hal.storage), and only then applied to the session.
The rules core is imported when a record is first read or written: with no game open (the
main menu) a board's heap holds none of it.
"""
import sys

import paths
from hal.compat import const

_ENOSPC = const(28)
_EFBIG = const(27)
_ENOENT = const(2)
_PIECE = const(512)  # bytes of the record read at a time by current_lines()
ON_BOARD = sys.implementation.name != "cpython"  # the heap is a board's: collect eagerly


def why(e):
    """An OSError as the few words the screen shows after "not saved: "."""
    n = e.args[0] if e.args else None
    if n == _ENOSPC or n == _EFBIG:
        return "storage full"
    if n == _ENOENT:
        return "file missing"
    return "storage error %s" % (n,)


def lines_text(lines):
    """Lines as storage reads them (no newline), as replay() reads a record's."""
    for line in lines:
        yield line + "\n"


class Records:
    """The current game's record and the history (the record resumed at power-on:
    app.resume, dropped once it has run)."""

    def __init__(self, storage, log):
        self.storage = storage
        self.log = log  # log(text): one line in data/errors.log
        self.pending = storage.exists(paths.FILED)  # a game filed, not yet in the history (file())

    # ---- the current game ----
    def start(self, line):
        """Put a new game's header `line` on flash as the current record (its Session reads
        it back with current_lines). A new file with one line appended: a power cut leaves it
        missing, empty or with a torn line, which resume() removes. OSError: not written (the
        caller has filed the previous game first, see archive())."""
        self.storage.append_line(paths.CURRENT, line)

    def current_lines(self):
        """The current record's lines (bytes, as replay() reads them), for a session that reads back
        what it let go: read _PIECE bytes at a time (Storage.read_at), so neither the file nor
        the list of its lines is in the heap, and no file is open while the caller waits
        between lines (ReadBack.ahead reads a few lines an idle frame)."""
        at = 0
        rest = b""
        while True:
            piece = self.storage.read_at(paths.CURRENT, at, _PIECE)
            if not piece:
                break
            at += len(piece)
            parts = (rest + piece).split(b"\n")
            rest = parts.pop()
            for part in parts:
                yield part + b"\n"  # (bytes: replay's lines_of says which line is not UTF-8)
        if rest:
            yield rest  # a torn last line, without its newline (replay ignores it)

    def add(self, session, ev, after=None, line=None):
        """Check ev (unless `after`, session.trial(ev), is given), put its line (`line`,
        dumps(ev), when the screen made it ahead) on flash, then apply it to the session.

        ValueError: refused by the rules (nothing written). OSError: not saved (the file is
        as before the call). Either way the session is unchanged.
        """
        e = ev.get("e") if type(ev) is dict else None
        # the state after ev: checked here (or by the screen), taken by the session once on flash
        if e == "undo" or e == "redo":
            if not (session.can_undo() if e == "undo" else session.can_redo()):
                from rules_core import RuleError
                raise RuleError("nothing to " + e)
        elif e != "note" and after is None:
            after = session.trial(ev)
        text = line
        if not text:  # (a line made ahead, undo's and redo's: the writer is not imported for it)
            from rules_core.record import dumps
            text = dumps(ev)
        start = self.storage.append_line(paths.CURRENT, text, create=False)
        try:
            session.add(ev, text, after)
        except Exception:
            self.storage.cut(paths.CURRENT, start)  # checked above, so not expected: flash = session
            raise

    def archive(self, open_game=False):
        """File the current record (finished or not): renamed to data/filed.jsonl, a rename
        inside the data folder (3-5 ms on a Pico's littlefs); file() moves it into the history.
        Not in one rename: one into a folder of 50 games meets littlefs's compaction of the
        folder's metadata every ~4th time (130-140 ms on a Pico, up to 370 at 100 games: it
        grows with the square of the folder's files), which the press would wait for. A game
        filed before and not yet moved goes first. True when one was filed. open_game: a game
        is open, so its record is on flash (not looked for: a stat costs a Pico's littlefs 1-3
        ms). OSError: not filed; the record is still current."""
        st = self.storage
        if not open_game and not st.exists(paths.CURRENT):
            return False
        self.file()
        st.move(paths.CURRENT, paths.FILED)
        self.pending = True
        return True

    def file(self):
        """Move the game archive() filed into the history (its name there from the history's
        listing, made at boot: Storage.scan_history): an idle frame's work, or boot's after a
        power cut. True when one was moved. OSError: it stays filed, not moved."""
        if not self.pending:
            return False
        self.storage.move_to_history(paths.FILED, paths.HISTORY_DIR)
        self.pending = False
        return True

    def trim(self, keep):
        """Drop the oldest history files beyond `keep`: an idle frame's work once a game is
        filed (a removal costs a Pico's littlefs 3 ms at 50 games; the history's span was
        listed ahead). A rotation that fails is logged and tried again after the next archive."""
        try:
            self.storage.rotate_history(paths.HISTORY_DIR, keep)
        except Exception as e:
            self.log("history rotation failed: %s: %s" % (type(e).__name__, e))
