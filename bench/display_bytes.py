"""What each key press sends the display over I2C, for the eight scripted games, on the
MicroPython unix port (no emulator needed; the bytes are the Pico's, the time is the bus's).

    .venv/bin/python bench/display_bytes.py [--games NAME,NAME]

The App built as main.py builds it (tests/mp_app.py: the .mpy files flash copies, the
display hal.oled) plays the scripted games of tests/test_firmware_micropython.py;
the display's bus counts every transfer and its bytes, the address byte included. Bus
time at 400 kHz: 9 bits a byte, and a start and a stop bit a transfer (2.5 us a bit). One
JSON line per game:
  presses
  bytes_median, bytes_p90, bytes_max     per press
  bus_ms_p90, bus_ms_max                 per press
  heaviest    the five presses with the most bytes: [press number, screen, bytes,
              transfers, bus ms]
"""
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[0:0] = [os.path.join(ROOT, "tests"), ROOT, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "bench")]

import mp  # noqa: E402
import mp_app  # noqa: E402
from pico import WAIT, key_scripts, percentile  # noqa: E402

# runs in the folder that holds keys.bin; prints "P bytes transfers screen" for each press
SCRIPT = r'''
import sys
sys.path.insert(0, %r)
import drive


class Bus:
    def __init__(self):
        self.bytes = 0
        self.transfers = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += 1 + len(buf)
        self.transfers += 1


app, clock = drive.build("pico")
bus = app.display.bus.i2c = Bus()
with open("keys.bin", "rb") as f:
    keys = f.read()
for k in keys:
    if k == %d:
        clock.now += %d
        app.step(clock.now, None)
        continue
    clock.now += %d
    b, n = bus.bytes, bus.transfers
    app.step(clock.now, k)
    print("P", bus.bytes - b, bus.transfers - n, type(app.screen).__name__)
'''


def bus_ms(nbytes, transfers):
    return round((nbytes * 9 + transfers * 2) * 2.5 / 1000, 2)


def game(name, keys):
    from host_tools import sim
    script = SCRIPT % (mp_app.stage("pico"), WAIT, sim.WAIT_MS, sim.KEY_STEP_MS)
    with tempfile.TemporaryDirectory(prefix="azul-display-bytes-") as where:
        with open(os.path.join(where, "keys.bin"), "wb") as f:
            f.write(keys)
        r = mp.run(["-c", script], heap="192K", cwd=where)  # the game's record is written there
    if r.returncode != 0:
        raise RuntimeError("%s failed on MicroPython:\n%s" % (name, (r.stdout + r.stderr)[-2000:]))
    presses = []
    for line in r.stdout.splitlines():
        if line.startswith("P "):
            _, nbytes, transfers, screen = line.split()
            presses.append((int(nbytes), int(transfers), screen))
    xs = sorted(b for b, _, _ in presses)
    ts = sorted(bus_ms(b, t) for b, t, _ in presses)
    heavy = sorted(range(len(presses)), key=lambda i: -presses[i][0])[:5]
    return {"game": name, "presses": len(presses), "bytes_median": percentile(xs, 50),
            "bytes_p90": percentile(xs, 90), "bytes_max": xs[-1],
            "bus_ms_p90": percentile(ts, 90), "bus_ms_max": ts[-1],
            "heaviest": [[i + 1, presses[i][2], presses[i][0], presses[i][1], bus_ms(*presses[i][:2])]
                         for i in heavy]}


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", metavar="NAME,NAME", help="only these games (default: all eight)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="azul-display-bytes-") as where:
        scripts = key_scripts(where)
    names = args.games.split(",") if args.games else sorted(scripts)
    for name in names:
        if name not in scripts:
            print("unknown game %r (have: %s)" % (name, ", ".join(sorted(scripts))), file=sys.stderr)
            return 2
        print(json.dumps(game(name, scripts[name])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
