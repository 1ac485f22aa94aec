"""Check a claimed Azul score against a player's final wall (Azul 2017, seed 002; the
"verify" of petrochen/azul-score): the fewest and the most placement points the wall could
have scored over every legal placement order, its end bonuses, and a verdict on a claim.

Legal orders (計分, B. 牆面鋪磚, 遊戲結束): a round places at most one tile a row, top to
bottom, and scores each as it lands; the game ends after the round in which a row is
completed, so every complete row's last tile lands in the final round and no earlier round
completes one. Earlier rounds are free (one tile a round plays any order), so:

    points = best over F of [best over every order of the wall less F] + F top to bottom

F, the final round, holds one tile of each complete row and at most one of each other row,
of which only those sharing a column run with a complete row's tile need trying (finals()).
The first part is a dynamic programme over the subsets of the wall's tiles (dp[S]: the
best of S in any order, the tile placed last tried in turn); a tile's points depend only
on the runs through it, so groups of tiles that touch none of each other (4-neighbours)
are independent: the programme runs over each group's subsets, 2**n of them (one byte each
for the fewest and for the most). A group without a complete row plays freely (its tiles
need no place in the final round). The most rarely needs the programme: a bound on any
order's points (upper()) over every final round, and an order that scores it (witness()),
prove it for all but about one wall in 300 (tests/test_verify.py checks the figures
against a brute force over every legal sequence of rounds). A wall is a 25-bit mask, bit
r * 5 + c.

Bonuses do not depend on the order (遊戲結束): +2 a complete row, +7 a complete column, +10
a colour with all 5 tiles. The coloured wall prints each cell's colour; the grey wall's are
not in the cells (變體規則: each row and column holds a colour once), so its colour bonus
is a range: at least 10 * (tiles - 20) (5 colours of at most 4 tiles hold 20, and a
bipartite graph's edges split into 5 matchings whose sizes differ by 1 at most: de Werra),
at most 10 * the most tile sets one to a row and column that the wall holds apart (the rest
then take the other colours, one to a row and column: König).
"""
from rules_core import const

FULL = const(0x1FFFFFF)
_ROW = const(0b11111)
_LEFT = const(0xF7BDEF)    # cells with a cell to their right (not column 5)
_RIGHT = const(0x1EF7BDE)  # cells with a cell to their left (not column 1)
ROW_BONUS = const(2)
COLUMN_BONUS = const(7)
COLOUR_BONUS = const(10)

# _RUN[pattern * 5 + i]: the run through cell i of a row (or column) of 5 whose occupied
# cells are `pattern` (bit i set), as a placement scores it: its length if 2 or more, else 0
_RUN = bytearray(160)
for _p in range(32):
    for _i in range(5):
        if _p >> _i & 1:
            _a = _b = _i
            while _a > 0 and _p >> (_a - 1) & 1:
                _a -= 1
            while _b < 4 and _p >> (_b + 1) & 1:
                _b += 1
            if _b > _a:
                _RUN[_p * 5 + _i] = _b - _a + 1
_LOWBIT = bytearray(37)   # the index of bit 1 << i, at (1 << i) % 37 (distinct for i < 36)
for _i in range(25):
    _LOWBIT[(1 << _i) % 37] = _i
_SPREAD = [0] * 32   # a row's pattern as a column's: bit c to bit c * 5
for _p in range(32):
    for _i in range(5):
        if _p >> _i & 1:
            _SPREAD[_p] |= 1 << (_i * 5)
_COLUMN = const(0x108421)  # column 1's cells
del _p, _i, _a, _b


def parse_wall(text):
    """The wall of "xxxxx,.x.x.,..x..,.....,x...." (5 rows of 5: x a tile, . empty) as a
    mask; ValueError naming what is wrong."""
    rows = text.strip().split(",") if type(text) is str else ()
    if len(rows) != 5:
        raise ValueError("a wall is 5 rows of 5 separated by commas (x a tile, . empty), got %d rows" % len(rows))
    mask = 0
    for r in range(5):
        row = rows[r].strip()
        if len(row) != 5:
            raise ValueError("row %d has %d cells, not 5: %r" % (r + 1, len(row), row))
        for c in range(5):
            ch = row[c]
            if ch in "xX":
                mask |= 1 << (r * 5 + c)
            elif ch != ".":
                raise ValueError("row %d, column %d is %r: x is a tile, . an empty cell" % (r + 1, c + 1, ch))
    return mask


def wall_text(mask):
    """The mask as parse_wall reads it."""
    rows = []
    for r in range(5):
        rows.append("".join(["x" if mask >> (r * 5 + c) & 1 else "." for c in range(5)]))
    return ",".join(rows)


def transpose(mask):
    """Cell (r, c) to (c, r): columns read as rows."""
    out = 0
    for r in range(5):
        out |= _SPREAD[mask >> (r * 5) & _ROW] << r
    return out


def column(mask, c):
    """Column c's pattern (bit r: row r)."""
    x = mask >> c & _COLUMN
    return (x | x >> 4 | x >> 8 | x >> 12 | x >> 16) & _ROW


def points(mask, t):
    """The points of tile t (r * 5 + c) placed next to the tiles of `mask` (計分): 1 alone,
    else its horizontal run if 2 or more plus its vertical run if 2 or more."""
    mask |= 1 << t
    r, c = t // 5, t % 5
    p = _RUN[(mask >> (r * 5) & _ROW) * 5 + c] + _RUN[column(mask, c) * 5 + r]
    return p or 1


def complete_rows(mask):
    """Bits r of the complete rows."""
    out = 0
    for r in range(5):
        if mask >> (r * 5) & _ROW == _ROW:
            out |= 1 << r
    return out


def bonus(mask, grey=False):
    """(rows and columns, colours): the end bonuses (遊戲結束); colours None on the grey wall."""
    n = 0
    for r in range(5):
        n += complete_rows(mask) >> r & 1
    b = n * ROW_BONUS
    n = 0
    cols = complete_rows(transpose(mask))
    for c in range(5):
        n += cols >> c & 1
    b += n * COLUMN_BONUS
    if grey:
        return b, None
    n = 0
    for k in range(5):  # colour k sits in row r, column (k + r) % 5 (the printed wall)
        whole = 1
        for r in range(5):
            whole &= mask >> (r * 5 + (k + r) % 5) & 1
        n += whole
    return b, n * COLOUR_BONUS


def grey_colours(mask):
    """(fewest, most) colours the grey wall's tiles can complete (see the module's docstring)."""
    tiles = 0
    for t in range(25):
        tiles += mask >> t & 1
    sets = []  # the wall's tile sets one to a row and column
    _transversals(mask, 0, 0, 0, sets)
    cap = 5  # a colour takes a tile of every row and column: no more than the fewest
    for line in range(5):
        cap = min(cap, _count(mask >> (line * 5) & _ROW), _count(column(mask, line)))
    return max(0, tiles - 20), _disjoint(sets, 0, 0, cap)


def _transversals(mask, r, used, cells, out):
    if r == 5:
        out.append(cells)
        return
    for c in range(5):
        if not used >> c & 1 and mask >> (r * 5 + c) & 1:
            _transversals(mask, r + 1, used | 1 << c, cells | 1 << (r * 5 + c), out)


def _disjoint(sets, start, taken, cap):
    # the most of sets[start:] (at most cap) that share no tile with each other nor `taken`
    best = 0
    for i in range(start, len(sets)):
        if best == cap:
            break
        if not sets[i] & taken:
            n = 1 + _disjoint(sets, i + 1, taken | sets[i], cap - 1)
            if n > best:
                best = n
    return best


def groups(mask):
    """The wall's tiles as groups touching none of each other (4-neighbours): masks."""
    out = []
    left = mask
    while left:
        group = left & -left
        grown = 0
        while grown != group:
            grown = group
            group |= (group << 5 | group >> 5 | (group & _LEFT) << 1 | (group & _RIGHT) >> 1) & mask
        out.append(group)
        left &= ~group
    return out


def lines(mask):
    """The runs of tiles in the rows of `mask` (masks), row by row, left to right."""
    out = []
    for r in range(5):
        p = mask >> (r * 5) & _ROW
        while p:
            run = p ^ (p & (p + (p & -p)))  # the run of ones from the lowest
            out.append(run << (r * 5))
            p ^= run
    return out


def _most(n):
    # the most a run of n tiles can score in its direction: grown from one end, 2 + ... + n
    return n * (n + 1) // 2 - 1 if n > 1 else 0


def upper(mask):
    """The most the tiles of `mask` can score in any order, or more: each row and column run
    scores at most 2 + 3 + ... + n (grown from one tile, one a turn beside it), and a tile
    scores 1 alone only when it starts both its row run and its column run; a run started
    twice loses at least 2 (so at most the most tiles starting a row run and a column run,
    no two in one run, can: a matching of row runs with column runs)."""
    rows, cols, where = _runs(mask)
    best = 0
    for n in rows + cols:
        best += _most(n)
    links = [0] * len(rows)  # per row run: the column runs of its tiles (bits)
    for t in range(25):
        if mask >> t & 1:
            links[where[t] >> 4] |= 1 << (where[t] & 15)
    match = [-1] * len(cols)
    for i in range(len(rows)):
        best += _augment(links, match, i, 0)
    return best


def _runs(mask):
    # (lengths of the row runs, of the column runs, per tile its row run * 16 + its column
    # run: at most 15 of each)
    rows = []
    cols = []
    where = bytearray(25)
    for t in range(25):  # row by row
        if mask >> t & 1:
            if t % 5 and mask >> (t - 1) & 1:
                rows[-1] += 1
            else:
                rows.append(1)
            where[t] = (len(rows) - 1) << 4
    for k in range(25):  # column by column
        t = k % 5 * 5 + k // 5
        if mask >> t & 1:
            if t >= 5 and mask >> (t - 5) & 1:
                cols[-1] += 1
            else:
                cols.append(1)
            where[t] |= len(cols) - 1
    return rows, cols, where


def _augment(links, match, i, seen):
    # Kuhn's augmenting path from row run i; 1 when it matched
    free = links[i] & ~seen
    j = 0
    while free:
        if free & 1:
            seen |= 1 << j
            if match[j] < 0 or _augment(links, match, match[j], seen):
                match[j] = i
                return 1
        free >>= 1
        j += 1
    return 0


def witness(mask, turn=0):
    """The points of an order of the tiles of `mask` that upper() may equal (None when the
    order it tries has a cycle): tiles matched by upper() first, each row and column run
    then grown from its first tile outwards, that tile its matched one or the nearest to
    them. turn: 1 tries the other way round (the matching and ties from the other end)."""
    rows, cols, where = _runs(mask)
    links = [0] * len(rows)
    cell = {}  # (row run, column run): their tile
    for t in range(25):
        if mask >> t & 1:
            links[where[t] >> 4] |= 1 << (where[t] & 15)
            cell[where[t]] = t
    match = [-1] * len(cols)
    for i in (range(len(rows) - 1, -1, -1) if turn else range(len(rows))):
        _augment(links, match, i, 0)
    first = 0
    for j in range(len(cols)):
        if match[j] >= 0:
            first |= 1 << cell[match[j] << 4 | j]
    # distances from the matched tiles; each run grows from its nearest tile
    dist = bytearray(25)
    for t in range(25):
        dist[t] = 0 if first >> t & 1 else 99
    reached = first
    d = 0
    while reached:
        d += 1
        near = (reached << 5 | reached >> 5 | (reached & _LEFT) << 1 | (reached & _RIGHT) >> 1) & mask
        reached = 0
        for t in range(25):
            if near >> t & 1 and dist[t] == 99:
                dist[t] = d
                reached |= 1 << t
    seed_row = [-1] * len(rows)
    seed_col = [-1] * len(cols)
    for t in (range(24, -1, -1) if turn else range(25)):
        if mask >> t & 1:
            i, j = where[t] >> 4, where[t] & 15
            if seed_row[i] < 0 or dist[t] < dist[seed_row[i]] or first >> t & 1:
                seed_row[i] = t
            if seed_col[j] < 0 or dist[t] < dist[seed_col[j]] or first >> t & 1:
                seed_col[j] = t
    # before[t]: the tiles that come before t (its neighbours nearer its runs' first tiles)
    before = [0] * 25
    for t in range(25):
        if not mask >> t & 1:
            continue
        i, j = where[t] >> 4, where[t] & 15
        for u, k, seed in ((t - 1, 1, seed_row[i]), (t + 1, 1, seed_row[i]), (t - 5, 5, seed_col[j]), (t + 5, 5, seed_col[j])):
            if 0 <= u < 25 and mask >> u & 1 and (k == 5 or u // 5 == t // 5):
                if _apart(seed, u, k) < _apart(seed, t, k):
                    before[t] |= 1 << u
    placed = 0
    total = 0
    left = mask
    while left:
        ready = 0
        for t in range(25):
            if left >> t & 1 and before[t] & ~placed == 0:
                ready = 1
                total += points(placed, t)
                placed |= 1 << t
                left ^= 1 << t
        if not ready:
            return None
    return total


def _apart(a, b, step):
    # how far tile b is from tile a along a row (step 1) or a column (step 5)
    return abs(a % 5 - b % 5) if step == 1 else abs(a // 5 - b // 5)


def finals(mask):
    """The final rounds worth trying (a generator): the tiles of each, as a mask and a list
    top to bottom. One of each complete row; of another row, none or one in a column run of
    a complete row's tile: a final round's tile that shares no column run with such a tile
    plays nothing another order of the earlier rounds does not (placed last among them,
    its runs see the same tiles)."""
    done = complete_rows(mask)
    colrun = [0] * 25  # each tile's column run
    for run in lines(transpose(mask)):
        run = transpose(run)
        for t in range(25):
            if run >> t & 1:
                colrun[t] = run
    rows = [r for r in range(5) if done >> r & 1]
    pick = [0] * len(rows)
    while True:
        tiles = 0
        reach = 0
        for k in range(len(rows)):
            t = rows[k] * 5 + pick[k]
            tiles |= 1 << t
            reach |= colrun[t]
        extra = []  # the other rows' choices: -1 (none) or a tile in those column runs
        for r in range(5):
            if not done >> r & 1:
                row = [-1]
                for c in range(5):
                    if reach >> (r * 5 + c) & 1:
                        row.append(r * 5 + c)
                extra.append(row)
        more = [0] * len(extra)
        while True:
            f = tiles
            for k in range(len(extra)):
                t = extra[k][more[k]]
                if t >= 0:
                    f |= 1 << t
            yield f
            k = len(extra) - 1
            while k >= 0 and more[k] == len(extra[k]) - 1:
                more[k] = 0
                k -= 1
            if k < 0:
                break
            more[k] += 1
        k = len(rows) - 1
        while k >= 0 and pick[k] == 4:
            pick[k] = 0
            k -= 1
        if k < 0:
            return
        pick[k] += 1


def final_points(mask, f):
    """The points of the final round `f` (tiles of `mask`), top to bottom, the others placed."""
    placed = mask & ~f
    p = 0
    for t in range(25):
        if f >> t & 1:
            p += points(placed, t)
            placed |= 1 << t
    return p


class Range:
    """The fewest and most placement points of a wall, worked out a piece at a time (a board
    runs step() in idle frames): step() until it returns False, then low and high.

    The most comes first and usually at once: upper() of the earlier rounds over every final
    round, then an order scoring it (witness()) proves it; where none does, the dynamic
    programme decides. The fewest needs the programme (dp=False: low stays None; high too
    where no order proved it). memory() says what the programme's arrays need: 2 * 2**n
    bytes for the largest group of n tiles, all of those with a complete row at once."""

    def __init__(self, mask, piece=64, dp=True):
        self.mask = mask & FULL
        self.piece = piece  # subsets a step works out
        self.dp = dp
        self.low = self.high = None
        self.groups = groups(self.mask)
        self.filled = 0  # the programme's subsets worked out so far (progress())
        self._work = self._run()

    def tiles(self):
        """The tiles of the largest group: the programme's size."""
        n = 0
        for g in self.groups:
            n = max(n, _count(g))
        return n

    def progress(self):
        """The share of the programme's subsets worked out, in percent (0 without it)."""
        total = 0
        for g in self.groups:
            total += 1 << _count(g)
        return 100 * self.filled // total if self.dp and total else 0

    def memory(self):
        done = complete_rows(self.mask)
        kept = other = 0
        for g in self.groups:
            need = 2 << _count(g)
            if complete_rows(g) & done:
                kept += need
            elif need > other:
                other = need
        return kept + other

    def step(self):
        """Work out a piece; False once all that can be known is."""
        if self._work is None:
            return False
        try:
            if next(self._work) is not None:
                return True
        except StopIteration:  # (CircuitPython's next() takes one argument)
            pass
        self._work = None
        return False

    def run(self):
        """Work it all out at once (host tools); (low, high)."""
        while self.step():
            pass
        return self.low, self.high

    def _run(self):
        # the most, proved by an order: the best bound over every final round, and an order
        # scoring it (tried where the bound is the best so far and not yet proved)
        top = -1
        proved = False
        n = 0
        for f in finals(self.mask):
            s = self.mask & ~f
            p = final_points(self.mask, f)
            u = upper(s) + p
            if u > top:
                top = u
                proved = False
            if u == top and not proved:
                proved = witness(s) == u - p or witness(s, 1) == u - p
            n += 1
            if n % 8 == 0:
                yield True
        if proved:
            self.high = top
        if not self.dp:
            return
        done = complete_rows(self.mask)
        final = []   # the groups with a complete row: (group, its tiles, dp min, dp max)
        free = [0, 0]  # the fewest and most of the others, added up
        for g in self.groups:
            cells = []
            for t in range(25):
                if g >> t & 1:
                    cells.append(t)
            lo = bytearray(1 << len(cells))
            hi = bytearray(1 << len(cells))
            for _ in _fill(cells, lo, hi, self.piece):
                self.filled += self.piece
                yield True
            if complete_rows(g) & done:
                final.append((g, cells, lo, hi))
            else:
                free[0] += lo[-1]
                free[1] += hi[-1]
            lo = hi = None
        low, high = (255, 0) if final else (0, 0)
        n = 0
        for f in finals(self.mask) if final else ():
            lo = hi = final_points(self.mask, f)
            for g, cells, dlo, dhi in final:
                i = _index(cells, g & ~f)
                lo += dlo[i]
                hi += dhi[i]
            low = min(low, lo)
            high = max(high, hi)
            n += 1
            if n % 16 == 0:
                yield True
        self.low = free[0] + low
        self.high = free[1] + high


def _count(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def _index(cells, mask):
    """The subset `mask` of `cells` (global bits) as its local index."""
    i = 0
    for j in range(len(cells)):
        if mask >> cells[j] & 1:
            i |= 1 << j
    return i


def _fill(cells, lo, hi, piece):
    """dp over the subsets of `cells`: lo[S], hi[S] the fewest and most points of the tiles
    of S placed in any order; yields every `piece` subsets."""
    n = len(cells)
    # a subset's tiles as the wall's bits and as its transpose's, a byte of it at a time
    rows = []
    cols = []
    for j in range(0, n, 8):
        rt = [0] * 256
        ct = [0] * 256
        for v in range(1, 256):
            low = v & -v
            b = _LOWBIT[low % 37]
            if j + b < n:
                t = cells[j + b]
                rt[v] = rt[v ^ low] | 1 << t
                ct[v] = ct[v ^ low] | 1 << (t % 5 * 5 + t // 5)
            else:
                rt[v] = rt[v ^ low]
                ct[v] = ct[v ^ low]
        rows.append(rt)
        cols.append(ct)
    # per tile: its row's shift and column, its column's shift and row
    rs = bytearray(n)
    cc = bytearray(n)
    cs = bytearray(n)
    rr = bytearray(n)
    for j in range(n):
        r, c = cells[j] // 5, cells[j] % 5
        rs[j], cc[j], cs[j], rr[j] = r * 5, c, c * 5, r
    run = _RUN
    lowbit = _LOWBIT
    chunks = len(rows)
    r0, c0 = rows[0], cols[0]
    r1 = rows[1] if chunks > 1 else None
    c1 = cols[1] if chunks > 1 else None
    for s in range(1, 1 << n):
        w = r0[s & 255]
        v = c0[s & 255]
        if chunks > 1:
            w |= r1[s >> 8 & 255]
            v |= c1[s >> 8 & 255]
            if chunks > 2:
                w |= rows[2][s >> 16 & 255]
                v |= cols[2][s >> 16 & 255]
                if chunks > 3:
                    w |= rows[3][s >> 24]
                    v |= cols[3][s >> 24]
        best = 0
        worst = 255
        b = s
        while b:
            low = b & -b
            j = lowbit[low % 37]
            p = run[(w >> rs[j] & 31) * 5 + cc[j]] + run[(v >> cs[j] & 31) * 5 + rr[j]] or 1
            q = s ^ low
            x = hi[q] + p
            if x > best:
                best = x
            x = lo[q] + p
            if x < worst:
                worst = x
            b ^= low
        lo[s] = worst
        hi[s] = best
        if s % piece == 0:
            yield True


def verdict(claim, low, high):
    """What a claimed score says against the range [low, high] of scores the wall allows:
    ("impossible", by how much it is over), ("plausible", 0), or ("floor", the fewest points
    that must have been lost on the floor)."""
    if claim > high:
        return "impossible", claim - high
    if claim >= low:
        return "plausible", 0
    return "floor", low - claim


class Check:
    """A wall's range of scores: the placement points (Range) plus the end bonuses; low and
    high once step() has returned False (run() at once), None where Range could not tell
    (dp=False). On the grey wall the colours add their range (grey_colours()); bonus holds
    the rows and columns there, and colour_bonus is None."""

    def __init__(self, mask, grey=False, piece=64, dp=True):
        self.mask = mask & FULL
        self.grey = grey
        self.bonus, self.colour_bonus = bonus(self.mask, grey)
        if grey:
            few, most = grey_colours(self.mask)
            self.colours = (few * COLOUR_BONUS, most * COLOUR_BONUS)
        else:
            self.colours = (0, 0)  # (in bonus)
            self.bonus += self.colour_bonus
        self.placement = Range(self.mask, piece, dp)
        self.low = self.high = None

    def step(self):
        """Work out a piece; False once all that can be known is."""
        if self.placement.step():
            return True
        r = self.placement
        if r.low is not None:
            self.low = r.low + self.bonus + self.colours[0]
        if r.high is not None:
            self.high = r.high + self.bonus + self.colours[1]
        return False

    def run(self):
        while self.step():
            pass
        return self.low, self.high

    def verdict(self, claim):
        """verdict() against what is known: with the fewest unknown, a claim not above the
        most is ("plausible", 0) only as far as the most can tell: None."""
        if self.high is None or (self.low is None and claim <= self.high):
            return None
        return verdict(claim, self.low, self.high)
