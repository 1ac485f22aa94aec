"""Files on an I2C FRAM chip (Adafruit's I2C FRAM breakout: an MB85RC256V, 32 KB at 0x50),
behind the same calls as the board's own filesystem (open with modes "rb", "wb", "ab"; stat,
rename, remove, mkdir, listdir, ilistdir), so hal.storage.Storage runs on it unchanged:
Storage(fs.open, fs, remount=None).

FRAM writes a byte in place as the bus delivers it: no erase, no page, no delay. A power cut
stops between two bytes. Every change is written where nothing reads it yet, then made true
by one byte:
- a write to a file: its bytes past the file's committed length (into free blocks, linked
  in the block table past the file's end), then the new length into the length slot not in
  use, then the entry's slot byte turned to it;
- a change of the directory (a file made, renamed over another, removed; a folder made,
  renamed, removed): the whole directory written into its copy not in use (only the entries
  that differ from what that copy holds), then the directory's selector byte turned to it.
So after a cut every file is as its last finished write or change left it: a line appended
is there whole or not at all, and nothing else moves. Mounting reads the copy in use and
walks each file's blocks up to its length: the blocks no file reaches are free.

Layout (byte addresses on the chip):
  0..3   MAGIC, written last when formatting (a chip without it is formatted: blank)
  4      the directory copy in use (0 or 1)
  8..    the two directory copies, ENTRIES entries of ENTRY bytes each: kind (0 free, 1 file,
         2 folder), path (NAME bytes of UTF-8, NUL-padded, e.g. "data/history/000001.jsonl"),
         first block, length slot 0 and 1 (u16, little-endian), the slot in use
  then   the block table: each block's next block in its file
  then   the blocks, BLOCK bytes each
A 32 KB chip holds 238 blocks: 30,464 bytes of files.

The chip is a `memory` with size, read_into(at, buf) and write(at, data): I2CMemory on a
board, a bytearray's double in the tests.
"""
from hal.compat import const

MAGIC = b"AZF1"
ENTRIES = const(32)
ENTRY = const(32)
NAME = const(25)
BLOCK = const(128)
_DIR_AT = const(8)
_DIR_BYTES = const(1024)  # ENTRIES * ENTRY
_FIRST = const(26)  # an entry's first block; its length slots at 27 and 29, the slot in use at 31
_SLOT = const(31)
_NONE = const(255)
_FILE = const(1)
_FOLDER = const(2)
_S_IFDIR = const(0x4000)
_S_IFREG = const(0x8000)
_ENOENT = const(2)
_EIO = const(5)
_EEXIST = const(17)
_ENOTDIR = const(20)
_EISDIR = const(21)
_EINVAL = const(22)
_ENOSPC = const(28)
_ENAMETOOLONG = const(36)
_ENOTEMPTY = const(39)
# the chip's device ID (read at 0x7C): Fujitsu (0x00A), MB85RC256V (0x510): 32 KB
FUJITSU = const(0x00A)
CHIPS = {0x510: 32768}
_ID_ADDR = const(0x7C)
_CHUNK = const(64)  # data bytes an I2C write carries


class I2CMemory:
    """The FRAM's bytes over I2C (a machine.I2C, or a busio.I2C its owner holds locked):
    the chip checked by its device ID (OSError when nothing or another part answers)."""

    def __init__(self, i2c, addr=0x50):
        self.i2c = i2c
        self.addr = addr
        self.buf = bytearray(2 + _CHUNK)  # the address, then the data of a write
        self.view = memoryview(self.buf)
        self.read_after = getattr(i2c, "writeto_then_readfrom", None)  # (CircuitPython)
        ident = bytearray(3)
        self.buf[0] = addr << 1
        self._transfer(_ID_ADDR, self.view[:1], ident)
        maker, part = (ident[0] << 4) | (ident[1] >> 4), ((ident[1] & 15) << 8) | ident[2]
        if maker != FUJITSU or part not in CHIPS:
            raise OSError(_EIO, "no FRAM at 0x%02X: device ID %03X %03X" % (addr, maker, part))
        self.size = CHIPS[part]

    def _transfer(self, addr, out, into):
        """out written, then into read, with a repeated start between them."""
        if self.read_after is not None:
            self.read_after(addr, out, into)
        else:
            self.i2c.writeto(addr, out, False)
            self.i2c.readfrom_into(addr, into)

    def read_into(self, at, buf):
        self.buf[0] = at >> 8
        self.buf[1] = at & 255
        self._transfer(self.addr, self.view[:2], buf)

    def write(self, at, data):
        data = memoryview(data)
        done = 0
        while done < len(data):
            n = min(_CHUNK, len(data) - done)
            self.buf[0] = (at + done) >> 8
            self.buf[1] = (at + done) & 255
            self.buf[2:2 + n] = data[done:done + n]
            self.i2c.writeto(self.addr, self.view[:2 + n])
            done += n


def _error(n, path):
    return OSError(n, path)


def _parent(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else ""


class FramFS:
    """The files on `memory`, mounted (formatted when it is blank). OSError EIO when what it
    holds is no store this module wrote (nothing is changed then)."""

    def __init__(self, memory):
        self.mem = memory
        self.table = _DIR_AT + 2 * _DIR_BYTES
        self.blocks = min(_NONE, (memory.size - self.table) // (BLOCK + 1))
        self.data = self.table + self.blocks
        head = self._read(0, 5)
        if bytes(head[:4]) != MAGIC:
            self._format()
            head[4] = 0
        if head[4] > 1:
            raise OSError(_EIO, "FRAM store damaged: directory selector %d" % head[4])
        self.sel = head[4]
        self.image = self._read(_DIR_AT + self.sel * _DIR_BYTES, _DIR_BYTES)
        self.other = None  # the copy not in use as the chip holds it (None: not known, written whole)
        self.next = self._read(self.table, self.blocks)
        self.scratch = bytearray(2)
        self._index()

    # ---- the chip ----
    def _read(self, at, n):
        buf = bytearray(n)
        if n:
            self.mem.read_into(at, buf)
        return buf

    def _format(self):
        self.mem.write(_DIR_AT, bytes(_DIR_BYTES))
        self.mem.write(4, b"\x00")
        self.mem.write(0, MAGIC)

    def _at(self, i):
        """Where entry i of the directory copy in use is on the chip."""
        return _DIR_AT + self.sel * _DIR_BYTES + i * ENTRY

    # ---- entries ----
    def length(self, i):
        o = i * ENTRY
        s = o + 27 + 2 * self.image[o + _SLOT]
        return self.image[s] | (self.image[s + 1] << 8)

    def _chain(self, i, length=None):
        """The blocks of file i, as far as `length` (its own) reaches (one at least)."""
        b = self.image[i * ENTRY + _FIRST]
        n = (self.length(i) if length is None else length) + BLOCK - 1
        out = [b]
        for _ in range(n // BLOCK - 1):
            b = self.next[b]
            if b >= self.blocks:
                raise OSError(_EIO, "FRAM store damaged: a chain leaves the blocks")
            out.append(b)
        return out

    def _index(self):
        """The paths' entries and the blocks in use, from the directory in use; OSError EIO
        where it cannot be the store's."""
        where = {}
        used = bytearray(self.blocks)
        img = self.image
        for i in range(ENTRIES):
            o = i * ENTRY
            kind = img[o]
            if not kind:
                continue
            end = o + 1
            while end < o + 1 + NAME and img[end]:
                end += 1
            path = bytes(img[o + 1:end]).decode()
            if kind > _FOLDER or img[o + _SLOT] > 1 or path in where:
                raise OSError(_EIO, "FRAM store damaged: entry %d" % i)
            where[path] = i
            if kind == _FILE:
                if img[o + _FIRST] >= self.blocks:
                    raise OSError(_EIO, "FRAM store damaged: %s" % path)
                for b in self._chain(i):
                    if used[b]:
                        raise OSError(_EIO, "FRAM store damaged: %s shares a block" % path)
                    used[b] = 1
        self.where = where
        self.used = used

    def _find(self, path):
        """(path without a leading "/", its entry or None); OSError where a folder on its way
        is missing (ENOENT) or a file (ENOTDIR)."""
        path = path.strip("/")
        at = path.find("/")
        while at >= 0:
            i = self.where.get(path[:at])
            if i is None:
                raise _error(_ENOENT, path)
            if self.image[i * ENTRY] != _FOLDER:
                raise _error(_ENOTDIR, path)
            at = path.find("/", at + 1)
        return path, self.where.get(path)

    def _kind(self, i):
        return self.image[i * ENTRY] if i is not None else 0

    def _free_block(self):
        for b in range(self.blocks):
            if not self.used[b]:
                return b
        raise _error(_ENOSPC, "FRAM full")

    # ---- committing ----
    def _set_length(self, i, n):
        """File i's length n: written into its slot not in use, then that slot turned to."""
        o = i * ENTRY
        s = 1 - self.image[o + _SLOT]
        self.scratch[0] = n & 255
        self.scratch[1] = n >> 8
        self.mem.write(self._at(i) + 27 + 2 * s, self.scratch)
        self.image[o + 27 + 2 * s] = n & 255
        self.image[o + 28 + 2 * s] = n >> 8
        self.scratch[0] = s
        self.mem.write(self._at(i) + _SLOT, memoryview(self.scratch)[:1])
        self.image[o + _SLOT] = s

    def _commit(self, new):
        """Directory image `new` written into the copy not in use, then that copy turned to."""
        other = 1 - self.sel
        at = _DIR_AT + other * _DIR_BYTES
        if self.other is None:
            self.mem.write(at, new)
        else:
            for o in range(0, _DIR_BYTES, ENTRY):
                if new[o:o + ENTRY] != self.other[o:o + ENTRY]:
                    self.mem.write(at + o, memoryview(new)[o:o + ENTRY])
        self.scratch[0] = other
        self.mem.write(4, memoryview(self.scratch)[:1])
        self.other, self.image, self.sel = self.image, new, other
        self._index()

    def _entry(self, new, i, kind, path, first=_NONE):
        """Entry i of image `new` set to a new file or folder at path (length 0)."""
        name = path.encode()
        if len(name) > NAME:
            raise _error(_ENAMETOOLONG, path)
        o = i * ENTRY
        new[o:o + ENTRY] = bytes(ENTRY)
        new[o] = kind
        new[o + 1:o + 1 + len(name)] = name
        new[o + _FIRST] = first

    def _create(self, path, kind):
        """A new file (with a free block) or folder at path (whose folder _find found there)."""
        i = 0
        while i < ENTRIES and self.image[i * ENTRY]:
            i += 1
        if i == ENTRIES:
            raise _error(_ENOSPC, path)
        new = bytearray(self.image)
        self._entry(new, i, kind, path, self._free_block() if kind == _FILE else _NONE)
        self._commit(new)
        return i

    def _append(self, i, data):
        """data after file i's end: its blocks linked, its bytes written, its length committed."""
        n = len(data)
        if not n:
            return 0
        old = self.length(i)
        chain = self._chain(i)
        added = []
        try:
            while len(chain) * BLOCK < old + n:
                b = self._free_block()
                self.used[b] = 1
                added.append(b)
                self.scratch[0] = b
                self.mem.write(self.table + chain[-1], memoryview(self.scratch)[:1])  # past the file's end
                self.next[chain[-1]] = b
                chain.append(b)
            data = memoryview(data)
            pos, done = old, 0
            while done < n:
                off = pos % BLOCK
                k = min(BLOCK - off, n - done)
                self.mem.write(self.data + chain[pos // BLOCK] * BLOCK + off, data[done:done + k])
                pos += k
                done += k
        except Exception:
            for b in added:
                self.used[b] = 0
            raise
        self._set_length(i, old + n)
        return n

    def _shorten(self, i, n):
        if n < self.length(i):
            chain = self._chain(i)
            self._set_length(i, n)
            for b in chain[len(self._chain(i)):]:
                self.used[b] = 0

    # ---- the filesystem's calls ----
    def open(self, path, mode="rb"):
        path, i = self._find(path)
        if self._kind(i) == _FOLDER or not path:
            raise _error(_EISDIR, path)
        if "r" in mode:
            if i is None:
                raise _error(_ENOENT, path)
        elif i is None:
            i = self._create(path, _FILE)
        elif "w" in mode:
            self._shorten(i, 0)
        return FramFile(self, i)

    def stat(self, path):
        path, i = self._find(path)
        if path and i is None:
            raise _error(_ENOENT, path)
        if not path or self._kind(i) == _FOLDER:
            return (_S_IFDIR, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return (_S_IFREG, 0, 0, 0, 0, 0, self.length(i), 0, 0, 0)

    def ilistdir(self, path=""):
        """(name, type, 0, size) of each entry of folder path, in name order."""
        return self._listing(path)

    def _listing(self, path):
        path, i = self._find(path)
        if path and i is None:
            raise _error(_ENOENT, path)
        if path and self._kind(i) != _FOLDER:
            raise _error(_ENOTDIR, path)
        out = []
        for p, j in self.where.items():
            if _parent(p) == path:
                name = p[len(path) + 1:] if path else p
                folder = self._kind(j) == _FOLDER
                out.append((name, _S_IFDIR if folder else _S_IFREG, 0, 0 if folder else self.length(j)))
        out.sort()
        return out

    def listdir(self, path=""):
        return [e[0] for e in self._listing(path)]

    def mkdir(self, path):
        path, i = self._find(path)
        if i is not None or not path:
            raise _error(_EEXIST, path)
        self._create(path, _FOLDER)

    def _children(self, path):
        return [p for p in self.where if p.startswith(path + "/")]

    def remove(self, path):
        path, i = self._find(path)
        if i is None:
            raise _error(_ENOENT, path)
        if self._children(path):
            raise _error(_ENOTEMPTY, path)
        new = bytearray(self.image)
        new[i * ENTRY:(i + 1) * ENTRY] = bytes(ENTRY)
        self._commit(new)

    def rename(self, src, dst):
        """src renamed dst in one directory change: a file over a file, a folder (and what is
        in it) over an empty folder, as littlefs does."""
        src, i = self._find(src)
        dst, j = self._find(dst)
        if i is None:
            raise _error(_ENOENT, src)
        if src == dst:
            return
        folder = self._kind(i) == _FOLDER
        if j is not None:
            if self._kind(j) == _FOLDER and not folder:
                raise _error(_EISDIR, dst)
            if self._kind(j) != _FOLDER and folder:
                raise _error(_ENOTDIR, dst)
            if folder and self._children(dst):
                raise _error(_ENOTEMPTY, dst)
        if folder and dst.startswith(src + "/"):
            raise _error(_EINVAL, dst)
        new = bytearray(self.image)
        if j is not None:
            new[j * ENTRY:(j + 1) * ENTRY] = bytes(ENTRY)
        moved = [src] + (self._children(src) if folder else [])
        for p in moved:
            k = self.where[p]
            o = k * ENTRY
            keep = bytes(new[o + _FIRST:o + ENTRY])
            self._entry(new, k, new[o], dst + p[len(src):])
            new[o + _FIRST:o + ENTRY] = keep
        self._commit(new)

    def free(self):
        """Bytes of blocks no file holds (a file takes a block at least)."""
        return (self.blocks - sum(self.used)) * BLOCK


class FramFile:
    """An open file: reads from its position, writes at its end, each write committed."""

    def __init__(self, fs, i):
        self.fs = fs
        self.i = i
        self.pos = 0

    def read(self, n=-1):
        fs = self.fs
        length = fs.length(self.i)
        n = length - self.pos if n < 0 else max(0, min(n, length - self.pos))
        out = bytearray(n)
        if n:
            chain = fs._chain(self.i)
            view = memoryview(out)
            done = 0
            while done < n:
                off = self.pos % BLOCK
                k = min(BLOCK - off, n - done)
                fs.mem.read_into(fs.data + chain[self.pos // BLOCK] * BLOCK + off, view[done:done + k])
                self.pos += k
                done += k
        return bytes(out)

    def write(self, data):
        return self.fs._append(self.i, data)

    def seek(self, offset, whence=0):
        self.pos = offset + (self.fs.length(self.i) if whence == 2 else self.pos if whence == 1 else 0)
        return self.pos

    def tell(self):
        return self.pos

    def truncate(self, n=None):
        self.fs._shorten(self.i, self.pos if n is None else n)

    def flush(self):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass
