"""Storage on the board's flash: an append-only record, atomic settings, a history folder.

Power may fail at any byte and the flash may fill up. The rules that make that safe:
- the record only grows, one whole line per append_line() call, flushed (and os.sync'ed
  where the runtime has it) before it returns. A write that fails (flash full, I/O error)
  is cut back to where its line began before the error is raised, so the file ends on a
  complete line; if even that cut fails, the next append_line() to the file retries it and
  refuses while it cannot. A power cut leaves at most one torn last line, which
  read_lines() drops and recover_lines() cuts off the file;
- settings are written to path + ".tmp" and renamed over path, so a reader sees the old
  or the new text, never a mix (rename is atomic on littlefs; FAT replaces a file by
  removing it, then renaming, and settle() finishes that at the next boot);
- the history folder is never listed whole (a board keeps a thousand finished games in a
  heap of a few hundred KB): one pass over os.ilistdir (os.listdir where there is none)
  counts and finds the newest, once, in pieces (scan_history), or keeps one page of numbers.
A file is shortened with its truncate() where it has one (CPython); MicroPython's files have
none, so there the kept bytes are copied to path + ".tmp", which is renamed over path.

Used: open(path, mode) with modes "rb", "wb", "ab" and the file's read(), write, flush,
close (and seek and truncate when present); os.stat, rename, remove, mkdir, ilistdir or
listdir, and sync when present. Storage(fs_open, fs_os) lets tests and other front ends inject them.
"""
import os

TMP_SUFFIX = ".tmp"
HISTORY_EXT = ".jsonl"
_DIR = 0x4000  # the directory bit of a stat / ilistdir mode
WARM_BYTES = 1024  # warm(): more than littlefs stores inline, so a block is allocated
# refresh(): the blocks allocated since littlefs last walked the flash before the next walk is
# taken in an idle frame (a line appended allocates one): fewer than a walk finds free (with
# lfs_remount's lookahead, every free block) while 512 KB of a Pico's 1.4 MB are free (50
# games filed leave 836 KB)
REFRESH_BLOCKS = 128


def lfs_remount():
    """Mount the board's littlefs at "/" again, as rp2's _boot.py mounts it but for two
    settings: a lookahead over every block of the flash (so that a walk finds all the free
    blocks, not those among 256), and reads of 256 bytes instead of 32 (littlefs reads its
    logs backwards a read at a time: a walk of the flash with 50 games filed 37.6 -> 26.2 ms
    on a Pico, their listing 48.4 -> 30.8; the same buffers: a cache of 4 reads or 4 writes,
    whichever is larger). A mount starts with an empty lookahead: the next block allocated
    walks the flash (warm). False where there is no such board or mount (nothing changed);
    OSError where the new mount fails (the old one stays)."""
    try:  # (by name: the board stubs' rp2 and VfsLfs2 do not type-check)
        vfs = __import__("vfs")
        flash = __import__("rp2").Flash()
        mounted = [fs for fs, at in vfs.mount() if at == "/"]  # (MicroPython 1.23+)
    except (ImportError, TypeError):
        return False
    if not mounted or type(mounted[0]) is not vfs.VfsLfs2:
        return False
    blocks = flash.ioctl(4, 0)  # the block count
    fs = vfs.VfsLfs2(flash, readsize=256, progsize=256, lookahead=(blocks + 63) // 64 * 8)
    vfs.umount("/")
    try:
        vfs.mount(fs, "/")
    except OSError:
        vfs.mount(mounted[0], "/")
        raise
    return True


def history_name(n):
    """The file name of history game n: zero-padded, so that names sort as numbers."""
    return "%06d%s" % (n, HISTORY_EXT)


def history_number(name):
    """The number of a history file name ("000007.jsonl" -> 7), else None."""
    if not name.endswith(HISTORY_EXT):
        return None
    stem = name[:-len(HISTORY_EXT)]
    return int(stem) if stem and stem.isdigit() else None


class Storage:
    def __init__(self, fs_open=open, fs_os=os, remount=lfs_remount):
        self._open = fs_open
        self._os = fs_os
        self._remount = remount  # None where it found nothing to mount again (refresh)
        self.allocated = 0  # blocks allocated since littlefs last walked the flash (refresh)
        self._torn = {}  # path -> length its file must be cut back to before the next append
        # the history's span as a listing finds it: [folder, count, oldest, newest, the listing
        # under way (None once done), whether it met a folder named like a game] (scan_history),
        # kept up to date by this Storage's own moves into the folder and removals from it; []
        # until a listing starts
        self._span = []  # type: list

    def _sync(self):
        sync = getattr(self._os, "sync", None)
        if sync is not None:
            sync()

    def warm(self, path):
        """Write a 1 KB file and remove it, right after a mount (boot, refresh()): littlefs
        fills its block allocator's lookahead by walking the whole filesystem at the first
        block it allocates after a mount (~0.5 ms a file on a Pico: +26-37 ms with 50 games
        filed), which would otherwise fall on the first press that writes a line. (A smaller
        file is stored inline and allocates no block.) A flash too full for it is left as it
        is."""
        try:
            with self._open(path, "wb") as f:
                f.write(bytes(WARM_BYTES))
        except OSError:
            pass
        try:
            self._os.remove(path)
        except OSError:
            pass
        self.allocated = 0

    def remount(self):
        """The filesystem mounted again (lfs_remount) where there is one to mount again:
        at boot, before warm(); then by refresh(). True when it was."""
        if self._remount is not None:
            try:
                if self._remount():
                    return True
            except OSError:
                pass
            self._remount = None  # (nothing to mount again, or it failed: not tried again)
        return False

    def refresh(self, path):
        """An idle frame's work: littlefs's walk of the flash taken ahead of the presses. Its
        lookahead, filled by a walk, runs out after as many blocks allocated as the walk found
        free in it (every ~170 with 50 games filed; lfs_remount's: every free block), and the
        block allocated then, a press's line, waits for the next walk (26-37 ms with 50 games
        filed). Once REFRESH_BLOCKS were allocated since the last walk: the filesystem mounted
        again (9 ms) and warm(path), whose block takes the walk, in one piece (a press between
        the two would take it). False: nothing is left."""
        if self.allocated >= REFRESH_BLOCKS and self.remount():
            self.warm(path)
        return False

    def exists(self, path):
        try:
            self._os.stat(path)
            return True
        except OSError:
            return False

    def size(self, path):
        return self._os.stat(path)[6]

    def move(self, src, dst):
        self._os.rename(src, dst)
        self._torn.pop(src, None)  # a cut still owed went with the file (its reader drops a torn line)
        self._sync()

    def remove(self, path):
        self._os.remove(path)
        self._torn.pop(path, None)
        self._sync()

    # -- the record: whole lines appended, never a torn line left for the next append --

    def append_line(self, path, text, create=True):
        """Append text + "\\n" as one write and flush it: one event per call.

        Returns the file's length before the line. On failure the file is cut back to that
        length (removed when the line was to be its first) and the error raised: the caller
        may tell the user the line was not saved.
        create=False refuses (OSError ENOENT) a file that is missing or empty: a record
        without its header; a file the open made for it is removed.
        """
        if "\n" in text:
            raise ValueError("append_line(%r): text holds a newline, a record line must not" % path)
        pending = self._torn.get(path)
        if pending is not None:
            self.cut(path, pending)  # raises while it cannot: nothing is glued onto a torn tail
            del self._torn[path]
        data = (text + "\n").encode("utf-8")
        start = None  # the length before the line; set once the line's write may begin
        try:
            with self._open(path, "ab") as f:
                # the length from the open file: a seek to its end is free on littlefs, FAT and
                # CPython, where a stat costs a Pico 2-3 ms; a file with no seek (the page's) stats
                seek = getattr(f, "seek", None)
                end = seek(0, 2) if seek is not None else self.size(path)
                if end or create:
                    start = end
                    f.write(data)
                    f.flush()
            if start is None:  # create=False and nothing there: no header to append to
                self._discard(path)  # the file the open made, if it made one
                raise OSError(2, path)  # ENOENT
            self._sync()
            self.allocated += 1  # (littlefs copies the file's last block to a new one)
        except Exception as e:
            if start is not None:
                try:
                    if start:
                        self.cut(path, start)
                    else:
                        self.remove(path)  # it was to be the first line: no file, not an empty one
                except OSError:
                    self._torn[path] = start
            raise e
        return start

    def cut(self, path, length):
        """Shorten path to its first `length` bytes (the file's truncate(), else a copy renamed
        over it). Raises OSError when it cannot; the file is then unchanged."""
        if self.size(path) == length:
            return  # the failed write left nothing (littlefs drops a failed write whole)
        with self._open(path, "ab") as f:
            truncate = getattr(f, "truncate", None)
            if truncate is not None:
                truncate(length)
                f.flush()
        if truncate is None:
            tmp = path + TMP_SUFFIX
            try:
                with self._open(path, "rb") as f:
                    data = f.read()
                with self._open(tmp, "wb") as f:
                    f.write(memoryview(data)[:length])
                    f.flush()
                data = None
                self._sync()
                self._replace(tmp, path)
            except OSError:
                self._discard(tmp)  # a full flash: the copy's blocks are the room we need
                raise
        self._sync()

    def _discard(self, path):
        try:
            self._os.remove(path)
        except OSError:
            pass

    def _read(self, path):
        """The whole file as bytes; a missing file reads as b""."""
        try:
            with self._open(path, "rb") as f:
                return f.read()
        except OSError:
            if self.exists(path):
                raise  # there but unreadable: not the same as missing
            return b""

    def read_at(self, path, at, size):
        """Up to `size` bytes of path from byte `at` (b"" past its end): a file read a piece
        at a time, not held open between pieces."""
        with self._open(path, "rb") as f:
            seek = getattr(f, "seek", None)
            if seek is None:  # (the web page's files, the test doubles) read whole
                return f.read()[at:at + size]
            seek(at)
            return f.read(size)

    def read_lines(self, path):
        """(complete lines without "\\n", torn) ; torn is True when a final partial line was dropped.

        A missing file reads as ([], False). A complete line that is not UTF-8 raises
        ValueError("line N: not UTF-8").
        """
        parts = self._read(path).split(b"\n")
        torn = len(parts[-1]) > 0  # text after the last "\n" never got its end
        if torn and (b"\xff" in parts[-1] or b"\x00" in parts[-1]):
            # erased flash (0xFF) or a file grown with zeros where lines were: never text, and
            # maybe many lines long, not one torn line (the caller keeps the file as it is)
            raise ValueError("line %d: erased bytes (0xFF or NUL), not a torn line" % len(parts))
        lines = []
        for i in range(len(parts) - 1):
            try:
                lines.append(parts[i].decode("utf-8"))
            except UnicodeError:
                raise ValueError("line %d: not UTF-8" % (i + 1))
        return lines, torn

    def recover_lines(self, path):
        """read_lines(), and if the last line was torn, cut it off the file so the next
        append starts on a fresh line. A cut that fails (a full flash) is retried by the
        next append_line(); the lines are returned either way."""
        lines, torn = self.read_lines(path)
        if torn:
            length = 0
            for line in lines:
                length += len(line.encode("utf-8")) + 1
            try:
                self.cut(path, length)
            except OSError:
                self._torn[path] = length
        return lines, torn

    # -- whole files replaced atomically --

    def write_atomic(self, path, text):
        """Replace path's content with text: write path.tmp, flush, rename over path."""
        tmp = path + TMP_SUFFIX
        try:
            with self._open(tmp, "wb") as f:
                f.write(text.encode("utf-8"))
                f.flush()
            self._sync()
        except OSError:
            self._discard(tmp)
            raise
        self._replace(tmp, path)
        self._sync()
        self.allocated += 1

    def _replace(self, tmp, path):
        try:
            self._os.rename(tmp, path)
        except OSError:
            # filesystems whose rename will not replace a file
            self._os.remove(path)
            self._os.rename(tmp, path)

    def settle(self, path):
        """At boot, after a power cut inside write_atomic() or cut() of a file of lines (a
        record, the settings): a path.tmp beside path never replaced it and is removed; a
        path.tmp alone that ends its last line was flushed whole before the old file went
        (FAT replaces by remove, then rename) and becomes path; any other is removed."""
        tmp = path + TMP_SUFFIX
        if self.exists(tmp):
            if not self.exists(path) and self._read(tmp)[-1:] == b"\n":
                self.move(tmp, path)
            else:
                self.remove(tmp)

    def read_text(self, path, default=None):
        """Whole file as str, or default when it does not exist."""
        try:
            with self._open(path, "rb") as f:
                return f.read().decode("utf-8")
        except OSError:
            return default

    # -- history: finished games numbered 1, 2, ... ("000001.jsonl"), never listed whole --

    def ensure_dir(self, folder):
        """Make folder unless something by that name is there: one stat when it is (a
        failed mkdir and a stat cost a Pico's littlefs twice that)."""
        if not self.exists(folder):
            self._os.mkdir(folder)

    def history_numbers(self, folder):
        """(number, is_dir) of folder's history entries, one at a time (none when the folder
        is missing); is_dir is known only with os.ilistdir (else False)."""
        ilistdir = getattr(self._os, "ilistdir", None)
        try:
            entries = ilistdir(folder) if ilistdir is not None else self._os.listdir(folder)
        except OSError:
            return
        for e in entries:
            is_dir = False
            if ilistdir is not None:
                is_dir = e[1] & _DIR != 0
                e = e[0]
            n = history_number(e)
            if n is not None:
                yield n, is_dir

    def scan_history(self, folder, entries=4):
        """A piece of the listing history_span() answers from: up to `entries` entries of
        folder (a Pico's littlefs takes ~0.5-1.3 ms an entry), for an idle frame; True while
        more is left. Done, the span is kept: this Storage's own moves into the folder and
        removals from it keep it as a listing would find it, so a listing is made once
        (another folder asked starts it again). Never raises: a listing that fails is
        dropped, and history_span() meets the error."""
        try:
            return self._list(folder, entries)
        except OSError:
            return False

    def _list(self, folder, entries):
        h = self._span
        if not h or h[0] != folder:
            h = self._span = [folder, 0, 0, 0, self.history_numbers(folder), False]
        listing = h[4]
        if listing is not None:
            try:
                for n, is_dir in listing:
                    if n > h[3]:
                        h[3] = n
                    if not is_dir:
                        if not h[1] or n < h[2]:
                            h[2] = n
                        h[1] += 1
                    else:
                        h[5] = True
                    entries -= 1
                    if not entries:
                        return True
            except OSError:
                self._span = []  # (the next call lists from the start)
                raise
            h[4] = None
        return False

    def history_span(self, folder):
        """(count, oldest, newest) of the history files, (0, 0, 0) when there are none;
        newest also counts a folder named like a game (the next name must be free); after a
        rotation, oldest is where it stopped (no game is older). The listing not yet made
        ahead (scan_history) is finished here."""
        self._list(folder, 1 << 30)
        h = self._span
        return h[1], h[2], h[3]

    def next_in_history(self, folder):
        """The name the next game moved into folder takes (history_span)."""
        return history_name(self.history_span(folder)[2] + 1)

    def move_to_history(self, path, folder):
        """Move a finished record into folder under the next number; returns its name. A
        file by that name (the folder changed behind this Storage) has the folder listed
        again: nothing is overwritten. The folder is made when the move finds none (a stat
        before each move would cost a Pico's littlefs 1-2 ms)."""
        dst = folder + "/" + self.next_in_history(folder)
        if self.exists(dst):
            self._span = []
            dst = folder + "/" + self.next_in_history(folder)
        try:
            self.move(path, dst)
        except OSError:
            if self.exists(folder):
                raise
            self._os.mkdir(folder)
            self.move(path, dst)
        h = self._span
        h[1] += 1
        h[3] += 1
        if h[1] == 1:
            h[2] = h[3]
        return dst[len(folder) + 1:]

    def rotate_history(self, folder, keep):
        """Remove the oldest history files so that at most `keep` (at least 1) remain; the
        newest is never removed. Returns how many were removed. Files are removed by number
        upward from the oldest, so no listing is held; a number with no file is a gap, and a
        file that will not go stops counting. littlefs's remove takes an empty folder as it
        takes a file: where the listing met a folder named like a game, each number is stat'ed
        before its removal and a folder is kept (a stat costs a Pico's littlefs 1-2 ms; the
        common history pays none). Where there is no ilistdir to tell folders, remove refuses
        one (FAT, CPython)."""
        keep = max(1, keep)
        count, n, newest = self.history_span(folder)
        h = self._span
        look = h[5]
        removed = 0
        while count > keep and n < newest:
            path = folder + "/" + history_name(n)
            try:
                if not (look and self._os.stat(path)[0] & _DIR):
                    self._os.remove(path)
                    removed += 1
                    count -= 1
            except OSError as e:
                if e.args[0] != 2:  # not ENOENT: there, but not a game we can drop
                    count -= 1
                    h = self._span = []  # (the span no longer says what is there: listed again)
            n += 1
            if h:
                h[1] = count
                h[2] = n  # (a gap above is no game: the oldest is at n or above)
        if removed:
            self._sync()
        return removed
