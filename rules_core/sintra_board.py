"""The Sintra board values as the device enters them (Settings > Sintra board) and the one
check a value must pass, here and not in rules_core.sintra: the device's settings check
theirs at every boot, and this module is all they load for it (a Pico's heap holds no rules
for it). A record's options.board is held to the same (rules_core.sintra).

8 window values 0..9 a side; the track's 13 spaces top to bottom, 0 at the top (markers
start there) and -18 at the bottom (遊戲結束 note), never rising; side A's 4 ornaments, each
between two neighbouring windows [c, c + 1] (遊戲結束 3) A面: each surrounded by the frames
of two windows), one to a gap.
"""
from rules_core import const

TRACK_SPACES = const(13)
TRACK_BOTTOM = const(-18)
WINDOW_MAX = const(9)
WINDOWS = const(8)


def _ints(v, n, lo, hi):
    # True when v is a list (or tuple) of n ints lo..hi (a bool is not a number here)
    if type(v) not in (list, tuple) or len(v) != n:
        return False
    for x in v:
        if type(x) is not int or not lo <= x <= hi:
            return False
    return True


def board_problem(key, v):
    """What is wrong with v as the board value `key` ("windows", "track", "ornaments"), in a
    short line the device's screen shows whole, or None."""
    p = problem_format(key, v)
    return p and p[0] % p[1:]


def problem_format(key, v):
    """board_problem() as (format, values...), or None: the device translates the format
    (app.lang) before it fills it in."""
    if key == "track":
        if not _ints(v, TRACK_SPACES, TRACK_BOTTOM, 0) or v[0] or v[-1] != TRACK_BOTTOM:
            return ("track: 13 spaces 0 .. -18",)
        for i in range(1, TRACK_SPACES):
            if v[i] > v[i - 1]:
                return ("track rises at space %d", i + 1)
        return None
    if key == "ornaments":
        if type(v) not in (list, tuple) or len(v) != 4:
            return ("ornaments: 4 window pairs",)
        for i in range(4):
            o = v[i]
            if not _ints(o, 2, 1, WINDOWS) or o[1] != o[0] + 1:
                return ("ornaments: 4 window pairs",)
            for p in v[:i]:
                if p[0] == o[0]:
                    return ("2 ornaments at win %d-%d", o[0], o[1])
        return None
    return None if _ints(v, WINDOWS, 0, WINDOW_MAX) else ("windows: 8 values 0..9",)
