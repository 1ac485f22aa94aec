"""The browser's composition root: what firmware/main.py is on the board, for the web page.

It builds the Pico board's devices over the page (webhal) and runs the same App. The
browser cannot block in a loop, so the page calls frame() at every animation frame and on
every press or release; one call is one turn of main.py's loop. The record, settings and
history live in localStorage under the device's paths, written by the device's Storage.
"""
import binascii

import paths
from boards import load
from hal import clock
from hal.buttons import Buttons, ButtonLogic
from hal.keys import BACK, LONG
from hal.leds import Leds
from hal.storage import Storage
from main import idle, turn
from webhal import LocalFS, PageButtons, WebDisplay, led_writer

BOARD = "pico"
BUTTONS = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")


class Device:
    def __init__(self, host, language="en"):
        self.board = load(BOARD)
        # the browser's language (one of app.lang's, found by the page): the device speaks it
        # until Settings > Language chooses one (App.language)
        self.board["language"] = language
        d = self.board["display"]
        self.display = WebDisplay(d["width"], d["height"], host)
        # uncapped: the page is not a power supply (the board caps at brightness_max)
        self.leds = Leds(self.board["leds"]["count"], led_writer(host), 1.0, "RGB")
        self.pins = PageButtons(BUTTONS)
        # debounce 0: a page's key and pointer events are clean edges, and the page polls on
        # every one of them; long press (undo on BACK) and auto-repeat as on the board
        self.buttons = Buttons(ButtonLogic(BUTTONS, 0), self.pins)
        self.fs = LocalFS(host)
        self.storage = Storage(self.fs.open, self.fs)
        self.boot()

    def boot(self):
        """Power on: the App resumes the current record from storage."""
        from app.app import App
        self.app = App(self.display, self.leds, self.storage, clock, self.board)
        self.frame()

    def frame(self):
        """One turn of the device's loop: poll the buttons, hand every latched key to the App;
        with none, and no button down, a piece of the board's idle work (main.idle: a game
        filed moved into the history and the history trimmed, the work made ahead)."""
        if not turn(self.app, self.buttons, clock.ticks_ms()) and not self.buttons.busy():
            idle(self.app)

    def button(self, name, down):
        """A touch button or its key went down or up."""
        self.pins.set(name, down)
        self.frame()

    def hold_back(self):
        """The `u` key: a long press of BACK (undo), without waiting for it."""
        self.buttons.logic.push(BACK | LONG)
        self.frame()

    def language(self):
        """The language the device speaks (the page's own words follow it)."""
        return self.app.language()

    def led_layout(self):
        return self.app.settings.get("led_layout", "strip")

    def screen_text(self):
        return "\n".join(self.app.text())

    def file_hex(self, path):
        """A stored file's bytes as hex ("" when there is none): the page's downloads."""
        data = self.fs.read_bytes(path)
        return binascii.hexlify(data).decode() if data else ""

    def record_hex(self):
        return self.file_hex(paths.CURRENT)

    def backup_paths(self):
        """The game in play and the history's games, as `pull` copies them off a board."""
        return "\n".join(sorted(self.app.keeper.backup()))

    def open_record(self, name, hex_data):
        """A record file (from the device or the desktop tools) as the game in play, the one
        in play put aside: "" when it was opened, else one line saying what is wrong and
        where, and nothing is changed (Keeper.open_record). The device boots with it."""
        opened, line = self.app.keeper.open_record(name, binascii.unhexlify(hex_data), self.app.session)
        if opened:
            self.boot()
        return line
