"""Forms: fields changed with LEFT/RIGHT and a save row (entries, settings, set-up checks).

Loaded with the screens that use them (the entry screens, the Settings, a game's own set-up
steps), not by the main menu or the final standings: 3-4 KB of a board's heap. In idle
frames a form on its save row does the save's work ahead (Save), and an entry menu the
work of the item under its cursor (the form it opens: Opens; the entry it makes: Save).
"""
from hal.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, CODE_MASK
from app.ui import ListScreen, Menu
from app.lang import tr
from app import play

NEXT_HINT = "OK>"  # ends the cursor's row on a form field: OK goes on to the next row
NEXT_SHORT = ">"   # the same where the row's text leaves no room for it


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

    `build(values)` makes the event; the save row enters it (play.enter) and shows the points it
    will give (session.preview); `reason(values, points)`, where a number alone would puzzle
    (a penalty no field shows, points that come at the game's end), says why in a row under
    it ("-1 first pass"), or "". Fields start at the first legal value from their index.
    `save(values)` replaces entering an event (settings forms). BACK runs `back` (default:
    the screen below on the app's stack).

    The screen says what OK does: the field under the cursor ends in "OK>" (OK goes on to
    the next row) and the last row reads "save ...". A value LEFT/RIGHT skips is explained
    once per form (skipped()), so a player is never left wondering where a colour went.
    """

    def __init__(self, app, title, fields, build=None, save=None, legal=None, back=None, reason=None):
        ListScreen.__init__(self, app)
        self.back = back
        self.reason = reason
        self.title = title
        self.fields = fields
        self.build = build
        self.save = save
        self.legal = legal or self._check
        self.note = ""
        self._checked = None  # the points of the values the last _why() accepted (_check)
        self._after = None  # the Save of that check (one without a state, as the Azul wall's, makes none)
        self._why_of = None   # the values _why() checked last, and what it said
        self._why_was = None
        self._deltas = None   # the points the save row shows
        n = len(fields)
        # rows(): the fields' rows, the save row (and the reason's), one list changed in place by _update():
        # a value that changes remakes its own row only; _at[i] is the index row i shows,
        # bit i of _changed says row i changed since fitted() last cut it to the screen
        self._rows = [""] * (n + 1 + (reason is not None))
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
        ev = self.build(values)
        after = s.trial(ev)
        self._checked = s.deltas(after)
        self._after = Save(self.app, ev, after, values)
        return self._checked

    def _keep_change(self, values, ev, change):
        """Keep a check the rules made without a copy of their state (ev's player's score
        `change`) as _check() keeps its own; the idle frames on the save row make the state
        (ahead())."""
        s = self.app.session
        deltas = [0] * len(s.players)
        deltas[ev["p"]] = change
        self._checked = deltas
        self._after = Save(self.app, ev, None, values)

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
        """The Save the last check made when it was for the values on screen from the
        session's state as it still is (a Confirm, which has no values to turn, was checked
        by _update()); else None (the record's writer checks again)."""
        a = self._after
        if a is not None and a.rules is self.app.session.rules and self.values() == a.values:
            return a
        return None

    def prepare(self):
        """With the cursor on the save row, the save's work in idle frames (Save.prepare); the
        save press then writes the line and shows the screen made (a settings form has no
        such work)."""
        a = self._prepared() if self.cursor == len(self.fields) else None
        return a is not None and a.prepare()

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
            self.app.refuse(why[1] if why else tr("no other value fits"))
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
            rows[n] = (tr("save %s") % self.note) if self.note else tr("save")
            self._changed |= 1 << n
            if self.reason is not None:
                rows[n + 1] = self.reason(self.values(), deltas) if deltas is not None else ""
                self._changed |= 2 << n

    def rows(self):
        return self._rows

    def fitted(self, cv, width):
        """ListScreen.fitted(), with the rows _update() changed cut again (the others kept)."""
        changed = self._changed
        if changed:
            self._changed = 0
            if self._fit_src is self._rows and width == self._fit_n:
                fit = self._fit
                rows = self._rows
                for i in range(len(rows)):
                    if changed >> i & 1:
                        fit[i + 1] = cv.fit(rows[i], width)
        return ListScreen.fitted(self, cv, width)

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
                (self._prepared() or Save(self.app, self.build(self.values())))()
        elif base == BACK:
            (self.back or self.app.back)()

    def draw(self, cv):
        c = self.cursor
        n = len(self.fields)
        if c == n and len(self._rows) > n + 1 and self._rows[n + 1]:  # the save row's reason in view
            self.top = max(self.top, n + 3 - cv.rows)
        ListScreen.draw(self, cv)
        if c < len(self.fields) and cv.rows > 1:  # the cursor is on a field: OK goes on
            w = self._fit_n  # (the rows were fitted to the screen's width just now)
            free = w - cv.width(self._fit[c + 1]) - 8  # pixels right of the row's text and a space
            hint = NEXT_HINT if free >= 8 * len(NEXT_HINT) else NEXT_SHORT if free >= 8 else None
            if hint:
                cv.text(hint, w - 8 * len(hint), (c - self.top + 1) * cv.line, 0)


class Confirm(Form):
    """A form without fields: the event, OK enters it; the rows under the save row say what
    it gives each player ("Ann +4"), or why it gives nothing (`nothing`: "track: at end")."""

    def __init__(self, app, title, event, nothing=""):
        Form.__init__(self, app, title, [], build=lambda values: event)
        d = self._deltas
        if d is not None and any(d):
            names = app.session.players
            self._rows = [tr("save")] + ["%.7s %+d" % (names[p], d[p]) for p in range(len(d)) if d[p]]
        elif d is not None and nothing:
            self._rows = [self._rows[0], nothing]
        self._changed = (1 << len(self._rows)) - 1


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
    """A number field: its value and its text without making its (text, value) choice (a
    tuple and a str less a row: a form opens with up to eight of them)."""

    def value(self):
        return self.choices.lo + self.index

    def text(self):
        return "%s %d" % (self.label, self.choices.lo + self.index)


def count_field(label, lo, hi, value=None):
    """A number field lo..hi starting at `value` (default lo)."""
    return Count(label, Numbers(lo, hi), (value - lo) if value is not None else 0)


class EntryMenu(Menu):
    """A menu of entries (the round's, who took the first-player marker): the idle frames do
    the work of the item under the cursor (Opens: its form; Save: its save's); what was made
    for an item the cursor left is dropped (the menu holds one item's: 1-3 KB)."""

    def prepare(self):
        items = self.items
        more = False
        for i in range(len(items)):
            cb = items[i][1]
            if type(cb) is Opens or type(cb) is Save:
                if i != self.cursor:
                    cb.drop()
                else:
                    more = cb.prepare()
        return more


class Save:
    """Entering ev, and its work done ahead in idle frames, a piece an ahead() call: the state
    after it (where the check made none), its record line, the screen the save goes to, then
    that screen's first frame (Canvas.draw_ahead). A call enters ev: it writes the line and shows
    that screen, making itself what is not made yet (all of it once the session's state is
    no longer the one it was made from: the record's writer checks again). A form's save,
    and a menu item's entry made in one press (who took the first-player marker, a purchase)."""

    def __init__(self, app, ev, after=None, values=None):
        self.app = app
        self.rules = app.session.rules  # the state it is made from
        self.ev = ev
        self.values = values  # (a form's: the values that built ev)
        self.drop(after)

    def drop(self, after=None):
        """Forget what was made ahead (after: session.trial(ev), made by a check)."""
        self.after = after
        self.line = None
        self.screen = None

    def prepare(self):
        """The next piece; True while more is left. One that fails (the rules refuse ev: a
        ValueError; a MemoryError) leaves all of it to the press, which says what went wrong;
        anything else is a bug, raised here."""
        app = self.app
        if self.rules is not app.session.rules:
            return False
        try:
            if self.after is None:
                self.after = app.session.trial(self.ev)
            elif self.line is None:
                from rules_core.record import dumps
                self.line = dumps(self.ev)
            elif self.screen is None:
                self.screen = app.home_screen(self.after)
            else:
                app.cv.draw_ahead(self.screen)
                return False
        except (ValueError, MemoryError):
            self.rules = None
            return False
        return True

    def __call__(self):
        app = self.app
        made = self.rules is app.session.rules
        if play.enter(app, self.ev, self.after if made else None, self.line if made else None):
            # the session took self.after when given one: self.screen was made for that state
            app.home(self.screen if made else None)


class Opens:
    """A menu item's callback that shows the screen make() returns (an entry's form). While
    the cursor rests on the item the entry menu's idle frames make it (EntryMenu.prepare: the
    object only, its first frame is drawn by the press), and the press shows the one made
    if no event was entered since (the state it read is the game's)."""

    def __init__(self, app, make):
        self.app = app
        self.make = make
        self.made = None      # the screen made ahead (False: making it failed), for the
        self.entered = -1     # app's entered-th event

    def drop(self):
        self.made = None

    def prepare(self):
        """Make the screen. One a full heap stops is left to its press, which says what went
        wrong; anything else raised is a bug (a form is made from the game's state)."""
        if self.made is None:
            try:
                self.made = self.make()
                self.entered = self.app.entered
            except MemoryError:
                self.made = False

    def __call__(self):
        screen = self.made
        self.made = None
        if not screen or self.entered != self.app.entered:
            screen = self.make()
        self.app.replace(screen)
