"""The game-agnostic session the device and the host tools talk to, replay(), and the
record's reader (docs/RECORD_FORMAT.md: the header's check, a line's bounds and parse).

A Session is a header plus the list of effective events, folded into the game's rules
object. Every event is validated by the rules before it is kept, so whatever the device
appends to its record will replay. Effective events are kept as their JSON text, joined
LINES_PER_BUFFER lines at a time (Lines): a line's text costs a fifth of the dict of lists
it parses to, which is what lets a whole 4-player game fit a 64 KB MicroPython heap.

replay() resolves undo/redo on the lines' text first, then applies each effective event
once (a cancelled event is never applied, nor checked against the rules), so resuming is
linear in the record's length. An undo here refolds the game from its first event: the
host tools undo rarely. The device's session (app.current) adds what the screens ask (an
entry checked ahead, the round's questions), keeps a round-end state to undo from and reads
its older lines back from the record; a host replay loads none of it. Nor does it load the
record's writer (rules_core.record): the lines it keeps are the record's own text.
"""
import json

from rules_core import RecordError, RuleError, const
from rules_core.games import game

FORMAT = "azul-companion-record"
VERSION = 1


def new_header(game, variant, players, options=None):
    """The header of a new game, validated."""
    return parse_header({"format": FORMAT, "v": VERSION, "game": game, "variant": variant,
                         "players": list(players), "options": options or {}})


def parse_header(h):
    """Validate a header object; return it with defaults filled in (variant, options)."""
    if type(h) is not dict or h.get("format") != FORMAT:
        raise RecordError("not an azul-companion record (header needs \"format\": \"%s\")" % FORMAT)
    if h.get("v") != VERSION:
        raise RecordError("record version %r is not supported (this reader knows v%d)" % (h.get("v"), VERSION))
    g = game(h.get("game"))
    players = h.get("players")
    if type(players) is not list:
        raise RecordError("%s needs a list of %d to %d players" % (g.key, g.players[0], g.players[1]))
    variant = g.check(h.get("variant"), len(players))
    for name in players:
        if type(name) is not str or not name:
            raise RecordError("player names must be non-empty strings, got %r" % (name,))
    options = h.get("options", {})
    if type(options) is not dict:
        raise RecordError("options must be an object")
    out = dict(h)
    out["variant"] = variant
    out["options"] = options
    return out


# Bounds on one line, checked before it is parsed: a record line is ~100 bytes and nests 4
# deep; without them `/dev/zero` or a 1 GB line would fill the memory, and deep nesting
# would exhaust the parser's recursion (CPython's json recurses on nesting).
MAX_LINE = 65536  # bytes, not counting the newline
MAX_DEPTH = 32  # arrays/objects inside one another


def parse_line(text):
    """One record line to an object; RecordError if it is not a JSON object."""
    if text.count("[") + text.count("{") > MAX_DEPTH:  # rare: only then measure the depth
        depth = 0
        quoted = escaped = False
        for ch in text:
            if quoted:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    quoted = False
            elif ch == '"':
                quoted = True
            elif ch == "[" or ch == "{":
                depth += 1
                if depth > MAX_DEPTH:
                    raise RecordError("arrays/objects nested deeper than %d" % MAX_DEPTH)
            elif ch == "]" or ch == "}":
                depth -= 1
    try:
        obj = json.loads(text)
    except ValueError:
        raise RecordError("not valid JSON")
    if type(obj) is not dict:
        raise RecordError("expected a JSON object")
    return obj


def lines_of(source):
    """Yield (lineno, text, complete) from a str, an iterable of lines, or an open file.

    A file is read with readline in pieces of at most 256 bytes (MicroPython reserves the
    whole size it is given), so memory stays bounded whatever it holds: a line longer than
    MAX_LINE raises RecordError once MAX_LINE bytes of it have been read.
    """
    if type(source) is str:
        lines = source.split("\n")
        last = lines.pop()  # "" when the text ends with a newline
        for i in range(len(lines)):
            lines[i] += "\n"
        if last:
            lines.append(last)
        source = lines
    read = getattr(source, "readline", None)
    if read is None:
        source = iter(source)
    n = 0
    while True:
        if read is None:
            try:  # (CircuitPython has no two-argument next())
                line = next(source)
            except StopIteration:
                return
        else:
            line = read(256)
        if not line:
            return
        raw = type(line) is bytes
        nl = b"\n" if raw else "\n"
        if read is not None and len(line) == 256 and not line.endswith(nl):  # a longer line
            parts = [line]
            size = 256
            while size <= MAX_LINE:
                part = read(256)
                parts.append(part)
                size += len(part)
                if len(part) < 256 or part.endswith(nl):
                    break
            line = line[:0].join(parts)
            parts = None  # the generator's frame would keep the pieces alive as well
        n += 1
        complete = line.endswith(nl)
        if len(line) - complete > MAX_LINE:
            raise RecordError("line %d: longer than %d bytes" % (n, MAX_LINE))
        if raw:
            try:
                line = line.decode("utf-8")
            except UnicodeError:
                raise RecordError("line %d: not UTF-8 text" % n)
        yield n, line.rstrip("\r\n") if complete else line, complete


LINES_PER_BUFFER = const(16)


def event_name(ev):
    """The "e" of a record event object; RecordError when it has none."""
    if type(ev) is not dict or type(ev.get("e")) is not str:
        raise RecordError('an event is an object with a string "e"')
    return ev["e"]


def rules_class(entry):
    """The rules class of a registry entry (rules_core.games), its module imported on first
    use."""
    return getattr(__import__(entry.module, None, None, [entry.class_name]), entry.class_name)


class Lines:
    """A list of record lines (str) that keeps its older lines joined LINES_PER_BUFFER at a
    time: len(), lines[i], append(text), pop().

    A str per line costs a MicroPython heap an object and a rounded-up block besides the
    text (about 30 bytes a line on a Pico), and a long game keeps every effective line for
    undo. Joined lines are never grown in place: a heap fragmented by hours of play needs
    no free block bigger than one join (about 1 KB).
    """

    def __init__(self):
        self.lo = 0  # lines before this one were forgotten (a multiple of LINES_PER_BUFFER)
        self._joined = []  # str of LINES_PER_BUFFER lines each, oldest first
        self._ends = []    # where each joined line ends in its str
        self._tail = []    # the newest lines (fewer than LINES_PER_BUFFER), one str each

    def __len__(self):
        return self.lo + len(self._ends) + len(self._tail)

    def __getitem__(self, i):
        n = len(self._ends)
        i = (i + len(self) if i < 0 else i) - self.lo
        if i >= n:
            return self._tail[i - n]
        if i < 0:
            raise IndexError("line forgotten")
        start = self._ends[i - 1] if i % LINES_PER_BUFFER else 0
        return self._joined[i // LINES_PER_BUFFER][start:self._ends[i]]

    def joined(self):
        """How many lines are held joined (the older ones: forget() lets them go)."""
        return len(self._ends)

    def forget(self, i):
        """Drop the joined lines that all come before line i (len() and indices stay)."""
        while len(self._ends) >= LINES_PER_BUFFER and self.lo + LINES_PER_BUFFER <= i:
            self._joined.pop(0)
            del self._ends[:LINES_PER_BUFFER]
            self.lo += LINES_PER_BUFFER

    def put_back(self, older):
        """Put lines let go (forget()) back in front: `older` holds them read again, whole
        joins from older.lo up to this one's lo."""
        joined, ends = older._joined + self._joined, older._ends + self._ends  # (both made before either is set)
        self._joined, self._ends, self.lo = joined, ends, older.lo

    def append(self, text):
        tail = self._tail
        tail.append(text)
        ends = self._ends
        kept = len(ends) % LINES_PER_BUFFER  # lines left in a newest join that pop() cut short
        if kept + len(tail) == LINES_PER_BUFFER:  # a join's lines complete: joined again
            end = cut = ends[-1] if kept else 0
            for t in tail:
                end += len(t)
                ends.append(end)
            if kept:
                tail.insert(0, self._joined.pop()[:cut])
            self._joined.append("".join(tail))
            self._tail = []

    def pop(self):
        """The newest line. One taken from a join is cut out of it alone (splitting the join
        into a str a line, as before, cost an undo sixteen allocations every sixteenth
        line); the join itself is cut to the lines it has left when 8, 4, 2 or 1 are, so it
        holds no more popped text than kept."""
        ends = self._ends
        if self._tail or not ends:
            return self._tail.pop()
        end = ends.pop()
        k = len(ends) % LINES_PER_BUFFER  # lines of that join left
        joined = self._joined
        if not k:
            return joined.pop()[:end]
        start = ends[-1]
        line = joined[-1][start:end]
        if not k & (k - 1):
            joined[-1] = joined[-1][:start]
        return line


class Session:
    def __init__(self, header):
        self.header = parse_header(header)
        self.game = self.header["game"]
        self.variant = self.header["variant"]
        self.players = self.header["players"]
        self.info = game(self.game)  # its registry entry (names, variants, modules)
        self._cls = rules_class(self.info)
        self.rules = self.fresh()
        self.done = Lines()  # effective events as JSON text, oldest first (notes included: undo can cancel them)
        self.undone = Lines()  # redo stack (JSON text, joined as done is); any new event clears it

    def fresh(self):
        """A rules state at the game's start (options.start, round 1's start player, is
        common to every game: set here, once)."""
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
    def add(self, ev, text=None, after=None):
        """Validate and apply one record event (undo/redo/note included); return it.

        `text` is the event's record line when there is one (saves serialising it again);
        `after` the state trial(ev) returned, taken as it is instead of applying ev again.
        """
        e = event_name(ev)
        if e == "undo":
            self.undo()
        elif e == "redo":
            self.redo()
        else:
            self.fold(ev, len(self.done), after)
            if not text:  # the device gives the line it wrote (a replay never writes)
                from rules_core.record import dumps
                text = dumps(ev)
            self.done.append(text)
            if len(self.undone):
                self.undone = Lines()
        return ev

    def fold(self, ev, n, after=None):
        """Fold ev into the state as the effective event done[n] (after: its state, from
        trial()). The one door every event goes through (add, undo's refold, redo, a
        replay's load): a subclass that keeps more state overrides it and calls it."""
        if ev["e"] == "note":
            if type(ev.get("text")) is not str:
                raise RecordError("a note needs a text string")
        elif after is None:
            self.rules.apply(ev)
        else:
            self.rules = after

    def undo(self, start=None):
        """Cancel the newest effective event (across closed rounds too); return its line (the
        event is last_event() before it: add() parses none). The game is refolded from
        `start`, (n, the state after done[:n]) when one was kept, else from its first event."""
        if not len(self.done):
            raise RuleError("nothing to undo")
        text = self.done.pop()
        self.undone.append(text)
        at, self.rules = start or (0, self.fresh())
        for i in range(at, len(self.done)):
            self.fold(json.loads(self.done[i]), i)
        return text

    def redo(self):
        """Re-apply the event undone last, if nothing else was entered since; return it."""
        if not self.undone:
            raise RuleError("nothing to redo")
        ev = json.loads(self.undone[-1])
        self.fold(ev, len(self.done))
        self.done.append(self.undone.pop())
        return ev

    def can_undo(self):
        return len(self.done) > 0

    def can_redo(self):
        return bool(self.undone)

    def last_event(self):
        return json.loads(self.done[-1]) if len(self.done) else None

    # --- reading the state ---
    def __getattr__(self, name):
        """round, rounds_total, scores, start_player, finished and pending() (entries the
        current round still needs before end_round: [(event, player), ...]) are the rules'
        (one method here instead of a property each: each costs a board's heap). result()
        and status(), which only host tools ask, are a rules_core.outcome.Report's, imported
        then: a board never loads them."""
        if name == "rules":  # not made yet (in __init__): no lookup of itself forever
            raise AttributeError(name)
        if name == "result" or name == "status":
            from rules_core.outcome import Report
            return getattr(Report(self), name)
        return getattr(self.rules, name)

    def standings(self):
        """[(rank, player)] best first; equal rank keys share a rank (1, 1, 3)."""
        keys = []
        for p in range(len(self.players)):
            keys.append(self.rules.rank_key(p) + (-p,))
        # bigger keys first, then the lower seat: no two are equal, so MicroPython's sort,
        # which is not stable, gives the same order
        keys.sort(reverse=True)
        out = []
        for i in range(len(keys)):
            k = keys[i]
            out.append((out[-1][0] if i and keys[i - 1][:-1] == k[:-1] else i + 1, -k[-1]))
        return out

    def winners(self):
        """Players ranked first (several on a shared victory); [] until the game is finished."""
        if not self.finished:
            return []
        won = []
        for rank, p in self.standings():
            if rank == 1:
                won.append(p)
        return won

    def tiebreak(self, won=None):
        """What decided the winner: None (clear win), the game's tie-break rule, or "shared".
        won: winners() when the caller has it (the standings cost a Pico 1-1.5 ms)."""
        if won is None:
            won = self.winners()
        if not won or self.scores.count(self.scores[won[0]]) == 1:
            return None
        return "shared" if len(won) > 1 else self._cls.TIEBREAK


# what a bug in a rules class raises on a malformed field that its checks missed
_MALFORMED = (TypeError, KeyError, IndexError, AttributeError)


def replay(source, make=Session, *args):
    """Fold a record (a str, or an iterable of lines such as an open file) into a Session
    (make(header, *args): the device's is app.current's). Returns (session, warnings).

    A last line without its newline is a write cut by power loss: it is ignored with a
    warning; board values the header does not give (Sintra) are named in a warning too. Any
    other bad line raises a ValueError subclass whose message starts "line N: " (the first
    bad line of the record). A record is untrusted input: a field that a rules
    class fails to check is reported as a malformed line here, never as a crash.
    """
    session = None
    warnings = []
    texts = Lines()  # effective events' text, oldest first ...
    numbers = None  # ... and their line numbers, once an undo or redo made them other than 2, 3, ...
    undone = []     # (text, line number) of cancelled events, newest last: the redo stack
    error = None
    for n, text, complete in lines_of(source):
        if not complete:  # only the last line can lack its newline
            warnings.append("line %d: incomplete last line ignored (a write cut by power loss)" % n)
            break
        try:
            if not text.strip():
                raise RecordError("empty line")
            obj = parse_line(text)
            if session is None:
                session = make(obj, *args)
                continue
            e = event_name(obj)
            if numbers is None and (e == "undo" or e == "redo"):
                numbers = list(range(2, len(texts) + 2))
            if e == "undo":
                if not len(texts):
                    raise RuleError("nothing to undo")
                undone.append((texts.pop(), numbers.pop()))
            elif e == "redo":
                if not undone:
                    raise RuleError("nothing to redo")
                t, k = undone.pop()
                texts.append(t)
                numbers.append(k)
            else:
                texts.append(text)
                if numbers is not None:
                    numbers.append(n)
                undone = []
        except ValueError as e:
            error = type(e)("line %d: %s" % (n, e))
            break
        except _MALFORMED as e:
            error = RecordError("line %d: malformed record line (%s: %s)" % (n, type(e).__name__, e))
            break
    if session is None:
        raise error or RecordError("line 1: the record has no header")
    # the effective events, each applied once; an earlier bad event is the first bad line
    # (through fold(), the door a device's session extends)
    session.done = texts
    for i in range(len(texts)):
        try:
            session.fold(json.loads(texts[i]), i)
        except ValueError as e:
            raise type(e)("line %d: %s" % (numbers[i] if numbers else i + 2, e))
        except _MALFORMED as e:
            raise RecordError("line %d: malformed event (%s: %s)" % (numbers[i] if numbers else i + 2, type(e).__name__, e))
    if error is not None:
        raise error
    for text, _ in undone:
        session.undone.append(text)
    assumed = session.rules.assumed()
    if assumed:
        warnings.append("line 1: options.board gives no %s: the project's unverified values are used"
                        % ", ".join(assumed))
    return session, warnings
