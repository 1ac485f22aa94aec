"""A line's place in the record, read off the open file: never a line cut in the wrong place
or glued onto a torn tail.

Storage.append_line learns a file's length from the file it opened to append (a seek to its
end; a stat where the file has no seek, as in the page's storage). tests/append_cases.py
appends around real faults and other writers and checks every byte: here on CPython over real
files (tests/fault_files.py: a write that stores half its bytes and raises ENOSPC, or a flash
that stays full so that a cut by copy is refused too), with and without seek() and truncate();
and on the MicroPython unix port over littlefs and FAT filled until they refuse, and over
its own files with a write that fails halfway.
"""
import os

import pytest

import mp
from append_cases import cases
from fault_files import Flash
from hal.storage import Storage


class Fault:
    """on(): the next line's write fails, halfway (`half`) or on a flash that stays full."""

    def __init__(self, flash, half):
        self.flash, self.half = flash, half

    def on(self):
        if self.half:
            self.flash.fail = 1
        else:
            self.flash.full = True

    def off(self):
        self.flash.fail = 0
        self.flash.full = False


@pytest.mark.parametrize("seek", [True, False], ids=["seek", "stat"])
@pytest.mark.parametrize("truncate", [True, False], ids=["truncate", "copy"])
@pytest.mark.parametrize("half", [True, False], ids=["half-write", "full"])
def test_every_append_starts_at_the_end_of_the_last_good_line(tmp_path, monkeypatch, seek, truncate, half):
    monkeypatch.chdir(tmp_path)
    flash = Flash(truncate, seek)
    cases(Storage(flash.open, os), "rec.jsonl", Fault(flash, half), Storage())
    assert sorted(os.listdir(tmp_path)) == []  # no copy or record left behind


SCRIPT = r"""
import sys, os, vfs
sys.path.insert(0, ROOT + "/firmware")
sys.path.insert(0, ROOT + "/tests")
from mp_blocks import RamBlocks
from fault_files import Flash, fill
from hal.storage import Storage
from append_cases import cases


class Filled:
    # on(): the flash filled until it refuses a byte; off(): the room given back
    def on(self):
        fill("filler")

    def off(self):
        try:
            os.remove("filler")
        except OSError:
            pass


class HalfWrite:
    def __init__(self, flash):
        self.flash = flash

    def on(self):
        self.flash.fail = 1

    def off(self):
        self.flash.fail = 0


for name, kind, blocks in (("littlefs", vfs.VfsLfs2, 64), ("fat", vfs.VfsFat, 128)):
    bd = RamBlocks(blocks, 512, b"\xff" * (blocks * 512), None)
    kind.mkfs(bd)
    vfs.mount(kind(bd), "/flash")
    os.chdir("/flash")
    cases(Storage(), "rec.jsonl", Filled(), Storage())
    print("OK", name, sorted(os.listdir()))
    os.chdir("/")
    vfs.umount("/flash")
os.chdir(TMP)
flash = Flash(truncate=False, seek=True)
with open("probe", "wb") as f:
    assert hasattr(f, "seek") and not hasattr(f, "truncate")
os.remove("probe")
cases(Storage(flash.open, os), "rec.jsonl", HalfWrite(flash), Storage())
print("OK files", sorted(os.listdir()))
"""


def test_every_append_starts_at_the_end_of_the_last_good_line_on_micropython(tmp_path):
    """littlefs drops a failed write whole; FAT keeps what fit in the file's last cluster and
    has no room to copy it away until the flash has room again; the unix port's files have a
    seek() and no truncate(), so a half-written line is cut by a copy."""
    script = tmp_path / "append.py"
    (tmp_path / "files").mkdir()
    script.write_text("ROOT = %r\nTMP = %r\n" % (mp.ROOT, str(tmp_path / "files")) + SCRIPT)
    r = mp.run([str(script)], heap="512K")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert r.stdout.split("\n")[:3] == ["OK littlefs []", "OK fat []", "OK files []"], r.stdout
