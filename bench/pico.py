"""Key press to finished display transfer on the emulated Pico, for the eight scripted games.

    .venv/bin/python bench/pico.py [--games NAME,NAME] [--profile] [--resume RECORD.jsonl] [--history N]
                                   [--presses KEY,KEY [--after MS]] [--lines N] [--filings N]
                                   [--firmware DIR] [--image [FILE.uf2] [--beside]] [--language CODE]

Starts the emulated Pico (tests/picosim.py: ../shared/picosim, or the folder named by
AZUL_PICOSIM; without it, or without node, says why and exits 0), flashes it with
`azul-companion flash --driver local`, and plays the scripted games of
tests/test_firmware_micropython.py on it (bench/pico_device.py): the App built as main.py
builds it, each press timed with ticks_us around App.step (key handling, drawing, the I2C
transfer and the LED write), in emulated device time; between presses main.py's work as
its loop runs it (the collection right after a press, main.after_press, then the idle work:
modules imported ahead, work ahead), its time counted in a press only where the press came
while it was under way. One JSON line per game:
  median_ms, p90_ms, max_ms   per press
  heap_boot_kb, heap_end_kb   live heap after the first frame / after the last press
  heap_after_gc_max_kb        the most in use right after a press in which the collector ran
                              (null when it ran in none)
  gc_presses                  presses in which the collector ran
  waited_presses              presses that came while idle work was under way (and waited)
  waits                       [press number, ms waited, [ms of each piece of work in the gap
                              before it (after_press's a piece where it collected), negative
                              where the collector ran in it]] of each
  prefetch_ms                 {module: ms} each import done ahead in an idle frame
  alloc_kb                    KB allocated (the collector's runs left out): the most by a press
                              and the idle work after it until the next press (what
                              main.COLLECT_FREE must cover), the most by a press, the most by a
                              piece of idle work; then the press number of the first
  i2c_bytes_per_press         display traffic (the emulator's I2C byte counter)
  boot_ms                     power-on to the end of the first frame, no record (main.py)
  resume_ms                   power-on to the end of the first frame over this game's record
  app_boot_ms, app_resume_ms  the same from main.py's first import (no MicroPython start-up,
                              no 60 ms safe-mode window): imports, replay, first frame
  first_ok_after_resume       the first press after that frame, OK, a press's time later (the
                              idle work before it as between the game's presses): [screen it
                              left, screen it showed, ms with its wait, ms waited]
  heap_resumed_kb, heap_first_ok_kb  live heap after that first frame / after that press
                              (less the bench's own module, as heap_boot_kb)
  by_screen                   {screen class: [presses, median ms, max ms]}
  line_presses                the same for the presses that appended a line to the record
  setup_presses               the presses of the new game's steps: [presses, median ms, max ms,
                              ms of the last one, which starts the game]
                              (a save, a round end, an undo; found by the keys on CPython)
  over_40ms                   every press above 40 ms: [press number, screen, key, ms]
--profile: the games again with hot functions wrapped in timers; inclusive ms per function,
and for each press over 40 ms (over_40ms) the ms of each timed function it ran.
--history N: N finished games in data/history first, copies of the golden records in turn
(filed()), for the games, --resume, --presses and --lines alike (a device that has been used:
littlefs walks them all when its block allocator's lookahead runs out, Storage.warm).
--resume FILE: power-on and App resume over FILE as data/current.jsonl (no games).
--presses KEY,KEY: presses no scripted game makes (no games): the App built over FILE
(--resume) or over no record (the main menu), with --history N games filed, its idle work
done (2 s), then these keys a press's time apart (hal.keys names, "+LONG" held, WAIT two
seconds without a key, HEAP the live heap then, after a collection), the idle work
between them as in the games (--after MS: the first key MS after the first frame instead,
meeting the idle work under way then: each piece of it is a press's possible wait); one JSON line:
  presses                     [screen it left, key, screen it showed, ms with its wait, ms waited,
                              ms of the longest piece of idle work in the gap before it: the
                              most it could have waited there]
                              (with --profile then {function: inclusive ms} of each timed one it ran)
  heap_kb, heap_idle_kb, heap_end_kb  live heap after the first frame, once its idle work
                              is done, after the last key (as heap_boot_kb)
  heaps_kb                    the live heap at each HEAP (as heap_kb)
  gaps_ms                     the ms of each piece of idle work in the gap before each key, the
                              first 31 (negative where the collector ran in it)
e.g. the main menu's History and Settings with 50 games filed:
  --history 50 --presses DOWN,DOWN,OK,BACK,DOWN,OK
and the undo from a finished 5211 game's final standings:
  --resume tests/golden/5211_4p.jsonl --presses BACK+LONG
--gap MS, --hold MS (with --presses): MS of idle work between two keys instead of a press's
time (100), and each key after MS more held (a button down: main.py runs only the game's
undo work then, main.HELD_WORK_MS); a hand's undos: --gap 250 --hold 600 (BACK fires its undo after
600 ms held, the next hold ~250 ms after the release).
--lines N: what a record line costs on littlefs, call by call (bench/pico_device.py lines()):
[min, median, max] ms of each call over N lines, and of Storage.append_line; "slowest" the
[line, ms] of the four slowest of each.
--filings N: what filing a finished game costs on littlefs (bench/pico_device.py filings()):
N games (tests/golden/azul_grey_4p.jsonl) filed one after another into --history's games,
the ms of each filing's press part (archive), and of its idle frames' (file: into the
history; trim: the history kept at its size), each in a list.
--firmware DIR: flash the firmware of the checkout in DIR (another revision, e.g. extracted
with `git archive REV | tar -x -C DIR`), measured by this bench.
--image [FILE.uf2]: the firmware image instead (`azul-companion build`; without FILE, built
from --firmware's checkout into its build/): the emulated Pico runs it with nothing of the
firmware on flash (only this bench's module and files), everything imported frozen. Each
line then says "path": "image"; with --beside the same games on the .mpy path after it
("path": "mpy", a flash of its own), and a table of the two side by side at the end.
"after_start_ms" (both paths): the ms of the press that starts the game and of the three after it.
The emulator started here is always stopped, by its PID.
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

import picosim  # noqa: E402

WAIT = 255  # bench/pico_device.py: "no key, two seconds pass"
HEAP = 254  # bench/pico_device.py: not a key, the live heap then (--presses)

# the functions timed by --profile: (module, class, attribute, label); inclusive times
PROFILE = [
    ("app.app", "App", "step", "App.step"),
    ("app.app", "App", "draw", "App.draw"),
    ("app.play", "", "enter", "play.enter"),
    ("app.app", "App", "home", "App.home"),
    ("app.play", "", "undo", "play.undo"),
    ("app.scoreboard", "", "screen_for", "screen_for"),
    ("app.app", "App", "home_screen", "App.home_screen"),
    ("app.app", "App", "describe", "App.describe"),
    ("app.history", "History", "__init__", "History.__init__"),
    ("app.keeper", "Keeper", "page", "Keeper.page"),
    ("app.keeper", "Keeper", "summaries", "Keeper.summaries"),
    ("rules_core.session", "Session", "undo", "Session.undo"),
    ("app.current", "ReadBack", "undo", "ReadBack.undo"),
    ("app.form", "Form", "__init__", "Form.__init__"),
    ("app.form", "Form", "_turn", "Form._turn"),
    ("app.form", "Form", "_ok", "Form._ok (legal)"),
    ("app.form", "Form", "_update", "Form._update"),
    ("app.ui", "ListScreen", "fitted", "ListScreen.fitted"),
    ("app.ui", "ListScreen", "draw", "ListScreen.draw"),
    ("app.ui", "Canvas", "clear", "Canvas.clear"),
    ("app.ui", "Canvas", "row", "Canvas.row"),
    ("app.app", "App", "update_leds", "App.update_leds"),
    ("app.keeper", "Keeper", "add", "Keeper.add"),
    ("app.entries", "", "open", "entries.open"),
    ("app.ui", "Menu", "key", "Menu.key"),
    ("app.scoreboard", "", "standings_rows", "standings_rows"),
    ("app.current", "ReadBack", "preview", "ReadBack.preview"),
    ("app.current", "ReadBack", "trial", "ReadBack.trial"),
    ("rules_core.session", "Session", "add", "Session.add"),
    ("app.current", "", "clone", "rules.clone"),
    ("app.entry_azul", "WallForm", "draw", "WallForm.draw"),
    ("app.entry_azul", "WallForm", "_make_cells", "WallForm._make_cells"),
    ("app.entry_azul", "WallForm", "__init__", "WallForm.__init__"),
    ("app.entry_azul", "WallForm", "_draw_rows", "WallForm._draw_rows"),
    ("app.form", "Form", "draw", "Form.draw"),
    ("app.ui", "Canvas", "begin", "Canvas.begin"),
    ("app.ui", "Canvas", "finish", "Canvas.finish"),
    ("app.form", "Form", "_why", "Form._why"),
    ("app.entry_azul", "WallForm", "_why", "WallForm._why"),
    ("app.scoreboard", "Scoreboard", "__init__", "Scoreboard.__init__"),
    ("app.leds", "LedView", "update", "LedView.update"),
    ("hal.storage", "Storage", "append_line", "storage.append_line"),
    ("hal.storage", "Storage", "write_atomic", "storage.write_atomic"),
    ("app.keeper", "Keeper", "file", "Keeper.file"),
    ("app.keeper", "Keeper", "start", "Keeper.start"),
    ("app.play", "", "new_game", "play.new_game"),
    ("app.play", "", "unload", "unload"),
    ("app.scoreboard", "Final", "__init__", "Final.__init__"),
    ("rules_core.record", "", "dumps", "record.dumps"),
    ("rules_core.session", "Session", "result", "Session.result"),
    ("rules_core.session", "Session", "standings", "Session.standings"),
    ("rules_core.session", "Session", "__init__", "Session.__init__"),
    ("rules_core.azul", "AzulRules", "apply", "rules.apply"),
    ("rules_core.game5211", "Game5211Rules", "apply", "rules.apply"),
    ("rules_core.garden", "GardenRules", "apply", "rules.apply"),
    ("rules_core.sintra", "SintraRules", "apply", "rules.apply"),
    ("app.ui", "Canvas", "lines", "Canvas.lines"),
    ("ssd1306", "SSD1306", "show", "display.show"),  # micropython-lib's driver
    ("hal.ssd1306_delta", "SSD1306Delta", "show", "display.show"),  # the driver that sends changes
    ("hal.ssd1306_delta", "SSD1306Delta", "fill", "display.fill"),
    ("hal.oled", "Oled", "show", "display.show"),  # the same, for the SH1106 and SPI too
    ("hal.oled", "Oled", "fill", "display.fill"),
    ("hal.leds", "Leds", "show", "leds.show (NeoPixel)"),
]


def say(text):
    print(text, file=sys.stderr, flush=True)


def key_scripts(where):
    """{game: key bytes} from the CPython Driver of the app tests (WAIT for a wait)."""
    import test_firmware_micropython as games
    out = {}
    for name in sorted(games.VARIANTS):
        keys = games.VARIANTS[name](pathlib.Path(where) / name.replace(" ", "_")).keys
        out[name] = bytes(WAIT if k is None else k for k in keys)
    return out


def line_presses(name, keys, where):
    """(the indices of the presses that append a line to the game's record, the index of the
    press that started it, None if none did): the same keys fed to the App on CPython
    (host_tools.sim), the record's length looked at after each."""
    from host_tools import sim
    data = os.path.join(where, "lines_" + name.replace(" ", "_"), "data")
    app, _, _, clock = sim.build("pico", data)
    path = os.path.join(data, "current.jsonl")
    i, out, started = 0, set(), None
    for k in keys:
        size = os.path.getsize(path) if os.path.exists(path) else None
        clock.now += sim.WAIT_MS if k == WAIT else sim.KEY_STEP_MS
        app.step(clock.now, None if k == WAIT else k)
        if k == WAIT:
            continue
        if size is not None and os.path.exists(path) and os.path.getsize(path) > size:
            out.add(i)
        elif size is None and started is None and os.path.exists(path):
            started = i
        i += 1
    return out, started


FILING = "bench_filing.jsonl"  # --filings: the record filed again and again (at the root)


def filed(n):
    """{board path: bytes}: n finished games in data/history, the golden records in turn
    (1.4-12 KB: what littlefs's walk of the flash costs follows the blocks its files use)."""
    golden = os.path.join(ROOT, "tests", "golden")
    names = sorted(f for f in os.listdir(golden) if f.endswith(".jsonl"))
    out = {"bench/filed": b"%d" % n}  # (pico_device._clean: the games filed in a run go)
    for i in range(n):
        with open(os.path.join(golden, names[i % len(names)]), "rb") as f:
            out["data/history/%06d.jsonl" % (i + 1)] = f.read()
    return out


def key_name(k):
    from hal.keys import describe
    return describe(k)


def key_codes(names):
    """bytes of key codes for "DOWN,OK,BACK+LONG,WAIT" (hal.keys names)."""
    from hal.keys import code_of, LONG, REPEAT
    out = []
    for name in names.split(","):
        base, _, flags = name.strip().partition("+")
        if base in ("WAIT", "HEAP"):
            out.append(WAIT if base == "WAIT" else HEAP)
            continue
        flag = {"": 0, "LONG": LONG, "REPEAT": REPEAT}.get(flags)
        if flag is None:
            raise ValueError("unknown key flag %r (LONG or REPEAT)" % flags)
        out.append(code_of(base) | flag)
    return bytes(out)


def key_file(name):
    return "bench/%s.keys" % name.replace(" ", "_")


def percentile(sorted_xs, q):
    """Nearest-rank percentile of a sorted list."""
    k = max(0, min(len(sorted_xs) - 1, -(-len(sorted_xs) * q // 100) - 1))
    return sorted_xs[int(k)]


def ms(us):
    return round(us / 1000, 1)


def summary(us):
    xs = sorted(us)
    return ms(percentile(xs, 50)), ms(percentile(xs, 90)), ms(xs[-1])


class Bench:
    def __init__(self, where, firmware=ROOT, uf2=None):
        self.where = where
        self.firmware = firmware
        self.uf2 = uf2  # a firmware image: nothing to flash but the bench's files
        self.img = os.path.join(where, "flash.img")
        self.log = os.path.join(where, "picosim.log")
        self.emu = None

    def start(self, pins_high=False):
        self.stop()
        self.emu = picosim.Emulator(self.img, pins_high=pins_high, log=self.log, uf2=self.uf2).start()
        return self.emu

    def stop(self):
        if self.emu:
            self.emu.stop()
            self.emu = None

    def power_on_ms(self):
        """Power-on (main.py, buttons released) to the end of the App's first frame."""
        emu = self.start(pins_high=True)
        try:
            return round(emu.first_frame_ms(), 1)
        finally:
            self.stop()

    def flash(self, files):
        t0 = time.monotonic()
        if self.uf2:
            say("the emulated Pico runs %s: only the bench's files copied..." % self.uf2)
            picosim.install(self.start(), files, self.where)
            say("copied (%.0f s)" % (time.monotonic() - t0))
            return
        say("flashing the emulated Pico (azul-companion flash --driver local)...")
        say("%s (%.0f s)" % (picosim.flash(self.start(), files, self.where, self.firmware), time.monotonic() - t0))

    def game(self, name, boot_ms, keys):
        emu = self.emu or self.start()
        i2c0 = emu.stats()["i2c"]["bytes"]
        r = emu.result("import picobench\npicobench.game(%r)" % key_file(name))
        i2c = emu.stats()["i2c"]["bytes"] - i2c0
        med, p90, mx = summary(r["us"])
        by = {}
        for us, s in zip(r["us"], r["screen"]):
            by.setdefault(r["screens"][s], []).append(us)
        line = {"game": name, "path": "image" if self.uf2 else "mpy", "presses": r["presses"],
                "median_ms": med, "p90_ms": p90, "max_ms": mx,
                "heap_boot_kb": round(r["heap_boot"] / 1024, 1), "heap_end_kb": round(r["heap_end"] / 1024, 1),
                "heap_after_gc_max_kb": None if r["heap_after_gc_max"] is None else round(
                    r["heap_after_gc_max"] / 1024, 1),
                "gc_presses": r["gc_presses"],
                "waited_presses": len(r["waited"]),
                "waits": [[i + 1, ms(us), [ms(x) for x in r.get("waited_gaps", {}).get(str(i), [])]]
                          for i, us in r["waited"]],
                "prefetch_ms": {m: ms(us) for m, us in r.get("prefetched", [])},
                "alloc_kb": [round(b / 1024, 1) for b in r["alloc"][:1] + r["alloc"][2:]] + [r["alloc"][1] + 1],
                "i2c_bytes_per_press": round(i2c / r["presses"]), "boot_ms": boot_ms,
                "app_boot_ms": ms(r["app_boot_us"])}
        line.update(self.resume())
        line["by_screen"] = {k: [len(v), summary(v)[0], summary(v)[2]] for k, v in sorted(by.items())}
        saved, started = line_presses(name, keys, self.where)
        if started is not None:  # the set-up's presses, the last one (which starts the game) included
            line["setup_presses"] = [started + 1, summary(r["us"][:started + 1])[0],
                                     summary(r["us"][:started + 1])[2], ms(r["us"][started])]
            line["after_start_ms"] = [ms(us) for us in r["us"][started:started + 4]]
        by = {}
        for i in sorted(saved):
            by.setdefault(r["screens"][r["screen"][i]], []).append(r["us"][i])
        line["line_presses"] = {k: [len(v), summary(v)[0], summary(v)[2]] for k, v in sorted(by.items())}
        pressed = [k for k in keys if k != WAIT]
        line["over_40ms"] = [[i + 1, r["screens"][r["screen"][i]], key_name(pressed[i]), ms(r["us"][i])]
                             for i in range(len(r["us"])) if r["us"][i] > 40000]
        line["final_screen"] = r["final"]
        if r["shown_equals_buffer"] is False:
            line["error"] = "what the display was sent differs from its frame buffer"
        return line

    def resume(self):
        """Power-on over the record on flash, then the App alone (safe mode, mpremote)."""
        out = {"resume_ms": self.power_on_ms()}
        emu = self.start()
        r = emu.result("import picobench\npicobench.frame()")
        out["app_resume_ms"] = ms(r["app_resume_us"])
        out["heap_resumed_kb"] = round(r["heap"] / 1024, 1)
        ok = r.get("first_ok")
        if ok:  # (firmware from before it: none)
            out["first_ok_after_resume"] = ok[:2] + [ms(ok[2]), ms(ok[3])]
            out["heap_first_ok_kb"] = round(r["heap_first_ok"] / 1024, 1)
        return out

    def presses(self, keys, profile=False, after_ms=None, gap_ms=None, hold_ms=0):
        """The App over what is on flash, then keys (pico_device.presses); with profile, each
        press's row ends with {function: inclusive ms} (PROFILE)."""
        r = (self.emu or self.start()).result("import picobench\npicobench.presses(%r, %r, %r, %s, %d)" % (
            key_file("presses"), PROFILE if profile else None, after_ms, gap_ms or "picobench.KEY_MS", hold_ms))
        pressed = [k for k in keys if k != WAIT and k != HEAP]
        rows = []
        for row, k in zip(r.get("presses", ()), pressed):
            rows.append([row[0], key_name(k), row[1], ms(row[2]), ms(row[3]), ms(row[4])])
            if len(row) > 6:
                rows[-1].append({lb: ms(us) for lb, us in sorted(row[6].items(), key=lambda kv: -kv[1])})
        return {"app_resume_ms": ms(r["app_resume_us"]), "first_screen": r["screen"], "presses": rows,
                "heap_kb": round(r["heap"] / 1024, 1), "heap_idle_kb": round(r["heap_idle"] / 1024, 1) if "heap_idle" in r else None,
                "heap_end_kb": round(r["heap_end"] / 1024, 1), "final_text": r["text"],
                "heaps_kb": [round(h / 1024, 1) for h in r.get("heaps", ())],
                "gaps_ms": [[ms(us) for us in row[5]] for row in r.get("presses", ())]}

    def lines(self, n):
        r = (self.emu or self.start()).result("import picobench\npicobench.lines(%d)" % n)
        r["ms"] = {c: [round(x / 1000, 2) for x in v] for c, v in r.pop("us").items()}
        r["slowest"] = {c: [[i, round(us / 1000, 2)] for i, us in v] for c, v in r["slowest"].items()}
        return r

    def profile(self, name):
        emu = self.emu or self.start()
        spec = [s for s in PROFILE]
        out = emu.mpremote("exec", "import picobench\npicobench.profile(%r, %r)" % (key_file(name), spec),
                           timeout=3600)
        r, slow = None, []
        for text in out.splitlines():
            if text.startswith("S "):  # a press over 40 ms: number, us, screen, label=us;...
                _, i, us, screen, parts = (text.split(" ", 4) + [""])[:5]
                slow.append([int(i) + 1, screen, ms(int(us)),
                             {lb: ms(int(v)) for lb, v in (p.split("=") for p in parts.split(";") if p)}])
            elif text.startswith("RESULT "):
                r = json.loads(text[7:])
        if r is None:
            raise RuntimeError("no result from the board:\n%s" % out[-3000:])
        n = r["presses"]
        rows = sorted(r["profile"].items(), key=lambda kv: -kv[1][0])
        return {"game": name, "presses": n, "ms_per_press": ms(r["total_us"] / n),
                "gc_presses": r["gc_presses"], "gc_ms_per_press_with_gc": ms(r["gc_us"] / max(1, r["gc_presses"])),
                "profile": {label: {"ms_per_press": round(us / 1000 / n, 2), "calls_per_press": round(c / n, 2),
                                    "ms_per_call": round(us / 1000 / c, 2) if c else 0}
                            for label, (us, c) in rows if c},
                "over_40ms": slow}


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", metavar="NAME,NAME", help="only these games (default: all eight)")
    parser.add_argument("--profile", action="store_true", help="inclusive ms per hot function instead")
    parser.add_argument("--resume", metavar="RECORD.jsonl", help="power-on and resume over this record only")
    parser.add_argument("--history", metavar="N", type=int, default=0, help="N games filed first (filed())")
    parser.add_argument("--presses", metavar="KEY,KEY", help="these presses after power-on only (see above)")
    parser.add_argument("--after", metavar="MS", type=int,
                        help="with --presses: the first key MS after the first frame (no 2 s idle first)")
    parser.add_argument("--gap", metavar="MS", type=int, help="with --presses: ms of idle work between keys (100)")
    parser.add_argument("--hold", metavar="MS", type=int, default=0,
                        help="with --presses: each key after MS more held (BACK: App.prepare_undo runs)")
    parser.add_argument("--lines", metavar="N", type=int, help="a record line's calls over N lines only")
    parser.add_argument("--filings", metavar="N", type=int, help="N games filed one after another only")
    parser.add_argument("--firmware", metavar="DIR", default=ROOT, help="flash this checkout's firmware")
    parser.add_argument("--image", metavar="FILE.uf2", nargs="?", const="",
                        help="run this firmware image (default: build it) with no firmware files on flash")
    parser.add_argument("--beside", action="store_true", help="with --image: the .mpy path too, and a table of both")
    parser.add_argument("--language", metavar="CODE", help="the device's language (its settings file): zh-Hant, ja")
    args = parser.parse_args(argv)
    if not picosim.bench_can_run():
        return 0
    games = args.games.split(",") if args.games else None
    record = args.resume
    firmware = os.path.abspath(args.firmware)
    uf2 = None
    if args.image is not None:
        uf2 = os.path.abspath(args.image) if args.image else build_image(firmware)
        if uf2 is None:
            return 0
    with tempfile.TemporaryDirectory(prefix="azul-pico-bench-") as where:
        bench = Bench(where, firmware, uf2)
        try:
            if args.lines:
                bench.flash(filed(args.history))
                print(json.dumps(bench.lines(args.lines)), flush=True)
                return 0
            if args.filings:
                files = filed(args.history)
                with open(os.path.join(ROOT, "tests", "golden", "azul_grey_4p.jsonl"), "rb") as f:
                    files[FILING] = f.read()
                bench.flash(files)
                r = (bench.emu or bench.start()).result("import picobench\npicobench.filings(%d, %r)" % (
                    args.filings, FILING))
                r["ms"] = {k: [round(x / 1000, 1) for x in v] for k, v in r.pop("us").items()}
                print(json.dumps(dict(r, history=args.history)), flush=True)
                return 0
            if record or args.presses:
                files = filed(args.history)
                line = {"record": None, "history": args.history}
                if record:
                    with open(record, "rb") as f:
                        data = f.read()
                    files["data/current.jsonl"] = data
                    line.update(record=os.path.basename(record), lines=data.count(b"\n"))
                if args.presses:
                    keys = key_codes(args.presses)
                    files[key_file("presses")] = keys
                    bench.flash(files)
                    line.update(bench.presses(keys, args.profile, args.after, args.gap, args.hold))
                    line.update(gap_ms=args.gap or 100, hold_ms=args.hold)
                else:
                    bench.flash(files)
                    line.update(bench.resume())
                print(json.dumps(line), flush=True)
                return 0
            scripts = key_scripts(where)
            names = games or sorted(scripts)
            unknown = [n for n in names if n not in scripts]
            if unknown:
                print("unknown game %r (have: %s)" % (unknown[0], ", ".join(sorted(scripts))), file=sys.stderr)
                return 2
            files = filed(args.history)
            files.update((key_file(n), scripts[n]) for n in names)
            if args.language:  # (each game's clean data folder gets it: pico_device._clean)
                files["bench/language"] = args.language.encode()
            bench.flash(files)
            if args.profile:
                for name in names:
                    say("profiling %s (%d presses)..." % (name, sum(1 for k in scripts[name] if k != WAIT)))
                    print(json.dumps(bench.profile(name)), flush=True)
                return 0
            lines = play(bench, names, scripts)
            if uf2 and args.beside:
                bench.stop()
                os.mkdir(os.path.join(where, "mpy"))
                bench = Bench(os.path.join(where, "mpy"), firmware)
                bench.flash(files)
                print_beside(lines, play(bench, names, scripts))
        finally:
            bench.stop()
    return 0


def play(bench, names, scripts):
    """The games one after another on the flash bench.flash() made; their lines (printed)."""
    boot_ms = bench.power_on_ms()
    lines = []
    for name in names:
        say("playing %s (%d presses, %s)..." % (name, sum(1 for k in scripts[name] if k != WAIT),
                                               "image" if bench.uf2 else ".mpy files"))
        lines.append(bench.game(name, boot_ms, scripts[name]))
        print(json.dumps(lines[-1]), flush=True)
    return lines


def build_image(tree):
    """`azul-companion build` of the checkout in tree, into its build/; None (said why) when
    it cannot be built here (no kit, no compiler)."""
    out = os.path.join(tree, "build", "azul-companion-pico.uf2")
    say("building the firmware image of %s..." % tree)
    r = subprocess.run([sys.executable, "-m", "host_tools", "build", "--board", "pico", "--out", out],
                       cwd=tree, stdout=sys.stderr, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        print("no firmware image: %s" % r.stderr.strip().splitlines()[-1])
        return None
    return out


def print_beside(image, mpy):
    """The image's figures beside the .mpy path's, a game a row (text, after the JSON lines)."""
    print("power-on to the first frame: image %.1f ms, .mpy %.1f ms" % (image[0]["boot_ms"], mpy[0]["boot_ms"]))
    print("%-16s %-19s %-19s %-13s %-23s %s" % ("game", "median/max image", "median/max .mpy", "heap KB i/m",
                                             "start+3 presses image", ".mpy"))
    for a, b in zip(image, mpy):
        print("%-16s %-19s %-19s %-13s %-23s %s" % (
            a["game"], "%.1f / %.1f" % (a["median_ms"], a["max_ms"]), "%.1f / %.1f" % (b["median_ms"], b["max_ms"]),
            "%.1f / %.1f" % (a["heap_end_kb"], b["heap_end_kb"]), a.get("after_start_ms"), b.get("after_start_ms")))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
