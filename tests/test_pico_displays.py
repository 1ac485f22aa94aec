"""The displays makers buy, on the emulated Pico (tests/picosim.py: MicroPython v1.28 on
rp2040js, the project's run.mjs with a model SSD1306 or SH1106 that keeps its RAM, on I2C or
SPI): the same buttons pressed on the chip's GPIO, main.py's own loop running, give the same
picture, byte for byte, on

- an SSD1306 on I2C at 0x3C (boards/pico.py),
- an SH1106 on I2C at 0x3D, found by scanning (pico.py with "driver": "sh1106"),
- an SSD1306 on SPI (boards/pico_spi.py),
- an SH1106 on SPI (pico_spi.py with "driver": "sh1106"),

and that picture is the CPython App's frame buffer after the same keys. With nothing at the
display's address, the device says so on its LEDs (decoded from the NeoPixel pin), logs it,
and its buttons light the LEDs. Skipped, with the reason, where the emulator cannot run.
"""
import shutil

import pytest

import picosim
from hal.keys import BACK, DOWN, NAMES, OK, UP
from test_app_games import Driver

REASON = picosim.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
PICO = picosim.board_file("pico")
PICO_SPI = picosim.board_file("pico_spi")
VARIANTS = {  # -> the board file, its BOARD dict (written over it on the flash when it differs), and
    # where the model display answers
    "ssd1306 i2c": ("pico", PICO, 0x3C),
    "sh1106 i2c": ("pico", dict(PICO, display=dict(PICO["display"], driver="sh1106")), 0x3D),
    "ssd1306 spi": ("pico_spi", PICO_SPI, None),
    "sh1106 spi": ("pico_spi", dict(PICO_SPI, display=dict(PICO_SPI["display"], driver="sh1106")), None),
}


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """A flash image holding the firmware, and the CPython frames: the key codes of a new
    two-player Azul game, its first entry form and back, and the frame buffer at boot and
    after each key."""
    where = tmp_path_factory.mktemp("displays")
    ref = Driver(where / "keys")
    ref.new_game("Azul", "coloured", 2)
    for k in (OK, DOWN, OK, UP, BACK):
        ref.press(k)
    d = Driver(where / "ref")
    frames = [bytes(d.display.buffer)]
    for k in ref.keys:
        d.press(k)
        frames.append(bytes(d.display.buffer))
    img = str(where / "flash.img")
    with picosim.Emulator(img, log=str(where / "picosim.log")) as emu:
        assert picosim.flash(emu, {}, str(where)).endswith("files flashed and verified")
    return img, ref.keys, frames


def boot(emu, name):
    """Name the board in board.txt, its board file changed as the variant says (a .py is
    imported before the .mpy flash wrote), while the REPL is free (every button reads held);
    release the buttons and press RESET: main.py runs the App."""
    base, board, _ = VARIANTS[name]
    code = "with open('board.txt', 'w') as f:\n    f.write(%r)\n" % (base + "\n")
    if board != picosim.board_file(base):
        code += "with open('boards/%s.py', 'w') as f:\n    f.write(%r)\n" % (base, "BOARD = %r\n" % (board,))
    emu.mpremote("exec", code)
    for gpio in board["buttons"].values():
        emu.pin(gpio, 1)
    emu.reset()
    settle(emu)


def settle(emu, quiet_ms=300, timeout_ms=20000):
    """Let emulated time pass until the display has been sent nothing for quiet_ms."""
    last, since = None, None
    start = emu.stats()["emu_ns"]
    while True:
        now = emu.stats()["emu_ns"]
        sent = emu.screen()["dataBytes"]
        if sent != last:
            last, since = sent, now
        elif sent and now - since >= quiet_ms * 1e6:
            return
        if now - start > timeout_ms * 1e6:
            raise RuntimeError("the display did not settle in %d ms" % timeout_ms)
        emu.wait_emulated(20)


def press(emu, gpio):
    emu.pin(gpio, 0)
    emu.wait_emulated(80)  # past the 20 ms debounce, far from the 600 ms long press
    emu.pin(gpio, 1)
    settle(emu)


def shown(emu):
    s = emu.screen()
    assert s["on"] and s["segRemap"] and s["comRemap"], s  # lit, and upright as the SSD1306 is
    return bytes.fromhex("".join(s["image"]))


_captures = {}


def captures(flashed, tmp_path, name):
    """The pictures the model display showed at boot and after each key, on board `name`."""
    if name not in _captures:
        img = str(tmp_path / "flash.img")
        shutil.copyfile(flashed[0], img)
        _, board, addr = VARIANTS[name]
        with picosim.Emulator(img, log=str(tmp_path / "picosim.log"), display=board["display"],
                              addr=addr) as emu:
            boot(emu, name)
            out = [shown(emu)]
            for k in flashed[1]:
                press(emu, board["buttons"][NAMES[k]])
                out.append(shown(emu))
            out.append(emu.screen())
        _captures[name] = out
    return _captures[name]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_display_shows_the_cpython_apps_frames_byte_for_byte(flashed, tmp_path, name):
    got = captures(flashed, tmp_path, name)
    pictures, state = got[:-1], got[-1]
    assert len(pictures) == len(flashed[2]) == 13
    for i, (board, cpython) in enumerate(zip(pictures, flashed[2])):
        assert board == cpython, "%s: frame %d differs from the CPython App's" % (name, i)
    assert state["driver"] == VARIANTS[name][1]["display"]["driver"]
    assert state["bus"] == VARIANTS[name][1]["display"]["bus"] and state["contrast"] == 255
    assert len(set(pictures)) >= 8  # the keys really changed the screen


def test_the_four_displays_show_the_same_bytes(flashed, tmp_path):
    pictures = [captures(flashed, tmp_path, name)[:-1] for name in VARIANTS]
    assert all(p == pictures[0] for p in pictures[1:])


def fault(hexes):
    """The LED frames, as (LED 0's wire bytes, whether every other LED is dark)."""
    return [(h[:6], set(h[6:]) <= {"0"}) for h in hexes]


def test_no_display_blinks_the_fault_logs_it_and_the_buttons_light_the_leds(flashed, tmp_path):
    img = str(tmp_path / "flash.img")
    shutil.copyfile(flashed[0], img)
    with picosim.Emulator(img, pins_high=True, log=str(tmp_path / "picosim.log"), addr=None,
                          trace_pins=(17,), neopixel_pin=16) as emu:  # boards/pico.py, nothing at 0x3C/0x3D
        emu.wait_emulated(5000)
        blinks = [f["hex"] for f in emu.leds()]
        # LED 0 red (160 at the 0.25 cap: GRB 00 28 00), twice every 2 s, the others dark
        assert len(blinks) >= 4 and fault(blinks) == [("002800", True)] * len(blinks)
        rail = [e["level"] for e in emu.trace() if e["pin"] == 17]
        assert rail.count(1) >= len(blinks) and rail.count(0) >= len(blinks)  # on for each blink only
        emu.ctl("clear")
        press_ms = 400
        emu.pin(PICO["buttons"]["DOWN"], 0)
        emu.wait_emulated(80)
        emu.pin(PICO["buttons"]["DOWN"], 1)
        emu.wait_emulated(press_ms)
        lit = [f["hex"] for f in emu.leds()]
        assert "000028" * 25 in lit  # DOWN: every LED blue (160 at the cap)
        log = emu.mpremote("exec", "print(open('data/errors.log').read())")
        screen = emu.screen()
    assert log.strip() == "display: no display on I2C0 (SDA 4, SCL 5): nothing answered at 0x3C or 0x3D"
    assert screen["dataBytes"] == 0 and screen["commands"] == 0 and not screen["on"]
