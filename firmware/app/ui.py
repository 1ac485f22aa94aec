"""Screen building blocks: the drawing surface, a scrolling list, a menu and a form.

Every screen is a list of text rows under a title (8x8 font: 16 characters a row; 8 rows on a
128x64 display, 4 on 128x32). The cursor row is drawn inverted. Screens only draw when the
app says the frame is dirty; in idle frames a form on its save row does the save's work
ahead (Form.ahead).
"""
from hal.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, CODE_MASK

COLS = 16  # characters per row
NEXT_HINT = "OK>"  # ends the cursor's row on a form field: OK goes on to the next row
NEXT_SHORT = ">"   # the same where the row's text leaves no room for it


class Canvas:
    """The display plus the text drawn in the current frame (tests and the simulator read it).

    A frame of the screen drawn last goes over the previous one: the canvas remembers the
    text row each 8-pixel row of the frame buffer holds (text, inverted, width), and row()
    leaves a row that already holds what it would draw as it is; finish() clears the rows
    not drawn again. Other drawing (lines, a wall, a hint on a row) is redone every frame
    over it and clears its own area first, or, when unchanged and `fresh` is False, is left
    as it is and only noted (note()). Any other screen, or a buffer changed behind the
    canvas (forget()), starts from a clear buffer. Either way the frame buffer ends up the
    same as drawn from clear(), with a fraction of the drawing.

    A screen that a press will show can be drawn ahead (ahead(), in an idle frame): begin()
    then copies that frame in instead of drawing it. It is kept while the screen it was
    drawn on is the one drawn (1 KB of heap meanwhile).
    """

    def __init__(self, display):
        self.d = display
        self.w = display.width
        self.h = display.height
        self.rows = self.h // 8
        # frame[:drawn] are the strings drawn since begin(), top to bottom; the list keeps
        # its length between frames so that redrawing a screen allocates nothing
        self.frame = []
        self.drawn = 0
        n = self.rows
        self.held = [None] * n        # the text row i holds (None: blank) ...
        self.held_inv = [False] * n   # ... inverted or not ...
        self.held_w = [0] * n         # ... over its first held_w pixels (0: the row is blank)
        self.seen = bytearray(n)      # rows drawn in this frame
        self.screen = None            # whose frame the buffer holds (None: draw from clear)
        self.fresh = True             # this frame is drawn from a clear buffer
        # ahead(): (the screen drawn ahead, the screen drawn when it was, the bytes of its
        # frame, the rows it holds: held, held_inv, held_w), or None
        self.spare = None

    def clear(self):
        self.d.fill(0)
        self.drawn = 0
        for i in range(self.rows):
            self.held[i] = None
            self.held_w[i] = 0

    def forget(self):
        """The frame buffer was drawn behind the canvas: the next frame starts from clear."""
        self.screen = None

    def begin(self, screen):
        """Start a frame of `screen`: over its previous frame, else from a clear buffer."""
        self.drawn = 0
        for i in range(self.rows):
            self.seen[i] = 0
        self.fresh = screen is not self.screen
        if self.fresh:
            spare = self.spare
            if spare is not None and spare[0] is screen:  # its first frame, drawn ahead
                self.spare = None
                self.d.buffer[:] = spare[2]
                self.held, self.held_inv, self.held_w = spare[3:]
                self.fresh = False  # (the screen drew it from clear: this frame goes over it)
            else:
                if spare is not None and spare[1] is not screen:  # it will not be shown next
                    self.spare = None
                self.clear()
            self.screen = screen

    def ahead(self, screen):
        """Draw `screen`'s first frame, as begin() from clear would, with a canvas of its own,
        and keep it (the frame on screen put back); the begin() that shows `screen` next
        takes that frame. Nothing drawn on a display without a buffer to copy into, or when
        the drawing fails (its press draws it, and says what went wrong)."""
        spare = self.spare
        if spare is not None and spare[0] is screen:
            return  # (drawn already)
        self.spare = None
        buf = getattr(self.d, "buffer", None)
        if buf is None:
            return
        shown = bytearray(buf)
        cv = Canvas(self.d)
        try:
            cv.begin(screen)
            screen.draw(cv)
            cv.finish()
            self.spare = (screen, self.screen, bytearray(buf), cv.held, cv.held_inv, cv.held_w)
        except Exception:
            pass
        buf[:] = shown

    def finish(self):
        """Clear the rows the previous frame drew and this one did not."""
        for i in range(self.rows):
            if self.held_w[i] and not self.seen[i]:
                self.d.fill_rect(0, i * 8, self.held_w[i], 8, 0)
                self.held[i] = None
                self.held_w[i] = 0

    def note(self, s):
        """s is in the frame: drawn by an earlier frame, and still there."""
        if self.drawn < len(self.frame):
            self.frame[self.drawn] = s
        else:
            self.frame.append(s)
        self.drawn += 1

    def notes(self, strings, n):
        """note() for each string of strings[:n] that is not empty, in one call (a call
        costs more than a note)."""
        frame = self.frame
        d = self.drawn
        for i in range(n):
            if not strings[i]:
                continue
            if d < len(frame):
                frame[d] = strings[i]
            else:
                frame.append(strings[i])
            d += 1
        self.drawn = d

    def text(self, s, x, y, c=1):
        self.d.text(s, x, y, c)
        self.note(s)

    def texts(self):
        """The strings of the current frame (a new list: for tests and the simulator)."""
        return self.frame[:self.drawn]

    def row(self, i, s, inverted=False, width=0):
        """Text on row i (up to `width` pixels, default all); an inverted row is the cursor."""
        width = width or self.w
        if len(s) > width // 8:
            s = s[:width // 8]
        if not 0 <= i < self.rows:
            self.text(s, 0, i * 8, 0 if inverted else 1)
            return
        self.seen[i] = 1
        if self.held_w[i] != width or self.held_inv[i] != inverted or self.held[i] != s:
            self._put(i, s, inverted, width)  # else the buffer holds this row already
        self.note(s)

    def lines(self, fit, top, cursor, width):
        """A list's rows, as row() for each but in one call (most rows of a frame hold their
        text already): fit[0] on row 0, fit[top + i] on row i below it, fit[cursor + 1]
        inverted; each cut to `width` pixels already."""
        held = self.held
        held_w = self.held_w
        held_inv = self.held_inv
        cursor = -2 if cursor is None else cursor  # (no row is the cursor)
        k = min(self.rows, len(fit) - top)
        for i in range(k):
            s = fit[top + i if i else 0]
            inverted = i > 0 and top + i == cursor + 1
            self.seen[i] = 1
            if held_w[i] != width or held_inv[i] != inverted or held[i] != s:
                self._put(i, s, inverted, width)
        self.notes(held, k)

    def _put(self, i, s, inverted, width):
        """Draw row i (0 <= i < rows) anew (not noted)."""
        was = self.held_w[i]
        y = i * 8
        if inverted:  # the cursor's bar covers what the row held, up to width
            self.d.fill_rect(0, y, width, 8, 1)
            if was > width:
                self.d.fill_rect(width, y, was - width, 8, 0)
        elif was:
            self.d.fill_rect(0, y, was if was > width else width, 8, 0)
        self.d.text(s, 0, y, 0 if inverted else 1)
        self.held[i] = s
        self.held_inv[i] = inverted
        self.held_w[i] = width


class Screen:
    """A screen: key(k) handles one press, draw(canvas) paints it. `app` is the App."""
    wide = True  # False: the rows leave the right 40 pixels to draw()'s extra (Azul wall)

    def __init__(self, app):
        self.app = app

    def key(self, k):
        pass

    def draw(self, cv):
        pass

    def wall_cells(self):
        """25 colour names or None when the screen shows an Azul wall (the LED matrix copies it)."""
        return None

    def winners(self):
        """The winners when the screen shows a finished game's standings (the LEDs chase in
        their colours), else None."""
        return None

    def ahead(self):
        """Work of the next presses done in an idle frame, a piece a call (a press that comes
        meanwhile waits for that piece); True while more is left."""
        return False


class ListScreen(Screen):
    """A title and rows; `cursor` is None for a read-only list (UP/DOWN scroll it).

    rows() should return the same list object until the rows change: draw() then reuses
    the rows it cut to the screen width, so redrawing an unchanged screen allocates nothing.
    """
    title = ""
    _fit = []  # type: list  # [title, rows...] cut to _fit_n characters (replaced, never changed here)
    _fit_src = None   # the rows() list and title _fit was made from
    _fit_title = None
    _fit_n = 0

    def __init__(self, app):
        Screen.__init__(self, app)
        self.cursor = 0
        self.top = 0

    def rows(self):
        return []

    def move(self, k, n):
        step = -1 if k == UP else 1
        if self.cursor is None:
            self.top = max(0, min(self.top + step, n - 1))
        elif n:
            self.cursor = (self.cursor + step) % n

    def fitted(self, n):
        """[title] + rows(), each cut to n characters; remade only when they changed."""
        rows = self.rows()
        if rows is not self._fit_src or self.title is not self._fit_title or n != self._fit_n:
            fit = [self.title[:n]]
            for r in rows:  # a loop, not a comprehension: n captured in one would be a cell,
                # allocated on every call; a slice is a new str even when nothing is cut
                fit.append(r if len(r) <= n else r[:n])
            self._fit = fit
            self._fit_src = rows
            self._fit_title = self.title
            self._fit_n = n
        return self._fit

    def width(self, cv):
        """The rows' width in pixels (a narrow screen leaves 40 to its drawing)."""
        return cv.w if self.wide else cv.w - 40

    def draw(self, cv):
        x_end = self.width(cv)
        fit = self.fitted(x_end // 8)
        visible = cv.rows - 1
        if self.cursor is not None:  # keep the cursor on screen
            if self.cursor < self.top:
                self.top = self.cursor
            elif self.cursor >= self.top + visible:
                self.top = self.cursor - visible + 1
        cv.lines(fit, self.top, self.cursor, x_end)
        cv.d.hline(0, 7, x_end, 1)


class Menu(ListScreen):
    """Pick one of `items`: a list of (label, callback). BACK returns to the screen below
    on the app's stack."""

    def __init__(self, app, title, items, cursor=0):
        ListScreen.__init__(self, app)
        self.title = title
        self.items = items
        self.labels = [label for label, _ in items]
        self.cursor = cursor if cursor < len(items) else 0

    def rows(self):
        return self.labels

    def key(self, k):
        base = k & CODE_MASK
        if base in (UP, DOWN):
            self.move(base, len(self.items))
        elif base == OK and self.items:
            self.items[self.cursor][1]()
        elif base == BACK:
            self.app.back()


class Field:
    """One form field: label, choices [(text, value)], the chosen index."""

    def __init__(self, label, choices, index=0, follows=False):
        self.label = label
        self.choices = choices
        self.index = index
        self.follows = follows  # may change when an earlier field does (see Form._turn)

    def value(self):
        return self.choices[self.index][1]

    def text(self):
        return "%s %s" % (self.label, self.choices[self.index][0])


class Form(ListScreen):
    """Fields changed with LEFT/RIGHT, offering only values for which `legal(values)` holds.

    `build(values)` makes the event; the last row saves it (app.enter) and shows the points it
    will give (session.preview). Fields start at the first legal value from their index.
    `save(values)` replaces entering an event (settings forms). BACK runs `back` (default:
    the screen below on the app's stack).

    The screen says what OK does: the field under the cursor ends in "OK>" (OK goes on to
    the next row) and the last row reads "save ...". A value LEFT/RIGHT skips is explained
    once per form (skipped()), so a player is never left wondering where a colour went.
    """

    def __init__(self, app, title, fields, build=None, save=None, legal=None, back=None):
        ListScreen.__init__(self, app)
        self.back = back
        self.title = title
        self.fields = fields
        self.build = build
        self.save = save
        self.legal = legal or self._check
        self.note = ""
        self._checked = None  # the points of the values the last _why() accepted (_check)
        # [the session's state, the values, the state after them, their record line, the
        # screen home() shows once the session takes that state] of that check; ahead()
        # makes what is None (a check without a state, as the Azul wall's, leaves it None)
        self._after = None
        self._why_of = None   # the values _why() checked last, and what it said
        self._why_was = None
        self._deltas = None   # the points the save row shows
        n = len(fields)
        # rows(): the fields' rows and the save row, one list changed in place by _update():
        # a value that changes remakes its own row only; _at[i] is the index row i shows,
        # bit i of _changed says row i changed since fitted() last cut it to the screen
        self._rows = [""] * (n + 1)
        self._at = [-1] * n
        self._changed = 0
        self._explained = []  # (field, choice index) pairs whose skip was already explained
        for i in range(n):  # fields turned in order until the values are legal
            if self._why() is None:
                break
            self._turn(i, 1)
        self._update()

    def values(self):
        return [f.value() for f in self.fields]

    def _check(self, values):
        """The rules' check of the entry the values build: its points per player, kept with
        the state it makes, which the save enters (no second copy and apply of the rules)."""
        s = self.app.session
        after = s.trial(self.build(values))
        self._checked = s.deltas(after)
        self._after = [s.rules, values, after, None, None]
        return self._checked

    def _keep_change(self, values, p, change):
        """Keep a check the rules made without a copy of their state (player p's score
        `change`) as _check() keeps its own; the idle frames on the save row make the state
        (ahead())."""
        s = self.app.session
        deltas = [0] * len(s.players)
        deltas[p] = change
        self._checked = deltas
        self._after = [s.rules, values, None, None, None]

    def _why(self):
        """None when the values are legal, else the ValueError saying why not."""
        values = self.values()
        if values == self._why_of:  # asked again (a form's first values): the same answer
            return self._why_was
        self._checked = self._after = None
        self._why_of = values
        try:
            self.legal(values)
            self._why_was = None
        except ValueError as e:
            self._why_was = e
        return self._why_was

    def _prepared(self):
        """_after when the last check made it for the values on screen from the session's
        state as it still is (a Confirm, which has no values to turn, was checked by
        _update()); else None (the record's writer checks again)."""
        a = self._after
        if a is not None and a[0] is self.app.session.rules and self.values() == a[1]:
            return a
        return None

    def ahead(self):
        """With the cursor on the save row, the save's work in idle frames, a piece a call:
        the state after the entry (where the check made none), its record line, the screen
        the save goes to, then that screen's first frame (Canvas.ahead). The save press
        then writes the line and shows that screen (a press that comes first does the rest
        itself)."""
        a = self._prepared() if self.cursor == len(self.fields) else None  # (a settings form has none)
        if a is None:
            return False
        app = self.app
        if a[2] is None:
            a[2] = app.session.trial(self.build(a[1]))
        elif a[3] is None:
            from rules_core.record import dumps
            a[3] = dumps(self.build(a[1]))
        elif a[4] is None:
            a[4] = app.home_screen(a[2])
        else:
            app.cv.ahead(a[4])
            return False
        return True

    def _turn(self, i, step, explain=False):
        """Move field i to its next legal value, adjusting a later `follows` field if that
        makes it legal (Sintra: the bonus follows the kept glass); False when none fits.
        With `explain` (a key press), the first value skipped that was not explained before
        is said (skipped()); when none fits, why the next one does not."""
        f = self.fields[i]
        start = f.index
        n = len(f.choices)
        why = None
        for _ in range(n - 1):
            f.index = (f.index + step) % n
            err = self._why()
            if err is None or self._follow(i + 1):
                if why:
                    self._explained.append(why[0])
                    self.app.say(why[1])
                return True
            if explain and why is None and (i, f.index) not in self._explained:
                why = ((i, f.index), self.skipped(i, err))
        f.index = start
        if explain:
            self.app.refuse(why[1] if why else "no other value fits")
        return False

    def skipped(self, i, err):
        """What the screen says when field i's current value was skipped because of err
        (the rules' ValueError): "<label> <value>: <why>" in at most two 16-character rows.
        The rules' own message by default; a form overrides it with shorter words."""
        return "%s: %s" % (self.fields[i].text(), err)

    def _follow(self, j):
        for k in range(j, len(self.fields)):
            g = self.fields[k]
            if g.follows:
                start = g.index
                for _ in range(len(g.choices) - 1):
                    g.index = (g.index + 1) % len(g.choices)
                    if self._why() is None:
                        return True
                g.index = start
        return False

    def _update(self):
        """After a value changed: the rows of the fields that moved, and on the save row the
        points the entry gives per player."""
        rows = self._rows
        at = self._at
        fields = self.fields
        n = len(fields)
        for i in range(n):
            f = fields[i]
            if f.index != at[i]:
                at[i] = f.index
                rows[i] = f.text()
                self._changed |= 1 << i
        deltas = None
        if self.build and not self.save:
            try:
                # the check that accepted these values previewed them already
                deltas = self._checked or self._check(self.values())
            except ValueError:
                pass
        if deltas != self._deltas or not rows[n]:
            self._deltas = deltas
            self.note = ""
            if deltas is not None:
                names = self.app.session.players
                parts = ["%s%+d" % (names[p][:3], deltas[p]) for p in range(len(deltas)) if deltas[p]]
                self.note = " ".join(parts) or "+0"
            rows[n] = ("save " + self.note) if self.note else "save"
            self._changed |= 1 << n

    def rows(self):
        return self._rows

    def fitted(self, n):
        """ListScreen.fitted(), with the rows _update() changed cut again (the others kept)."""
        changed = self._changed
        if changed:
            self._changed = 0
            if self._fit_src is self._rows and n == self._fit_n:
                fit = self._fit
                rows = self._rows
                for i in range(len(rows)):
                    if changed >> i & 1:
                        fit[i + 1] = rows[i] if len(rows[i]) <= n else rows[i][:n]
        return ListScreen.fitted(self, n)

    def key(self, k):
        base = k & CODE_MASK
        n = len(self.fields)
        if base in (UP, DOWN):
            self.move(base, n + 1)
        elif base in (LEFT, RIGHT) and self.cursor < n:
            if self._turn(self.cursor, -1 if base == LEFT else 1, True):
                self._update()
        elif base == OK:
            if self.cursor < n:
                self.cursor += 1
            elif self.save:
                self.save(self.values())
            else:
                a = self._prepared()
                if self.app.enter(self.build(self.values()), a and a[2], a and a[3]):
                    # the session took a[2] when given one: a[4] was made for that state
                    self.app.home(a and a[4])
        elif base == BACK:
            (self.back or self.app.back)()

    def draw(self, cv):
        ListScreen.draw(self, cv)
        c = self.cursor
        if c < len(self.fields) and cv.rows > 1:  # the cursor is on a field: OK goes on
            n = self._fit_n  # (the rows were fitted to the screen's width just now)
            free = n - len(self._fit[c + 1]) - 1  # characters right of the row's text and a space
            hint = NEXT_HINT if free >= len(NEXT_HINT) else NEXT_SHORT if free > 0 else None
            if hint:
                cv.text(hint, (n - len(hint)) * 8, (c - self.top + 1) * 8, 0)


class Confirm(Form):
    """A form without fields: the event and its points, OK enters it."""

    def __init__(self, app, title, event):
        Form.__init__(self, app, title, [], build=lambda values: event)


class Numbers:
    """The choices lo..hi as (text, value), made on demand (a 0..972 field costs nothing)."""

    def __init__(self, lo, hi):
        self.lo = lo
        self.n = hi - lo + 1

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        v = self.lo + i
        return (str(v), v)


class Count(Field):
    """A number field: its value without making its (text, value) choice."""

    def value(self):
        return self.choices.lo + self.index


def count_field(label, lo, hi, value=None):
    """A number field lo..hi starting at `value` (default lo)."""
    return Count(label, Numbers(lo, hi), (value - lo) if value is not None else 0)
