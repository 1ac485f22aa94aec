"""Between entries: every player's score and rank; after the game: the final standings.

Title: the game and round (x/y), "LAST" in the last round. Rows: "1 Ann   23 S!" = rank,
name, score, S starts this round, ! has an entry still to make; a legend row says so in
words. Then Sintra's bonus colour and the next entry due.
OK opens the entries of this round; BACK the main menu; hold BACK undoes from anywhere.
"""
from hal.keys import UP, DOWN, OK, BACK, CODE_MASK
from app.ui import ListScreen
from app import colours
from app.lang import tr
from app import play


# what the flags mean, on the row under the standings (16 characters with both)
FLAGS = ("", "!", "S", "S!")  # by 2 * starts + has an entry to make
LEGEND = ("", "!=to do", "S=starts", "S=starts !=to do")  # by the same bits, of every row shown (tr())


# the screens' words for the record's event kinds every game has (a record's names are not
# words: end_round); a game's own are its entry module's WORDS, as its round menu names them
WORDS = {"end_round": "End round", "note": "Note"}


def entry_name(game, e, player=None, next=False):
    """An entry as the screens name it (App.describe's messages; next: the scoreboard's
    next entry due, where the game's WORDS may say more: "next pass" is Garden's buy/pass
    turn): "Wall Ann", "End round"."""
    from app.entries import module  # (the game's entry screens: loaded while it is played)
    words = getattr(module(game), "WORDS", {})
    word = (next and words.get("next " + e)) or words.get(e)
    word = tr(word, game) if word else tr(WORDS.get(e, e))
    return word if player is None else "%s %s" % (word, player)


def standings_rows(s, pending):
    """A row per player in rank order, then the legend of the flags shown (if any); pending:
    s.pending(), which the caller has (not worked out twice). Each row is one format and
    no other new object."""
    rows = []
    waiting = 0  # bit p: player p has an entry to make
    for _, p in pending:
        if p is not None:
            waiting |= 1 << p
    starts = s.start_player if s.info.has_start_player and not s.finished else -1
    shown = 0
    players = s.players
    scores = s.scores
    for rank, p in s.standings():
        f = 2 * (p == starts) + (waiting >> p & 1)
        shown |= f
        if f:
            rows.append("%d %-7.7s%4d %s" % (rank, players[p], scores[p], FLAGS[f]))
        else:
            rows.append("%d %-7.7s%4d" % (rank, players[p], scores[p]))
    if shown:
        rows.append(tr(LEGEND[shown]))
    return rows


class _Board(ListScreen):
    """A read-only list of rows made once; UP/DOWN scroll it, OK and BACK go to leave()."""
    leds = None  # the LED frames made with it (LedView.seats_for, chases), for App.home()

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

    def make_undo(self, wanted):
        """An idle frame's piece, where `wanted`: the scoreboard that the undo of the round
        end just before this screen shows, with its first frame (play.make_undo,
        Canvas.draw_ahead): that undo then only takes a kept state back, its line on flash and
        its whole screen over I2C. True while one is left."""
        if self.undo is None and wanted:
            self.undo = play.make_undo(self.app) or False
            return True
        if self.undo:
            self.app.cv.draw_ahead(self.undo.screen)  # type: ignore[attr-defined]  # (an app.play.Undo)
        return False


class Scoreboard(_Board):
    """Often made in an idle frame for a state the session takes at the next press
    (screen_for), with the player LEDs that state lights: that press only shows them."""

    def prepare(self):
        """While undoing (something to redo), at a round's start: the next undo's screen
        (make_undo). Not in play, where it would hold ~2 KB more at every round start."""
        s = self.app.session
        return self.make_undo(s is not None and s.can_redo())

    def __init__(self, app, s):
        total = s.rounds_total
        waiting = s.pending()
        self.leds = app.ledview.seats_for(s, waiting)
        rows = standings_rows(s, waiting)
        c = s.bonus_colour()
        if c:
            rows.append(tr("bonus %s (%s)") % (colours.label(c, s.game), colours.letter(c)))
        if waiting:  # the next entry, as the round's menu names it (a Garden turn may buy too)
            e, p = waiting[0]
            rows.append(entry_name(s.game, e, s.players[p] if p is not None else None, True))
        else:
            rows.append(tr("OK: end round"))
        _Board.__init__(self, app, "%s R%d%s%s" % (tr(s.info.short), s.round, "/%d" % total if total else "",
                                                  tr(" LAST") if s.last_round() else ""), rows)

    def draw(self, cv):
        """The last row (what to enter next) stays on the bottom row; where the screen is too
        short for them all (128x32), the rows above it scroll."""
        fit = self.fitted(cv, cv.w)
        if len(fit) <= cv.rows:
            return _Board.draw(self, cv)
        self.top = min(self.top, len(fit) - cv.rows)  # (the rows that scroll: fit[1:-1])
        cv.lines(fit, self.top, None, cv.w, rows=cv.rows - 1)
        cv.row(cv.rows - 1, fit[-1])
        cv.d.hline(0, cv.line - 1, cv.w, 1)

    def leave(self, base):
        if base == OK:
            from app import entries  # imported when first needed: each module costs heap
            entries.open(self.app)
        else:
            self.app.main_menu()


class Final(_Board):
    """Standings, winners, tie-break, then each player's breakdown. OK/BACK leave: the
    game in play moves to the history; a game opened from the history (filed) goes back.

    The press that opens it makes the rows of the first screen; the breakdowns below come
    a player at a time in the idle frames after it (ahead()), or at the first scroll that
    finds them missing: a 4-player game's breakdowns are some sixty new strs, each looked
    up among the interned names."""

    def __init__(self, app, session, filed=False):
        self.filed = filed
        s = self.session = session
        self.won = s.winners()
        short = tr(s.info.short)
        title = tr("%s final") % short if s.finished else "%s R%d" % (short, s.round)
        rows = standings_rows(s, s.pending())
        names = [s.players[p] for p in self.won]
        if names:
            rows.append(tr("won: %s") % ", ".join(names))
        tie = s.tiebreak(self.won)
        if tie:
            rows.append(tr("tie: %s") % tr(tie, s.game))
        self.told = 0  # players whose breakdown is in the rows
        self.labels = {}  # breakdown key -> (its label in words, the label and a space)
        _Board.__init__(self, app, title, rows)
        while len(rows) < app.cv.rows and self.more():  # the first screen, whole
            pass

    def prepare(self):
        """Idle frames: the breakdowns, a player a frame, then the scoreboard an undo shows
        and its first frame (play.make_undo, Canvas.draw_ahead: an undo of the last round end is
        the likely press after OK); True while work is left. (The history's folder and its
        listing, which names the game the OK files, are made at boot: App.)"""
        if self.session is not None:
            self.more()
            return True
        return self.make_undo(not self.filed)

    def more(self):
        """The next player's breakdown into the rows; True while one is left."""
        s = self.session
        if s is None:
            return False
        p = self.told
        self.told += 1
        rows = self._rows
        rows.append("- " + s.players[p])
        b = s.rules.breakdown(p)
        labels = self.labels
        cv = self.app.cv
        for k in sorted(b):
            if k != "total":
                v = b[k]
                if type(v) is str:  # a colour (Sintra side B, 5211), in the game's words; a
                    # name the rulebook does not give is marked
                    v = tr(v + colours.unsure(v, s.info.unverified), s.game)
                else:
                    v = str(v)
                lab = labels.get(k)
                if lab is None:
                    words = tr(k.replace("_points", " pts").replace("complete_", "full ").replace("_", " "), s.game)
                    lab = labels[k] = (words, words + " ")
                # the label cut to leave the value on the row
                room = cv.w - cv.width(v) - 8
                rows.append(lab[1] + v if cv.width(lab[0]) <= room else cv.fit(lab[0], room) + " " + v)
        self._fit_src = None  # the rows grew: fitted() cuts them again
        if self.told < len(s.players):
            return True
        self.session = None  # (a game opened from the history: its replay goes)
        self.labels.clear()
        return False

    def key(self, k):
        if (k & CODE_MASK) in (UP, DOWN):
            while self.more():  # scrolled before the idle frames made them all
                pass
        _Board.key(self, k)

    def winners(self):
        return self.won  # kept by the screen: the LED chase allocates nothing per frame

    def leave(self, base):
        if self.filed:
            self.app.back()
        elif play.put_aside(self.app):  # leaving the finished game files it (undo works until then)
            self.app.home()


def screen_for(app, s, state=None):
    """The scoreboard of session s, or its final standings once it is finished. With `state`
    (a Session.trial() s has not taken yet): the screen for the game once it takes that
    state, made ahead in an idle frame; s stays as it is. A scoreboard makes the player LEDs
    of the state it shows (LedView.seats_for), final standings made ahead the frames of their
    chase (LedView.chases), which App.home() hands over."""
    live = s.rules
    s.rules = state or live  # what the screen reads of the game, while it is made
    try:
        if not s.finished:
            return Scoreboard(app, s)
        screen = Final(app, s)
        if state is not None:  # its press shows the LEDs' chase
            screen.leds = app.ledview.chases(screen.won)
        return screen
    finally:
        s.rules = live
