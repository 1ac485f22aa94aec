"""Azul (2017): wall-tiling scoring for the coloured and the grey wall.

Board data (rulebook seeds 002 zh-TW / 003 ja; digest shared/rules/azul.md):
- COLOURS: the five tile colours; the coloured wall's row r (0-based) reads
  COLOURS[(c - r) % 5] for c = 0..4 (printed on the player board).
- FLOOR_PENALTY: the floor line's printed slots, left to right ("4 tiles and the marker:
  lose 8" = 1+1+2+2+2, seed 002 "計分").
- TILES_PER_COLOUR: 100 tiles, 20 of each colour (遊戲設置 4). Tiles on a wall stay there;
  the rest of a completed line goes to the box lid and back into the bag, so at a round's
  end the walls as they were before it plus this round's complete lines (a line of row r
  holds r tiles) hold at most 20 of a colour.
- A round brings out the tiles on its factories, 4 each (遊戲設置 3 and 5: 5, 7, 9 factories
  for 2, 3, 4 players; C. 準備下一輪: refilled with 4, some short when bag and lid run out).
  Every tile a player takes goes to a pattern line or the floor (A. 工廠供應), so the lines
  completed and the floors of a round need at most that many new tiles, besides the marker's
  slot on one floor. A line completed needs all its r tiles new in round 1 (the lines start
  empty) and when it was completed the round before (B. 牆面鋪磚: then emptied), else at
  least 1 (an incomplete line keeps its tiles); on the grey wall a complete line with no
  cell drops all its tiles to the floor (變體規則), those kept from earlier rounds too.
A wall is a 25-bit mask, bit r*5+c for row r, column c (0-based); `cells` keeps the colour
of every cell (the grey wall has no printed colours).
"""
from rules_core.games import Rules, player, check_int, int_field
from rules_core import RecordError, RuleError, const

COLOURS = ("blue", "yellow", "red", "black", "white")
FLOOR_PENALTY = (1, 1, 2, 2, 2, 3, 3)
FLOOR_SLOTS = const(7)
TILES_PER_COLOUR = const(20)
ROW_BONUS = const(2)
COLUMN_BONUS = const(7)
COLOUR_BONUS = const(10)
_FULL_ROW = const(0b11111)


def wall_column(row, colour):
    """0-based column of `colour` (index) in 0-based `row` of the coloured wall."""
    return (colour + row) % 5


def placement_points(mask, row, col):
    """Points for a tile placed at (row, col) next to the tiles in `mask` (rulebook "計分").

    1 if it touches nothing; otherwise the horizontal run (if >= 2) plus the vertical run
    (if >= 2), both counting the new tile.
    """
    mask |= 1 << (row * 5 + col)
    h = 1
    c = col - 1
    while c >= 0 and mask >> (row * 5 + c) & 1:
        h += 1
        c -= 1
    c = col + 1
    while c < 5 and mask >> (row * 5 + c) & 1:
        h += 1
        c += 1
    v = 1
    r = row - 1
    while r >= 0 and mask >> (r * 5 + col) & 1:
        v += 1
        r -= 1
    r = row + 1
    while r < 5 and mask >> (r * 5 + col) & 1:
        v += 1
        r += 1
    if h == 1 and v == 1:
        return 1
    return (h if h > 1 else 0) + (v if v > 1 else 0)


def floor_penalty(slots):
    """Points lost for `slots` occupied floor slots (0..7)."""
    return sum(FLOOR_PENALTY[:slots])


def complete_rows(mask):
    n = 0
    for r in range(5):
        if (mask >> (r * 5)) & _FULL_ROW == _FULL_ROW:
            n += 1
    return n


def complete_columns(mask):
    col = 1 | 1 << 5 | 1 << 10 | 1 << 15 | 1 << 20
    n = 0
    for c in range(5):
        if (mask >> c) & col == col:
            n += 1
    return n


def colour_index(name):
    if name not in COLOURS:
        raise RecordError("unknown colour %r (one of %s)" % (name, ", ".join(COLOURS)))
    return COLOURS.index(name)


class AzulRules(Rules):
    GAME = "azul"
    TIEBREAK = "most complete horizontal rows"

    def __init__(self, variant, nplayers, options):
        Rules.__init__(self, variant, nplayers, options)
        # rounds_total stays None: the game ends after the round in which a row completes
        self.grey = self.variant == "grey"
        self.walls = [0] * nplayers
        self.cells = []  # a player's wall: colour index + 1 per cell, 0 = empty
        for _ in range(nplayers):
            self.cells.append(bytearray(25))
        self.placed = [0] * nplayers  # placement points so far
        self.floor_lost = [0] * nplayers  # penalty points actually lost (after the 0 floor)
        self.bonus = None  # per player (rows, columns, colours) points once finished
        self._walled = [None] * nplayers  # this round's floor count per player, None = not entered
        self._first = None
        # tiles per colour that are in the game at once this round: on the walls when the
        # round began, and in the lines completed this round
        self.on_walls = bytearray(5)
        self.in_lines = bytearray(5)
        # the round's new tiles (round_tiles()): rows completed per player this round and the
        # round before (bit r - 1), and the tiles the walls entered this round need at least
        self.lined = [0] * nplayers
        self.lined_before = [0] * nplayers
        self.taken = 0

    # --- questions the entry screens ask ---
    def free_cells(self, p, row):
        """Where a complete line of `row` (1..5) can still go on p's wall: bit k * 5 + c is
        set when colour k (index) fits column c (0-based): the cell is empty and neither
        its row nor its column holds k (the coloured wall prints one column per colour)."""
        cells = self.cells[p]
        r = row - 1
        taken = 0  # colours (bits) in the row
        for c in range(5):
            if cells[r * 5 + c]:
                taken |= 1 << (cells[r * 5 + c] - 1)
        out = 0
        for c in range(5):
            if cells[r * 5 + c]:
                continue
            used = taken  # ... and in column c
            for rr in range(5):
                if cells[rr * 5 + c]:
                    used |= 1 << (cells[rr * 5 + c] - 1)
            for k in range(5):
                if not used >> k & 1 and (self.grey or wall_column(r, k) == c):
                    out |= 1 << (k * 5 + c)
        return out

    def wall_entered(self, p):
        return self._walled[p] is not None

    def marker_taker(self):
        """Who took the first-player marker this round (None: nobody yet)."""
        return self._first

    def wall_cells(self, p):
        """p's wall row by row: colour index + 1 per cell, 0 = empty (read only)."""
        return self.cells[p]

    def last_round(self):
        """True when a complete horizontal row is on a wall: this round is the last one."""
        for m in self.walls:
            if complete_rows(m):
                return True
        return False

    def pending(self):
        if self.finished:
            return []
        out = []
        for p in range(self.nplayers):
            if self._walled[p] is None:
                out.append(("wall", p))
        return out

    # --- events ---
    def apply(self, ev):
        if self.finished:
            raise RuleError("the game is over")
        e = ev.get("e")
        if e == "wall":
            self._wall(ev)
        elif e == "first":
            p = self.player_field(ev)
            if self._first is not None:
                raise RuleError("%s already took the first-player marker this round" % player(self._first))
            if self._walled[p] == 0:
                raise RuleError("the first-player marker takes a floor slot, but %s's floor was entered as 0" % player(p))
            self._first = p
        elif e == "end_round":
            missing = self.pending()
            if missing:
                for i in range(len(missing)):
                    missing[i] = player(missing[i][1])
                raise RuleError("round %d still needs the wall of %s" % (self.round, ", ".join(missing)))
            self._end_round()
        else:
            raise RecordError("azul has no event %r" % (e,))

    def wall_change(self, ev):
        """The score change of player ev["p"] that the wall entry ev would make, checked as
        apply() checks it, the state unchanged (the entry form asks at every value it shows:
        no copy of the state)."""
        if self.finished:
            raise RuleError("the game is over")
        gained, lost = self._check_wall(ev)[7:]
        return gained - lost

    def _check_wall(self, ev):
        """ev checked and scored: (p, floor, p's cells and wall mask and this round's in_lines
        after it (new objects), the rows it completes (bits), the round's new tiles after it,
        placement points gained, floor points lost)."""
        p = self.player_field(ev)
        if self._walled[p] is not None:
            raise RuleError("%s's wall is already entered for round %d" % (player(p), self.round))
        floor = int_field(ev, "floor", 0, FLOOR_SLOTS)
        if floor == 0 and self._first == p:
            raise RuleError("%s holds the first-player marker, so the floor is at least 1" % player(p))
        tiles = ev.get("tiles")
        if type(tiles) is not list:
            raise RecordError("tiles must be a list")
        width = 3 if self.grey else 2
        placements = []
        for t in tiles:
            if type(t) is not list or len(t) != width:
                raise RecordError("each tile must be %s" % ("[row, column, colour]" if self.grey else "[row, colour]"))
            row = check_int("row", t[0], 1, 5)
            colour = colour_index(t[-1])
            if self.grey:
                col = check_int("column", t[1], 1, 5) - 1
            else:
                col = wall_column(row - 1, colour)
            placements.append((row - 1, col, colour))
        placements.sort()  # wall tiling goes top to bottom whatever the entry order
        cells = bytearray(self.cells[p])
        for i in range(len(placements)):
            r, c, k = placements[i]
            if i and placements[i - 1][0] == r:
                raise RuleError("row %d is listed twice" % (r + 1))
            for j in range(5):
                if cells[r * 5 + j] == k + 1:
                    raise RuleError("row %d already has %s on the wall" % (r + 1, COLOURS[k]))
            if cells[r * 5 + c]:
                raise RuleError("row %d, column %d is already filled" % (r + 1, c + 1))
            for j in range(5):
                if cells[j * 5 + c] == k + 1:
                    raise RuleError("column %d already has %s on the wall" % (c + 1, COLOURS[k]))
            cells[r * 5 + c] = k + 1
        in_lines = bytearray(self.in_lines)
        for r, c, k in placements:
            in_lines[k] += r + 1
        for k in range(5):
            if self.on_walls[k] + in_lines[k] > TILES_PER_COLOUR:
                raise RuleError("only %d %s tiles exist: %d on the walls before this round + %d in lines completed this round"
                                % (TILES_PER_COLOUR, COLOURS[k], self.on_walls[k], in_lines[k]))
        lined = 0
        for r, c, k in placements:
            lined |= 1 << r
        taken = self.taken + self._new_tiles(p, lined, floor)
        out = 4 * (2 * self.nplayers + 1)  # 5, 7, 9 factories of 4 tiles
        if taken > out + 1:  # (+ 1: the marker's slot on one floor)
            raise RuleError("round %d brings out at most %d tiles (%d factories of 4): the lines completed and floors entered need %d and the marker"
                            % (self.round, out, out // 4, taken - 1))
        # all valid: score top to bottom, each tile seeing those placed before it
        mask = self.walls[p]
        gained = 0
        for r, c, k in placements:
            gained += placement_points(mask, r, c)
            mask |= 1 << (r * 5 + c)
        lost = min(self.scores[p] + gained, floor_penalty(floor))  # a score never drops below 0
        return p, floor, cells, mask, in_lines, lined, taken, gained, lost

    def _new_tiles(self, p, lined, floor):
        """The fewest tiles p took this round for a wall entry completing the rows in `lined`
        (bit r - 1) with `floor` slots filled, the marker's slot counted (see the module's
        docstring: what was kept in incomplete lines needs no new tile)."""
        need = floor
        for r in range(5):
            kept = r if self.round > 1 and not self.lined_before[p] >> r & 1 else 0  # at most r of r + 1
            if lined >> r & 1:
                need += r + 1 - kept
            elif self.grey:  # a line dropped to the floor may hold tiles kept in it
                need -= kept
        return need if need > 0 else 0

    def _wall(self, ev):
        p, floor, cells, mask, in_lines, lined, taken, gained, lost = self._check_wall(ev)
        self.scores[p] += gained - lost
        self.placed[p] += gained
        self.floor_lost[p] += lost
        self.walls[p] = mask
        self.cells[p] = cells
        self.in_lines = in_lines
        self.lined[p] = lined
        self.taken = taken
        self._walled[p] = floor

    def _end_round(self):
        if self.last_round():
            self.bonus = []
            for p in range(self.nplayers):
                m = self.walls[p]
                cells = self.cells[p]
                tiles = bytearray(6)  # by colour index + 1 (0: empty cells)
                for v in cells:
                    tiles[v] += 1
                colours = list(tiles[1:]).count(5)
                b = (complete_rows(m) * ROW_BONUS, complete_columns(m) * COLUMN_BONUS, colours * COLOUR_BONUS)
                self.bonus.append(b)
                self.scores[p] += sum(b)
            self.finished = True
        self.round_scores.append(list(self.scores))
        if self._first is not None:
            self.start_player = self._first
        if not self.finished:
            self.round += 1
            self._walled = [None] * self.nplayers
            self._first = None
            self.in_lines = bytearray(5)
            self.on_walls = bytearray(5)
            self.lined_before = self.lined
            self.lined = [0] * self.nplayers
            self.taken = 0
            for cells in self.cells:
                for v in cells:
                    if v:
                        self.on_walls[v - 1] += 1

    # --- outcome ---
    def rank_key(self, p):
        return (self.scores[p], complete_rows(self.walls[p]))

    def breakdown(self, p):
        b = self.bonus[p] if self.bonus else (0, 0, 0)
        return {"placement": self.placed[p], "floor": -self.floor_lost[p],
                "row_bonus": b[0], "column_bonus": b[1], "colour_bonus": b[2],
                "complete_rows": complete_rows(self.walls[p]), "total": self.scores[p]}
