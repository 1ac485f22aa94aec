"""CircuitPython's boot.py (`azul-companion flash --drive` copies this file there as boot.py).

CircuitPython lets either the computer (over USB) or the board's code write the CIRCUITPY
drive, never both, and decides in boot.py, before USB starts. With the board file's FRAM
fitted the games live there (main.storage_from_board) and the drive stays the computer's:
the app never writes the flash, so no power cut can damage the drive. Without it the games
go on the drive, so the drive goes to the code. The safe-mode button held at power-on (OK on
three-button boards, BACK otherwise: main.py's safe mode) leaves the drive to the computer
and starts no app; with the FRAM fitted, its files are first copied onto the drive's
EXPORT folder (what is there and no longer on the FRAM removed), to be copied off.
"""
import os

import storage

import main
from hal import clock
from hal.buttons import buttons_from_board

EXPORT = "fram"  # (the drive's root: CircuitPython runs boot.py there)


def export(st, folder="data"):
    """Every file below `folder` on the FRAM copied to EXPORT + "/" + folder on the drive
    (written only where it differs), and what the drive has there beyond them removed."""
    mine = EXPORT + "/" + folder
    try:
        os.mkdir(mine)
    except OSError:
        pass
    kept = []
    for name, is_dir in st.entries(folder):
        kept.append(name)
        if is_dir:
            export(st, folder + "/" + name)
            continue
        data = st.read(folder + "/" + name)
        try:
            with open(mine + "/" + name, "rb") as f:
                same = f.read() == data
        except OSError:
            same = False
        if not same:
            with open(mine + "/" + name, "wb") as f:
                f.write(data)
    for name in os.listdir(mine):
        if name not in kept:
            try:
                os.remove(mine + "/" + name)
            except OSError:  # (a folder: left)
                pass


def boot():
    board = main.load_board(main.board_name())
    safe = main.safe_mode(buttons_from_board(board), board, clock)
    st = main.storage_from_board(board)
    on_fram = board.get("store") is not None and st.cut_safe  # (not cut_safe: the FRAM not found)
    if safe:
        if on_fram:
            storage.remount("/", readonly=False)
            try:
                os.mkdir(EXPORT)
            except OSError:
                pass
            export(st)
            os.sync()
            storage.remount("/", readonly=True)
            print("safe mode: the FRAM's files copied to %s" % EXPORT)
        print("safe mode: the drive stays writable from the computer")
    elif not on_fram:
        storage.remount("/", readonly=False)  # readonly is seen from the code: the code may write


boot()
