"""Idle with the virtual clock: the display dims, then goes dark, and the LEDs follow; a key on
a dimmed screen acts, a key on a dark screen only wakes it; the game and the flash are never
touched while nobody presses a key.

`idle()` advances time as firmware/main.py's loop does: a frame, then a sleep of
App.quiet_ms() (at most NAP_MS, at least a frame), so the tests also check that the App asks
to be woken exactly when something is due.
"""
import json
import os

import pytest

from test_app_games import Driver, play_azul
from test_host_board_e2e import shortest_azul_game
from host_tools import sim
from host_tools.vhal import VirtualDisplay, VirtualLeds
from hal.clock import Manual
from hal.keys import UP, DOWN, OK, BACK, LONG
from hal.leds import Leds
from hal.storage import Storage
from app.idle import DIM_CONTRAST, FULL_CONTRAST
from app.leds import BEAT_MS, BEAT_ON_MS

MINUTE = 60000
NAP_MS = 2000  # firmware/main.py
FRAME_MS = 10
# frames per blink of the "I am on" LED: one lights it, one puts it out, naps in between
PER_BLINK = -(-BEAT_ON_MS // NAP_MS) + -(-(BEAT_MS - BEAT_ON_MS) // NAP_MS)


def frames(d, ms):
    """Let ms pass without a key, frame by frame as main.py's loop would: yields the time of
    each frame, after it."""
    end = d.clock.now + ms
    while d.clock.now < end:
        nap = max(FRAME_MS, min(d.app.quiet_ms(d.clock.now), NAP_MS))
        d.clock.now = min(end, d.clock.now + nap)
        d.app.step(d.clock.now, None)
        yield d.clock.now


def idle(d, ms):
    """frames(), run through: the list of the frames' times."""
    return list(frames(d, ms))


def where(d):
    """The screen and its cursor (or scroll position)."""
    return type(d.screen).__name__, d.screen.cursor, d.screen.top


def lit(d):
    return [rgb for rgb in d.leds.frame_rgb() if rgb != (0, 0, 0)]


def game(tmp_path, board="pico"):
    """A two-player Azul game two rounds in (the scoreboard shows it)."""
    d = Driver(tmp_path, board)
    d.new_game("Azul", "coloured", 2)
    events = shortest_azul_game()
    play_azul(d, {"players": ["Red", "Blue"]}, events[:len(events) // 2])
    assert type(d.screen).__name__ == "Scoreboard"
    d.wait()  # the last entry's message times out
    return d


def test_idle_dims_then_darkens_at_the_default_times(tmp_path):
    d = game(tmp_path)
    start, shown = d.clock.now - sim.WAIT_MS, d.display.frames  # start: the last key
    frame, leds = d.display.last_frame, lit(d)
    assert leds and d.display.contrast_value == FULL_CONTRAST
    times = idle(d, 2 * MINUTE - sim.WAIT_MS - 10)
    assert d.display.contrast_value == FULL_CONTRAST and d.display.on
    assert max(b - a for a, b in zip(times, times[1:])) == NAP_MS  # asleep between frames
    idle(d, 10)
    assert d.clock.now - start == 2 * MINUTE and d.display.contrast_value == DIM_CONTRAST
    assert d.display.on and d.display.last_frame == frame  # the same picture, dimmer
    dimmed = lit(d)
    assert len(dimmed) <= len(leds)
    for (r, g, b), (r0, g0, b0) in zip(dimmed, leds):
        assert r <= r0 // 4 and g <= g0 // 4 and b <= b0 // 4
    idle(d, 8 * MINUTE - 10)
    assert d.display.on
    idle(d, 10)
    assert d.clock.now - start == 10 * MINUTE and not d.display.on
    assert d.display.frames == shown  # nothing was sent to the display: only its contrast


def test_a_dark_screen_keeps_one_slow_led_blinking(tmp_path):
    d = game(tmp_path)
    idle(d, 10 * MINUTE)
    seen = []
    for t in frames(d, 3 * BEAT_MS):
        rgb = d.leds.frame_rgb()
        assert rgb[1:] == [(0, 0, 0)] * (len(rgb) - 1)  # every LED but the first is dark
        seen.append((t % BEAT_MS < BEAT_ON_MS, rgb[0] != (0, 0, 0)))
    assert all(on == shown for on, shown in seen)
    assert (True, True) in seen and (False, False) in seen
    assert len(idle(d, 5 * BEAT_MS)) <= 5 * PER_BLINK + 1  # +1: a window that starts mid-blink


class Railed:
    """The App on the Pico build's LEDs, their supply switched (hal.leds power): `log` holds
    ("rail", on) and ("frame", lit) in the order they happen."""

    def __init__(self, d):
        from app.app import App
        self.log = []
        leds = Leds(25, lambda buf: self.log.append(("frame", any(buf))), 0.25, "GRB",
                    lambda on: self.log.append(("rail", on)))
        d.display = VirtualDisplay()
        d.app = App(d.display, leds, sim.rooted_storage(d.data), d.clock, sim.load_board("pico"))
        d.app.step(d.clock.now, None)


def test_the_led_rail_goes_off_when_dark_and_on_before_the_first_lit_frame(tmp_path):
    """app.idle decides dark, app.leds puts every LED out (no "I am on" blink: it would power
    the rail up), hal.leds switches the rail: off with the dark frame, on before a lit one."""
    d = game(tmp_path)
    r = Railed(d)  # a boot over the game on flash, as after a reset
    assert r.log == [("rail", True), ("frame", True)]  # the seats lit: the rail first
    del r.log[:]
    idle(d, 2 * MINUTE)
    assert d.display.on and r.log == [("frame", True)]  # dimmed, still lit
    idle(d, 8 * MINUTE + 2 * BEAT_MS)
    assert not d.display.on and r.log[1:] == [("rail", False)]  # dark: nothing written, the rail off
    assert d.app.quiet_ms(d.clock.now) >= 1 << 28  # nothing due: main.py may sleep until a key
    del r.log[:]
    d.press(DOWN)  # a key on the dark screen: it only wakes
    assert d.display.on and r.log == [("rail", True), ("frame", True)]


def test_a_key_on_a_dark_screen_only_wakes_it(tmp_path):
    d = game(tmp_path)
    record, shown, rows, at = d.record(), d.display.last_frame, d.rows(), where(d)
    idle(d, 10 * MINUTE)
    for k in (DOWN, OK, BACK | LONG):  # BACK|LONG is undo everywhere else
        d.press(k)
        assert d.display.on and d.display.contrast_value == FULL_CONTRAST
        assert where(d) == at and d.rows() == rows and d.record() == record
        assert d.display.last_frame == shown
        idle(d, 10 * MINUTE)
    d.press(BACK | LONG)
    d.press(BACK | LONG)  # awake now: the undo acts
    assert d.record() != record and "undone" in " ".join(d.app.text())


def test_a_key_on_a_dimmed_screen_lights_it_and_acts(tmp_path):
    d = game(tmp_path)
    d.press(OK)  # the round's entries: a menu
    name, cursor, _ = where(d)
    leds = d.leds.frame_rgb()
    idle(d, 3 * MINUTE)
    assert d.display.contrast_value == DIM_CONTRAST
    d.press(DOWN)
    assert d.display.contrast_value == FULL_CONTRAST and where(d)[:2] == (name, cursor + 1)
    assert d.leds.frame_rgb() == leds  # full brightness again
    idle(d, 2 * MINUTE - 10)  # the idle time counts from the last key
    assert d.display.contrast_value == FULL_CONTRAST


def test_a_game_is_the_same_after_an_hour_of_idle(tmp_path):
    d = game(tmp_path)
    ref = game(tmp_path / "ref")
    idle(d, 60 * MINUTE)
    d.press(UP)  # wakes it
    events = shortest_azul_game()
    play_azul(d, {"players": ["Red", "Blue"]}, events[len(events) // 2:])
    play_azul(ref, {"players": ["Red", "Blue"]}, events[len(events) // 2:])
    assert type(d.screen).__name__ == "Final"
    assert d.record() == ref.record() and d.display.last_frame == ref.display.last_frame
    assert d.app.session.scores == ref.app.session.scores


class CountingFlash:
    """open() and the os calls of Storage on a real folder, counting every write."""

    def __init__(self):
        self.writes = []

    def open(self, path, mode="r"):
        if "r" not in mode:
            self.writes.append((mode, path))
        return open(path, mode)

    def __getattr__(self, name):  # stat, listdir... go straight to os
        return getattr(os, name)

    def rename(self, a, b):
        self.writes.append(("rename", a))
        os.rename(a, b)

    def remove(self, p):
        self.writes.append(("remove", p))
        os.remove(p)

    def mkdir(self, p):
        self.writes.append(("mkdir", p))
        os.mkdir(p)


def test_nothing_is_written_to_flash_while_idle(tmp_path, monkeypatch):
    from app.app import App
    monkeypatch.chdir(tmp_path)
    board = sim.load_board("pico")
    flash = CountingFlash()
    d = Driver.__new__(Driver)
    d.display, d.leds, d.clock = VirtualDisplay(), VirtualLeds(25, 1.0, "RGB"), Manual()
    d.data, d.keys = str(tmp_path / "data"), []
    d.app = App(d.display, d.leds, Storage(flash.open, flash), d.clock, board)
    d.new_game("Azul", "coloured", 2)
    d.entry("First marker")
    d.choose("Blue")
    assert flash.writes  # the game's lines went to the flash
    files = {n: os.stat(os.path.join("data", n)).st_mtime_ns for n in os.listdir("data")}
    flash.writes.clear()
    idle(d, 30 * MINUTE)
    assert not d.display.on
    d.press(OK)  # wakes
    idle(d, 30 * MINUTE)
    assert flash.writes == []
    assert {n: os.stat(os.path.join("data", n)).st_mtime_ns for n in os.listdir("data")} == files


def test_without_leds_a_dark_screen_shows_a_moving_dot(tmp_path):
    d = Driver(tmp_path)
    d.choose("Settings")
    d.choose("LEDs")
    d.set("LEDs", 0)
    d.save()
    idle(d, 10 * MINUTE)
    assert d.display.on and d.display.contrast_value == DIM_CONTRAST  # stays on: nothing else says "on"
    places = []
    for _ in range(4):
        rows = d.display.rows()
        dots = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "#"]
        assert len(dots) == 4  # one 2x2 dot, nothing else lit
        places.append(dots[0])
        idle(d, 4000)
    assert len(set(places)) == 4
    d.press(DOWN)  # wakes, does not move the cursor
    assert d.screen.title == "Settings" and d.screen.cursor == 0
    assert d.app.text()[0] == "Settings" and d.display.contrast_value == FULL_CONTRAST


def test_the_display_form_sets_the_idle_times(tmp_path):
    d = Driver(tmp_path)
    d.choose("Settings")
    d.choose("Display")
    d.set("dim", 30)
    d.set("dark", 0)  # never
    d.save()
    with open(os.path.join(d.data, "settings.json")) as f:
        saved = json.load(f)
    assert saved["dim_after"] == 30 and saved["blank_after"] == 0
    idle(d, 30000)
    assert d.display.contrast_value == DIM_CONTRAST
    times = idle(d, 60 * MINUTE)
    assert d.display.on and d.display.contrast_value == DIM_CONTRAST
    assert len(times) == 60 * MINUTE // NAP_MS  # nothing due: the longest sleeps
    d2 = Driver(tmp_path)  # read back at power-on
    assert (d2.app.settings["dim_after"], d2.app.settings["blank_after"]) == (30, 0)


@pytest.mark.parametrize("text,shown", [('{"dim_after": 100}', "dim 2 min"), ('{"dim_after": 45}', "dim 30 s")])
def test_a_time_set_by_hand_shows_as_the_nearest_choice(tmp_path, text, shown):
    os.makedirs(tmp_path / "data")
    (tmp_path / "data" / "settings.json").write_text(text)
    d = Driver(tmp_path)
    assert d.app.settings["dim_after"] == json.loads(text)["dim_after"]
    d.choose("Settings")
    d.choose("Display")
    assert d.rows()[0] == shown


def test_the_app_wakes_when_the_red_flash_and_a_message_end(tmp_path):
    d = Driver(tmp_path)
    d.press(BACK | LONG)  # undo with no game: refused, red LEDs for 250 ms, a message for 4 s
    t0 = d.clock.now
    assert "nothing to undo" in d.app.text() and len(lit(d)) == 25
    times = idle(d, 5000)
    assert times[0] == t0 + 250 and t0 + 4000 in times  # (and the longest naps between)
    assert "nothing to undo" not in d.app.text() and lit(d) == []


def test_a_message_stays_until_the_next_key_or_four_seconds(tmp_path):
    """A refusal is read before it goes: 3.8 s later it is still on the screen (the LEDs'
    red flash over after 250 ms, as before); the next key takes it away and still acts."""
    d = Driver(tmp_path)
    d.press(BACK | LONG)
    t0 = d.clock.now
    idle(d, 3800)
    assert "nothing to undo" in d.app.text() and lit(d) == []
    d.press(DOWN)
    assert d.clock.now - t0 < 4000 and "nothing to undo" not in d.app.text()
    assert d.screen.cursor == 1  # the key that cleared the message moved the cursor too


def test_the_final_chase_runs_until_the_screen_goes_dark(tmp_path):
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    play_azul(d, {"players": ["Red", "Blue"]}, shortest_azul_game())
    assert type(d.screen).__name__ == "Final"
    times = idle(d, 3 * MINUTE)  # dimmed after 2 minutes: the chase goes on, dimmer
    assert set(b - a for a, b in zip(times, times[1:])) <= {150} | set(range(FRAME_MS, 150))
    assert len(times) >= 3 * MINUTE // 150 - 1 and lit(d)
    times = idle(d, 8 * MINUTE)
    assert not d.display.on and len(idle(d, 15 * BEAT_MS)) <= 15 * PER_BLINK + 1


def test_the_final_chase_lights_every_third_led_in_the_winners_colour(tmp_path):
    """The chase moves one LED every 150 ms: at phase k (time // 150 % 3) the LEDs i with
    (i + k) % 3 == 0 show the winner's colour (two winners: three LEDs each in turn)."""
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    play_azul(d, {"players": ["Red", "Blue"]}, shortest_azul_game())
    won = d.screen.winners()
    assert won and type(d.screen).__name__ == "Final"
    seen = set()
    for t in frames(d, 600):
        k = t // 150 % 3
        frame = d.leds.frame_rgb()
        colours = [frame[i] for i in range(25) if (i + k) % 3 == 0]
        assert all(frame[i] == (0, 0, 0) for i in range(25) if (i + k) % 3)
        assert len(set(colours)) == len(won) and (0, 0, 0) not in colours
        seen.add(k)
    assert seen == {0, 1, 2}
