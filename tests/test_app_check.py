"""Check a score on the device (app.check), driven by key presses: the wall entered on the
5x5 grid (the LED matrix mirrors it), the claim, then what the wall allows and the verdict,
worked out in idle frames as the board's loop runs them (main.idle)."""
import pytest

from hal.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, REPEAT
from main import idle
from rules_core.verify import Check, parse_wall
from test_app_games import Driver

ROW_1 = "xxxxx,.....,.....,.....,....."


def open_check(d, grey=False):
    d.choose("Check a score")
    d.choose("grey wall" if grey else "coloured wall")
    assert d.screen.title == "Check: wall"


def enter_wall(d, text):
    """Put the tiles of `text` on the grid, cell by cell, with the arrows and OK."""
    mask = parse_wall(text)
    for t in range(25):
        if mask >> t & 1:
            r, c = t // 5, t % 5
            d.press(DOWN if r > d.screen.r else UP, abs(r - d.screen.r))
            d.press(RIGHT if c > d.screen.c else LEFT, abs(c - d.screen.c))
            d.press(OK)
    assert d.screen.mask == mask


def to_claim(d, claim):
    d.press(DOWN, 5 - d.screen.r)
    assert d.screen.rows()[d.screen.cursor] == "claim >"
    d.press(OK)
    assert d.screen.title == "Check: claim"
    d.press(RIGHT, claim)
    assert d.screen.rows()[0] == "claim %d" % claim


def idle_frames(d):
    """The board's idle frames until no work is left (main.idle)."""
    for _ in range(10000):
        d.app.step(d.clock.now, None)
        if not idle(d.app):
            break
    d.app.step(d.clock.now, None)


def result(d, wall, claim, grey=False):
    open_check(d, grey)
    enter_wall(d, wall)
    to_claim(d, claim)
    idle_frames(d)  # the range is worked out while the claim is entered
    d.press(DOWN)
    d.press(OK)
    assert d.screen.title == "Claim %d" % claim
    return d.screen.rows()


def test_the_main_menu_opens_check_a_score(tmp_path):
    d = Driver(tmp_path)
    assert d.rows() == ["New game", "Check a score", "History", "Settings"]
    d.choose("Check a score")
    assert d.rows() == ["coloured wall", "grey wall"]


def test_a_complete_row_and_a_plausible_claim(tmp_path):
    """Row 1 complete: placed 11..15 (its last tile in the final round: tests/core/
    test_check_score.py), the row's bonus +2: 13..17."""
    d = Driver(tmp_path)
    assert result(d, ROW_1, 16) == ["placed 11..15", "bonus +2", "total 13..17", "16: plausible"]


@pytest.mark.parametrize("claim,verdict", [(18, ["18: impossible", "(1 too many)"]),
                                           (10, ["10: only with", "3+ lost on the", "floor"])])
def test_verdicts(tmp_path, claim, verdict):
    d = Driver(tmp_path)
    assert result(d, ROW_1, claim)[3:] == verdict


def test_the_result_is_the_checks(tmp_path):
    wall = "xxxxx,.xx..,..xx.,...x.,....."
    c = Check(parse_wall(wall))
    c.run()
    d = Driver(tmp_path)
    rows = result(d, wall, 40)
    assert rows[:3] == ["placed %d..%d" % (c.placement.low, c.placement.high), "bonus +%d" % c.bonus,
                        "total %d..%d" % (c.low, c.high)]


def test_grey_wall_shows_the_colours_range(tmp_path):
    """The grey wall's cells show no colours: its colour bonus is a range (a diagonal may be
    one colour or not)."""
    d = Driver(tmp_path)
    rows = result(d, "x....,.x...,..x..,...x.,....x", 15, grey=True)
    assert rows == ["placed 5..5", "bonus +0", "colours +0..10", "total 5..15", "15: plausible"]


def test_a_wall_beyond_the_board_says_so_and_still_proves_the_most(tmp_path):
    """14 touching tiles are more than a board works the fewest out for (BOARD_TILES): the
    most is still proved (an order that scores the bound), a claim above it is impossible,
    and the screen says where the fewest can be worked out."""
    wall = "xxxxx,xxxxx,xx...,xx...,....."
    c = Check(parse_wall(wall))
    c.run()
    d = Driver(tmp_path)
    rows = result(d, wall, c.high + 2)
    assert rows[:5] == ["placed ?..%d" % c.placement.high, "bonus +%d" % c.bonus, "total ?..%d" % c.high,
                        "%d: impossible" % (c.high + 2), "(2 too many)"]
    assert rows[5:] == ["fewest: 14 tiles", "too many here:", "see the web page"]
    d.press(BACK)
    d.press(UP)
    d.press(LEFT, 3)
    d.press(DOWN)
    d.press(OK)
    assert d.screen.rows()[3:] == ["%d: not over max" % (c.high - 1), "fewest: 14 tiles", "too many here:",
                                   "see the web page"]


def test_the_result_shows_checking_until_the_idle_frames_are_done(tmp_path):
    """Straight from the wall to check, no idle frame between: the result says it is
    checking; the idle frames finish it (Check's numbers) and the screen shows it."""
    wall = "xxxxx,xxxx.,xx...,x....,....."
    c = Check(parse_wall(wall))
    c.run()
    d = Driver(tmp_path)
    open_check(d)
    enter_wall(d, wall)
    d.press(DOWN, 5 - d.screen.r)
    d.press(OK)
    d.press(DOWN)
    d.press(OK)
    assert d.screen.rows() == ["checking..."]
    idle_frames(d)
    assert d.screen.rows() == ["placed %d..%d" % (c.placement.low, c.placement.high), "bonus +%d" % c.bonus,
                               "total %d..%d" % (c.low, c.high), "0: only with", "%d+ lost on the" % c.low, "floor"]
    assert d.app.text()[1:4] == d.screen.rows()[:3]


def test_the_led_matrix_mirrors_the_wall(tmp_path):
    """The LEDs show each tile in its printed colour (row 1: blue, yellow, red, black, white;
    each row below shifted right), an empty cell dark; with no game open."""
    d = Driver(tmp_path, "pico")  # a 5x5 matrix
    open_check(d)
    enter_wall(d, "x....,x....,.....,.....,.....")
    frame = d.leds.frame_rgb()
    assert frame[0] == (0, 24, 153)       # row 1, column 1: blue
    assert frame[5] == (120, 120, 120)    # row 2, column 1: white
    assert frame[1] == (0, 0, 0) and frame[6] == (0, 0, 0)
    d.press(OK)  # the cursor's cell (row 2, column 1) taken out again
    assert d.leds.frame_rgb()[5] == (0, 0, 0)


def test_back_steps_out_and_the_claim_keeps_the_wall(tmp_path):
    d = Driver(tmp_path)
    open_check(d)
    enter_wall(d, "x....,.....,.....,.....,.....")
    to_claim(d, 3)
    d.press(RIGHT | REPEAT)
    assert d.screen.rows()[0] == "claim 8"  # a repeat steps 5
    d.press(BACK)
    assert d.screen.title == "Check: wall" and d.screen.mask == 1
    d.press(BACK)
    d.press(BACK)
    assert d.rows()[1] == "Check a score"
