"""Records no table could produce are refused, naming the line: the supply each rulebook
fixes (docs/rules_notes.md says which line of it each refusal rests on). Every record here
is written by hand, line by line; the one just within each limit replays.
"""
import json

from checks import raises
from rules_core import RecordError, RuleError
from rules_core.session import replay

SINTRA_COLS = ["pink", "orange", "yellow", "green", "blue", "pink"]   # rounds I..VI


def record(game, variant, n, events, options=None):
    """A record's text: the header, then one line an event ("e": end_round)."""
    lines = [{"format": "azul-companion-record", "v": 1, "game": game, "variant": variant,
              "players": ["P%d" % (p + 1) for p in range(n)], "options": options or {}}]
    for e in events:
        lines.append({"e": "end_round"} if e == "e" else e)
    return "".join(json.dumps(x) + "\n" for x in lines)


def refused(text, match, exc=RuleError):
    """The record is refused, its message naming the line and the rule; the message."""
    return raises(exc, replay, text, match=match)


def plays(text):
    return replay(text)[0]


# ---- Azul --------------------------------------------------------------------------------
def wall(p, rows, floor, colours=("blue", "yellow", "red", "black", "white")):
    """A wall entry completing `rows` (1..5), each in the colour listed for its row."""
    return {"e": "wall", "p": p, "tiles": [[r, colours[r - 1]] for r in rows], "floor": floor}


def test_azul_round_1_brings_out_the_factories_tiles():
    """遊戲設置 3, 5: 2 players play with 5 factories of 4 tiles, 20 tiles a round, and round 1
    starts with empty pattern lines: P1 completes rows 1..5 (15 tiles) and drops 3 on the
    floor (18), P2 completes row 2 (2) with the marker alone on the floor: 20 tiles and the
    marker. One more floor slot for P2 needs 21."""
    ok = [wall(0, [1, 2, 3, 4, 5], 3), wall(1, [2], 1), {"e": "first", "p": 1}, "e"]
    assert plays(record("azul", "colored", 2, ok)).round == 2
    refused(record("azul", "colored", 2, [ok[0], wall(1, [2], 2)]),
            "line 3: round 1 brings out at most 20 tiles (5 factories of 4): the lines completed "
            "and floors entered need 21 and the marker")
    # 3 players: 7 factories, 28 tiles; 4 players: 9 factories, 36 tiles
    three = [wall(0, [1, 2, 3, 4, 5], 7), wall(1, [1, 2, 3], 0), wall(2, [], 1)]
    assert plays(record("azul", "colored", 3, three)).round == 1
    refused(record("azul", "colored", 3, three[:2] + [wall(2, [], 2)]),
            "line 4: round 1 brings out at most 28 tiles (7 factories of 4): the lines completed and floors entered need 29")
    four = [wall(0, [1, 2, 3, 4, 5], 7), wall(1, [4, 5], 5), wall(2, [1], 0)]
    assert plays(record("azul", "colored", 4, four)).round == 1
    refused(record("azul", "colored", 4, four[:2] + [wall(2, [2], 0)]),
            "line 4: round 1 brings out at most 36 tiles (9 factories of 4): the lines completed and floors entered need 37")


def test_azul_later_rounds_count_what_incomplete_lines_kept():
    """B. 牆面鋪磚: a line not complete keeps its tiles for the next round, one completed gives
    all of them up. Round 2 of 2 players (20 tiles): P1 completes row 5 again (it did in round
    1: 5 new tiles) and row 4 (kept up to 3 tiles: 1 new) and drops 7 on the floor, 13; P2
    completes row 4 (1 new) with 7 on the floor, 8: 21, the marker one of them. P2 completing
    row 3 as well needs one more."""
    black = ("blue", "yellow", "red", "black", "black")  # (row 5 has white from round 1)
    round1 = [wall(0, [5], 0), wall(1, [], 1), "e"]
    ok = round1 + [wall(0, [4, 5], 7, black), wall(1, [4], 7)]
    assert plays(record("azul", "colored", 2, ok)).round == 2
    refused(record("azul", "colored", 2, round1 + [ok[3], wall(1, [3, 4], 7)]),
            "line 6: round 2 brings out at most 20 tiles (5 factories of 4): the lines completed "
            "and floors entered need 21 and the marker")


def test_azul_grey_wall_floor_may_hold_tiles_kept_in_lines():
    """變體規則: a complete line whose tile has no cell goes to the floor whole, tiles kept
    from earlier rounds too. In round 2, P2's 7 floor slots may be lines 2..5 of round 1
    dropped (up to 10 tiles kept), and P1's lines 1..3 may have dropped 3: the round needs
    13 tiles, where the coloured wall needs 23 (P1's 9 and 7, P2's 7)."""
    grey = [{"e": "wall", "p": 0, "tiles": [[4, 1, "red"], [5, 1, "black"]], "floor": 0}, wall(1, [], 1), "e",
            {"e": "wall", "p": 0, "tiles": [[4, 2, "blue"], [5, 2, "white"]], "floor": 7}, wall(1, [], 7)]
    assert plays(record("azul", "grey", 2, grey)).round == 2
    coloured = [wall(0, [4, 5], 0), wall(1, [], 1), "e", wall(0, [4, 5], 7, ("",) * 3 + ("blue", "yellow")), wall(1, [], 7)]
    refused(record("azul", "colored", 2, coloured), "line 6: round 2 brings out at most 20 tiles (5 factories of 4): "
            "the lines completed and floors entered need 22 and the marker")


# ---- Stained Glass of Sintra ---------------------------------------------------------------
def win(p, col, keep, bonus=0):
    return {"e": "window", "p": p, "col": col, "keep": keep, "bonus": bonus}


def broken(p, n):
    return {"e": "broken", "p": p, "n": n}


def sintra(events, n=2, board=None):
    options = {"round_colors": SINTRA_COLS}
    if board is not None:
        options["board"] = board
    return record("sintra", "A", n, events, options)


def test_sintra_round_brings_out_the_factories_panes():
    """遊戲設置 1, 8 and 第二步: 2 players, 5 factories of 4 panes, and every pane taken fills a
    strip or breaks. Round I starts with empty strips: 4 strips completed take all 20 panes;
    a fifth strip, or one pane more broken, cannot be."""
    four = [win(0, 1, "blue"), win(0, 2, "blue"), win(1, 1, "blue"), win(1, 2, "blue")]
    assert plays(sintra(four + ["e"])).round == 2
    refused(sintra(four + [win(1, 3, "blue")]),
            "line 6: round 1 brings out at most 20 panes (5 factories of 4): the strips completed "
            "and glass broken need 25")
    refused(sintra(four + [broken(0, 1)]), "line 6: round 1 brings out at most 20 panes")
    refused(sintra([broken(0, 12), broken(1, 9)]), "line 3: round 1 brings out at most 20 panes")


def test_sintra_strips_keep_their_panes_over_rounds():
    """第三步: a strip keeps its panes until it holds 5, so from round II a strip completed may
    need only 1 new pane; once completed its strip is flipped (3b), empty: completing it
    again in the round takes 5. Round II: 8 strips (8) and strip 1 again (5) with 7 broken
    is 20; one more pane broken is not."""
    round2 = ["e"] + [win(0, c, "blue") for c in range(1, 9)] + [win(0, 1, "pink"), broken(1, 7)]
    assert plays(sintra(round2)).scores[0] > 0
    refused(sintra(round2 + [broken(1, 1)]), "line 13: round 2 brings out at most 20 panes (5 factories of 4)")


def test_sintra_a_colour_has_20_panes():
    """遊戲配件: 20 panes of each colour; kept panes stay in the windows (3b) and the round
    indicator holds one for each round not yet ended (遊戲設置 7): green shows on round IV's.
    4 players (36 panes a round): 7 green kept in round I, 12 more in round II make 19 with
    the indicator's; a 20th kept in round II cannot be. Nor, in round IV (green), a strip
    with one green pane besides 19 kept and the indicator's."""
    round1 = [win(0, c, "green") for c in (1, 2, 3, 4)] + [win(1, c, "green") for c in (1, 2, 3)] + ["e"]
    round2 = [win(2, c, "green") for c in range(1, 9)] + [win(3, c, "green") for c in (1, 2, 3, 4)]
    text = sintra(round1 + round2, 4)
    assert plays(text).round == 2
    refused(sintra(round1 + round2 + [win(3, 5, "green")], 4),
            "line 22: only 20 green panes exist: 20 kept in windows, 1 on the round indicator, 0 on this strip")
    round4 = ["e", "e", win(3, 8, "orange", 0)]
    assert plays(sintra(round1 + round2 + round4, 4)).round == 4
    refused(sintra(round1 + round2 + round4[:2] + [win(3, 8, "orange", 1)], 4),
            "line 24: only 20 green panes exist: 19 kept in windows, 1 on the round indicator, 1 on this strip")


def test_sintra_board_data_is_held_to_the_device_entry():
    """The record reader is as strict as the device's own entry (Settings > Sintra board):
    a track of 13 spaces from 0 to -18 (遊戲結束 note) that never rises, 8 window values
    0..9, side A's 4 ornaments each between two neighbouring windows (遊戲結束 3) A面)."""
    track = [0, -1, -2, -3, -4, -5, -6, -8, -10, -12, -14, -16, -18]
    orn = [[1, 2], [3, 4], [5, 6], [7, 8]]
    good = {"windows": [1, 2, 1, 2, 1, 2, 1, 2], "track": track, "ornaments": orn}
    assert replay(sintra([], board=good))[1] == []
    for key, bad, words in (("track", track[:7] + [-18], "track: 13 spaces 0 .. -18"),
                            ("track", [-1] + track[1:], "track: 13 spaces 0 .. -18"),
                            ("track", track[:5] + [-3] + track[6:], "track rises at space 6"),
                            ("windows", [1, 2, 1, 2, 1, 2, 1, 12], "windows: 8 values 0..9"),
                            ("ornaments", orn[:3], "ornaments: 4 window pairs"),
                            ("ornaments", orn[:3] + [[6, 8]], "ornaments: 4 window pairs"),
                            ("ornaments", orn[:3] + [[1, 2]], "2 ornaments at win 1-2")):
        board = dict(good)
        board[key] = bad
        refused(sintra([], board=board), "line 1: options.board " + words, RecordError)


# ---- Queen's Garden ------------------------------------------------------------------------
def gev(e, p, **fields):
    fields["e"] = e
    fields["p"] = p
    return fields


def garden_game(buys, gardens):
    """2 players: P1 buys `buys` expansions, 2 in round 1 (15 points), the rest in rounds 2 and
    3 from the 198 points of each round before (all 54 hexagons of each category and 36
    pillars); round 4's final entries give each garden's groups [(category, values)]."""
    out = []
    for rnd in (1, 2, 3, 4):
        n = min(buys, (2, 33, 33, 0)[rnd - 1])
        buys -= n
        out += [gev("buy", 0)] * n
        out += [gev("pass", 1), gev("pass", 0), gev("round_score", 1, matches=[0, 0, 0], pillars=0),
                gev("round_score", 0, matches=[54, 54, 54], pillars=36)]
        if rnd < 4:
            out.append("e")
    for p in (0, 1):
        out += [gev("reserve", p, jokers=0, values=[], expansions=[]),
                gev("garden", p, groups=[{"of": c, "values": v} for c, v in gardens[p]])]
    return record("garden", "standard", 2, out + ["e"])


def test_garden_36_expansions_to_buy():
    """遊戲設置 and C) 放置擴建組件: 36 expansions; a bought one is a face-down one from the
    supply, placed in the buyer's garden: a 37th buy cannot be."""
    assert plays(garden_game(36, ([], []))).finished
    text = garden_game(37, ([], []))
    last = [i for i, line in enumerate(text.split("\n")) if '"buy"' in line][-1]
    refused(text, "line %d: all 36 expansions are bought" % (last + 1))


def test_garden_three_tiles_of_each_hexagon():
    """遊戲設置 and 花紋: 108 tiles, 3 of each hexagon (6 colours x 6 patterns); beyond them a
    hexagon is on a face-up expansion. With 35 expansions bought, one is left: two full blue
    groups in each garden put each blue hexagon 4 times in the gardens, 6 beyond the tiles."""
    full = [1, 2, 3, 4, 5, 6]
    one = [("blue", full), ("blue", full)]
    assert plays(garden_game(35, (one, [("blue", full)]))).finished
    text = garden_game(35, (one, one))
    refused(text, "line %d: the colour groups hold 6 hexagons beyond the 3 tiles of each, more than the 1 expansions "
            "left can show" % (text.count("\n") - 1))   # (P2's garden)


def test_garden_eighteen_tiles_of_each_pattern():
    """遊戲設置 and 花紋: each pattern is on 18 tiles (6 colours x 3). Four tree groups of 6 in
    two gardens are 24 trees, 6 beyond the tiles: not with one expansion left."""
    trees = [("tree", [1] * 6), ("tree", [1] * 6)]
    text = garden_game(35, (trees, trees))
    refused(text, "line %d: the pattern groups and reserve tiles hold 6 hexagons beyond the 18 tiles of each pattern"
            % (text.count("\n") - 1))
    assert plays(garden_game(30, (trees, trees))).finished


# ---- 5211 ----------------------------------------------------------------------------------
def test_5211_one_deck_holds_each_card_as_printed():
    """內容物: each colour has one 6, one 5, two 4s... : a deck cannot reveal a second blue 6."""
    plays_ = [{"e": "play", "p": 0, "cards": [["blue", 6], ["teal", 2]]},
              {"e": "play", "p": 1, "cards": [["blue", 6], ["green", 2]]}]
    refused(record("5211", "standard", 2, plays_), "line 3: no blue 6 left in the deck")
