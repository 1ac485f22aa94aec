"""MemFS, the tests' flash, does what littlefs, the Pico's, does: the same operations
(tests/fs_cases.py) on both give the same value or errno and leave the same files.

A fake kinder than the board hides a write-path bug (a folder never made works in a test,
fails on a board). littlefs here is MicroPython's VfsLfs2 on the unix port (tests/mp.py),
mounted on a RAM block device; MemFS is host_tools.vhal's.
"""
import json

import fs_cases
import mp
from host_tools.vhal import MemFS

SCRIPT = r"""
import sys, os, vfs, json
sys.path.insert(0, ROOT + "/tests")
from mp_blocks import RamBlocks
import fs_cases

class Lfs:
    pass

def fresh():
    os.chdir("/")
    try:
        vfs.umount("/f")
    except OSError:
        pass
    bd = RamBlocks(16, 512, b"\xff" * (16 * 512), None)  # fs_cases.FLASH bytes
    vfs.VfsLfs2.mkfs(bd)
    vfs.mount(vfs.VfsLfs2(bd), "/f")
    os.chdir("/f")
    o = Lfs()
    o.open, o.rename, o.remove, o.mkdir, o.listdir, o.stat = open, os.rename, os.remove, os.mkdir, os.listdir, os.stat
    o.ilistdir = os.ilistdir
    for path, data in fs_cases.START:
        o.mkdir(path) if data is None else fs_cases.write(o, path, data)
    return o

print(json.dumps(fs_cases.outcomes(fresh)))
"""


def memfs():
    fs = MemFS(size=fs_cases.FLASH)
    for path, data in fs_cases.START:
        fs.mkdir(path) if data is None else fs_cases.write(fs, path, data)
    return fs


def test_memfs_fails_where_littlefs_fails_with_the_same_errno():
    r = mp.run(["-c", "ROOT = %r\n" % mp.ROOT + SCRIPT])
    assert r.returncode == 0, r.stderr + r.stdout
    littlefs = json.loads(r.stdout)
    ours = json.loads(json.dumps(fs_cases.outcomes(memfs)))
    assert [c[0] for c in ours] == [c[0] for c in littlefs] == [name for name, _ in fs_cases.CASES]
    differ = ["%s: littlefs %s, MemFS %s" % (a[0], a[1:], b[1:]) for a, b in zip(littlefs, ours) if a != b]
    assert not differ, "\n".join(differ)
