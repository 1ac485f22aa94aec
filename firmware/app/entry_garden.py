"""Queen's Garden entries: buy a face-down expansion, pass (with discards), the round's
scoring (three wheel categories and pillars, or printed points on the variant side), and in
round 4 the final reserve, the garden's scoring groups and, on the variant side, the end
bonus points as printed.

Discards and reserve tiles are entered as counts per pattern value (1..6), the reserve's
expansions (at most 2) by their values.
"""
from rules_core.garden import CATEGORIES, PATTERNS, group_score
from rules_core.games import game
from app.form import Form, Field, Opens, count_field, EntryMenu, Save
from app import colours
from app.lang import tr

VALUES = range(1, 7)
UNVERIFIED = game("garden").unverified  # colour and pattern names the rulebook does not give


# what the variant side asks the players to read off the scoring board (16-character rows, tr())
VARIANT_NOTE = ("You read off the", "board as printed", "each round: pts", "game end: bonus", "OK: start")


# the variants whose new game asks set-up steps of this game's own (options())
STEPS = ("variant",)


def options(app, variant, step, start):
    """New game on the variant side: say what will be read off the board; each row starts
    the game (start(options): app.setup.Start)."""
    go = start({})
    step(tr("Variant side"), [(tr(row), go) for row in VARIANT_NOTE])


# the record's event kinds in the screens' words ("next pass": the turn, when a buy or a pass is due)
WORDS = {"buy": "Buy", "pass": "Pass", "next pass": "Buy/pass", "round_score": "Score", "reserve": "Reserve",
         "garden": "Garden", "bonus": "Bonus"}


def actions(app):
    s = app.session
    r = s.rules
    items = []  # type: list
    for p in r.to_pass():
        if r.can_buy(p):
            items.append((tr("Buy %s") % s.players[p], Save(app, {"e": "buy", "p": p})))
        items.append((tr("Pass %s") % s.players[p], _pass(app, p)))
    acting = r.to_pass()
    for e, p in s.pending():
        if p not in acting:  # phase-2 and final entries come after the player passed
            if e == "round_score":
                items.append((tr("Score %s") % s.players[p], _round_score(app, p)))
            elif e == "reserve":
                items.append((tr("Reserve %s") % s.players[p], _reserve(app, p)))
            elif e == "garden":
                items.append((tr("Garden %s") % s.players[p], lambda p=p: app.replace(Groups(app, p))))
            elif e == "bonus":
                items.append((tr("Bonus %s") % s.players[p], _bonus(app, p)))
    return items


def _values(counts):
    """Counts of values 1..6 -> the list of values, e.g. [0, 2, 0, 1, 0, 0] -> [2, 2, 4]."""
    out = []
    for i in range(6):
        out += [i + 1] * counts[i]
    return out


def _pass(app, p):
    def make():
        fields = [count_field(tr("value %d x") % v, 0, 14) for v in VALUES]
        return Form(app, tr("Pass %s") % app.session.players[p], fields,
                    build=lambda v: {"e": "pass", "p": p, "discard": _values(v)}, reason=_first_pass(p))
    return Opens(app, make)


def _first_pass(p):
    """The first to pass loses a point (D) that no field shows: the points besides the
    discarded values, said as such."""
    def reason(values, points):
        loss = points[p] + sum(_values(values))
        return tr("%d first pass") % loss if loss else ""
    return reason


def _round_score(app, p):
    def make():
        if app.session.variant == "standard":
            fields = [count_field(tr("categ %d") % i, 0, 54) for i in (1, 2, 3)]
            build = lambda v: {"e": "round_score", "p": p, "matches": v[:3], "pillars": v[3]}
        else:
            fields = [count_field(tr("points"), 0, 972)]
            build = lambda v: {"e": "round_score", "p": p, "points": v[0], "pillars": v[1]}
        fields.append(count_field(tr("pillars"), 0, 36))
        return Form(app, tr("Score %s") % app.session.players[p], fields, build=build)
    return Opens(app, make)


def _reserve(app, p):
    def make():
        expansion = [("-", None)] + [(str(v), v) for v in VALUES]
        fields = [count_field(tr("jokers"), 0, 12)] + [count_field(tr("value %d x") % v, 0, 12) for v in VALUES]
        fields += [Field(tr("exp 1"), expansion), Field(tr("exp 2"), expansion)]
        return Form(app, tr("Reserve %s") % app.session.players[p], fields, build=lambda v: {
            "e": "reserve", "p": p, "jokers": v[0], "values": _values(v[1:7]),
            "expansions": [x for x in v[7:] if x]})
    return Opens(app, make)


def _bonus(app, p):
    return Opens(app, lambda: Form(app, tr("Bonus %s") % app.session.players[p], [count_field(tr("points"), 0, 999)],
                                   build=lambda v: {"e": "bonus", "p": p, "points": v[0]}))


def name(category):
    """A category as the screens show it ("?": a name the rulebook text does not give)."""
    return tr(category + colours.unsure(category, UNVERIFIED), "garden") if category in PATTERNS \
        else colours.label(category, "garden")


def group_text(g):
    return "%s %s" % (name(g["of"]), "+".join(str(v) for v in g["values"]))


class Groups(EntryMenu):
    """The garden's scoring groups, added one by one; the last row enters them all, with the
    state the check of its points made (Save)."""

    def __init__(self, app, p, groups=None):
        self.p = p
        self.groups = groups or []
        s = app.session
        ev = self.event()
        after = None
        try:
            after = s.trial(ev)
            gain = "%+d" % s.deltas(after)[p]
        except ValueError:
            gain = ""
        items = [(group_text(g), self._remove(i)) for i, g in enumerate(self.groups)]
        items += [(tr("Add group"), self._add), (tr("save %s") % gain, Save(app, ev, after))]
        EntryMenu.__init__(self, app, tr("Garden %s") % app.session.players[p], items, cursor=len(items) - 2)

    def event(self):
        return {"e": "garden", "p": self.p, "groups": self.groups}

    def _remove(self, i):
        return lambda: self.app.replace(Groups(self.app, self.p, self.groups[:i] + self.groups[i + 1:]))

    def _add(self):
        app = self.app
        yes_no = [(tr("no"), False), (tr("yes"), True)]
        fields = [Field(tr("of"), [(name(c), c) for c in CATEGORIES]),
                  count_field(tr("pattern n"), 3, 6)]
        fields += [Field(name(PATTERNS[i]), yes_no, 1 if i < 3 else 0) for i in range(6)]

        def group(values):
            of = values[0]
            if of in PATTERNS:
                return {"of": of, "values": [PATTERNS.index(of) + 1] * values[1]}
            return {"of": of, "values": [i + 1 for i in range(6) if values[2 + i]]}

        def legal(values):
            g = group(values)
            group_score(g["of"], g["values"])

        def save(values):
            app.replace(Groups(app, self.p, self.groups + [group(values)]))
        app.replace(GroupForm(app, tr("Group"), fields, save=save, legal=legal,
                           back=lambda: app.replace(Groups(app, self.p, self.groups))))


class GroupForm(Form):
    def skipped(self, i, err):
        """A colour group's patterns: switching one off is refused below 3 hexagons (the
        only rule a yes/no field can break; the size field offers 3..6)."""
        return tr("%s: 3+ hexagons needed") % self.fields[i].text()
