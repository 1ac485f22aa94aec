"""No display at power-on (app.nodisplay, on CPython with a virtual clock): the fault on the
LEDs (LED 0 blinks red twice every 2 s), one line in data/errors.log naming where the display
was looked for, a button test with the LEDs alone, and the board's sleep until a key once
dark. The same code on the emulated Pico: tests/test_pico_displays.py."""
import os

import pytest

from app import nodisplay
from hal import keys
from hal.clock import Manual
from hal.buttons import ButtonLogic
from hal.leds import Leds
from host_tools import sim

WHY = "no display on I2C0 (SDA 4, SCL 5): nothing answered at 0x3C or 0x3D"


class Stop(Exception):
    pass


class Bench:
    """LEDs whose frames are kept with their time, buttons pressed by a script, a clock that
    the naps advance."""

    def __init__(self, tmp_path, presses=(), until_ms=20000):
        self.clock = Manual()
        self.frames = []  # (ms, [(r, g, b)] after the 0.25 cap, GRB undone)
        self.rail = []
        self.leds = Leds(25, self.write, 0.25, "GRB", lambda on: self.rail.append((self.clock.now, on)))
        self.logic = ButtonLogic(["UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK"])
        self.presses = list(presses)  # (ms, key name): held for 80 ms
        self.until_ms = until_ms
        self.data = str(tmp_path / "data")
        self.storage = sim.rooted_storage(self.data)
        self.deep = []

    def write(self, buf):
        self.frames.append((self.clock.now, [(buf[i + 1], buf[i], buf[i + 2]) for i in range(0, len(buf), 3)]))

    # the buttons
    def poll(self, now):
        mask = 0
        for at, name in self.presses:
            if at <= now < at + 80:
                mask |= 1 << self.logic.names.index(name)
        self.logic.update(now, mask)

    def take(self):
        return self.logic.take()

    def busy(self):
        return self.logic.busy() or any(at <= self.clock.now < at + 120 for at, _ in self.presses)

    def nap(self, ms):
        nxt = [at for at, _ in self.presses if at > self.clock.now]  # a press ends a nap
        self.clock.now = min([self.clock.now + ms] + nxt)
        if self.clock.now > self.until_ms:
            raise Stop()

    def run(self, deep=False):
        self.clock.sleep_ms = self.nap
        try:
            nodisplay.run(WHY, self.leds, self, self.storage, self.clock, self.nap,
                          (lambda: self.deep.append(self.clock.now) or (_ for _ in ()).throw(Stop())) if deep else None)
        except Stop:
            pass
        return self


def led0(frames):
    return [(ms, rgb[0]) for ms, rgb in frames]


def test_led_0_blinks_red_twice_every_two_seconds_and_the_fault_is_logged(tmp_path):
    b = Bench(tmp_path, until_ms=6000).run()
    red = (40, 0, 0)  # 160 at the 0.25 cap
    assert led0(b.frames) == [(t, red) for t in (0, 300, 2000, 2300, 4000, 4300, 6000)]
    assert all(rgb[1:] == [(0, 0, 0)] * 24 for _, rgb in b.frames)
    # a dark frame is never written: the rail goes off instead, and on again for each blink
    assert b.rail[:4] == [(0, True), (150, False), (300, True), (450, False)]
    with open(os.path.join(b.data, "errors.log"), encoding="utf-8") as f:
        assert f.read() == "display: " + WHY + "\n"


@pytest.mark.parametrize("key,rgb", [("UP", (24, 24, 24)), ("DOWN", (0, 0, 40)), ("OK", (0, 40, 0)),
                                     ("BACK", (32, 0, 32))])
def test_a_key_lights_every_led_in_its_colour_for_half_a_second(tmp_path, key, rgb):
    b = Bench(tmp_path, presses=[(1000, key)], until_ms=2500).run()
    lit = [(ms, frame) for ms, frame in b.frames if frame[0] != (40, 0, 0)]
    assert lit and all(frame == [rgb] * 25 for _, frame in lit)
    fires = 1000 + 20 if key in ("UP", "DOWN") else 1000 + 80 + 20  # on the press, or on its release
    assert lit[0][0] == fires
    after = [ms for ms, frame in b.frames if ms > fires and frame != [rgb] * 25]
    assert not after or after[0] >= fires + nodisplay.KEY_MS  # then the fault pattern again


def test_after_ten_minutes_without_a_key_the_leds_go_dark_and_the_board_sleeps(tmp_path):
    b = Bench(tmp_path, presses=[(5000, "OK")], until_ms=nodisplay.DARK_MS + 20000).run(deep=True)
    assert len(b.deep) == 1 and 5000 + nodisplay.DARK_MS <= b.deep[0] <= 5000 + nodisplay.DARK_MS + 2100
    assert b.rail[-1] == (b.rail[-1][0], False)  # the LEDs dark before it


def test_the_colours_tell_every_key_apart_and_none_is_the_fault_red():
    colours = [nodisplay.KEY_COLOURS[keys.code_of(n)] for n in keys.NAMES[1:]]
    assert len(set(colours)) == 6 and nodisplay.RED not in colours
