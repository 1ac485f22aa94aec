"""The game in play on the device: a Session that checks an entry ahead (trial, preview),
answers the scoreboard's round questions, undoes from a kept round-end state and reads its
older lines back from the record on flash (app.records). A host replay loads none of it.

Undo stays linear in the record's length: the session keeps the state just before its
newest round end, so an undo refolds from there (the events of a round or two), not from
the first event; undoing a round end itself only takes its state back. The undo after that
one refolds the game once, which keeps its newest round end's state again. One state, not
more: a second one holds 1.3 to 2.9 KB more of a 64 KB heap in every replayed 4-player game.

Given `reread` (a function returning the record's lines as they are on flash), the session
keeps only the lines from just before its kept state on: a long game holds a round's lines,
not every round's. An undo that reaches past the kept state resumes the game from the
record instead of refolding it.
"""
import json

from rules_core import RecordError
from rules_core.session import Session, event_name, replay


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
    state): here, not in rules_core.base, since only the device copies one (a replay loads
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
        self._mark = None  # (n, state): the state after _done[:n], where _done[n] is a round end

    def _apply(self, ev, n, after=None):
        if ev["e"] != "end_round":
            return Session._apply(self, ev, n, after)
        if after is None:
            after = clone(self.rules)
            after.apply(ev)
        self._mark = (n, self.rules)  # the state before: no longer the game's
        if self.reread is not None:  # the record holds the lines before the kept state's last
            self._done.forget(n - 1)
        self.rules = after

    def undo(self, start=None):
        """Session.undo, from the kept state unless given a `start`. An undo that needs lines
        this session let go resumes the game from its record (where the device has already
        written this undo), the lines it still holds checked against it; until it is taken
        whole, this session is left as it was."""
        done = self._done
        n = len(done)
        at = self._mark[0] if self._mark else 0  # the refold starts there
        if done.lo <= max(0, min(at, n - 2)):  # it holds lines at - 1 and n - 2
            # the kept state is taken back (with nothing to undo, none is kept); refolding
            # its round end keeps a copy again
            mark, self._mark = start or self._mark, None
            return Session.undo(self, mark)
        s = replay(self.reread(), ReadBack)[0]  # every line kept: its undo refolds, its lines compare
        have = len(s._done)
        if have == n:  # the record does not hold this undo yet
            s.undo()
        if len(s._done) != n - 1 or not s._undone or s._undone[-1] != done[n - 1]:
            raise RecordError("record: %d events, game %d" % (have, n))  # two rows of a toast
        for i in range(done.lo, n - 1):
            if s._done[i] != done[i]:
                raise RecordError("record: event %d differs" % (i + 1))
        self.rules, self._mark, self._done, self._undone = s.rules, s._mark, s._done, s._undone
        if self._mark:
            self._done.forget(self._mark[0] - 1)
        return json.loads(done[n - 1])

    def undone(self):
        """The state an undo takes back without refolding the game: the kept one, when the
        newest event is the round end it was kept before (a finished game's last); else None."""
        m = self._mark
        return m[1] if m is not None and m[0] == len(self._done) - 1 else None

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
