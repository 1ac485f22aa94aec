"""Screen building blocks: the drawing surface, a scrolling list and a menu (the form's are
in app.form, loaded only with the screens that use it).

Every screen is a list of text rows under a title (8x8 font: 16 characters a row; 8 rows on a
128x64 display, 4 on 128x32; in Chinese and Japanese, rows of 12x12 glyphs (10x10 on 128x32):
app.lang). The cursor row is drawn inverted. Screens only draw when the app says the frame
is dirty.
"""
from hal.keys import UP, DOWN, OK, BACK, CODE_MASK

COLS = 16  # characters per row


def wrap(text, n, rows, font=None):
    """text in at most `rows` rows of n characters (with a font: n pixels), each broken at a
    space where one fits, else where the row is full (the last row cut when there is more)."""
    if font is not None:
        return _wrap_font(text, n, rows, font)
    out = []  # type: list[str]
    while len(text) > n and len(out) < rows - 1:
        cut = text.rfind(" ", 0, n + 1)
        if cut <= 0:
            out.append(text[:n])
            text = text[n:]
        else:
            out.append(text[:cut])
            text = text[cut + 1:]
    out.append(text if len(text) <= n else text[:n])
    return out


def _wrap_font(text, width, rows, font):
    out = []  # type: list[str]
    while len(out) < rows - 1:
        head = font.fit(text, width)
        if len(head) == len(text):
            break
        cut = head.rfind(" ")
        if cut > 0:
            out.append(text[:cut])
            text = text[cut + 1:]
        else:
            out.append(head)
            text = text[len(head):]
    out.append(font.fit(text, width))
    return out


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

    A screen that a press will show can be drawn ahead (draw_ahead(), in an idle frame): begin()
    then copies that frame in, with the texts it noted, and the screen is not drawn again
    (begin() says so). It is kept while the screen it was drawn on is the one drawn (1 KB
    of heap meanwhile).
    """

    def __init__(self, display):
        self.d = display
        self.w = display.width
        self.h = display.height
        self.use("en", None)

    def use(self, language, font):
        """Draw `language`'s texts with `font` (app.lang's: rows `font.line` pixels high),
        None: the display's 8x8 font. The next frame starts from clear."""
        self.language = language
        self.font = font
        self.line = font.line if font is not None else 8  # a row's height in pixels
        self.rows = self.h // self.line
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
        # draw_ahead(): (the screen drawn ahead, the screen drawn when it was, the bytes of its
        # frame, the rows it holds: held, held_inv, held_w, its texts: frame, drawn), or None
        self.spare = None

    def width(self, s):
        """s's width in pixels."""
        return 8 * len(s) if self.font is None else self.font.width(s)

    def fit(self, s, width):
        """s cut to `width` pixels (s itself when it fits)."""
        if self.font is None:
            n = width // 8
            return s if len(s) <= n else s[:n]
        return self.font.fit(s, width)

    def wrap(self, text):
        """A message's rows: text over the whole width, on all but the title row."""
        if self.font is None:
            return wrap(text, self.w // 8, self.h // 8 - 1)
        return wrap(text, self.w, self.rows - 1, self.font)

    def draw_text(self, s, x, y, c=1):
        """Draw s (not noted): the 8x8 font, or the language's."""
        if self.font is None:
            self.d.text(s, x, y, c)
        else:
            self.font.text(self.d, s, x, y, c)

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
        """Start a frame of `screen`: over its previous frame, else from a clear buffer.
        True when the frame is the one draw_ahead() drew, whole: the screen draws nothing and
        finish() has nothing to clear (a screen drawn ahead has not changed since: the
        press that shows it is the first that reaches it)."""
        self.drawn = 0
        for i in range(self.rows):
            self.seen[i] = 0
        self.fresh = screen is not self.screen
        if not self.fresh:
            return False
        self.screen = screen
        spare = self.spare
        if spare is not None and spare[0] is screen:  # its first frame, drawn ahead
            self.spare = None
            self.d.buffer[:] = spare[2]
            self.held, self.held_inv, self.held_w, self.frame, self.drawn = spare[3:]
            self.fresh = False  # (the next frame goes over it)
            return True
        if spare is not None and spare[1] is not screen:  # it will not be shown next
            self.spare = None
        self.clear()
        return False

    def draw_ahead(self, screen):
        """Draw `screen`'s first frame, as begin() from clear would, with a canvas of its own,
        and keep it (the frame on screen put back); the begin() that shows `screen` next
        takes that frame. Nothing drawn on a display without a buffer to copy into, or when
        the heap has no room for it (its press draws it); a bug in draw() is raised."""
        spare = self.spare
        if spare is not None and spare[0] is screen:
            return  # (drawn already)
        self.spare = None
        buf = getattr(self.d, "buffer", None)
        if buf is None:
            return
        shown = None
        try:
            shown = bytearray(buf)
            cv = Canvas(self.d)
            if self.font is not None:
                cv.use(self.language, self.font)
            cv.begin(screen)
            screen.draw(cv)
            cv.finish()
            self.spare = (screen, self.screen, bytearray(buf), cv.held, cv.held_inv, cv.held_w, cv.frame, cv.drawn)
        except MemoryError:  # a full heap: the press draws its own frame
            pass
        finally:  # the buffer holds the frame on screen again, whatever happened
            if shown is not None:
                buf[:] = shown

    def finish(self):
        """Clear the rows the previous frame drew and this one did not."""
        for i in range(self.rows):
            if self.held_w[i] and not self.seen[i]:
                self.d.fill_rect(0, i * self.line, self.held_w[i], self.line, 0)
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
        self.draw_text(s, x, y, c)
        self.note(s)

    def texts(self):
        """The strings of the current frame (a new list: for tests and the simulator)."""
        return self.frame[:self.drawn]

    def row(self, i, s, inverted=False, width=0):
        """Text on row i (up to `width` pixels, default all); an inverted row is the cursor."""
        width = width or self.w
        s = self.fit(s, width)
        if not 0 <= i < self.rows:
            self.text(s, 0, i * self.line, 0 if inverted else 1)
            return
        self.seen[i] = 1
        if self.held_w[i] != width or self.held_inv[i] != inverted or self.held[i] != s:
            self._put(i, s, inverted, width)  # else the buffer holds this row already
        self.note(s)

    def lines(self, fit, top, cursor, width, span=1, rows=0):
        """A list's rows, as row() for each but in one call (most rows of a frame hold their
        text already): fit[0] on row 0, fit[top + i] on row i below it, the `span` rows of
        item `cursor` inverted; each cut to `width` pixels already. rows: on the first rows
        only (default all)."""
        held = self.held
        held_w = self.held_w
        held_inv = self.held_inv
        cursor = -2 if cursor is None else cursor  # (no row is the cursor)
        k = min(rows or self.rows, len(fit) - top)
        for i in range(k):
            s = fit[top + i if i else 0]
            inverted = i > 0 and (top + i - 1) // span == cursor
            self.seen[i] = 1
            if held_w[i] != width or held_inv[i] != inverted or held[i] != s:
                self._put(i, s, inverted, width)
        self.notes(held, k)

    def _put(self, i, s, inverted, width):
        """Draw row i (0 <= i < rows) anew (not noted)."""
        was = self.held_w[i]
        line = self.line
        y = i * line
        if inverted:  # the cursor's bar covers what the row held, up to width
            self.d.fill_rect(0, y, width, line, 1)
            if was > width:
                self.d.fill_rect(width, y, was - width, line, 0)
        elif was:
            self.d.fill_rect(0, y, was if was > width else width, line, 0)
        self.draw_text(s, 0, y, 0 if inverted else 1)
        self.held[i] = s
        self.held_inv[i] = inverted
        self.held_w[i] = width


class Screen:
    """A screen: key(k) handles one press, draw(canvas) paints it. `app` is the App."""
    wide = True  # False: the rows leave the right 40 pixels to draw()'s extra (Azul wall)
    raw_keys = False  # True: BACK held reaches key() instead of undoing the last entry
    # the undo made ahead for this screen (app.play.Undo; False: none to make), None: not yet
    undo = None  # type: object

    def __init__(self, app):
        self.app = app

    def key(self, k):
        pass

    def draw(self, cv):
        pass

    def matrix(self):
        """25 colour names (row by row, None: dark) that a 5x5 LED matrix shows with this
        screen (an Azul wall being entered), else None."""
        return None

    def winners(self):
        """The winners when the screen shows a finished game's standings (the LEDs chase in
        their colours), else None."""
        return None

    def prepare(self):
        """Work of the next presses done in an idle frame, a piece a call (a press that comes
        meanwhile waits for that piece); True while more is left."""
        return False


class ListScreen(Screen):
    """A title and rows; `cursor` is None for a read-only list (UP/DOWN scroll it).

    rows() should return the same list object until the rows change: draw() then reuses
    the rows it cut to the screen width, so redrawing an unchanged screen allocates nothing.
    """
    title = ""
    span = 1  # rows an item takes (the cursor inverts them all)
    _fit = []  # type: list  # [title, rows...] cut to _fit_n pixels (replaced, never changed here)
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

    def fitted(self, cv, width):
        """[title] + rows(), each cut to `width` pixels; remade only when they changed."""
        rows = self.rows()
        if rows is not self._fit_src or self.title is not self._fit_title or width != self._fit_n:
            fit = [cv.fit(self.title, width)]
            for r in rows:  # a loop, not a comprehension: width captured in one would be a
                # cell, allocated on every call; cv.fit() makes no slice of a row that fits
                fit.append(cv.fit(r, width))
            self._fit = fit
            self._fit_src = rows
            self._fit_title = self.title
            self._fit_n = width
        return self._fit

    def width(self, cv):
        """The rows' width in pixels (a narrow screen leaves 40 to its drawing)."""
        return cv.w if self.wide else cv.w - 40

    def draw(self, cv):
        x_end = self.width(cv)
        fit = self.fitted(cv, x_end)
        visible = cv.rows - 1
        span = self.span
        if self.cursor is not None:  # keep the cursor's rows on screen
            first = self.cursor * span
            if first < self.top:
                self.top = first
            elif first + span > self.top + visible:
                self.top = first + span - visible
        cv.lines(fit, self.top, self.cursor, x_end, span)
        cv.d.hline(0, cv.line - 1, x_end, 1)


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
