"""Sintra entries: a completed window (column, colour bonus, kept glass), broken glass, who
took the start tile from the centre, and in round VI each player's leftover glass.

Fields offer only values the rules accept (open windows, a bonus that fits the kept glass).
"""
from rules_core.sintra import COLOURS
from rules_core.games import game
from app.form import Form, Field, Opens, count_field, EntryMenu, Save
from app import colours
from app.lang import tr

UNVERIFIED = game("sintra").unverified  # glass colour names the rulebook does not give


# the variants whose new game asks set-up steps of this game's own (options())
STEPS = ("A", "B")


def options(app, variant, step, start):
    """New game: the side's board values (app.sintra_board: shown until the side's windows
    are entered and the inferred tables confirmed), then the round indicator's colours I..VI,
    the last one's choices start the game (start(options): app.setup.Start)."""
    from app import sintra_board

    def round_colour(chosen):
        k = len(chosen)
        board = sintra_board.board(app.settings, variant) if k == 5 else None  # (k == 5: the last)
        # rounds II..VI show each colour once (rulebook setup 7): offer the ones not yet shown
        left = [c for c in COLOURS if k == 0 or c not in chosen[1:]]
        step(tr("Round %d colour") % (k + 1),
             [(tr(c + colours.unsure(c, UNVERIFIED), "sintra"),
               start({"round_colors": chosen + [c], "board": board}) if k == 5
               else _colour(round_colour, chosen + [c])) for c in left])

    if sintra_board.board(app.settings, variant) and not sintra_board.unverified(app.settings, variant):
        return round_colour([])
    app.replace(sintra_board.BoardMenu(app, variant, lambda: round_colour([])))


def settings(app):
    """The Settings menu's "Sintra board": both sides' board values."""
    from app import sintra_board
    return sintra_board.BoardMenu(app, "AB")


def _colour(fn, chosen):
    return lambda: fn(chosen)


# the record's event kinds in the screens' words
WORDS = {"window": "Window", "broken": "Broken", "leftover": "Leftover", "first": "Start tile"}


def actions(app):
    s = app.session
    r = s.rules
    n = len(s.players)
    order = [(s.start_player + i) % n for i in range(n)]
    items = []
    waiting = s.pending()
    for p in order:
        if ("leftover", p) in waiting:
            items.append((tr("Leftover %s") % s.players[p], _leftover(app, p)))
    for p in order:
        if r.in_play(p) and r.open_windows(p):
            items.append((tr("Window %s") % s.players[p], _window(app, p)))
    for p in order:
        if r.in_play(p):
            items.append((tr("Broken %s") % s.players[p], _broken(app, p)))
    if not r.start_tile_taken() and any(r.in_play(p) for p in order):
        items.append((tr("First from ctr"), lambda: app.replace(start_tile_menu(app, order))))
    return items


def start_tile_menu(app, order):
    """Who took the start tile from the centre: the players still in play, then each one who
    is not and why (round VI: a player whose leftover glass is entered has finished)."""
    s = app.session
    r = s.rules
    items = [(s.players[p], Save(app, {"e": "first", "p": p})) for p in order if r.in_play(p)]  # type: list
    for p in order:
        if not r.in_play(p):
            items.append((tr("%s: done") % s.players[p], lambda: app.refuse(tr("leftover glass entered: done"))))
    return EntryMenu(app, tr("Start tile"), items)


def _window(app, p):
    def make():
        s = app.session
        keep = [(colours.label(c, "sintra"), c) for c in COLOURS]
        fields = [Field(tr("window"), [(str(c), c) for c in s.rules.open_windows(p)]),
                  Field(tr("keep"), keep),
                  count_field(tr("bonus"), 0, 5)]
        fields[2].follows = True
        return WindowForm(app, p, fields)
    return Opens(app, make)


class WindowForm(Form):
    """A completed window: checked and scored by the rules' window_change, which copies
    nothing (the form's first values are often refused); the state the save takes is made
    in idle frames (Form.prepare)."""

    def __init__(self, app, p, fields):
        self.p = p
        Form.__init__(self, app, tr("Window %s") % app.session.players[p], fields, build=self.event,
                      legal=self._legal_window)

    def event(self, v):
        return {"e": "window", "p": self.p, "col": v[0], "keep": v[1], "bonus": v[2]}

    def _legal_window(self, values):
        ev = self.event(values)
        self._keep_change(values, ev, self.app.session.rules.window_change(ev))

    def skipped(self, i, err):
        """Why a bonus is not offered: the kept glass is one of the window's panes; the
        supply's limits in fewer words (supply())."""
        if i != 2 or "bonus" not in str(err):
            return supply(self, i, err)
        rc = colours.label(self.app.session.bonus_colour(), "sintra")
        if self.fields[2].value() == 0:  # rules_core.sintra: kept glass of the round's colour
            return tr("bonus 0: the kept %s counts") % rc
        return tr("bonus 5: kept glass not %s") % rc  # all five panes are the round's colour


def supply(form, i, err):
    """Why field i's value is skipped, in two message rows: the round's panes or a colour's
    20 (rules_core.sintra) said short, else the rules' own words."""
    text = form.fields[i].text()
    e = str(err)
    if "brings out" in e:
        return tr("%s: %d panes a round") % (text, form.app.session.rules.max_broken)
    if "panes exist" in e:  # "only 20 <colour> panes exist: ..."
        return tr("%s: no %s left") % (text, colours.label(e.split()[2], "sintra"))
    return Form.skipped(form, i, err)


class BrokenForm(Form):
    skipped = supply


def _broken(app, p):
    def make():
        s = app.session
        return BrokenForm(app, tr("Broken %s") % s.players[p], [count_field(tr("glass"), 1, s.rules.max_broken)],
                          build=lambda v: {"e": "broken", "p": p, "n": v[0]}, reason=_track(p))
    return Opens(app, make)


# what a round's end and a leftover give at once: nothing, the track and the leftover glass
# score at the game's end (遊戲結束)
END_ROUND_NOTHING = "track: at end"


def _track(p):
    """Broken glass moves the marker down the track, which scores at the end; only a pass
    over the bottom space loses its value at once."""
    return lambda values, points: tr("%d: track reset") % points[p] if points[p] else tr(END_ROUND_NOTHING)


def _leftover(app, p):
    def make():
        s = app.session
        hi = 4 * len(s.rules.open_windows(p))
        return Form(app, tr("Leftover %s") % s.players[p], [count_field(tr("glass"), 0, hi)],
                    build=lambda v: {"e": "leftover", "p": p, "n": v[0]},
                    reason=lambda values, points: "" if any(points) else tr("scored at end"))
    return Opens(app, make)
