"""LEDs: brightness cap and wire order, through a write function and the real CircuitPython
neopixel package (adafruit-circuitpython-neopixel) with neopixel_write captured.

Cap 0.25 -> 64/255: 255 -> 64, 128 -> 32, 40 -> 10, 20 -> 5, 10 -> 2 (v * 64 // 255).
"""
import importlib
import sys
import types

import pytest

from hal.leds import Leds, leds_from_board
from host_tools.vhal import VirtualLeds

COLOURS = [(255, 0, 0), (0, 128, 0), (10, 20, 40)]
GRB_CAPPED = bytes([0, 64, 0, 32, 0, 0, 5, 2, 10])


def test_write_function_gets_grb_capped_bytes_once_per_show():
    leds = VirtualLeds(3, brightness_max=0.25)
    for i, c in enumerate(COLOURS):
        leds[i] = c
    assert leds.frames == []  # nothing is written before show()
    leds.show()
    assert leds.frames == [GRB_CAPPED]
    assert leds.frame_rgb() == [(64, 0, 0), (0, 32, 0), (2, 5, 10)]
    assert leds[2] == (10, 20, 40)  # the app's colour is kept uncapped


def test_a_frame_made_ahead_is_put_back_whole_and_shown_as_set_one_by_one():
    leds = VirtualLeds(3, brightness_max=0.25)
    for i, c in enumerate(COLOURS):
        leds[i] = c
    made = leds.frame()
    leds.fill((0, 0, 0))
    leds.show()
    leds.put(made)
    assert leds.frames == [bytes(9)]  # nothing is written before show()
    leds.show()
    assert leds.frames[-1] == GRB_CAPPED and [leds[i] for i in range(3)] == COLOURS


def test_set_changed_writes_what_leds_i_would_and_only_the_changed_leds():
    one, many = VirtualLeds(3, brightness_max=0.25), VirtualLeds(3, brightness_max=0.25)
    for i, c in enumerate(COLOURS):
        one[i] = c
    shown = [None] * 3
    many.set_changed(COLOURS, shown)
    assert shown == COLOURS and many.frame() == one.frame()
    many.put((bytes(9), bytes(9)))  # behind shown's back: only a changed colour is written
    w = [COLOURS[0], (255, 128, 40), COLOURS[2]]
    many.set_changed(w, shown)
    assert shown == w and [many[i] for i in range(3)] == [(0, 0, 0), (255, 128, 40), (0, 0, 0)]
    many.show()
    assert many.frames == [bytes([0, 0, 0, 32, 64, 10, 0, 0, 0])]  # GRB, capped


def test_fill_full_brightness_and_rgb_order():
    got = []
    leds = Leds(2, got.append, brightness_max=1.0, order="RGB")
    leds.fill((1, 2, 3))
    leds.show()
    assert bytes(got[0]) == bytes([1, 2, 3, 1, 2, 3])


def test_index_and_cap_errors_name_the_problem():
    leds = VirtualLeds(2)
    try:
        leds[2] = (1, 1, 1)
    except IndexError as e:
        assert "2" in str(e)
    else:
        raise AssertionError("index 2 accepted")
    try:
        Leds(1, print, brightness_max=1.5)
    except ValueError as e:
        assert "1.5" in str(e)
    else:
        raise AssertionError("cap 1.5 accepted")


def _real_circuitpython_neopixel(monkeypatch):
    """Import the venv's neopixel.py with board/digitalio stubbed and neopixel_write captured."""
    writes = []

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.direction = None

        def deinit(self):
            pass

    monkeypatch.setitem(sys.modules, "board", types.SimpleNamespace(NEOPIXEL="GPIO16", D10="GPIO10"))
    monkeypatch.setitem(sys.modules, "digitalio", types.SimpleNamespace(
        DigitalInOut=DigitalInOut, Direction=types.SimpleNamespace(OUTPUT="out")))
    monkeypatch.setitem(sys.modules, "neopixel_write", types.SimpleNamespace(
        neopixel_write=lambda pin, buf: writes.append((pin.pin, bytes(buf)))))
    monkeypatch.delitem(sys.modules, "neopixel", raising=False)
    neopixel = importlib.import_module("neopixel")
    assert "site-packages" in neopixel.__file__  # the package's own code, not a stub
    return neopixel, writes


def test_circuitpython_backend_with_real_neopixel_package(monkeypatch):
    neopixel, writes = _real_circuitpython_neopixel(monkeypatch)
    device = neopixel.NeoPixel("GPIO16", 3, brightness=1.0, auto_write=False, pixel_order="GRB")
    leds = Leds(3, device, brightness_max=0.25, order="GRB")
    for i, c in enumerate(COLOURS):
        leds[i] = c
    assert writes == []
    leds.show()
    assert writes == [("GPIO16", GRB_CAPPED)]


def test_circuitpython_leds_from_board(monkeypatch):
    _, writes = _real_circuitpython_neopixel(monkeypatch)
    board = {"name": "feather", "runtime": "circuitpython",
             "leds": {"driver": "neopixel", "pin": "NEOPIXEL", "count": 1, "order": "GRB",
                      "brightness_max": 0.25}}
    leds = leds_from_board(board)
    leds[0] = (255, 255, 255)
    leds.show()
    assert writes == [("GPIO16", bytes([64, 64, 64]))]


def test_a_rail_switches_on_before_the_first_lit_frame_and_off_for_a_dark_one():
    """Leds(power=...): a dark frame writes nothing and turns the rail off, a lit one turns
    it on first; the same frame again changes nothing."""
    log = []
    leds = Leds(3, lambda buf: log.append(bytes(buf)), 0.25, "GRB", lambda on: log.append(("rail", on)))
    assert leds.switched and not leds.powered
    leds.show()
    assert log == []  # dark from the start: the rail stays off
    leds[1] = (255, 0, 0)
    leds.show()
    leds.show()
    lit = bytes([0, 0, 0, 0, 64, 0, 0, 0, 0])  # LED 1 red, capped, GRB
    assert log == [("rail", 1), lit, lit]
    leds[1] = (0, 0, 0)
    leds.show()
    leds.show()
    assert log[3:] == [("rail", 0)] and not leds.powered


def test_a_rail_on_circuitpython_is_refused_in_one_line():
    board = {"name": "feather", "runtime": "circuitpython",
             "leds": {"driver": "neopixel", "pin": "NEOPIXEL", "count": 1, "rail": "D10"}}
    with pytest.raises(ValueError, match="board 'feather': an LED rail is not supported on CircuitPython"):
        leds_from_board(board)
