"""Azul (2017) scoring. Numbers worked by hand from the rulebook (seed 002, zh-TW; seed 003, ja)."""
from checks import raises
from rules_core.azul import AzulRules, placement_points, floor_penalty, COLOURS
from rules_core import RuleError, RecordError
from rules_core.record import dumps
from rules_core.session import new_header
from rules_core.session import replay
from rules_core.session import Session
from app.current import ReadBack


def bits(*cells):
    m = 0
    for r, c in cells:
        m |= 1 << (r * 5 + c)
    return m


def wall(p, tiles, floor=0):
    return {"e": "wall", "p": p, "tiles": tiles, "floor": floor}


def play(rounds, n=2, variant="colored"):
    """rounds: list of lists of events (the end_round is added). Returns the Session."""
    s = Session(new_header("azul", variant, ["P%d" % (i + 1) for i in range(n)]))
    for evs in rounds:
        for ev in evs:
            s.add(ev)
        s.add({"e": "end_round"})
    return s


def free_colours(r, p, row):
    """Colours (indices) that a complete line of `row` can still put on p's wall."""
    free = r.free_cells(p, row)
    return [k for k in range(5) if free >> (k * 5) & 0b11111]


def grey_columns(r, p, row, colour):
    """Grey wall: the 1-based columns `colour` may take in `row`."""
    free = r.free_cells(p, row)
    return [c + 1 for c in range(5) if free >> (colour * 5 + c) & 1]


def test_wall_pattern_rows_shift_right():
    """Player board (setup): row 1 reads blue yellow red black white, each row below shifted one step right."""
    assert COLOURS == ("blue", "yellow", "red", "black", "white")
    r = AzulRules("colored", 2, {})
    assert free_colours(r, 0, 1) == [0, 1, 2, 3, 4]
    s = play([[wall(0, [[2, "white"]]), wall(1, [])]])
    assert s.rules.cells[0][5 + 0] == COLOURS.index("white") + 1  # row 2 starts with white


def test_isolated_tile_scores_1():
    """計分: no neighbour horizontally or vertically → 1 point (Peter's red on row 2, blue on row 4: 1 each)."""
    assert placement_points(0, 1, 2) == 1
    s = play([[wall(0, [[2, "red"], [4, "blue"]]), wall(1, [])]])
    assert s.scores == [2, 0]


def test_three_horizontal_scores_3():
    """計分 example: 3 tiles connected horizontally including the new one → 3."""
    assert placement_points(bits((0, 0), (0, 1)), 0, 2) == 3


def test_three_vertical_scores_3():
    """計分 example: 3 tiles connected vertically → 3."""
    assert placement_points(bits((0, 1), (2, 1)), 1, 1) == 3


def test_two_above_and_two_left_scores_6_not_5():
    """計分 (zh-TW) and 得点計算 (ja): each run counts the new tile, so 2 tiles above and 2 to
    the left make 3 + 3 = 6. The Japanese sheet's example says 5 for this case; its own rule
    and the Chinese edition give 6, which the device follows."""
    assert placement_points(bits((0, 2), (1, 2), (2, 0), (2, 1)), 2, 2) == 6


def test_four_horizontal_and_three_vertical_scores_7():
    """計分 example: 4 horizontal and 3 vertical → 7."""
    assert placement_points(bits((1, 0), (1, 1), (1, 3), (0, 2), (2, 2)), 1, 2) == 7


def test_tiling_goes_top_to_bottom_whatever_the_entry_order():
    """牆面鋪磚 A: lines are checked top to bottom and each tile scores at once, so rows 3,1,2 of
    column 1 score 1 + 2 + 3 = 6 (entry order would give 1 + 1 + 3 = 5)."""
    s = play([[wall(0, [[3, "black"], [1, "blue"], [2, "white"]]), wall(1, [])]])
    assert s.scores[0] == 6


def test_floor_four_tiles_and_marker_lose_8():
    """計分 (floor): Peter has 4 tiles and the first-player marker on his floor → loses 8 (1+1+2+2+2).
    Round 1: column 1 rows 1-3 = 1+2+3 = 6. Round 2: rows 4-5 of column 1 = 4 + 5 = 9 → 15; floor 5 → 15 - 8 = 7."""
    assert floor_penalty(5) == 8
    assert floor_penalty(7) == 14
    s = play([[wall(0, [[1, "blue"], [2, "white"], [3, "black"]]), wall(1, [])],
              [wall(0, [[4, "red"], [5, "yellow"]], floor=5), wall(1, []), {"e": "first", "p": 0}]])
    assert s.scores == [7, 0]
    assert s.result()["breakdown"][0]["floor"] == -8


def test_score_never_drops_below_0():
    """計分 (floor): 'you never go below 0'. 6 points, then a full floor (−14) → 0, not −8."""
    s = play([[wall(0, [[1, "blue"], [2, "white"], [3, "black"]], floor=7), wall(1, [], floor=1), {"e": "first", "p": 1}]])
    assert s.scores == [0, 0]
    assert s.result()["breakdown"][0]["floor"] == -6  # only what was actually lost


def test_end_bonuses_row_2_column_7_colour_10():
    """遊戲結束: +2 per complete row, +7 per complete column, +10 per colour with all 5 tiles.
    Placements by round (worked in the docstring of each line): 15, 24, 6, 5, 6 = 56;
    bonuses: row 1 (2) + columns 1, 2 (14) + all five blue (10) = 26 → 82."""
    rounds = [
        [wall(0, [[1, "blue"], [2, "white"], [3, "black"], [4, "red"], [5, "yellow"]])],  # 1+2+3+4+5
        [wall(0, [[1, "yellow"], [2, "blue"], [3, "white"], [4, "black"], [5, "red"]])],  # 2+4+5+6+7
        [wall(0, [[1, "red"], [3, "blue"]])],  # 3+3
        [wall(0, [[1, "black"], [4, "blue"]])],  # 4+1
        [wall(0, [[1, "white"], [5, "blue"]])],  # 5+1
    ]
    for evs in rounds:
        evs.append(wall(1, [], floor=1))
        evs.append({"e": "first", "p": 1})
    s = play(rounds)
    assert [r[0] for r in s.rules.round_scores] == [15, 39, 45, 50, 82]
    assert s.finished and s.round == 5
    b = s.result()["breakdown"][0]
    assert (b["row_bonus"], b["column_bonus"], b["colour_bonus"]) == (2, 14, 10)
    assert s.scores == [82, 0]
    assert s.winners() == [0] and s.tiebreak() is None


def _tie_game(p1_rows):
    rounds = []
    for i, colour in enumerate(COLOURS):
        evs = [wall(0, [[1, colour]])]
        if i == 0:
            evs.append(wall(1, p1_rows[0], floor=3))
        elif i == 1:
            evs.append(wall(1, p1_rows[1], floor=1))
        else:
            evs.append(wall(1, []))
        rounds.append(evs)
    return play(rounds)


def test_tie_goes_to_most_complete_rows():
    """遊戲結束: tie on points → the most complete horizontal rows wins.
    P1: row 1 over five rounds 1+2+3+4+5 = 15, +2 row = 17, one row.
    P2: column 1 rows 1-4 (10), floor 3 (−4); row 5 (5), floor 1 (−1) → 10, +7 column = 17, no row."""
    s = _tie_game(([[1, "blue"], [2, "white"], [3, "black"], [4, "red"]], [[5, "yellow"]]))
    assert s.scores == [17, 17]
    assert s.winners() == [0]
    assert s.tiebreak() == "most complete horizontal rows"
    assert s.standings() == [(1, 0), (2, 1)]


def test_tie_on_points_and_rows_is_shared():
    """遊戲結束: still tied after rows → shared victory."""
    rounds = [[wall(0, [[1, c]]), wall(1, [[1, c]])] for c in COLOURS]
    s = play(rounds)
    assert s.scores == [17, 17] and s.winners() == [0, 1]
    assert s.tiebreak() == "shared"
    assert s.standings() == [(1, 0), (1, 1)]


def test_game_ends_after_the_round_a_row_completes():
    """遊戲目標/遊戲結束: the game ends after the wall-tiling of the round in which a row is completed;
    the device warns during that round."""
    s = _tie_game(([], []))
    assert s.finished and s.round == 5
    raises(RuleError, s.add, wall(0, []), match="the game is over")
    s.undo()  # back into round 5, before its end_round
    assert not s.finished and s.last_round()


def test_row_already_has_colour_is_refused_with_line_number():
    """Placing (花樣排): a line may not take a colour its wall row already holds."""
    text = "\n".join(dumps(x) for x in [
        new_header("azul", "colored", ["Ann", "Ben"]),
        wall(0, [[2, "blue"]]), wall(1, []), {"e": "end_round"},
        wall(0, [[2, "blue"]])]) + "\n"
    msg = raises(RuleError, replay, text)
    assert msg == "line 5: row 2 already has blue on the wall", msg


def test_bad_entries_are_refused():
    s = Session(new_header("azul", "colored", ["A", "B", "C"]))
    raises(RecordError, s.add, wall(3, []), match="wall p must be a whole number 0..2, got 3")
    raises(RecordError, s.add, wall(0, [], floor=8), match="wall floor must be a whole number 0..7, got 8")
    raises(RecordError, s.add, wall(0, [[6, "blue"]]), match="row must be a whole number 1..5, got 6")
    raises(RecordError, s.add, wall(0, [[1, "pink"]]), match="unknown colour")
    raises(RuleError, s.add, wall(0, [[1, "blue"], [1, "red"]]), match="row 1 is listed twice")
    raises(RuleError, s.add, {"e": "end_round"}, match="round 1 still needs the wall of player 1, player 2, player 3")
    s.add(wall(0, []))
    raises(RuleError, s.add, {"e": "first", "p": 0}, match="floor was entered as 0")
    raises(RuleError, s.add, wall(0, []), match="already entered")
    s.add({"e": "first", "p": 1})
    raises(RuleError, s.add, wall(1, []), match="holds the first-player marker")
    assert s.scores == [0, 0, 0] and len(s.pending()) == 2


def test_start_player_follows_the_marker():
    """C. 準備下一輪: the marker's holder starts the next round."""
    s = Session(new_header("azul", "colored", ["A", "B", "C"], {"start": 2}))
    assert s.start_player == 2
    for p in range(3):
        s.add(wall(p, [], floor=1 if p == 1 else 0))
    s.add({"e": "first", "p": 1})
    s.add({"e": "end_round"})
    assert s.start_player == 1 and s.round == 2


def test_grey_wall_column_rule():
    """變體規則: any cell of the row, but no column may hold two tiles of one colour."""
    s = play([[wall(0, [[1, 3, "blue"]]), wall(1, [])]], variant="grey")
    assert grey_columns(s.rules, 0, 2, COLOURS.index("blue")) == [1, 2, 4, 5]
    raises(RuleError, s.add, wall(0, [[2, 3, "blue"]]), match="column 3 already has blue on the wall")
    raises(RuleError, s.add, wall(0, [[1, 3, "red"]]), match="row 1, column 3 is already filled")
    raises(RuleError, s.add, wall(0, [[2, 1, "red"], [3, 1, "red"]]), match="column 1 already has red")
    s.add(wall(0, [[2, 2, "red"], [3, 3, "red"]]))  # diagonal to row 1 column 3: both isolated, 1 + 1
    assert s.scores[0] == 1 + 1 + 1


def test_grey_wall_overflow_to_floor():
    """變體規則 special case: a complete line whose tile has no legal cell sends ALL its tiles to the floor;
    beyond the 7th slot they go to the lid. Row 2 cols 1-4 hold yellow, red, black, white; blue is in
    column 5 of row 1 → a complete blue line 2 has no cell: its 2 tiles go to the floor."""
    s = play([[wall(0, [[1, 5, "blue"], [2, 1, "yellow"]]), wall(1, [])],
              [wall(0, [[2, 2, "red"]]), wall(1, [])],
              [wall(0, [[2, 3, "black"]]), wall(1, [])],
              [wall(0, [[2, 4, "white"]]), wall(1, [])]], variant="grey")
    blue = COLOURS.index("blue")
    assert grey_columns(s.rules, 0, 2, blue) == []
    assert blue not in free_colours(s.rules, 0, 2)
    raises(RuleError, s.add, wall(0, [[2, 5, "blue"]]), match="column 5 already has blue")
    before = s.scores[0]
    s.add(wall(0, [], floor=2))  # the two blue tiles on floor slots 1 and 2: -1 -1
    assert s.scores[0] == before - 2
    # the floor has 7 slots: tiles beyond them go to the lid, so 7 is the most entered
    raises(RecordError, s.add, wall(1, [], floor=8), match="wall floor must be a whole number 0..7")


BLUE_ROWS = [[r, "blue"] for r in range(1, 6)]   # lines 1..5 complete in blue: 15 tiles


def test_twenty_tiles_of_a_colour_two_players():
    """遊戲設置 4: 100 tiles, 20 of each colour. Two players completing lines 1-5 in blue in
    round 1 would need 15 + 15 = 30 blue tiles at once: refused. 15 + line 1 and line 4
    (1 + 4) = 20 fits; 15 + line 5 + line 1 (5 + 1) = 21 does not."""
    s = play([], n=2)
    s.add(wall(0, BLUE_ROWS))
    raises(RuleError, s.add, wall(1, BLUE_ROWS),
           match="only 20 blue tiles exist: 0 on the walls before this round + 30 in lines completed this round")
    raises(RuleError, s.add, wall(1, [[5, "blue"], [1, "blue"]]), match="+ 21 in lines completed this round")
    s.add(wall(1, [[1, "blue"], [4, "blue"]]))
    assert s.pending() == []


def test_twenty_tiles_count_the_walls_of_earlier_rounds():
    """B. 牆面鋪磚 B) and C. 準備下一輪: a completed line's other tiles go to the box lid and
    back into the bag; the tile on the wall stays. Round 1: four players complete line 5 in
    blue: 4 x 5 = 20 tiles at once, allowed; 4 blue tiles stay on the walls. Round 2: lines 3
    and 4 of two players (2 x 7 = 14): 4 + 14 = 18; line 3 of a third player makes 21,
    line 2 makes 20. Round 3 starts from the 9 blue tiles then on the walls."""
    s = play([[wall(p, [[5, "blue"]]) for p in range(4)]], n=4)
    assert s.round == 2
    s.add(wall(0, [[3, "blue"], [4, "blue"]]))
    s.add(wall(1, [[3, "blue"], [4, "blue"]]))
    raises(RuleError, s.add, wall(2, [[3, "blue"]]),
           match="only 20 blue tiles exist: 4 on the walls before this round + 17 in lines completed this round")
    s.add(wall(2, [[2, "blue"]]))
    s.add(wall(3, [[1, "red"]]))
    s.add({"e": "end_round"})
    # round 3: the walls hold 4 + 2 + 2 + 1 = 9 blue tiles; 9 + 8 (lines 1, 3, 4) = 17
    s.add(wall(2, [[1, "blue"], [3, "blue"], [4, "blue"]]))
    raises(RuleError, s.add, wall(3, [[1, "blue"], [3, "blue"]]),
           match="only 20 blue tiles exist: 9 on the walls before this round + 12 in lines completed this round")
    s.add(wall(3, [[3, "blue"]]))   # 9 + 8 + 3 = 20


def test_twenty_tiles_on_the_grey_wall():
    """變體規則: the grey wall changes where a tile goes, not how many tiles there are."""
    s = play([], n=2, variant="grey")
    s.add(wall(0, [[r, r, "red"] for r in range(1, 6)]))
    raises(RuleError, s.add, wall(1, [[5, 1, "red"], [2, 3, "red"]]), match="only 20 red tiles exist")
    s.add(wall(1, [[5, 1, "red"]]))


def test_wall_change_is_the_score_change_apply_makes():
    """wall_change (the entry form's check at every value) scores and refuses a wall entry
    exactly as entering it does, and leaves the state as it was: every wall of two engine
    games, also with floor 2 and with a red tile added on each row (often refused)."""
    from rules_core.azul_engine import random_game
    for variant in ("colored", "grey"):
        header, events = random_game(3, 4, variant)[:2]
        s = ReadBack(header)
        checked = refused = 0
        for ev in events:
            if ev["e"] == "wall":
                trials = [ev, dict(ev, floor=2)]
                for r in range(1, 6):
                    red = [r, 1, "red"] if variant == "grey" else [r, "red"]
                    trials.append(dict(ev, tiles=ev["tiles"] + [red]))
                for trial in trials:
                    before = repr(sorted(s.rules.__dict__.items()))
                    try:
                        want = s.preview(trial)[trial["p"]]
                    except ValueError as e:
                        raises(type(e), s.rules.wall_change, trial, match=str(e))
                        refused += 1
                    else:
                        assert s.rules.wall_change(trial) == want
                        checked += 1
                    assert repr(sorted(s.rules.__dict__.items())) == before
            s.add(ev)
        assert checked > 50 and refused > 20, (checked, refused)
