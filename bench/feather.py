"""The Feather RP2040 build measured on its own interpreter: CircuitPython 10.2.1 on the
emulated Feather (tests/cpsim.py), device time throughout (emulated cycles; time.monotonic_ns
on the board).

    .venv/bin/python bench/feather.py [--source] [--no-fram] [--boots 3] [--write]

The Feather as built (hardware/README.md): the OLED FeatherWing and the FRAM breakout that
keeps the games (an image of its own for each run; --no-fram: without it, the games on the
drive).
- power-on to the first frame (the main menu), each of --boots power-ons: the control port
  polled until the display's bytes stop while the chip idles (cpsim.Emulator.first_frame_ms);
  and CircuitPython's own part of it: boot.py's start and code.py's, which the firmware
  cannot change (their time.monotonic_ns, written by a boot.py and code.py wrapped for it);
- the presses of a two-player Azul game (the keys tests/test_feather_emulated.py plays),
  each App.step timed on the board (bench/feather_device.py), main.py's idle work between
  them, its longest piece: how long the loop goes without polling the buttons;
- the loop's busy share on the main menu with nobody pressing: emulated cycles over emulated
  time for 6 s once the idle work is done (the battery estimate's input: --write puts it in
  hardware/power_measured.json, which hardware/generate.py renders).
--source: the firmware as .py source on the drive instead of CircuitPython's .mpy.
Prints the figures; asserts nothing. Exits 0 with the reason where the emulator is missing.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tests"), os.path.join(ROOT, "firmware"), ROOT]
import cpsim  # noqa: E402

MEASURED = os.path.join(ROOT, "hardware", "power_measured.json")


def fram(img, fitted):
    """The FRAM's image beside the flash image (None: no FRAM fitted)."""
    return img + ".fram" if fitted else None


def game_keys(where):
    """The keys of the shortest two-player Azul game on the Feather's three buttons."""
    import pathlib
    from test_app_games import Driver, play_azul
    from test_host_board_e2e import shortest_azul_game
    ref = Driver(pathlib.Path(where), board="feather_rp2040")
    ref.new_game("Azul", "coloured", 2)
    play_azul(ref, {"players": ["Red", "Blue"]}, shortest_azul_game())
    ref.wait()
    return bytes(255 if k is None else k for k in ref.keys)


def wrapped(drive, where):
    """A copy of the drive whose boot.py and code.py note when they start (device ms)."""
    copy = os.path.join(where, "timed")
    shutil.copytree(drive, copy)
    with open(os.path.join(copy, "boot.py")) as f:
        boot = f.read()
    with open(os.path.join(copy, "boot.py"), "w") as f:
        # (and the drive writable by code.py, which notes its start there: the FRAM keeps the games).
        # Noted in a file, not printed: CircuitPython rewrites boot_out.txt (a second) at every
        # power-on whose boot.py output differs from the last.
        f.write("import time\n_t = time.monotonic_ns() // 1000000\nimport storage\n"
                "storage.remount('/', readonly=False)\nwith open('/boot_at.txt', 'w') as f:\n"
                "    f.write('%d' % _t)\ndel _t\n" + boot)
    with open(os.path.join(copy, "code.py"), "w") as f:
        f.write("import time\n_t = time.monotonic_ns() // 1000000\nwith open('/code_at.txt', 'w') as f:\n"
                "    f.write('%d' % _t)\ndel _t\nimport main\nmain.main()\n")
    return copy


def read_back(img, name, where):
    local = os.path.join(where, name)
    cpsim.get(img, "/" + name, local)
    with open(local) as f:
        return f.read()


def boots(drive, where, n, fitted):
    img = os.path.join(where, "boot.img")
    cpsim.new_drive(img, wrapped(drive, where))
    out = []
    for i in range(n):
        with cpsim.Emulator(img, log=os.path.join(where, "boot.log"), fram=fram(img, fitted)) as emu:
            first = emu.first_frame_ms()
        boot_at, code = (int(read_back(img, name, where)) for name in ("boot_at.txt", "code_at.txt"))
        out.append({"first_frame_ms": round(first), "boot_py_ms": boot_at, "code_py_ms": code})
        print("power-on %d: boot.py at %d ms, code.py at %d ms, the first frame %.0f ms (device time)"
              % (i + 1, boot_at, code, first))
    return out


def presses(drive, where, fitted):
    img = os.path.join(where, "game.img")
    extra = os.path.join(where, "extra")
    os.makedirs(os.path.join(extra, "bench"))
    shutil.copyfile(os.path.join(ROOT, "bench", "feather_device.py"), os.path.join(extra, "featherbench.py"))
    with open(os.path.join(extra, "bench", "azul.keys"), "wb") as f:
        f.write(game_keys(os.path.join(where, "ref")))
    cpsim.new_drive(img, drive)
    cpsim.put(img, extra)
    with cpsim.Emulator(img, log=os.path.join(where, "game.log"), fram=fram(img, fitted)) as emu:
        emu.first_frame_ms()
        out, err = emu.exec("import featherbench\nfeatherbench.game('bench/azul.keys')", timeout=3600)
    if err:
        raise RuntimeError(err)
    r = json.loads([l for l in out.splitlines() if l.startswith("RESULT ")][0][7:])
    ms = sorted(p / 1000 for p in r["presses_us"])
    waits = [w / 1000 for w in r["waits_us"] if w]
    print("presses (%d, the game to its %s): median %.1f ms, max %.1f ms; %d waited for idle work, at most "
          "%.1f ms; the longest piece of idle work %.1f ms (the longest the loop goes without polling); "
          "free heap at the end %d B" % (len(ms), r["screen"], ms[len(ms) // 2], ms[-1], len(waits),
                                          max(waits or [0]), r["longest_idle_piece_us"] / 1000, r["mem_free"]))
    return r


def busy_share(drive, where, fitted, seconds=6):
    img = os.path.join(where, "idle.img")
    cpsim.new_drive(img, drive)
    with cpsim.Emulator(img, log=os.path.join(where, "idle.log"), fram=fram(img, fitted)) as emu:
        emu.first_frame_ms()
        emu.wait_emulated(5000)  # the idle work after the first frame done
        a = emu.stats()
        emu.wait_emulated(seconds * 1000)
        b = emu.stats()
    busy = (b["cycles"] - a["cycles"]) * 8 / (b["emu_ns"] - a["emu_ns"])  # 125 MHz: 8 ns a cycle
    print("busy share of the loop on the main menu, nobody pressing: %.3f %%" % (100 * busy))
    return busy


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", action="store_true", help="the firmware as .py source on the drive")
    ap.add_argument("--no-fram", action="store_true", help="no FRAM breakout: the games on the drive")
    ap.add_argument("--boots", type=int, default=3)
    ap.add_argument("--write", action="store_true", help="the busy share into hardware/power_measured.json")
    args = ap.parse_args()
    reason = cpsim.missing()
    if reason:
        print(reason)
        return 0
    where = tempfile.mkdtemp(prefix="azul-feather-bench-")
    try:
        drive = os.path.join(where, "drive")
        cpsim.flash_folder(drive, source=args.source)
        b = boots(drive, where, args.boots, not args.no_fram)
        p = presses(drive, where, not args.no_fram)
        busy = busy_share(drive, where, not args.no_fram)
        if args.write:
            with open(MEASURED) as f:
                m = json.load(f)
            ms = sorted(x / 1000 for x in p["presses_us"])
            m["feather"] = {"busy_idle": round(busy, 5), "press_median_ms": round(ms[len(ms) // 2], 1),
                            "first_frame_ms": b[-1]["first_frame_ms"], "code_py_ms": b[-1]["code_py_ms"],
                            "firmware": "mpy" if not args.source else "source"}
            with open(MEASURED, "w") as f:
                json.dump(m, f, indent=1, sort_keys=True)
                f.write("\n")
            print("wrote", os.path.relpath(MEASURED, ROOT))
    finally:
        shutil.rmtree(where, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
