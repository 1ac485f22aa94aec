"""The FRAM store (firmware/hal/fram_fs.py): a filesystem on an I2C FRAM chip that a power cut
can only stop between two bytes, each change made true by one byte.

- It answers every filesystem operation the firmware makes as littlefs does (tests/fs_cases.py;
  tests/test_fs_differential.py proves MemFS = littlefs on the same table).
- A power cut after every byte the chip receives, while the firmware's own Storage appends a
  game's lines, replaces the settings, files the game and trims the history: after each, the
  store mounts, every line whose append returned is there, no line is torn, and every other
  file is whole (old or new, never a mix).
- The same through the real App driven by keys.
- What is no store of its own (another chip's bytes) is refused and left as it is; the chip
  is checked by its device ID on both runtimes' I2C calls.
"""
import json
import os

import pytest

import fs_cases
import paths
from fram_chip import Chip
from hal.fram_fs import FramFS, I2CMemory
from hal.storage import Storage
from host_tools import sim
from host_tools.vhal import MemFS, PowerCut
from test_fs_differential import memfs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORD = os.path.join(ROOT, "tests", "golden", "5211_4p.jsonl")
HISTORY_GAME = os.path.join(ROOT, "tests", "golden", "azul_grey_4p.jsonl")


def fram_storage(chip):
    fs = FramFS(chip)
    return Storage(fs.open, fs, remount=None, warm_bytes=0), fs


def framfs():
    fs = FramFS(Chip(fs_cases.FLASH))
    for path, data in fs_cases.START:
        fs.mkdir(path) if data is None else fs_cases.write(fs, path, data)
    return fs


def test_the_fram_store_fails_where_littlefs_fails_with_the_same_errno():
    ours = json.loads(json.dumps(fs_cases.outcomes(framfs)))
    theirs = json.loads(json.dumps(fs_cases.outcomes(memfs)))
    differ = ["%s: littlefs %s, FRAM %s" % (a[0], a[1:], b[1:]) for a, b in zip(theirs, ours) if a != b]
    assert not differ, "\n".join(differ)


def test_what_is_written_is_read_back_after_a_remount_and_a_blank_chip_is_formatted():
    chip = Chip()
    st, fs = fram_storage(chip)
    st.ensure_dir("data")
    with open(RECORD, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for line in lines:
        st.append_line("data/r.jsonl", line)
    st.write_atomic("data/s.json", "{}")
    again = FramFS(chip.after_reboot())
    with again.open("data/r.jsonl") as f:
        assert f.read() == "".join(l + "\n" for l in lines).encode()
    assert again.listdir("data") == ["r.jsonl", "s.json"] and again.stat("data")[0] == 0x4000
    assert again.stat("data/r.jsonl")[6] == sum(len(l.encode()) + 1 for l in lines)
    assert again.free() == fs.free() < 32768 - 4096


def test_a_full_chip_refuses_the_write_whole():
    st, fs = fram_storage(Chip())
    st.ensure_dir("data")
    line = "x" * 200
    n = 0
    with pytest.raises(OSError) as e:
        while True:
            st.append_line("data/r.jsonl", line)
            n += 1
    assert e.value.args[0] == 28 and n > 100
    assert st.size("data/r.jsonl") == n * 201  # the refused line left nothing
    st.remove("data/r.jsonl")
    assert fs.free() > 30000


def test_a_chip_that_holds_something_else_is_refused_and_left_as_it_is():
    chip = Chip()
    fs = FramFS(chip)
    fs.mkdir("data")
    chip.bytes[8 + 1024 * fs.sel] = 7  # an entry's kind no store writes
    before = bytes(chip.bytes)
    with pytest.raises(OSError) as e:
        FramFS(chip.after_reboot())
    assert e.value.args[0] == 5 and "damaged" in str(e.value)
    assert bytes(chip.bytes) == before


@pytest.mark.parametrize("circuitpython", [False, True])
def test_the_chip_is_known_by_its_device_id_on_either_runtimes_i2c(circuitpython):
    chip = Chip()
    bus = chip.bus(circuitpython)
    mem = I2CMemory(bus)
    assert mem.size == 32768
    mem.write(30000, bytes(range(200)))  # longer than one transfer
    buf = bytearray(200)
    mem.read_into(30000, buf)
    assert buf == bytes(range(200)) and chip.bytes[30000:30200] == bytes(range(200))
    with pytest.raises(OSError):
        I2CMemory(chip.bus(circuitpython, addr=0x51))  # nothing at 0x50: no FRAM fitted
    with pytest.raises(OSError) as e:
        I2CMemory(bus, addr=0x7C)  # something answers, but its ID is no FRAM's
    assert "device ID" in str(e.value)


# ---- power cuts -----------------------------------------------------------------------------
SETTINGS_OLD, SETTINGS_NEW = '{"brightness": 2}', '{"brightness": 5, "history_keep": 1}'


def before_the_game(st):
    """What the chip holds before the cuts: the data folders, settings and a filed game."""
    st.ensure_dir(paths.DATA_DIR)
    st.ensure_dir(paths.HISTORY_DIR)
    st.write_atomic(paths.SETTINGS, SETTINGS_OLD)
    with open(HISTORY_GAME, encoding="utf-8") as f:
        for line in f.read().splitlines():
            st.append_line(paths.game_path(1), line)


def the_game(st, lines, done):
    """The keeper's writes of a game: its lines appended (done["lines"] counts those that
    returned), the settings replaced mid-game, then the game filed (renamed into the history)
    and the older game trimmed."""
    for k, line in enumerate(lines):
        st.append_line(paths.CURRENT, line)
        done["lines"] = k + 1
        if k == 3:
            st.write_atomic(paths.SETTINGS, SETTINGS_NEW)
            done["settings"] = True
    st.rename(paths.CURRENT, paths.FILED)
    st.rename(paths.FILED, paths.game_path(2))
    done["filed"] = True
    st.remove(paths.game_path(1))
    done["trimmed"] = True


def content(fs, path):
    try:
        with fs.open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def test_a_cut_after_any_byte_keeps_every_line_that_returned_and_every_other_file_whole():
    with open(RECORD, encoding="utf-8") as f:
        lines = f.read().splitlines()[:12]
    with open(HISTORY_GAME, "rb") as f:
        old_game = f.read()
    record = "".join(l + "\n" for l in lines).encode()
    base = Chip()
    before_the_game(fram_storage(base)[0])
    start = base.written
    whole = base.after_reboot()
    whole.written = start
    the_game(fram_storage(whole)[0], lines, {})
    total = whole.written
    for cut in range(start, total + 1):
        chip = base.after_reboot()
        chip.written, chip.cut_at = start, cut
        done = {"lines": 0}
        try:
            the_game(fram_storage(chip)[0], lines, done)
        except PowerCut:
            pass
        fs = FramFS(chip.after_reboot())
        current = content(fs, paths.CURRENT) or content(fs, paths.FILED) or content(fs, paths.game_path(2)) or b""
        kept = current.count(b"\n")
        assert current == record[:len(current)] and current.endswith(b"\n") or not current, cut  # never torn
        assert kept == done["lines"], cut  # each line there once its append returned, not before
        found = [p for p in (paths.CURRENT, paths.FILED, paths.game_path(2)) if content(fs, p) is not None]
        assert len(found) <= 1 and (found or not kept), (cut, found)  # one game, moved whole
        assert content(fs, paths.SETTINGS) in (SETTINGS_OLD.encode(), SETTINGS_NEW.encode()), cut
        assert done.get("settings") is None or content(fs, paths.SETTINGS) == SETTINGS_NEW.encode(), cut
        assert done.get("filed") is None or found == [paths.game_path(2)], cut
        assert content(fs, paths.game_path(1)) == (None if done.get("trimmed") else old_game), cut
        Storage(fs.open, fs, remount=None).settle(paths.SETTINGS)  # (what boot does with a .tmp)
        assert content(fs, paths.SETTINGS + ".tmp") is None
    print("FRAM cuts:", total + 1 - start)


def test_the_app_on_the_fram_resumes_after_a_cut_at_any_byte_of_its_writes(tmp_path):
    """The App's own writes (a new game's header, its first events) cut after every byte the
    chip receives: the rebooted App shows the game up to the last event whose line was
    committed, keeps nothing torn, and the history's game stays whole."""
    from test_reliability_power import app_on, azul_key_script, state
    from rules_core.session import replay
    keys, lines, _ = azul_key_script(tmp_path, 6)
    base = Chip()
    st, _ = fram_storage(base)
    before_the_game(st)
    app_on(st)  # its boot: the folders are there, nothing else is written
    start = base.written
    whole = base.after_reboot()
    whole.written = start
    run = app_on(fram_storage(whole)[0])
    t = 0
    for k in keys:
        t += sim.KEY_STEP_MS if k is not None else sim.WAIT_MS
        run.step(t, k)
    assert content(FramFS(whole.after_reboot()), paths.CURRENT) == "".join(l + "\n" for l in lines).encode()
    for cut in range(start, whole.written + 1):
        chip = base.after_reboot()
        chip.written, chip.cut_at = start, cut
        try:
            app = app_on(fram_storage(chip)[0])
            t = 0
            for k in keys:
                t += sim.KEY_STEP_MS if k is not None else sim.WAIT_MS
                app.step(t, k)
        except PowerCut:
            pass
        st, fs = fram_storage(chip.after_reboot())
        app = app_on(st)
        on_chip = content(fs, paths.CURRENT) or b""
        assert on_chip.endswith(b"\n") or not on_chip, cut
        complete = on_chip.count(b"\n")
        assert content(fs, paths.ERRORS) is None, (cut, content(fs, paths.ERRORS))  # nothing torn to keep
        if complete:
            assert state(app.session) == state(replay(on_chip.decode())[0]), cut
        else:
            assert app.session is None, cut
        with open(HISTORY_GAME, "rb") as f:
            assert content(fs, paths.game_path(1)) == f.read(), cut
    print("App cuts on the FRAM:", whole.written + 1 - start)


def test_memfs_and_the_fram_store_hold_the_same_files_after_the_same_storage_calls():
    """(The keeper's calls through Storage give the same files on both.)"""
    mem = MemFS()
    a = Storage(mem.open, mem, remount=None)
    b, fs = fram_storage(Chip())
    for st in (a, b):
        before_the_game(st)
        the_game(st, ['{"a": 1}', '{"b": 2}', "{}", "[]", "1"], {})
    assert fs_cases.flash(fs) == fs_cases.flash(mem)
