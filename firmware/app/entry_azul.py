"""Azul entries: each player's wall-tiling (complete rows, colours, floor) and who took the
first-player marker. The wall form draws the player's 5x5 wall beside the fields.

Row fields offer only colours that still fit (grey wall: colour and column, so a colour
with one free column comes with it); the floor offers 0..7 (from 1 if the player holds the
marker). Legality is the rules' own: a value is offered when session.preview accepts it.
"""
from rules_core.azul import COLOURS, TILES_PER_COLOUR
from app.ui import Form, Field, Menu, count_field
from app import colours


def options(app, variant, step, done):
    """New game: no set-up steps of its own."""
    done({})


def actions(app):
    s = app.session
    n = len(s.players)
    order = [(s.start_player + i) % n for i in range(n)]
    items = []
    for p in order:
        if not s.rules.wall_entered(p):
            items.append(("Wall %s" % s.players[p], _wall(app, p)))
    if s.rules.marker_taker() is None:
        items.append(("First marker", lambda: app.show(first_menu(app, order))))
    return items


def first_menu(app, order):
    """Who took the first-player marker: the players who can, then each one who cannot and
    why (the marker goes on the floor, so a wall entered with floor 0 rules a player out)."""
    s = app.session
    items = [(s.players[p], _first(app, p)) for p in order if _legal(s, {"e": "first", "p": p})]
    for p in order:
        if not _legal(s, {"e": "first", "p": p}):
            items.append(("%s: floor 0" % s.players[p], lambda: app.refuse("the marker needs a floor slot")))
    return Menu(app, "First marker", items)


def _legal(s, ev):
    try:
        s.preview(ev)
        return True
    except ValueError:
        return False


def _first(app, p):
    def enter():
        if app.enter({"e": "first", "p": p}):
            app.home()
    return enter


def _wall(app, p):
    return lambda: app.show(WallForm(app, p))


class WallForm(Form):
    wide = False

    def __init__(self, app, p):
        self.p = p
        self.grey = app.session.variant == "grey"
        row_choices = [("-", None)]  # type: list
        if self.grey:
            row_choices += [("%s c%d" % (colours.label(c), col), (col, c)) for c in COLOURS for col in range(1, 6)]
        else:
            row_choices += [(colours.label(c), c) for c in COLOURS]
        fields = [Field("R%d" % (r + 1), row_choices) for r in range(5)]
        fields.append(count_field("floor", 0, 7))
        self._shown = [None] * 25  # the colour drawn in each cell of the wall by the last frame
        # what each row can still take on the wall as it is: a value outside it is refused
        # without a preview (one copy of the rules each); the preview decides the rest
        # (per row a mask: bit k * 5 + column - 1 for colour k in a column of the grey wall,
        # bit k on the coloured wall)
        rules = app.session.rules
        self._free = [0] * 5
        for r in range(5):
            if not self.grey:
                for k in rules.free_colours(p, r + 1):
                    self._free[r] |= 1 << k
                continue
            for k in range(5):
                for col in rules.grey_columns(p, r + 1, k):
                    self._free[r] |= 1 << (k * 5 + col - 1)
        Form.__init__(self, app, "Wall " + app.session.players[p], fields, build=self.event,
                      legal=self._legal_wall)

    def _legal_wall(self, values):
        for r in range(5):
            v = values[r]
            if v is not None:
                bit = COLOURS.index(v[1]) * 5 + v[0] - 1 if self.grey else COLOURS.index(v)
                if not self._free[r] >> bit & 1:
                    raise ValueError("row %d: no room" % (r + 1))  # (skipped() says why in full)
        self._legal_event(values)

    def skipped(self, i, err):
        """Why a row's colour (or the floor's 0) is not offered, in the wall's own terms."""
        if i == 5:  # the floor: only 0 is ever refused, when the player took the marker
            return "floor 0: the marker is on it"
        text = self.fields[i].text()
        v = self.fields[i].value()  # never None: "-" (no tile) is always offered
        col, c = v if self.grey else (None, v)
        k = COLOURS.index(c) + 1
        cells = self.app.session.rules.wall_cells(self.p)
        if any(cells[i * 5 + cc] == k for cc in range(5)):
            return text + ": already in row"
        if col is not None and cells[i * 5 + col - 1]:
            return text + ": column taken"
        if col is not None and any(cells[r * 5 + col - 1] == k for r in range(5)):
            return "%s: column has %s" % (text, colours.label(c))
        # the one rule left (rules_core.azul): a colour's tiles on the walls and in the lines
        # completed this round number at most TILES_PER_COLOUR
        return "%s: all %d %s in use" % (text, TILES_PER_COLOUR, colours.label(c))

    def event(self, values):
        tiles = []
        for r in range(5):
            v = values[r]
            if v is not None:
                tiles.append([r + 1, v[0], v[1]] if self.grey else [r + 1, v])
        return {"e": "wall", "p": self.p, "tiles": tiles, "floor": values[5]}

    def _update(self):
        Form._update(self)
        self._cells = self._make_cells()

    def wall_cells(self):
        """25 colour names or None: the wall as it will be after this entry (LEDs, drawing);
        made when a value changes, so a redraw or an LED frame allocates nothing."""
        return self._cells

    def _make_cells(self):
        cells = self.app.session.rules.wall_cells(self.p)
        out = [COLOURS[k - 1] if k else None for k in cells]
        for t in self.event(self.values())["tiles"]:
            r = t[0] - 1
            c = t[1] - 1 if self.grey else (COLOURS.index(t[-1]) + r) % 5
            out[r * 5 + c] = t[-1]
        return out

    def draw(self, cv):
        Form.draw(self, cv)
        size = min(8, (cv.h - 2) // 5)
        x0 = cv.w - 5 * size
        y0 = cv.h - 5 * size
        placed = self.app.session.rules.wall_cells(self.p)
        cells = self.wall_cells()
        shown = self._shown
        letters = self.app.settings.get("symbols") and size == 8
        d = cv.d
        for i in range(25):
            name = cells[i]
            x = x0 + (i % 5) * size
            y = y0 + (i // 5) * size
            if not cv.fresh and name is shown[i]:  # the buffer holds this cell already (Canvas)
                if name is not None and letters:
                    cv.note(colours.letter(name))
                continue
            shown[i] = name
            if not cv.fresh:
                d.fill_rect(x, y, size, size, 0)
            if name is None:
                d.pixel(x + size // 2, y + size // 2, 1)
            elif placed[i]:  # (placed cells never change on the form)
                d.fill_rect(x, y, size - 1, size - 1, 1)
                if letters:
                    cv.text(colours.letter(name), x, y, 0)
            else:  # entered now: an outline
                d.rect(x, y, size - 1, size - 1, 1)
                if letters:
                    cv.text(colours.letter(name), x, y, 1)
