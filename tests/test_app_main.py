"""firmware/main.py, the composition root: board files and safe mode (on CPython)."""
import importlib.util
import os
import subprocess
import sys

import pytest

from hal import clock
from hal.buttons import ButtonLogic, Buttons

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_main():
    spec = importlib.util.spec_from_file_location("device_main", os.path.join(ROOT, "firmware", "main.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Reader:
    def __init__(self, mask):
        self.mask = mask

    def read(self):
        return self.mask


def buttons(mask):
    return Buttons(ButtonLogic(["UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK"]), Reader(mask))


def test_board_files_load_by_name():
    main = load_main()
    assert main.load_board("pico")["display"]["height"] == 64
    assert main.load_board("feather_rp2040")["three_button"]


def test_back_held_at_power_on_is_safe_mode():
    main = load_main()
    board = main.load_board("pico")
    assert main.safe_mode(buttons(1 << 5), board, clock)      # BACK held
    assert not main.safe_mode(buttons(0), board, clock)       # nothing held
    assert not main.safe_mode(buttons(1 << 4), board, clock)  # OK is not BACK here


def test_json_is_found_in_sys_modules_once_main_has_run():
    """MicroPython keeps no built-in module that a file could replace in sys.modules, so each
    `import json` looks it up on the filesystem first (5.8 ms on a Pico's littlefs); main.py
    puts the ones imported ahead there (the unix port, which imports the same way)."""
    import mp
    script = ("import sys\nsys.path.insert(0, 'firmware')\nimport json\nprint('json' in sys.modules)\n"
              "import main\nprint('json' in sys.modules, sys.modules['json'] is json, 'collections' in sys.modules)\n")
    r = mp.run(["-c", script])
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "True", "True", "True"]


def test_idle_frames_never_look_at_the_heap(tmp_path):
    """Idle work never asks gc.mem_free(): it scans the heap's whole allocation table (9 ms
    on a Pico)."""
    from hal.keys import OK
    from test_app_games import Driver
    main = load_main()
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    asked = []
    main._mem_free = lambda: asked.append(1) or 0
    calls = []
    ahead = d.app.prepare
    d.app.prepare = lambda: calls.append(1) or ahead()
    while main.idle(d.app):  # the scoreboard's own work ahead
        pass
    d.press(OK)
    while main.idle(d.app):  # the entry menu's: its first item's form made ahead
        pass
    assert asked == [] and len(calls) >= 2


def test_the_loop_collects_right_after_a_press_only(monkeypatch):
    """The collector's place: right after a press's frame (or the first) is sent, once less
    than COLLECT_FREE is free (not in a turn without a key, however low the heap), before
    that turn's piece of idle work. While BACK is down a turn runs App.prepare_undo (a piece of the
    game's undo work ahead), not idle (imports, the screen's work), a frame apart, in the
    first HELD_WORK_MS of the hold (the undo fires at 600 ms)."""
    import types
    main = load_main()
    from hal import clock
    log = []
    keys = [None, None, None, None, "OK", None]  # take() twice a turn (latched keys)

    class Stop(Exception):
        pass

    class App:
        def __init__(self, *a):
            pass

        def step(self, now, key):
            log.append(("step", key))

        def prepare_undo(self):
            log.append("held")

        def quiet_ms(self, now):
            return 5000

    work = [True, True, True, False]
    busy = [False, False, False, True, True, False]

    def idle(app, held=None):
        if held is not None:
            return held()
        log.append("idle")
        return work.pop(0)

    def take():
        return keys.pop(0) if keys else None

    def sleep(ms):
        log.append(("sleep", ms))
        if len([e for e in log if e[0] == "sleep"]) == 6:
            raise Stop()
    main._mem_free = lambda: main.COLLECT_FREE - 1
    main.gc = type("gc", (), {"collect": staticmethod(lambda: log.append("collect"))})
    monkeypatch.setattr(main, "load_board", lambda name: {"sleep": None})
    monkeypatch.setattr(main, "safe_mode", lambda *a: False)
    monkeypatch.setattr(main, "idle", idle)
    monkeypatch.setattr(clock, "sleep_ms", sleep)
    import app.app
    import hal.buttons
    import hal.display
    import hal.leds
    monkeypatch.setattr(app.app, "App", App)
    monkeypatch.setattr(hal.display, "display_from_board", lambda b: None)
    monkeypatch.setattr(hal.leds, "leds_from_board", lambda b: None)
    monkeypatch.setattr(hal.buttons, "buttons_from_board", lambda b: types.SimpleNamespace(
        poll=lambda now: None, take=take, busy=lambda: busy.pop(0),
        logic=types.SimpleNamespace(held=lambda code: True)))
    try:
        main.main()
    except Stop:
        pass
    assert log == ["collect",  # the boot's, before the App is built
                   ("step", None), "collect", "idle", ("sleep", main.FRAME_MS),  # the first frame
                   ("step", None), "idle", ("sleep", main.FRAME_MS),  # no key: no collection
                   ("step", "OK"), "collect", "idle", ("sleep", main.FRAME_MS),  # the press, then it
                   ("step", None), "held", ("sleep", main.FRAME_MS),  # BACK down
                   ("step", None), "held", ("sleep", main.FRAME_MS),
                   ("step", None), "idle", ("sleep", main.POLL_MS)]  # nothing left: a longer sleep
    assert main.HELD_WORK_MS + 100 <= 600  # (hal.buttons: BACK's long press, the undo)


def test_app_held_folds_what_the_next_undo_takes(tmp_path):
    """App.prepare_undo, the loop's work while BACK is held, is a piece of ReadBack.prepare: the final
    round end undone, it folds the state the next undo takes."""
    from host_tools import sim
    from hal.keys import BACK, LONG
    data = tmp_path / "data"
    data.mkdir()
    (data / "current.jsonl").write_text(open("tests/golden/5211_4p.jsonl").read())
    app = sim.build("pico", str(data))[0]
    app.step(100, BACK | LONG)  # the final round end undone: the next undo's state to fold
    s = app.session
    assert s._next is None and type(app.screen).__name__ == "Scoreboard"
    while app.prepare_undo():
        pass
    assert s._next is not None and s._next[0] == len(s.done)


def test_a_bug_in_the_work_ahead_is_logged_once_and_the_loop_goes_on(tmp_path):
    """The work ahead lets only refused input and a full heap go (Save.prepare); a bug there
    reaches main.idle, which logs it with its traceback as a press's crash is, leaves the
    screen as it is and asks for no more work ahead until a key: errors.log gets one entry,
    not one a frame, and the key's press does the work itself."""
    from host_tools import sim
    from hal.keys import DOWN
    main = load_main()
    data = tmp_path / "data"
    app = sim.build("pico", str(data))[0]
    screen = app.screen
    calls = []

    def broken():
        calls.append(1)
        raise TypeError("bad piece")
    screen.prepare = broken
    assert main.idle(app) is False and calls == [1]
    assert main.idle(app) is False and calls == [1]  # paused: not tried again, not logged again
    log = (data / "errors.log").read_text().splitlines()
    assert log[0] == "TypeError: bad piece"
    assert any("in broken" in line for line in log[1:]) and all(l.startswith("  ") for l in log[1:])
    assert app.screen is screen and not any(t.startswith("error") for t in app.text())
    app.step(app.now + 100, DOWN)  # a key: the work ahead is tried again
    assert main.idle(app) is False and calls == [1, 1]
    log = (data / "errors.log").read_text().splitlines()
    assert [l for l in log if not l.startswith(" ")] == ["TypeError: bad piece"] * 2


def menu_on_flash(tmp_path, monkeypatch, history):
    """The App at its main menu, with app/history.py on flash holding `history` (bytes) in
    place of the real module (the package looks in tmp_path first), not loaded yet."""
    import app as package
    from host_tools import sim
    on_flash = tmp_path / "flash" / "app"
    on_flash.mkdir(parents=True)
    (on_flash / "history.py").write_bytes(history)
    monkeypatch.setattr(package, "__path__", [str(on_flash)] + list(package.__path__))
    monkeypatch.delitem(sys.modules, "app.history", raising=False)
    monkeypatch.delattr(package, "history", raising=False)  # put back after the test
    data = tmp_path / "data"
    return sim.build("pico", str(data))[0], data


def test_a_damaged_module_on_flash_is_said_by_the_press_that_needs_it(tmp_path, monkeypatch):
    """Real bytes that are not a module (erased flash) where app/history.py should be:
    History's press imports it and says what went wrong, back at the main menu, and logs it."""
    from hal.keys import DOWN, OK
    app, data = menu_on_flash(tmp_path, monkeypatch, b"\xff" * 256)
    app.step(app.now + 100, DOWN)
    app.step(app.now + 100, DOWN)  # the cursor on History (below Check a score)
    app.step(app.now + 100, OK)
    assert type(app.screen).__name__ == "MainMenu" and "History" in app.text()
    assert any(t.startswith("error:") for t in app.text()), app.text()
    log = [l for l in (data / "errors.log").read_text().splitlines() if not l.startswith("  ")]
    assert len(log) == 1 and log[0].startswith("SyntaxError: ")


@pytest.mark.parametrize("error", [TypeError, MemoryError])
def test_a_frame_drawn_ahead_lets_a_bug_reach_main_idle(tmp_path, monkeypatch, error):
    """Canvas.draw_ahead (here the scoreboard the final standings' undo shows, drawn in an idle
    frame) leaves only a full heap to the press, which draws the frame itself; a bug in the
    drawing reaches main.idle, which logs it. Either way the frame on screen is untouched."""
    from app.scoreboard import Scoreboard
    from hal.keys import BACK, LONG
    from host_tools import sim
    main = load_main()
    data = tmp_path / "data"
    data.mkdir()
    (data / "current.jsonl").write_text(open(os.path.join(ROOT, "tests", "golden", "5211_4p.jsonl")).read())
    app = sim.build("pico", str(data))[0]
    assert type(app.screen).__name__ == "Final"
    draw = Scoreboard.draw
    raised = []

    def broken(self, cv):
        if not raised:
            raised.append(1)
            raise error("drawn ahead")
        draw(self, cv)
    monkeypatch.setattr(Scoreboard, "draw", broken)
    shown = bytes(app.cv.d.buffer)
    while main.idle(app):
        pass
    assert raised and bytes(app.cv.d.buffer) == shown and app.cv.spare is None
    if error is TypeError:
        log = (data / "errors.log").read_text().splitlines()
        assert log[0] == "TypeError: drawn ahead" and any("in broken" in l for l in log[1:])
        assert app.paused
    else:
        assert not (data / "errors.log").exists() and not app.paused
    app.step(app.now + 100, BACK | LONG)  # the undo draws the scoreboard itself
    assert type(app.screen).__name__ == "Scoreboard" and app.text()[0].startswith("5211")


def run_main(monkeypatch, board, app_class, display=None):
    """main.main() over fakes: board dict, App class, what display_from_board returns (or
    raises); it runs until a fake stops it (Stop)."""
    import types
    main = load_main()
    import app.app
    import hal.buttons
    import hal.display
    import hal.leds

    def display_from_board(b):
        if isinstance(display, Exception):
            raise display
        return display
    monkeypatch.setattr(main, "load_board", lambda name: board)
    monkeypatch.setattr(main, "safe_mode", lambda *a: False)
    monkeypatch.setattr(main, "idle", lambda app, held=None: False)
    monkeypatch.setattr(app.app, "App", app_class)
    monkeypatch.setattr(hal.display, "display_from_board", display_from_board)
    monkeypatch.setattr(hal.leds, "leds_from_board", lambda b: "leds")
    monkeypatch.setattr(hal.buttons, "buttons_from_board", lambda b: types.SimpleNamespace(
        poll=lambda now: None, take=lambda: None, busy=lambda: False, wake_on_press=lambda: None,
        logic=types.SimpleNamespace(held=lambda code: False)))
    return main


class Stop(Exception):
    pass


def test_once_dark_with_nothing_due_the_loop_sleeps_until_a_button(monkeypatch):
    """"deep_sleep": "dormant": hal.clock.deep_sleep(the buttons' pins, their pressed level)
    once the App is dark (app.idle BLANK) and nothing is due, never before."""
    from app.idle import ACTIVE, DIM, BLANK, FOREVER_MS
    log = []
    turns = [(ACTIVE, 500), (DIM, FOREVER_MS), (BLANK, 1500), (BLANK, FOREVER_MS)]

    class App:
        def __init__(self, *a):
            import types
            self.idle = types.SimpleNamespace(level=ACTIVE)

        def step(self, now, key):
            self.idle.level, self.quiet = turns.pop(0)

        def quiet_ms(self, now):
            return self.quiet

    def deep_sleep(pins, level):
        log.append(("deep", pins, level))
        raise Stop()
    board = {"sleep": "lightsleep", "deep_sleep": "dormant", "buttons": {"UP": 10, "OK": 14},
             "encoder": {"a": 2, "b": 3, "push": 7}, "button_pull": "up"}
    main = run_main(monkeypatch, board, App)
    monkeypatch.setattr(clock, "deep_sleep", deep_sleep)
    monkeypatch.setattr(clock, "light_sleep_ms", lambda ms: log.append(("nap", ms)))
    with pytest.raises(Stop):
        main.main()
    assert log == [("nap", 500), ("nap", main.NAP_MS), ("nap", 1500), ("deep", [10, 14, 7], 0)]


def test_a_board_without_deep_sleep_naps_when_dark(monkeypatch):
    from app.idle import BLANK, FOREVER_MS
    log = []

    class App:
        def __init__(self, *a):
            import types
            self.idle = types.SimpleNamespace(level=BLANK)

        def step(self, now, key):
            pass

        def quiet_ms(self, now):
            return FOREVER_MS

    def nap(ms):
        log.append(ms)
        if len(log) == 3:
            raise Stop()
    main = run_main(monkeypatch, {"sleep": "lightsleep", "buttons": {"OK": 14}}, App)
    monkeypatch.setattr(clock, "deep_sleep", lambda *a: log.append("deep"))
    monkeypatch.setattr(clock, "light_sleep_ms", nap)
    with pytest.raises(Stop):
        main.main()
    assert log == [main.NAP_MS] * 3


def test_no_display_runs_the_leds_and_buttons_alone(monkeypatch):
    """display_from_board raises NoDisplay: no App; app.nodisplay.run gets the error, the
    LEDs, the buttons, and the board's naps, deep sleep and watchdog."""
    from hal.display import NoDisplay
    import app.nodisplay
    got = []
    error = NoDisplay("no display on I2C0 (SDA 4, SCL 5): nothing answered at 0x3C or 0x3D")

    class App:
        def __init__(self, *a):
            got.append("App")
    main = run_main(monkeypatch, {"sleep": "lightsleep", "deep_sleep": "dormant", "buttons": {"OK": 14}},
                    App, error)
    monkeypatch.setattr(app.nodisplay, "run", lambda *a: got.append(a))
    main.main()
    assert len(got) == 1 and got[0][0] is error and got[0][1] == "leds"
    assert got[0][5] is clock.light_sleep_ms and callable(got[0][6])  # the nap, the deep sleep


def test_deep_sleep_returns_on_a_port_that_cannot_sleep_so():
    """No machine.mem32 (CPython here, the virtual board's unix port): deep_sleep returns and
    main.py's loop naps as on any other board."""
    assert clock.deep_sleep([14], 0) is None
