"""The entry menu of the current round: the game's own entries (pending ones first), then
end round (only once nothing is pending), undo and redo.

Each game's module (entry_<game>.py) provides actions(app) -> [(label, callback)].
"""
from app.ui import Menu, Confirm

MODULES = {"azul": "app.entry_azul", "sintra": "app.entry_sintra",
           "garden": "app.entry_garden", "5211": "app.entry_5211"}


def open(app):
    s = app.session
    mod = __import__(MODULES[s.game], None, None, ["actions"])
    items = mod.actions(app)
    if not s.pending():
        items.append(("End round %d" % s.round, lambda: end_round(app)))
    if s.can_undo():
        items.append(("Undo", app.undo))
    if s.can_redo():
        items.append(("Redo", app.redo))
    app.show(Menu(app, "Round %d" % s.round, items))


def end_round(app):
    app.show(Confirm(app, "End round %d" % app.session.round, {"e": "end_round"}))
