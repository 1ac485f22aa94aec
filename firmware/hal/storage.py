"""Storage on the board's flash: an append-only record, atomic settings, a history folder.

Power may fail at any byte. The rules that make that safe:
- the record only grows, one whole line per append_line() call, flushed (and os.sync'ed
  where the runtime has it) before it returns; a cut leaves at most one torn last line,
  which read_lines() drops and recover_lines() also cuts off the file before new appends;
- settings are written to path + ".tmp" and renamed over path, so a reader sees the old
  or the new text, never a mix (rename is atomic on littlefs; on FAT a failed rename is
  retried after removing the old file, which leaves a short window with no file).
Only open() and os.rename/remove/listdir/stat/mkdir/sync are used (all on MicroPython).

Storage(fs_open, fs_os) lets tests inject a filesystem that fails mid-write; the module
functions use the real open() and os.
"""
import os

TMP_SUFFIX = ".tmp"
HISTORY_EXT = ".jsonl"


class Storage:
    def __init__(self, fs_open=open, fs_os=os):
        self._open = fs_open
        self._os = fs_os

    def _sync(self):
        sync = getattr(self._os, "sync", None)
        if sync is not None:
            sync()

    def exists(self, path):
        try:
            self._os.stat(path)
            return True
        except OSError:
            return False

    def append_line(self, path, text):
        """Append text + "\\n" as one write and flush it: one event per call."""
        if "\n" in text:
            raise ValueError("append_line(%r): text holds a newline, a record line must not" % path)
        with self._open(path, "ab") as f:
            f.write((text + "\n").encode("utf-8"))
            f.flush()
        self._sync()

    def read_lines(self, path):
        """(complete lines without "\\n", torn) ; torn is True when a final partial line was dropped.

        A missing file reads as ([], False).
        """
        try:
            with self._open(path, "rb") as f:
                data = f.read()
        except OSError:
            return [], False
        parts = data.split(b"\n")
        torn = len(parts[-1]) > 0  # text after the last "\n" never got its end
        return [p.decode("utf-8") for p in parts[:-1]], torn

    def recover_lines(self, path):
        """read_lines(), and if the last line was torn, rewrite the file without it
        (atomically) so the next append starts on a fresh line."""
        lines, torn = self.read_lines(path)
        if torn:
            self.write_atomic(path, "".join(line + "\n" for line in lines))
        return lines, torn

    def write_atomic(self, path, text):
        """Replace path's content with text: write path.tmp, flush, rename over path."""
        tmp = path + TMP_SUFFIX
        with self._open(tmp, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
        self._sync()
        try:
            self._os.rename(tmp, path)
        except OSError:
            # filesystems whose rename will not replace a file
            self._os.remove(path)
            self._os.rename(tmp, path)
        self._sync()

    def read_text(self, path, default=None):
        """Whole file as str, or default when it does not exist."""
        try:
            with self._open(path, "rb") as f:
                return f.read().decode("utf-8")
        except OSError:
            return default

    # -- history: finished games, oldest first by name --------------------------------

    def ensure_dir(self, folder):
        try:
            self._os.mkdir(folder)
        except OSError:
            if not self.exists(folder):
                raise

    def list_history(self, folder):
        """History file names (not paths), oldest first; [] when the folder is missing."""
        try:
            names = self._os.listdir(folder)
        except OSError:
            return []
        return sorted(n for n in names if n.endswith(HISTORY_EXT))

    def next_history_name(self, folder):
        """Next zero-padded sequence name ("000007.jsonl"): boards have no clock to date files."""
        last = 0
        for name in self.list_history(folder):
            stem = name[:-len(HISTORY_EXT)]
            if stem.isdigit():
                last = max(last, int(stem))
        return "%06d%s" % (last + 1, HISTORY_EXT)

    def move_to_history(self, path, folder, keep=None):
        """Move a finished record into folder under the next name; returns that name.
        With keep, the oldest files beyond keep are removed afterwards."""
        self.ensure_dir(folder)
        name = self.next_history_name(folder)
        self._os.rename(path, folder + "/" + name)
        self._sync()
        if keep is not None:
            self.rotate_history(folder, keep)
        return name

    def rotate_history(self, folder, keep):
        """Remove the oldest history files so at most keep remain; returns removed names."""
        names = self.list_history(folder)
        removed = names[:max(0, len(names) - keep)]
        for name in removed:
            self._os.remove(folder + "/" + name)
        if removed:
            self._sync()
        return removed


_default = Storage()
exists = _default.exists
append_line = _default.append_line
read_lines = _default.read_lines
recover_lines = _default.recover_lines
write_atomic = _default.write_atomic
read_text = _default.read_text
ensure_dir = _default.ensure_dir
list_history = _default.list_history
next_history_name = _default.next_history_name
move_to_history = _default.move_to_history
rotate_history = _default.rotate_history
