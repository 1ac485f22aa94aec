"""The keeper: every game on the device's storage from its first line to the history, and
the only writer of the device's files (tests/test_static.py checks that nothing else calls
the storage's writing methods).

  data/current.jsonl    the game in play: its header, then a line an event, each written
                        and flushed before the game takes it (add)
  data/filed.jsonl      a game put aside (finished or not) on its way into the history: the
                        press renames it here, the next idle frame moves it on (put_aside, file)
  data/history/N.jsonl  the history, numbered 1, 2, ... (what `pull` copies); any of its
                        games can be opened, resumed (take) or deleted
  data/history.txt      a summary line a history game (its History rows): "N [game, players,
                        round, finished, scores, winners]"; a game without one shows its header
  data/damaged-N.jsonl  a record that would not resume, kept byte for byte
  data/torn-N           bytes after a record's last complete line (a write the power cut), kept
  data/settings.json    the settings, replaced whole; data/errors.log, a line a problem

The promises (docs/reliability.md): the game in play never holds an event whose line is not
on flash; boot discards no byte it read; a game moves only by renames, and boot finishes a
move it finds half done; the history costs what its files cost (one listing, never a walk
over the numbers between the oldest and the newest).
"""
import sys

import paths
from paths import game_number, game_path
from hal.compat import const
from app.lang import tr

_ENOSPC = const(28)
_EFBIG = const(27)
_ENOENT = const(2)
_PIECE = const(512)  # bytes of a file read at a time
_SETTINGS_MAX = const(4096)  # a settings file is ~150 bytes: a bigger one is not read
_TRIM_PASS = const(32)  # the oldest games a trim's listing pass picks (a pass per 32)
ON_BOARD = sys.implementation.name != "cpython"
# what boot says where the games are on a store a power cut can damage (Storage.cut_safe)
NOT_CUT_SAFE = "no FRAM: a power cut can lose saved entries"


def why(e):
    """An OSError as the few words the screen shows after "not saved: "."""
    n = e.args[0] if e.args else None
    if n == _ENOSPC or n == _EFBIG:
        return tr("storage full")
    if n == _ENOENT:
        return tr("file missing")
    return tr("storage error %s") % (n,)


def summary(session):
    """What the History row of a game says: [game, players, round, finished, scores, winners]."""
    s = session
    return [s.game, s.players, s.round, s.finished, s.scores, s.winners()]


class Keeper:
    def __init__(self, storage):
        self.storage = storage
        self.waiting = False  # a game in data/filed.jsonl waits for its move into the history
        self.due = False  # ... and one idle try of it is due (a refused one is said once)
        self.trim_due = False  # the history to be trimmed to "Games kept" (after a filing)
        self.filed_summary = None  # the waiting game's summary (put_aside)
        # the history's files as one listing found them, kept by this keeper's own changes:
        # how many, the oldest and the newest number (newest counts a folder named like a
        # game too: the next name must be free); listed False: to be listed again
        self.count = self.oldest = self.newest = 0
        self.listed = False
        self.owed = None  # before the next line: ("newline",) or ("torn", at) (resume)
        self.unended = False  # the record's last line lacked only its newline (lines())
        self.torn_at = None  # where the record's torn tail begins (lines())

    # ---- power-on ----
    def boot(self):
        """Folders made, the flash's allocator warmed, the history listed, a game left half
        filed moved into it: the OSError that left it waiting, else NOT_CUT_SAFE where the games
        are on a store a power cut can damage, else None (the screen says it, in the language
        the settings read after this choose). Never raises: what fails is
        logged."""
        st = self.storage
        st.remount()  # (littlefs's walks and listings cheaper: lfs_remount)
        try:
            st.ensure_dir(paths.DATA_DIR)
            st.ensure_dir(paths.HISTORY_DIR)
        except OSError as e:
            self.log("data folder: %s" % (e,))
        st.warm(paths.WARM)  # the allocator's first walk of the flash here, not in a press
        self.list_history(True)  # here, not in a press: a listing of the whole history folder
        self.waiting = st.exists(paths.FILED)  # (a power cut between the renames)
        try:
            self.file()
        except OSError as e:
            self.log("game not moved into the history: %s" % (e,))
            return e
        if not st.cut_safe:  # (the board file's FRAM not found: main.storage_from_board)
            self.log(NOT_CUT_SAFE)
            return NOT_CUT_SAFE
        return None

    def resume(self):
        """(the game in play or None, a message or None). Never raises: a record that will
        not resume is set aside byte for byte as data/damaged-N.jsonl; bytes after its last
        complete line that are no whole event are kept as data/torn-N and cut off."""
        st = self.storage
        self.unended = False
        self.torn_at = None
        try:
            st.settle(paths.CURRENT)
            if not st.exists(paths.CURRENT):
                return None, None
            if not st.size(paths.CURRENT):
                st.remove(paths.CURRENT)  # (no byte to keep)
                return None, None
            from app.current import ReadBack
            from rules_core.session import replay
            session = replay(self.lines(), ReadBack, self.lines)[0]
        except Exception as e:  # MemoryError and OSError too: boot must reach the menu
            err = e  # (CPython unbinds e after the except clause)
            session = None
            import gc
            gc.collect()
            return None, self._set_aside(err)
        message = None
        try:
            if self.unended:
                st.append_line(paths.CURRENT, "")  # its newline
            elif self.torn_at is not None:
                message = self._keep_torn(self.torn_at)
        except OSError as e:
            self.log("record end not mended: %s" % (e,))
            self.owed = ("newline",) if self.unended else ("torn", self.torn_at)
            message = tr("last entry: %s") % why(e)
        return session, message

    def _set_aside(self, err):
        st = self.storage
        n = self._free(paths.DAMAGED)
        try:
            st.rename(paths.CURRENT, paths.DAMAGED % n)
        except Exception as e2:
            self.log("%s does not resume (%s: %s) and stays: %s" % (paths.CURRENT, type(err).__name__, err, e2))
            return tr("record damaged")
        name = paths.DAMAGED % n
        self.log("%s does not resume, kept as %s: %s: %s" % (paths.CURRENT, name, type(err).__name__, err))
        return tr("bad record kept as %s") % name[len(paths.DATA_DIR) + 1:-len(".jsonl")]

    def _free(self, pattern):
        n = 1
        while self.storage.exists(pattern % n):
            n += 1
        return n

    def _keep_torn(self, at):
        """The record's bytes from `at` on copied to data/torn-N, then cut off: what the
        screen says of it. OSError: neither done."""
        st = self.storage
        tail = st.read(paths.CURRENT, at)
        n = self._free(paths.TORN)
        st.write_atomic(paths.TORN % n, tail)
        st.cut(paths.CURRENT, at)
        self.log("%s: %d bytes after its last line kept as %s" % (paths.CURRENT, len(tail), paths.TORN % n))
        text = True
        for b in tail:
            if b == 0 or b == 0xFF:
                text = False
        what = tr("last entry lost") if text else tr("record end unreadable, entries lost")
        return tr("%s: kept as torn-%d") % (what, n)

    # ---- the game in play ----
    def lines(self, path=paths.CURRENT):
        """A record's lines (bytes, as replay() reads them), _PIECE bytes read at a time, so
        neither the file nor its lines are on the heap and no file is open between lines
        (ReadBack.prepare reads a few an idle frame). After the last complete line: the rest
        if it is a whole JSON object without its newline (unended), else nothing (torn_at)."""
        at = 0
        for line in self._pieces(path):
            at += len(line)
            if line[-1:] == b"\n":
                yield line  # (bytes: replay's lines_of says which line is not UTF-8)
                continue
            from rules_core.session import parse_line
            try:
                parse_line(line.decode("utf-8"))
                self.unended = True
                yield line + b"\n"
            except ValueError:  # (UnicodeError is one)
                self.torn_at = at - len(line)

    def _pieces(self, path):
        """path's lines, newline kept, and the bytes after its last newline (if any), read
        _PIECE bytes at a time. OSError: missing or unreadable."""
        at = 0
        rest = b""
        while True:
            piece = self.storage.read(path, at, _PIECE)
            if not piece:
                break
            at += len(piece)
            parts = (rest + piece).split(b"\n")
            rest = parts.pop()
            for part in parts:
                yield part + b"\n"
        if rest:
            yield rest

    def start(self, line):
        """A new game's header `line` on flash as the game in play (its ReadBack reads it back
        with lines()). A power cut leaves the file missing, empty or torn: boot removes or
        keeps it. OSError: not written (the game before was put aside first)."""
        self.owed = None
        self.storage.append_line(paths.CURRENT, line)

    def add(self, session, ev, after=None, line=None):
        """Check ev (unless `after`, session.trial(ev), is given), put its line (`line`,
        dumps(ev), when the screen made it ahead) on flash, then apply it to the session.
        ValueError: refused by the rules (nothing written). OSError: not saved (the file is
        as before; ENOENT: the record is gone, cleared behind the device). Either way the
        session is unchanged."""
        e = ev.get("e") if type(ev) is dict else None
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
        st = self.storage
        if self.owed is not None:  # boot could not mend the record's end: now, or refused
            if self.owed[0] == "newline":
                st.append_line(paths.CURRENT, "")
            else:
                self._keep_torn(self.owed[1])
            self.owed = None
        start = st.append_line(paths.CURRENT, text, create=False)
        try:
            session.add(ev, text, after)
        except Exception:
            st.cut(paths.CURRENT, start)  # checked above, so not expected: flash = session
            raise

    def put_aside(self, session=None):
        """The game in play (finished or not; `session`, or None when none resumed) leaves
        play for the history: renamed to data/filed.jsonl (a rename inside the small data
        folder, never a compaction of the history's); file() moves it on in the next idle
        frame. A game put aside before and not yet moved goes first. True when one was put
        aside. OSError: it stays in play."""
        st = self.storage
        if session is None and not st.exists(paths.CURRENT):
            return False
        self.file()
        st.rename(paths.CURRENT, paths.FILED)
        self.waiting = self.due = True
        self.filed_summary = summary(session) if session is not None else None
        return True

    def file(self):
        """Move the game put aside into the history under the next number, and write its
        summary; then the history is due a trim. True when one was moved. OSError: it stays
        in data/filed.jsonl."""
        if not self.waiting:
            return False
        self.list_history()
        st = self.storage
        n = self.newest + 1
        if st.exists(game_path(n)):  # the folder changed behind the keeper: listed again
            self.listed = False
            self.list_history()
            n = self.newest + 1
        st.rename(paths.FILED, game_path(n))
        self.waiting = False
        self.count += 1
        self.newest = n
        if self.count == 1:
            self.oldest = n
        s, self.filed_summary = self.filed_summary, None
        if s is not None:
            self._note(n, s)
        self.trim_due = True
        return True

    def idle(self, keep):
        """One piece of the keeper's idle work: the game put aside moved into the history
        (tried once: a refusal is raised, OSError, and said once), then the history trimmed
        to `keep` games. True when it did some."""
        if self.due:
            self.due = False
            self.file()
            return True
        if self.trim_due:
            self.trim_due = False
            try:
                self.trim(keep)
            except OSError as e:
                self.log("history not trimmed: %s" % (e,))
            return True
        return False

    def refresh(self):
        """littlefs's walk of the flash, due every ~170 blocks allocated, taken in an idle
        frame (Storage.refresh); False: nothing left."""
        return self.storage.refresh(paths.WARM)

    # ---- the history ----
    def list_history(self, log=False):
        """The history's count, oldest and newest from one listing (log: each entry that is
        no game file named once in errors.log, at boot). Skipped when listed already."""
        if self.listed:
            return
        count = oldest = newest = 0
        for name, is_dir in self.storage.entries(paths.HISTORY_DIR):
            n = game_number(name)
            if n is None or is_dir:
                if log:
                    self.log("%s/%s: not a game file, left as it is" % (paths.HISTORY_DIR, name))
                if n is not None and n > newest:
                    newest = n
                continue
            count += 1
            if n > newest:
                newest = n
            if not oldest or n < oldest:
                oldest = n
        self.count, self.oldest, self.newest = count, oldest, newest
        self.listed = True

    def page(self, count, below=None, above=None):
        """Up to `count` history numbers, newest first: the newest ones below `below`, or
        (with `above`) the oldest ones above it. Holds only the page: from the numbers when
        every one between the oldest and the newest is a game, else from one listing."""
        self.file()
        self.list_history()
        if self.count == self.newest - self.oldest + 1:
            if above is not None:
                lo = max(self.oldest, above + 1)
                hi = min(self.newest, lo + count - 1)
            else:
                hi = self.newest if below is None else min(self.newest, below - 1)
                lo = max(self.oldest, hi - count + 1)
            return list(range(hi, lo - 1, -1)) if self.count else []
        up = above is not None
        page = []  # type: list  # sorted newest first
        for name, is_dir in self.storage.entries(paths.HISTORY_DIR):
            n = game_number(name)
            if n is None or is_dir or (below is not None and n >= below) or (up and n <= above):
                continue
            if len(page) < count or (n < page[0] if up else n > page[-1]):
                i = 0
                while i < len(page) and page[i] > n:
                    i += 1
                page.insert(i, n)
                if len(page) > count:
                    page.pop(0 if up else -1)
        return page

    def summaries(self, numbers):
        """{n: summary} of history games `numbers` from data/history.txt (the last line of
        a number wins); a game without one: [game, players, None, ...] from its header, or
        None where even that cannot be read."""
        want = {}  # type: dict
        for n in numbers:
            want[n] = None
        from rules_core.session import parse_line
        for line in self._index():
            i = line.find(b" ")
            n = int(line[:i]) if i > 0 and line[:i].isdigit() else None
            if n in want:
                try:
                    want[n] = parse_line(line[i + 1:].decode("utf-8"))["s"]
                except (ValueError, KeyError):
                    pass
        for n in numbers:
            if want[n] is None:
                try:
                    head = self.storage.read(game_path(n), 0, _PIECE).split(b"\n")[0]
                    h = parse_line(head.decode("utf-8"))
                    want[n] = [h.get("game"), h.get("players"), None, None, None, None]
                except (OSError, ValueError):
                    pass
        return want

    def _index(self):
        """data/history.txt's complete lines (bytes, without their newline); none before the
        first game is filed."""
        if not self.storage.exists(paths.INDEX):
            return
        for line in self._pieces(paths.INDEX):
            if line[-1:] == b"\n":
                yield line[:-1]

    def _note(self, n, s):
        """History game n's summary line; a failure is logged (its row shows the header)."""
        from rules_core.record import dumps
        try:
            self.storage.append_line(paths.INDEX, "%d %s" % (n, dumps({"s": s})))
        except (OSError, ValueError) as e:
            self.log("history.txt: %s" % (e,))

    def _drop_notes(self, gone):
        """data/history.txt without the lines of the numbers `gone(n)` is true of, rewritten
        a piece at a time."""
        def kept():
            for line in self._index():
                i = line.find(b" ")
                if i > 0 and line[:i].isdigit() and not gone(int(line[:i])):
                    yield line + b"\n"
        try:
            if self.storage.exists(paths.INDEX):
                self.storage.write_atomic(paths.INDEX, kept())
        except OSError as e:
            self.log("history.txt: %s" % (e,))

    def open(self, n):
        """The Session of history game n; ValueError saying why it cannot be shown. A game
        without a summary line gets one."""
        from rules_core.session import replay
        try:
            s = replay(self.lines(game_path(n)))[0]
        except OSError as e:
            raise ValueError("#%d: %s" % (n, why(e)))
        except ValueError as e:
            raise ValueError("#%d %s" % (n, e))
        if self.summaries([n])[n] is None or self.summaries([n])[n][2] is None:
            self._note(n, summary(s))
        return s

    def take(self, n):
        """History game n back in play (the game in play was put aside first): renamed to
        data/current.jsonl and resumed as at power-on: resume()'s pair. OSError: it stays."""
        self.file()
        self.storage.rename(game_path(n), paths.CURRENT)
        self.listed = False
        self._drop_notes(lambda k: k == n)
        return self.resume()

    def delete(self, n):
        """Remove history game n. OSError: it stays."""
        self.storage.remove(game_path(n))
        self.listed = False
        self._drop_notes(lambda k: k == n)

    def trim(self, keep):
        """Remove the oldest history games beyond `keep` (at least 1: the newest stays), from
        listings of the folder that each pick up to _TRIM_PASS of them. Returns how many."""
        keep = max(1, keep)
        self.list_history()
        removed = 0
        top = 0
        while self.count > keep:
            extra = min(self.count - keep, _TRIM_PASS)
            pick = []  # type: list  # the `extra` oldest games, oldest first, and the one after them
            for name, is_dir in self.storage.entries(paths.HISTORY_DIR):
                n = game_number(name)
                if n is None or is_dir:
                    continue
                if len(pick) <= extra or n < pick[-1]:
                    i = len(pick)
                    while i and pick[i - 1] > n:
                        i -= 1
                    pick.insert(i, n)
                    if len(pick) > extra + 1:
                        pick.pop()
            for n in pick[:extra]:
                self.storage.remove(game_path(n))
                removed += 1
                self.count -= 1
                top = n
            self.oldest = pick[extra] if len(pick) > extra else 0
            if len(pick) <= extra:  # (fewer games than counted: listed again)
                self.listed = False
                self.list_history()
        if removed:
            self._drop_notes(lambda k: k <= top)
        return removed

    # ---- settings, the log, the web page ----
    def read_settings(self):
        """(the settings file's object or None, what was wrong with it or None). Bounded
        before it is read or parsed; never raises."""
        st = self.storage
        try:
            st.settle(paths.SETTINGS)
            if not st.exists(paths.SETTINGS):
                return None, None
            size = st.size(paths.SETTINGS)
            if size > _SETTINGS_MAX:
                return None, "%d bytes" % size
            from rules_core.session import parse_line
            return parse_line(st.read(paths.SETTINGS).decode("utf-8").strip()), None
        except Exception as e:  # a ValueError, OSError, MemoryError or RuntimeError (recursion)
            return None, "%s: %s" % (type(e).__name__, e)

    def save_settings(self, text):
        """The settings file replaced by `text`. OSError: the old one stays."""
        self.storage.write_atomic(paths.SETTINGS, text)

    def log(self, text):
        """One line in data/errors.log (the screen says what the user must know)."""
        try:
            self.storage.append_line(paths.ERRORS, text.replace("\n", " "))
        except OSError:
            pass

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

    def open_record(self, name, data, session=None):
        """A record file (from another device or the desktop tools) as the game in play, the
        game in play (`session`) put aside first: (True, "" or its replay's warning) when it
        was opened, else (False, one line saying what is wrong and where), nothing changed.
        Checked, then written beside the game in play (so that a full storage refuses it
        before that game moves), then renamed."""
        from rules_core.session import replay
        parts = data.split(b"\n")
        lines = [p + b"\n" for p in parts[:-1]]
        try:
            warnings = replay(lines + ([parts[-1]] if parts[-1] else []))[1]
        except ValueError as e:
            return False, "%s: %s" % (name, e)
        st = self.storage
        try:
            st.write_atomic(paths.OPENED, lines)  # complete lines only: a torn last one is left out
            self.put_aside(session)
        except OSError as e:
            try:
                if st.exists(paths.OPENED):
                    st.remove(paths.OPENED)
            except OSError:
                pass
            return False, tr("%s not opened: %s") % (name, why(e))
        try:
            st.rename(paths.OPENED, paths.CURRENT)
        except OSError as e:  # (the game in play went into the history: the device boots without it)
            return True, tr("%s not opened: %s") % (name, why(e))
        return True, "%s: %s" % (name, warnings[0]) if warnings else ""

    def backup(self):
        """The paths of every game kept (the game in play, one put aside, the history), as
        `pull` copies them off a board."""
        self.file()
        found = [p for p in (paths.CURRENT, paths.FILED) if self.storage.exists(p)]
        for name, is_dir in self.storage.entries(paths.HISTORY_DIR):
            if not is_dir and game_number(name) is not None:
                found.append(paths.HISTORY_DIR + "/" + name)
        return found
