"""Check a score (the main menu): a player's final Azul wall, entered cell by cell on a 5x5
grid that the LED matrix mirrors, a claimed score, then the scores that wall allows and a
verdict on the claim (rules_core.verify).

The work is done in idle frames, a piece at a time (Range.step): the most is usually proved
at once; the fewest needs a programme over the subsets of the wall's tiles, 2**n bytes
twice for a group of n tiles that touch, which a board runs up to BOARD_TILES (a few
seconds of a Pico) and the web page up to PAGE_TILES. Beyond, the screen says so and where
the wall can be checked whole.
"""
import gc
import sys

from hal.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, CODE_MASK, REPEAT
from app.ui import ListScreen, Menu
from app.lang import tr

BOARD_TILES = 13  # a Pico: 2.8 s for 13 touching tiles, 5.8 s for 14 (bench/verify.py)
PAGE_TILES = 16
PAGE = sys.platform == "webassembly"
_PIECE_MS = 20  # an idle frame's piece of the work (a press meanwhile waits for it)


def start(app):
    """The main menu's Check a score: which wall first (the grey wall's cells show no
    colours, so its colour bonus is a range)."""
    app.push(Menu(app, tr("Check a score"), [(tr("coloured wall", "azul"), _wall(app, False)),
                                             (tr("grey wall", "azul"), _wall(app, True))]))


def _wall(app, grey):
    return lambda: app.push(WallScreen(app, grey))


class WallScreen(ListScreen):
    """The wall, cell by cell: the arrows move the cursor over the 5x5 grid drawn on the right,
    OK puts a tile in the cell or takes it out; below the grid's last row the cursor reaches
    "claim >", whose OK goes on."""
    wide = False

    def __init__(self, app, grey, mask=0):
        ListScreen.__init__(self, app)
        self.title = tr("Check: wall")
        self.grey = grey
        self.mask = mask
        self.r = self.c = 0  # the cursor: row 5 is "claim >"
        self._changed()

    def _changed(self):
        """The rows and the LEDs' wall after a move or a tile (a new list: LedView redraws)."""
        n = bin(self.mask).count("1")
        t = self.r * 5 + self.c
        at = tr("r%d c%d %s") % (self.r + 1, self.c + 1, "x" if self.mask >> t & 1 else "-") if self.r < 5 else ""
        tiles = tr("%d tile") if n == 1 else tr("%d tiles")
        self._rows = [at, tiles % n, tr("OK: tile"), tr("claim >")]  # (a new list: ListScreen)
        self.cursor = 3 if self.r == 5 else None  # type: ignore[assignment]  # (None: no row, ListScreen)
        self._cells = wall_cells(self.mask, self.grey)

    def rows(self):
        return self._rows

    def matrix(self):
        return self._cells

    def key(self, k):
        base = k & CODE_MASK
        if base == UP or base == DOWN:
            self.r = (self.r + (1 if base == DOWN else -1)) % 6
        elif (base == LEFT or base == RIGHT) and self.r < 5:
            self.c = (self.c + (1 if base == RIGHT else -1)) % 5
        elif base == OK and self.r < 5:
            self.mask ^= 1 << (self.r * 5 + self.c)
        elif base == OK:
            self.app.push(ClaimScreen(self.app, self.mask, self.grey, self._cells))
        elif base == BACK:
            self.app.back()
        self._changed()

    def draw(self, cv):
        ListScreen.draw(self, cv)
        draw_wall(cv, self.mask, self.r * 5 + self.c if self.r < 5 else -1)


def wall_cells(mask, grey):
    """The LEDs' wall: each tile in its printed colour (the grey wall's in white), else None."""
    from rules_core.azul import COLOURS
    cells = [None] * 25  # type: list
    for t in range(25):
        if mask >> t & 1:
            cells[t] = "white" if grey else COLOURS[(t % 5 - t // 5) % 5]
    return cells


def draw_wall(cv, mask, at):
    """The 5x5 grid in the bottom right corner: a tile filled, an empty cell a dot, the cell
    at `at` framed (a tile with its middle cleared)."""
    size = min(8, (cv.h - 2) // 5)
    x0 = cv.w - 5 * size
    y0 = cv.h - 5 * size
    d = cv.d
    d.fill_rect(x0, y0, 5 * size, 5 * size, 0)
    for t in range(25):
        x = x0 + t % 5 * size
        y = y0 + t // 5 * size
        if mask >> t & 1:
            d.fill_rect(x, y, size - 1, size - 1, 1)
            if t == at:
                d.fill_rect(x + 2, y + 2, size - 5, size - 5, 0)
        elif t == at:
            d.rect(x, y, size - 1, size - 1, 1)
        else:
            d.pixel(x + size // 2, y + size // 2, 1)


class ClaimScreen(ListScreen):
    """The claimed score (LEFT/RIGHT: 1 a press, 5 a repeat) and "check", whose OK shows the
    result; the wall's scores are worked out meanwhile."""

    def __init__(self, app, mask, grey, cells):
        ListScreen.__init__(self, app)
        self.title = tr("Check: claim")
        self.claim = 0
        self.cells = cells
        self.work = Work(mask, grey)
        self._rows = [tr("claim %d") % 0, tr("check")]

    def rows(self):
        return self._rows

    def matrix(self):
        return self.cells

    def prepare(self):
        return self.work.prepare(self.app)

    def key(self, k):
        base = k & CODE_MASK
        if base == UP or base == DOWN:
            self.move(base, 2)
        elif (base == LEFT or base == RIGHT) and self.cursor == 0:
            step = 5 if k & REPEAT else 1
            self.claim = max(0, min(999, self.claim + (step if base == RIGHT else -step)))
            self._rows = [tr("claim %d") % self.claim, tr("check")]
        elif base == OK and self.cursor == 0:
            self.cursor = 1
        elif base == OK:
            self.app.push(ResultScreen(self.app, self))
        elif base == BACK:
            self.app.back()


class Work:
    """The wall's Check and how far it has gone: the programme for the fewest only where the
    wall's largest group of touching tiles fits this device (memory and time)."""

    def __init__(self, mask, grey):
        from rules_core.verify import Check
        self.check = Check(mask, grey, piece=32)
        r = self.check.placement
        free = getattr(gc, "mem_free", None)
        self.fits = r.tiles() <= (PAGE_TILES if PAGE else BOARD_TILES) and (free is None or r.memory() * 2 < free())
        if not self.fits:
            self.check = Check(mask, grey, piece=32, dp=False)  # (its arrays not made yet)
        self.done = False
        self.shown = -1  # the progress the screen shows

    def prepare(self, app):
        """Pieces of the work for about _PIECE_MS; True while more is left."""
        clock = app.clock
        start = clock.ticks_ms()
        try:
            while self.check.step():
                if clock.ticks_diff(clock.ticks_ms(), start) >= _PIECE_MS:
                    if self.progress() != self.shown:
                        app.dirty = True
                    return True
        except MemoryError:  # the heap had no room for the programme's arrays after all
            self.fits = False
            self.check = type(self.check)(self.check.mask, self.check.grey, piece=32, dp=False)
            return True
        self.done = True
        app.dirty = True
        return False

    def progress(self):
        return self.check.placement.progress()


class ResultScreen(ListScreen):
    """What the wall allows and the verdict on the claim; "checking" while the work goes on
    (idle frames). BACK or OK returns to the claim (another one is checked at once)."""

    def __init__(self, app, claim):
        ListScreen.__init__(self, app)
        self.claim = claim
        self.work = claim.work
        self.title = tr("Claim %d") % claim.claim
        self.cursor = None  # type: ignore[assignment]  # a read-only list (ListScreen.move)
        self._rows = None  # type: list | None
        self._made = None  # what the rows were made for: (done, progress)

    def matrix(self):
        return self.claim.cells

    def prepare(self):
        return self.work.prepare(self.app)

    def rows(self):
        w = self.work
        now = (w.done, w.progress())
        if now != self._made:
            self._made = now
            self._rows = result_rows(w, self.claim.claim) if w.done else [
                tr("checking %d%%") % now[1] if now[1] else tr("checking...")]
            w.shown = now[1]
        return self._rows

    def key(self, k):
        base = k & CODE_MASK
        if base in (UP, DOWN):
            self.move(base, len(self.rows()))
        elif base == BACK or base == OK:
            self.app.back()


def result_rows(work, claim):
    """The result as 16-character rows: placement points, bonuses, the total, the verdict;
    what this device could not work out (more touching tiles than it works the fewest out
    for), and where it can be."""
    c = work.check
    r = c.placement
    out = [tr("placed %s..%s") % (_n(r.low), _n(r.high)), tr("bonus +%d") % c.bonus]
    if c.grey:
        out.append(tr("colours +%d..%d") % c.colours)
    out.append(tr("total %s..%s") % (_n(c.low), _n(c.high)))
    v = c.verdict(claim)
    if v is not None:
        word, by = v
        out += [tr("%d: plausible") % claim] if word == "plausible" else \
            [tr("%d: impossible") % claim, tr("(%d too many)") % by] if word == "impossible" else \
            [tr("%d: only with") % claim, tr("%d+ lost on the") % by, tr("floor", "check")]
    elif c.high is not None:
        out.append(tr("%d: not over max") % claim)
    if c.low is None:
        out += [(tr("fewest: %d tiles") if c.high is not None else tr("range: %d tiles")) % r.tiles(),
                tr("too many here:")]
        out += ["azul-companion", "verify"] if PAGE else [tr("see the web page")]  # (a command: as typed)
    return out


def _n(x):
    return "?" if x is None else str(x)
