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


def test_idle_frames_import_ahead_and_never_look_at_the_heap(tmp_path, monkeypatch):
    """One piece of idle work a frame (a press that comes meanwhile waits for it), and none
    asks gc.mem_free(): it scans the heap's whole allocation table (9 ms on a Pico)."""
    import app as package
    from host_tools import sim
    for name in ("history", "system"):  # not loaded yet, as on a board (earlier tests load them)
        monkeypatch.delitem(sys.modules, "app." + name, raising=False)
        monkeypatch.setattr(package, name, None, raising=False)  # put back after the test
    main = load_main()
    app = sim.build("pico", str(tmp_path / "data"))[0]
    del app.wanted[:]  # (the main menu's own: the new-game steps)
    app.expect(["app.history", "app.system"])
    asked = []
    main._mem_free = lambda: asked.append(1) or 0
    assert main.idle(app) and app.wanted == ["app.system"]
    assert main.idle(app) and app.wanted == []
    while main.idle(app):  # the main menu's own work ahead
        pass
    assert asked == []


def test_the_loop_collects_right_after_a_press_only(monkeypatch):
    """The collector's place: right after a press's frame (or the first) is sent, once less
    than COLLECT_FREE is free (not in a turn without a key, however low the heap), before
    that turn's piece of idle work. While BACK is down a turn runs App.held (a piece of the
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

        def held(self):
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
    """App.held, the loop's work while BACK is held, is a piece of ReadBack.ahead: the final
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
    while app.held():
        pass
    assert s._next is not None and s._next[0] == len(s._done)


def test_a_bug_in_the_work_ahead_is_logged_once_and_the_loop_goes_on(tmp_path):
    """The work ahead lets only refused input and a full heap go (Save.ahead); a bug there
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
    screen.ahead = broken
    del app.wanted[:]
    assert main.idle(app) is False and calls == [1]
    assert main.idle(app) is False and calls == [1]  # stalled: not tried again, not logged again
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
    monkeypatch.setattr(package, "history", None, raising=False)  # put back after the test
    data = tmp_path / "data"
    return sim.build("pico", str(data))[0], data


@pytest.mark.parametrize("ahead", ["prefetch", "menu"])
def test_a_bug_in_a_module_imported_ahead_reaches_main_idle(tmp_path, monkeypatch, ahead):
    """A module whose own code raises a TypeError when imported ahead (App.prefetch, or
    MainMenu.ahead with the cursor on History) is a bug, not a file the flash lost: main.idle
    logs it with its traceback, once, and the screen stays as it is."""
    from hal.keys import DOWN
    main = load_main()
    app, data = menu_on_flash(tmp_path, monkeypatch, b"BROKEN = len(3)\n")
    if ahead == "prefetch":
        app.expect(["app.history"])
    else:
        app.step(app.now + 100, DOWN)
        app.step(app.now + 100, DOWN)  # the cursor on History (below Check a score)
    rows = app.text()
    while main.idle(app):
        pass
    log = (data / "errors.log").read_text().splitlines()
    assert [l for l in log if not l.startswith("  ")] == ["TypeError: object of type 'int' has no len()"]
    assert any("history.py" in l for l in log[1:])
    assert app.stalled and app.text() == rows


@pytest.mark.parametrize("ahead", ["prefetch", "menu"])
def test_a_damaged_module_on_flash_is_left_to_the_press_that_needs_it(tmp_path, monkeypatch, ahead):
    """Real bytes that are not a module (erased flash) where app/history.py should be: the
    import ahead fails, is noted in the log, and the work ahead goes on; History's press
    imports it again and says what went wrong, back at the main menu."""
    from hal.keys import DOWN, OK
    main = load_main()
    app, data = menu_on_flash(tmp_path, monkeypatch, b"\xff" * 256)
    if ahead == "prefetch":
        app.expect(["app.history"])
    else:
        app.step(app.now + 100, DOWN)
        app.step(app.now + 100, DOWN)  # the cursor on History (below Check a score)
    while main.idle(app):
        pass
    assert not app.stalled and "app.history" not in sys.modules
    log = (data / "errors.log").read_text().splitlines()
    assert len(log) == 1 and log[0].startswith("ahead app.history: SyntaxError: ")
    if ahead == "prefetch":
        app.step(app.now + 100, DOWN)
        app.step(app.now + 100, DOWN)
    app.step(app.now + 100, OK)
    assert type(app.screen).__name__ == "MainMenu" and "History" in app.text()
    assert any(t.startswith("error: ") for t in app.text())
    assert [l for l in (data / "errors.log").read_text().splitlines() if not l.startswith("  ")][1:] \
        == [log[0].split(": ", 1)[1]]


@pytest.mark.parametrize("error", [TypeError, MemoryError])
def test_a_frame_drawn_ahead_lets_a_bug_reach_main_idle(tmp_path, monkeypatch, error):
    """Canvas.ahead (here the scoreboard the final standings' undo shows, drawn in an idle
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
        assert app.stalled
    else:
        assert not (data / "errors.log").exists() and not app.stalled
    app.step(app.now + 100, BACK | LONG)  # the undo draws the scoreboard itself
    assert type(app.screen).__name__ == "Scoreboard" and app.text()[0].startswith("5211")


def test_fetch_lets_a_damaged_mpy_go_and_raises_a_bug_on_micropython(tmp_path):
    """A board's modules are .mpy files. One that is not this MicroPython's (its version
    byte), or random bytes, is refused with an error fetch() (the work ahead's import) lets
    go; an .mpy whose own code has a bug raises out of it (main.idle logs it)."""
    import random
    import mp
    for name, text in (("good", "X = 1\n"), ("bug", "X = len(3)\n")):
        (tmp_path / (name + ".py")).write_text(text)
        subprocess.run([mp.mpy_cross(), "-o", str(tmp_path / (name + ".mpy")), str(tmp_path / (name + ".py"))],
                       check=True, timeout=60)
        (tmp_path / (name + ".py")).unlink()
    good = (tmp_path / "good.mpy").read_bytes()
    (tmp_path / "other.mpy").write_bytes(good[:1] + bytes([good[1] + 1]) + good[2:])
    (tmp_path / "noise.mpy").write_bytes(bytes(random.Random(1).randrange(256) for _ in range(256)))
    script = ("import sys\nsys.path[0:0] = ['firmware', '', %r]\nfrom app.app import fetch\n"
              "class App:\n    def log(self, text):\n        print(text)\n"
              "for name in ('good', 'other', 'noise', 'bug'):\n"
              "    try:\n        print(name, fetch(App(), name))\n"
              "    except Exception as e:\n        print(name, 'raised', type(e).__name__)\n" % str(tmp_path))
    r = mp.run(["-c", script])
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["good True",
                                     "ahead other: ValueError: incompatible .mpy file", "other False",
                                     "ahead noise: ValueError: incompatible .mpy file", "noise False",
                                     "bug raised TypeError"]
