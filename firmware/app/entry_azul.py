"""Azul entries: each player's wall-tiling (complete rows, colours, floor) and who took the
first-player marker. The wall form draws the player's 5x5 wall beside the fields.

Row fields offer only colours that still fit (grey wall: colour and column, so a colour
with one free column comes with it); the floor offers 0..7 (from 1 if the player holds the
marker). Legality is the rules' own: a value is offered when session.preview accepts it.
"""
from rules_core.azul import COLOURS, TILES_PER_COLOUR, wall_column
from app.form import Form, Field, Opens, count_field, EntryMenu, Save
from app import colours
from app.lang import tr


# what a round's end gives before the last: nothing, the walls were scored as entered and
# the bonuses come at the game's end (遊戲結束)
END_ROUND_NOTHING = "bonuses: at end"


WORDS = {"wall": "Wall", "first": "First marker"}  # the record's event kinds in the screens' words


def actions(app):
    s = app.session
    n = len(s.players)
    order = [(s.start_player + i) % n for i in range(n)]
    items = []
    for p in order:
        if not s.rules.wall_entered(p):
            items.append((tr("Wall %s") % s.players[p], _wall(app, p)))
    if s.rules.marker_taker() is None:
        items.append((tr("First marker"), lambda: app.replace(first_menu(app, order))))
    return items


def first_menu(app, order):
    """Who took the first-player marker: the players who can, then each one who cannot and
    why (the marker goes on the floor, so a wall entered with floor 0 rules a player out)."""
    s = app.session
    items = [(s.players[p], Save(app, {"e": "first", "p": p}))
             for p in order if _legal(s, {"e": "first", "p": p})]  # type: list
    for p in order:
        if not _legal(s, {"e": "first", "p": p}):
            items.append((tr("%s: floor 0") % s.players[p], lambda: app.refuse(tr("the marker needs a floor slot"))))
    return EntryMenu(app, tr("First marker"), items)


def _legal(s, ev):
    try:
        s.preview(ev)
        return True
    except ValueError:
        return False


def _wall(app, p):
    return Opens(app, lambda: WallForm(app, p))


ROWS = ("R1", "R2", "R3", "R4", "R5")  # the row fields' labels (tr())
BLANKS = ("R1 -", "R2 -", "R3 -", "R4 -", "R5 -")  # the rows' texts with no tile (tr())
NO_ROOM = ValueError("no room")  # a row's value outside rules.free_cells (WallForm._why)


class GreyCells:
    """A grey wall row's choices, (text, value): "-" (None), then each colour in each column
    ((column, colour)). A text is made when asked: a form shows one a row, not 25 new strs
    when it opens. So is a value, once (the five rows share them)."""

    def __init__(self):
        self.values = [None] * (1 + 5 * len(COLOURS))  # type: list

    def __len__(self):
        return len(self.values)

    def value(self, i):
        v = self.values[i]
        if v is None and i:
            v = self.values[i] = ((i - 1) % 5 + 1, COLOURS[(i - 1) // 5])
        return v

    def __getitem__(self, i):
        v = self.value(i)
        return ("-", None) if v is None else (tr("%s c%d") % (colours.label(v[1], "azul"), v[0]), v)


class RowField(Field):
    """A wall row: the text of a row with no tile is a constant (the form opens with five:
    no new str for them)."""

    def __init__(self, r, choices):
        Field.__init__(self, tr(ROWS[r]), choices)
        self.blank = tr(BLANKS[r])

    def text(self):
        return self.blank if not self.index else Field.text(self)


class GreyField(RowField):
    """A grey wall row: its value without making its choice's text."""

    def value(self):
        return self.choices.value(self.index)


class WallForm(Form):
    wide = False

    def __init__(self, app, p):
        self.p = p
        self.grey = app.session.variant == "grey"
        if self.grey:
            cells = GreyCells()
            fields = [GreyField(r, cells) for r in range(5)]  # type: list
        else:
            row_choices = [("-", None)] + [(colours.label(c, "azul"), c) for c in COLOURS]
            fields = [RowField(r, row_choices) for r in range(5)]
        fields.append(count_field(tr("floor"), 0, 7))
        # the wall as it will be (matrix(): colour names, the letters drawn on them), made
        # by _update() row by row: _cells_at[r] is the index of row r's field they show,
        # bit r of _stale says row r changed since a frame drew it; _shown is what the
        # frame buffer's cells show
        self._cells = [None] * 25  # type: list
        self._letters = [""] * 25
        self._cells_at = [-1] * 5
        self._stale = 0
        self._shown = [None] * 25
        # where each row's line can still go on the wall as it is (rules.free_cells), made for
        # a row once it holds a value (the form opens with none): a value outside it is
        # refused at once; the rules' check decides the rest
        self._free = [None] * 5  # type: list
        Form.__init__(self, app, tr("Wall %s") % app.session.players[p], fields, build=self.event,
                      legal=self._legal_wall)

    def _why(self):
        """Form._why(), a row's value where its line can no longer go refused first: no
        values made and no error raised for it (a turn in the last rounds skips up to 25
        such values); skipped() says why in full."""
        fields = self.fields
        for r in range(5):
            v = fields[r].value()
            if v is not None:
                free = self._free[r]
                if free is None:
                    free = self._free[r] = self.app.session.rules.free_cells(self.p, r + 1)
                k = COLOURS.index(v[1] if self.grey else v)
                if not free >> (k * 5 + (v[0] - 1 if self.grey else wall_column(r, k))) & 1:
                    return NO_ROOM
        return Form._why(self)

    def _legal_wall(self, values):
        # the rules' own check and points, without the copy of the state a preview makes
        # (the idle frames on the save row make it: Form.prepare)
        ev = self.event(values)
        self._keep_change(values, ev, self.app.session.rules.wall_change(ev))

    def skipped(self, i, err):
        """Why a row's colour (or a floor) is not offered, in the wall's own terms."""
        if "brings out" in str(err):  # the round's tiles (rules_core.azul), in fewer words
            return tr("%s: %d tiles a round") % (self.fields[i].text(), 4 * (2 * len(self.app.session.players) + 1))
        if i == 5:  # the floor: else only 0 is refused, when the player took the marker
            return tr("floor 0: the marker is on it")
        text = self.fields[i].text()
        v = self.fields[i].value()  # never None: "-" (no tile) is always offered
        col, c = v if self.grey else (None, v)
        k = COLOURS.index(c) + 1
        cells = self.app.session.rules.wall_cells(self.p)
        if any(cells[i * 5 + cc] == k for cc in range(5)):
            return tr("%s: already in row") % text
        if col is not None and cells[i * 5 + col - 1]:
            return tr("%s: column taken") % text
        if col is not None and any(cells[r * 5 + col - 1] == k for r in range(5)):
            return tr("%s: column has %s") % (text, colours.label(c, "azul"))
        # the one rule left (rules_core.azul): a colour's tiles on the walls and in the lines
        # completed this round number at most TILES_PER_COLOUR
        return tr("%s: all %d %s in use") % (text, TILES_PER_COLOUR, colours.label(c, "azul"))

    def event(self, values):
        tiles = []
        for r in range(5):
            v = values[r]
            if v is not None:
                tiles.append([r + 1, v[0], v[1]] if self.grey else [r + 1, v])
        return {"e": "wall", "p": self.p, "tiles": tiles, "floor": values[5]}

    def _update(self):
        Form._update(self)
        # the wall as it will be: a row's cells follow its field (a new list when one
        # changed: the LEDs redraw when the list does, LedView)
        cells = None
        placed = self.app.session.rules.wall_cells(self.p)
        letters = self._letters
        named = colours.COLOURS
        for r in range(5):
            f = self.fields[r]
            if f.index == self._cells_at[r]:
                continue
            if cells is None:
                cells = list(self._cells)
            self._cells_at[r] = f.index
            self._stale |= 1 << r
            v = f.value()
            at = -1  # the cell the row's value goes in
            if v is not None:
                col, c = (v[0] - 1, v[1]) if self.grey else (wall_column(r, COLOURS.index(v)), v)
                at = r * 5 + col
            for i in range(r * 5, r * 5 + 5):  # (one pass a row: a form opens with all five)
                name = c if i == at else COLOURS[placed[i] - 1] if placed[i] else None
                cells[i] = name
                letters[i] = named[name][1] if name else ""  # (letter())
        if cells is not None:
            self._cells = cells

    def matrix(self):
        """25 colour names: the wall as it will be after this entry (the 5x5 LEDs, the drawing);
        made when a value changes, so a redraw or an LED frame allocates nothing."""
        return self._cells

    def draw(self, cv):
        Form.draw(self, cv)
        size = min(8, (cv.h - 2) // 5)
        letters = size == 8 and self.app.settings.get("symbols")
        if cv.fresh:
            self._stale = 0b11111
        if self._stale:  # else the buffer holds this wall (Canvas)
            self._draw_rows(cv, size, letters)
            self._stale = 0
        if letters:
            cv.notes(self._letters, 25)

    def _draw_rows(self, cv, size, letters):
        """The cells that changed in the rows of the wall marked stale (all on a fresh frame)."""
        x0 = cv.w - 5 * size
        y0 = cv.h - 5 * size
        placed = self.app.session.rules.wall_cells(self.p)
        cells = self._cells
        shown = self._shown
        d = cv.d
        for r in range(5):
            if self._stale >> r & 1:
                for i in range(r * 5, r * 5 + 5):
                    name = cells[i]
                    if name is shown[i] and not cv.fresh:  # the buffer holds this cell already
                        continue
                    shown[i] = name
                    x = x0 + (i % 5) * size
                    y = y0 + r * size
                    if not cv.fresh:
                        d.fill_rect(x, y, size, size, 0)
                    if name is None:
                        d.pixel(x + size // 2, y + size // 2, 1)
                    elif placed[i]:  # (placed cells never change on the form)
                        d.fill_rect(x, y, size - 1, size - 1, 1)
                        if letters:
                            d.text(self._letters[i], x, y, 0)
                    else:  # entered now: an outline
                        d.rect(x, y, size - 1, size - 1, 1)
                        if letters:
                            d.text(self._letters[i], x, y, 1)
