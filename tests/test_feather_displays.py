"""The display driver on CircuitPython, on the emulated Feather RP2040 (CircuitPython 10.2.1
on rp2040js, tests/emulator/run.mjs with its model display): the drive that `azul-companion
flash --drive` writes, code.py running the App, its buttons pressed on the chip's GPIO, and
the picture after each press the CPython App's frame buffer byte for byte, on

- the Feather's own OLED FeatherWing (an SSD1306 128x32 on I2C at 0x3C: boards/feather_rp2040.py),
- an SH1106 128x64 on SPI (SCK, MOSI, D10 D/C, D11 CS, D12 reset) with the same buttons.

Skipped, with the reason, where the emulator, CircuitPython's image or mtools is missing.
"""
import os
import shutil

import pytest

import cpsim
import picosim
from app.app import App
from hal.clock import Manual
from hal.keys import DOWN, NAMES, OK, UP
from host_tools import sim
from host_tools.vhal import VirtualDisplay, VirtualLeds

REASON = cpsim.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
FEATHER = picosim.board_file("feather_rp2040")
VARIANTS = {  # -> the BOARD dict written over boards/feather_rp2040.py, where the display answers
    "featherwing": (FEATHER, 0x3C),
    "sh1106 spi": (dict(FEATHER, display={"driver": "sh1106", "bus": "spi", "spi_id": 0, "sck": "SCK",
                                          "mosi": "MOSI", "dc": "D10", "cs": "D11", "res": "D12",
                                          "width": 128, "height": 64}), None),
}
KEYS = (DOWN, DOWN, UP, OK, DOWN, OK)  # the main menu, then Settings and its first form


@pytest.fixture(scope="module")
def drive(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("feather") / "CIRCUITPY")
    cpsim.flash_folder(folder)
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
    cpsim.new_drive(img, drive)
    buttons = cpsim.board_buttons(board)
    want = reference(board, tmp_path / "ref")
    got = []
    with cpsim.Emulator(img, log=str(tmp_path / "cpsim.log"), board=board, addr=addr,
                        fram=str(tmp_path / "fram.img")) as emu:
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
