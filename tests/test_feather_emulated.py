"""The Feather RP2040 build on its own interpreter (tests/cpsim.py: CircuitPython 10.2.1 on
rp2040js, the CIRCUITPY drive in the flash image, the FeatherWing's SSD1306 and buttons).

Deployed as a maker deploys it (`flash --board feather_rp2040 --drive`, the folder put on
the drive), powered on, a two-player Azul game played to its end by pressing the wing's
buttons on their GPIO (a long press for LEFT, RIGHT and BACK), RESET pressed in the middle
of a round and after the end: each time the screen (the SSD1306's memory) is the frame the
CPython App draws for the same keys, and the record pulled off the drive is byte for byte
the CPython App's, which `replay` scores as the screen shows. Skipped, with the reason,
where the emulator, node, rp2040js or mtools is missing.
"""
import os
import shutil
import subprocess
import sys

import pytest

import cpsim
from hal import keys
from test_app_games import Driver, play_azul
from test_host_board_e2e import shortest_azul_game

REASON = cpsim.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
SHORT_MS, LONG_MS, GAP_MS = 80, 800, 60  # held past the 20 ms debounce / the 600 ms long press
WAIT_MS = 2000  # the reference's wait (host_tools.sim.WAIT_MS): messages are gone after it
# on three buttons: a short press of UP, DOWN, OK; a long one for LEFT, RIGHT, BACK
PHYSICAL = {keys.UP: ("UP", SHORT_MS), keys.DOWN: ("DOWN", SHORT_MS), keys.OK: ("OK", SHORT_MS),
            keys.LEFT: ("UP", LONG_MS), keys.RIGHT: ("DOWN", LONG_MS), keys.BACK: ("OK", LONG_MS)}


def resumed(where, data):
    """The CPython App powered on over a copy of `data`, its messages gone."""
    os.makedirs(str(where))
    shutil.copytree(data, str(where / "data"))
    d = Driver(where, board="feather_rp2040")
    d.wait()
    return d


def reference(where):
    """The CPython App on the Feather's board file, the same game with the same power-ons:
    the keys before the RESET in round 2 (its first entry saved) and their last frame, the
    App resumed then, the keys after it and their last frame, the App resumed at the end."""
    first = Driver(where / "first", board="feather_rp2040")
    first.new_game("Azul", "coloured", 2)
    events = shortest_azul_game()
    play_azul(first, {"players": ["Red", "Blue"]}, events[:4])
    first.wait()
    second = resumed(where / "second", first.data)
    resumed_mid = bytes(second.display.buffer)
    second.keys = []
    play_azul(second, {"players": ["Red", "Blue"]}, events[4:])
    second.wait()
    assert type(second.screen).__name__ == "Final", second.app.text()
    end = resumed(where / "end", second.data)
    return first, resumed_mid, second, end


def shown(emu):
    s = emu.screen()
    return b"".join(s["pages"][:s["height"] // 8])


def text_of(buffer):
    from host_tools.vhal import VirtualDisplay
    d = VirtualDisplay(128, 32)
    d.buffer[:] = buffer
    return "\n".join(d.text_lines())


def press(emu, gpio, key):
    name, hold = PHYSICAL[key]
    emu.pin(gpio[name], 0)
    emu.wait_emulated(hold)
    emu.pin(gpio[name], 1)
    emu.wait_emulated(GAP_MS)


def play(emu, gpio, ks):
    for k in ks:
        if k is None:
            emu.wait_emulated(WAIT_MS)
        else:
            press(emu, gpio, k)


def reset(emu):
    """Press RESET and wait until the app has set the display up again: the SSD1306 keeps its
    memory through the Feather's reset (as the wing's does), so the old frame shows meanwhile,
    and a press before the app has started is no press."""
    sent = emu.stats()["i2c"]["bytes"]
    emu.reset()
    emu.wait_for(lambda: emu.stats()["i2c"]["bytes"] > sent + 600, what="the display set up after RESET")


def settle(emu, frame, what):
    """Wait (device time) until the screen is `frame`: a press latched while the app was
    busy is handled once it is free."""
    try:
        emu.wait_for(lambda: shown(emu) == frame, timeout=300, what=what)
    except RuntimeError:
        raise AssertionError("%s: the board shows\n%s\nthe CPython App\n%s" % (what, text_of(shown(emu)), text_of(frame)))


@pytest.fixture(scope="module")
def drive_image(tmp_path_factory):
    where = tmp_path_factory.mktemp("feather")
    out = cpsim.flash_folder(str(where / "drive"))
    assert "files on" in out, out
    img = str(where / "flash.img")
    cpsim.new_drive(img, str(where / "drive"))
    return img


def cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), capture_output=True, text=True,
                          cwd=cpsim.ROOT, timeout=600)


def test_a_two_player_game_through_the_buttons_survives_reset_and_replays_to_its_screen(drive_image, tmp_path):
    first, resumed_mid, second, end = reference(tmp_path)
    img = str(tmp_path / "flash.img")
    shutil.copyfile(drive_image, img)
    gpio = cpsim.board_buttons()
    with cpsim.Emulator(img, log=str(tmp_path / "cpsim.log")) as emu:
        menu = emu.wait_for(lambda: shown(emu) if any(shown(emu)) else None, what="the first frame")
        assert any(menu)
        play(emu, gpio, first.keys)
        settle(emu, bytes(first.display.buffer), "round 2, the first entry saved")
        reset(emu)  # RESET in the middle of a round
        settle(emu, resumed_mid, "the game resumed after RESET")
        play(emu, gpio, second.keys)
        settle(emu, bytes(second.display.buffer), "the final standings")
        reset(emu)  # and after the end
        settle(emu, bytes(end.display.buffer), "the finished game resumed after RESET")
    pulled = str(tmp_path / "current.jsonl")
    assert cpsim.get(img, "/data/current.jsonl", pulled)
    with open(pulled, encoding="utf-8") as f:
        assert f.read() == end.record()  # byte for byte what CPython wrote for the same keys
    replayed = cli("replay", pulled)
    assert replayed.returncode == 0, replayed.stderr
    standings = [l.split() for l in replayed.stdout.splitlines()[1:] if l.strip()[:1].isdigit()]
    assert [s[:3] for s in standings] == [["1.", "Red", "17"], ["2.", "Blue", "4"]]
    screen = text_of(bytes(end.display.buffer))
    for rank, name, score in (s[:3] for s in standings):
        assert name in screen and score in screen, screen


def test_safe_mode_leaves_the_drive_to_the_computer_and_starts_no_app(drive_image, tmp_path):
    img = str(tmp_path / "flash.img")
    shutil.copyfile(drive_image, img)
    with cpsim.Emulator(img, safe=True, log=str(tmp_path / "cpsim.log")) as emu:
        emu.wait_emulated(4000)
        assert not any(shown(emu))  # no frame: the app did not start
        out, err = emu.exec("import storage\nprint(storage.getmount('/').readonly)\n"
                            "try:\n    open('/probe.txt', 'w')\nexcept OSError as e:\n    print(e.errno)\n")
    assert err == "" and out.split() == ["True", "30"], out + err  # EROFS: the computer may write it


def names_of(path):
    """Every name and string constant of a .py file: what mpy-cross puts in a file's table of
    names (those CircuitPython and MicroPython both know by number are left out of the file,
    so both must number them alike)."""
    import ast
    with open(path, encoding="utf-8") as src:
        tree = ast.parse(src.read())
    out = set()
    for node in ast.walk(tree):
        for attr in ("id", "attr", "name", "arg", "asname", "module"):
            value = getattr(node, attr, None)
            if isinstance(value, str):
                out.add(value)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)
    return out


def test_every_name_in_the_mpy_files_decodes_as_itself_on_circuitpython(drive_image, tmp_path):
    """flash writes CircuitPython 10's .mpy with MicroPython's mpy-cross (host_tools.flash.
    circuitpython_mpy): each name the firmware and its libraries use, compiled the same way,
    reads back on the board as it was written."""
    import json
    from host_tools import flash
    names = set()
    for src, _, _ in flash.drive_plan("feather_rp2040"):
        if src:
            names |= names_of(src)
    names = sorted(names)
    probe = tmp_path / "probe"
    probe.mkdir()
    chunks = [names[i:i + 200] for i in range(0, len(names), 200)]  # a module each: the heap
    for i, chunk in enumerate(chunks):
        with open(tmp_path / "names.py", "w", encoding="utf-8") as f:
            f.write("NAMES = (%s,)\n" % ", ".join(repr(n) for n in chunk))
        (probe / ("names%d.mpy" % i)).write_bytes(flash.circuitpython_mpy(str(tmp_path / "names.py")))
    img = str(tmp_path / "flash.img")
    shutil.copyfile(drive_image, img)
    cpsim.put(img, str(probe))
    read = []
    with cpsim.Emulator(img, safe=True, log=str(tmp_path / "cpsim.log")) as emu:
        emu.wait_emulated(3000)
        for i in range(len(chunks)):
            out, err = emu.exec("import json, sys, names%d as m\nprint(json.dumps(m.NAMES))\n"
                                "del sys.modules['names%d']" % (i, i))
            assert err == "", err
            read += json.loads(out)
    assert len(names) > 1000 and read == names
