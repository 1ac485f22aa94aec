"""firmware/main.py, the composition root: board files and safe mode (on CPython)."""
import importlib.util
import os

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
