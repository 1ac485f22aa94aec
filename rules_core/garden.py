"""Azul: Queen's Garden scoring (record game "garden")."""
# Authority: the Traditional Chinese rulebook (shared/seeds/000_*); section names below are its
# headings. What is scored and when:
# - start (遊戲設置): every score marker starts on 15.
# - C) 放置擴建組件: buying a face-down expansion costs 6 points; "the score may not drop below 0",
#   so a buy is refused below 6 points. This is the rulebook's only floor: the pass losses and the
#   final reserve penalty below are not clamped, so a score can end below 0.
# - D) 略過: a passing player may discard reserve hexagons and loses their values; the first to
#   pass in the round takes the start-player marker (starts the next round) and moves back 1.
#   Passed players take no further turns in phase 1; phase 1 ends when everyone has passed.
#   A pass without "discard" discards nothing.
# - 階段二：計分 (every round): +1 per garden hexagon matching each of the wheel's three
#   categories, so a hexagon matching two of them (its colour and its pattern) scores 2; then
#   +1 per pillar. The record gives one count per category ("matches"): a hexagon matching two
#   categories is counted in both counts. Variant side (變體規則): the pattern scoring differs and
#   its numbers are not in the rulebook text, so the category points are entered as printed
#   ("points") and the pillars still score 1 each.
# - 最終計分 (after round 4's phase 2): reserve +1 per joker, minus the pattern value of every
#   tile and expansion left; then every group of >= 3 hexagons matching a category scores the sum
#   of its pattern values, +6 for a group of exactly 6. No group holds two identical hexagons, so
#   a colour group has distinct patterns and a pattern group distinct colours: at most 6 each.
#   Variant side (變體規則 "最終計分時有更多額外得分辦法"): more end-game bonuses, not printed in
#   the rulebook text: each player's bonus points are read off the scoring board's back and
#   entered as a number (`bonus`).
#
# What no table can produce (遊戲設置: 108 tiles, each of the 36 hexagons (6 colours x 6 patterns,
# 花紋) on 3; 36 expansions, each showing one hexagon face up, none face down (拿取瓷磚和擴建組件,
# C) 放置擴建組件)): a hexagon in a garden is a tile or a face-up expansion, and stays there; a
# bought expansion (C) is a face-down one from the supply, placed in its buyer's garden. So
# - at most 36 buys in a game;
# - at the final scoring, the colour groups of every garden (each lists its hexagons' patterns,
#   no two alike) hold a hexagon beyond its 3 tiles only on an expansion, and the pattern groups
#   with the reserves' tiles a pattern beyond its 18 tiles likewise: each count of those beyond
#   the tiles is at most the expansions neither bought nor in a reserve.
#
# Flow: each round needs one `pass` and then one `round_score` per player; a player's round_score
# may come once that player has passed (the garden cannot change after passing, so the points are
# those of phase 2). Final scoring: every player's `reserve` and `garden` (and `bonus` on the
# variant side), each once that player has passed in round 4, before round 4's `end_round` (as
# the device enters them) or after it (遊戲結束: "then the final scoring"); the game is finished
# once round 4 has ended and every final entry is in, the same game in either order.
# pending() lists what is missing. Player 0 is the round-1 start player (the youngest, 進行遊戲).
#
# Entry-screen questions: can_buy(p), first_to_pass(), to_pass(), category_values(category),
# group_score(category, values) (a group's points as it is typed). round_score takes "matches"
# on the standard side and "points" on the variant side (self.variant).
# Kept small: MicroPython compiles this file on a 64 KB heap in the tests.
from rules_core.games import Rules, player, check_ints, int_field
from rules_core import RecordError, RuleError, const

_START_SCORE = const(15)      # 遊戲設置
_BUY_COST = const(6)          # C) 放置擴建組件
_FIRST_PASS_LOSS = const(1)   # D) 略過
_ROUNDS = const(4)            # 遊戲目標
_GROUP_MIN = const(3)         # 最終計分: a group scores with at least 3 hexagons
_GROUP_MAX = const(6)         # no two identical hexagons: 6 patterns / 6 colours at most
_FULL_GROUP_BONUS = const(6)  # 最終計分: a group of exactly 6 scores 6 more

# Sanity bounds (typo guards, not rules). 108 tiles = 18 per colour and per pattern; 36
# expansions, each showing at most one hexagon and one central pillar when face up.
_MAX_MATCHES = const(54)      # one category: its 18 tiles + every expansion
_MAX_PILLARS = const(36)
_MAX_VARIANT_POINTS = const(972)   # 3 categories x _MAX_MATCHES x the top pattern value 6
_RESERVE_TILES = const(12)    # 拿取瓷磚和擴建組件: a reserve holds 12 tiles (jokers take tile
_RESERVE_EXPANSIONS = const(2)  # spaces, 遊戲設置) and 2 expansions
_MAX_GROUPS = const(96)       # every hexagon is in at most 2 groups: 2 x (108 + 36) / 3
_MAX_SIDE_BONUS = const(999)  # the variant side's printed end bonuses are not in the text
_EXPANSIONS = const(36)       # 遊戲設置
_COPIES = const(3)            # tiles of each hexagon: 108 tiles, 36 hexagons
_PATTERN_TILES = const(18)    # tiles of each pattern: 6 colours x 3

# Patterns and their values (value = cost = points, 花紋). From the rulebook: tree 1, bird 2
# (最終計分 "大樹-1、鳥兒-2，如此類推"), butterfly 3, flower 4 (花紋); values 5 and 6 follow
# from "如此類推" and "six patterns". The names plant (5) and lily (6) are not in the
# rulebook text; they come from a review (unverified).
PATTERNS = ("tree", "bird", "butterfly", "flower", "plant", "lily")   # value = index + 1
# Colours in check-track order (最終計分: 12 spaces, six colours then six patterns, blue first).
# In the rulebook text: blue (藍色, first space), yellow (黃色鳥兒) and green (綠色, light and
# dark not told apart). lightgreen/darkgreen, lilac, purple and the order after blue: from
# reviews (unverified). The registry (rules_core.games) lists the unverified names of both
# tables: the screens mark them "?".
COLOURS = ("blue", "yellow", "lightgreen", "darkgreen", "lilac", "purple")
CATEGORIES = COLOURS + PATTERNS   # the check track, top to bottom

EVENTS = ("buy", "pass", "round_score", "reserve", "garden", "bonus", "end_round")
# score parts of breakdown(), signed points; a score is _START_SCORE + the sum of its parts
PARTS = ("bought", "discarded", "first_pass", "rounds", "reserve", "groups", "group_bonus", "side_bonus")


# Pattern values a hexagon of this category can have: one for a pattern, 1..6 for a colour.
def category_values(category):
    if category in PATTERNS:
        return (PATTERNS.index(category) + 1,)
    if category in COLOURS:
        return (1, 2, 3, 4, 5, 6)
    raise RecordError("%r is not a category (%s)" % (category, ", ".join(CATEGORIES)))


# (points, bonus) of one final-scoring group (最終計分), after checking that it can score.
def group_score(category, values):
    allowed = category_values(category)
    n = len(check_ints(category + " group values", values, 0, 99, 1, 6))
    if n > _GROUP_MAX:
        raise RuleError("a %s group holds at most %d hexagons, got %d" % (category, _GROUP_MAX, n))
    if n < _GROUP_MIN:
        raise RuleError("a %s group scores with %d+ hexagons, got %d" % (category, _GROUP_MIN, n))
    for v in values:
        if v not in allowed:
            raise RuleError("a %s group holds only value %d, got %d" % (category, allowed[0], v))
        if values.count(v) > 1 and category in COLOURS:
            raise RuleError("a %s group has two %s hexagons" % (category, PATTERNS[v - 1]))
    return sum(values), (_FULL_GROUP_BONUS if n == _GROUP_MAX else 0)


class GardenRules(Rules):
    GAME = "garden"
    TIEBREAK = None   # 最終計分: tied players share the victory
    NESTED = ("parts",)

    def __init__(self, variant, nplayers, options):
        Rules.__init__(self, variant, nplayers, options)
        if options:   # None or {} only
            raise RecordError("garden takes no options")
        self.rounds_total = _ROUNDS
        # round_scores: the last one is the final result
        self.scores = [_START_SCORE] * nplayers
        self.parts = {}
        for k in PARTS:
            self.parts[k] = [0] * nplayers
        self.first = None        # who passed first this round (D: starts the next round)
        self.done = []           # (event, p) entered this round: pass, round_score, final entries
        # the final-scoring entries of each player
        self.finals = ("reserve", "garden", "bonus") if self.variant == "variant" else ("reserve", "garden")
        # the supply (see above): buys so far; in every garden's colour groups, the hexagons
        # of each colour and pattern (colour index * 6 + value - 1); in the pattern groups
        # and the reserves' tiles, those of each pattern (value - 1); expansions in reserves
        self.bought = 0
        self.in_colours = bytearray(36)
        self.in_patterns = bytearray(6)
        self.reserved = 0

    # ---- questions for the entry screens ----
    def first_to_pass(self):   # this round's first to pass (next start player), or None
        return self.first

    def to_pass(self):   # players still acting in phase 1, in turn order
        out = []
        for p in self._order():
            if ("pass", p) not in self.done:
                out.append(p)
        return out

    def can_buy(self, p):   # in phase 1 with 6 points or more
        try:
            self._buy(None, p)
        except RuleError:
            return False
        return True

    def _order(self):
        n = self.nplayers
        out = []
        for i in range(n):
            out.append((self.start_player + i) % n)
        return out

    # ---- events: a _<event> method validates and returns {part: points}; apply then mutates ----
    def apply(self, ev):
        if type(ev) is not dict:
            raise RecordError("an event must be an object")
        e = ev.get("e")
        if e not in EVENTS:
            raise RecordError("unknown garden event %r" % (e,))
        if self.finished:
            raise RuleError("the game is over: no %s after it" % e)
        if self.closed and e not in self.finals:
            raise RuleError("round 4 has ended: only the final scoring (%s) is still to enter, not %s"
                            % (", ".join(self.finals), e))
        if e == "end_round":
            self._end_round()
            return
        p = self.player_field(ev)
        if e != "buy" and (e, p) in self.done:
            raise RuleError("%s already has a %s in round %d" % (player(p), e, self.round))
        if e == "bonus" and e not in self.finals:
            raise RuleError("bonus points are entered on the variant side only")
        if e in self.finals and self.round != _ROUNDS:
            raise RuleError("%s is final scoring, not for round %d" % (e, self.round))
        if e not in ("buy", "pass") and ("pass", p) not in self.done:   # 階段二, 最終計分
            raise RuleError("%s has not passed in round %d" % (player(p), self.round))
        gains = getattr(self, "_" + e)(ev, p)
        supply = gains.pop("supply", None)
        if supply is not None:
            self.in_colours, self.in_patterns, self.reserved = supply
        if e == "buy":
            self.bought += 1
        if e == "pass" and self.first is None:
            self.first = p
            gains["first_pass"] = -_FIRST_PASS_LOSS
        if e != "buy":
            self.done.append((e, p))
        total = _START_SCORE
        for k in PARTS:
            self.parts[k][p] += gains.get(k, 0)
            total += self.parts[k][p]
        self.scores[p] = total
        if self.closed:
            self._finish()

    def _buy(self, ev, p):
        if ("pass", p) in self.done:
            raise RuleError("%s passed: no buying until round %d ends" % (player(p), self.round))
        if self.scores[p] < _BUY_COST:
            raise RuleError("%s has %d points: buying (6) may not go below 0" % (player(p), self.scores[p]))
        if self.bought + self.reserved >= _EXPANSIONS:
            raise RuleError("all %d expansions are bought" % _EXPANSIONS)
        return {"bought": -_BUY_COST}

    def _pass(self, ev, p):
        discard = check_ints("pass discard", ev.get("discard", []), 0, _RESERVE_TILES + _RESERVE_EXPANSIONS, 1, 6)
        return {"discarded": -sum(discard)}

    def _round_score(self, ev, p):
        pts = int_field(ev, "pillars", 0, _MAX_PILLARS)
        if self.variant == "standard":
            if "points" in ev:
                raise RecordError("round_score: standard side takes matches")
            pts += sum(check_ints("round_score matches", ev.get("matches"), 3, 3, 0, _MAX_MATCHES))
        elif "matches" in ev:
            raise RecordError("round_score: variant side takes points")
        else:
            pts += int_field(ev, "points", 0, _MAX_VARIANT_POINTS)
        return {"rounds": pts}

    # 最終計分: +1 per joker, minus each tile's and expansion's pattern value. A reserve holds
    # 12 tiles, jokers included, and 2 expansions. With "expansions" (their values) the
    # "values" are the tiles'; without it (older records) "values" may hold the expansions too.
    def _reserve(self, ev, p):
        jokers = int_field(ev, "jokers", 0, _RESERVE_TILES)
        values = check_ints("reserve values", ev.get("values"), 0, _RESERVE_TILES + _RESERVE_EXPANSIONS, 1, 6)
        expansions = ev.get("expansions")
        if expansions is None:   # an older record: "values" may hold the expansions too
            expansions = ()
            room, what = _RESERVE_TILES + _RESERVE_EXPANSIONS, "tiles and expansions"
        else:
            check_ints("reserve expansions", expansions, 0, _RESERVE_EXPANSIONS, 1, 6)
            room, what = _RESERVE_TILES, "tiles"
        if jokers + len(values) > room:
            raise RuleError("a reserve holds 12 tiles, jokers included, and 2 expansions: got %d jokers + %d %s"
                            % (jokers, len(values), what))
        patterns = bytearray(self.in_patterns)
        if room == _RESERVE_TILES:   # (an older record's values may be expansions: not counted)
            for v in values:
                patterns[v - 1] += 1
        return {"reserve": jokers - sum(values) - sum(expansions),
                "supply": self._supply(self.in_colours, patterns, self.reserved + len(expansions))}

    # 變體規則: the variant side's end-game bonuses, as printed, in one number
    def _bonus(self, ev, p):
        return {"side_bonus": int_field(ev, "points", 0, _MAX_SIDE_BONUS)}

    def _garden(self, ev, p):
        groups = ev.get("groups")
        if type(groups) is not list or len(groups) > _MAX_GROUPS:
            raise RecordError("garden groups must be a list")
        gains = {"groups": 0, "group_bonus": 0}
        colours = bytearray(self.in_colours)
        patterns = bytearray(self.in_patterns)
        for g in groups:
            if type(g) is not dict:
                raise RecordError("a garden group must be an object, got %r" % (g,))
            of = g.get("of")
            pts, bonus = group_score(of, g.get("values"))
            gains["groups"] += pts
            gains["group_bonus"] += bonus
            for v in g["values"]:
                if of in COLOURS:
                    colours[COLOURS.index(of) * 6 + v - 1] += 1
                else:
                    patterns[v - 1] += 1
        gains["supply"] = self._supply(colours, patterns, self.reserved)
        return gains

    # The supply with these counts (see the module's comments), checked: (colours, patterns,
    # expansions in reserves), or RuleError.
    def _supply(self, colours, patterns, reserved):
        left = _EXPANSIONS - self.bought - reserved   # expansions that may show a hexagon in a garden
        if left < 0:
            raise RuleError("%d expansions bought and %d in reserves: only %d exist" % (self.bought, reserved, _EXPANSIONS))
        for counts, tiles, what in ((colours, _COPIES, "the colour groups hold %d hexagons beyond the %d tiles of each"),
                                    (patterns, _PATTERN_TILES,
                                     "the pattern groups and reserve tiles hold %d hexagons beyond the %d tiles of each pattern")):
            over = 0
            for n in counts:
                if n > tiles:
                    over += n - tiles
            if over > left:
                raise RuleError(what % (over, tiles) + ", more than the %d expansions left can show" % left)
        return colours, patterns, reserved

    def _end_round(self):
        missing = []
        for e, p in self.pending():
            if e not in self.finals:
                missing.append("%s of %s" % (e, player(p)))
        if missing:
            raise RuleError("round %d cannot end: missing %s" % (self.round, ", ".join(missing)))
        self.start_player = self.first
        if self.round == _ROUNDS:
            self.closed = True
            self._finish()
            return
        self.round_scores.append(list(self.scores))
        self.round += 1
        self.first = None
        self.done = []

    # 遊戲結束: round 4 has ended and every final entry is in (either order): the game is over
    def _finish(self):
        if not self.pending():
            self.round_scores.append(list(self.scores))
            self.finished = True

    # ---- the Session contract ----
    # Entries still required: passes, round scores, then (round 4) the final entries; players
    # in turn order from the start player.
    def pending(self):
        if self.finished:
            return []
        need = ("pass", "round_score")
        if self.round == _ROUNDS:
            need += self.finals
        out = []
        order = self._order()
        for e in need:
            for p in order:
                if (e, p) not in self.done:
                    out.append((e, p))
        return out

    # start + the signed parts (bought, discarded, ..., group_bonus) == total
    def breakdown(self, p):
        d = {"start": _START_SCORE, "total": self.scores[p]}
        for k in PARTS:
            d[k] = self.parts[k][p]
        return d
