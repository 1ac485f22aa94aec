"""Checking a claimed Azul score (rules_core.verify) against an independent brute force: every
legal sequence of rounds (a round places at most one tile a row, top to bottom, each scored
as it lands: 計分; the round that completes a row is the last: 遊戲結束), scored with the
rules' own placement_points (rules_core.azul)."""
import random

import pytest

from rules_core.azul import placement_points
from rules_core import verify
from rules_core.verify import Check, Range, parse_wall, wall_text

FULL = (1 << 25) - 1


def complete(mask):
    return [r for r in range(5) if mask >> (r * 5) & 31 == 31]


def every_total(wall):
    """The set of placement totals of every legal sequence of rounds that ends with `wall`."""
    memo = {}

    def future(placed):
        if placed == wall:
            return {0}
        if placed in memo:
            return memo[placed]
        out = set()
        left = wall & ~placed
        choices = [[None] + [r * 5 + c for c in range(5) if left >> (r * 5 + c) & 1] for r in range(5)]
        for pick in _product(choices):
            tiles = [t for t in pick if t is not None]
            if not tiles:
                continue
            mask = placed
            pts = 0
            for t in tiles:  # top to bottom (the rows in order)
                pts += placement_points(mask, t // 5, t % 5)
                mask |= 1 << t
            if len(complete(mask)) > len(complete(placed)) and mask != wall:
                continue  # a row completed: the game ends after this round, before the wall is whole
            out |= {pts + x for x in future(mask)}
        memo[placed] = out
        return out

    return future(0)


def _product(lists):
    if not lists:
        yield ()
        return
    for x in lists[0]:
        for rest in _product(lists[1:]):
            yield (x,) + rest


def random_wall(rng, tiles, rows=0):
    """A wall of `tiles` tiles, `rows` of them in complete rows."""
    full = rng.sample(range(5), rows)
    mask = 0
    for r in full:
        mask |= 31 << (r * 5)
    free = [t for t in range(25) if not mask >> t & 1 and t // 5 not in full]
    for t in rng.sample(free, tiles - 5 * rows):
        mask |= 1 << t
    return mask


def walls():
    rng = random.Random(37)
    out = [0, 1, 0b11111, 0b100001, 1 | 1 << 6 | 1 << 12, parse_wall("xxxxx,x....,x....,.....,....."),
           parse_wall(".....,..x..,.xxx.,..x..,....."), parse_wall("xx...,xx...,.....,...xx,...xx"),
           parse_wall("xxxxx,.x.x.,..x..,.....,....."), parse_wall("xxxxx,.....,.....,.....,xxx..")]
    for tiles in range(1, 9):
        for _ in range(12):
            out.append(random_wall(rng, tiles))
    for tiles in range(5, 9):
        for _ in range(12):
            out.append(random_wall(rng, tiles, 1))
    return out


@pytest.mark.parametrize("wall", walls(), ids=wall_text)
def test_the_range_is_that_of_every_legal_order(wall):
    """Up to 8 tiles, with and without a complete row: the fewest and the most placement
    points are those of the brute force; the most proved by an order alone (dp=False), where
    it is, is the same."""
    totals = every_total(wall)
    assert Range(wall).run() == (min(totals), max(totals))
    quick = Range(wall, dp=False).run()
    assert quick[0] is None and quick[1] in (None, max(totals))


def test_bigger_walls_against_the_brute_force():
    """Walls of 9 to 12 tiles, one or two rows complete (the brute force's memo keeps it quick)."""
    rng = random.Random(5)
    for tiles, rows in ((9, 1), (10, 1), (10, 2), (11, 2), (12, 1), (12, 2)):
        wall = random_wall(rng, tiles, rows)
        totals = every_total(wall)
        assert Range(wall).run() == (min(totals), max(totals)), wall_text(wall)


def test_a_tile_scores_as_the_rules_score_it():
    """verify.points() is the rules' placement_points (計分) for any wall and tile."""
    rng = random.Random(3)
    for _ in range(3000):
        mask = rng.getrandbits(25)
        t = rng.randrange(25)
        mask &= ~(1 << t)
        assert verify.points(mask, t) == placement_points(mask, t // 5, t % 5)


def test_a_full_wall_scores_at_most_240_with_its_bonuses():
    """The well-known 240 is the most a full wall can score in all: 145 placement points
    (every row and column grown from one tile, one a turn, and 5 tiles starting both their row
    and their column: 10 x (2 + 3 + 4 + 5) + 5; the final round completes all 5 rows, top to
    bottom) plus the end bonuses 5 x 2 + 5 x 7 + 5 x 10 = 95 (遊戲結束)."""
    c = Check(FULL, dp=False)
    assert c.run() == (None, 240)
    assert c.placement.high == 145 and c.bonus == 95 and c.colour_bonus == 50
    grey = Check(FULL, grey=True, dp=False)
    assert grey.run() == (None, 240) and grey.bonus == 45 and grey.colours == (50, 50)


def test_bonuses_rows_2_columns_7_colours_10():
    """遊戲結束: +2 a complete row, +7 a complete column, +10 a colour with its 5 tiles (the
    coloured wall prints colour k in row r at column (k + r) % 5: the blue tiles run down the
    diagonal)."""
    assert verify.bonus(parse_wall("xxxxx,.....,.....,.....,....."), False) == (2, 0)
    assert verify.bonus(parse_wall("x....,x....,x....,x....,x...."), False) == (7, 0)
    assert verify.bonus(parse_wall("x....,.x...,..x..,...x.,....x"), False) == (0, 10)
    assert verify.bonus(parse_wall("xxxxx,xx...,x.x..,x..x.,x...x"), True) == (9, None)
    c = Check(parse_wall("xxxxx,xx...,x.x..,x..x.,x...x"))
    assert (c.bonus, c.colour_bonus) == (19, 10)


def test_grey_wall_colours_are_a_range():
    """變體規則: each row and column holds a colour once. 21 tiles: 5 colours of at most 4
    tiles hold 20, so at least 1 colour is complete; a wall holding 3 tile sets one to a row
    and column apart completes up to 3. Worked by hand against every colouring of small walls."""
    assert verify.grey_colours(FULL) == (5, 5)
    assert verify.grey_colours(parse_wall("xxxxx,xxxxx,xxxxx,xxxxx,x....")) == (1, 1)
    assert verify.grey_colours(parse_wall("x....,.x...,..x..,...x.,....x")) == (0, 1)
    assert verify.grey_colours(parse_wall("xx...,.xx..,..xx.,...xx,x...x")) == (0, 2)
    assert verify.grey_colours(parse_wall("xxxx.,xxxx.,xxxx.,xxxx.,xxxx.")) == (0, 0)
    rng = random.Random(11)
    for _ in range(40):
        wall = rng.getrandbits(25) & rng.getrandbits(25) & rng.getrandbits(25) | parse_wall("x....,.x...,..x..,...x.,....x")
        assert verify.grey_colours(wall) == every_colouring(wall), wall_text(wall)


def every_colouring(wall):
    """(fewest, most) colours with 5 tiles over every colouring of the wall's tiles with 5
    colours, none twice in a row or a column."""
    tiles = [t for t in range(25) if wall >> t & 1]
    seen = set()

    def go(i, colour, counts, used):
        if i == len(tiles):
            seen.add(counts.count(5))
            return
        t = tiles[i]
        for k in range(min(5, used + 1)):  # (colours are alike: a new one is the next unused)
            if all(colour.get(u) != k for u in colour if u // 5 == t // 5 or u % 5 == t % 5):
                colour[t] = k
                counts[k] += 1
                go(i + 1, colour, counts, max(used, k + 1))
                counts[k] -= 1
                del colour[t]

    go(0, {}, [0] * 5, 0)
    return min(seen), max(seen)


def test_verdict_on_a_claim():
    """Above the most: impossible (by how much); within: plausible; below the fewest: the
    floor must have taken at least the difference."""
    assert verify.verdict(60, 40, 55) == ("impossible", 5)
    assert verify.verdict(55, 40, 55) == ("plausible", 0)
    assert verify.verdict(40, 40, 55) == ("plausible", 0)
    assert verify.verdict(31, 40, 55) == ("floor", 9)
    c = Check(parse_wall("xxxxx,x....,x....,.....,....."), dp=False)
    c.run()
    assert c.low is None and c.verdict(c.high + 1) == ("impossible", 1) and c.verdict(c.high) is None


@pytest.mark.parametrize("text,words", [
    ("xxxxx,.x.x.,..x..,.....", "a wall is 5 rows of 5 separated by commas (x a tile, . empty), got 4 rows"),
    ("xxxxx,.x.x.,..x..,.....,x...", "row 5 has 4 cells, not 5: 'x...'"),
    ("xxxxx,.x.x.,..o..,.....,x....", "row 3, column 3 is 'o': x is a tile, . an empty cell"),
])
def test_a_bad_wall_is_named(text, words):
    with pytest.raises(ValueError) as e:
        parse_wall(text)
    assert str(e.value) == words


def test_wall_text_reads_back():
    rng = random.Random(2)
    for _ in range(50):
        m = rng.getrandbits(25)
        assert parse_wall(wall_text(m)) == m
    assert parse_wall(" XXXXX, .x.x. ,..x..,.....,x....") == parse_wall("xxxxx,.x.x.,..x..,.....,x....")
