"""`azul-companion verify WALL [--grey] [--claim N] [--json]`: the scores a player's final Azul
wall allows (rules_core.verify) and a verdict on a claimed one.

WALL is five comma-separated rows of five cells, `x` a tile and `.` an empty cell, top row
first: xxxxx,.x.x.,..x..,.....,x..... A bad WALL is one line on stderr and exit 2.

--json prints one object: wall (as read), placement_min and placement_max (placement points
over every legal order), bonus (rows +2, columns +7, and on the coloured wall colours +10),
colour_bonus (its colours' part; null on the grey wall, whose cells show no colours: there
colour_bonus_range [fewest, most] is added to min and max), min and max (the scores the wall
allows), and with --claim: claim, verdict ("plausible", "impossible", or "floor": possible
only with points lost on the floor) and by (how much over the most, or the fewest points
lost on the floor), not given when plausible.
"""
import sys

from rules_core import verify

WORDS = {"impossible": "impossible: %d more than the most",
         "plausible": "plausible",
         "floor": "possible only with at least %d points lost on the floor"}


def add_arguments(parser):
    parser.add_argument("wall", metavar="WALL", help="5 rows of 5 cells, comma-separated: x a tile, . empty "
                        "(e.g. xxxxx,.x.x.,..x..,.....,x....)")
    parser.add_argument("--grey", action="store_true", help="the grey wall (colours not printed on the cells)")
    parser.add_argument("--claim", type=int, metavar="N", help="a claimed final score to judge")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args):
    try:
        mask = verify.parse_wall(args.wall)
    except ValueError as e:
        print("azul-companion verify: WALL: %s" % e, file=sys.stderr)
        return 2
    check = verify.Check(mask, args.grey)
    check.run()
    r = check.placement
    out = {"wall": verify.wall_text(mask), "placement_min": r.low, "placement_max": r.high,
           "bonus": check.bonus, "colour_bonus": check.colour_bonus}
    if args.grey:
        out["colour_bonus_range"] = list(check.colours)
    out["min"] = check.low
    out["max"] = check.high
    if args.claim is not None:
        word, by = check.verdict(args.claim)
        out["claim"] = args.claim
        out["verdict"] = word
        if by:
            out["by"] = by
    if args.json:
        from rules_core.record import dumps
        print(dumps(out))
        return 0
    print("wall %s: %d tiles" % (out["wall"], bin(mask).count("1")))
    print("placement points %d..%d" % (r.low, r.high))
    if args.grey:
        print("bonus +%d (rows, columns) and +%d..%d for colours (not on the grey wall's cells)"
              % ((check.bonus,) + check.colours))
    else:
        print("bonus +%d (colours +%d)" % (check.bonus, check.colour_bonus))
    print("score %d..%d" % (check.low, check.high))
    if args.claim is not None:
        words = WORDS[out["verdict"]]
        print("claim %d: %s" % (args.claim, words % out["by"] if "%" in words else words))
    return 0
