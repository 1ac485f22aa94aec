"""firmware/main.py, the composition root: board files and safe mode (on CPython)."""
import importlib.util
import os
import sys

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


def test_an_idle_frame_that_collects_the_garbage_imports_nothing(tmp_path, monkeypatch):
    """One piece of idle work a frame (a press that comes meanwhile waits for it): a frame
    that collects leaves the next module to import to the next frame."""
    import app as package
    from host_tools import sim
    for name in ("history", "system"):  # not loaded yet, as on a board (earlier tests load them)
        monkeypatch.delitem(sys.modules, "app." + name, raising=False)
        monkeypatch.setattr(package, name, None, raising=False)  # put back after the test
    main = load_main()
    app = sim.build("pico", str(tmp_path / "data"))[0]
    del app.wanted[:]  # (the main menu's own: the new-game steps)
    app.expect(["app.history", "app.system"])
    free = [main.TIDY_FREE - 1, main.TIDY_FREE * 4, main.TIDY_FREE * 4, main.TIDY_FREE * 4]
    main._mem_free = lambda: free.pop(0) if len(free) > 1 else free[0]
    collected = []
    main.gc = type("gc", (), {"collect": staticmethod(lambda: collected.append(1))})
    assert main.idle(app) and collected == [1]
    assert app.wanted == ["app.history", "app.system"]  # nothing imported in that frame
    assert main.idle(app) and app.wanted == ["app.system"]
    assert main.idle(app) and app.wanted == []
    assert not main.idle(app) and collected == [1]  # nothing left: the loop may sleep
