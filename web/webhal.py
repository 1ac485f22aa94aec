"""The browser's HAL: the device's seams (display, LEDs, buttons, file system) on a web page.

The page's script hands in `host`, a small JavaScript object (web/azul.js):
  get(key) -> str or None, set(key, value) -> "" or the error's name, remove(key),
  keys() -> every key, joined by "\\n"   (localStorage, which never loses a returned write)
  display(hex)   the 128x64 MONO_VLSB frame buffer as hex, drawn on the canvas
  leds(hex)      the LED bytes (RGB order) as hex, drawn as dots
Strings are what crosses between MicroPython and JavaScript, so bytes travel as hex.
A JavaScript exception cannot be caught in MicroPython: host.set() reports, never throws.
Everything here also runs on CPython (tests give a dict-backed host).
"""
import binascii

try:
    from framebuf import FrameBuffer, MONO_VLSB
except ImportError:  # CPython
    from hal.framebuf_py import FrameBuffer, MONO_VLSB

ENOENT = 2
EIO = 5
EEXIST = 17
EISDIR = 21
ENOSPC = 28

FILE_KEY = "azul-companion:file:"  # + path: the file's bytes, one character per byte
DIR_KEY = "azul-companion:dir:"    # + path: a folder (the value is "")
_S_IFDIR = 0x4000
_S_IFREG = 0x8000


def to_text(data):
    """Bytes as a string of one character per byte (U+0000..U+00FF). Byte 0 is stored as
    U+0100: a string passed from MicroPython to JavaScript ends at its first NUL."""
    try:
        text = bytes(data).decode("utf-8")
        if len(text) == len(data) and "\x00" not in text:
            return text  # ASCII, as records are: one character per byte already
    except UnicodeError:
        pass
    return "".join(chr(b) if b else "\u0100" for b in data)


def to_bytes(text):
    """The inverse of to_text()."""
    data = text.encode("utf-8")
    if len(data) == len(text):
        return data
    return bytes(0 if c == "\u0100" else ord(c) for c in text)


def _parent(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else ""


class LocalFS:
    """A small file system over the page's key-value store, with the open() and os calls that
    hal.storage.Storage makes (open in rb/wb/ab, stat, listdir, mkdir, rename, remove, sync).

    A file is one entry; write() replaces it with the old text plus the new bytes, so a write
    is stored whole or, when the store is full, not at all (OSError ENOSPC), like a littlefs
    write that fails. Folders are entries of their own; "" is the root.
    """

    def __init__(self, host):
        self.host = host

    def _put(self, key, value):
        err = self.host.set(key, value)
        if err:
            if "Quota" in err:
                raise OSError(ENOSPC, "storage full")
            raise OSError(EIO, err)

    def _file(self, path):
        return self.host.get(FILE_KEY + path)

    def isdir(self, path):
        return path == "" or self.host.get(DIR_KEY + path) is not None

    def open(self, path, mode="rb"):
        if mode not in ("rb", "wb", "ab"):
            raise ValueError("LocalFS.open(%r, %r): only rb, wb and ab" % (path, mode))
        if self.isdir(path):
            raise OSError(EISDIR, path)
        if mode == "rb":
            text = self._file(path)
            if text is None:
                raise OSError(ENOENT, path)
            return _File(self, path, text)
        if not self.isdir(_parent(path)):
            raise OSError(ENOENT, _parent(path))
        text = self._file(path)
        if mode == "wb" or text is None:
            self._put(FILE_KEY + path, "")
            text = ""
        return _File(self, path, text)

    def read_bytes(self, path):
        """The file's bytes, or None when there is no such file (the page's downloads)."""
        text = self._file(path)
        return None if text is None else to_bytes(text)

    # -- the os calls --
    def stat(self, path):
        text = self._file(path)
        if text is not None:
            return (_S_IFREG, 0, 0, 0, 0, 0, len(text), 0, 0, 0)
        if self.isdir(path):
            return (_S_IFDIR, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(ENOENT, path)

    def listdir(self, folder):
        if not self.isdir(folder):
            raise OSError(ENOENT, folder)
        names = []
        for key in self.host.keys().split("\n"):
            for prefix in (FILE_KEY, DIR_KEY):
                if key.startswith(prefix):
                    path = key[len(prefix):]
                    if _parent(path) == folder:
                        names.append(path[len(folder) + 1:] if folder else path)
        return names

    def mkdir(self, folder):
        if self.isdir(folder) or self._file(folder) is not None:
            raise OSError(EEXIST, folder)
        if not self.isdir(_parent(folder)):
            raise OSError(ENOENT, _parent(folder))
        self._put(DIR_KEY + folder, "")

    def rename(self, src, dst):
        """Files only (all Storage renames). The copy is stored before the original goes:
        a page closed in between leaves both, never neither."""
        text = self._file(src)
        if text is None:
            raise OSError(ENOENT, src)
        if self.isdir(dst):
            raise OSError(EISDIR, dst)
        if not self.isdir(_parent(dst)):
            raise OSError(ENOENT, _parent(dst))
        self._put(FILE_KEY + dst, text)
        self.host.remove(FILE_KEY + src)

    def remove(self, path):
        if self._file(path) is None:
            raise OSError(ENOENT, path)
        self.host.remove(FILE_KEY + path)

    def sync(self):
        pass  # every write is in the store when set() returns


class _File:
    """An open file: reads from the text it had at open(); each write() is stored at once."""

    def __init__(self, fs, path, text):
        self._fs = fs
        self._key = FILE_KEY + path
        self._text = text
        self._pos = 0

    def read(self, n=-1):
        end = len(self._text) if n is None or n < 0 else self._pos + n
        part = self._text[self._pos:end]
        self._pos += len(part)
        return to_bytes(part)

    def write(self, data):
        text = self._text + to_text(data)
        self._fs._put(self._key, text)
        self._text = text
        return len(data)

    def truncate(self, size):
        text = self._text[:size]
        self._fs._put(self._key, text)
        self._text = text

    def flush(self):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class WebDisplay(FrameBuffer):
    """The display seam: FrameBuffer drawing; show() sends the frame to the canvas when it
    differs from the last one sent."""

    def __init__(self, width, height, host):
        self.width = width
        self.height = height
        self.buffer = bytearray(width * ((height + 7) // 8))
        self._sent = bytearray(len(self.buffer))
        self._host = host
        self.frames = 0  # frames sent to the page
        super().__init__(self.buffer, width, height, MONO_VLSB)

    def _send(self):
        self._sent[:] = self.buffer
        self.frames += 1
        self._host.display(binascii.hexlify(self.buffer).decode())

    def show(self):
        if self.frames == 0 or self.buffer != self._sent:
            self._send()

    def contrast(self, value):
        pass  # the page keeps its own brightness

    def poweroff(self):
        """Dark: the page shows an empty frame; the buffer stays for poweron()."""
        self._host.display("00" * len(self.buffer))

    def poweron(self):
        self._send()


def led_writer(host):
    """Leds' write function: the LED bytes to the page."""
    def write(buf):
        host.leds(binascii.hexlify(buf).decode())
    return write


class PageButtons:
    """The buttons' pin reader: the page sets a bit while a button (or its key) is down."""

    def __init__(self, names):
        self.names = names
        self.mask = 0

    def set(self, name, down):
        bit = 1 << self.names.index(name)
        self.mask = self.mask | bit if down else self.mask & ~bit

    def read(self):
        return self.mask
