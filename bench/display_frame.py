"""How long a frame takes to reach each display on the emulated Pico: the SSD1306 and the
SH1106, on I2C (400 kHz) and on SPI (the board files' rates: 8 MHz and 2 MHz).

    .venv/bin/python bench/display_frame.py [--rounds N]

The emulator (tests/picosim.py) is started once per display with its model controller on
that bus; hal/ is copied to a fresh flash and the display built from the Pico board files
(boards/pico.py, pico_spi.py, the driver set to each controller) by hal.display, as main.py
builds it. Timed with ticks_us on the chip (emulated cycles at 125 MHz: device time), the
median of N rounds of show() after each kind of change:
  whole      every byte changed (a new screen: the frame inverted each round)
  cursor     two text rows, full width (a menu's cursor moving)
  digit      one glyph (a score changing)
One JSON line per display. Without the emulator, says why and exits 0.
"""
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[0:0] = [os.path.join(ROOT, "tests"), ROOT, os.path.join(ROOT, "firmware")]

from hal.display import SPI_BAUDRATE  # noqa: E402

# runs on the chip: BOARD is set in front of it; prints "RESULT {json}"
DEVICE = r'''
import time, gc
from hal.display import display_from_board
d = display_from_board(BOARD)
d.fill(0)
d.show()


def timed(change, rounds):
    out = []
    for k in range(rounds):
        change(k)
        gc.collect()
        t = time.ticks_us()
        d.show()
        out.append(time.ticks_diff(time.ticks_us(), t))
    out.sort()
    return out[len(out) // 2]


def whole(k):  # every byte changes: the frame inverted each round
    d.fill(k & 1)
    for row in range(8):
        d.text("%d Player %d  %3d" % (row, k, row * k), 0, row * 8, 1 - (k & 1))


def cursor(k):
    d.fill(0)
    for row in range(8):
        d.fill_rect(0, row * 8, 128, 8, row == k % 6 + 1)
        d.text("Row %d" % row, 0, row * 8, 0 if row == k % 6 + 1 else 1)


def digit(k):
    d.fill_rect(96, 16, 8, 8, 0)
    d.text(str(k % 10), 96, 16, 1)


cursor(0)
d.show()
r = {"whole": timed(whole, ROUNDS), "cursor": timed(cursor, ROUNDS), "digit": timed(digit, ROUNDS)}
print("RESULT " + json.dumps(r))
'''


def boards():
    """{label: BOARD dict} of the four displays."""
    import picosim
    pico, spi = picosim.board_file("pico"), picosim.board_file("pico_spi")
    out = {}
    for driver in ("ssd1306", "sh1106"):
        out["%s i2c" % driver] = dict(pico, display=dict(pico["display"], driver=driver))
        out["%s spi" % driver] = dict(spi, display=dict(spi["display"], driver=driver))
    return out


def main(argv):
    import argparse
    import picosim
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    if not picosim.bench_can_run():
        return 0
    hal = os.path.join(ROOT, "firmware", "hal")
    with tempfile.TemporaryDirectory(prefix="azul-display-frame-") as where:
        img = os.path.join(where, "flash.img")
        with picosim.Emulator(img, log=os.path.join(where, "picosim.log")) as emu:  # safe mode: the REPL is free
            emu.mpremote("exec", "import os\ntry:\n    os.mkdir('hal')\nexcept OSError:\n    pass")
            cp = []
            for name in sorted(os.listdir(hal)):
                if name.endswith(".py") and name != "framebuf_py.py":
                    cp += ["+", "fs", "cp", os.path.join(hal, name), ":hal/" + name]
            emu.mpremote(*cp[1:])
        for label, board in boards().items():
            d = board["display"]
            with picosim.Emulator(img, log=os.path.join(where, "picosim.log"), display=d, addr=0x3C) as emu:
                code = "import json\nBOARD = %r\nROUNDS = %d\n%s" % (board, args.rounds, DEVICE)
                r = emu.result(code)
            r["display"] = label
            r["bus_hz"] = d.get("baudrate", SPI_BAUDRATE[d["driver"]]) if d["bus"] == "spi" else d["freq"]
            print(json.dumps(r), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
