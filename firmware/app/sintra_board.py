"""The Sintra board values the rulebook text does not print, entered once on the device
(Settings > Sintra board, and a new game's set-up): each side's 8 window values, the
broken-glass track and side A's ornaments.

A value counts only once the owner has set or confirmed it. Window values start unset ("?")
and LEFT/RIGHT sets them; the track and the ornaments start at the inferred tables
(rules_core.sintra INFERRED_TRACK, INFERRED_ORNAMENTS), each value marked "?" until an OK
on it (or a change) confirms it. Saving is refused while a "?" is left, so no single press
accepts a guess.
The settings keep what was confirmed (app.settings.SINTRA: a key present is confirmed) and
each game's record gets the values in use (options.board).
"""
from hal.keys import LEFT, RIGHT, OK, CODE_MASK
from rules_core.sintra import INFERRED_TRACK, INFERRED_ORNAMENTS
from app.ui import ListScreen, Menu
from app.form import Field, Form, Numbers
from app.lang import tr

NOT_ENTERED = "????????"


def board(settings, side):
    """options.board for a new game on `side`: the values in use, or None while that side's
    window values are not entered."""
    windows = settings.get("sintra_windows_" + side)
    if windows is None:
        return None
    b = {"windows": windows, "track": settings.get("sintra_track") or list(INFERRED_TRACK)}
    if side == "A":
        b["ornaments"] = settings.get("sintra_ornaments") or [list(o) for o in INFERRED_ORNAMENTS]
    return b


def unverified(settings, side):
    """The inferred tables a game on `side` would use, not yet confirmed by the owner."""
    keys = ("track", "ornaments") if side == "A" else ("track",)
    return [k for k in keys if "sintra_" + k not in settings]


class Reading(Field):
    """A value read off the board: `index` None until set; `sure` once set or confirmed.
    A number's choice is found and read by arithmetic: Numbers makes a choice's text when
    asked, not 247 new strs for the 13-space track."""

    def __init__(self, label, choices, value, sure):
        index = None
        if type(choices) is Numbers:
            if type(value) is int and 0 <= value - choices.lo < len(choices):
                index = value - choices.lo
        else:
            for i in range(len(choices)):
                if choices[i][1] == value:
                    index = i
        Field.__init__(self, label, choices, index)
        self.sure = sure and index is not None

    def value(self):
        if self.index is None:
            return None
        if type(self.choices) is Numbers:
            return self.choices.lo + self.index
        return self.choices[self.index][1]

    def text(self):
        if self.index is None:
            return self.label + " ?"
        return "%s %s%s" % (self.label, self.choices[self.index][0], "" if self.sure else "?")

    def state(self):
        """What its row shows, as an int: -2 unset, else 2 * index, + 1 once sure."""
        return -2 if self.index is None else 2 * self.index + (1 if self.sure else 0)


class BoardForm(Form):
    """Readings saved as one settings key once each is set and confirmed; then `then()`."""

    def __init__(self, app, title, setting, fields, then):
        self.setting = setting
        self.then = then
        self._left = -1  # the count of "?" the save row shows
        self._text = None  # (settings, values, the settings' text with them): ahead()
        Form.__init__(self, app, title, fields, save=self._save, legal=_any)

    def _update(self):
        """The rows of the readings whose value or "?" changed, and the save row when the
        count of "?" did (Form's rows, changed in place: the others are not made again)."""
        rows = self._rows
        at = self._at
        fields = self.fields
        n = len(fields)
        left = 0
        for i in range(n):
            f = fields[i]
            if not f.sure:
                left += 1
            state = f.state()
            if state != at[i]:
                at[i] = state
                rows[i] = f.text()
                self._changed |= 1 << i
        if left != self._left:
            self._left = left
            rows[n] = tr("save: %d ? left") % left if left else tr("save")
            self._changed |= 1 << n

    def draw(self, cv):
        # OK does not go on from a "?" (LEFT/RIGHT sets it): no "OK>" hint on that row
        if self.cursor < len(self.fields) and self.fields[self.cursor].index is None:
            ListScreen.draw(self, cv)
        else:
            Form.draw(self, cv)

    def _turn(self, i, step, explain=False):
        f = self.fields[i]
        if f.index is None:  # "?": RIGHT sets the first value, LEFT the last
            f.index = 0 if step > 0 else len(f.choices) - 1
            return True
        return Form._turn(self, i, step, explain)

    def key(self, k):
        base = k & CODE_MASK
        if self.cursor >= len(self.fields) or base not in (LEFT, RIGHT, OK):
            return Form.key(self, k)
        f = self.fields[self.cursor]
        if base == OK and f.index is None:
            self.app.refuse(tr("LEFT/RIGHT sets %s") % f.label)
            return
        Form.key(self, k)  # LEFT/RIGHT turn the value, OK moves to the next field
        f.sure = True
        self._update()

    def prepare(self):
        """With the cursor on the save row and every reading set, the settings' text the save
        will write, made in an idle frame; the save writes it."""
        if self._left == 0 and self.cursor == len(self.fields):
            values = self.values()
            if self._made_text(values) is None:
                from app.settings import as_text
                new = dict(self.app.settings)
                new[self.setting] = values
                self._text = (self.app.settings, values, as_text(new))
        return False

    def _made_text(self, values):
        """The text ahead() made for `values` over the settings as they still are, or None."""
        made = self._text
        return made[2] if made is not None and made[0] is self.app.settings and made[1] == values else None

    def _save(self, values):
        from app.settings import sintra_problem, save
        for i in range(len(self.fields)):
            if not self.fields[i].sure:
                self.cursor = i
                self.app.refuse(tr("%s is still ?") % self.fields[i].label)
                return
        problem = sintra_problem(self.setting, values)
        if problem:
            self.app.refuse(tr(problem[0]) % problem[1:])
        elif save(self.app, {self.setting: values}, self._made_text(values)):
            self.app.say(tr("saved"))
            self.then()


def _any(values):
    """Any values may stand while they are entered; _save checks the whole table."""


def windows_form(app, side, then):
    """Side A or B's 8 window values, read off the board left to right."""
    saved = app.settings.get("sintra_windows_" + side) or [None] * 8
    fields = [Reading(tr("win %d") % (i + 1), Numbers(0, 9), saved[i], True) for i in range(8)]
    return BoardForm(app, tr("%s windows L to R") % side, "sintra_windows_" + side, fields, then)


def track_form(app, then):
    """The broken-glass track's 13 spaces top to bottom; the bottom is -18 (遊戲結束) and
    the top, where markers start, 0."""
    saved = app.settings.get("sintra_track")
    track = saved or INFERRED_TRACK
    fields = []
    for i in range(len(track)):
        fixed = i == 0 or i == len(track) - 1
        choices = Numbers(track[i], track[i]) if fixed else Numbers(-18, 0)
        fields.append(Reading(tr("space %d") % (i + 1), choices, track[i], fixed or saved is not None))
    return BoardForm(app, tr("Track top-bottom"), "sintra_track", fields, then)


PAIRS = [("%d-%d" % (c, c + 1), [c, c + 1]) for c in range(1, 8)]


def ornaments_form(app, then):
    """Side A's 4 ornaments, each between two neighbouring windows, left to right."""
    saved = app.settings.get("sintra_ornaments")
    orn = saved or INFERRED_ORNAMENTS
    fields = [Reading(tr("orn %d: win") % (i + 1), PAIRS, list(orn[i]), saved is not None) for i in range(4)]
    return BoardForm(app, tr("A ornaments"), "sintra_ornaments", fields, then)


class BoardMenu(Menu):
    """What is entered: "A win 31241111" ("?" not entered), the track and the ornaments
    "unverified" (the inferred table) or "confirmed". In a new game's set-up (`start`), only
    the side played, and a last row, Continue, that goes on once its windows are entered."""

    def __init__(self, app, sides, start=None):
        self.sides = sides
        self.start = start
        Menu.__init__(self, app, tr("Sintra board") if start is None else tr("Side %s board") % sides, [])
        self.refresh()

    def refresh(self):
        app = self.app
        s = app.settings
        items = []
        for side in self.sides:
            w = s.get("sintra_windows_" + side)
            items.append((tr("%s win %s") % (side, "".join([str(v) for v in w]) if w else NOT_ENTERED),
                          self._open(windows_form, side)))
        items.append((tr("Track %s") % _state(s, "sintra_track"), self._open(track_form)))
        if "A" in self.sides:
            items.append((tr("Orn A %s") % _state(s, "sintra_ornaments"), self._open(ornaments_form)))
        if self.start is not None:
            items.append((tr("Continue"), self._start))
        self.items = items
        self.labels = [label for label, _ in items]
        if self.start is not None:
            self.cursor = len(items) - 1 if board(s, self.sides) else 0

    def _open(self, form, side=None):
        def done():
            self.refresh()
            self.app.back()
        if side is None:
            return lambda: self.app.push(form(self.app, done))
        return lambda: self.app.push(form(self.app, side, done))

    def _start(self):
        if board(self.app.settings, self.sides) is None:
            self.app.refuse(tr("enter the %s windows first") % self.sides)
        else:
            self.start()


def _state(settings, key):
    return tr("confirmed") if key in settings else tr("unverified")
