"""The history of finished games: newest first, a page at a time."""
from hal.keys import UP, DOWN, OK, BACK, CODE_MASK
from app.ui import ListScreen
from app.scoreboard import Final


class History(ListScreen):
    """Past games, newest first; OK shows the standings of one. The folder may hold a
    thousand games, so the screen holds one page of their numbers and asks for the next
    when the cursor leaves it (UP/DOWN wrap around the whole history, as a menu does)."""
    PAGE = 16

    def __init__(self, app):
        ListScreen.__init__(self, app)
        self.title = "History"
        self._page(app.records.history_page(self.PAGE), 0)

    def _page(self, numbers, cursor):
        self.numbers = numbers
        self.labels = ["%06d" % n for n in numbers] or ["(none)"]
        self.cursor = cursor
        self.top = 0

    def rows(self):
        return self.labels

    def key(self, k):
        base = k & CODE_MASK
        app = self.app
        nums = self.numbers
        if base == DOWN and nums and self.cursor == len(nums) - 1:
            page = app.records.history_page(self.PAGE, below=nums[-1]) or app.records.history_page(self.PAGE)
            self._page(page, 0)
        elif base == UP and nums and self.cursor == 0:
            page = app.records.history_page(self.PAGE, above=nums[0]) or app.records.history_page(self.PAGE, above=-1)
            self._page(page, len(page) - 1)
        elif base in (UP, DOWN):
            self.move(base, len(self.labels))
        elif base == OK and nums:
            try:
                s = app.records.open_history(nums[self.cursor])
            except ValueError as e:
                app.refuse(str(e))
                return
            app.push(Final(app, s, filed=True))
        elif base == BACK or base == OK:
            app.back()
