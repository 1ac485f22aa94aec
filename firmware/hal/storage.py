"""Files on the board's flash: whole lines appended, files replaced atomically, renamed,
removed, read a piece at a time and listed. What the files mean is app.keeper's.

Power may fail at any byte and the flash may fill up. The rules that make that safe:
- a file of lines only grows, one whole line per append_line() call, flushed (and
  os.sync'ed where the runtime has it) before it returns. A write that fails (flash full,
  I/O error) is cut back to where its line began before the error is raised, so the file
  ends on a complete line; if even that cut fails, the next append_line() to the file
  retries it and refuses while it cannot. A power cut leaves at most one torn last line;
- write_atomic() writes path + ".tmp" and renames it over path, so a reader sees the old or
  the new text, never a mix (rename is atomic on littlefs; FAT replaces a file by removing
  it, then renaming, and settle() finishes that at the next boot).
A file is shortened with its truncate() where it has one (CPython); MicroPython's files have
none, so there the kept bytes are copied to path + ".tmp", which is renamed over path.

Used: open(path, mode) with modes "rb", "wb", "ab" and the file's read(), write, flush,
close (and seek and truncate when present); os.stat, rename, remove, mkdir, ilistdir or
listdir, and sync when present. Storage(fs_open, fs_os) lets tests and other front ends inject them
(hal.fram_fs's FramFS is such a pair: the files on an I2C FRAM chip).
"""
import os

TMP_SUFFIX = ".tmp"
_DIR = 0x4000  # the directory bit of a stat / ilistdir mode
WARM_BYTES = 1024  # warm(): more than littlefs stores inline, so a block is allocated
# refresh(): the blocks allocated since littlefs last walked the flash before the next walk is
# taken in an idle frame (a line appended allocates one): fewer than a walk finds free (with
# lfs_remount's lookahead, every free block) while 512 KB of the flash are free
REFRESH_BLOCKS = 128


def lfs_remount():
    """Mount the board's littlefs at "/" again, as rp2's _boot.py mounts it but for two
    settings: a lookahead over every block of the flash (so that a walk finds all the free
    blocks, not those among 256), and reads of 256 bytes instead of 32 (littlefs reads its
    logs backwards a read at a time: walks and listings a third cheaper; the same buffers: a
    cache of 4 reads or 4 writes, whichever is larger). A mount starts with an empty
    lookahead: the next block allocated walks the flash (warm). False where there is no such
    board or mount (nothing changed); OSError where the new mount fails (the old one stays)."""
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


class Storage:
    def __init__(self, fs_open=open, fs_os=os, remount=lfs_remount, warm_bytes=WARM_BYTES, cut_safe=True):
        self._open = fs_open
        self._os = fs_os
        self._remount = remount  # None where it found nothing to mount again (refresh)
        self.warm_bytes = warm_bytes  # 0: a store whose allocator never walks it (hal.fram_fs)
        # False: a power cut while it saves can take more than the line being written (a
        # CircuitPython FAT drive: docs/reliability.md); the keeper says so at power-on
        self.cut_safe = cut_safe
        self.allocated = 0  # blocks allocated since littlefs last walked the flash (refresh)
        self._torn = {}  # path -> length its file must be cut back to before the next append

    def _sync(self):
        sync = getattr(self._os, "sync", None)
        if sync is not None:
            sync()

    def warm(self, path):
        """Write a 1 KB file and remove it, right after a mount (boot, refresh()): littlefs
        fills its block allocator's lookahead by walking the whole filesystem at the first
        block it allocates after a mount (a cost that grows with the files on it), which
        would otherwise fall on the first press that writes a line. (A smaller file is stored
        inline and allocates no block.) A flash too full for it is left as it is."""
        if not self.warm_bytes:
            return
        try:
            with self._open(path, "wb") as f:
                f.write(bytes(self.warm_bytes))
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
        free in it (lfs_remount's: every free block), and the block allocated then, a press's
        line, waits for the next walk. Once REFRESH_BLOCKS were allocated since the last walk:
        the filesystem mounted again and warm(path), whose block takes the walk, in one piece
        (a press between the two would take it). False: nothing is left."""
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

    def rename(self, src, dst):
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
                # CPython, where a stat reads the flash; a file with no seek (the page's) stats
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

    def read(self, path, at=0, size=-1):
        """Up to `size` bytes of path from byte `at` (all of them: -1; b"" past its end): a
        file read a piece at a time, not held open between pieces. OSError when it is
        missing or unreadable."""
        with self._open(path, "rb") as f:
            seek = getattr(f, "seek", None)
            if seek is None:  # (the web page's files, the test doubles) read whole
                data = f.read()
                return data[at:] if size < 0 else data[at:at + size]
            if at:
                seek(at)
            return f.read() if size < 0 else f.read(size)

    def write_atomic(self, path, data):
        """Replace path's content with `data` (a str, bytes, or an iterable of either, written
        a piece at a time): write path.tmp, flush, rename over path."""
        tmp = path + TMP_SUFFIX
        try:
            with self._open(tmp, "wb") as f:
                for piece in ((data,) if type(data) in (str, bytes, bytearray) else data):
                    f.write(piece.encode("utf-8") if type(piece) is str else piece)
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
            if not self.exists(path) and self.size(tmp) and self.read(tmp, self.size(tmp) - 1)[-1:] == b"\n":
                self.rename(tmp, path)
            else:
                self.remove(tmp)

    def ensure_dir(self, folder):
        """Make folder unless something by that name is there: one stat when it is (a
        failed mkdir and a stat cost a Pico's littlefs twice that)."""
        if not self.exists(folder):
            self._os.mkdir(folder)

    def entries(self, folder):
        """(name, is_dir) of each entry of folder, one at a time, in one pass (none when the
        folder is missing): os.ilistdir where the runtime has it (MicroPython), else
        os.listdir and a stat an entry."""
        ilistdir = getattr(self._os, "ilistdir", None)
        try:
            listing = ilistdir(folder) if ilistdir is not None else self._os.listdir(folder)
        except OSError:
            return
        for e in listing:
            if ilistdir is not None:
                yield e[0], e[1] & _DIR != 0
            else:
                try:
                    is_dir = self._os.stat(folder + "/" + e)[0] & _DIR != 0
                except OSError:
                    continue  # (gone since the listing)
                yield e, is_dir
