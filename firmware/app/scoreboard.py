"""Between entries: every player's score and rank; after the game: the final standings.

Title: the game and round (x/y), "LAST" in the last round. Rows: "1 Ann   23 S!" = rank,
name, score, S starts this round, ! has an entry still to make; a legend row says so in
words. Then Sintra's bonus colour and the next entry due.
OK opens the entries of this round; BACK the main menu; hold BACK undoes from anywhere.
"""
from hal.keys import UP, DOWN, OK, BACK, CODE_MASK
from app.ui import ListScreen
from app import colours


# what the flags mean, on the row under the standings (16 characters with both)
LEGEND = {"S": "S=starts", "!": "!=to do", "S!": "S=starts !=to do"}


def standings_rows(s, pending):
    """A row per player in rank order, then the legend of the flags shown (if any); pending:
    s.pending(), which the caller has (working it out costs a Pico ~1.5 ms)."""
    rows = []
    waiting = [p for _, p in pending]
    shown = ""
    for rank, p in s.standings():
        flags = ("S" if p == s.start_player and s.info.has_start_player and not s.finished else "") + \
                ("!" if p in waiting else "")
        for f in flags:
            if f not in shown:
                shown += f
        rows.append(("%d %-7s%4d %s" % (rank, s.players[p][:7], s.scores[p], flags)).rstrip())
    if shown:
        rows.append(LEGEND["S!" if len(shown) == 2 else shown])
    return rows


class _Board(ListScreen):
    """A read-only list of rows made once; UP/DOWN scroll it, OK and BACK go to leave()."""

    def __init__(self, app, title, rows):
        ListScreen.__init__(self, app)
        self.cursor = None  # type: ignore[assignment]  # a read-only list (ListScreen.move)
        self.title = title
        self._rows = rows

    def rows(self):
        return self._rows

    def key(self, k):
        base = k & CODE_MASK
        if base in (UP, DOWN):
            self.move(base, len(self._rows))
        elif base in (OK, BACK):
            self.leave(base)

    def leave(self, base):
        pass


class Scoreboard(_Board):
    def __init__(self, app):
        s = app.session
        total = s.rounds_total
        waiting = s.pending()
        rows = standings_rows(s, waiting)
        c = s.bonus_colour()
        if c:
            rows.append("bonus %s (%s)" % (colours.label(c, s.info.unverified), colours.letter(c)))
        if waiting:
            e, p = waiting[0]
            rows.append("next %s %s" % (e, s.players[p] if p is not None else ""))
        else:
            rows.append("OK: end round")
        _Board.__init__(self, app, "%s R%d%s%s" % (s.info.short, s.round, "/%d" % total if total else "",
                                                  " LAST" if s.last_round() else ""), rows)

    def leave(self, base):
        if base == OK:
            from app import entries  # imported when first needed: each module costs heap
            entries.open(self.app)
        else:
            self.app.main_menu()


class Final(_Board):
    """Standings, winners, tie-break, then each player's breakdown. OK/BACK leave: the
    current game moves to the history; a game opened from the history (filed) goes back."""

    def __init__(self, app, session, filed=False):
        self.filed = filed
        r = session.result()
        self.won = r["winners"]
        title = "%s final" % session.info.short if r["finished"] else "%s R%d" % (
            session.info.short, r["round"])
        rows = standings_rows(session, session.pending())
        names = [session.players[p] for p in self.won]
        if names:
            rows.append("won: " + ", ".join(names))
        if r["tiebreak"]:
            rows.append("tie: " + r["tiebreak"])
        for p in range(len(session.players)):
            rows.append("- " + session.players[p])
            b = r["breakdown"][p]
            for k in sorted(b):
                if k != "total":
                    # a name the rulebook does not give is marked (Sintra's colour)
                    v = str(b[k]) + colours.unsure(b[k], session.info.unverified)
                    # the label in words, cut to leave the value on the row
                    rows.append("%s %s" % (k.replace("_points", " pts").replace("_", " ")[:15 - len(v)], v))
        _Board.__init__(self, app, title, rows)

    def winners(self):
        return self.won  # kept by the screen: the LED chase allocates nothing per frame

    def leave(self, base):
        if self.filed:
            self.app.back()
        elif self.app.archive():  # leaving the finished current game files it (undo works until then)
            self.app.home()
