"""The history of finished games: newest first, a page at a time (the flash's history is
read here only, so none of it is on the heap while a game is played)."""
import paths
from hal.keys import UP, DOWN, OK, BACK, CODE_MASK
from hal.storage import history_name
from app.ui import ListScreen
from app.scoreboard import Final
from app.records import why, lines_text


def open_game(storage, n):
    """The Session of finished game n; ValueError saying why it cannot be shown."""
    try:
        from rules_core.session import replay
        lines = storage.read_lines(paths.HISTORY_DIR + "/" + history_name(n))[0]
        return replay(lines_text(lines))[0]
    except OSError as e:
        raise ValueError("%06d: %s" % (n, why(e)))
    except ValueError as e:
        raise ValueError("%06d %s" % (n, e))


def history_page(storage, folder, count, below=None, above=None):
    """Up to `count` history numbers, newest first: the newest ones below `below`, or
    (with `above`) the oldest ones above it. Holds only the page, never the listing.
    When every number from the oldest to the newest is a game (games are filed by number
    and removed oldest first), the page comes from the history's span (Storage.history_span,
    listed at boot), not from a listing: a Pico's littlefs lists 0.5-1.3 ms an
    entry."""
    n, oldest, newest = storage.history_span(folder)
    if n == newest - oldest + 1:
        if above is not None:
            lo = max(oldest, above + 1)
            hi = min(newest, lo + count - 1)
        else:
            hi = newest if below is None else min(newest, below - 1)
            lo = max(oldest, hi - count + 1)
        return list(range(hi, lo - 1, -1))
    up = above is not None
    page = []  # type: list  # sorted newest first
    for n, is_dir in storage.history_numbers(folder):
        if is_dir or (below is not None and n >= below) or (up and n <= above):
            continue
        if len(page) < count or (n < page[0] if up else n > page[-1]):
            i = 0
            while i < len(page) and page[i] > n:
                i += 1
            page.insert(i, n)
            if len(page) > count:
                page.pop(0 if up else -1)
    return page


class History(ListScreen):
    """Past games, newest first; OK shows the standings of one. The folder may hold a
    thousand games, so the screen holds one page of their numbers and asks for the next
    when the cursor leaves it (UP/DOWN wrap around the whole history, as a menu does)."""
    PAGE = 16

    def __init__(self, app):
        ListScreen.__init__(self, app)
        self.title = "History"
        app.file_game()  # the game just filed, where no idle frame moved it there yet
        self._page(self.page(), 0)

    def page(self, below=None, above=None):
        """Numbers of finished games, newest first (history_page)."""
        return history_page(self.app.storage, paths.HISTORY_DIR, self.PAGE, below, above)

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
            page = self.page(below=nums[-1]) or self.page()
            self._page(page, 0)
        elif base == UP and nums and self.cursor == 0:
            page = self.page(above=nums[0]) or self.page(above=-1)
            self._page(page, len(page) - 1)
        elif base in (UP, DOWN):
            self.move(base, len(self.labels))
        elif base == OK and nums:
            try:
                s = open_game(app.storage, nums[self.cursor])
            except ValueError as e:
                app.refuse(str(e))
                return
            app.push(Final(app, s, filed=True))
        elif base == BACK or base == OK:
            app.back()
