"""Power at rest on the emulated Pico (tests/picosim.py; the project's run.mjs models DORMANT,
traces GPIOs and decodes the NeoPixel pin): main.py's own loop over a game on flash, the idle
times set to 2 s (dim) and 4 s (dark).

- the LED rail's GPIO (GP17) goes high before the first lit LED frame, and low when the App
  goes dark; no lit frame is ever written while it is low;
- once dark the chip goes DORMANT (every clock stopped) with the display off;
- a button wakes it: the chip resets, the boot resumes the game from flash (the same
  picture, the record untouched: the press only woke it), the rail high before its first
  lit frame again.
Skipped, with the reason, where the emulator cannot run.
"""
import json
import time

import pytest

import picosim
from test_app_games import Driver, play_azul
from test_host_board_e2e import shortest_azul_game

REASON = picosim.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
BOARD = picosim.board_file("pico")
RAIL, DATA = BOARD["leds"]["rail"], BOARD["leds"]["pin"]


def record(where):
    d = Driver(where / "ref")
    d.new_game("Azul", "coloured", 2)
    events = shortest_azul_game()
    play_azul(d, {"players": ["Red", "Blue"]}, events[:len(events) // 2])
    return d.record().encode()


def rail_at(trace, ns):
    """The rail's level at emulated time ns (0 before it was ever driven)."""
    level = 0
    for e in trace:
        if e["pin"] == RAIL and e["emu_ns"] <= ns:
            level = max(e["level"], 0)
    return level


def lit(frame):
    return set(frame["hex"]) != {"0"}


def wait_for(emu, what, timeout_s=120):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        st = emu.stats()
        if what(st):
            return st
        time.sleep(0.05)
    raise AssertionError("timed out waiting; stats %r" % st)


def test_the_rail_follows_the_leds_and_the_dark_chip_sleeps_until_a_button(tmp_path):
    rec = record(tmp_path)
    img = str(tmp_path / "flash.img")
    files = {"data/current.jsonl": rec, "data/settings.json": json.dumps({"dim_after": 2, "blank_after": 4}).encode()}
    with picosim.Emulator(img, log=str(tmp_path / "picosim.log")) as emu:
        picosim.flash(emu, files, str(tmp_path))
    with picosim.Emulator(img, pins_high=True, log=str(tmp_path / "picosim.log"), trace_pins=(RAIL,),
                          neopixel_pin=DATA) as emu:
        emu.wait_emulated(1500)
        scoreboard = emu.screen()  # the game resumed at boot, lit
        asleep = wait_for(emu, lambda st: st["dormant"])
        dark = emu.screen()
        trace, frames = emu.trace(), emu.leds()
        emu.pin(BOARD["buttons"]["OK"], 0)  # wakes the chip (OK acts on release elsewhere)
        time.sleep(0.3)
        emu.pin(BOARD["buttons"]["OK"], 1)
        woken = wait_for(emu, lambda st: st["resets"] == 1 and st["i2c"]["bytes"] > asleep["i2c"]["bytes"] + 1000)
        emu.wait_emulated(1500)
        again = emu.screen()
        trace2, frames2 = emu.trace(), emu.leds()
        on_flash = emu.mpremote("exec", "import sys\nsys.stdout.write(open('data/current.jsonl').read())")
    # boot: the seats lit, the rail first
    first = [f for f in frames if lit(f)]
    assert first and first[0]["reset"] == 0
    rises = [e["emu_ns"] for e in trace if e["pin"] == RAIL and e["level"] == 1]
    assert rises and rises[0] < first[0]["emu_ns"]
    assert all(rail_at(trace, f["emu_ns"]) == 1 for f in frames if lit(f))  # never lit on a dead rail
    # dark: the rail low after the last frame, the display off, the chip stopped
    falls = [e["emu_ns"] for e in trace if e["pin"] == RAIL and e["level"] == 0 and e["emu_ns"] > rises[0]]
    assert falls and falls[-1] > frames[-1]["emu_ns"] and rail_at(trace, asleep["emu_ns"]) == 0
    assert scoreboard["on"] and not dark["on"] and asleep["dormancies"] == 1
    assert 4.0e9 <= falls[-1] <= asleep["emu_ns"] <= 6.0e9  # dark after 4 s without a key
    # woken: reset, the game resumed as it was, the record as it was
    assert woken["resets"] == 1 and again["on"] and again["image"] == scoreboard["image"]
    assert on_flash.encode() == rec
    after = [f for f in frames2 if f["reset"] == 1 and lit(f)]
    rises2 = [e["emu_ns"] for e in trace2 if e["pin"] == RAIL and e["level"] == 1 and e["reset"] == 1]
    assert after and rises2 and rises2[0] < after[0]["emu_ns"]
    assert all(rail_at(trace2, f["emu_ns"]) == 1 for f in frames2 if lit(f))
