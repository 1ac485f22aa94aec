"""The firmware image (`azul-companion build`, host_tools/build.py): one UF2 with MicroPython
and the project frozen in.

- Without the kit or the compiler the command says in one line what is missing and how to
  get it.
- Built from the kit (../shared/mpkit or AZUL_MPKIT) and booted on the emulated Pico
  (tests/picosim.py) with no files on flash: power-on to the first frame, a whole 2-player
  Azul game pressed through the button pins with main.py's own loop running, then the
  record pulled back with `azul-companion pull`, byte for byte the record the CPython App
  writes for the same keys, and the board's screen (the App built again over it, as at
  power-on) the final standings `replay` makes of it.
- Updating keeps the games: a flash a stock MicroPython and `flash` left (a game open, games
  filed, the firmware as files) gets the image's UF2 written over it as the boot ROM writes
  one; the filesystem's bytes are untouched, and the image boots the open game from it
  with its own frozen modules, not the files on flash.

The build is skipped (with the reason) where the kit or the compiler is missing, and the
board tests where the emulator is; a build that fails where both are present fails.
"""
import os
import re
import struct
import subprocess
import sys

import pytest

import picosim
from host_tools import build
from host_tools.vhal import VirtualDisplay
from rules_core.session import replay
from test_app_games import Driver, play_azul
from test_host_board_e2e import shortest_azul_game

ROOT = picosim.ROOT
UF2 = os.path.join(ROOT, "build", "azul-companion-pico.uf2")


def cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), capture_output=True, text=True,
                          cwd=ROOT, timeout=1800, env=env)


def test_the_firmware_version_is_the_projects():
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        project = re.search(r'^version = "([^"]+)"', f.read(), re.M).group(1)
    assert build.version() == project


def test_about_says_files_on_flash_where_no_image_runs(tmp_path):
    d = Driver(tmp_path)
    d.choose("Settings")
    d.choose("About")
    assert d.rows()[:4] == ["version " + build.version(), "Raspberry Pi", "Pico / Pico W", "files on flash"]


def test_build_without_the_kit_says_where_it_goes(tmp_path):
    r = cli("build", "--out", str(tmp_path / "x.uf2"), env=dict(os.environ, AZUL_MPKIT=str(tmp_path)))
    assert r.returncode == 1 and not os.path.exists(tmp_path / "x.uf2")
    assert r.stderr.count("\n") == 1, r.stderr
    assert "no MicroPython build kit" in r.stderr and "AZUL_MPKIT" in r.stderr and "../shared/mpkit" in r.stderr


def test_build_without_the_compiler_names_the_packages(tmp_path):
    (tmp_path / "build.sh").write_text("exit 1\n")  # an unpacked kit, as far as the command looks
    bare = tmp_path / "bin"
    bare.mkdir()  # a PATH with no compiler, no cmake
    r = cli("build", "--out", str(tmp_path / "x.uf2"), env=dict(os.environ, AZUL_MPKIT=str(tmp_path), PATH=str(bare)))
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert "arm-none-eabi-gcc not found" in r.stderr
    assert "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake" in r.stderr


def uf2_block(addr, payload, flags=0):
    block = bytearray(512)
    struct.pack_into("<IIIIIIII", block, 0, 0x0A324655, 0x9E5D5157, flags, addr, len(payload), 0, 1, 0)
    block[32:32 + len(payload)] = payload
    struct.pack_into("<I", block, 508, 0x0AB16F30)
    return bytes(block)


def test_a_uf2_writes_its_blocks_and_nothing_else(tmp_path):
    flash = bytearray(b"\xff" * 0x1000)
    ours = uf2_block(build.FLASH_BASE + 0x100, bytes(range(256)))
    build.write_uf2(ours + uf2_block(build.FLASH_BASE + 0x300, b"x" * 256, flags=1), flash)  # (not main flash)
    assert flash[0x100:0x200] == bytes(range(256))
    assert flash[:0x100] + flash[0x200:] == b"\xff" * 0xF00
    (tmp_path / "ok.uf2").write_bytes(ours)
    assert build.check_image(str(tmp_path / "ok.uf2")) == 0x200
    (tmp_path / "fs.uf2").write_bytes(ours + uf2_block(build.FLASH_BASE + build.FS_START, b"x" * 256))
    with pytest.raises(build.CliError, match="into the filesystem"):
        build.check_image(str(tmp_path / "fs.uf2"))


def kit_missing():
    """Why the image cannot be built here, or None."""
    try:
        build.find_kit()
    except build.CliError as e:
        return str(e)
    return build.missing_tool()


@pytest.fixture(scope="module")
def image():
    """The image, built once per run (build/ is reused: only what changed is built again)."""
    reason = kit_missing()
    if reason:
        pytest.skip("no firmware image: %s" % reason)
    r = cli("build", "--board", "pico", "--out", UF2)
    assert r.returncode == 0, r.stderr[-3000:]
    return UF2


def test_the_image_writes_only_the_firmware_part_of_the_flash(image):
    with open(image, "rb") as f:
        blocks = build.uf2_blocks(f.read())
    assert blocks and max(a + len(p) for a, p in blocks) <= build.FLASH_BASE + build.FS_START
    assert min(a for a, _ in blocks) == build.FLASH_BASE  # (boot2 first: the chip boots it)


needs_emulator = pytest.mark.skipif(picosim.missing() is not None, reason=picosim.missing() or "")


def press(emu, gpio, hold_ms):
    """A button down for hold_ms (past the 20 ms debounce and a press's work on a busy chip;
    BACK held longer fires the undo), then up long enough for the key's frame."""
    emu.pin(gpio, 0)
    emu.wait_emulated(hold_ms)
    emu.pin(gpio, 1)
    emu.wait_emulated(150)


BOARD_APP = """
import binascii, sys, time, main
from hal import clock
from hal.display import display_from_board
from hal.leds import leds_from_board
from hal.storage import Storage
from app.app import App
import image, version
board = main.load_board(main.board_name())
app = App(display_from_board(board), leds_from_board(board), Storage(), clock, board)
app.step(time.ticks_ms(), None)
print("IMAGE", image.BOARD, version.VERSION, sys.path[0])
print("SCREEN", type(app.screen).__name__, app.session.game if app.session else None)
print("BUFFER", binascii.hexlify(app.display.buffer).decode())
print("TEXT", "|".join(app.text()))
from app.system import About
print("ABOUT", "|".join(About(app).lines))
"""


def board_app(emu):
    """The App built over the flash as main.py builds it (safe mode keeps main.py's from
    running): {"IMAGE": ..., "SCREEN": ..., "BUFFER": ..., "TEXT": ...}."""
    out = emu.mpremote("exec", BOARD_APP)
    return {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in out.splitlines() if " " in line}


def files_on(emu):
    """Every file on the board's flash, with its size."""
    out = emu.mpremote("exec", "import os\n"
                               "def walk(p):\n"
                               "    for n, t, *_ in os.ilistdir(p):\n"
                               "        q = p.rstrip('/') + '/' + n\n"
                               "        if t & 0x4000:\n"
                               "            walk(q)\n"
                               "        else:\n"
                               "            print('F', q, os.stat(q)[6])\n"
                               "walk('/')\n")
    return {line.split()[1]: int(line.split()[2]) for line in out.splitlines() if line.startswith("F ")}


@needs_emulator
def test_the_image_plays_a_whole_game_through_the_buttons_with_no_files_on_flash(image, tmp_path):
    ref = Driver(tmp_path / "ref")
    ref.new_game("Azul", "coloured", 2)
    play_azul(ref, {"players": ["Red", "Blue"]}, shortest_azul_game())
    assert type(ref.screen).__name__ == "Final"
    from hal.keys import describe, LONG
    pins = picosim.board_buttons()
    img = str(tmp_path / "flash.img")  # none yet: MicroPython makes an empty filesystem
    log = str(tmp_path / "picosim.log")
    with picosim.Emulator(img, pins_high=True, log=log, uf2=image) as emu:
        boot_ms = emu.first_frame_ms(timeout=300)
        for k in ref.keys:
            if k is None:
                emu.wait_emulated(2000)
                continue
            press(emu, pins[describe(k).split("+")[0]], 800 if k & LONG else 100)
        emu.wait_emulated(500)
    with picosim.Emulator(img, log=log, uf2=image) as emu:  # safe mode: every button reads held
        on_flash = files_on(emu)
        pulled = tmp_path / "pulled"
        p = cli("pull", "--port", emu.port, "--to", str(pulled))
        assert p.returncode == 0, p.stderr
        board = board_app(emu)
    # nothing of the firmware on flash: the data folder only
    assert "/data/current.jsonl" in on_flash and all(f.startswith("/data/") for f in on_flash), on_flash
    record = (pulled / "current.jsonl").read_text(encoding="utf-8")
    assert record == ref.record()  # every press went through the pins as on CPython
    session, warnings = replay(record)
    result = session.result()
    assert not warnings and result["finished"]
    assert board["IMAGE"].split()[:2] == ["pico", build.version()]
    assert board["SCREEN"] == "Final azul"
    assert board["ABOUT"] == "version %s|Raspberry Pi|Pico / Pico W|image: pico|MicroPython|v1.28.0" % build.version()
    # the final standings as drawn: "rank name score" rows, then the winners
    text = board["TEXT"].split("|")
    for rank, pl in session.standings():
        assert "%d %-7s%4d" % (rank, session.players[pl][:7], result["scores"][pl]) in text, text
    assert "won: " + ", ".join(session.players[pl] for pl in result["winners"]) in text
    shown = VirtualDisplay()
    shown.buffer[:] = bytes.fromhex(board["BUFFER"])
    assert bytes(shown.buffer) == bytes(ref.display.buffer), "\n".join(shown.text_lines())
    print("power-on to the first frame, the image with no files on flash: %.0f ms (emulated)" % boot_ms)


OLD_APP = "raise RuntimeError('the files an earlier flash left')\n"


@needs_emulator
def test_an_update_by_uf2_keeps_the_games_on_flash(image, tmp_path):
    ref = Driver(tmp_path / "ref")
    ref.new_game("Azul", "coloured", 2)
    play_azul(ref, {"players": ["Red", "Blue"]}, shortest_azul_game()[:4])  # a game open: round 2
    record = ref.record()
    filed = shortest_azul_game_record(tmp_path)
    img = str(tmp_path / "flash.img")
    log = str(tmp_path / "picosim.log")
    # the stock firmware with what `flash` leaves (board.txt, main.py, the app as files: here
    # an app.app that fails, which a frozen import must not reach) and the games
    files = {"data/current.jsonl": record.encode(), "data/history/000001.jsonl": filed,
             "board.txt": b"pico\n", "main.py": b"import app.app\n", "app/app.py": OLD_APP.encode()}
    with picosim.Emulator(img, log=log) as emu:
        picosim.install(emu, files, str(tmp_path))
        before = files_on(emu)
    with open(img, "rb") as f:
        flash = bytearray(f.read())
    fs = bytes(flash[build.FS_START:])
    with open(image, "rb") as f:
        build.write_uf2(f.read(), flash)  # dropped on the RPI-RP2 drive
    assert bytes(flash[build.FS_START:]) == fs
    with open(img, "wb") as f:
        f.write(flash)
    with picosim.Emulator(img, pins_high=True, log=log, uf2=image) as emu:
        emu.first_frame_ms(timeout=300)  # main.py (frozen) ran the App, the frozen one
    with picosim.Emulator(img, log=log, uf2=image) as emu:
        board = board_app(emu)
        after = files_on(emu)
        pulled = tmp_path / "pulled"
        p = cli("pull", "--port", emu.port, "--to", str(pulled))
        assert p.returncode == 0, p.stderr
    assert board["SCREEN"] == "Scoreboard azul", board  # the open game, resumed
    assert board["IMAGE"].split()[2] == ".frozen"  # (the image's boot.py: the files on flash come after)
    for path, size in before.items():
        if path != "/data/settings.json":  # (boot writes what it lacks)
            assert after.get(path) == size, (path, before, after)
    assert (pulled / "current.jsonl").read_text(encoding="utf-8") == record
    assert (pulled / "history" / "000001.jsonl").read_bytes() == filed
    session, warnings = replay(record)
    assert not warnings and not session.finished


def shortest_azul_game_record(tmp_path):
    d = Driver(tmp_path / "filed")
    d.new_game("Azul", "coloured", 2)
    play_azul(d, {"players": ["Red", "Blue"]}, shortest_azul_game())
    return d.record().encode()
