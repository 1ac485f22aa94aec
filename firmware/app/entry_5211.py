"""5211 entries: each reveal's cards (2, then 1, then 1 per player and round), offering only
cards still in the deck; in the long variant, a new deck when the pile ran out.
"""
from rules_core.game5211 import COLOURS
from app.form import Form, Field, Confirm
from app import colours
from app.lang import tr


WORDS = {"play": "Reveal", "new_deck": "New deck"}  # the record's event kinds in the screens' words


def actions(app):
    s = app.session
    r = s.rules
    items = []
    for e, p in s.pending():
        if e == "new_deck":
            items.append((tr("New deck"), _new_deck(app)))
        elif e == "play":
            items.append((tr("Reveal %s") % s.players[p], _play(app, p)))
    return items


def card_text(c, v):
    return "%s %s" % (colours.label(c, "5211"), tr("R", "5211") if v == 1 else v)


class Card(Field):
    """A card of a reveal: its choices are 0 (none) and the kinds left as card_index() + 1,
    its value and text made when shown, not a (text, value) pair for each of up to 30 kinds
    when the form opens."""

    def value(self):
        k = self.choices[self.index] - 1
        return [COLOURS[k // 6], k % 6 + 1] if k >= 0 else None

    def text(self):
        cv = self.value()
        return "%s %s" % (self.label, card_text(cv[0], cv[1]) if cv else "-")


class Reveal(Form):
    def _check(self, values):
        """Form._check() once every card is chosen: the rules refuse a reveal of fewer cards
        than the form has fields anyway, after a copy of their state."""
        if None in values:
            raise ValueError(tr("a card to choose"))
        return Form._check(self, values)


def _new_deck(app):
    """Confirmed as a round's end is: its check, line and scoreboard are made while the
    confirmation shows (Form.prepare), not all in the press that enters it."""
    return lambda: app.replace(Confirm(app, tr("New deck"), {"e": "new_deck"}))


def _play(app, p):
    def show():
        r = app.session.rules
        left = r.cards_left()
        kinds = [0] + [i * 6 + v for i in range(5) for v in range(1, 7) if left[(COLOURS[i], v)]]
        done = len(r.round_plays(p))  # the cards are numbered through the round: 1 2, 3, 4
        fields = [Card(tr("card %d") % (done + i + 1), kinds) for i in range(r.next_reveal_size(p))]

        def legal(values):
            """Every card chosen so far is still in the deck (fields start empty, "-")."""
            for cv in values:
                if cv and values.count(cv) > left[(cv[0], cv[1])]:
                    raise ValueError(tr("no %s left") % card_text(cv[0], cv[1]))
        app.replace(Reveal(app, tr("Reveal %s") % app.session.players[p], fields, legal=legal,
                      build=lambda v: {"e": "play", "p": p, "cards": [cv for cv in v if cv]},
                      reason=lambda values, points: "" if any(points) else tr("at round end")))
    return show
