"""Stand-ins for runtime modules so the firmware runs off the board.

framebuf.py  CPython work-alike of MicroPython's framebuf (importable as `framebuf`).
mp/          fake `machine` and `neopixel` for the MicroPython unix port: put this folder
             first on the micropython sys.path; they record what the HAL writes. The
             virtual board uses the same two.
vboard/      the virtual board's side inside the unix port (REPL protocols); vboard/mip/
             holds the offline copy of micropython-lib's ssd1306 driver (on a board:
             `mip install ssd1306`).
"""
