"""CircuitPython's boot.py (`azul-companion flash --drive` copies this file there as boot.py).

CircuitPython lets either the computer (over USB) or the board's code write the CIRCUITPY
drive, never both, and decides in boot.py, before USB starts. The app must write every
entry to its record, so the drive goes to the code; the safe-mode button held at power-on
(OK on three-button boards, BACK otherwise: main.py's safe mode) leaves it to the computer,
to update the firmware or copy the records in data/ off the drive.
"""
import storage

import main
from hal import clock
from hal.buttons import buttons_from_board


def boot():
    board = main.load_board(main.board_name())
    if main.safe_mode(buttons_from_board(board), board, clock):
        print("safe mode: the drive stays writable from the computer")
    else:
        storage.remount("/", readonly=False)  # readonly is seen from the code: the code may write


boot()
