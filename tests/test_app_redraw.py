"""The frame drawn over the previous one (ui.Canvas keeps the rows that did not change)
is the frame drawn from a clear buffer: pixels and texts, at every few presses of games
that use every kind of screen (the Azul wall, Sintra's board forms, messages, menus)."""
import pytest

import test_firmware_micropython as games
from host_tools import sim


def drawn_from_clear(app):
    """(buffer, texts) of the current screen drawn on a clear buffer, as App.draw draws it."""
    cv = app.cv
    cv.forget()
    app.draw()
    return bytes(app.display.buffer), cv.texts()


@pytest.mark.parametrize("name", ["azul grey", "sintra A", "garden variant"])
def test_a_frame_drawn_over_the_last_equals_one_drawn_from_clear(tmp_path, name):
    keys = games.VARIANTS[name](tmp_path / "script").keys
    app, display, _, clock = sim.build("pico", str(tmp_path / "data"))
    calls = [0, 0]  # texts the frames hold, texts the steps drew into the buffer
    text = display.text

    def counted(*a):
        calls[1] += 1
        return text(*a)
    for n, k in enumerate(keys, 1):
        clock.now += sim.WAIT_MS if k is None else sim.KEY_STEP_MS
        display.text = counted
        app.step(clock.now, k)
        display.text = text
        calls[0] += app.cv.drawn
        if n % 5:
            continue  # a few frames in a row drawn over each other between checks
        over = (bytes(display.buffer), app.cv.texts())
        assert drawn_from_clear(app) == over, "press %d on %s" % (n, type(app.screen).__name__)
    print(name, calls)
    assert calls[1] < 0.8 * calls[0]  # rows were kept from frame to frame, not drawn again
