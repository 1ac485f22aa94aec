"""The entry menu of the current round: the game's own entries (pending ones first), then
end round (only once nothing is pending), undo and redo.

Each game's module, app.entry_<game key> (rules_core.games), provides
actions(app) -> [(label, callback)], and where a new game asks set-up steps of the game's
own (the variants in its STEPS) options(app, variant, step, start): step(title, items) shows
one as a menu, and the last one's choices are start(options for the record header). An
entry's callback that opens a form is an Opens: the menu makes the form in its idle frames.
"""
from app.form import Confirm, EntryMenu
from app.lang import tr
from app import play


def module(key):
    """The entry-screen module of game `key` (its registry entry names it; imported on first
    use, like its rules)."""
    from rules_core.games import game
    return __import__(game(key).screens, None, None, ["actions"])


def open(app):
    s = app.session
    items = module(s.game).actions(app)
    if not s.pending():
        items.append((tr("End round %d") % s.round, lambda: end_round(app)))
    if s.can_undo():
        items.append((tr("Undo"), lambda: play.undo(app)))
    if s.can_redo():
        items.append((tr("Redo"), lambda: play.redo(app)))
    app.replace(EntryMenu(app, tr("Round %d") % s.round, items))


def end_round(app):
    s = app.session  # (the game's words for a round end that gives nothing, if any)
    nothing = getattr(module(s.game), "END_ROUND_NOTHING", "")
    app.replace(Confirm(app, tr("End round %d") % s.round, {"e": "end_round"}, tr(nothing)))
