"""Virtual HAL: desktop doubles of the firmware's devices for tests and the simulator.

VirtualDisplay  framebuf-compatible 128x64 (or any size) canvas; show() counts frames.
VirtualLeds     a firmware Leds whose writes are captured as frames.
VirtualButtons  the firmware's ButtonLogic fed from a script of timed holds.
CutStorage      the firmware's Storage on an in-memory flash that loses power after a
                chosen number of written bytes.
install_framebuf() makes `import framebuf` work on CPython.
"""
import os
import sys

from hal import framebuf_py
from hal.buttons import Buttons, ButtonLogic
from hal.leds import Leds
from hal.storage import Storage

SIX_BUTTONS = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")


def install_framebuf():
    """Register host_tools/fakes/framebuf.py as the top-level `framebuf` module."""
    if "framebuf" not in sys.modules:
        from host_tools.fakes import framebuf
        sys.modules["framebuf"] = framebuf
    return sys.modules["framebuf"]


# -- display ---------------------------------------------------------------------------

_GLYPHS = {}


def _braille_dots(bits):
    """Braille dot bits for a nibble of four pixel rows (bit k = row k) in the left and the
    right column of a cell: dots 1,2,3,7 and 4,5,6,8 (Unicode U+2800 block)."""
    left = sum(b for k, b in enumerate((0x01, 0x02, 0x04, 0x40)) if bits >> k & 1)
    right = sum(b for k, b in enumerate((0x08, 0x10, 0x20, 0x80)) if bits >> k & 1)
    return left, right


_BRAILLE = tuple(tuple(_braille_dots(n)[side] for n in range(16)) for side in (0, 1))


_OUTLINED = {}  # a glyph inside a 7x7 outline (an Azul tile entered now) -> its character
_UNDERLINED = {}  # a glyph on the line under a title (its bottom pixel row, descenders too)
_OUTLINE = bytes((0x7F, 0x41, 0x41, 0x41, 0x41, 0x41, 0x7F, 0))


def _glyph_table():
    if not _GLYPHS:
        font = framebuf_py.FONT_8X8
        for c in range(33, 127):
            glyph = bytes(font[(c - 32) * 8:(c - 31) * 8])
            _GLYPHS.setdefault(glyph, chr(c))
            _OUTLINED.setdefault(bytes(a | b for a, b in zip(glyph, _OUTLINE)), chr(c))
            _UNDERLINED.setdefault(bytes(b | 0x80 for b in glyph), chr(c))
    return _GLYPHS


def _read_cell(cell, table):
    """(character, inverted, underlined) of an 8x8 cell (8 MONO_VLSB columns): see cells()."""
    if not any(cell):
        return " ", False, False
    if cell == b"\xff" * 8:
        return " ", True, False
    if cell == b"\x80" * 8:
        return " ", False, True
    ch = _UNDERLINED.get(cell)
    if ch is not None:
        return ch, False, True
    for bits, inverted, underlined in ((cell, False, False), (bytes(b ^ 0xFF for b in cell), True, False),
                                       (bytes((b ^ 0x7F) & 0x7F for b in cell[:7]) + b"\x00" if not cell[7] else b"",
                                        True, False)):
        ch = table.get(bits)
        if ch is not None:
            return ch, inverted, underlined
    ch = _OUTLINED.get(cell)
    if ch is not None:
        return ch, False, True
    if sum(bin(b).count("1") for b in cell) == 1:
        return "\u00b7", False, False  # a dot: an Azul wall's empty space
    dots = 0
    for k, bit in enumerate((0x01, 0x02, 0x04, 0x40, 0x08, 0x10, 0x20, 0x80)):  # dots 1-3,7 left; 4-6,8 right
        col, row = divmod(k, 4)
        if any(cell[col * 4 + i] >> (row * 2) & 3 for i in range(4)):
            dots |= bit
    return chr(0x2800 + dots), False, False


class VirtualDisplay(framebuf_py.FrameBuffer):
    """The app's display seam on the desktop: drawing methods, show(), contrast(),
    poweroff()/poweron() (kept in contrast_value and on, for the simulator's drawing)."""

    def __init__(self, width=128, height=64):
        self.buffer = bytearray(width * ((height + 7) // 8))
        framebuf_py.FrameBuffer.__init__(self, self.buffer, width, height, framebuf_py.MONO_VLSB)
        self.frames = 0          # show() calls
        self.last_frame = None   # bytes of the buffer at the last show()
        self.contrast_value = 255
        self.on = True

    def show(self):
        self.frames += 1
        self.last_frame = bytes(self.buffer)

    def contrast(self, value):
        self.contrast_value = value

    def poweroff(self):
        self.on = False

    def poweron(self):
        self.on = True

    def rows(self, on="#", off="."):
        """One string per pixel row of the current buffer."""
        return ["".join(on if self._get(x, y) else off for x in range(self.width))
                for y in range(self.height)]

    def blocks(self):
        """Terminal rendering, two pixel rows per text line with half-block characters."""
        chars = (" ", "\u2580", "\u2584", "\u2588")  # none, top, bottom, both
        lines = []
        for y in range(0, self.height, 2):
            line = []
            for x in range(self.width):
                top = self._get(x, y)
                bottom = self._get(x, y + 1) if y + 1 < self.height else 0
                line.append(chars[top | (bottom << 1)])
            lines.append("".join(line).rstrip())
        return lines

    def braille(self):
        """Terminal rendering in Unicode braille, 2x4 pixels a character (128x64 -> 64x16).

        A braille cell's four rows lie inside one 8-row page, so each cell is two nibbles of
        two adjacent MONO_VLSB bytes; blank cells are spaces, lines are not stripped.
        """
        left, right = _BRAILLE
        w = self.width
        buf = self.buffer
        lines = []
        for y in range(0, self.height, 4):
            base = (y // 8) * w
            shift = y % 8
            cells = []
            for x in range(0, w, 2):
                dots = left[(buf[base + x] >> shift) & 15]
                if x + 1 < w:
                    dots |= right[(buf[base + x + 1] >> shift) & 15]
                cells.append(chr(0x2800 + dots) if dots else " ")
            lines.append("".join(cells))
        return lines

    def cells(self):
        """The display read as the 8x8 cells of its text rows: a line of (character, inverted,
        underlined) per 8-pixel page, a cell per 8 columns. A cell that holds a glyph of the
        font is that character: drawn, inverted (the cursor's bar, a message) or on the line
        under a title (underlined), inverted in a 7x7 square or inside its outline (an Azul
        wall's tile placed, entered now: underlined). A blank cell is a space, a lone pixel a
        middle dot; any other drawing is a braille character of its 2x4 blocks of 4x2 pixels."""
        table = _glyph_table()
        buf = self.buffer
        w = self.width
        lines = []
        for page in range(self.height // 8):
            line = []
            for x in range(0, w - w % 8, 8):
                cell = bytes(buf[page * w + x:page * w + x + 8])
                line.append(_read_cell(cell, table))
            lines.append(line)
        return lines

    def text_lines(self):
        """Text read back from each 8-pixel page: glyphs drawn with text() at y = 8*k
        on a clear background, any x; runs of 8 blank columns read as one space."""
        table = _glyph_table()
        lines = []
        for page in range(self.height // 8):
            base = page * self.width
            out = []
            blank = 0
            x = 0
            while x < self.width:
                ch = table.get(bytes(self.buffer[base + x:base + x + 8]))
                if ch is not None:
                    out.append(" " * ((blank + 4) // 8) if out else "")
                    out.append(ch)
                    blank = 0
                    x += 8
                    continue
                blank += 1
                x += 1
            lines.append("".join(out))
        return lines


# -- LEDs --------------------------------------------------------------------------------

class VirtualLeds(Leds):
    """Leds whose show() output is kept: frames[k] is the wire-order bytes of frame k."""

    def __init__(self, n, brightness_max=0.25, order="GRB"):
        self.frames = []
        self.order = order
        Leds.__init__(self, n, self._capture, brightness_max, order)

    def _capture(self, buf):
        self.frames.append(bytes(buf))

    def frame_rgb(self, k=-1):
        """Frame k as a list of (r, g, b) after the brightness cap."""
        data = self.frames[k]
        r, g, b = self.order.index("R"), self.order.index("G"), self.order.index("B")
        return [(data[j + r], data[j + g], data[j + b]) for j in range(0, len(data), 3)]


# -- buttons -----------------------------------------------------------------------------

class VirtualButtons(Buttons):
    """Buttons driven by a script: hold(name, start_ms, duration_ms) then poll()/run().

    The real ButtonLogic runs on the scripted samples, so debounce, long press and
    repeat behave as on the board; inject(event) skips the timing for app-level tests.
    """

    def __init__(self, names=SIX_BUTTONS, debounce_ms=20, long_ms=600, repeat_ms=120,
                 logic=None):
        if logic is None:
            logic = ButtonLogic(names, debounce_ms, long_ms, repeat_ms)
        Buttons.__init__(self, logic, self)
        self._holds = []  # (start_ms, end_ms, bit)
        self._now = 0

    def hold(self, name, start_ms, duration_ms):
        bit = 1 << self.logic.names.index(name)
        self._holds.append((start_ms, start_ms + duration_ms, bit))

    def read(self):
        mask = 0
        for start, end, bit in self._holds:
            if start <= self._now < end:
                mask |= bit
        return mask

    def poll(self, now_ms):
        self._now = now_ms
        Buttons.poll(self, now_ms)

    def run(self, until_ms, step_ms=10, start_ms=0):
        """Poll every step_ms from start_ms to until_ms; returns [(time_ms, event)]."""
        events = []
        for t in range(start_ms, until_ms + 1, step_ms):
            self.poll(t)
            ev = self.take()
            while ev is not None:
                events.append((t, ev))
                ev = self.take()
        return events

    def inject(self, event):
        self.logic.push(event)


# -- storage with power cuts ---------------------------------------------------------------

class PowerCut(Exception):
    """The simulated power failed; deliberately not an OSError so no firmware handler eats it."""


class _MemFile:
    def __init__(self, fs, path, mode):
        self._fs = fs
        self._path = path
        self._pos = 0
        if "r" not in mode:
            fs.check_alive()
        fs.folder_of(path)
        if path in fs.dirs:
            raise OSError(21, "EISDIR: %s" % path)
        if "r" in mode:
            if path not in fs.files:
                raise OSError(2, "ENOENT: %s" % path)
        elif "w" in mode:
            fs.files[path] = bytearray()
        elif "a" in mode:
            fs.files.setdefault(path, bytearray())

    def read(self):
        data = bytes(self._fs.files[self._path][self._pos:])
        self._pos += len(data)
        return data

    def write(self, data):
        self._fs.check_alive()
        if self._fs.size is not None and self._fs.used() + len(data) > self._fs.size:
            # littlefs keeps a file as it was at its last flush: the failed write adds nothing
            raise OSError(28, "ENOSPC: %s" % self._path)
        room = self._fs.room()
        self._fs.files[self._path].extend(data[:room])
        self._fs.written += min(room, len(data))
        if room < len(data):
            raise PowerCut("power cut after byte %d" % self._fs.written)
        return len(data)

    def flush(self):
        self._fs.check_alive()

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class MemFS:
    """A flat in-memory flash: files (path -> bytearray) and dirs (folder paths; the root ""
    is always there); paths use "/". It fails where littlefs fails, with littlefs's errno
    (tests/test_fs_differential.py runs the same operations on both), so a test meets a
    folder the firmware never made as the board would. size: the bytes of file contents
    the flash holds (None: no limit)."""

    def __init__(self, cut_at_byte=None, files=None, dirs=None, size=None):
        self.files = files if files is not None else {}
        self.dirs = dirs if dirs is not None else set()
        self.cut_at_byte = cut_at_byte
        self.written = 0
        self.size = size

    def room(self):
        if self.cut_at_byte is None:
            return 1 << 30
        return max(0, self.cut_at_byte - self.written)

    def used(self):
        return sum(len(b) for b in self.files.values())

    def check_alive(self):
        """Every operation after the last byte the flash received never happens."""
        if self.cut_at_byte is not None and self.written >= self.cut_at_byte:
            raise PowerCut("power cut after byte %d" % self.written)

    def folder_of(self, path):
        """Each folder on the way to path must be there (else ENOENT) and be a folder (else
        ENOTDIR), as littlefs walks a path: nothing is made in a folder never made."""
        at = path.find("/")
        while at >= 0:
            folder = path[:at]
            if folder in self.files:
                raise OSError(20, "ENOTDIR: %s" % path)
            if folder not in self.dirs:
                raise OSError(2, "ENOENT: %s" % path)
            at = path.find("/", at + 1)

    def _inside(self, folder):
        """The paths of everything below folder, at any depth."""
        prefix = folder + "/"
        return [p for p in list(self.files) + list(self.dirs) if p.startswith(prefix)]

    def open(self, path, mode="r"):
        return _MemFile(self, path, mode)

    # os functions
    def stat(self, path):
        self.folder_of(path)
        if path in self.files:
            return (0o100000, 0, 0, 0, 0, 0, len(self.files[path]), 0, 0, 0)
        if path in self.dirs:
            return (0o040000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(2, "ENOENT: %s" % path)

    def listdir(self, folder):
        """The files and folders in folder, in name order (littlefs keeps a folder sorted)."""
        if folder and self.stat(folder)[0] != 0o040000:
            raise OSError(20, "ENOTDIR: %s" % folder)
        prefix = folder + "/" if folder else ""
        return sorted(p[len(prefix):] for p in list(self.files) + list(self.dirs)
                      if p.startswith(prefix) and "/" not in p[len(prefix):])

    def ilistdir(self, folder):
        """listdir() as MicroPython's os.ilistdir: (name, type, inode, size) entries, type
        telling a folder from a file (0x4000, 0x8000); a folder that is not there raises here,
        not at the first entry."""
        prefix = folder + "/" if folder else ""
        return iter([(name, self.stat(prefix + name)[0] & 0xF000, 0, 0) for name in self.listdir(folder)])

    def mkdir(self, folder):
        self.check_alive()
        self.folder_of(folder)
        if folder in self.dirs or folder in self.files:
            raise OSError(17, "EEXIST: %s" % folder)
        self.dirs.add(folder)

    def rename(self, src, dst):
        """As littlefs: a file replaces a file, a folder (with what it holds) an empty folder;
        a file onto a folder is EISDIR, a folder onto a file ENOTDIR."""
        self.check_alive()
        self.stat(src)
        self.folder_of(dst)
        if src == dst:
            return
        if src in self.files:
            if dst in self.dirs:
                raise OSError(21, "EISDIR: %s" % dst)
            self.files[dst] = self.files.pop(src)
            return
        if dst in self.files:
            raise OSError(20, "ENOTDIR: %s" % dst)
        if dst.startswith(src + "/"):  # (littlefs loses the folder: refused here)
            raise OSError(22, "EINVAL: %s into itself" % src)
        if dst in self.dirs:
            self.remove(dst)  # ENOTEMPTY unless empty
        for p in [src] + self._inside(src):
            to = dst + p[len(src):]
            if p in self.dirs:
                self.dirs.remove(p)
                self.dirs.add(to)
            else:
                self.files[to] = self.files.pop(p)

    def remove(self, path):
        """A file, or a folder once it is empty (littlefs's remove takes either)."""
        self.check_alive()
        self.stat(path)
        if path in self.files:
            del self.files[path]
        elif self._inside(path):
            raise OSError(39, "ENOTEMPTY: %s" % path)
        else:
            self.dirs.remove(path)

    def sync(self):
        self.check_alive()


class CutStorage(Storage):
    """Storage whose flash loses power once cut_at_byte bytes have been written.

    The first cut_at_byte bytes written (across all files) persist; the write that
    crosses the limit, and every operation after it, raises PowerCut. after_reboot()
    gives a healthy Storage over the same flash contents.
    """

    def __init__(self, cut_at_byte=None, fs=None):
        self.fs = fs if fs is not None else MemFS(cut_at_byte)
        self.fs.cut_at_byte = cut_at_byte
        Storage.__init__(self, self.fs.open, self.fs)

    def after_reboot(self):
        return CutStorage(None, MemFS(None, self.fs.files, self.fs.dirs, self.fs.size))

    def content(self, path):
        return bytes(self.fs.files[path]) if path in self.fs.files else None


def micropython_fakes_dir():
    """Folder with the fake `machine` and `neopixel` for the MicroPython unix port."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "fakes", "mp")
