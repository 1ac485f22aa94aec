"""The v1 record (shared/design/RECORD_FORMAT.md) and the session: parse, fold, undo/redo, torn lines."""
import json

from checks import raises, events
from rules_core.azul import AzulRules
from rules_core import RuleError, RecordError
from rules_core.record import dumps
from rules_core.session import new_header, parse_header, replay
from app.current import ReadBack
from rules_core.session import LINES_PER_BUFFER, Lines, Session

ORACLES = "tests/oracles/azul-random-games/"


def header(**kw):
    h = {"format": "azul-companion-record", "v": 1, "game": "azul", "players": ["Ann", "Ben"]}
    h.update(kw)
    return h


def text(*objs):
    return "".join(dumps(o) + "\n" for o in objs)


W0 = {"e": "wall", "p": 0, "tiles": [[1, "blue"]], "floor": 0}
W1 = {"e": "wall", "p": 1, "tiles": [], "floor": 1}
FIRST = {"e": "first", "p": 1}
END = {"e": "end_round"}


def test_header_defaults_and_errors():
    h = parse_header(header())
    assert h["variant"] == "colored" and h["options"] == {}
    raises(RecordError, parse_header, header(format="x"), match="not an azul-companion record")
    raises(RecordError, parse_header, header(v=2), match="version 2 is not supported")
    raises(RecordError, parse_header, header(game="chess"), match="unknown game 'chess'")
    raises(RecordError, parse_header, header(variant="pink"), match="azul has no variant 'pink'")
    raises(RecordError, parse_header, header(players=["A"]), match="azul needs 2 to 4 players, got 1")
    raises(RecordError, parse_header, header(players=["A", ""]), match="non-empty strings")


def test_replay_names_the_line():
    raises(RecordError, replay, text(header()) + "{oops\n", match="line 2: not valid JSON")
    raises(RecordError, replay, text(header(), W0, [1, 2]), match="line 3: expected a JSON object")
    raises(RecordError, replay, text(header(), {"e": "dance"}), match="line 2: azul has no event 'dance'")
    raises(RecordError, replay, text(header(), {"p": 0}), match='line 2: an event is an object with a string "e"')
    raises(RecordError, replay, text(header(), W0) + "\n" + text(W1), match="line 3: empty line")
    raises(RecordError, replay, "", match="line 1: the record has no header")
    raises(RecordError, replay, text(header(game="azul", players="AB")), match="line 1:")
    raises(RecordError, replay, text(header(), {"e": "wall", "p": 0, "tiles": "x", "floor": 0}), match="line 2: tiles must be a list")
    raises(RecordError, replay, [text(header()).encode(), b"\xff\xfe\n"], match="line 2: not UTF-8")


def test_torn_last_line_is_ignored_with_a_warning():
    """RECORD_FORMAT 'File': a final line without its newline is a write cut by power loss."""
    full = text(header(), W0, W1)
    for cut in range(1, len(dumps(FIRST)) + 1):
        s, warnings = replay(full + dumps(FIRST)[:cut])
        assert s.scores == [1, 0] and s.pending() == []
        assert warnings == ["line 4: incomplete last line ignored (a write cut by power loss)"]
    s, warnings = replay(full)
    assert warnings == []


def test_undo_redo_semantics():
    """RECORD_FORMAT common events: undo cancels the newest event not already cancelled; undo of
    undo is not redo; redo re-applies the last undone event if nothing else came between."""
    s, _ = replay(text(header(), W0, W1, FIRST, END, {"e": "undo"}, {"e": "undo"}, {"e": "undo"}))
    assert s.round == 1 and s.scores == [1, 0] and s.pending() == [("wall", 1)]
    s.add({"e": "redo"})
    s.add({"e": "redo"})
    assert s.pending() == [] and s.rules._first == 1
    s.add({"e": "note", "text": "coffee break"})
    raises(RuleError, s.add, {"e": "redo"}, match="nothing to redo")
    assert json.loads(s.undo())["e"] == "note"
    assert s.redo()["e"] == "note"
    raises(RuleError, Session(header()).undo, match="nothing to undo")


def test_undo_across_a_closed_round_and_the_end():
    """Undo works across closed rounds: the finished game reopens."""
    evs = []
    for c in ("blue", "yellow", "red", "black", "white"):
        evs += [{"e": "wall", "p": 0, "tiles": [[1, c]], "floor": 0}, {"e": "wall", "p": 1, "tiles": [], "floor": 0}, END]
    s, _ = replay(text(header(), *evs))
    assert s.finished and s.scores == [17, 0] and s.winners() == [0]
    done = json.loads(s.undo())
    assert done == END and not s.finished and s.scores == [15, 0] and s.winners() == []
    for _ in range(3):
        s.undo()
    assert s.round == 4 and s.scores == [10, 0] and s.pending() == []
    for _ in range(4):
        s.redo()
    assert s.finished and s.scores == [17, 0]


def test_lines_keep_what_a_list_keeps_across_buffers():
    """Session keeps its effective lines in Lines; appends and pops across buffer ends (and
    text that is not ASCII) must read back exactly as a plain list of str does."""
    lines, want = Lines(), []
    for k in range(3 * LINES_PER_BUFFER + 5):
        if k % 7 == 6:  # a pop now and then, one of them at a buffer's first line
            assert lines.pop() == want.pop()
        t = dumps({"e": "note", "text": "n%d é ✓" % k})
        lines.append(t)
        want.append(t)
        assert len(lines) == len(want) and lines[-1] == t
    assert [lines[i] for i in range(len(lines))] == want
    while len(want) > LINES_PER_BUFFER:  # back to a full first buffer, then a new one again
        assert lines.pop() == want.pop()
    lines.append("x")
    want.append("x")
    assert [lines[i] for i in range(len(lines))] == want
    while want:
        assert lines.pop() == want.pop()
    assert len(lines) == 0
    raises(IndexError, lines.pop)


def test_lines_popped_from_a_join_and_appended_again_read_as_a_list():
    """Runs of pops into the joins (a join cut short, then emptied) and of appends after
    them (the join completed again), every line read back after each run."""
    lines, want = Lines(), []
    k = 0
    for run in (40, -3, 5, -20, 2, -1, 30, -33, 16, -16, 17, -37):
        for _ in range(abs(run)):
            if run < 0:
                assert lines.pop() == want.pop()
            else:
                t = dumps({"e": "note", "text": "n%d é" % k})
                k += 1
                lines.append(t)
                want.append(t)
        assert len(lines) == len(want) and [lines[i] for i in range(len(lines))] == want
    assert len(lines) == 0
    raises(IndexError, lines.pop)


def test_lines_let_go_and_put_back_read_as_before():
    """forget() lets whole joins go; put_back() of the same lines read again into a Lines
    from that join on gives every line back, and pops and appends go on as on a list."""
    want = [dumps({"e": "note", "text": "n%d é" % k}) for k in range(3 * LINES_PER_BUFFER + 3)]
    lines = Lines()
    for t in want:
        lines.append(t)
    lines.forget(2 * LINES_PER_BUFFER + 1)
    assert lines.lo == 2 * LINES_PER_BUFFER
    raises(IndexError, lines.__getitem__, LINES_PER_BUFFER)
    for lo in (LINES_PER_BUFFER, 0):  # one join read back, then the one before it
        back = Lines()
        back.lo = lo
        for t in want[lo:lines.lo]:
            back.append(t)
        lines.put_back(back)
        assert lines.lo == lo and [lines[i] for i in range(lo, len(lines))] == want[lo:]
    while want:
        assert lines.pop() == want.pop()
    lines.append("x")
    assert len(lines) == 1 and lines[0] == "x"


def test_a_session_that_reads_its_record_back_forgets_old_lines_and_undoes_the_same():
    """Given `reread`, a session keeps only the lines from just before its kept round-end
    state and reads the rest back from the record; undoing a whole 4-player game to its
    first event and redoing it must give, at every step, what a session that keeps every
    line gives, with its record on "flash" written before each event as the device does."""
    with open("tests/golden/5211_4p.jsonl") as f:
        lines = f.read().splitlines()
    flash = [lines[0]]
    keeper = Session(json.loads(lines[0]))
    s = ReadBack(json.loads(lines[0]), lambda: (t + "\n" for t in flash))
    least = 0  # the most lines forgotten at once

    def enter(ev):
        flash.append(dumps(ev))
        assert s.add(ev) == keeper.add(ev)
        assert s.result() == keeper.result() and s.last_event() == keeper.last_event()
        assert s.can_undo() == keeper.can_undo() and s.can_redo() == keeper.can_redo()

    for t in lines[1:]:
        enter(json.loads(t))
        least = max(least, s.done.lo)
    assert s.finished and least >= len(lines) - 1 - 2 * LINES_PER_BUFFER  # a round's lines kept
    assert events(s) == events(keeper)
    while keeper.can_undo():
        enter({"e": "undo"})
    assert s.round == 1 and s.scores == [0, 0, 0, 0]
    while keeper.can_redo():
        enter({"e": "redo"})
    assert s.finished and events(s) == events(keeper)
    assert replay(t + "\n" for t in flash)[0].result() == s.result()


def test_a_record_that_no_longer_holds_the_game_refuses_the_undo_and_changes_nothing():
    """The record on flash changed behind the session (a line edited, lines lost): an undo
    that must read it back is refused with the line, and the session stays as it was."""
    with open("tests/golden/5211_4p.jsonl") as f:
        lines = f.read().splitlines()
    flash = list(lines)
    s, _ = replay((t + "\n" for t in lines), ReadBack, lambda: (t + "\n" for t in flash))
    assert s.done.lo > 0
    undo = dumps({"e": "undo"})
    undos = 0
    while s._mark is not None or not s.done.lo:  # the kept states taken: nothing read back
        flash.append(undo)  # as the device writes it before the session takes it
        s.undo()
        undos += 1
    assert undos > 2
    before = s.result()
    flash.append(undo)
    flash[3] = dumps({"e": "note", "text": "edited"})
    raises(RuleError, s.undo, match="line 8: player 3's first reveal")  # line 4 no longer plays
    assert s.result() == before and s.can_redo()
    del flash[3:]
    raises(RecordError, s.undo, match="record: 2 events, game %d" % len(s.done))
    flash[:] = ["{"]
    raises(RecordError, s.undo, match="line 1: ")
    assert s.result() == before
    flash[:] = lines + [undo] * (undos + 1)
    assert s.undo() == lines[-undos - 1]
    assert s.result() == replay(t + "\n" for t in lines[:-undos - 1])[0].result()


def _undoing(path, pieces):
    """A device session over the record at `path` (its lines on "flash", each undo written
    before the session takes it), undone to the first event with ahead() given `pieces`
    idle pieces (None: all it asks for) before each undo; yields after each undo (the
    session, the record, the reads of the record the undo press made)."""
    with open(path) as f:
        flash = f.read().splitlines()
    reads = [0]

    def reread():
        reads[0] += 1
        return (t + "\n" for t in flash)  # (lines appended meanwhile read too, as on flash)

    s, _ = replay((t + "\n" for t in flash), ReadBack, reread)
    while s.can_undo():
        k = 0
        while (pieces is None or k < pieces) and s.prepare():
            k += 1
        flash.append(dumps({"e": "undo"}))
        reads[0] = 0
        s.undo()
        yield s, flash, reads[0]


def test_undos_with_the_work_done_ahead_read_nothing_back_and_equal_a_fresh_replay():
    """The 5-player game undone to its first event, the idle pieces (ReadBack.prepare) done
    before each undo: every undo takes a state folded ahead or kept (no press reads the
    record back), and gives what a fresh replay of the record gives; a session never
    holds lines from before the older kept state's round."""
    n = 0
    for s, flash, reads in _undoing("tests/golden/5211_long_5p.jsonl", None):
        assert reads == 0
        fresh = replay(t + "\n" for t in flash)[0]
        assert s.result() == fresh.result() and s.pending() == fresh.pending()
        assert s.last_event() == fresh.last_event()
        n += 1
    assert n == 243 and s.round == 1 and s.done.lo == 0


def test_an_undo_in_the_first_round_takes_the_state_folded_ahead_not_a_refold():
    """Before the first round end no state is kept: with the idle pieces done, an undo there
    folds no event in its press (it takes the one folded ahead from the game's first event)
    and gives what a fresh replay gives."""
    applied = []
    own = ReadBack.fold
    ReadBack.fold = lambda self, *a: applied.append(1) or own(self, *a)
    try:
        first = 0
        for s, flash, reads in _undoing("tests/golden/5211_long_5p.jsonl", None):
            if s._mark is None:  # in the first round
                first += 1
                assert not applied and reads == 0
                fresh = replay(t + "\n" for t in flash)[0]
                assert s.result() == fresh.result() and s.pending() == fresh.pending()
            del applied[:]
    finally:
        ReadBack.fold = own
    assert first == 16 and not s.can_undo()


def test_an_undo_that_comes_before_the_work_ahead_is_done_finishes_it():
    """One idle piece, or none, before each undo: the press does the rest of the work
    itself (or reads the record back), and every undo still gives a fresh replay's game.
    With a piece or more, undos that come while the record's fold is under way (the
    undos after the mark are on the record too) never make it give up: no press resumes
    the game from the whole record."""
    import app.current
    resumed = []
    app.current.replay = lambda *a: resumed.append(1) or replay(*a)
    try:
        for path, pieces in (("5211_4p", 0), ("5211_4p", 1), ("5211_long_5p", 2)):
            del resumed[:]
            for s, flash, _ in _undoing("tests/golden/%s.jsonl" % path, pieces):
                fresh = replay(t + "\n" for t in flash)[0]
                assert s.result() == fresh.result() and s.last_event() == fresh.last_event()
            assert not s.can_undo() and s.scores == [0] * len(s.players)
            assert pieces == 0 or not resumed
    finally:
        app.current.replay = replay


def test_the_record_folded_back_keeps_what_a_resume_keeps_across_undo_and_redo_lines():
    """A record with undo and redo lines (a round end among them), undone with 0, 1, 3 or
    all the idle pieces before each undo and a redo now and then: every undo gives a fresh
    replay's game, and once the work ahead is done the session keeps the round-end states
    a resume of the record keeps (ReadBack: the fold reads the round ends off the record)."""
    with open("tests/golden/5211_4p.jsonl") as f:
        lines = f.read().splitlines()
    undo, redo = dumps({"e": "undo"}), dumps({"e": "redo"})
    for extra in ([undo, redo] * 3, [undo] * 7 + [redo] * 2 + [undo] * 3):
        for pieces in (0, 1, 3, None):
            flash = lines + extra
            s = replay((t + "\n" for t in flash), ReadBack, lambda: (t + "\n" for t in flash))[0]
            while s.can_undo():
                k = 0
                while (pieces is None or k < pieces) and s.prepare():
                    k += 1
                for line in [undo] + ([redo, undo] if len(s.done) % 7 == 3 and s.undone else []):
                    flash.append(line)
                    s.undo() if line == undo else s.redo()
                fresh = replay(t + "\n" for t in flash)[0]
                assert s.result() == fresh.result() and s.last_event() == fresh.last_event()
                if pieces is None and s._mark is not None and s._mark[0] < len(s.done) - 1:
                    while s.prepare():
                        pass
                    kept = replay((t + "\n" for t in flash), ReadBack)[0]
                    for mine, theirs in ((s._mark, kept._mark), (s._older, kept._older)):
                        assert (mine and (mine[0], mine[1].__dict__)) == (theirs and (theirs[0], theirs[1].__dict__))
            assert s.scores == [0, 0, 0, 0]


def test_a_long_undo_chain_holds_a_bounded_redo_stack_and_redoes_it_all_from_the_record():
    """The 4-player game undone to its first event, then redone to its end: the session
    holds two joins of undone lines at most (the rest is read back from the record when
    redone), and every undo and redo gives a fresh replay's game, the last one the game."""
    for pieces in (1, None):  # (the idle frames let the stack's older lines go: ahead())
        flash = None
        for s, flash, _ in _undoing("tests/golden/5211_4p.jsonl", pieces):
            assert len(s.undone) - s.undone.lo <= 2 * LINES_PER_BUFFER
        n = len(s.undone)
        assert n == 78 and s.undone.lo >= n - 2 * LINES_PER_BUFFER
        while s.can_redo():
            flash.append(dumps({"e": "redo"}))
            s.redo()
            fresh = replay(t + "\n" for t in flash)[0]
            assert s.result() == fresh.result() and s.last_event() == fresh.last_event()
        with open("tests/golden/5211_4p.jsonl") as f:
            assert s.result() == replay(f)[0].result() and s.finished and len(s.done) == n


def test_redos_after_the_work_ahead_read_nothing_back_in_their_press():
    """The 4-player game undone to its first event, then redone to its end with the idle
    pieces done before each redo: they read the redo stack's lines let go back ahead
    (ReadBack._read_back), so no redo reads the record, also when that work takes the idle
    pieces of several redos (40 before each: it goes on over them); with one piece before
    each, the redo finishes it. Each redo gives a fresh replay's game."""
    for pieces in (None, 40, 1):
        flash = None
        for s, flash, _ in _undoing("tests/golden/5211_4p.jsonl", None):
            pass
        reads = [0]
        reread = s.reread
        s.reread = lambda: reads.append(1) or reread()
        assert s.undone.lo > 0
        while s.can_redo():
            k = 0
            while (pieces is None or k < pieces) and s.prepare():
                k += 1
            flash.append(dumps({"e": "redo"}))
            del reads[1:]
            s.redo()
            assert pieces == 1 or len(reads) == 1  # (no read in the press)
            fresh = replay(t + "\n" for t in flash)[0]
            assert s.result() == fresh.result() and s.last_event() == fresh.last_event()
        assert s.finished and s.undone.lo == 0


def test_a_record_changed_behind_the_work_ahead_is_refused_and_changes_nothing():
    """The older round-end state folded again from the record in idle frames: a record
    that no longer holds the game (a line edited) leaves the session as it was, and the
    undo that then needs the record refuses with the line, as without the work ahead."""
    with open("tests/golden/5211_4p.jsonl") as f:
        lines = f.read().splitlines()
    flash = list(lines)
    s, _ = replay((t + "\n" for t in lines), ReadBack, lambda: (t + "\n" for t in flash))
    undo = dumps({"e": "undo"})
    for _ in range(2):  # the final round end, then the round before it: the older state taken
        flash.append(undo)
        s.undo()
    assert s._older is None and s.done.lo > 0
    held = (s._mark, s.done.lo, s.result())
    flash[5] = dumps({"e": "note", "text": "edited"})
    while s.prepare():
        pass
    assert (s._mark, s.done.lo, s.result()) == held and s._older is None
    while s._mark is not None:  # the mark's round undone: the next undo needs the record
        flash.append(undo)
        s.undo()
    flash.append(undo)
    before = s.result()
    raises(RuleError, s.undo, match="line 14: player 1 revealed 3 of 4")  # line 6 no longer plays
    assert s.result() == before


def test_preview_does_not_enter():
    s, _ = replay(text(header()), ReadBack)
    assert s.preview({"e": "wall", "p": 0, "tiles": [[1, "blue"], [2, "white"]], "floor": 0}) == [3, 0]
    assert s.scores == [0, 0] and s.pending() == [("wall", 0), ("wall", 1)]
    raises(RuleError, s.preview, {"e": "end_round"}, match="still needs")


def test_dumps_is_canonical():
    """The same bytes on every interpreter: header keys in the documented order, events "e" first."""
    assert dumps(new_header("azul", "grey", ["Zoë", 'A"B'])) == (
        '{"format": "azul-companion-record", "v": 1, "game": "azul", "variant": "grey", '
        '"players": ["Zoë", "A\\"B"], "options": {}}')
    assert dumps({"tiles": [[1, "red"]], "p": 0, "e": "wall", "floor": 2}) == (
        '{"e": "wall", "p": 0, "floor": 2, "tiles": [[1, "red"]]}')
    assert json.loads(dumps({"e": "note", "text": "tab\there\n"})) == {"e": "note", "text": "tab\there\n"}


def test_dumps_escapes_what_json_must_and_writes_the_rest_as_it_is():
    """RECORD_FORMAT: a line is JSON text in UTF-8. Quote, backslash and control characters
    are escaped (\\u00XX); other characters, accented or not, are written as they are; a list
    of ints reads as one; a bool is never written as a number."""
    assert dumps(["", "a\\b", 'say "hi"', "x\x1fy", "tab\t", "Zoë ✓ 🀄", " ~"]) == (
        '["", "a\\\\b", "say \\"hi\\"", "x\\u001fy", "tab\\u0009", "Zoë ✓ 🀄", " ~"]')
    assert dumps({"e": "x", "n": (1, -2, 30), "b": [True, 0, False], "z": [], "w": [[], [None]]}) == (
        '{"e": "x", "b": [true, 0, false], "n": [1, -2, 30], "w": [[], [null]], "z": []}')


def test_a_lone_surrogate_is_written_as_its_escape():
    """A record may hold a lone surrogate as a JSON escape ("\\ud800", RECORD_FORMAT: JSON
    text); CPython reads it into a str that has no UTF-8 form, MicroPython into one whose
    bytes are not UTF-8. dumps writes it back as the escape, so the line can be written to a
    file and reads back the same."""
    ev = json.loads('{"e": "note", "text": "a\\ud800b"}')
    line = dumps(ev)
    assert line == '{"e": "note", "text": "a\\ud800b"}'
    assert json.loads(line.encode("utf-8").decode("utf-8")) == ev


def test_standings_share_ranks():
    s, _ = replay(text(header(players=["A", "B", "C", "D"]),
                       {"e": "wall", "p": 1, "tiles": [[1, "blue"]], "floor": 0},
                       {"e": "wall", "p": 2, "tiles": [[1, "blue"]], "floor": 0}))
    assert s.standings() == [(1, 1), (1, 2), (3, 0), (3, 3)]


def test_oracle_games_replay_to_the_independent_engine_scores():
    """shared/oracles: 90 random Azul games scored by an independent engine; replay must agree exactly."""
    expected = json.loads(open(ORACLES + "expected.json").read())
    assert len(expected) == 90
    for name in sorted(expected):
        with open(ORACLES + name) as f:
            s, warnings = replay(f)
        want = expected[name]
        got = s.result()
        assert warnings == [], name
        assert (got["finished"], got["scores"], got["winners"]) == (want["finished"], want["scores"], want["winners"]), name


def test_start_option_is_common_to_every_game():
    """options.start names round 1's start player in every game (a compatible v1 extension)."""
    s = Session(new_header("garden", "standard", ["A", "B", "C"], {"start": 1}))
    assert s.start_player == 1 and s.pending()[0] == ("pass", 1)
    s = Session(new_header("sintra", "A", ["A", "B"], {"start": 1, "round_colors": ["pink", "pink", "orange", "yellow", "green", "blue"]}))
    assert s.start_player == 1
    raises(RecordError, Session, new_header("azul", "colored", ["A", "B"], {"start": 2}), match="options.start must be a player index 0..1")


def counting_applies(fn):
    """Run fn() counting AzulRules.apply calls (how much of the game it refolds)."""
    calls = [0]
    plain = AzulRules.apply

    def counted(self, ev):
        calls[0] += 1
        return plain(self, ev)
    AzulRules.apply = counted
    try:
        fn()
    finally:
        AzulRules.apply = plain
    return calls[0]


def oracle_lines(name):
    with open(ORACLES + name) as f:
        return f.read().splitlines()


def test_resume_applies_each_effective_event_once():
    """Resume is linear: a finished game with 30 undo/redo pairs appended applies each of
    its events once (cancelled events are dropped before any is applied)."""
    lines = oracle_lines("azul_2p_5002.jsonl")
    text = "\n".join(lines) + "\n" + '{"e": "undo"}\n{"e": "redo"}\n' * 30
    out = []
    assert counting_applies(lambda: out.append(replay(text)[0])) == len(lines) - 1
    assert out[0].result() == replay("\n".join(lines) + "\n")[0].result()


def test_undo_refolds_at_most_the_current_round():
    """An undo starts from the state kept before the last round end: undoing the game's
    last end_round applies nothing, an undo inside a round only that round's events."""
    lines = oracle_lines("azul_2p_5002.jsonl")
    s = replay("\n".join(lines) + "\n", ReadBack)[0]
    assert s.finished and counting_applies(s.undo) == 0 and not s.finished
    assert counting_applies(s.redo) == 1 and s.finished
    # mid-game: the second round's end, then two walls of round 3; undo the second wall
    cut = [i for i in range(len(lines)) if '"end_round"' in lines[i]][1]
    s = replay("\n".join(lines[:cut + 3]) + "\n", ReadBack)[0]
    assert s.round == 3 and counting_applies(s.undo) == 2   # round 2's end_round, round 3's first wall


def test_any_number_of_undos_matches_the_shorter_record():
    """Undo k events (across round ends and the game's end) == the record without them;
    redo brings back the same game (checkpoints never change a result)."""
    lines = oracle_lines("azul_2p_5002.jsonl")
    full = replay("\n".join(lines) + "\n")[0].result()
    s = replay("\n".join(lines) + "\n", ReadBack)[0]
    for k in range(1, len(lines)):
        s.undo()
        assert s.result() == replay("\n".join(lines[:len(lines) - k]) + "\n")[0].result(), k
    raises(RuleError, s.undo, match="nothing to undo")
    for k in range(1, len(lines)):
        s.redo()
    assert s.result() == full


def test_a_cancelled_event_is_not_checked():
    """An event cancelled by undo never counted, so replay drops it unchecked; the redo
    stack survives a resume."""
    bad = {"e": "wall", "p": 0, "tiles": [[1, "blue"]], "floor": 0}   # p0's second wall: refused
    s, _ = replay(text(header(), W0, bad, {"e": "undo"}, W1))
    assert s.scores == [1, 0] and s.pending() == [] and not s.can_redo()
    raises(RuleError, replay, text(header(), W0, bad), match="line 3: player 1's wall is already entered")
    s, _ = replay(text(header(), W0, W1, {"e": "undo"}))
    assert s.can_redo() and s.redo() == W1 and s.pending() == []


def test_messages_name_players_as_the_screens_do():
    """One way to name a player in every game: 1-based, as the screens number the seats.
    Player index 0 holds the marker / start tile; a second claim names "player 1"."""
    azul = Session(new_header("azul", "colored", ["A", "B"]))
    azul.add({"e": "wall", "p": 0, "tiles": [], "floor": 1})
    azul.add({"e": "first", "p": 0})
    sintra = Session(new_header("sintra", "A", ["A", "B"], {"round_colors": ["pink", "pink", "orange", "yellow", "green", "blue"]}))
    sintra.add({"e": "first", "p": 0})
    for s in (azul, sintra):
        msg = raises(RuleError, s.add, {"e": "first", "p": 1})
        assert msg.startswith("player 1 already took the "), msg


def test_status_says_which_round_is_being_played():
    """Reports name the round in play: with two rounds closed, "in progress, round 3"; a game
    whose last round has ended but whose final scoring is still to enter says so."""
    s = Session(new_header("azul", "colored", ["A", "B"]))
    assert s.status() == "in progress, round 1"
    for _ in range(2):
        s.add({"e": "wall", "p": 0, "tiles": [], "floor": 0})
        s.add({"e": "wall", "p": 1, "tiles": [], "floor": 0})
        s.add(END)
    assert s.status() == "in progress, round 3"
    s = Session(new_header("sintra", "A", ["A", "B"], {"round_colors": ["pink", "pink", "orange", "yellow", "green", "blue"]}))
    for _ in range(5):
        s.add(END)
    assert s.status() == "in progress, round 6/6"
    s.add(END)
    assert s.status() == "after round 6/6, final scoring to enter"
    s.add({"e": "leftover", "p": 0, "n": 0})
    s.add({"e": "leftover", "p": 1, "n": 0})
    assert s.finished and s.status() == "final after round 6/6"
