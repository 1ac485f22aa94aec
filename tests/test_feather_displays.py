"""The display driver on CircuitPython, on the emulated Feather RP2040 (CircuitPython 10.2.1
on rp2040js, tests/emulator/run.mjs with its model display): the drive that `azul-companion
flash --drive` writes, code.py running the App, its buttons pressed on the chip's GPIO, and
the picture after each press the CPython App's frame buffer byte for byte, on

- the Feather's own OLED FeatherWing (an SSD1306 128x32 on I2C at 0x3C: boards/feather_rp2040.py),
- an SH1106 128x64 on SPI (SCK, MOSI, D10 D/C, D11 CS, D12 reset) with the same buttons.

Skipped, with the reason, where the emulator, CircuitPython's image or mtools is missing.
"""
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

import picosim
from app.app import App
from hal.clock import Manual
from hal.keys import DOWN, NAMES, OK, UP
from host_tools import sim
from host_tools.vhal import VirtualDisplay, VirtualLeds

REASON = picosim.cp_missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
FEATHER = picosim.board_file("feather_rp2040")
VARIANTS = {  # -> the BOARD dict written over boards/feather_rp2040.py, where the display answers
    "featherwing": (FEATHER, 0x3C),
    "sh1106 spi": (dict(FEATHER, display={"driver": "sh1106", "bus": "spi", "spi_id": 0, "sck": "SCK",
                                          "mosi": "MOSI", "dc": "D10", "cs": "D11", "res": "D12",
                                          "width": 128, "height": 64}), None),
}
KEYS = (DOWN, DOWN, UP, OK, DOWN, OK)  # the main menu, then Settings and its first form
BOOT_OUT = ("Adafruit CircuitPython 10.2.1 on 2026-11-28; Adafruit Feather RP2040 with rp2040\n"
            "Board ID:adafruit_feather_rp2040\n")


def gpio():
    """The Feather's `board` names -> RP2040 GPIO (hardware/generate.py's table) and SCK/MOSI."""
    spec = importlib.util.spec_from_file_location("hw_generate", os.path.join(picosim.ROOT, "hardware", "generate.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return dict(gen.FEATHER_RP2040_GPIO, SCK=18, MOSI=19)


@pytest.fixture(scope="module")
def drive(tmp_path_factory):
    where = tmp_path_factory.mktemp("feather")
    folder = where / "CIRCUITPY"
    folder.mkdir()
    (folder / "boot_out.txt").write_text(BOOT_OUT)
    r = subprocess.run([sys.executable, "-m", "host_tools", "flash", "--board", "feather_rp2040", "--drive",
                        str(folder)], cwd=picosim.ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return folder


def reference(board, where):
    """The CPython App's frame buffer at boot and after each of KEYS."""
    d = board["display"]
    display = VirtualDisplay(d["width"], d["height"])
    clock = Manual()
    app = App(display, VirtualLeds(board["leds"]["count"]), sim.rooted_storage(str(where)), clock, board)
    app.step(clock.now, None)
    out = [bytes(display.buffer)]
    for k in KEYS:
        clock.now += sim.KEY_STEP_MS
        app.step(clock.now, k)
        out.append(bytes(display.buffer))
    return out


def settle(emu, quiet_ms=1500, timeout_s=300):
    """Until the display has been sent nothing for quiet_ms of emulated time (a press that
    imports a screen's module compiles its source on CircuitPython: a second or so)."""
    import time
    last, since, end = None, None, time.monotonic() + timeout_s
    while time.monotonic() < end:
        now, sent = emu.stats()["emu_ns"], emu.screen()["dataBytes"]
        if sent != last:
            last, since = sent, now
        elif sent and now - since >= quiet_ms * 1e6:
            return
        time.sleep(0.1)
    raise AssertionError("the display did not settle")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_circuitpython_shows_the_cpython_apps_frames_byte_for_byte(drive, tmp_path, name):
    board, addr = VARIANTS[name]
    drive = shutil.copytree(str(drive), str(tmp_path / "CIRCUITPY"))
    with open(os.path.join(drive, "boards", "feather_rp2040.py"), "w") as f:
        f.write("BOARD = %r\n" % (board,))
    img = str(tmp_path / "board.img")
    cpdrive = os.path.join(picosim.cp_folder(), "cpdrive.py")
    subprocess.run([sys.executable, cpdrive, img, "new"], check=True, capture_output=True)
    subprocess.run([sys.executable, cpdrive, img, "put", drive], check=True, capture_output=True)
    pins = gpio()
    buttons = dict((key, pins[pin]) for key, pin in board["buttons"].items())
    want = reference(board, tmp_path / "ref")
    got = []
    with picosim.Emulator(img, log=str(tmp_path / "cpsim.log"), display=board["display"], addr=addr,
                          circuitpython=True, gpio=pins, pins_high=[2, 3] + list(buttons.values())) as emu:
        settle(emu)
        got.append(emu.screen())
        for k in KEYS:
            gpio_k = buttons[NAMES[k]]
            emu.pin(gpio_k, 0)
            emu.wait_emulated(100)  # past the debounce, far from the 600 ms long press
            emu.pin(gpio_k, 1)
            settle(emu)
            got.append(emu.screen())
    for i, (screen, frame) in enumerate(zip(got, want)):
        assert screen["on"] and screen["driver"] == board["display"]["driver"]
        assert bytes.fromhex("".join(screen["image"])) == frame, "%s: frame %d differs" % (name, i)
    assert len(set(want)) >= 4  # the keys changed the screen
