"""The History: every game put aside or finished, newest first, a page at a time, two rows a
game ("won Ann 74" or "R3 unfinished", then "#12 Azul Ann Ben"); OK on one offers its
standings, resuming it (unfinished) and deleting it. The games are the keeper's (app.keeper)."""
from hal.keys import UP, DOWN, OK, BACK, CODE_MASK
from rules_core.games import game
from rules_core import RecordError
from app.ui import ListScreen, Menu
from app.scoreboard import Final
from app.keeper import why
from app.lang import tr
from app import play


def game_rows(n, s):
    """The two rows of history game n, from its summary (Keeper.summaries)."""
    if s is None:
        return [tr("unreadable"), "#%d" % n]
    key, players, rnd, finished, scores, won = s
    try:
        short = tr(game(key).short)
    except RecordError:
        short = str(key)
    names = [str(p) for p in players] if type(players) is list else []
    if rnd is None:
        first = tr("result unknown")
    elif finished:
        first = tr("won %s %d") % (", ".join(names[p] for p in won), scores[won[0]]) if won else tr("final")
    else:
        first = tr("R%d unfinished") % rnd
    return [first, "#%d %s %s" % (n, short, " ".join(names))]


class History(ListScreen):
    """The folder may hold a thousand games, so the screen holds one page of their numbers
    and asks for the next when the cursor leaves it (UP/DOWN wrap around the whole history,
    as a menu does)."""
    PAGE = 16

    def __init__(self, app):
        ListScreen.__init__(self, app)
        self.title = tr("History")
        self._page(self.page(), 0)

    def page(self, below=None, above=None):
        return self.app.keeper.page(self.PAGE, below, above)

    def _page(self, numbers, cursor):
        self.numbers = numbers
        self.sums = self.app.keeper.summaries(numbers)
        rows = []
        for n in numbers:
            rows += game_rows(n, self.sums[n])
        self.labels = rows or [tr("(none)")]
        self.span = 2 if numbers else 1
        self.cursor = cursor
        self.top = 0

    def rows(self):
        return self.labels

    def key(self, k):
        base = k & CODE_MASK
        nums = self.numbers
        if base == DOWN and nums and self.cursor == len(nums) - 1:
            page = self.page(below=nums[-1]) or self.page()
            self._page(page, 0)
        elif base == UP and nums and self.cursor == 0:
            page = self.page(above=nums[0]) or self.page(above=-1)
            self._page(page, len(page) - 1)
        elif base in (UP, DOWN):
            self.move(base, len(nums))
        elif base == OK and nums:
            self.choose(nums[self.cursor])
        elif base == BACK or base == OK:
            self.app.back()

    def choose(self, n):
        """Game n's menu: its standings, resuming it when unfinished, deleting it."""
        app = self.app
        s = self.sums[n]
        items = [(tr("Standings"), lambda: self.standings(n))]
        if s is None or not s[3]:
            items.append((tr("Resume"), lambda: play.ask_put_aside(app, lambda: self.resume(n))))
        items.append((tr("Delete"), lambda: app.push(Menu(app, tr("Delete #%d?") % n, [
            (tr("delete"), lambda: self.delete(n)), (tr("cancel"), app.back)]))))
        app.push(Menu(app, "#%d" % n, items))

    def standings(self, n):
        app = self.app
        try:
            s = app.keeper.open(n)
        except ValueError as e:
            app.refuse(str(e))
            return
        app.push(Final(app, s, filed=True))

    def resume(self, n):
        """Game n back in play, the game in play put aside first."""
        app = self.app
        if not play.put_aside(app):
            return
        try:
            session, message = app.keeper.take(n)
        except OSError as e:
            app.log("history game %d not resumed: %s" % (n, e))
            app.refuse(tr("not resumed: %s") % why(e))
            return
        if session is None:
            app.home()
        else:
            play.resume(app, session)
        if message:
            app.say(message, None)

    def delete(self, n):
        app = self.app
        try:
            app.keeper.delete(n)
        except OSError as e:
            app.log("history game %d not deleted: %s" % (n, e))
            app.refuse(tr("not deleted: %s") % why(e))
            return
        app.back()  # (the question)
        app.back()  # (the game's menu)
        app.replace(History(app))
        app.say(tr("#%d deleted") % n)
