"""The real firmware on the emulated Pico (tests/picosim.py: MicroPython v1.28 RPI_PICO on
rp2040js, I2C display stub at 0x3C): flashed with `azul-companion flash`, then

- a two-player Azul game played on the App built as main.py builds it (real I2C SSD1306
  driver, NeoPixel, littlefs), its record pulled back with `azul-companion pull`: the
  frame the board drew equals the CPython App's, and its standings are what `replay`
  makes of the pulled record;
- buttons pressed on the chip's GPIO with main.py's own loop running: each press changes
  the display by exactly the I2C transfers that change should cost.

The stub keeps no pixels, so the second test observes the display through the emulator's
I2C log (first bytes and length of each transfer): it proves a GPIO press went through
debouncing, the App and the driver to the bus as the expected page/column window and byte
count, not which pixels were lit (the first test checks pixels, on the same firmware).
Skipped, with the reason, where the emulator, node or rp2040js is missing.
"""
import os
import shutil
import subprocess
import sys

import pytest

import picosim
from host_tools.vhal import VirtualDisplay
from test_app_games import Driver, play_azul
from test_host_board_e2e import shortest_azul_game

REASON = picosim.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
WAIT = 255  # bench/pico_device.py: a key byte meaning "two seconds pass"


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """A flash image holding the flashed firmware and the measuring module (and the keys)."""
    where = tmp_path_factory.mktemp("pico")
    ref = Driver(where / "ref")
    ref.new_game("Azul", "coloured", 2)
    play_azul(ref, {"players": ["Red", "Blue"]}, shortest_azul_game())
    ref.wait()
    assert type(ref.screen).__name__ == "Final", ref.app.text()
    keys = bytes(WAIT if k is None else k for k in ref.keys)
    img = str(where / "flash.img")
    with picosim.Emulator(img, log=str(where / "picosim.log")) as emu:
        last = picosim.flash(emu, {"bench/azul.keys": keys}, str(where))
    assert last.endswith("files flashed and verified"), last
    return img, ref


def copy_image(flashed, tmp_path):
    img = str(tmp_path / "flash.img")
    shutil.copyfile(flashed[0], img)
    return img


def cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), capture_output=True, text=True,
                          cwd=picosim.ROOT, timeout=600)


def text_of(buffer):
    d = VirtualDisplay()
    d.buffer[:] = buffer
    return d.text_lines()


def test_a_two_player_game_on_the_emulated_pico_replays_to_its_screen(flashed, tmp_path):
    ref = flashed[1]
    with picosim.Emulator(copy_image(flashed, tmp_path), log=str(tmp_path / "picosim.log")) as emu:
        r = emu.result("import picobench\npicobench.game('bench/azul.keys')", timeout=1800)
        assert r["final"] == "Final" and r["finished"]
        assert r["shown_equals_buffer"] is True  # the display was sent exactly its frame buffer
        board = bytes.fromhex(r["buffer"])
        assert board == bytes(ref.display.buffer), "board:\n%s\nCPython:\n%s" % (
            "\n".join(text_of(board)), "\n".join(ref.app.text()))
        pulled = tmp_path / "pulled"
        p = cli("pull", "--port", emu.port, "--to", str(pulled))
        assert p.returncode == 0, p.stderr
    record = pulled / "current.jsonl"
    with open(record, encoding="utf-8") as f:
        assert f.read() == ref.record()  # byte for byte what CPython wrote for the same keys
    replayed = cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    # "azul (colored) - final after round 5/...", then " 1. Red   17  winner", " 2. Blue   4"
    lines = replayed.stdout.splitlines()
    assert "final" in lines[0]
    shown = text_of(board)
    standings = [l.split() for l in lines[1:] if l.strip()[:1].isdigit()]
    assert [s[:3] for s in standings] == [["1.", "Red", "17"], ["2.", "Blue", "4"]]
    for rank, name, score in (s[:3] for s in standings):
        assert "%s %-7s%4s" % (rank.rstrip("."), name, score) in shown, shown
    winners = [s[1] for s in standings if s[3:] == ["winner"]]
    assert "won: " + ", ".join(winners) in shown, shown


def test_a_chinese_game_on_the_emulated_pico_leaves_the_english_record(flashed, tmp_path):
    """The same keys with the device speaking 繁體中文 (its table read from
    app/lang_zh_hant.bin, as flash put it): the board draws what the CPython App draws in
    繁體中文, and the record it leaves is byte for byte the English one."""
    import json
    ref = flashed[1]
    zh_data = tmp_path / "zh" / "data"
    zh_data.mkdir(parents=True)
    (zh_data / "settings.json").write_text(json.dumps({"language": "zh-Hant"}))
    zh = Driver(tmp_path / "zh")
    for k in ref.keys:
        zh.wait() if k is None else zh.press(k)
    assert zh.app.text()[0] == "花磚密語 結束"
    with picosim.Emulator(copy_image(flashed, tmp_path), log=str(tmp_path / "picosim.log")) as emu:
        r = emu.result("f = open('bench/language', 'w')\nf.write('zh-Hant')\nf.close()\n"  # (pico_device._clean)
                       "import picobench\npicobench.game('bench/azul.keys')", timeout=1800)
        assert r["final"] == "Final" and r["finished"] and r["shown_equals_buffer"] is True
        board = bytes.fromhex(r["buffer"])
        assert board == bytes(zh.display.buffer), "board:\n%s" % "\n".join(text_of(board))
        pulled = tmp_path / "pulled"
        p = cli("pull", "--port", emu.port, "--to", str(pulled))
        assert p.returncode == 0, p.stderr
    with open(pulled / "current.jsonl", encoding="utf-8") as f:
        assert f.read() == ref.record()


def transfers_since(emu, n0):
    """The I2C transactions logged after the first n0 (run.mjs keeps the last 200)."""
    return emu.stats()["i2c"]["transactions"][n0:]


def press(emu, gpio):
    emu.pin(gpio, 0)
    emu.wait_emulated(120)  # past the 20 ms debounce, far from the 600 ms long press
    emu.pin(gpio, 1)
    emu.wait_emulated(300)  # OK fires on release; the frame follows within one loop period


def test_a_button_pressed_on_the_gpio_redraws_only_what_changed(flashed, tmp_path):
    pins = picosim.board_buttons()
    with picosim.Emulator(copy_image(flashed, tmp_path), pins_high=True, log=str(tmp_path / "picosim.log")) as emu:
        boot_ms = emu.first_frame_ms()
        assert emu.ctl("clear") == "ok"
        emu.wait_emulated(500)
        assert transfers_since(emu, 0) == []  # no key, no frame: main.py's loop idles
        # DOWN on the main menu: the cursor leaves row 0 (page 1) for row 1 (page 2)
        press(emu, pins["DOWN"])
        sent = transfers_since(emu, 0)
        assert len(sent) == 3, sent
        assert sent[0]["first"] == [0x00, 0x22, 1, 2] and sent[0]["n"] == 7  # window: pages 1..2
        assert [(t["first"][0], t["n"]) for t in sent[1:]] == [(0x40, 1 + 128)] * 2  # a page each
        # OK opens "History": the title and the rows change, the rest of the screen does not
        press(emu, pins["OK"])
        more = transfers_since(emu, len(sent))
        windows = [t["first"] for t in more if t["first"][0] == 0x00]
        assert windows and windows[0][:3] == [0x00, 0x22, 0], more  # from page 0: the title
        data = sum(t["n"] - 1 for t in more if t["first"][0] == 0x40)
        assert 0 < data < 1024, more
    print("power-on to the first frame: %.0f ms (emulated)" % boot_ms)
