"""The storage layer on MicroPython's own flash filesystems, cut at every block write.

tests/mp.py runs the unix port; the script below mounts VfsLfs2 (the Pico's filesystem) and
VfsFat on a RAM block device that raises at its k-th block write or erase, for every k of a
game's writes (settings, header, events, settings again). The blocks written before the cut
are mounted again as a fresh filesystem: the record must replay to a prefix of the game that
holds every line whose append_line() returned (the line being written may be there too),
settings must read old or new, and the rest of the game appended after the reboot must give
the whole record. littlefs promises all of that; FAT does not (docs/reliability.md), so for
FAT the counts are reported and only what FAT guarantees is asserted.
"""
import json
import os

import mp

RECORD = "tests/oracles/azul-random-games/azul_2p_5000.jsonl"

SCRIPT = r"""
import sys, os, vfs, json
sys.path.insert(0, ROOT + "/firmware")
sys.path.insert(0, ROOT)
sys.path.insert(0, ROOT + "/tests")
from mp_blocks import RamBlocks, Cut
from hal.storage import Storage
from rules_core.record import dumps
from rules_core.session import replay
from files import read_lines, read_text, recover_lines

KIND = {"lfs": vfs.VfsLfs2, "fat": vfs.VfsFat}[FS]
COUNT, SIZE = (64, 512) if FS == "lfs" else (256, 512)
with open(ROOT + "/" + RECORD) as f:
    LINES = f.read().splitlines()
OLD = '{"brightness": 2, "name": "old"}\n'
NEW = '{"brightness": 5, "name": "new settings"}\n'
MID = 8  # settings are saved again after this many record lines

def blank():
    bd = RamBlocks(COUNT, SIZE, b"\xff" * (COUNT * SIZE), None)
    KIND.mkfs(bd)
    return bytes(bd.data)

def mount(bd):
    fs = KIND(bd)
    vfs.mount(fs, "/f")
    return Storage(open, os)

def unmount():
    try:
        vfs.umount("/f")
    except Exception:
        pass

CUR, SET = "/f/data/current.jsonl", "/f/data/settings.json"

def sequence(st, done):
    # the device's writes for one game; done[0] counts calls that returned
    st.ensure_dir("/f/data")
    st.write_atomic(SET, OLD); done[0] += 1
    st.write_atomic(CUR, LINES[0] + "\n"); done[0] += 1
    for i in range(1, len(LINES)):
        st.append_line(CUR, LINES[i]); done[0] += 1
        if i == MID:
            st.write_atomic(SET, NEW); done[0] += 1

def lines_done(calls):
    # record lines on flash once `calls` calls returned (call 0 is the first settings write)
    n = calls - 1
    if n > MID:
        n -= 1
    return max(0, min(n, len(LINES)))

EXPECT = {}
def expect(n):
    if n not in EXPECT:
        EXPECT[n] = dumps(replay("".join(l + "\n" for l in LINES[:n]))[0].result())
    return EXPECT[n]

image = blank()
bd = RamBlocks(COUNT, SIZE, image, None)
st = mount(bd)
done = [0]
sequence(st, done)
unmount()
TOTAL = bd.ops
stats = {"fs": FS, "block_ops": TOTAL, "cuts": 0, "resumed_ok": 0, "mount_failed": 0,
         "not_a_prefix": 0, "lost_returned_line": 0, "settings_old": 0, "settings_new": 0,
         "settings_missing": 0, "settings_other": 0, "finish_failed": 0, "examples": []}
full = expect(len(LINES))
for k in range(TOTAL):
    stats["cuts"] += 1
    bd = RamBlocks(COUNT, SIZE, image, k)
    done = [0]
    try:
        st = mount(bd)
        sequence(st, done)
    except Cut:
        pass
    unmount()
    after = RamBlocks(COUNT, SIZE, bd.data, None)  # power on: only the persisted blocks
    try:
        st = mount(after)
    except Exception as e:
        stats["mount_failed"] += 1
        stats["examples"].append([k, "mount", repr(e)])
        continue
    problem = None
    try:
        st.settle(CUR)  # as the App's boot does: finish or drop an interrupted replace
        st.settle(SET)
        got = recover_lines(st, CUR)[0] if st.exists(CUR) else []
        must = lines_done(done[0])
        if got != LINES[:len(got)]:
            problem = "not_a_prefix"
        elif len(got) < must:
            problem = "lost_returned_line"
        elif got and dumps(replay("".join(l + "\n" for l in got))[0].result()) != expect(len(got)):
            problem = "not_a_prefix"
        settings = read_text(st, SET)
        key = {OLD: "settings_old", NEW: "settings_new", None: "settings_missing"}.get(settings, "settings_other")
        if done[0] == 0 and settings is None:
            key = "settings_old"  # the first settings write never returned: nothing is the old state
        stats[key] += 1
        if problem is None:
            stats["resumed_ok"] += 1
            if not got:
                st.ensure_dir("/f/data")
                st.write_atomic(CUR, LINES[0] + "\n")
                got = LINES[:1]
            for l in LINES[len(got):]:
                st.append_line(CUR, l)
            final = read_lines(st, CUR)[0]
            if final != LINES or dumps(replay("".join(l + "\n" for l in final))[0].result()) != full:
                stats["finish_failed"] += 1
                stats["examples"].append([k, "finish", len(final)])
        else:
            stats[problem] += 1
            stats["examples"].append([k, problem, len(got), must])
    except Exception as e:
        stats["finish_failed"] += 1
        stats["examples"].append([k, "error", repr(e)])
    unmount()
stats["examples"] = stats["examples"][:8]
print(json.dumps(stats))
"""


def run_fs(fs, tmp_path):
    script = tmp_path / ("vfs_%s.py" % fs)
    script.write_text("ROOT = %r\nFS = %r\nRECORD = %r\n" % (mp.ROOT, fs, RECORD) + SCRIPT)
    r = mp.run([str(script)], heap="2M")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    stats = json.loads(r.stdout.strip().splitlines()[-1])
    print(json.dumps(stats))
    return stats


def test_littlefs_keeps_every_returned_line_and_old_or_new_settings_at_every_block_write(tmp_path):
    s = run_fs("lfs", tmp_path)
    assert s["cuts"] == s["block_ops"] > 50
    assert s["resumed_ok"] == s["cuts"], s["examples"]
    assert s["mount_failed"] == s["not_a_prefix"] == s["lost_returned_line"] == s["finish_failed"] == 0
    assert s["settings_missing"] == s["settings_other"] == 0
    assert s["settings_old"] > 0 and s["settings_new"] > 0


def test_fat_cut_at_every_block_write_counts(tmp_path):
    """FAT guarantees no atomic rename and no ordering of FAT, data and directory entry: only
    what it does promise is asserted (the volume mounts, the record read back is a prefix of
    what was written); lost lines and missing settings are counted in docs/reliability.md."""
    s = run_fs("fat", tmp_path)
    assert s["cuts"] == s["block_ops"] > 50
    assert s["mount_failed"] == 0 and s["not_a_prefix"] == 0, s["examples"]
    assert s["settings_other"] == 0  # a mix of old and new settings text is never read
