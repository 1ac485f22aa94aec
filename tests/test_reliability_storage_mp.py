"""Storage faults through the real App on the MicroPython unix port, from .mpy files as on a board.

Real faults: littlefs and FAT mounted on a RAM block device and filled until they refuse
(littlefs drops a failed write whole; FAT stores what fits in the file's last cluster and
tears the line), a file object whose write stores half its bytes and raises ENOSPC
(tests/fault_files.py; unix port files have no truncate(), so the torn half is cut by a copy), records and settings that
do not read, a history folder that is a file, and 1,000 finished games at a 192 KB heap.
The same faults on CPython: test_reliability_storage.py.
"""
import json
import os
import shutil

import mp
import mp_app
from test_reliability_storage import ARCHIVE_FAULTS, HEADER, finished_record, put_files
from rules_core.record import dumps
from rules_core.session import replay

SCRIPT = r"""
import sys, os, json, vfs
sys.path.insert(0, ROOT)
sys.path.insert(0, TESTS)
from drive import build  # tests/mp_app.py's driver: the App as main.py builds it
from mp_blocks import RamBlocks
from fault_files import Flash, fill, read
from hal.storage import Storage
from hal.keys import DOWN, RIGHT, OK, BACK, LONG
from rules_core.record import dumps
from rules_core.session import replay


class Device:
    def __init__(self, storage=None):
        self.app, self.clock = build("pico", storage)

    def press(self, k, n=1):
        for _ in range(n):
            self.clock.now += 100
            self.app.step(self.clock.now, k)

    def wait(self):
        self.clock.now += 2000
        self.app.step(self.clock.now, None)

    def choose(self, prefix):
        rows = self.app.screen.rows()
        for i in range(len(rows)):
            if rows[i].startswith(prefix):
                self.press(DOWN, (i - self.app.screen.cursor) % len(rows))
                self.press(OK)
                return
        raise AssertionError("%s not in %s" % (prefix, rows))

    def new_game(self):
        for label in ("New game", "Azul", "coloured", "2 players", "Red", "Blue", "Red"):
            self.choose(label)

    def red_wall(self):
        # Red's wall form, row 1 blue (1 point), the cursor on the save row
        self.press(OK)
        self.choose("Wall Red")
        form = self.app.screen
        while form.fields[0].value() != "blue":
            self.press(RIGHT)
        self.press(DOWN, len(form.fields) - form.cursor)
        return form

    def state(self):
        a = self.app
        s = a.session
        return {"screen": type(a.screen).__name__, "text": a.text(),
                "scores": list(s.scores) if s else None, "undo": s.can_undo() if s else None}


def scores_of(data):
    return list(replay(data.decode())[0].scores)


def mounted(kind, blocks):
    bd = RamBlocks(blocks, 512, b"\xff" * (blocks * 512), None)
    kind.mkfs(bd)
    vfs.mount(kind(bd), "/flash")
    os.chdir("/flash")


def unmount():
    os.chdir("/")
    vfs.umount("/flash")


def full_flash(kind, blocks):
    # a game on a flash that fills up: the wall entry is refused with "not saved", the
    # record on flash keeps every accepted line; a reboot on the full flash resumes; once
    # a file is removed the same entry is saved
    out = {}
    mounted(kind, blocks)
    d = Device()
    d.new_game()
    if kind is vfs.VfsFat:
        # end the record 20 bytes before a cluster boundary: the wall's line must tear
        size = os.stat("data/current.jsonl")[6]
        base = len(dumps({"e": "note", "text": ""})) + 1
        Storage().append_line("data/current.jsonl", dumps({"e": "note", "text": "x" * ((492 - size - base) % 512)}))
        d = Device()
    before = read("data/current.jsonl")
    form = d.red_wall()
    values = form.values()
    fill("filler")
    d.press(OK)
    out["refused"] = d.state()
    out["form_kept"] = d.app.screen is form and form.values() == values
    out["after_refusal"] = read("data/current.jsonl")
    d.wait()
    d.press(OK)
    out["refused_again"] = d.state()
    out["after_second"] = read("data/current.jsonl")
    d2 = Device()  # power on again, the flash still full
    out["rebooted"] = d2.state()
    os.remove("filler")
    d2.red_wall()
    d2.press(OK)
    out["saved"] = d2.state()
    data = read("data/current.jsonl")
    out["grew_by_one_line"] = data.startswith(before) and data[len(before):].count(b"\n") == 1
    out["replayed"] = scores_of(data)
    out["before"] = before
    unmount()
    return out


def half_write(folder):
    os.chdir(folder)
    flash = Flash(truncate=False)
    d = Device(Storage(flash.open, os))
    d.new_game()
    before = read("data/current.jsonl")
    form = d.red_wall()
    flash.fail = 1  # the line's write stores half and raises ENOSPC; the copy that cuts it works
    d.press(OK)
    out = {"refused": d.state(), "form_kept": d.app.screen is form,
           "after": read("data/current.jsonl"), "before": before}
    with open("data/current.jsonl", "rb") as f:
        out["truncate"] = hasattr(f, "truncate")
    d.press(OK)
    out["saved"] = d.state()
    out["replayed"] = scores_of(read("data/current.jsonl"))
    return out


def boot(folder):
    # a flash prepared by the host: what a boot shows and leaves
    os.chdir(folder)
    d = Device()
    out = d.state()
    out["settings"] = d.app.settings
    out["files"] = sorted(os.listdir("data"))
    out["log"] = (read("data/errors.log") or b"").decode().splitlines()
    for name in out["files"]:
        if name.startswith("damaged-"):
            out[name] = read("data/" + name)
    d.press(DOWN)
    out["after_key"] = d.state()
    if d.app.session is not None and d.app.session.finished:
        d.press(OK)  # leave the final standings: the game is filed
        out["filed"] = d.state()
        out["files_after"] = sorted(os.listdir("data"))
        d.app.prepare()  # the idle frame that moves it into the history
        d.press(None)
        out["moved"] = d.state()
        out["files_moved"] = sorted(os.listdir("data"))
        try:
            out["history"] = sorted(os.listdir("data/history"))
        except OSError:
            out["history"] = None
        d.press(BACK | LONG)  # undo with no game: refused, and no record appears
        out["undo"] = d.state()
        out["current_after_undo"] = read("data/current.jsonl")
    if out.get("history"):
        d.choose("History")
        rows = d.app.screen.rows()
        out["history_rows"] = rows
        for i in range(len(d.app.screen.numbers)):
            d.press(OK)
            d.press(OK)  # its menu's first item: Standings
            out.setdefault("opened", []).append(d.state())
            if type(d.app.screen).__name__ == "Final":
                d.press(BACK)
            d.press(BACK)
            d.press(DOWN)
    return out


results = {}
for name in CASES:
    if name == "lfs":
        results[name] = full_flash(vfs.VfsLfs2, 64)
    elif name == "fat":
        results[name] = full_flash(vfs.VfsFat, 128)
    elif name == "half":
        results[name] = half_write(TMP + "/half")
    else:
        results[name] = boot(TMP + "/" + name)
import binascii
for r in results.values():
    for k in r:
        if type(r[k]) is bytes:
            r[k] = {"hex": binascii.hexlify(r[k]).decode()}
print("RESULT " + json.dumps(results))
"""


def run(cases, tmp_path, heap="2M"):
    root = mp_app.stage("pico")
    script = tmp_path / "faults.py"
    script.write_text("ROOT = %r\nTESTS = %r\nTMP = %r\nCASES = %r\n" % (root, os.path.dirname(__file__), str(tmp_path), cases) + SCRIPT)
    r = mp.run([str(script)], heap=heap)
    lines = [l for l in r.stdout.splitlines() if l.startswith("RESULT ")]
    assert r.returncode == 0 and lines, r.stdout[-3000:] + r.stderr[-3000:]
    out = json.loads(lines[-1][len("RESULT "):])
    for case in out.values():  # file contents travel as hex: back to bytes
        for k, v in case.items():
            if isinstance(v, dict) and set(v) == {"hex"}:
                case[k] = bytes.fromhex(v["hex"])
    return out


# ---- 1. a failed write is never shown as entered -------------------------------------------
def test_full_littlefs_refuses_the_entry_and_keeps_the_record(tmp_path):
    r = run(["lfs"], tmp_path)["lfs"]
    assert r["refused"]["screen"] == "WallForm" and r["form_kept"]
    assert r["refused"]["text"][-2:] == ["not saved:", "storage full"]
    assert r["refused"]["scores"] == [0, 0] and not r["refused"]["undo"]
    assert r["after_refusal"] == r["before"] == r["after_second"]  # littlefs drops a failed write whole
    assert r["refused_again"]["text"][-2:] == ["not saved:", "storage full"]
    assert r["rebooted"]["screen"] == "Scoreboard" and r["rebooted"]["scores"] == [0, 0]
    assert r["saved"]["screen"] == "Scoreboard" and r["saved"]["scores"] == [1, 0]
    assert r["grew_by_one_line"] and r["replayed"] == [1, 0]


def test_full_fat_tears_the_line_and_nothing_is_glued_onto_it(tmp_path):
    """FAT writes the part of the line that fits its last cluster; with no room for a copy
    the torn bytes stay until there is room, and every entry is refused until then."""
    r = run(["fat"], tmp_path)["fat"]
    assert r["refused"]["screen"] == "WallForm" and r["form_kept"]
    assert r["refused"]["text"][-2:] == ["not saved:", "storage full"]
    assert r["refused"]["scores"] == [0, 0]
    torn = r["after_refusal"]
    assert torn.startswith(r["before"]) and len(torn) > len(r["before"]) and not torn.endswith(b"\n")
    assert r["after_second"] == torn and r["refused_again"]["text"][-2:] == ["not saved:", "storage full"]
    assert r["rebooted"]["screen"] == "Scoreboard" and r["rebooted"]["scores"] == [0, 0]
    assert r["saved"]["scores"] == [1, 0] and r["grew_by_one_line"] and r["replayed"] == [1, 0]


def test_a_write_that_fails_halfway_is_cut_by_a_copy(tmp_path):
    (tmp_path / "half").mkdir()
    r = run(["half"], tmp_path)["half"]
    assert r["truncate"] is False  # MicroPython's files cannot be truncated
    assert r["refused"]["screen"] == "WallForm" and r["form_kept"]
    assert r["refused"]["text"][-2:] == ["not saved:", "storage full"] and r["refused"]["scores"] == [0, 0]
    assert r["after"] == r["before"]
    assert r["saved"]["screen"] == "Scoreboard" and r["replayed"] == [1, 0]


# ---- 2-4. boot never raises; settings of any shape; archiving ------------------------------
BAD_SETTINGS = ["1", "null", "[1]", '{"brightness": 9}', "-1", '"x"', "3.5", '{"led_count": "16"}',
                '{"history_keep": 0}']


def test_boot_never_raises_on_micropython(tmp_path):
    cases = {
        "utf8": {"current.jsonl": HEADER + b'{"e": "note", "text": "caf\xe9"}\n'},
        "shape": {"current.jsonl": HEADER + b'{"e": "wall", "p": "x", "tiles": 7}\n'},
        "folder": {"current.jsonl": None},
        "tmp": {"current.jsonl": HEADER, "current.jsonl.tmp": HEADER[:20]},
    }
    for i, text in enumerate(BAD_SETTINGS):
        cases["settings%d" % i] = {"settings.json": text}
    for name, files in cases.items():
        put_files(tmp_path / name, files)
    r = run(sorted(cases), tmp_path)
    for name in ("utf8", "shape", "folder"):
        b = r[name]
        assert b["screen"] == "MainMenu" and b["scores"] is None, (name, b)
        assert b["text"][-2:] == ["bad record kept", "as damaged-1"], (name, b["text"])
        assert "current.jsonl" not in b["files"] and "damaged-1.jsonl" in b["files"], name
        assert len(b["log"]) == 1 and "kept as data/damaged-1.jsonl" in b["log"][0], (name, b["log"])
        assert "damaged-1" not in " ".join(b["after_key"]["text"])  # read, gone at the next key
    assert r["utf8"]["damaged-1.jsonl"] == cases["utf8"]["current.jsonl"]
    assert r["tmp"]["screen"] == "Scoreboard" and "current.jsonl.tmp" not in r["tmp"]["files"]
    want = {"brightness": 3, "symbols": True, "history_keep": 50, "led_count": 25, "led_layout": "matrix5x5",
            "dim_after": 120, "blank_after": 600}
    for i in range(len(BAD_SETTINGS)):
        b = r["settings%d" % i]
        assert b["settings"] == want and b["screen"] == "MainMenu", (BAD_SETTINGS[i], b)
        assert len(b["log"]) == 1 and b["log"][0].startswith("settings"), b["log"]


def test_a_record_too_big_for_the_heap_is_kept_aside_at_192k(tmp_path):
    """A real MemoryError while resuming: a 60 KB note in a 192 KB heap."""
    record = HEADER + (dumps({"e": "note", "text": "x" * 60000}) + "\n").encode()
    root = put_files(tmp_path / "big", {"current.jsonl": record})
    r = mp_app.run_app_on_micropython([None], heap="192K", data_dir=str(root))
    assert r["screen"] == "MainMenu" and r["scores"] is None
    assert len(r["errors"]) == 1 and "MemoryError" in r["errors"][0]
    assert (root / "data" / "damaged-1.jsonl").read_bytes() == record
    assert not (root / "data" / "current.jsonl").exists()


def test_archiving_past_a_folder_an_unreadable_file_and_a_bad_keep_on_micropython(tmp_path):
    put_files(tmp_path / "archive", ARCHIVE_FAULTS)
    put_files(tmp_path / "blocked", {"history": "a file where the folder should be",
                                       "current.jsonl": finished_record(7)})
    r = run(["archive", "blocked"], tmp_path)
    a = r["archive"]
    assert a["screen"] == "Final" and a["filed"]["screen"] == "MainMenu"
    assert "current.jsonl" not in a["files_after"] and "filed.jsonl" in a["files_after"]
    assert "filed.jsonl" not in a["files_moved"] and a["current_after_undo"] is None
    assert a["history"] == ["000001.jsonl", "000002.jsonl", "000004.jsonl", "000005.jsonl"]
    assert "nothing to undo" in " ".join(a["undo"]["text"])
    assert [r.split()[0] for r in a["history_rows"][1::2]] == ["#5", "#2", "#1"]  # the folder is not a game
    assert [o["screen"] for o in a["opened"]] == ["Final", "Menu", "Final"]
    assert a["opened"][1]["text"][-2:] == ["#2 line 1: not", "UTF-8 text"]
    assert a["log"] == ["data/history/000004.jsonl: not a game file, left as it is",
                        "settings: defaults used for history_keep"]
    b = r["blocked"]  # filed, then the move into the history refused: said, and the game kept
    assert b["filed"]["screen"] == "MainMenu" and "current.jsonl" not in b["files_after"]
    assert b["moved"]["text"][-2] == "not in history:" and b["moved"]["text"][-1].startswith("storage error")
    assert "filed.jsonl" in b["files_moved"]
    assert (tmp_path / "blocked" / "data" / "filed.jsonl").read_text() == finished_record(7)


# ---- 5. a thousand finished games at 192 KB ------------------------------------------------
def thousand(tmp_path, name, keep):
    text = finished_record()
    root = tmp_path / name
    history = root / "data" / "history"
    history.mkdir(parents=True)
    for n in range(1, 1001):
        (history / ("%06d.jsonl" % n)).write_text(text)
    (root / "data" / "current.jsonl").write_text(finished_record(7))
    if keep:
        (root / "data" / "settings.json").write_text(json.dumps({"history_keep": keep}))
    return root


def test_a_thousand_games_in_the_history_at_192k(tmp_path):
    """Finish (rotation keeps 1,000), open History, page past the first page, open a game,
    go back, wrap round; then a second board files a game with the default history_keep
    (50): 951 files removed. Heap figures in docs/reliability.md."""
    from hal.keys import UP, DOWN, OK, BACK
    root = thousand(tmp_path, "keep1000", 1000)
    keys = [OK, DOWN, DOWN, OK] + [DOWN] * 20 + [OK, BACK] + [DOWN] * 40 + [UP] * 3 + [OK, BACK, BACK]  # (History: below Check a score)
    r = mp_app.run_app_on_micropython(keys, heap="192K", data_dir=str(root))
    print("1,000 history files, keep 1,000: heap", r["heap"])
    assert r["errors"] == [] and r["screen"] == "MainMenu"
    names = sorted(os.listdir(root / "data" / "history"))
    assert len(names) == 1000 and names[0] == "000002.jsonl" and names[-1] == "001001.jsonl"
    root = thousand(tmp_path, "keep50", None)
    r = mp_app.run_app_on_micropython([OK, DOWN, DOWN, OK, DOWN, OK, BACK], heap="192K", data_dir=str(root))
    print("1,000 history files, keep 50: heap", r["heap"])
    assert r["errors"] == [] and r["screen"] == "History"
    names = sorted(os.listdir(root / "data" / "history"))
    assert names == ["%06d.jsonl" % n for n in range(952, 1002)]
    assert replay((root / "data" / "history" / "001001.jsonl").read_text())[0].finished
    shutil.rmtree(tmp_path / "keep1000")
