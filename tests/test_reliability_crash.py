"""Crash handling: a screen that raises shows a short message, is logged in data/errors.log
(one summary line, then the traceback indented), and the App returns to the scoreboard with
the game intact; main.py feeds the watchdog."""
import os
import sys
import types

from test_app_games import Driver
from test_app_main import load_main
from hal.keys import OK, DOWN
from rules_core.session import replay


def crash_log(d):
    """(summary lines, traceback lines) of data/errors.log: a traceback line is indented."""
    with open(os.path.join(d.data, "errors.log")) as f:
        lines = f.read().splitlines()
    return [l for l in lines if not l.startswith(" ")], [l for l in lines if l.startswith(" ")]


def started(tmp_path):
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    d.press(OK)
    d.choose("First marker")
    d.choose("Blue")
    return d


def test_exception_in_draw_is_shown_logged_and_the_game_kept(tmp_path):
    d = started(tmp_path)
    before = d.app.session.result()
    d.press(OK)  # the entries menu

    def broken(cv):
        raise ZeroDivisionError("bad cell")
    d.screen.draw = broken
    d.press(DOWN)
    assert type(d.screen).__name__ == "Scoreboard"
    assert d.app.text()[-1].startswith("error: bad cell")  # the message line, inverse video
    assert d.app.session.result() == before == replay(d.record())[0].result()
    summary, trace = crash_log(d)
    assert summary == ["ZeroDivisionError: bad cell"]
    assert trace[0] == "  Traceback (most recent call last):" and any("in broken" in l for l in trace)
    d.wait()  # the message times out (4 s); the scoreboard is back and keys work again
    d.wait()
    assert not any(t.startswith("error") for t in d.app.text())
    d.press(OK)
    assert type(d.screen).__name__ == "EntryMenu"


def test_two_crashes_append_two_log_lines(tmp_path):
    d = started(tmp_path)
    for text in ("one", "two"):
        d.press(OK)

        def broken(k, text=text):
            raise RuntimeError(text)
        d.screen.key = broken
        d.press(DOWN)
    summary, trace = crash_log(d)
    assert summary == ["RuntimeError: one", "RuntimeError: two"]
    assert sum(1 for l in trace if "Traceback" in l) == 2


class Stop(Exception):
    pass


def test_main_loop_feeds_the_watchdog_each_frame(monkeypatch):
    """Boards with "watchdog": True get machine.WDT(timeout=8000), fed once per frame."""
    main = load_main()
    fed = []

    class WDT:
        def __init__(self, timeout):
            fed.append(("timeout", timeout))

        def feed(self):
            fed.append("feed")
    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(WDT=WDT))
    board = dict(main.load_board("pico"))
    assert board["watchdog"]
    assert main.watchdog(board) is not None and fed == [("timeout", main.WATCHDOG_MS)]
    del fed[:]
    board["watchdog"] = False
    assert main.watchdog(board) is None and fed == []
    # the loop itself: four frames, then stop; one feed per frame. Between frames it sleeps
    # what the App says is quiet (at most NAP_MS, in a light sleep the buttons end: the Pico's
    # board file asks for it), and a plain frame while a button is down or while work is left
    # to do ahead (App.prepare: modules to import, a screen's own).
    from hal import clock
    frames = []
    quiet = [5000, 30]
    busy = [False, False, False, True]
    wanted = [True, False, False]

    class App:
        paused = False

        def __init__(self, *a):
            pass

        def step(self, now, key):
            pass

        def quiet_ms(self, now):
            return quiet.pop(0)

        def prepare(self):
            return wanted.pop(0)

    def sleeper(kind):
        def sleep(ms):
            frames.append((kind, ms))
            if len(frames) == 4:
                raise Stop()
        return sleep
    monkeypatch.setattr(main, "load_board", lambda name: dict(board, watchdog=True))
    monkeypatch.setattr(main, "safe_mode", lambda *a: False)
    monkeypatch.setattr(clock, "sleep_ms", sleeper("plain"))
    monkeypatch.setattr(clock, "light_sleep_ms", sleeper("light"))
    import app.app
    import hal.display
    import hal.leds
    import hal.buttons
    monkeypatch.setattr(app.app, "App", App)
    monkeypatch.setattr(hal.display, "display_from_board", lambda b: None)
    monkeypatch.setattr(hal.leds, "leds_from_board", lambda b: None)
    monkeypatch.setattr(hal.buttons, "buttons_from_board", lambda b: types.SimpleNamespace(
        poll=lambda now: None, take=lambda: None, busy=lambda: busy.pop(0),
        logic=types.SimpleNamespace(held=lambda code: False)))
    try:
        main.main()
    except Stop:
        pass
    assert frames == [("plain", main.FRAME_MS), ("light", main.NAP_MS), ("light", 30), ("plain", main.FRAME_MS)]
    assert fed == [("timeout", main.WATCHDOG_MS), "feed", "feed", "feed", "feed"]
