"""Checking a claimed Azul score (rules_core.verify), on every interpreter: walls worked by hand
from the rulebook (seed 002: 計分, B. 牆面鋪磚 top to bottom, 遊戲結束). tests/test_verify.py
holds the brute force over every legal order."""
from rules_core.verify import Check, Range, parse_wall


def test_three_in_a_row_score_5_to_6():
    """計分: the ends first, then the middle (1 + 1 + 3); or one beside the other (1 + 2 + 3)."""
    assert Range(parse_wall("xxx..,.....,.....,.....,.....")).run() == (5, 6)


def test_a_complete_row_lands_its_last_tile_in_the_final_round():
    """遊戲結束: the round that completes row 1 is the last, so 4 of its tiles come first,
    one a round. The most: 1 + 2 + 3 + 4, then the fifth at an end (5): 15. The fewest: the
    last tile second from the left (5) after the lone first (1) and the other three as
    1 + 1 + 3: 11. Bonus: the row (+2)."""
    c = Check(parse_wall("xxxxx,.....,.....,.....,....."))
    assert c.run() == (13, 17) and c.placement.run() == (11, 15) and c.bonus == 2


def test_a_row_completed_with_a_tile_below_it():
    """A complete row 1 and a tile below its first. Most: the tile below (1), row 1 grown
    from the right (1 + 2 + 3 + 4), its first tile last (5 across + 2 down): 18. Fewest: the
    final round's tile second from the left (5), after the first with the tile below it
    (1 + 2) and the three on the right (1 + 1 + 3): 13."""
    assert Range(parse_wall("xxxxx,x....,.....,.....,.....")).run() == (13, 18)


def test_tiles_that_never_touch_score_1_each():
    """計分: a tile with no neighbour scores 1, whatever the order."""
    assert Check(parse_wall("x.x.x,.....,x.x.x,.....,x.x.x")).run() == (9, 9)


def test_the_most_of_a_full_wall_is_proved_by_an_order():
    """The well-known 240: 145 placement points (each row and column grown from one tile, 5
    tiles starting both) and 95 of bonuses; the most alone (dp=False) needs no programme over
    the subsets: a bound and an order that scores it."""
    c = Check((1 << 25) - 1, dp=False)
    assert c.run() == (None, 240) and c.placement.high == 145
