"""`azul-companion sim`: the real device App on CPython, drawn in the terminal.

The OLED is drawn as big as the terminal allows: half blocks (1x2 pixels a character, the
128x64 screen in 128x32; the Pico board needs 144x34), else as text (an 8x8 cell a
character: the 128x64 screen in 16x8, as it reads on the device, the cursor's row in
reverse video, a title underlined, drawings in braille; fits 80x24); the NeoPixels as
coloured cells (ANSI truecolor) beside or below it. A resize redraws; a terminal too small
gets one line saying what it needs. It draws on the terminal's alternate screen: q gives
the terminal back as it was. Keys: arrows, Enter = OK, Backspace/Esc = BACK, u = hold BACK
(undo), Shift+arrow = long press, q = quit.

--script runs presses without a terminal, from a file or the argument itself. Tokens are
separated by spaces, commas or new lines ("#" starts a comment):
  UP DOWN LEFT RIGHT OK BACK   a press (any case); add ":long" or ":repeat" for the flags
  TOKEN*N                      N presses, e.g. DOWN*3
  letters U D L R O B Z        one press each, in a run: "DDRO" = DOWN DOWN RIGHT OK;
                               Z = BACK:long (undo)
  wait                         let two seconds pass, in which the board's idle work runs
                               (main.idle: Check a score's result); wait*2: a message times
                               out (a key clears it too); wait*60 lets two minutes pass: the
                               display dims (wait*300: it goes dark; Settings > Display sets
                               both)
A script holds at most 20000 presses. After the script a message still on the screen is let
time out (--keep-message keeps it), then the screen's text is printed (and the display's
state when it is dimmed or dark); --screenshot NAME.png writes the display and LEDs. A
dimmed display is drawn grey, a dark one empty.
"""
import builtins
import os
import re
import select
import sys
import time

# firmware/ is on sys.path (the CLI's use_board_layout(), or pyproject's pytest settings)
from hal.clock import Manual
from hal.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, LONG, REPEAT, code_of
from hal.storage import Storage
from host_tools.vhal import VirtualDisplay, VirtualLeds

KEY_STEP_MS = 100   # virtual time between scripted presses
WAIT_MS = 2000
MAX_PRESSES = 20000        # a whole 5-player game is a few thousand presses
MAX_SCRIPT_BYTES = 1 << 20
LETTERS = {"U": UP, "D": DOWN, "L": LEFT, "R": RIGHT, "O": OK, "B": BACK, "Z": BACK | LONG}


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
    if os.path.exists(root) and not os.path.isdir(root):
        raise SimError("--data %s is not a folder: give the folder the games are kept in "
                       "(made if missing)" % root)
    os.makedirs(root, exist_ok=True)
    fs = _RootedOs(root)
    return Storage(lambda p, mode: builtins.open(fs.path(p), mode), fs)


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
    clock = Manual()
    app = App(display, leds, rooted_storage(data_dir), clock, board)
    app.step(clock.now, None)
    return app, display, leds, clock


# ---- script syntax ------------------------------------------------------------------------
def parse_script(text, where=""):
    """Script text -> list of key events (None = wait); SimError names a bad token.

    At most MAX_PRESSES events in all, checked before any repeat is expanded, so a typo
    such as OK*999999999999 is one line at once, not a frozen terminal.
    """
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        at = " (%s line %d)" % (where, number) if where else ""
        line = line.split("#", 1)[0]
        for tok in line.replace(",", " ").split():
            name, _, n = tok.partition("*")
            # ASCII digits only: "²".isdigit() is true too, and int() refuses it
            if n and (not (n.isascii() and n.isdigit()) or not n.strip("0")):
                raise SimError("bad repeat count in %r%s: a whole number of at least 1" % (tok, at))
            times = (int(n) if len(n) <= 9 else MAX_PRESSES + 1) if n else 1
            keys = _token(name, at)
            if len(out) + times * len(keys) > MAX_PRESSES:
                raise SimError("too many presses at %r%s: a script holds at most %d" % (tok, at, MAX_PRESSES))
            out += keys * times
    return out


def read_script(path):
    """The text of a script file; SimError for a file too big or not UTF-8."""
    with open(path, "rb") as f:
        data = f.read(MAX_SCRIPT_BYTES + 1)
    if len(data) > MAX_SCRIPT_BYTES:
        raise SimError("script %s is larger than %d KB" % (path, MAX_SCRIPT_BYTES // 1024))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SimError("script %s is not UTF-8 text (byte 0x%02x at offset %d)" % (path, data[e.start], e.start))


def _token(tok, at=""):
    if tok.lower() == "wait":
        return [None]
    name, _, flag = tok.partition(":")
    try:
        k = code_of(name.upper())
    except ValueError:
        if name.isalpha() and not flag and all(c in LETTERS for c in name.upper()):
            return [LETTERS[c] for c in name.upper()]
        raise SimError("unknown key %r%s: UP DOWN LEFT RIGHT OK BACK, or letters UDLROBZ" % (tok, at))
    if flag:
        if flag.lower() not in ("long", "repeat"):
            raise SimError("unknown flag %r in %r%s: long or repeat" % (flag, tok, at))
        k |= LONG if flag.lower() == "long" else REPEAT
    return [k]


def run_script(app, clock, keys, keep_message=False):
    from main import idle  # firmware/main.py
    for k in keys:
        clock.now += WAIT_MS if k is None else KEY_STEP_MS
        app.step(clock.now, k)
        if k is None:  # a wait: the board's idle work, a piece a turn, as its loop runs it
            for _ in range(1000000):
                more = idle(app)
                app.step(clock.now, None)
                if not more:
                    break
    if not keep_message:
        from app.app import MESSAGE_MS
        clock.now += MESSAGE_MS  # let a last message time out so the screen shows itself
        app.step(clock.now, None)


# ---- drawing ------------------------------------------------------------------------------
FOOTER_KEYS = ("arrows move", "Enter OK", "Bksp/Esc back", "u undo", "Shift+arrow long", "q quit")
SCREEN_BG = "\x1b[48;5;234m"  # the OLED's glass, a shade off the terminal's black
DIMMED_FG = "\x1b[38;5;242m"  # a dimmed display's pixels: grey
RESET = "\x1b[0m"


def visible_len(line):
    """The columns a line of text_view() takes (its escape sequences take none)."""
    return len(re.sub("\x1b\\[[0-9;]*m", "", line))


def display_state(display):
    """"" for a display lit as usual, else "dimmed" or "dark" (app.idle)."""
    if not display.on:
        return "dark"
    return "dimmed" if display.contrast_value < 255 else ""


def render_leds(leds, layout, colour=True):
    cells = []
    for r, g, b in led_colours(leds):
        if not colour:
            cells.append("##" if r or g or b else "..")
        elif r or g or b:
            cells.append("\x1b[38;2;%d;%d;%dm\u2588\u2588\x1b[0m" % (r, g, b))
        else:  # an LED that is off, still visible on a dark terminal
            cells.append("\x1b[38;2;70;70;70m\u2591\u2591\x1b[0m")
    per_row = 5 if layout == "matrix5x5" and len(cells) == 25 else max(1, len(cells))
    return [" ".join(cells[i:i + per_row]) for i in range(0, len(cells), per_row)], 3 * per_row - 1


def footer_lines(width):
    """The key help packed into lines of at most `width` characters."""
    lines = [""]
    for item in FOOTER_KEYS:
        if lines[-1] and len(lines[-1]) + 2 + len(item) > width:
            lines.append("")
        lines[-1] += ("  " if lines[-1] else "") + item
    return lines


def text_view(display, colour=True):
    """The display as text, a character per 8x8 cell (VirtualDisplay.cells): the cursor's
    row and a message in reverse video, a title and a new Azul tile underlined."""
    lines = []
    for line in display.cells():
        out = []
        shown = (False, False)
        for ch, inverted, underlined in line:
            if colour and (inverted, underlined) != shown:
                out.append("\x1b[%s;%sm" % ("7" if inverted else "27", "4" if underlined else "24"))
                shown = (inverted, underlined)
            out.append(ch)
        if colour and shown != (False, False):
            out.append("\x1b[27;24m")
        lines.append("".join(out))
    return lines


def frame(display, leds, layout, cols, rows, colour=True):
    """The lines drawing the display, the LEDs and the key help in a cols x rows terminal.

    The biggest picture that fits: half blocks (1x2 pixels a character, 128x32 for the
    OLED) or text (an 8x8 cell a character, 16x8: text_view); the LEDs beside it when there
    is room, else below. When neither fits, one line saying so. Every line is narrower
    than the terminal, so none wraps and erasing to the end of a line never eats its last
    cell.
    """
    led_lines, led_width = render_leds(leds, layout, colour)
    width = cols - 1
    state = display_state(display)
    keys = footer_lines(width)
    if state:
        note = "a key only wakes it" if state == "dark" else "a key lights it and acts"
        keys = [("display %s (idle): %s" % (state, note))[:width]] + keys
    w, h = display.width, display.height
    for draw, pw, ph in ((display.blocks, w, (h + 1) // 2), (lambda: text_view(display, colour), w // 8, h // 8)):
        beside = pw + 1 + led_width <= width
        height = (max(ph, len(led_lines)) if beside else ph + 1 + len(led_lines)) + 1 + len(keys)
        if pw > width or height > rows:
            continue
        pic = [(" " * pw if state == "dark" else line + " " * (pw - visible_len(line))) for line in draw()]
        if colour:
            fg = DIMMED_FG if state == "dimmed" else ""
            pic = [SCREEN_BG + fg + line + RESET for line in pic]
        if beside:
            blank = " " * pw
            body = [(pic[i] if i < ph else blank) + " " + (led_lines[i] if i < len(led_lines) else "")
                    for i in range(max(ph, len(led_lines)))]
        else:
            body = pic + [""] + led_lines
        return body + [""] + keys
    # the smallest layout that fits: text with the LEDs beside it
    need_cols = w // 8 + 1 + led_width + 1
    need_rows = max(h // 8, len(led_lines)) + 1 + len(footer_lines(need_cols - 1))
    msg = "sim needs %dx%d: terminal too small (%dx%d)" % (need_cols, need_rows, cols, rows)
    return [msg[:max(1, width)]]


def screenshot(display, leds, layout, path):
    """The display (4x, white on black; grey when dimmed, empty when dark) above the LEDs,
    as a PNG of a few palette colours."""
    from PIL import Image, ImageDraw
    s = 4
    w, h = display.width * s, display.height * s
    rows = 5 if layout == "matrix5x5" and leds.n == 25 else 1
    per_row = leds.n // rows if rows == 5 else leds.n
    img = Image.new("RGB", (max(w, per_row * 24 + 8), h + rows * 24 + 16), (20, 20, 20))
    draw = ImageDraw.Draw(img)
    state = display_state(display)
    lit = (110, 115, 122) if state == "dimmed" else (230, 240, 255)
    for y in range(display.height):
        for x in range(display.width):
            if state != "dark" and display.pixel(x, y):
                draw.rectangle([x * s, y * s, x * s + s - 1, y * s + s - 1], fill=lit)
    cols = led_colours(leds)
    for i in range(leds.n):
        r, c = divmod(i, per_row)
        x, y = 8 + c * 24, h + 8 + r * 24
        draw.ellipse([x, y, x + 18, y + 18], fill=cols[i], outline=(90, 90, 90))
    if img.getcolors(256):  # at most 256 colours (always, unless the LEDs show more): exact
        img = img.convert("P", palette=Image.ADAPTIVE)
    img.save(path, optimize=True)


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


def terminal_size(fd):
    try:
        size = os.get_terminal_size(fd)
        return size.columns, size.lines
    except OSError:
        return 80, 24


class TerminalKeys:
    """The terminal's key codes behind the buttons' seam that main.turn() reads: a key read
    is taken once; no button is ever held down."""

    def __init__(self):
        self.key = None

    def poll(self, now):
        pass

    def take(self):
        key, self.key = self.key, None
        return key

    def busy(self):
        return False


def interactive(app, display, leds):
    """Run the app on the terminal's keys until q; redraws on a change and on a resize.
    Between keys, the board's idle work (main.idle: a game filed moved into the history and
    the history trimmed, the work made ahead), a piece a turn, as the board's loop runs it.

    Every line is written at its own row (cursor positioning), so a line as wide as the
    terminal never wraps; it is drawn on the alternate screen, which quitting leaves: the
    terminal shows what it showed before, the prompt below the command.
    """
    import signal
    import termios
    import tty
    from main import idle, turn  # firmware/main.py: the board's loop, a turn at a time
    fd = sys.stdin.fileno()
    out = sys.stdout
    saved = termios.tcgetattr(fd)
    resized = [False]

    def on_resize(signum, frame_):
        resized[0] = True

    old_handler = signal.signal(signal.SIGWINCH, on_resize)
    keys = TerminalKeys()
    size = terminal_size(out.fileno())
    shown = None
    drawn = 0
    t0 = time.monotonic()
    more = False  # idle work left: the next turn comes sooner
    try:
        tty.setraw(fd)
        out.write("\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J")  # the alternate screen, no cursor
        while True:
            key = read_key(fd, 0.01 if more else 0.05)
            if key == "quit":
                break
            keys.key = key
            more = not turn(app, keys, int((time.monotonic() - t0) * 1000)) and idle(app)
            if resized[0]:
                resized[0] = False
                size = terminal_size(out.fileno())
                shown = None
                out.write("\x1b[H\x1b[2J")
            state = (display.frames, len(leds.frames), app.settings["led_layout"], display_state(display))
            if state != shown:
                shown = state
                lines = frame(display, leds, state[2], size[0], size[1])
                out.write("".join("\x1b[%d;1H%s\x1b[K" % (i + 1, line) for i, line in enumerate(lines)))
                if len(lines) < drawn:  # a smaller layout: clear what the bigger one left
                    out.write("\x1b[%d;1H\x1b[J" % (len(lines) + 1))
                drawn = len(lines)
                out.flush()
    finally:
        signal.signal(signal.SIGWINCH, old_handler)
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[0m\x1b[?25h\x1b[?1049l")  # the terminal as it was, its cursor shown
        out.flush()


# ---- the command --------------------------------------------------------------------------
def add_arguments(parser):
    parser.add_argument("--board", default="pico", help="pico | esp32s3 | feather_rp2040 (default pico)")
    parser.add_argument("--data", default="azul-data", help="folder for the game record (default ./azul-data)")
    parser.add_argument("--script", help="a file of key presses, or the presses themselves (see --help-script)")
    parser.add_argument("--screenshot", help="write the display and LEDs as a PNG after the run")
    parser.add_argument("--keep-message", action="store_true",
                        help="after --script, keep a message on the screen instead of letting it time out")
    parser.add_argument("--help-script", action="store_true", help="explain the --script syntax")


def run(args):
    from host_tools.output import CliError, printable
    if args.help_script:
        print(__doc__)
        return 0
    try:
        if args.screenshot and not args.screenshot.lower().endswith(".png"):
            raise SimError("--screenshot %s: the picture is a PNG, name it NAME.png" % args.screenshot)
        keys = None
        if args.script is not None:
            if os.path.isfile(args.script):
                keys = parse_script(read_script(args.script), args.script)
            else:
                keys = parse_script(args.script)
        elif not sys.stdin.isatty():
            raise SimError("stdin is not a terminal: run it in a terminal, or give --script KEYS")
        app, display, leds, clock = build(args.board, args.data)
    except SimError as e:
        raise CliError(str(e))
    if keys is None:
        interactive(app, display, leds)
    else:
        run_script(app, clock, keys, args.keep_message)
        print("\n".join(printable(t) for t in app.text()))  # (names come from records)
        if display_state(display):
            print("[display %s]" % display_state(display))
        if sys.stdout.isatty():
            cols, rows = terminal_size(sys.stdout.fileno())
            print("\n".join(frame(display, leds, app.settings["led_layout"], cols, rows)))
    if args.screenshot:
        screenshot(display, leds, app.settings["led_layout"], args.screenshot)
    return 0
