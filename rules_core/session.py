"""The game-agnostic session the device and the host tools talk to.

A Session is a header plus the list of effective events, folded into the game's rules
object. Every event is validated by the rules before it is kept, so whatever the device
appends to its record will replay. Undo moves the newest effective event to a redo stack
and refolds from a fresh rules object (a game is at most a few hundred events).
Effective events are kept as their JSON text: a string costs a fifth of the dict of lists
it parses to, which is what lets a whole 4-player game fit a 64 KB MicroPython heap.
"""
import json

from rules_core.errors import RuleError, RecordError
from rules_core.record import dumps, parse_header, rules_class


class Session:
    def __init__(self, header):
        self.header = parse_header(header)
        self.game = self.header["game"]
        self.players = self.header["players"]
        self._cls = rules_class(self.game)
        self.rules = self._fresh()
        self._done = []  # effective events as JSON text, oldest first (notes included: undo can cancel them)
        self._undone = []  # redo stack (JSON text); any new event clears it

    def _fresh(self):
        # options.start (round 1's start player) is common to every game: set here, once
        h = self.header
        n = len(h["players"])
        options = dict(h["options"])
        start = options.pop("start", 0)
        if type(start) is not int or not 0 <= start < n:
            raise RecordError("options.start must be a player index 0..%d" % (n - 1))
        rules = self._cls(h["variant"], n, options)
        rules.start_player = start
        return rules

    # --- entering events ---
    def add(self, ev, text=None):
        """Validate and apply one record event (undo/redo/note included); return it.

        `text` is the event's record line when there is one (saves serialising it again).
        """
        if type(ev) is not dict or type(ev.get("e")) is not str:
            raise RecordError('an event is an object with a string "e"')
        e = ev["e"]
        if e == "undo":
            self.undo()
        elif e == "redo":
            self.redo()
        elif e == "note":
            if type(ev.get("text")) is not str:
                raise RecordError("a note needs a text string")
            self._keep(ev, text)
        else:
            _apply(self.rules, ev)
            self._keep(ev, text)
        return ev

    def _keep(self, ev, text):
        self._done.append(text or dumps(ev))
        self._undone = []

    def undo(self):
        """Cancel the newest effective event (across closed rounds too); return it."""
        if not self._done:
            raise RuleError("nothing to undo")
        self._undone.append(self._done.pop())
        self.rules = self._fresh()
        for ev in self.events():
            if ev["e"] != "note":
                self.rules.apply(ev)
        return json.loads(self._undone[-1])

    def redo(self):
        """Re-apply the event undone last, if nothing else was entered since; return it."""
        if not self._undone:
            raise RuleError("nothing to redo")
        ev = json.loads(self._undone[-1])
        if ev["e"] != "note":
            self.rules.apply(ev)
        self._done.append(self._undone.pop())
        return ev

    def can_undo(self):
        return bool(self._done)

    def can_redo(self):
        return bool(self._undone)

    def last_event(self):
        return json.loads(self._done[-1]) if self._done else None

    def events(self):
        """The effective events, oldest first (undone ones left out), as dicts."""
        for text in self._done:
            yield json.loads(text)

    def preview(self, ev):
        """Score change per player that `ev` would cause, without entering it."""
        r = self.rules.clone()
        _apply(r, ev)
        return [a - b for a, b in zip(r.scores, self.rules.scores)]

    # --- reading the state ---
    @property
    def round(self):
        return self.rules.round

    @property
    def rounds_total(self):
        return self.rules.rounds_total

    @property
    def scores(self):
        return self.rules.scores

    @property
    def start_player(self):
        return self.rules.start_player

    @property
    def finished(self):
        return self.rules.finished

    def pending(self):
        """Entries the current round still needs before end_round: [(event, player), ...]."""
        return self.rules.pending()

    def last_round(self):
        """True when the current round is known to be the game's last."""
        r = self.rules
        if r.finished:
            return False
        if hasattr(r, "last_round"):
            return r.last_round()
        return r.rounds_total is not None and r.round >= r.rounds_total

    def standings(self):
        """[(rank, player)] best first; equal rank keys share a rank (1, 1, 3)."""
        keys = [self.rules.rank_key(p) for p in range(len(self.players))]
        order = sorted(range(len(keys)), key=lambda p: (tuple(-k for k in keys[p]), p))
        out = []
        for i in range(len(order)):
            p = order[i]
            rank = out[-1][0] if i and keys[order[i - 1]] == keys[p] else i + 1
            out.append((rank, p))
        return out

    def winners(self):
        """Players ranked first (several on a shared victory); [] until the game is finished."""
        if not self.finished:
            return []
        return [p for rank, p in self.standings() if rank == 1]

    def tiebreak(self):
        """What decided the winner: None (clear win), the game's tie-break rule, or "shared"."""
        won = self.winners()
        if not won:
            return None
        top = self.scores[won[0]]
        level = [p for p in range(len(self.players)) if self.scores[p] == top]
        if len(level) == 1:
            return None
        return "shared" if len(won) > 1 else self._cls.TIEBREAK

    def result(self):
        """The replay result (RECORD_FORMAT.md): scores and winners are the contract."""
        r = self.rules
        return {"game": self.game, "variant": self.header["variant"], "finished": r.finished,
                "round": r.round, "scores": list(r.scores), "winners": self.winners(),
                "tiebreak": self.tiebreak(),
                "breakdown": [r.breakdown(p) for p in range(len(self.players))],
                "round_scores": [list(s) for s in r.round_scores]}


def _apply(rules, ev):
    """Apply through the rules; malformed fields surface as RecordError, never a crash."""
    try:
        rules.apply(ev)
    except (TypeError, KeyError, IndexError, AttributeError) as e:
        raise RecordError("malformed %r event (%s)" % (ev.get("e"), e))
