"""Sintra scoring, numbers worked out by hand from the rulebook (shared/seeds/001_*).

Events are written as short scripts (one string is one token: MicroPython compiles this file
on a 64 KB heap): 'w P COL KEEP [BONUS]' window (bonus defaults to 1 when KEEP is the round
colour, else 0), 'b P N' broken, 'f P' first, 'l P N' leftover, 'e' end_round; ';' separates.
"""
from app.current import clone
from checks import raises
from rules_core import RecordError, RuleError
from rules_core.sintra import SintraRules

COLS = "pink orange yellow green blue pink".split()   # rounds I..VI
R6 = "e;e;e;e;e"                                      # rounds I..V end: now round VI
TRACK = [0, -1, -2, -3, -4, -5, -6, -8, -10, -12, -14, -16, -18]   # 13 spaces, as the device enters it
FIN = "l 0 0;l 1 0;e"                                 # no glass left, final scoring


def new(variant="A", board=None, cols=COLS):
    return SintraRules(variant, 2, {"round_colors": cols, "board": board} if board else {"round_colors": cols})


def ev(r, step):
    a = step.split()
    if a[0] == "e":
        return {"e": "end_round"}
    if a[0] == "w":
        bonus = int(a[4]) if len(a) > 4 else int(a[3] == r.bonus_colour())
        return {"e": "window", "p": int(a[1]), "col": int(a[2]), "bonus": bonus, "keep": a[3]}
    d = {"e": {"b": "broken", "f": "first", "l": "leftover"}[a[0]], "p": int(a[1])}
    if len(a) > 2:
        d["n"] = int(a[2])
    return d


def run(r, script):
    for step in script.split(";"):
        r.apply(ev(r, step))
    return r


def err(exc, r, script, match):
    raises(exc, run, r, script, match=match)


def to_vi(r):
    """End rounds until round VI is played (the rounds a script's own end_rounds left)."""
    return run(r, ";".join(["e"] * (6 - r.round))) if r.round < 6 else r


def test_window_score_example_2_1_2():
    """第三步 3c: value under this window + windows to its right holding glass: 2 + 1 + 2 = 5."""
    r = new(board={"windows": [3, 2, 1, 2, 4, 1, 1, 1]})
    assert run(r, "w 0 4 orange").scores == [2, 0]      # 2, nothing to its right
    assert run(r, "w 0 3 orange").scores == [5, 0]      # 1 + 2
    assert run(r, "w 0 2 orange").scores == [10, 0]     # 2 + 1 + 2 = 5
    assert r.breakdown(0)["windows"] == 10


def test_window_score_non_adjacent_and_bottom_frame():
    """第三步 3b/3c: every window to the right with 1 or 2 panes counts, adjacent or not; the
    window counts again when its bottom frame fills; windows to its left never count."""
    r = new(board={"windows": [3, 2, 1, 2, 4, 1, 1, 1]})
    run(r, "w 0 7 blue;w 0 2 blue;w 0 1 blue")         # 1, 2 + 1, 3 + 2 + 1
    assert r.scores[0] == 10
    assert run(r, "w 0 2 green").scores[0] == 13        # 2 + 1 (col 7)
    assert r.open_windows(0) == [1, 3, 4, 5, 6, 7, 8]
    assert r.window_score(0, 5) == 4 + 1


def test_colour_bonus_round_three_yellow():
    """第三步 3a example: round III colour yellow, 2 yellow on the strip -> +2 before the window."""
    r = run(new(board={"windows": [1] * 8}), "e;e")
    assert r.bonus_colour() == "yellow"
    assert run(r, "w 1 5 yellow 2").scores == [0, 3]     # 2 bonus + 1 window
    assert r.breakdown(1)["colour_bonus"] == 2


def test_leftover_seven_panes_two_points():
    """遊戲結束 1) example: 7 panes left on the strips -> 2 points (remainder ignored)."""
    r = run(new(), R6 + ";l 0 7;l 1 2;e")
    assert r.finished and r.scores == [2, 0]
    assert r.breakdown(0)["leftover_points"] == 2


def test_marker_on_minus_8_loses_8():
    """遊戲結束 2) example: marker on -8 -> lose 8 (track 0,-1,..,-6,-8: 7 spaces down)."""
    r = run(new(), "b 0 7")
    assert r.track_position(0) == 7 and r.track[7] == -8
    assert r.scores == [0, 0]            # the marker's space is only paid at the end
    run(r, R6 + ";" + FIN)
    assert r.scores == [-8, 0] and r.breakdown(0)["marker_penalty"] == 8


def test_bottom_space_loses_18_and_marker_restarts():
    """遊戲結束 note: reaching -18 loses 18 at once, marker back to the top, moves go on."""
    r = run(new(), "b 0 11")
    assert r.scores[0] == 0 and r.track_position(0) == 11
    run(r, "f 0")                        # the start tile moves it onto the bottom space
    assert r.scores[0] == -18 and r.track_position(0) == 0
    run(r, "e;b 0 2")                    # (round II: 20 panes, 16 of them broken)
    assert r.track_position(0) == 2 and r.lost_on_track(0) == 20   # 18 + the -2 it is on
    run(r, "b 1 14")                     # 12 to the bottom, then 2 more from the top
    assert r.scores[1] == -18 and r.track_position(1) == 2


def test_side_a_ornaments_10_10_3():
    """遊戲結束 3) A面 example: two ornaments with 4 panes, the last with 2 -> 10 + 10 + 3 = 23."""
    # round I: 4 strips of 5 panes (all 20 of 5 factories); II: their second frames and two
    # more windows (strips of 4 panes from round I would take 1 new pane each)
    r = run(new(), "w 0 1 blue;w 0 2 blue;w 0 3 blue;w 0 4 blue;e;w 0 1 blue;w 0 2 blue;"
                   "w 0 3 blue;w 0 4 blue;w 0 7 blue;w 0 8 blue")
    before = r.scores[0]
    run(to_vi(r), FIN)
    assert r.breakdown(0)["side_points"] == 23 and r.scores[0] == before + 23


def test_side_a_three_panes_score_6():
    """遊戲結束 3) A面: 3 panes around an ornament -> 6; 1 pane -> 0."""
    r = run(new(), "w 0 5 blue;w 0 5 green;w 0 6 blue;w 0 1 blue;" + R6 + ";" + FIN)
    assert r.breakdown(0)["side_points"] == 6


def test_side_a_ornaments_may_share_a_window():
    """遊戲結束 3) A面: each ornament counts the 4 frames around it; the text does not say two
    ornaments never share a window, so an owner's board with ornaments at windows 1-2 and 2-3
    counts window 2 for both. Windows all worth 1: window 2 twice (1, 1), window 1 (1 + 1),
    window 3 (1): 5; ornament 1-2 holds 1 + 2 = 3 panes (6), ornament 2-3 2 + 1 = 3 (6): 17
    (ornaments 5-6 and 7-8 hold none)."""
    r = run(new(board={"windows": [1] * 8, "ornaments": [[1, 2], [2, 3], [5, 6], [7, 8]]}),
            "w 0 2 blue;e;w 0 2 blue;w 0 1 blue;w 0 3 blue;" + R6[2:] + ";" + FIN)
    assert r.breakdown(0)["windows"] == 5 and r.breakdown(0)["side_points"] == 12 and r.scores[0] == 17


def test_board_values_the_record_does_not_give_are_named():
    """The rulebook text prints no window values, and the track and side A's ornaments are
    inferred: a record without them is played on the project's unverified tables, and
    assumed() names those (replay warns); a record that gives them all assumes nothing."""
    assert new().assumed() == ["windows", "track", "ornaments"]
    assert new("B", {"windows": [1] * 8}).assumed() == ["track"]   # side B has no ornaments
    full = {"windows": [1] * 8, "track": TRACK, "ornaments": [[1, 2], [3, 4], [5, 6], [7, 8]]}
    assert new("A", full).assumed() == []


def test_side_b_four_windows_times_five_orange():
    """遊戲結束 3) B面 example: 4 complete windows x 5 orange panes (single-pane windows count)."""
    r = run(new("B"), "w 0 1 orange;w 0 2 orange;w 0 3 orange;w 0 4 pink;e;w 0 1 orange;w 0 2 pink;"
                      "w 0 3 yellow;w 0 4 blue;w 0 5 orange;w 0 6 pink")
    run(to_vi(r), FIN)
    b = r.breakdown(0)
    assert (b["side_points"], b["colour"], b["complete_windows"]) == (20, "orange", 4)
    assert r.breakdown(1)["side_points"] == 0


def test_tie_broken_on_fewer_points_lost_including_resets():
    """遊戲結束, last paragraph: tie -> fewer points lost on the broken-glass track, resets included."""
    # p0: window 4 is worth 2, then 12 broken: -18 reset; p1: 11 broken, ends on -16
    r = run(new(), "w 0 4 blue;b 0 12;e;b 1 11;" + R6[2:] + ";" + FIN)
    assert r.scores == [-16, -16]
    assert r.rank_key(0) == (-16, -18) and r.rank_key(1) == (-16, -16)
    assert SintraRules.TIEBREAK == "fewer points lost on the broken-glass track"


def test_whole_game_six_rounds():
    """進行遊戲 to 遊戲結束: a 2-player game on the default board (1 2 1 2 1 2 1 2), by hand."""
    r = new()
    # I pink: p0 2 + 2; p1 marker 1 then 1; p0 marker 3
    assert run(r, "w 0 8 pink 2;f 1;w 1 1 blue;b 0 3;e").scores == [4, 1]
    assert r.start_player == 1 and r.round == 2
    # II orange: p1 3 + 2; p0 1 + (1 + 2); p0 marker 4
    assert run(r, "w 1 2 orange 3;w 0 7 orange 1;f 0;e").scores == [8, 6]
    assert r.start_player == 0
    # III yellow: p0 2 + 2 (window 8 full); p1 1 + 11 = bottom: -18, marker 0; nobody takes the start tile
    assert run(r, "w 0 8 yellow 2;b 1 11;e").scores == [12, -12]
    assert r.start_player == 0
    # IV green: p0 1 + (1 + 1 + 2); p1 0 + (1 + 2); p1 marker 1
    err(RuleError, r, "w 0 8 green 1", "window 8 already has both frames filled")
    assert run(r, "w 0 5 green 1;w 1 1 pink 0;f 1;e").scores == [17, -9]
    # V blue: p1 5 + 2; p0 marker 6
    assert run(r, "w 1 2 blue 5;b 0 2;e").scores == [17, -2]
    # VI pink: p0 1 + (2 + 1 + 2); p1 marker 2
    run(r, "w 0 6 pink 1;f 1")
    assert r.pending() == [("leftover", 0), ("leftover", 1)]
    run(r, "l 0 7;l 1 5;e")
    # p0: 23 + 7//3 - 6 (marker) + ornament 5-6 (2 panes) 3 + ornament 7-8 (3 panes) 6 = 28
    # p1: -2 + 5//3 - 2 (marker) + ornament 1-2 (4 panes) 10 = 7
    assert r.finished and r.round == 6 and r.scores == [28, 7]
    assert r.round_scores == [[4, 1], [8, 6], [12, -12], [17, -9], [17, -2], [28, 7]]
    b0, b1 = r.breakdown(0), r.breakdown(1)
    assert (b0["windows"], b0["colour_bonus"], b0["marker_penalty"], b0["side_points"]) == (16, 7, 6, 9)
    assert (b1["windows"], b1["colour_bonus"], b1["track_resets"], b1["glass_lost"]) == (8, 8, 18, 20)
    for b in (b0, b1):
        assert b["total"] == (b["windows"] + b["colour_bonus"] - b["track_resets"] - b["marker_penalty"]
                              + b["leftover_points"] + b["side_points"])
    assert r.rank_key(0) == (28, -6) and r.rank_key(1) == (7, -20)
    err(RuleError, r, "b 0 1", "the game is over")
    err(RuleError, r, "e", "the game is over")


def test_event_validation_messages():
    """第二步/第三步 limits: 8 windows, 5 spaces per strip, known colours, players in range."""
    r = new()
    for script, match in (("w 0 9 blue", "window col must be a whole number 1..8, got 9"),
                          ("w 0 1 blue 6", "window bonus must be a whole number 0..5"),
                          ("w 0 1 purple", "keep must be a glass colour"),
                          ("w 2 1 blue", "window p must be a whole number 0..1, got 2"),
                          ("b 0 -1", "broken n must be a whole number 0..20"),
                          ("b 0", "broken n must be a whole number 0..20, got None")):
        err(RecordError, r, script, match)
    raises(RecordError, r.apply, {"e": "broken", "p": True, "n": 1}, match="broken p must be a whole number 0..1, got True")
    raises(RecordError, r.apply, {"e": "wall", "p": 0}, match="unknown sintra event 'wall'")
    err(RuleError, r, "w 0 1 pink 0", "colour bonus is at least 1")
    err(RuleError, r, "w 0 1 blue 5", "the kept glass is pink, not blue")
    run(r, "f 1")
    err(RuleError, r, "f 0", "player 2 already took the start tile")
    err(RuleError, r, "l 0 3", "round 6 only (this is round 1)")
    assert r.scores == [0, 0] and r.track_position(0) == 0 and r.track_position(1) == 1


def test_leftover_bounds_and_order():
    """遊戲結束 1): leftover glass sits on the remaining strips, at most 4 on each."""
    r = to_vi(run(new(), "w 0 1 blue;w 0 2 blue;w 0 3 blue;w 0 4 blue;e;" + ";".join("w 0 %d blue" % c for c in (
        1, 2, 3, 4, 5, 6, 7)) + ";e;w 0 5 blue;w 0 6 blue;w 0 7 blue"))
    err(RecordError, r, "l 0 5", "leftover n must be a whole number 0..4")
    run(r, "l 0 4")
    err(RuleError, r, "l 0 4", "leftover glass is already entered")
    err(RuleError, r, "b 0 1", "leftover glass is already entered")
    assert r.pending() == [("leftover", 1)]


def test_options_validation():
    """遊戲設置 7: rounds II..VI show each colour once, round I any colour; board shape."""
    raises(RecordError, SintraRules, "A", 2, {}, match="round_colors must be 6 glass colours")
    raises(RecordError, new, "A", None, COLS[:5], match="round_colors must be 6 glass colours")
    raises(RecordError, new, "A", None, ["red"] + COLS[1:], match="round_colors must be 6 glass colours")
    raises(RecordError, new, "A", None, COLS[:2] + COLS[1:5], match="rounds II..VI each of pink/orange/yellow/green/blue once")
    raises(RecordError, new, "A", None, COLS[:5] + [3], match="round_colors must be 6 glass colours")
    raises(RecordError, SintraRules, "A", 2, {"round_colors": COLS, "board": [1]}, match="options.board must be an object")
    raises(RecordError, SintraRules, "C", 2, {"round_colors": COLS}, match="sintra has no variant 'C'")
    raises(RecordError, SintraRules, "A", 5, {"round_colors": COLS}, match="sintra needs 2 to 4 players, got 5")
    for board, match in (({"size": 3}, "board: unknown key 'size'"),):
        raises(RecordError, new, "A", board, match=match)
    r = run(new("A", {"track": TRACK[:8] + [-9, -11, -13, -15, -18]}), "b 0 14")   # 12 down = bottom: -18, then 2 more
    assert r.scores[0] == -18 and r.track_position(0) == 2 and r.track[9] == -11


def test_board_values_are_held_to_the_device_entry():
    """A record's options.board is refused unless the device could have entered it (Settings >
    Sintra board): 8 window values 0..9; the track's 13 spaces from 0 at the top to -18 at the
    bottom (遊戲結束 note), never rising; side A's 4 ornaments (遊戲結束 3) A面), each between
    two neighbouring windows, one to a gap. The message is the device's own (its settings
    check is this one: app.settings.sintra_problem)."""
    orn = [[1, 2], [3, 4], [5, 6], [7, 8]]
    for board, match in (({"windows": [1, 2, 3]}, "options.board windows: 8 values 0..9, got [1, 2, 3]"),
                         ({"windows": [1] * 7 + [10]}, "windows: 8 values 0..9"),
                         ({"windows": [1] * 7 + [True]}, "windows: 8 values 0..9"),
                         ({"track": [0, -18]}, "options.board track: 13 spaces 0 .. -18, got [0, -18]"),
                         ({"track": TRACK[:12] + [-16]}, "track: 13 spaces 0 .. -18"),
                         ({"track": [-1] + TRACK[1:]}, "track: 13 spaces 0 .. -18"),
                         ({"track": TRACK[:12] + [-20]}, "track: 13 spaces 0 .. -18"),
                         ({"track": TRACK[:3] + [-1] + TRACK[4:]}, "options.board track rises at space 4"),
                         ({"ornaments": orn[:3]}, "options.board ornaments: 4 window pairs"),
                         ({"ornaments": orn + [[2, 3]]}, "ornaments: 4 window pairs"),
                         ({"ornaments": orn[:3] + [[8, 7]]}, "ornaments: 4 window pairs"),
                         ({"ornaments": orn[:3] + [[6, 8]]}, "ornaments: 4 window pairs"),
                         ({"ornaments": orn[:3] + [[8, 9]]}, "ornaments: 4 window pairs"),
                         ({"ornaments": orn[:3] + [[3, 4]]}, "options.board 2 ornaments at win 3-4")):
        raises(RecordError, new, "A", board, match=match)
    assert new("A", {"windows": [0, 9, 0, 9, 0, 9, 0, 9], "track": TRACK, "ornaments": orn}).assumed() == []
    assert new(cols=["blue"] + COLS[1:]).bonus_colour() == "blue"   # round I: any colour


def test_clone_is_independent():
    """clone() copies the state: previews must not leak into the game."""
    r = run(new(), "w 0 3 blue")
    c = run(clone(r), "w 0 3 green;e")
    assert r.scores == [1, 0] and c.scores == [2, 0]
    assert r.open_windows(0) == list(range(1, 9)) and 3 not in c.open_windows(0)
    assert r.round == 1 and c.round == 2 and r.round_scores == []


def test_leftover_before_or_after_the_last_end_round():
    """遊戲結束: "after round VI, the final scoring". The device enters the leftover glass
    before round VI's end_round, other tools after it: the same game. Side A, default board:
    player 1 window 1 (1) + 7 panes left (2) - marker on -2 (2 broken) = 1; player 2 takes
    the start tile (-1 on the track) and has 3 panes left (1): 0."""
    play = "w 0 1 blue;b 0 2;f 1"
    results = []
    for script in (R6 + ";" + play + ";l 0 7;l 1 3;e", R6 + ";" + play + ";e;l 0 7;l 1 3"):
        r = new()
        steps = script.split(";")
        run(r, ";".join(steps[:-1]))
        assert not r.finished
        run(r, steps[-1])
        assert r.finished and r.scores == [1, 0] and r.start_player == 1
        results.append((r.round_scores, [r.breakdown(p) for p in (0, 1)]))
    assert results[0] == results[1]
    r = run(new(), R6 + ";" + play + ";e")
    assert r.closed and r.pending() == [("leftover", 0), ("leftover", 1)] and len(r.round_scores) == 5
    err(RuleError, r, "b 0 1", "round 6 has ended: only leftover glass is still to enter, not broken")
    err(RuleError, r, "e", "round 6 has ended")


def test_window_change_is_the_score_change_apply_makes():
    """window_change (the window form's check at every value, no copy of the state) scores
    and refuses a window exactly as apply() does (第三步 3a-3c), and leaves the state as it
    was: every column, kept colour and bonus 0, 1, 5 of both players after each event of a
    game through round VI, its close and the final scoring."""
    r = new(board={"windows": [3, 2, 1, 2, 4, 1, 1, 1]})
    script = "w 0 4 orange;w 1 2 pink;w 1 2 blue;e;w 0 4 blue;w 0 3 orange;b 1 3;e;e;" \
             "w 1 3 green;f 0;e;e;w 0 8 pink;l 0 2;e;l 1 0"
    checked = refused = 0
    for step in script.split(";") + [None]:
        for p in (0, 1):
            for col in range(1, 9):
                for keep in ("pink", "orange", "yellow", "green", "blue"):
                    for bonus in (0, 1, 5):
                        e = {"e": "window", "p": p, "col": col, "keep": keep, "bonus": bonus}
                        before = repr(sorted(r.__dict__.items()))
                        after = clone(r)
                        try:
                            after.apply(e)
                        except ValueError as x:
                            raises(type(x), r.window_change, e, match=str(x))
                            refused += 1
                        else:
                            assert r.window_change(e) == after.scores[p] - r.scores[p]
                            checked += 1
                        assert repr(sorted(r.__dict__.items())) == before
        if step:
            run(r, step)
    assert r.finished and checked > 1500 and refused > 1500, (checked, refused)
