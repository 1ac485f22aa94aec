"""Power: the measured inputs of the battery estimate in hardware/README.md.

    .venv/bin/python bench/power.py [--screens-only] [--before REV] [--write]

1. Screens (the CPython simulator, every board): the eight scripted games of
   tests/test_firmware_micropython.py; after every press, the share of the display's pixels
   that are lit and the LEDs' load (the sum of their channels after the board's brightness
   cap, as a share of every LED at full white). One JSON line per board: the mean over every
   frame of the games, and over the scoreboard frames alone (what shows between entries).
2. The emulated Pico (tests/picosim.py: MicroPython v1.28 on rp2040js; without it, or
   without node, says why and skips this part): the firmware flashed with `azul-companion
   flash`, main.py's own loop running with the buttons released, settings making the
   display dim after DIM_S and go dark after DARK_S. From the control port's counters
   (emulated CPU cycles against emulated time): the busy fraction (cycles x 8 ns over the
   time) with the display lit, dimmed and dark, or, where the chip goes DORMANT once dark
   (the emulator stops its clock then), how long after going dark it did; the CPU time of
   one key press; and the wake latency of a button pressed on the chip's GPIO (`ctl pin`):
   from the press to the first byte the display is sent, and to the end of the frame, from a
   lit display asleep between frames and from a dark one (from DORMANT: the press wakes the
   chip, its release resets it, the boot resumes the game and draws it). --before REV
   measures the busy fraction of the firmware of git revision REV the same way (its loop,
   its settings), for comparison.
--write stores the figures in hardware/power_measured.json, which hardware/generate.py
turns into the README's battery table. The emulator started here is always stopped.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[0:0] = [os.path.join(ROOT, "tests"), ROOT, os.path.join(ROOT, "firmware")]

import pathlib  # noqa: E402

from host_tools import sim  # noqa: E402
from hal.keys import NAMES  # noqa: E402

MEASURED = os.path.join(ROOT, "hardware", "power_measured.json")
DIM_S = 10
DARK_S = 20
WINDOW_S = 6   # each busy fraction is taken over this much emulated time


def say(text):
    print(text, file=sys.stderr, flush=True)


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


# ---- 1. screens -----------------------------------------------------------------------------
def lit_share(display):
    buf = display.last_frame
    return sum(bin(b).count("1") for b in buf) / (8 * len(buf))


def led_load(leds, cap):
    """The LEDs' current as a share of all of them at full white, after the board's cap."""
    rgb = sim.led_colours(leds)
    return sum(r + g + b for r, g, b in rgb) * cap / (3 * 255 * len(rgb))


def screens(board_name, scripts):
    """Lit share and LED load over every frame of the games (and the scoreboard's)."""
    board = sim.load_board(board_name)
    cap = board["leds"].get("brightness_max", 1.0)
    every, board_frames, loads = [], [], []
    presses = 0
    for name, keys in scripts.items():
        with tempfile.TemporaryDirectory() as where:
            app, display, leds, clock = sim.build(board_name, where)
            for k in keys:
                clock.now += sim.WAIT_MS if k is None else sim.KEY_STEP_MS
                presses += k is not None
                app.step(clock.now, k)
                share = lit_share(display)
                every.append(share)
                loads.append(led_load(leds, cap))
                if type(app.screen).__name__ == "Scoreboard":
                    board_frames.append(share)
            final = type(app.screen).__name__
            if final != "Final":
                raise RuntimeError("%s on %s ended on %s, not the final standings" % (name, board_name, final))
    return {"board": board_name, "frames": len(every), "lit_mean": round(sum(every) / len(every), 4),
            "lit_scoreboard": round(sum(board_frames) / len(board_frames), 4),
            "lit_max": round(max(every), 4), "led_load_mean": round(sum(loads) / len(loads), 4),
            "presses_per_game": round(presses / len(scripts))}


def game_scripts(where):
    import test_firmware_micropython as games
    return dict((name, games.VARIANTS[name](pathlib.Path(where) / name.replace(" ", "_")).keys)
                for name in sorted(games.VARIANTS))



# ---- 2. the emulated Pico -------------------------------------------------------------------
def mid_game_record(where):
    """The record of a two-player Azul game two rounds in: the scoreboard is what shows."""
    from test_app_games import Driver, play_azul
    from test_host_board_e2e import shortest_azul_game
    d = Driver(pathlib.Path(tempfile.mkdtemp(dir=where)))
    d.new_game("Azul", "coloured", 2)
    events = shortest_azul_game()
    play_azul(d, {"players": ["Red", "Blue"]}, events[:len(events) // 2])
    return d.record().encode()


def checkout(rev, where):
    """The tree of git revision rev, extracted under where."""
    tree = os.path.join(where, "rev-" + rev)
    os.makedirs(tree)
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)
    return tree


def busy(a, b):
    """The share of the time between two stats() the CPU ran (8 ns a cycle at 125 MHz)."""
    return (b["cycles"] - a["cycles"]) * 8 / (b["emu_ns"] - a["emu_ns"])


def wait_until(emu, ns):
    """Until emulated time ns, or until the chip goes DORMANT (its clock stops there): stats."""
    while True:
        st = emu.stats()
        if st["emu_ns"] >= ns or st["dormant"]:
            return st
        time.sleep(0.02)


def press(emu, gpio, hold_ms=100, settle_ms=400):
    """Press and release a button on the chip's GPIO. Times from the press, in emulated ms:
    to the first byte the display is sent (None if none) and to the last; the CPU time used."""
    a = emu.stats()
    emu.pin(gpio, 0)
    b = emu.stats()
    start, bytes0 = (a["emu_ns"] + b["emu_ns"]) / 2, b["i2c"]["bytes"]
    samples = []
    for level, ms in ((0, hold_ms), (1, settle_ms)):
        if level:
            emu.pin(gpio, 1)
        end = emu.stats()["emu_ns"] + ms * 1e6
        while True:
            st = emu.stats()
            samples.append((st["emu_ns"], st["i2c"]["bytes"]))
            if st["emu_ns"] >= end:
                break
    final = samples[-1][1]
    first = next((t for t, n in samples if n > bytes0), None)
    last = next(t for t, n in samples if n == final)
    return {"first_byte_ms": None if first is None else round((first - start) / 1e6, 1),
            "frame_done_ms": round((last - start) / 1e6, 1) if final > bytes0 else None,
            "bytes": final - bytes0, "cpu_ms": round((st["cycles"] - a["cycles"]) * 8 / 1e6, 1),
            "resolution_ms": round((b["emu_ns"] - a["emu_ns"]) / 1e6, 1)}


def on_the_pico(where, rev=None, presses=True):
    """Busy fractions lit, dimmed and dark, and wake latencies, of this checkout's firmware (or
    of git revision rev's) running main.py on the emulated Pico."""
    import picosim
    tree = checkout(rev, where) if rev else ROOT
    img = os.path.join(where, "flash-%s.img" % (rev or "now"))
    log = os.path.join(where, "picosim.log")
    files = {"data/current.jsonl": mid_game_record(where),
             "data/settings.json": json.dumps({"dim_after": DIM_S, "blank_after": DARK_S}).encode()}
    with picosim.Emulator(img, log=log) as emu:  # safe mode: the REPL is free
        picosim.flash(emu, files, where, tree)
    buttons = picosim.board_buttons()
    rail = picosim.board_file()["leds"].get("rail")  # (this checkout's: its fall marks "dark")
    out = {"firmware": rev or "this checkout"}
    with picosim.Emulator(img, pins_high=True, log=log, trace_pins=(rail,) if rail else ()) as emu:
        out["boot_ms"] = round(emu.first_frame_ms())
        t0 = emu.stats()["emu_ns"]  # about when the App drew its first frame: its idle time starts
        for name, start_s in (("lit", 1), ("dimmed", DIM_S + 1), ("dark", DARK_S + 1)):
            a = wait_until(emu, t0 + start_s * 1e9)
            b = wait_until(emu, a["emu_ns"] + WINDOW_S * 1e9)
            if b["dormant"]:  # (dark only): the chip stopped, nothing more to count; dark when the
                # LEDs' rail went off (the display's power-off is in the same frame)
                dark_ns = max(e["emu_ns"] for e in emu.trace() if e["pin"] == rail and e["level"] == 0)
                out["dormant_after_dark_ms"] = round((b["emu_ns"] - dark_ns) / 1e6, 1)
                say("%s: DORMANT %d ms after going dark" % (name, out["dormant_after_dark_ms"]))
                continue
            out["busy_" + name] = round(busy(a, b), 5)
            out["i2c_bytes_" + name] = b["i2c"]["bytes"] - a["i2c"]["bytes"]
            say("%s: busy %.3f %%" % (name, 100 * out["busy_" + name]))
        if presses:
            # dark: the press only wakes the display; from DORMANT it resets the chip, whose boot
            # draws the game again (the boot's bytes start with the display's set-up)
            wake = press(emu, buttons["DOWN"], settle_ms=3000 if "dormant_after_dark_ms" in out else 400)
            lit = []
            for i in range(6):  # lit, asleep between frames: DOWN and UP move the scoreboard's cursor
                wait_until(emu, emu.stats()["emu_ns"] + 3e9)
                lit.append(press(emu, buttons[("DOWN", "UP")[i % 2]]))
                if not lit[-1]["bytes"]:
                    raise RuntimeError("a press on the lit scoreboard sent the display nothing: %r" % lit[-1])
            out["wake_from_dark"] = wake
            out["press_when_lit"] = lit
            say("wake from dark %s; presses when lit %s" % (wake, [p["frame_done_ms"] for p in lit]))
    return out


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screens-only", action="store_true", help="skip the emulated Pico")
    parser.add_argument("--before", metavar="REV", help="also the busy fraction of git revision REV's firmware")
    parser.add_argument("--write", action="store_true", help="store the figures in " + os.path.relpath(MEASURED, ROOT))
    args = parser.parse_args(argv)
    out = {"screens": {}}
    with tempfile.TemporaryDirectory() as where:
        scripts = game_scripts(where)
        for board in ("pico", "esp32s3", "feather_rp2040"):
            r = screens(board, scripts)
            print(json.dumps(r), flush=True)
            out["screens"][board] = r
        if not args.screens_only:
            import picosim
            why = picosim.missing()
            if why:
                say(why)
            else:
                if args.before:
                    r = on_the_pico(where, args.before, presses=False)
                    print(json.dumps(r), flush=True)
                    out["pico_before"] = r
                r = on_the_pico(where)
                print(json.dumps(r), flush=True)
                out["pico"] = r
    if args.write:
        if "pico" not in out:
            say("not written: %s needs the emulated Pico's figures too" % os.path.relpath(MEASURED, ROOT))
            return 1
        with open(MEASURED, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
