"""The game in play on the device: a Session that checks an entry ahead (trial, preview),
answers the scoreboard's round questions, undoes from kept round-end states and reads its
older lines back from the record on flash (app.keeper). A host replay loads none of it.

Undo stays linear in the record's length: the session keeps the state just before its
newest round end (the mark) and before the round end before it (the older one), so an undo
refolds from the mark (the events of a round), and undoing a round end only takes its
state back, the older state becoming the mark. Both are the device's alone: a host replay
(rules_core.session) keeps none, which keeps the core's replay within its heap budget.

Given `reread` (a function returning the record's lines as they are on flash), the session
keeps only the lines from just before its older state on: a long game holds two rounds'
lines, not every round's. Idle frames do the undos' work ahead (ahead(), a few events a
frame, bounded in time): while undoing, the state the next undo takes, folded from the
mark; once an undo took the older state as the mark, the next older one folded again from
the record, read a piece at a time. An undo press then only takes a state; one that comes
before that work is done does what is left of it itself (the record it reads is checked
against the lines held: a record changed behind the session is refused as at a resume).
"""
import json
import time

from hal.compat import const
from rules_core import RecordError
from rules_core.session import LINES_PER_BUFFER, Lines, Session, event_name, lines_of, replay

_DONE = ()  # ahead()'s work once it is done (the work is None until planned)


_BUDGET_US = const(2500)  # an idle frame's pieces: a press that comes waits for them
_PIECES = const(3)  # pieces a frame where time has no microseconds (CPython: the tests)
_US = getattr(time, "ticks_us", None)  # None where time has no microseconds: pieces counted


def _step(work):
    """One piece of a fold (a generator: a line sorted or an event folded); False once it
    is done, or given up: a record changed behind the session or unreadable, or no room for
    the fold (the undo does the work then). Any other error is a bug and is raised."""
    try:
        next(work)
        return True
    except (StopIteration, ValueError, OSError, MemoryError):  # (RecordError is a ValueError)
        return False


def _frame(work):
    """Pieces of work for an idle frame (_BUDGET_US of the board's time); False once done."""
    t0 = _US() if _US else 0
    n = 0
    while _step(work):
        n += 1
        if time.ticks_diff(_US(), t0) >= _BUDGET_US if _US else n >= _PIECES:
            return True
    return False


def copy_data(v):
    """Deep copy of plain data (lists, dicts, bytearrays; ints, strs and tuples are shared)."""
    t = type(v)
    if t is list:
        out = list(v)
        for i in range(len(out)):  # the type test inline: most items are ints, not copied
            t = type(out[i])
            if t is list or t is dict or t is bytearray:
                out[i] = copy_data(out[i])
        return out
    if t is dict:
        d = {}
        for k in v:
            d[k] = copy_data(v[k])
        return d
    if t is bytearray:
        return bytearray(v)
    return v


def clone(rules):
    """An independent copy of a rules state (an entry checked ahead, the kept round-end
    state): here, not in the rules base (rules_core.games), since only the device copies one (a replay loads
    none of it). Made without __init__ (MicroPython has no __dict__.update: attributes are
    set one by one); what Rules.NESTED names is copied all the way down."""
    new = object.__new__(type(rules))
    nested = rules.NESTED
    for k, v in rules.__dict__.items():
        t = type(v)
        if t is list:
            v = copy_data(v) if k in nested else list(v)
        elif t is dict:
            v = copy_data(v) if k in nested else dict(v)
        elif t is bytearray:
            v = bytearray(v)
        setattr(new, k, v)  # an int, str, None or tuple is shared
    return new


class ReadBack(Session):
    """replay(lines, ReadBack, reread) resumes one."""

    def __init__(self, header, reread=None):
        Session.__init__(self, header)
        self.reread = reread  # None, or a function returning the record's lines (see above)
        self._mark = None  # (n, state): the state after done[:n], where done[n] is a round end
        self._older = None  # the same for the round end before _mark's; None: none, or not folded yet
        self._next = None  # (n, state): the state after done[:n - 1], folded ahead (ahead())
        self._work = None  # ahead()'s fold of _next; None: not planned since the game changed
        self._fold = None  # ahead()'s fold of the older state from the record (kept over undos)
        self._gone = None  # the mark an undo took back while that fold was under way
        self._undoing = 0  # 1 while an undo whose line is on flash finishes that fold
        self._back = None  # ahead()'s read-back of the redo stack's lines let go (_read_back)

    def fold(self, ev, n, after=None):
        self._next = self._work = None
        if ev["e"] != "end_round":
            return Session.fold(self, ev, n, after)
        if after is None:
            after = clone(self.rules)
            after.apply(ev)
        m = self._mark
        if m is None or m[0] < n:  # a newer round end (a refold meets the mark's own again)
            self._older = m
        self._mark = (n, self.rules)  # the state before: no longer the game's
        self._forget()
        self.rules = after

    def _forget(self):
        """Let go of the lines before the older state's last (they stay on flash)."""
        if self.reread is not None and self._older is not None:
            self.done.forget(self._older[0] - 1)

    def redo(self):
        """Session.redo; once every undone line held is redone, the next ones let go are
        read back from the record first: ahead() reads them in idle frames once fewer than
        a join are held, a redo that comes before finishes that work or does it (two passes
        over the record)."""
        u = self.undone
        b = self._back
        self._back = None if b is _DONE else b  # (one under way goes on: a redo changes none of what it reads)
        if len(u) and len(u) == u.lo:
            self._back = None
            if b is not None and b is not _DONE:
                for _ in b:  # (what is left of it; the record holds this redo now, or not yet)
                    pass
            if len(u) == u.lo:  # (none under way, or it stopped: the stack changed since)
                for _ in self._read_back():
                    pass
        return Session.redo(self)

    def _read_back(self):
        """The join of undone lines just before those the redo stack holds, read back from
        the record a line a step (a generator) and put back in front of them. Redos and undos
        meanwhile change only lines after those (the record read to its end holds them);
        it stops, to be planned again, when the stack is let go or forgets more."""
        u = self.undone
        lo = u.lo
        nums = []  # type: list
        undone = []  # type: list
        for _ in self._effective(nums, undone):
            yield
            if self.undone is not u or u.lo != lo:
                self._back = None
                return
        n = len(u)
        if len(undone) == n - 1:  # the record holds the redo under way: it redoes its newest event
            undone.append(abs(nums[-1]))
        if len(undone) != n:
            raise RecordError("record: %d to redo, game %d" % (len(undone), n))
        back = Lines()  # (undone: line numbers, newest last, decreasing)
        back.lo = u.lo - LINES_PER_BUFFER
        want = undone[back.lo:u.lo]
        del nums, undone  # (their room for the second pass)
        texts = [None] * len(want)
        j = len(want) - 1
        for i, text, complete in lines_of(self.reread()):
            if i == abs(want[j]):
                texts[j] = text
                j -= 1
                if j < 0:
                    break
            yield
            if self.undone is not u or u.lo != lo:
                self._back = None
                return
        for text in texts:
            back.append(text)
        u.put_back(back)

    def undo(self, start=None):
        """Session.undo: the kept state taken back, or the one folded ahead (ahead(); the
        work under way finished here), else a refold from the mark. An undo that needs lines
        this session let go resumes the game from its record (where the device has already
        written this undo), the lines it still holds checked against it; until it is taken
        whole, this session is left as it was."""
        done = self.done
        n = len(done)
        m = self._mark
        w, self._work = self._work, None
        if m is not None and m[0] == n - 1:  # the round end itself: its state back
            f = self._fold
            if self._older is None and f is not None and f is not _DONE:
                self._gone = m  # the fold of its older state, under way, folds the new mark
            else:
                self._fold = None  # (ahead() folds the older one again)
            self._mark, self._older, self._next = self._older, None, None
            return Session.undo(self, m)
        if m is None and done.lo and self._fold is not _DONE:  # (_DONE: it gave up)
            f = self._fold
            if f is None:
                f = self._fold = self._fold_record()
            self._undoing = 1  # (the record holds this undo already)
            while _step(f):  # the mark folded from the record (what was left of it)
                pass
            self._undoing = 0
        if w is not None and w is not _DONE:
            while _step(w):  # the next undo's fold, under way: finished (a round at most)
                pass
        nxt, self._next = self._next, None
        m = self._mark  # (the work may have folded it)
        if nxt is not None and nxt[0] == n:
            return Session.undo(self, (n - 1, nxt[1]))
        at = m[0] if m else 0  # the refold starts there
        if done.lo <= max(0, min(at, n - 2)):  # it holds lines at - 1 and n - 2
            return Session.undo(self, start or m)  # (its round end keeps the mark again)
        s = replay(self.reread(), ReadBack)[0]  # every line kept: its undo refolds, its lines compare
        have = len(s.done)
        if have == n:  # the record does not hold this undo yet
            s.undo()
        if len(s.done) != n - 1 or not s.undone or s.undone[-1] != done[n - 1]:
            raise RecordError("record: %d events, game %d" % (have, n))  # two rows of a message
        for i in range(max(done.lo, s.done.lo), n - 1):  # the lines held, as read back
            if s.done[i] != done[i]:
                raise RecordError("record: event %d differs" % (i + 1))
        self.rules, self._mark, self._older, self.done, self.undone = s.rules, s._mark, s._older, s.done, s.undone
        self._fold = self._gone = None
        self._forget()
        return done[n - 1]

    def undo_state(self):
        """The state an undo takes back without refolding the game: the kept one, when the
        newest event is the round end it was kept before (a finished game's last); else None."""
        m = self._mark
        return m[1] if m is not None and m[0] == len(self.done) - 1 else None

    # --- the work of the next undos, done in idle frames ---
    def prepare(self):
        """One piece (a few events folded) of what the next undos would do in their press:
        while undoing (something to redo), the state the next undo takes, folded from the
        mark (_fold_next); then, once an undo took the older round-end state as
        the mark, the next older one folded again from the record (for the undo that takes
        the mark back). True while more is left. The game is not changed: it takes the
        states at its undos. First, the redo stack's older lines are let go, as the game's
        are: it holds its newest LINES_PER_BUFFER to twice that (a long undo chain held
        every line it undid); once redos leave fewer than a join held, the join before them is
        read back from the record (_read_back), which a redo would read in its press."""
        u = self.undone
        if self.reread is not None and u.joined() >= 2 * LINES_PER_BUFFER:
            u.forget(len(u) - LINES_PER_BUFFER)
        b = self._back
        if b is None and u.lo and len(u) - u.lo < LINES_PER_BUFFER:  # (redoing: fewer than a join held)
            b = self._back = self._read_back()
        if b is not None and b is not _DONE:
            if _frame(b):
                return True
            if self._back is b:
                self._back = _DONE
        w = self._work
        if w is None:
            w = self._work = self._fold_next()
        if w is not _DONE:
            if _frame(w):
                return True
            self._work = _DONE
        f = self._fold
        if f is None:
            if self.reread is None or self._older is not None or not (
                    self.done.lo or self._mark is not None and (self.undone or self.rules.finished)):
                return False  # (all lines held and not undoing: the undo refolds, if it comes)
            f = self._fold = self._fold_record()
        if f is not _DONE:
            if _frame(f):
                return True
            if self._fold is f:  # (None: the game changed under it, to be planned again)
                self._fold = _DONE
            return self._work is None  # (done: the next undo's fold planned again)
        return False

    def _fold_next(self):
        """The state the next undo takes, refolded from the mark (self._next), or in the first
        round from its first event; only while undoing. None where the next undo takes the
        mark back (a round end newest): the one after it is folded once it did, while BACK
        is held for that one (main.HELD_WORK_MS), not kept beside the mark (a state more
        at the final standings and every round's start while undoing)."""
        m = self._mark
        n = len(self.done)
        if m is None and not self.done.lo:  # the first round (every line held): from its first event
            m = (0, None)
        if not self.undone or m is None or m[0] >= n - 1 or self.done.lo > m[0]:
            return  # not undoing, or (m None: lines let go) the undo reads the record
        if self._next is not None and self._next[0] == n:
            return
        r = clone(m[1]) if m[1] is not None else self.fresh()
        for i in range(m[0], n - 1):
            ev = json.loads(self.done[i])
            if ev["e"] != "note":
                r.apply(ev)
            yield
        self._next = (n, r)

    def _fold_record(self):
        """The older state (or with no mark, the mark and the older one) folded from the
        record's effective events, a few lines a step, with the lines this session let go
        that its undos will refold: what a resume would keep, without holding every line.
        The first pass finds the effective events and their round ends, so the second folds
        one rules state only up to the round end wanted and holds only the lines to put
        back: no second session with its own states and lines beside this one (its heap
        was the undos' peak). Undos, redos and entries after the mark change none of it;
        a new mark drops it."""
        m = self._mark
        done = self.done
        n = len(done)
        k = m[0] if m else n  # the events folded: those before the mark
        nums = []  # type: list  # the record's line numbers of the effective events, a round end's negative
        for _ in self._effective(nums, []):
            yield
            if self._moved(m, n):
                return
        if len(nums) != len(done) - self._undoing:  # (undos after the mark were read too)
            raise RecordError("record: %d events, game %d" % (len(nums), len(done)))
        k = min(k, len(nums))  # (an undo under way has undone the mark's round's last)
        ends = [j for j in range(k) if nums[j] < 0]  # the round ends folded past
        b = ends.pop() if ends and m is None else None  # with no mark: the mark's round end
        a = ends.pop() if ends else None  # the older state's round end
        stop = (-1 if a is None else a) if b is None else b  # the events folded: those before it
        r = self.fresh()
        older = None
        lo = done.lo
        back = Lines()  # the lines let go from just before the older state on (whole joins)
        back.lo = 0 if a is None else max(0, a - 1) // LINES_PER_BUFFER * LINES_PER_BUFFER
        j = 0
        for i, text, complete in lines_of(self.reread()):
            if j == k:
                break
            if i == abs(nums[j]):
                if j < stop:
                    if j == a:  # (with no mark) the older state, then on to the mark's
                        older = (a, clone(r))
                    ev = json.loads(text)
                    if ev["e"] != "note":
                        r.apply(ev)
                if j < lo:
                    if j >= back.lo:
                        back.append(text)
                elif j < len(done) and text != done[j]:
                    raise RecordError("record: event %d differs" % (j + 1))
                j += 1
                yield
                if self._moved(m, n):
                    return
        got = None if stop < 0 else (stop, r)
        self._gone = None
        if m is None:
            self._mark, self._older = got, older
        elif self._mark is m:
            self._older = got
        else:  # m was taken back meanwhile, with no older state: this one is the mark now
            self._mark = got
            self._fold = None  # (and its older state to be folded)
        if back.joined() and done.lo == lo:
            done.put_back(back)
        self._forget()
        self._work = None  # the next undo's fold planned again, from these states

    def _effective(self, nums, undone):
        """The record read a line a step (a generator) into the line numbers of its effective
        events (nums, a round end's negative) and of its redo stack (undone), resolving its
        undo and redo lines as replay() does."""
        for i, text, complete in lines_of(self.reread()):
            if i > 1 and complete:
                e = None
                if "undo" in text or "redo" in text or "end_round" in text:  # (a note's text may say so)
                    e = event_name(json.loads(text))
                if e == "undo":
                    undone.append(nums.pop())
                elif e == "redo":
                    nums.append(undone.pop())
                else:
                    nums.append(-i if e == "end_round" else i)
                    del undone[:]
            yield

    def _moved(self, m, n):
        """True (and the record's fold to be planned again) when the game changed what a
        fold begun at mark m with n events was for (m taken back with no older state
        changes nothing: what it folds is the mark then)."""
        if self._mark is m and (m is not None or len(self.done) == n):
            return False
        if self._mark is None and m is not None and self._gone is m:
            return False
        self._fold = self._gone = None
        return True

    # --- what the entry screens and the scoreboard ask ---
    def trial(self, ev):
        """The rules' state after `ev`, without entering it (add(ev, after=...) can take it)."""
        event_name(ev)
        r = clone(self.rules)
        r.apply(ev)
        return r

    def preview(self, ev):
        """Score change per player that `ev` would cause, without entering it."""
        return self.deltas(self.trial(ev))

    def deltas(self, after):
        """Score change per player from the current state to `after` (a trial())."""
        now = self.rules.scores
        return [after.scores[p] - now[p] for p in range(len(now))]

    def last_round(self):
        """True when the current round is known to be the game's last."""
        return not self.rules.finished and self.rules.last_round()

    def bonus_colour(self):
        """The colour this round rewards (Sintra), else None."""
        return None if self.rules.finished else self.rules.bonus_colour()
