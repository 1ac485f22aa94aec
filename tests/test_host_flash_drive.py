"""`azul-companion flash --board feather_rp2040 --drive PATH`: the CircuitPython build.

A temporary folder stands in for the CIRCUITPY drive (with the boot_out.txt CircuitPython
writes there). After the copy, the drive's boot.py and code.py run as CircuitPython runs
them (tests/circuitpython_fakes/run_on_drive.py: a fresh interpreter each, no
site-packages, the drive's root and lib/ on the path, fakes only of CircuitPython's
built-in modules), with the real Adafruit libraries that flash copied: the SSD1306 traffic
is decoded back into the screen and a button press must change it.
"""
import hashlib
import os
import shutil
import subprocess
import sys
from importlib import metadata

import pytest

from host_tools import flash
from host_tools.vboard import Ssd1306
from host_tools.vhal import VirtualDisplay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(ROOT, "tests", "circuitpython_fakes", "run_on_drive.py")
BOOT_OUT = ("Adafruit CircuitPython 9.2.8 on 2025-05-28; Adafruit Feather RP2040 with rp2040\n"
            "Board ID:adafruit_feather_rp2040\n")
RECORD = (b'{"format": "azul-companion-record", "v": 1, "game": "azul", "variant": "colored", '
          b'"players": ["Ann", "Ben"], "options": {}}\n')
LIBS = ["lib/adafruit_bus_device/__init__.py", "lib/adafruit_bus_device/i2c_device.py",
        "lib/adafruit_bus_device/spi_device.py", "lib/adafruit_framebuf.py", "lib/adafruit_pixelbuf.py",
        "lib/adafruit_ssd1306.py", "lib/neopixel.py"]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), capture_output=True, text=True,
                          cwd=ROOT, timeout=300, stdin=subprocess.DEVNULL)


def new_drive(path, boot_out=BOOT_OUT):
    """A folder laid out as a CIRCUITPY drive that already holds a game in its history."""
    (path / "data" / "history").mkdir(parents=True)
    (path / "boot_out.txt").write_text(boot_out)
    (path / "data" / "history" / "0001.jsonl").write_bytes(RECORD)
    return path


def tree(path):
    """{relative path: sha256} of every file under path."""
    out = {}
    for dirpath, _, files in os.walk(path):
        for name in files:
            full = os.path.join(dirpath, name)
            with open(full, "rb") as f:
                out[os.path.relpath(full, path).replace(os.sep, "/")] = hashlib.sha256(f.read()).hexdigest()
    return out


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    drive = new_drive(tmp_path_factory.mktemp("CIRCUITPY"))
    r = cli("flash", "--board", "feather_rp2040", "--drive", str(drive))
    assert r.returncode == 0, r.stderr
    return drive, r.stdout


def test_flash_copies_firmware_code_py_boot_py_and_libraries(flashed):
    drive, stdout = flashed
    files = tree(drive)
    for src, dest in flash.source_files():
        if flash.language_table(dest):  # a language's table: its bytes, read a piece at a time
            assert files[dest[:-3] + ".bin"] == hashlib.sha256(flash.table_bytes(src)).hexdigest(), dest
        elif dest != "boot.py":
            assert files[dest] == flash.sha256_file(src), dest  # source, as CircuitPython reads it
    assert files["boot.py"] == flash.sha256_file(os.path.join(flash.FIRMWARE, "circuitpython_boot.py"))
    assert "circuitpython_boot.py" not in files
    assert (drive / "code.py").read_text() == "import main\nmain.main()\n"
    assert (drive / "board.txt").read_text() == "feather_rp2040\n"
    # the Adafruit libraries, byte for byte from their installed PyPI packages
    assert sorted(p for p in files if p.startswith("lib/")) == LIBS
    ssd = metadata.distribution("adafruit-circuitpython-ssd1306")
    assert files["lib/adafruit_ssd1306.py"] == flash.sha256_file(str(ssd.locate_file("adafruit_ssd1306.py")))
    assert not [p for p in files if p.endswith(".mpy") or "__pycache__" in p]
    # the records on the drive are left alone
    assert (drive / "data" / "history" / "0001.jsonl").read_bytes() == RECORD
    assert "done: %d files on %s" % (len(files) - 2, drive) in stdout.splitlines()
    assert "hold OK (pin D6) at power-on" in stdout.splitlines()[-1]


def test_micropython_flash_leaves_out_the_circuitpython_boot_file():
    assert "circuitpython_boot.py" not in [dest for _, dest, _ in flash.plan("pico")]
    assert "boot.py" not in [dest for _, dest, _ in flash.plan("pico")]


def test_dry_run_prints_the_plan_and_writes_nothing(tmp_path):
    drive = new_drive(tmp_path / "CIRCUITPY")
    before = tree(drive)
    r = cli("flash", "--board", "feather_rp2040", "--drive", str(drive), "--dry-run")
    assert r.returncode == 0, r.stderr
    assert tree(drive) == before
    for dest in ["code.py", "boot.py", "main.py", "board.txt", "rules_core/session.py"] + LIBS:
        assert any(line.rstrip().endswith("-> " + dest) for line in r.stdout.splitlines()), dest


def run_on_drive(drive, tmp_path, name, stop_ms, *holds, fram=True):
    trace = tmp_path / ("%s.trace" % name)
    r = subprocess.run([sys.executable, "-I", "-S", RUNNER, str(drive), name, str(trace), str(stop_ms)] + list(holds),
                       capture_output=True, text=True, timeout=120, env=dict(os.environ, FAKE_FRAM="1" if fram else "0"))
    lines = trace.read_text().splitlines() if trace.exists() else []
    return r, lines


def screens(lines, width=128, height=32):
    """The text on the display after each frame the firmware sent."""
    chip, out = Ssd1306(width, height), []
    for line in lines:
        if line.startswith("i2c 3c "):
            data = bytes.fromhex(line[7:])
            chip.write(data)
            if len(data) > 1 and data[0] == 0x40:
                d = VirtualDisplay(width, height)
                d.buffer[:] = chip.image()
                out.append(d.text_lines())
    return out


def test_boot_py_gives_the_drive_to_the_code_without_the_fram_unless_ok_is_held(flashed, tmp_path):
    drive, _ = flashed
    r, lines = run_on_drive(drive, tmp_path, "boot.py", 1000)
    assert r.returncode == 0, r.stderr
    assert lines == []  # the FRAM fitted: the games go there, the drive stays the computer's
    (tmp_path / "nofram").mkdir()
    r, lines = run_on_drive(drive, tmp_path / "nofram", "boot.py", 1000, fram=False)
    assert r.returncode == 0, r.stderr
    assert lines == ["remount / readonly=False"]
    # OK is the wing's button B on D6: held at power-on, the computer keeps the drive
    (tmp_path / "held").mkdir()
    r, lines = run_on_drive(drive, tmp_path / "held", "boot.py", 1000, "D6:0:60000", fram=False)
    assert r.returncode == 0, r.stderr
    assert lines == [] and "safe mode" in r.stdout
    # with the FRAM: its files copied onto the drive (tests/test_feather_emulated.py: a game's)
    r, lines = run_on_drive(drive, tmp_path / "held", "boot.py", 1000, "D6:0:60000")
    assert r.returncode == 0, r.stderr
    assert lines == ["remount / readonly=False", "remount / readonly=True"] and "safe mode" in r.stdout
    assert (drive / "fram" / "data").is_dir()


def test_code_py_runs_the_app_on_the_real_adafruit_drivers(flashed, tmp_path):
    drive, _ = flashed
    # the wing's button C (D5) is DOWN: pressed for 150 ms, half a second after the first frame
    r, lines = run_on_drive(drive, tmp_path, "code.py", 2000, "D5:+500:+650")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "stopped" in r.stdout
    shown = [s for s in screens(lines) if any(s)]
    assert shown[0][2:] == ["Check a score", "History"]  # the main menu (3 rows of 4), "New game" highlighted
    assert shown[-1][1:] == ["New game", "", "History"]  # DOWN moved the highlight to Check a score
    assert any(line.startswith("np NEOPIXEL ") and len(line) == len("np NEOPIXEL ") + 6 for line in lines)
    assert (drive / "data" / "history" / "0001.jsonl").read_bytes() == RECORD


def test_code_py_with_ok_held_at_power_on_does_not_start_the_app(flashed, tmp_path):
    drive, _ = flashed
    r, lines = run_on_drive(drive, tmp_path, "code.py", 1000, "D6:0:60000")
    assert r.returncode == 0, r.stderr
    assert "safe mode" in r.stdout and screens(lines) == []


@pytest.mark.parametrize("args,start", [
    (["--board", "feather_rp2040"], "board 'feather_rp2040' runs CircuitPython: give --drive PATH"),
    (["--board", "pico", "--drive", "{tmp}"], "board 'pico' runs MicroPython, which has no drive"),
    (["--board", "feather_rp2040", "--drive", "{tmp}/nowhere"], "no drive at {tmp}/nowhere"),
    (["--board", "feather_rp2040", "--drive", "{tmp}"], "{tmp} has no boot_out.txt: not a CircuitPython drive"),
    (["--board", "feather_rp2040", "--drive", "{tmp}/cp8"], "the drive runs CircuitPython 8.2; the firmware needs 9 or newer"),
])
def test_wrong_board_or_drive_is_one_line_and_writes_nothing(tmp_path, args, start):
    new_drive(tmp_path / "cp8", BOOT_OUT.replace("9.2.8", "8.2.10"))
    before = tree(tmp_path)
    r = cli("flash", *[a.format(tmp=tmp_path) for a in args])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("azul-companion flash: " + start.format(tmp=tmp_path)), r.stderr
    assert r.stderr.count("\n") == 1
    assert tree(tmp_path) == before


def flash_on_tmpfs(tmp_path, size, read_only=False):
    """flash onto a real small filesystem (tmpfs in a private mount namespace, gone after)."""
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    script = ('mount -t tmpfs -o size=%s tmpfs "$1" && printf "%%s" "$2" > "$1/boot_out.txt" && %s'
              'cd "$1" && ls -R > "$3/before" && cd / && "$4" -m host_tools flash --board feather_rp2040 --drive "$1"; '
              'rc=$?; cd "$1" && ls -R > "$3/after"; exit $rc'
              % (size, 'mount -o remount,ro "$1" && ' if read_only else ""))
    return subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", str(drive), BOOT_OUT, str(tmp_path),
                           sys.executable], capture_output=True, text=True, cwd=ROOT, timeout=300)


needs_unshare = pytest.mark.skipif(
    shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode,
    reason="needs unshare -rm (a private mount namespace) to mount a small tmpfs as the drive")


@needs_unshare
def test_full_drive_is_refused_before_any_copy(tmp_path):
    r = flash_on_tmpfs(tmp_path, "64k")
    assert r.returncode == 1, r.stdout + r.stderr
    assert r.stderr.startswith("azul-companion flash: the drive is full:") and r.stderr.count("\n") == 1, r.stderr
    assert (tmp_path / "after").read_text() == (tmp_path / "before").read_text()  # only boot_out.txt


@needs_unshare
def test_drive_the_board_has_taken_says_how_to_get_it_back(tmp_path):
    """After boot.py gave the drive to the code, the computer sees it read-only."""
    r = flash_on_tmpfs(tmp_path, "4m", read_only=True)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Read-only file system (the board's code has the drive: hold OK (pin D6) while plugging" in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_circuitpython_10_gets_its_own_mpy_and_loses_the_source_an_older_flash_left(tmp_path):
    """CircuitPython 10 reads .mpy marked "C" (MicroPython's v6 format); a module's .py left
    by a flash in source would be imported before its .mpy, so it goes."""
    drive = new_drive(tmp_path / "CIRCUITPY", BOOT_OUT.replace("9.2.8", "10.2.1"))
    (drive / "app").mkdir()
    (drive / "app" / "app.py").write_text("raise ImportError('stale')\n")
    r = cli("flash", "--board", "feather_rp2040", "--drive", str(drive))
    assert r.returncode == 0, r.stderr
    files = tree(drive)
    assert "app/app.py" not in files and "app/app.mpy" in files
    assert "lib/adafruit_ssd1306.mpy" in files and "main.mpy" in files
    assert sorted(p for p in files if p.endswith(".py")) == ["boot.py", "code.py"]
    assert (drive / "main.mpy").read_bytes()[:2] == b"C\x06"
    assert "data/history/0001.jsonl" in files  # the records stay
    again = cli("flash", "--board", "feather_rp2040", "--drive", str(drive), "--source")
    assert again.returncode == 0, again.stderr
    assert "app/app.py" in tree(drive) and "app/app.mpy" not in tree(drive)
