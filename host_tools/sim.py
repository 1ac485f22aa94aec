"""`azul-companion sim`: the real device App on CPython, drawn in the terminal.

The OLED is drawn with half blocks (two pixel rows per text line), the NeoPixels as coloured
cells (ANSI truecolor). Keys: arrows, Enter = OK, Backspace/Esc = BACK, u = hold BACK (undo),
Shift+arrow = long press, q = quit.

--script runs presses without a terminal, from a file or the argument itself. Tokens are
separated by spaces, commas or new lines ("#" starts a comment):
  UP DOWN LEFT RIGHT OK BACK   a press (any case); add ":long" or ":repeat" for the flags
  TOKEN*N                      N presses, e.g. DOWN*3
  letters U D L R O B Z        one press each, in a run: "DDRO" = DOWN DOWN RIGHT OK;
                               Z = BACK:long (undo)
  wait                         let two seconds pass (messages time out)
After the script the screen's text is printed; --screenshot writes the display and LEDs.
"""
import builtins
import os
import select
import sys
import time

from host_tools import ROOT, FIRMWARE  # noqa: F401  (puts firmware/ on sys.path, as on the board)
from hal.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, LONG, REPEAT, code_of  # noqa: E402
from hal.storage import Storage  # noqa: E402
from host_tools.vhal import VirtualDisplay, VirtualLeds  # noqa: E402

KEY_STEP_MS = 100   # virtual time between scripted presses
WAIT_MS = 2000
LETTERS = {"U": UP, "D": DOWN, "L": LEFT, "R": RIGHT, "O": OK, "B": BACK, "Z": BACK | LONG}
FOOTER = "arrows move  Enter OK  Bksp/Esc back  u undo (hold back)  Shift+arrow long  q quit"


class SimError(Exception):
    pass


# ---- the virtual board ------------------------------------------------------------------------
def led_colours(leds):
    """The last LED frame as [(r, g, b)] (all off before the first show())."""
    return leds.frame_rgb() if leds.frames else [(0, 0, 0)] * leds.n


class _RootedOs:
    """The os calls Storage makes, with the device's "data/..." paths under a host folder."""

    def __init__(self, root):
        self.root = root

    def path(self, p):
        if p == "data" or p.startswith("data/"):
            p = p[5:]
        return os.path.join(self.root, p) if p else self.root

    def stat(self, p):
        return os.stat(self.path(p))

    def rename(self, a, b):
        os.replace(self.path(a), self.path(b))

    def remove(self, p):
        os.remove(self.path(p))

    def listdir(self, p):
        return os.listdir(self.path(p))

    def mkdir(self, p):
        os.makedirs(self.path(p), exist_ok=False)


def rooted_storage(root):
    """Storage whose "data/x" files are root/x (the record lands in --data DIR)."""
    os.makedirs(root, exist_ok=True)
    fs = _RootedOs(root)
    return Storage(lambda p, mode: builtins.open(fs.path(p), mode), fs)


class Clock:
    """Virtual milliseconds for scripts and tests."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now


def load_board(name):
    from boards import load
    try:
        return load(name)
    except ValueError as e:
        raise SimError(str(e))


def build(board_name="pico", data_dir="azul-data"):
    """(app, display, leds, clock) for a board, with the record under data_dir."""
    from app.app import App
    board = load_board(board_name)
    d = board["display"]
    display = VirtualDisplay(d["width"], d["height"])
    leds = VirtualLeds(board["leds"]["count"], 1.0, "RGB")  # uncapped: the terminal is not a supply
    clock = Clock()
    app = App(display, leds, rooted_storage(data_dir), clock, board)
    app.step(clock.now, None)
    return app, display, leds, clock


# ---- script syntax ------------------------------------------------------------------------
def parse_script(text):
    """Script text -> list of key events (None = wait); SimError names a bad token."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        for tok in line.replace(",", " ").split():
            times = 1
            if "*" in tok:
                tok, n = tok.split("*", 1)
                if not n.isdigit():
                    raise SimError("bad repeat count in %r" % (tok + "*" + n))
                times = int(n)
            out += _token(tok) * times
    return out


def _token(tok):
    if tok.lower() == "wait":
        return [None]
    name, _, flag = tok.partition(":")
    try:
        k = code_of(name.upper())
    except ValueError:
        if name.isalpha() and not flag and all(c in LETTERS for c in name.upper()):
            return [LETTERS[c] for c in name.upper()]
        raise SimError("unknown key %r (UP DOWN LEFT RIGHT OK BACK, or letters UDLROBZ)" % tok)
    if flag:
        if flag.lower() not in ("long", "repeat"):
            raise SimError("unknown flag %r in %r (long or repeat)" % (flag, tok))
        k |= LONG if flag.lower() == "long" else REPEAT
    return [k]


def run_script(app, clock, keys):
    for k in keys:
        clock.now += WAIT_MS if k is None else KEY_STEP_MS
        app.step(clock.now, k)
    clock.now += WAIT_MS  # let a last message time out so the screen shows itself
    app.step(clock.now, None)


# ---- drawing ------------------------------------------------------------------------------
def render_leds(leds, layout, colour=True):
    cells = []
    for r, g, b in led_colours(leds):
        if not colour:
            cells.append("##" if r or g or b else "..")
        elif r or g or b:
            cells.append("\x1b[38;2;%d;%d;%dm\u2588\u2588\x1b[0m" % (r, g, b))
        else:  # an LED that is off, still visible on a dark terminal
            cells.append("\x1b[38;2;70;70;70m\u2591\u2591\x1b[0m")
    if layout == "matrix5x5" and len(cells) == 25:
        return [" ".join(cells[i:i + 5]) for i in range(0, 25, 5)]
    return [" ".join(cells)]


def screenshot(display, leds, layout, path):
    """The display (4x, white on black) above the LEDs, as a PNG."""
    from PIL import Image, ImageDraw
    s = 4
    w, h = display.width * s, display.height * s
    rows = 5 if layout == "matrix5x5" and leds.n == 25 else 1
    per_row = leds.n // rows if rows == 5 else leds.n
    img = Image.new("RGB", (max(w, per_row * 24 + 8), h + rows * 24 + 16), (20, 20, 20))
    draw = ImageDraw.Draw(img)
    for y in range(display.height):
        for x in range(display.width):
            if display.pixel(x, y):
                draw.rectangle([x * s, y * s, x * s + s - 1, y * s + s - 1], fill=(230, 240, 255))
    cols = led_colours(leds)
    for i in range(leds.n):
        r, c = divmod(i, per_row)
        x, y = 8 + c * 24, h + 8 + r * 24
        draw.ellipse([x, y, x + 18, y + 18], fill=cols[i], outline=(90, 90, 90))
    img.save(path)


# ---- the terminal -------------------------------------------------------------------------
ESC_KEYS = {"[A": UP, "[B": DOWN, "[D": LEFT, "[C": RIGHT,
            "[1;2A": UP | LONG, "[1;2B": DOWN | LONG, "[1;2D": LEFT | LONG, "[1;2C": RIGHT | LONG}


def read_key(fd, timeout):
    """One key event from the raw terminal, None on timeout, "quit" for q / Ctrl-C."""
    if not select.select([fd], [], [], timeout)[0]:
        return None
    ch = os.read(fd, 1).decode("latin-1")
    if ch in ("q", "\x03"):
        return "quit"
    if ch in ("\r", "\n"):
        return OK
    if ch in ("\x7f", "\x08"):
        return BACK
    if ch == "u":
        return BACK | LONG
    if ch == "\x1b":
        seq = ""
        while select.select([fd], [], [], 0.03)[0]:
            seq += os.read(fd, 1).decode("latin-1")
            if seq[-1:].isalpha() or len(seq) > 6:
                break
        return ESC_KEYS.get(seq) if seq else BACK
    return None


def interactive(app, display, leds, layout):
    import termios
    import tty
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    shown = (-1, -1)
    t0 = time.monotonic()
    try:
        tty.setraw(fd)
        out.write("\x1b[?25l\x1b[2J")
        while True:
            key = read_key(fd, 0.05)
            if key == "quit":
                break
            app.step(int((time.monotonic() - t0) * 1000), key)
            state = (display.frames, len(leds.frames))
            if state != shown:
                shown = state
                lines = display.blocks() + [""] + render_leds(leds, layout) + ["", FOOTER]
                out.write("\x1b[H" + "\r\n".join(l + "\x1b[K" for l in lines))
                out.flush()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[?25h\r\n")
        out.flush()


# ---- the command --------------------------------------------------------------------------
def add_arguments(parser):
    parser.add_argument("--board", default="pico", help="pico | esp32s3 | feather_rp2040 (default pico)")
    parser.add_argument("--data", default="azul-data", help="folder for the game record (default ./azul-data)")
    parser.add_argument("--script", help="a file of key presses, or the presses themselves (see --help-script)")
    parser.add_argument("--screenshot", help="write the display and LEDs as a PNG after the run")
    parser.add_argument("--help-script", action="store_true", help="explain the --script syntax")


def run(args):
    from host_tools.cli import CliError
    if args.help_script:
        print(__doc__)
        return 0
    try:
        keys = None
        if args.script is not None:
            text = args.script
            if os.path.isfile(text):
                with open(text, encoding="utf-8") as f:
                    text = f.read()
            keys = parse_script(text)
        elif not sys.stdin.isatty():
            raise SimError("stdin is not a terminal: run it in a terminal, or give --script KEYS")
        app, display, leds, clock = build(args.board, args.data)
    except SimError as e:
        raise CliError(str(e))
    layout = app.settings["led_layout"]
    if keys is None:
        interactive(app, display, leds, layout)
    else:
        run_script(app, clock, keys)
        print("\n".join(app.text()))
        if sys.stdout.isatty():
            print("\n".join(display.blocks() + render_leds(leds, layout)))
    if args.screenshot:
        screenshot(display, leds, layout, args.screenshot)
    return 0
