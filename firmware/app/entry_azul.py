"""Azul entries: each player's wall-tiling (complete rows, colours, floor) and who took the
first-player marker. The wall form draws the player's 5x5 wall beside the fields.

Row fields offer only colours that still fit (grey wall: colour and column, so a colour
with one free column comes with it); the floor offers 0..7 (from 1 if the player holds the
marker). Legality is the rules' own: a value is offered when session.preview accepts it.
"""
from rules_core.azul import COLOURS
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
    takers = [p for p in order if _legal(s, {"e": "first", "p": p})]
    if takers:
        items.append(("First marker", lambda: app.show(Menu(app, "First marker", [
            (s.players[p], _first(app, p)) for p in takers]))))
    return items


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
        Form.__init__(self, app, "Wall " + app.session.players[p], fields, build=self.event)

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
        letters = self.app.settings.get("symbols") and size == 8
        for i in range(25):
            x = x0 + (i % 5) * size
            y = y0 + (i // 5) * size
            name = cells[i]
            if name is None:
                cv.d.pixel(x + size // 2, y + size // 2, 1)
            elif placed[i]:
                cv.d.fill_rect(x, y, size - 1, size - 1, 1)
                if letters:
                    cv.text(colours.letter(name), x, y, 0)
            else:  # entered now: an outline
                cv.d.rect(x, y, size - 1, size - 1, 1)
                if letters:
                    cv.text(colours.letter(name), x, y, 1)
