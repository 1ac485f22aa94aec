"""Azul: Stained Glass of Sintra scoring (record game "sintra")."""
# Authority: the Traditional Chinese rulebook (shared/seeds/001_*); section names below are
# its headings. What is scored and when:
# - window (第三步 3a-3c): colour bonus (+1 per pane of the round colour on the completed
#   strip); the kept pane goes to the top frame, or to the bottom frame if the top is taken;
#   then the window score: the value under this window + the value under every window TO ITS
#   RIGHT that holds one or two panes, adjacent or not (example 2 + 1 + 2 = 5).
# - broken glass and the start tile (第一步 note, 第二步): the broken-glass marker goes down
#   1 space per pane; reaching the bottom space loses its value (18) at once and the marker
#   returns to the top (遊戲結束 note); further moves continue from there.
# - final scoring after round VI (遊戲結束): +1 per 3 panes left on the strips, minus the
#   value at the marker, then side A ornaments or side B complete windows x one colour.
# - tie (遊戲結束, last paragraph): fewer points lost on the track, resets included.
# What no table can produce (遊戲配件: 100 panes, 20 a colour; 遊戲設置 1 and 8: 5, 7, 9
# factories of 4 panes; 一輪結束: refilled with 4, some short when bag and tower run out):
# - a round's panes: every pane taken goes onto a strip or breaks (第二步), so the strips
#   completed and the glass broken in a round need no more new panes than its factories
#   hold. A strip completed needs 5 new panes in round I (the strips start empty) and when
#   it was completed earlier in the round (flipped or removed: 3b), else at least 1 (a strip
#   keeps its panes over rounds, at most 4: it is completed as soon as it holds 5).
# - kept panes stay in the windows (3b) and the round indicator keeps one pane for each
#   round not yet ended (遊戲設置 7, 一輪結束), so those of a colour, with the panes of the
#   round's colour on the strip being completed, never exceed 20.
# Scores are not clamped at 0: the rulebook never says a score stops at 0.
#
# Flow: in rounds I..V `end_round` needs nothing: a round can end without anyone taking the
# start tile (every factory of one colour, nobody ever takes from the centre), and then the
# start player stays. Final scoring (遊戲結束: "after round VI"): every player's `leftover`,
# entered in round VI before its `end_round` (as the device does) or after it; the final
# scoring runs once round VI has ended and every leftover is in, the same game in either
# order. A player's play events come before their leftover.
#
# Entry-screen helpers: bonus_colour(), open_windows(p), track_position(p), window_score(p, col),
# in_play(p), start_tile_taken().
# Kept small, with comments instead of docstrings: MicroPython compiles this file from
# source on a 64 KB heap in the tests.
from rules_core.games import Rules, player, int_field
from rules_core.sintra_board import board_problem
from rules_core import RecordError, RuleError, const

# Glass colours: pink, orange, yellow are named in the rulebook; green and blue are working
# names (unverified against the box: the registry's `unverified`, marked "?" on the screens).
COLOURS = ("pink", "orange", "yellow", "green", "blue")

_NCOLS = const(8)    # windows per palace board, columns 1..8
_NROUNDS = const(6)
_STRIP = const(5)    # spaces on a pattern strip; a full strip is completed at once
_PER_COLOUR = const(20)  # panes of each colour (遊戲配件)

# Printed board values the rulebook text does not give; options.board overrides each key.
# UNVERIFIED placeholder, for records that carry no windows: the rulebook only shows a window
# worth 2 with windows worth 1 and 2 to its right. Sides A and B are different boards; the
# device never plays on this: the owner enters each side's 8 values once.
PLACEHOLDER_WINDOWS = (1, 2, 1, 2, 1, 2, 1, 2)
# Inferred, unverified: the example figure shows -4, -5, -6 on consecutive spaces and a marker
# on -8; the bottom space is -18 (遊戲結束 note). Top to bottom; the marker starts on the top.
# The device offers it until the owner confirms or corrects it.
INFERRED_TRACK = (0, -1, -2, -3, -4, -5, -6, -8, -10, -12, -14, -16, -18)
# Inferred, unverified: side A ornaments between windows 1-2, 3-4, 5-6, 7-8 (4 frames each);
# the device offers it until the owner confirms or corrects it.
INFERRED_ORNAMENTS = ((1, 2), (3, 4), (5, 6), (7, 8))
DEFAULT_BOARD = {"windows": PLACEHOLDER_WINDOWS, "track": INFERRED_TRACK, "ornaments": INFERRED_ORNAMENTS}

# Side A: points per ornament by its filled frames, 0..4 (遊戲結束 3) A面)
ORNAMENT_POINTS = (0, 0, 3, 6, 10)


def _board(board):
    # The board values in use: (windows, track, ornaments), each given one checked as the
    # device checks its entry.
    for k in board:
        if k not in DEFAULT_BOARD:
            raise RecordError("board: unknown key %r" % (k,))
    out = []
    for k in ("windows", "track", "ornaments"):
        if k in board:
            problem = board_problem(k, board[k])
            if problem:
                raise RecordError("options.board %s, got %r" % (problem, board[k]))
        out.append(board.get(k, DEFAULT_BOARD[k]))
    w, t, orn = out
    pairs = []
    for o in orn:
        pairs.append(tuple(o))
    return tuple(w), tuple(t), tuple(pairs)


def _panes(g, col):
    # Panes in window col (1-based) of a player's glass: 0..2.
    return (g[2 * col - 2] > 0) + (g[2 * col - 1] > 0)


def _complete(g):
    # Windows with both frames filled.
    n = 0
    for c in range(_NCOLS):
        if g[2 * c + 1]:
            n += 1
    return n


class SintraRules(Rules):
    GAME = "sintra"
    TIEBREAK = "fewer points lost on the broken-glass track"
    NESTED = ("glass",)

    def __init__(self, variant, nplayers, options):
        Rules.__init__(self, variant, nplayers, options)
        options = options or {}
        if type(options.get("board") or {}) is not dict:
            raise RecordError("sintra options.board must be an object, got %r" % (options["board"],))
        # Round indicator (遊戲設置 7): II..VI show each colour once, I is drawn from the bag.
        rc = options.get("round_colors")
        left = list(COLOURS)  # what rounds II..VI do not show yet
        if type(rc) in (list, tuple) and len(rc) == _NROUNDS and rc[0] in COLOURS:
            for c in rc[1:]:
                if c in left:
                    left.remove(c)
        if left:
            raise RecordError("round_colors must be 6 glass colours, rounds II..VI each of %s once, got %r"
                              % ("/".join(COLOURS), rc))
        n = nplayers
        self.round_colors = tuple(rc)
        board = options.get("board") or {}
        self.windows, self.track, self.ornaments = _board(board)
        # the project's unverified tables this game uses, where the record gives no values
        self.defaulted = []
        for k in ("windows", "track", "ornaments"):
            if k not in board and (k != "ornaments" or self.variant == "A"):
                self.defaulted.append(k)
        self.max_broken = 4 * (2 * n + 1)   # all glass of a round: 4 on each of 5/7/9 factories
        self.taken = 0              # new panes the round's windows and broken glass need at least
        self.completed = [0] * n    # windows whose strip was completed this round (bit col - 1)
        self.kept = bytearray(len(COLOURS))  # kept panes of every player, by colour
        self.rounds_total = _NROUNDS
        # round_scores: the last one includes the final scoring
        self.next_start = None      # who took the start tile this round
        self.marker = [0] * n       # broken-glass marker: index into self.track, 0 = top
        self.reset_loss = [0] * n   # points lost on the bottom space so far (already in scores)
        self.window_pts = [0] * n
        self.bonus_pts = [0] * n
        # kept panes: window c's top frame at [2c], its bottom frame at [2c + 1], as the colour's
        # index + 1 (0 = empty); the top frame fills first
        self.glass = []
        for _ in range(n):
            self.glass.append(bytearray(2 * _NCOLS))
        self.leftover = [None] * n  # glass left on the strips after round VI's play
        self.final = [None] * n     # (leftover points, marker penalty, side points, colour)

    # ---- questions for the entry screens ----
    def bonus_colour(self):
        # This round's colour (the top pane of the round indicator).
        return self.round_colors[self.round - 1]

    def open_windows(self, p):
        # Columns (1-based) whose window still has an empty frame, i.e. whose strip remains.
        out = []
        for c in range(_NCOLS):
            if not self.glass[p][2 * c + 1]:
                out.append(c + 1)
        return out

    def track_position(self, p):
        # Index of p's broken-glass marker on self.track (0 = top space).
        return self.marker[p]

    def window_score(self, p, col):
        # 3c: value under col + every window to its right holding glass.
        pts = self.windows[col - 1]
        for c in range(col, _NCOLS):
            if self.glass[p][2 * c]:
                pts += self.windows[c]
        return pts

    def in_play(self, p):
        # p can still complete windows, break glass or take the start tile (no leftover yet).
        return not self.closed and self.leftover[p] is None

    def start_tile_taken(self):
        # Someone took the start tile from the centre this round.
        return self.next_start is not None

    def assumed(self):
        return self.defaulted

    def lost_on_track(self, p):
        # Points lost on the broken-glass track: resets plus the marker's current space.
        return self.reset_loss[p] - self.track[self.marker[p]]

    # ---- events: validate everything, then mutate ----
    def apply(self, ev):
        e = ev.get("e")
        if e not in ("window", "broken", "first", "leftover", "end_round"):
            raise RecordError("unknown sintra event %r" % (e,))
        if e == "end_round":
            self._open(e)
            return self._end_round()
        p = self._player(ev, e)
        if e == "window":
            self._window(ev, p)
        elif e == "broken":
            n = int_field(ev, "n", 0, self.max_broken)
            self.taken = self._take(n)
            self._move_marker(p, n)
        elif e == "first":
            if self.next_start is not None:
                raise RuleError("%s already took the start tile this round" % player(self.next_start))
            self.next_start = p
            self._move_marker(p, 1)   # 第一步 note: the start tile costs 1 space
        else:
            if self.round != _NROUNDS:
                raise RuleError("leftover glass is entered in round 6 only (this is round %d)" % self.round)
            # a strip holding 5 is completed at once, so each remaining strip holds at most 4
            self.leftover[p] = int_field(ev, "n", 0, 4 * len(self.open_windows(p)))
            self._finish()

    def _open(self, e):
        if self.finished:
            raise RuleError("the game is over: no %s after the final scoring" % e)
        if self.closed and e != "leftover":
            raise RuleError("round 6 has ended: only leftover glass is still to enter, not %s" % e)

    def _player(self, ev, e):
        # the player of event e, checked with the game's state before e's own fields
        self._open(e)
        p = self.player_field(ev)
        if self.leftover[p] is not None:
            raise RuleError("%s's leftover glass is already entered: enter %s before it" % (player(p), e))
        return p

    def window_change(self, ev):
        # The score change of player ev["p"] that the window entry ev would make, checked as
        # apply() checks it, the state unchanged (the entry form asks at every value: no copy).
        bonus, pts = self._check_window(ev, self._player(ev, "window"))[2:4]
        return bonus + pts

    def _check_window(self, ev, p):
        # ev checked: (the frame it fills, the kept colour's number, its bonus, its window points,
    # the round's new panes with it)
        col = int_field(ev, "col", 1, _NCOLS)
        bonus = int_field(ev, "bonus", 0, _STRIP)
        keep = ev.get("keep")
        if keep not in COLOURS:
            raise RecordError("window: keep must be a glass colour (%s), got %r" % (", ".join(COLOURS), keep))
        g = self.glass[p]
        i = 2 * (col - 1)
        if g[i + 1]:
            raise RuleError("%s's window %d already has both frames filled" % (player(p), col))
        rc = self.bonus_colour()
        if keep == rc and not bonus:
            raise RuleError("kept %s glass is this round's colour, so the colour bonus is at least 1" % keep)
        if bonus == _STRIP and keep != rc:
            raise RuleError("all 5 panes are %s (bonus 5), so the kept glass is %s, not %s" % (rc, rc, keep))
        k = COLOURS.index(keep)
        r = COLOURS.index(rc)
        for x in (k, r):  # the kept colour's and the round colour's panes in play at once
            on_track = 0
            for rnd in range(self.round - 1, _NROUNDS):
                on_track += self.round_colors[rnd] == COLOURS[x]
            panes = self.kept[x] + (x == k) + on_track + (bonus - (k == r) if x == r else 0)
            if panes > _PER_COLOUR:
                kept = self.kept[x] + (x == k)
                raise RuleError("only %d %s panes exist: %d kept in windows, %d on the round indicator, %d on this strip"
                                % (_PER_COLOUR, COLOURS[x], kept, on_track, panes - kept - on_track))
        taken = self._take(_STRIP if self.round == 1 or self.completed[p] >> (col - 1) & 1 else 1)
        # (window_score() counts the windows right of col: the frame filled leaves it as it is)
        return i + 1 if g[i] else i, k + 1, bonus, self.window_score(p, col), taken

    def _take(self, panes):
        # the round's new panes with `panes` more, checked against its factories'
        taken = self.taken + panes
        out = self.max_broken
        if taken > out:
            raise RuleError("round %d brings out at most %d panes (%d factories of 4): the strips completed and glass broken need %d"
                            % (self.round, out, out // 4, taken))
        return taken

    def _window(self, ev, p):
        frame, k, bonus, pts, self.taken = self._check_window(ev, p)
        self.completed[p] |= 1 << (ev["col"] - 1)
        self.kept[k - 1] += 1
        self.glass[p][frame] = k
        self.bonus_pts[p] += bonus
        self.window_pts[p] += pts
        self.scores[p] += bonus + pts

    def _move_marker(self, p, steps):
        # Marker down `steps` spaces; the bottom space costs its value and sends it to the top.
        last = len(self.track) - 1
        m = self.marker[p] + steps
        self.marker[p] = m % last
        lose = -self.track[last] * (m // last)   # one bottom value per pass over the bottom
        self.scores[p] -= lose
        self.reset_loss[p] += lose

    def _end_round(self):
        if self.next_start is not None:
            self.start_player = self.next_start
        self.next_start = None
        self.taken = 0
        self.completed = [0] * self.nplayers
        if self.round < _NROUNDS:
            self.round_scores.append(list(self.scores))
            self.round += 1
        else:
            self.closed = True
            self._finish()

    def _finish(self):
        # 遊戲結束: round VI has ended and every leftover is in (either order): final scoring
        if self.closed and not self.pending():
            for p in range(self.nplayers):
                self._final_score(p)
            self.finished = True
            self.round_scores.append(list(self.scores))

    def _final_score(self, p):
        # 遊戲結束 1) to 3).
        g = self.glass[p]
        colour = ""
        if self.variant == "A":
            side = 0
            for a, b in self.ornaments:
                side += ORNAMENT_POINTS[_panes(g, a) + _panes(g, b)]
        else:
            # the player names one colour: take the best, the first in COLOURS on a tie
            best = 0
            for k in range(len(COLOURS)):
                count = list(g).count(k + 1)
                if count > best:
                    best, colour = count, COLOURS[k]
            side = best * _complete(g)
        left = self.leftover[p] // 3
        penalty = -self.track[self.marker[p]]
        self.final[p] = (left, penalty, side, colour)
        self.scores[p] += left - penalty + side

    # ---- the rest of the contract ----
    def pending(self):
        # Round VI needs every player's leftover glass; other rounds need nothing.
        if self.finished or self.round < _NROUNDS:
            return []
        out = []
        for p in range(self.nplayers):
            if self.leftover[p] is None:
                out.append(("leftover", p))
        return out

    def rank_key(self, p):
        return (self.scores[p], -self.lost_on_track(p))

    def breakdown(self, p):
        # windows + colour_bonus - track_resets - marker_penalty + leftover_points + side_points == total.
        left, penalty, side, colour = self.final[p] or (0, 0, 0, "")
        d = {"windows": self.window_pts[p], "colour_bonus": self.bonus_pts[p],
             "track_resets": self.reset_loss[p], "marker_penalty": penalty,
             "glass_lost": self.lost_on_track(p), "leftover_points": left,
             "side_points": side, "total": self.scores[p]}
        if self.variant == "B":
            d["complete_windows"] = _complete(self.glass[p])
            d["colour"] = colour
        return d
