"""Full Azul engine (bag, lid, factories, centre, boards) for simulation and random playouts.

The rules are those of the Azul rulebook (seed 002, digest shared/rules/azul.md); the
scoring class for records is AzulRules in azul.py, and the engine writes the same v1 record
events the table would enter, so the two can be checked against each other.

Speed matters here (millions of playouts), so the state is kept as flat lists of small ints
and 25-bit masks, and a uniformly random legal move is drawn from per-colour counts without
building the move list. Conventions (all 0-based inside, 1-based in records):
  move = (source, colour, line): source 0 = centre, 1..F = factories; colour index into
  COLOURS; line 0 = floor, 1..5 = pattern lines.
  wall bit r*5+col (cell row r, column col); rowcol bit r*5+colour (row r holds colour).

Cases the rulebook leaves open, decided here:
  - the marker taken onto a floor already holding 7 tiles: the last tile goes to the lid (the
    floor keeps 7 occupied slots, so the penalty is the same either way);
  - nobody took the marker (every take came from a factory): the same player starts again
    and the round has no "first" event;
  - grey wall: a line dropped to the floor counts in the wall event's "floor" (capped at 7);
  - a game that can no longer end (see ROUND_LIMIT) stops with `stalled` True, no end
    bonuses and winners by the scores as they stand; its record replays as unfinished.
"""
from rules_core import RuleError, const
from rules_core.games import game
from rules_core.azul import (COLOURS, FLOOR_PENALTY, FLOOR_SLOTS, ROW_BONUS, COLUMN_BONUS,
                             COLOUR_BONUS, TILES_PER_COLOUR, wall_column)

VARIANTS = game("azul").variants
FACTORIES = {2: 5, 3: 7, 4: 9}        # displays per player count
TILES_PER_FACTORY = const(4)
# Random play can lock a game (grey-wall rows no colour can finish any more, or the tiles a row
# needs stuck on other unfinishable lines); after this many rounds it is abandoned. Random games
# that finish take 6-7 rounds (median) and at most about 40 (measured on 12,000 games).
ROUND_LIMIT = const(100)


def _tables():
    pop = [0] * 32
    nth = [0] * 256       # nth[m*8 + i]: position of the i-th (0-based) set bit of 5-bit mask m
    run = [0] * 160       # run[m*5 + i]: length of the run of set bits of m through bit i (0 if unset)
    for m in range(32):
        bits = [i for i in range(5) if m >> i & 1]
        pop[m] = len(bits)
        for j in range(len(bits)):
            nth[m * 8 + j] = bits[j]
        for i in bits:
            lo = i
            while lo > 0 and m >> (lo - 1) & 1:
                lo -= 1
            hi = i
            while hi < 4 and m >> (hi + 1) & 1:
                hi += 1
            run[m * 5 + i] = hi - lo + 1
    lost = [0] * (FLOOR_SLOTS + 1)   # lost[n]: total penalty of n occupied slots
    for n in range(FLOOR_SLOTS):
        lost[n + 1] = lost[n] + FLOOR_PENALTY[n]
    return pop, nth, run, lost


_POP, _NTH, _RUN, _LOST = _tables()
_ROW_MASK = tuple(31 << (5 * r) for r in range(5))                       # 5 cells of row r (or column r in a transposed mask)
_COLOUR_MASK = tuple(sum(1 << (5 * r + c) for r in range(5)) for c in range(5))  # colour c in every row (rowcol)


def _pop25(m):
    return _POP[m & 31] + _POP[m >> 5 & 31] + _POP[m >> 10 & 31] + _POP[m >> 15 & 31] + _POP[m >> 20 & 31]


def _can_assign(colours, i, free, colcol):
    """Can colours[i:] go to distinct columns of `free` (bit mask), colour c avoiding colcol[c]?"""
    if i == len(colours):
        return True
    ok = free & ~colcol[colours[i]]
    while ok:
        b = ok & -ok
        if _can_assign(colours, i + 1, free ^ b, colcol):
            return True
        ok ^= b
    return False


class AzulEngine:
    """One Azul game from the first refill to the final bonuses; see the module docstring for moves."""

    def __init__(self, nplayers, rng, variant="colored", start=0):
        if nplayers not in FACTORIES:
            raise RuleError("azul needs 2 to 4 players, not %r" % (nplayers,))
        if variant not in VARIANTS:
            raise RuleError("unknown azul variant %r (colored or grey)" % (variant,))
        if not 0 <= start < nplayers:
            raise RuleError("start player %r out of range" % (start,))
        n = nplayers
        self.nplayers = n
        self.rng = rng
        self.variant = variant
        self.grey = variant == "grey"
        self.nfac = FACTORIES[n]
        self.src = [[0] * 5 for _ in range(self.nfac + 1)]  # tiles per colour; [0] = centre
        self.nsrc = [0] * 5          # number of sources holding colour c
        self.left = 0                # tiles in all sources; the offer ends at 0
        self.bag = [TILES_PER_COLOUR] * 5
        self.bag_n = 5 * TILES_PER_COLOUR
        self.lid = [0] * 5
        self.lid_n = 0
        self.lcol = [[-1] * 5 for _ in range(n)]   # colour on pattern line r (-1 empty)
        self.lcnt = [[0] * 5 for _ in range(n)]    # tiles on pattern line r (holds r+1 when full)
        self.lmask = [[31] * 5 for _ in range(n)]  # bit r: line r+1 may take colour c now
        self.kopt = [[6] * 5 for _ in range(n)]    # 1 + popcount(lmask): places for colour c, floor included
        self.wall = [0] * n          # bit r*5+col
        self.wallT = [0] * n         # transposed: bit col*5+r
        self.rowcol = [0] * n        # bit r*5+colour
        self.colcol = [[0] * 5 for _ in range(n)]  # bit col: column holds colour c (the grey wall's rule)
        self.ftiles = [0] * n        # tiles on the floor (marker not counted); tiles + marker <= 7
        self.fcol = [[0] * 5 for _ in range(n)]
        self.holder = -1             # who took the marker this round; -1 while it is in the centre
        self.scores = [0] * n
        self.start = start
        self.cur = start
        self.round = 0
        self.finished = False
        self.winners = None
        self.stalled = False         # True when the game stopped with no row completable (see _end_round)
        self.events = []
        self._new_round()

    # ---- round flow -------------------------------------------------------------------------
    def _new_round(self):
        """Refill every factory with 4 tiles: lid into the bag when it runs out; short when both are empty."""
        bag = self.bag
        src = self.src
        nsrc = self.nsrc
        randbelow = self.rng.randbelow
        bag_n = self.bag_n
        need = TILES_PER_FACTORY * self.nfac
        pos = 0                    # tiles drawn so far; tile i goes to factory 1 + i // 4
        while pos < need:
            if bag_n == 0:
                if self.lid_n == 0:
                    break          # both empty: the remaining factories stay short
                lid = self.lid
                for c in range(5):
                    bag[c] += lid[c]
                    lid[c] = 0
                bag_n = self.lid_n
                self.lid_n = 0
            # up to three draws from one number in mixed radix bag_n, bag_n-1, bag_n-2
            # (each digit uniform and independent; the product stays below 2**20)
            k = need - pos
            if k > 3:
                k = 3
            if k > bag_n:
                k = bag_n
            span = bag_n
            for i in range(1, k):
                span *= bag_n - i
            x = randbelow(span)
            while k:
                d = x % bag_n
                x //= bag_n
                c = 0
                while d >= bag[c]:
                    d -= bag[c]
                    c += 1
                bag[c] -= 1
                bag_n -= 1
                fac = src[1 + (pos >> 2)]
                if not fac[c]:
                    nsrc[c] += 1
                fac[c] += 1
                pos += 1
                k -= 1
        self.bag_n = bag_n
        self.left = pos
        self.holder = -1
        self.cur = self.start
        self.round += 1
        if pos == 0:
            # every tile sits on walls and unfinishable lines: no further round can be played
            self.stalled = True
            self._final_scoring()

    def _end_round(self):
        """Wall tiling (top to bottom, immediate scoring), floor penalties, record events, next round or end."""
        n = self.nplayers
        grey = self.grey
        lid = self.lid
        events = self.events
        randbelow = self.rng.randbelow
        run = _RUN
        ended = False
        for p in range(n):
            lcol = self.lcol[p]
            lcnt = self.lcnt[p]
            lmask = self.lmask[p]
            kopt = self.kopt[p]
            colcol = self.colcol[p]
            fcol = self.fcol[p]
            wall = self.wall[p]
            wallT = self.wallT[p]
            rowcol = self.rowcol[p]
            score = self.scores[p]
            ftiles = self.ftiles[p]
            slots = ftiles + (self.holder == p)
            tiles = []
            for r in range(5):
                if lcnt[r] != r + 1:
                    continue
                c = lcol[r]
                if grey:
                    free = ~(wall >> (5 * r) | colcol[c]) & 31
                    if free:
                        col = _NTH[free * 8 + randbelow(_POP[free])]
                    else:
                        col = -1      # no legal cell: all r+1 tiles go to the floor
                else:
                    col = wall_column(r, c)
                if col >= 0:
                    wall |= 1 << (5 * r + col)
                    wallT |= 1 << (5 * col + r)
                    rowcol |= 1 << (5 * r + c)
                    colcol[c] |= 1 << col
                    h = run[(wall >> (5 * r) & 31) * 5 + col]
                    v = run[(wallT >> (5 * col) & 31) * 5 + r]
                    if h == 1:
                        score += 1 if v == 1 else v
                    else:
                        score += h if v == 1 else h + v
                    lid[c] += r
                    self.lid_n += r
                    if grey:
                        tiles.append([r + 1, col + 1, COLOURS[c]])
                    else:
                        tiles.append([r + 1, COLOURS[c]])
                    if wall & _ROW_MASK[r] == _ROW_MASK[r]:
                        ended = True
                else:
                    room = FLOOR_SLOTS - slots
                    m = r + 1 if r + 1 < room else room
                    slots += m
                    ftiles += m
                    fcol[c] += m
                    lid[c] += r + 1 - m
                    self.lid_n += r + 1 - m
                lcol[r] = -1
                lcnt[r] = 0
                bit = 1 << r
                for c2 in range(5):   # the emptied line takes any colour its wall row lacks
                    if not rowcol >> (5 * r + c2) & 1:
                        lmask[c2] |= bit
                        kopt[c2] += 1
            score -= _LOST[slots]
            if score < 0:
                score = 0
            if ftiles:
                for c in range(5):
                    lid[c] += fcol[c]
                    fcol[c] = 0
                self.lid_n += ftiles
                self.ftiles[p] = 0
            self.wall[p] = wall
            self.wallT[p] = wallT
            self.rowcol[p] = rowcol
            self.scores[p] = score
            events.append({"e": "wall", "p": p, "tiles": tiles, "floor": slots})
        if self.holder >= 0:
            events.append({"e": "first", "p": self.holder})
            self.start = self.holder   # nobody took it: the same player starts again
        events.append({"e": "end_round"})
        if ended:
            self._final_scoring()
        elif self.round >= ROUND_LIMIT or (grey and not self._row_still_possible()):
            # no row can be filled any more (grey wall), or tiles locked on unfinishable lines starve
            # the rows: the rules give no end, so the game is abandoned with the scores as they stand
            self.stalled = True
            self._final_scoring()
        else:
            self._new_round()

    def _final_scoring(self):
        """End bonuses (not for an abandoned game); winners by score, then most complete rows, else shared."""
        best = None
        for p in range(self.nplayers):
            rows = self.complete_rows(p)
            if not self.stalled:
                cols = 0
                colours = 0
                for i in range(5):
                    if self.wallT[p] & _ROW_MASK[i] == _ROW_MASK[i]:
                        cols += 1
                    if self.rowcol[p] & _COLOUR_MASK[i] == _COLOUR_MASK[i]:
                        colours += 1
                self.scores[p] += ROW_BONUS * rows + COLUMN_BONUS * cols + COLOUR_BONUS * colours
            key = (self.scores[p], rows)
            if best is None or key > best:
                best = key
                self.winners = [p]
            elif key == best:
                self.winners.append(p)
        self.finished = True

    def _row_still_possible(self):
        """Grey wall: can some player still complete some row (its missing colours matched to its
        empty cells, no column taking a colour it already holds)? Constraints only grow, so no is final."""
        for p in range(self.nplayers):
            for r in range(5):
                missing = [c for c in range(5) if not self.rowcol[p] >> (5 * r + c) & 1]
                if _can_assign(missing, 0, ~(self.wall[p] >> (5 * r)) & 31, self.colcol[p]):
                    return True
        return False

    def complete_rows(self, p):
        k = 0
        for r in range(5):
            if self.wall[p] & _ROW_MASK[r] == _ROW_MASK[r]:
                k += 1
        return k

    # ---- moves ------------------------------------------------------------------------------
    def _take(self, p, s, c, line):
        """Play a move already known to be legal for player p."""
        src = self.src
        nsrc = self.nsrc
        fac = src[s]
        n = fac[c]
        fac[c] = 0
        nsrc[c] -= 1
        self.left -= n
        slots = self.ftiles[p]
        if s:
            centre = src[0]
            for c2 in range(5):
                m = fac[c2]
                if m:
                    fac[c2] = 0
                    if centre[c2]:
                        nsrc[c2] -= 1   # the centre already counted as a source of c2
                    centre[c2] += m
        elif self.holder < 0:
            self.holder = p
            if slots == FLOOR_SLOTS:
                # the marker takes a slot; a floor already full loses its last tile to the lid
                fcol = self.fcol[p]
                c2 = 0
                while not fcol[c2]:
                    c2 += 1
                fcol[c2] -= 1
                self.lid[c2] += 1
                self.lid_n += 1
                slots -= 1
                self.ftiles[p] = slots
        if self.holder == p:
            slots += 1
        if line:
            r = line - 1
            lcnt = self.lcnt[p]
            lmask = self.lmask[p]
            kopt = self.kopt[p]
            bit = 1 << r
            cnt = lcnt[r]
            if cnt == 0:
                self.lcol[p][r] = c
                for c2 in range(5):   # a started line takes only its own colour
                    if c2 != c and lmask[c2] & bit:
                        lmask[c2] ^= bit
                        kopt[c2] -= 1
            room = line - cnt
            if n >= room:
                lcnt[r] = line
                lmask[c] ^= bit
                kopt[c] -= 1
                n -= room
            else:
                lcnt[r] = cnt + n
                n = 0
        if n:
            room = FLOOR_SLOTS - slots
            if n > room:
                self.lid[c] += n - room
                self.lid_n += n - room
                n = room
            self.ftiles[p] += n
            self.fcol[p][c] += n
        self.cur = (p + 1) % self.nplayers
        if self.left == 0:
            self._end_round()

    def _sample(self, p):
        """A uniformly random legal move of player p, drawn from counts (no move list)."""
        k = self.kopt[p]
        ns = self.nsrc
        t0 = ns[0] * k[0]
        t1 = t0 + ns[1] * k[1]
        t2 = t1 + ns[2] * k[2]
        t3 = t2 + ns[3] * k[3]
        x = self.rng.randbelow(t3 + ns[4] * k[4])
        if x < t1:
            if x < t0:
                c = 0
            else:
                c = 1
                x -= t0
        elif x < t2:
            c = 2
            x -= t1
        elif x < t3:
            c = 3
            x -= t2
        else:
            c = 4
            x -= t3
        kc = k[c]
        j = x // kc           # the j-th source (centre first) holding colour c
        li = x - j * kc       # the li-th place for it: 0 = floor, then legal lines top to bottom
        s = 0
        for fac in self.src:
            if fac[c]:
                if j == 0:
                    break
                j -= 1
            s += 1
        if li:
            return s, c, _NTH[self.lmask[p][c] * 8 + li - 1] + 1
        return s, c, 0

    def legal_moves(self):
        """Every legal move of the player to move, ordered by source, colour, line."""
        if self.finished:
            return []
        p = self.cur
        lmask = self.lmask[p]
        moves = []
        for s in range(self.nfac + 1):
            fac = self.src[s]
            for c in range(5):
                if fac[c]:
                    moves.append((s, c, 0))
                    for r in range(5):
                        if lmask[c] >> r & 1:
                            moves.append((s, c, r + 1))
        return moves

    def apply(self, move):
        """Play move (source, colour, line) for the player to move; RuleError if the rules forbid it."""
        if self.finished:
            raise RuleError("the game is over")
        s, c, line = move
        if not 0 <= s <= self.nfac:
            raise RuleError("source %r does not exist (0 = centre, 1..%d = factories)" % (s, self.nfac))
        if not 0 <= c < 5:
            raise RuleError("colour %r is not 0..4" % (c,))
        if not 0 <= line <= 5:
            raise RuleError("line %r is not 0 (floor) or 1..5" % (line,))
        if not self.src[s][c]:
            where = "the centre" if s == 0 else "factory %d" % s
            raise RuleError("%s has no %s" % (where, COLOURS[c]))
        p = self.cur
        if line:
            r = line - 1
            if self.rowcol[p] >> (5 * r + c) & 1:
                raise RuleError("row %d already has %s on the wall" % (line, COLOURS[c]))
            if self.lcnt[p][r] == line:
                raise RuleError("pattern line %d is full" % line)
            if self.lcnt[p][r] and self.lcol[p][r] != c:
                raise RuleError("pattern line %d holds %s, not %s" % (line, COLOURS[self.lcol[p][r]], COLOURS[c]))
        self._take(p, s, c, line)

    def random_move(self):
        """A uniformly random legal move of the player to move (the playout policy)."""
        if self.finished:
            raise RuleError("the game is over")
        return self._sample(self.cur)

    def play_random(self):
        """Play uniformly random legal moves until the game ends."""
        sample = self._sample
        take = self._take
        while not self.finished:
            p = self.cur
            s, c, line = sample(p)
            take(p, s, c, line)

    # ---- inspection -------------------------------------------------------------------------
    def tile_counts(self):
        """Where the 100 tiles are (the first-player marker is not a tile)."""
        lines = 0
        walls = 0
        for p in range(self.nplayers):
            lines += sum(self.lcnt[p])
            walls += _pop25(self.wall[p])
        return {
            "bag": sum(self.bag), "lid": sum(self.lid), "centre": sum(self.src[0]),
            "factories": sum(sum(f) for f in self.src[1:]), "lines": lines, "walls": walls,
            "floors": sum(self.ftiles),
        }


def random_game(nplayers, seed, variant="colored"):
    """One complete game of uniformly random legal moves: (header, events, final scores, winners)."""
    from rules_core.rng import Rng
    eng = AzulEngine(nplayers, Rng(seed), variant)
    eng.play_random()
    header = {"format": "azul-companion-record", "v": 1, "game": "azul", "variant": variant,
              "players": ["P%d" % (i + 1) for i in range(nplayers)], "options": {}}
    return header, eng.events, list(eng.scores), eng.winners
