"""Queen's Garden scoring, numbers worked out by hand from the rulebook (shared/seeds/000_*)."""
# Kept small: MicroPython compiles this file on a 64 KB heap (tests/core/mp_runner.py).
from app.current import clone
from checks import raises
from rules_core import RecordError, RuleError
from rules_core.garden import GardenRules, group_score, category_values, CATEGORIES, PARTS


def ev(e, p, **fields):
    fields["e"] = e
    fields["p"] = p
    return fields


def buy(g, p):
    g.apply(ev("buy", p))


def pas(g, p, *discard):
    g.apply(ev("pass", p, discard=list(discard)))


def rs(g, p, matches, pillars):
    g.apply(ev("round_score", p, matches=matches, pillars=pillars))


def end(g):
    g.apply({"e": "end_round"})


def final(g, p, jokers, values, groups):
    # reserve and garden of p; groups: (category, values) pairs
    g.apply(ev("reserve", p, jokers=jokers, values=values))
    g.apply(ev("garden", p, groups=[{"of": c, "values": v} for c, v in groups]))


def quiet_rounds(g, n):
    # n rounds where everyone passes in seat order and scores nothing (p0 passes first)
    for _ in range(n):
        for p in (0, 1):
            pas(g, p)
        for p in (0, 1):
            rs(g, p, [0, 0, 0], 0)
        if g.round < 4:
            end(g)


def test_start_score_and_categories():
    """遊戲設置 start 15; 最終計分 check track (colours, then patterns); 花紋 values."""
    g = GardenRules(None, 4, None)
    assert g.scores == [15] * 4 and g.rounds_total == 4 and g.breakdown(2)["total"] == 15
    assert CATEGORIES[0] == "blue" and CATEGORIES[6:9] == ("tree", "bird", "butterfly")
    assert [category_values(c)[0] for c in CATEGORIES[6:]] == [1, 2, 3, 4, 5, 6]
    assert category_values("lilac") == (1, 2, 3, 4, 5, 6)


def test_group_scores():
    """最終計分: a group scores its hexagons' values, +6 for exactly 6."""
    assert group_score("blue", [1, 2, 3, 4, 5, 6]) == (21, 6)     # 1+..+6, + 6
    assert group_score("butterfly", [3, 3, 3]) == (9, 0)          # 3+3+3
    assert group_score("tree", [1] * 6) == (6, 6)
    assert group_score("yellow", [1, 2, 4, 6, 5]) == (18, 0)      # 5 hexagons: no bonus


def test_group_validation():
    """最終計分 (>= 3 hexagons), 放置瓷磚 (no two identical hexagons in a group)."""
    raises(RuleError, group_score, "blue", [1, 2], match="blue group scores with 3+ hexagons, got 2")
    raises(RuleError, group_score, "blue", [1, 2, 2], match="blue group has two bird")
    raises(RuleError, group_score, "butterfly", [3, 3, 4], match="only value 3, got 4")
    raises(RuleError, group_score, "bird", [2] * 7, match="holds at most 6")
    raises(RecordError, group_score, "red", [1, 2, 3], match="'red' is not a category")
    raises(RecordError, group_score, "blue", [1, 2, 7], match="blue group values must be whole numbers 1..6, got 7")


def test_buy_costs_6_refused_below_0():
    """C) 放置擴建組件: a face-down expansion costs 6; the score may not drop below 0."""
    g = GardenRules("standard", 2, {})
    buy(g, 0)
    buy(g, 0)
    assert g.scores == [3, 15] and not g.can_buy(0) and g.can_buy(1)
    raises(RuleError, buy, g, 0, match="player 1 has 3 points")
    pas(g, 1, 6, 3)           # 15 - 1 - 9 = 5
    pas(g, 0)
    rs(g, 1, [1, 0, 0], 0)    # 6: one more buy reaches exactly 0
    rs(g, 0, [0, 0, 0], 0)
    end(g)
    buy(g, 1)
    assert g.scores == [3, 0] and g.breakdown(0)["bought"] == -12


def test_pass_first_loses_1_and_discards():
    """D) 略過: discards lose their values; only the first to pass loses 1 and starts next."""
    g = GardenRules("standard", 3, {})
    pas(g, 1, 2, 4)           # first: 15 - 1 - 6 = 8
    assert g.first_to_pass() == 1 and g.to_pass() == [0, 2]
    pas(g, 2, 1, 1, 5)        # 15 - 7 = 8
    pas(g, 0)
    assert g.scores == [15, 8, 8] and g.breakdown(1)["first_pass"] == -1
    for p in range(3):
        rs(g, p, [0, 0, 0], 0)
    end(g)
    assert g.start_player == 1 and g.first_to_pass() is None and g.to_pass() == [1, 2, 0]


def test_pass_may_take_score_below_0():
    """D) 略過 sets no floor (only buying does, C): 15 - 6 - 6 - 1 - 6 = -4."""
    g = GardenRules("standard", 2, {})
    buy(g, 0)
    buy(g, 0)
    pas(g, 0, 6)
    assert g.scores[0] == -4


def test_hexagon_matching_two_categories_scores_twice():
    """階段二：計分: a hexagon matching two wheel categories scores 2."""
    # wheel blue / butterfly / flower; garden blue tree, blue butterfly, yellow butterfly, lilac
    # flower, 2 pillars. The blue butterfly is in the blue AND the butterfly count:
    # matches [2, 2, 1] = 5 from 4 hexagons, + 2 pillars = 7
    g = GardenRules("standard", 2, {})
    pas(g, 0)
    rs(g, 0, [2, 2, 1], 2)
    assert g.scores == [14 + 7, 15]


def test_variant_side_points_as_printed():
    """變體規則: category points entered as printed (9), pillars still +1 each (3)."""
    g = GardenRules("variant", 2, {})
    pas(g, 0)
    g.apply(ev("round_score", 0, points=9, pillars=3))
    assert g.scores == [14 + 12, 15]
    pas(g, 1)
    raises(RecordError, rs, g, 1, [1, 1, 1], 0, match="variant side takes points")


def test_final_round():
    """最終計分: reserve +1 per joker, - each value left; 遊戲結束: end_round closes the game."""
    g = GardenRules("standard", 2, {})
    quiet_rounds(g, 3)        # p0 passed first 3 times: 12
    assert g.pending() == [("pass", 0), ("pass", 1), ("round_score", 0), ("round_score", 1),
                           ("reserve", 0), ("reserve", 1), ("garden", 0), ("garden", 1)]
    raises(RuleError, final, g, 0, 0, [], [], match="player 1 has not passed in round 4")
    quiet_rounds(g, 1)
    raises(RuleError, final, g, 0, 10, [1, 2, 3, 4, 5], [], match="got 10 jokers + 5")
    raises(RecordError, final, g, 0, 13, [], [], match="reserve jokers must be a whole number 0..12")
    final(g, 0, 2, [], [("bird", [2, 2, 2])])               # 11 + 2 + 6
    g.apply(ev("reserve", 1, jokers=3, values=[1, 4, 6]))   # 15 + 3 - 11
    assert g.scores == [19, 7] and g.pending() == [("garden", 1)]
    raises(RuleError, final, g, 0, 0, [], [], match="player 1 already has a reserve")
    raises(RuleError, g.apply, ev("garden", 1, groups=[{"of": "blue", "values": [3, 3, 1]}]),
           match="a blue group has two butterfly")
    raises(RecordError, g.apply, ev("garden", 1, groups=[[1]]), match="group must be an object")
    g.apply(ev("garden", 1, groups=[]))
    assert not g.finished and g.pending() == []
    end(g)
    assert g.finished and g.round == 4 and g.pending() == [] and g.scores == [19, 7]
    assert g.round_scores[-1] == [19, 7]
    raises(RuleError, buy, g, 0, match="game is over")


def test_order_validation():
    """D) 略過 and 階段二: each player passes once per round; scoring comes after passing."""
    g = GardenRules("standard", 2, {})
    raises(RuleError, rs, g, 0, [1, 1, 1], 0, match="player 1 has not passed in round 1")
    raises(RuleError, end, g, match="missing pass of player 1, pass of player 2, round_score")
    raises(RuleError, final, g, 0, 0, [], [], match="reserve is final scoring, not for round 1")
    pas(g, 0)
    raises(RuleError, pas, g, 0, match="player 1 already has a pass")
    raises(RuleError, buy, g, 0, match="player 1 passed: no buying")
    rs(g, 0, [1, 0, 0], 0)
    raises(RuleError, rs, g, 0, [1, 0, 0], 0, match="already has a round_score")
    pas(g, 1)
    raises(RecordError, g.apply, ev("round_score", 1, points=3, pillars=0),
           match="standard side takes matches")
    assert g.scores == [14 + 1, 15]   # refused events changed nothing


def test_field_validation():
    """Record fields: p in range, counts non-negative and bounded, values 1..6."""
    g = GardenRules("standard", 2, {})
    raises(RecordError, buy, g, 2, match="buy p must be a whole number 0..1, got 2")
    raises(RecordError, buy, g, True, match="got True")
    raises(RecordError, g.apply, ev("wall", 0), match="unknown garden event 'wall'")
    raises(RecordError, pas, g, 0, 0, match="pass discard must be whole numbers 1..6, got 0")
    raises(RecordError, pas, g, 0, *([1] * 15), match="pass discard must be a list of 0..14 whole numbers")
    pas(g, 0)
    raises(RecordError, rs, g, 0, [1, -1, 0], 0, match="round_score matches must be whole numbers 0..54, got -1")
    raises(RecordError, rs, g, 0, [1, 1], 0, match="round_score matches must be a list of 3..3 whole numbers")
    raises(RecordError, rs, g, 0, [1, 1, 1], -2, match="round_score pillars must be a whole number 0..36")
    raises(RecordError, GardenRules, "grey", 2, {}, match="garden has no variant 'grey'")
    raises(RecordError, GardenRules, "standard", 5, {}, match="garden needs 2 to 4 players, got 5")
    raises(RecordError, GardenRules, "standard", 2, {"x": 1}, match="no options")


def test_clone_is_independent():
    """Previews work on a copy that shares no state with the original."""
    g = GardenRules("standard", 2, {})
    c = clone(g)
    pas(c, 0)
    assert c.scores == [14, 15] and c.to_pass() == [1]
    assert g.scores == [15, 15] and g.to_pass() == [0, 1] and g.breakdown(0)["first_pass"] == 0


def test_complete_two_player_game():
    """進行遊戲 .. 最終計分: a whole 2-player game."""
    # by hand (A = p0, B = p1; totals after each round):
    # r1 A buys 9; B passes first, discards a bird 12; A passes; A 2+1+0 +1 pillar -> 13, B 1+1+1 -> 15
    # r2 (B starts) B first 14; A discards 1+3 -> 9; A 3+2+2 +1 -> 17; B 2+0+4 +2 -> 22
    # r3 (B starts) A first 16; B buys 16, discards 5 -> 11; A 4+3+1 +2 -> 26; B 2+2+2 +3 -> 20
    # r4 (A starts) A buys 20; B first 19; A discards 6 -> 14; A 5+4+3 +2 -> 28; B 3+3+3 +3 -> 31;
    # reserve A 2 jokers - (1+2) -> 27; garden A blue 21+6, butterfly 9 -> 63;
    # B yellow 1+2+4 = 7, lily 4x6 = 24, tree 6x1 + 6 = 12 -> 74
    g = GardenRules("standard", 2, {})
    buy(g, 0)
    pas(g, 1, 2)
    pas(g, 0)
    rs(g, 0, [2, 1, 0], 1)
    rs(g, 1, [1, 1, 1], 0)
    end(g)
    pas(g, 1)
    pas(g, 0, 1, 3)
    rs(g, 0, [3, 2, 2], 1)
    rs(g, 1, [2, 0, 4], 2)
    end(g)
    pas(g, 0)
    buy(g, 1)
    pas(g, 1, 5)
    rs(g, 0, [4, 3, 1], 2)
    rs(g, 1, [2, 2, 2], 3)
    end(g)
    buy(g, 0)
    pas(g, 1)
    pas(g, 0, 6)
    rs(g, 0, [5, 4, 3], 2)
    rs(g, 1, [3, 3, 3], 3)
    final(g, 0, 2, [1, 2], [("blue", [1, 2, 3, 4, 5, 6]), ("butterfly", [3, 3, 3])])
    final(g, 1, 0, [], [("yellow", [4, 1, 2]), ("lily", [6] * 4), ("tree", [1] * 6)])
    end(g)
    assert g.finished and g.round_scores == [[13, 15], [17, 22], [26, 20], [63, 74]]
    assert g.rank_key(1) > g.rank_key(0) and GardenRules.TIEBREAK is None
    # bought, discarded, first_pass, rounds, reserve, groups, group_bonus, side_bonus
    assert [g.breakdown(0)[k] for k in PARTS] == [-12, -10, -1, 36, -1, 30, 6, 0]
    assert [g.breakdown(1)[k] for k in PARTS] == [-6, -7, -3, 32, 0, 37, 6, 0]


def test_jokers_take_reserve_spaces():
    """拿取瓷磚和擴建組件: a reserve holds at most 12 tiles and 2 expansions; 遊戲設置: jokers
    sit in the reserve's empty spaces, so they take tile spaces. 最終計分: +1 per joker,
    minus each tile's and expansion's value. 12 jokers + 2 tiles is too many; 12 jokers +
    2 expansions (3 and 5) fill it: 12 - 8 = +4; 10 jokers, tiles 1 and 2, expansion 4: +3."""
    g = GardenRules("standard", 2, {})
    quiet_rounds(g, 4)   # player 1 passed first 4 times: 11
    full = ev("reserve", 0, jokers=12, values=[1, 2], expansions=[])
    raises(RuleError, g.apply, full, match="got 12 jokers + 2 tiles")
    raises(RecordError, g.apply, ev("reserve", 0, jokers=0, values=[], expansions=[1, 2, 3]),
           match="reserve expansions must be a list of 0..2 whole numbers")
    g.apply(ev("reserve", 0, jokers=12, values=[], expansions=[3, 5]))
    g.apply(ev("reserve", 1, jokers=10, values=[1, 2], expansions=[4]))
    assert g.scores == [11 + 4, 15 + 3]
    assert g.breakdown(0)["reserve"] == 4 and g.breakdown(1)["reserve"] == 3


def test_reserve_without_expansions_field_reads_older_records():
    """Records written before "expansions" list the expansions among "values": 12 jokers +
    2 values may be 2 expansions and is read (12 - 1 - 6 = +5); 12 jokers + 3 values is not."""
    g = GardenRules("standard", 2, {})
    quiet_rounds(g, 4)
    raises(RuleError, g.apply, ev("reserve", 0, jokers=12, values=[1, 6, 1]),
           match="got 12 jokers + 3 tiles and expansions")
    g.apply(ev("reserve", 0, jokers=12, values=[1, 6]))
    assert g.scores[0] == 11 + 5


def finish_round_4(g, p_first):
    """Round 4's phase 1 and 2 for two players who score nothing."""
    for p in (p_first, 1 - p_first):
        pas(g, p)
    for p in (0, 1):
        rs(g, p, [0, 0, 0], 0)


def test_final_scoring_before_or_after_the_last_end_round():
    """遊戲結束: after round 4's phase 2 "then the final scoring". The device enters reserve and
    garden before round 4's end_round, other tools after it: the same game either way.
    Player 1: 11 + 2 jokers - 3 + a bird group 2+2+2 = 16; player 2: 15 - 4 = 11."""
    finals = [ev("reserve", 0, jokers=2, values=[3]), ev("garden", 0, groups=[{"of": "bird", "values": [2, 2, 2]}]),
              ev("reserve", 1, jokers=0, values=[4]), ev("garden", 1, groups=[])]
    results = []
    for before in (True, False):
        g = GardenRules("standard", 2, {})
        quiet_rounds(g, 3)
        finish_round_4(g, 0)
        if not before:
            end(g)
            assert g.closed and not g.finished and g.pending() == [
                ("reserve", 0), ("reserve", 1), ("garden", 0), ("garden", 1)]
            raises(RuleError, buy, g, 0, match="round 4 has ended: only the final scoring (reserve, garden)")
        for e in finals:
            g.apply(e)
        if before:
            assert not g.finished and g.pending() == []
            end(g)
        assert g.finished and g.scores == [16, 11]
        results.append((g.scores, g.round_scores, [g.breakdown(p) for p in (0, 1)], g.start_player))
    assert results[0] == results[1]


def test_variant_side_end_bonus_as_printed():
    """變體規則: the variant side has more end-game bonuses ("最終計分時有更多額外得分辦法"),
    whose numbers the rulebook text does not print: each player's bonus, read off the board,
    is a final entry. Player 1: 11 + 9 = 20; player 2: 15 + 0 = 15. The standard side has no
    such entry."""
    g = GardenRules("variant", 2, {})
    for _ in range(4):
        for p in (0, 1):
            pas(g, p)
        for p in (0, 1):
            g.apply(ev("round_score", p, points=0, pillars=0))
        if g.round < 4:
            end(g)
    for p in (0, 1):
        final(g, p, 0, [], [])
    assert g.pending() == [("bonus", 0), ("bonus", 1)]
    end(g)
    raises(RecordError, g.apply, ev("bonus", 0, points=-1), match="bonus points must be a whole number 0..999")
    g.apply(ev("bonus", 0, points=9))
    assert not g.finished
    g.apply(ev("bonus", 1, points=0))
    assert g.finished and g.scores == [20, 15] and g.breakdown(0)["side_bonus"] == 9
    s = GardenRules("standard", 2, {})
    quiet_rounds(s, 4)
    raises(RuleError, s.apply, ev("bonus", 0, points=3), match="variant side only")
