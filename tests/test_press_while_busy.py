"""A press made while the loop is busy, polling no button, is not lost: on the emulated
Feather (keypad.Keys queues it) and on the emulated Pico (the pin interrupt latches it).

The firmware's own hal.buttons is built from the board file on the board; the loop polls
once, then works for BUSY_MS without polling (longer than the longest piece of idle work
main.py runs between two polls: bench/feather.py, bench/pico.py measure it), a marker pin
high meanwhile; the host presses OK on its GPIO while the marker is high and releases it
before the work ends; the next poll takes the press. Skipped, with the reason, where an
emulator is missing.
"""
import json
import os
import threading
import time

import pytest

import cpsim
import picosim
from hal import keys

# what main.py needs to build the buttons from the board file (as source: the Pico compiles it)
FILES = ("main.py", "boards/__init__.py", "boards/pico.py", "hal/__init__.py", "hal/buttons.py", "hal/keys.py",
         "hal/clock.py", "hal/compat.py")
BUSY_MS = 1500
PRESS_MS = 80
MARKER = 22  # run.mjs logs this GPIO's changes (ctl "markers")
BUSY = """
{marker}
import main
from hal import clock
from hal.buttons import buttons_from_board
b = buttons_from_board(main.load_board(main.board_name()))
b.poll(clock.ticks_ms())
assert b.take() is None
{high}
t = clock.ticks_ms()
while clock.ticks_diff(clock.ticks_ms(), t) < {busy}:
    pass
{low}
taken = []
for i in range(10):
    b.poll(clock.ticks_ms())
    k = b.take()
    if k is not None:
        taken.append(k)
    clock.sleep_ms(10)
print("TAKEN", taken)
"""
CIRCUITPYTHON = dict(marker="import digitalio, microcontroller\nm = digitalio.DigitalInOut(microcontroller.pin.GPIO%d)\n"
                            "m.switch_to_output(False)" % MARKER, high="m.value = True", low="m.value = False")
MICROPYTHON = dict(marker="from machine import Pin\nm = Pin(%d, Pin.OUT, value=0)" % MARKER, high="m.value(1)",
                   low="m.value(0)")


def press_while_marked(emu, run, gpio, runtime):
    """Run the busy loop on the board (run(code) -> its output) in a thread; press gpio for
    PRESS_MS of device time once the marker is high; returns the output and whether the
    press ended while the marker was still high."""
    out = {}
    code = BUSY.format(busy=BUSY_MS, **runtime)
    emu.ctl("clear")
    worker = threading.Thread(target=lambda: out.setdefault("text", run(code)))
    worker.start()
    try:
        deadline = time.monotonic() + 600
        while not any(m["pin"] == MARKER and m["state"] == 1 for m in json.loads(emu.ctl("markers"))):
            assert time.monotonic() < deadline and worker.is_alive(), "the busy loop did not start"
            time.sleep(0.005)
        emu.pin(gpio, 0)
        emu.wait_emulated(PRESS_MS)
        emu.pin(gpio, 1)
        states = [m["state"] for m in json.loads(emu.ctl("markers")) if m["pin"] == MARKER]
        inside = 0 not in states[states.index(1):]  # (the pin's set-up as an output logs a 0 first)
    finally:
        worker.join(600)
    return out.get("text"), inside


def taken(text):
    line = [l for l in str(text).splitlines() if l.startswith("TAKEN")]
    assert line, text
    return eval(line[0][6:])


@pytest.mark.skipif(cpsim.missing() is not None, reason=cpsim.missing() or "")
def test_a_press_while_the_feather_is_busy_is_taken_at_the_next_poll(tmp_path):
    drive = str(tmp_path / "drive")
    cpsim.flash_folder(drive)
    img = str(tmp_path / "flash.img")
    cpsim.new_drive(img, drive)
    ok = cpsim.board_buttons()["OK"]
    with cpsim.Emulator(img, safe=True, log=str(tmp_path / "cpsim.log")) as emu:
        emu.wait_emulated(3000)
        emu.pin(ok, 1)  # released: safe mode held it at power-on

        def run(code):
            out, err = emu.exec(code)
            return out + err
        text, inside = press_while_marked(emu, run, ok, CIRCUITPYTHON)
    assert inside, "the press did not end inside the busy loop"
    assert taken(text) == [keys.OK], text


@pytest.mark.skipif(picosim.missing() is not None, reason=picosim.missing() or "")
def test_a_press_while_the_pico_is_busy_is_taken_at_the_next_poll(tmp_path):
    img = str(tmp_path / "flash.img")
    ok = picosim.board_buttons()["OK"]
    with picosim.Emulator(img, log=str(tmp_path / "picosim.log")) as emu:
        args = ["fs", "mkdir", ":hal", "+", "fs", "mkdir", ":boards"]
        for name in FILES:
            args += ["+", "fs", "cp", os.path.join(picosim.ROOT, "firmware", name), ":" + name]
        (tmp_path / "board.txt").write_text("pico\n")
        emu.mpremote(*(args + ["+", "fs", "cp", str(tmp_path / "board.txt"), ":board.txt"]))
        for gpio in picosim.board_buttons().values():
            emu.pin(gpio, 1)  # released (every button read held at power-on: safe mode)

        def run(code):
            return emu.mpremote("exec", code, timeout=600)
        text, inside = press_while_marked(emu, run, ok, MICROPYTHON)
    assert inside, "the press did not end inside the busy loop"
    assert taken(text) == [keys.OK], text
