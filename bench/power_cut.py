"""Power cuts on the emulated boards with the flash chip's real timings: what a cut during a
game's appends leaves on the board's own filesystem, counted per board.

    .venv/bin/python bench/power_cut.py --board feather_rp2040|pico [--cuts 20] [--seed 1]

The board runs the project's own Storage.append_line over the 244 lines of the 5-player
5211 golden record, printing "OK n" once each append has returned (what the screen would
then show as saved), beside a settings file and a game in the history written before. The
emulator (tests/rp2040/run.mjs) writes every flash erase and program into the image before
the CPU goes on, an erase taking 45 ms and a program 8 ms a 4 KB sector of wall time
(--flash-op-ms 45,8, a W25Q/GD25Q chip's typical times), so a SIGKILL at a random moment
falls inside them as often as on a real chip. After each cut the image boots again (safe
mode: the app does not start) and the board reads back what it has: every line shown as
saved still there, the record cut to a prefix (a torn line at most), and the other files
whole, or not. Prints one line per cut and the counts; asserts nothing. Exits 0 with the
reason where an emulator is missing.
"""
import argparse
import json
import os
import random
import shutil
import socket
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tests"), os.path.join(ROOT, "firmware"), ROOT]
import cpsim  # noqa: E402
import picosim  # noqa: E402

RECORD = os.path.join(ROOT, "tests", "golden", "5211_long_5p.jsonl")
OP_MS = "45,8"
SETTINGS = '{"brightness": 2, "history_keep": 50}'
HISTORY = "data/history/000001.jsonl"
APPEND = """
import os
from hal.storage import Storage
st = Storage(remount=None)
with open("cut/record.jsonl") as f:
    lines = f.read().split("\\n")
print("START")
for i in range(len(lines)):
    if lines[i]:
        st.append_line("data/current.jsonl", lines[i])
        print("OK", i + 1)
print("DONE")
"""
# what the board has after a cut: each file's length and crc32 (None: missing), the record's
# lines as read_lines reads them
CHECK = """
import os, binascii, json
def crc(p):
    try:
        with open(p, "rb") as f:
            d = f.read()
        return [len(d), binascii.crc32(d)]
    except OSError:
        return None
out = dict((p, crc(p)) for p in PATHS)
try:
    from hal.storage import Storage
    lines, torn = Storage(remount=None).read_lines("data/current.jsonl")
    out["lines"] = len(lines)
    out["torn"] = torn
except Exception as e:
    out["lines"] = -1
    out["error"] = repr(e)
print("CHECK " + json.dumps(out))
"""


def crc(data):
    import binascii
    return [len(data), binascii.crc32(data)]


class Board:
    """One board kind: how to make its image, start its emulator, run code on it."""

    def __init__(self, name, where):
        self.name, self.where = name, where

    def missing(self):
        return cpsim.missing() if self.name == "feather_rp2040" else (picosim.missing() or cpsim.missing())

    def image(self):
        """The flashed firmware, the settings and a filed game on the board's filesystem."""
        img = os.path.join(self.where, "base.img")
        extra = os.path.join(self.where, "extra")
        os.makedirs(os.path.join(extra, "cut"))
        os.makedirs(os.path.join(extra, "data", "history"))
        shutil.copyfile(RECORD, os.path.join(extra, "cut", "record.jsonl"))
        with open(os.path.join(extra, "data", "settings.json"), "w") as f:
            f.write(SETTINGS)
        shutil.copyfile(os.path.join(ROOT, "tests", "golden", "azul_grey_4p.jsonl"), os.path.join(extra, HISTORY))
        if self.name == "feather_rp2040":
            drive = os.path.join(self.where, "drive")
            cpsim.flash_folder(drive)
            cpsim.new_drive(img, drive)
            cpsim.put(img, extra)
        else:
            files = {}
            for dirpath, _, names in os.walk(extra):
                for n in names:
                    full = os.path.join(dirpath, n)
                    with open(full, "rb") as f:
                        files[os.path.relpath(full, extra).replace(os.sep, "/")] = f.read()
            with picosim.Emulator(img, log=os.path.join(self.where, "flash.log")) as emu:
                picosim.flash(emu, files, self.where)
        return img

    def expected(self):
        """{path: [length, crc32]} of the files a cut must leave whole."""
        exp = {"data/settings.json": crc(SETTINGS.encode())}
        with open(os.path.join(ROOT, "tests", "golden", "azul_grey_4p.jsonl"), "rb") as f:
            exp[HISTORY] = crc(f.read())
        code = "main.mpy" if self.name == "feather_rp2040" else "app/app.mpy"
        return exp, code

    def emulator(self, img, cut=False):
        """The board's emulator: in safe mode (the app does not start, the REPL is free), but
        for the Feather's appends: its code may write the drive only when boot.py gave it the
        drive, out of safe mode (the app starts; the REPL's Ctrl-C stops it)."""
        extra = ["--flash-op-ms", OP_MS] if cut else []
        safe = not (cut and self.name == "feather_rp2040")
        return cpsim.Emulator(img, safe=safe, log=os.path.join(self.where, "emu.log"), extra=extra,
                              pico=self.name == "pico")

    def ready(self, emu):
        """Until the board takes the REPL: the Feather's first frame out of safe mode, else
        3 s (the Pico's: of wall time, since its REPL waiting for input sets no timer and the
        emulated clock stands still while nothing is due)."""
        if self.name == "pico":
            time.sleep(3)
        elif emu.safe:
            emu.wait_emulated(3000)
        else:
            emu.first_frame_ms()

    def run(self, emu, code):
        """Run code on the board; its output."""
        if self.name == "feather_rp2040":
            out, err = emu.exec(code)
            return out + err
        import subprocess
        r = subprocess.run([os.path.join(picosim.BIN, "mpremote"), "connect", "socket://127.0.0.1:%d" % emu.repl_port,
                            "exec", code], capture_output=True, text=True, timeout=600)
        return r.stdout + r.stderr


def stream(port, code, seen, stop):
    """Run code in the raw REPL of the board on port; each "OK n" it prints goes into seen."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.settimeout(0.05)
    buf = b""

    def until(marker, secs):
        nonlocal buf
        end = time.monotonic() + secs
        while marker not in buf and time.monotonic() < end and not stop.is_set():
            try:
                d = s.recv(4096)
                if not d:
                    return False
                buf += d
            except socket.timeout:
                pass
            except OSError:
                return False
        return marker in buf

    try:
        for _ in range(3):
            s.sendall(b"\r\x03")
            time.sleep(0.2)
        s.sendall(b"\r\x01")
        if not until(b"raw REPL; CTRL-B to exit\r\n>", 60):
            return
        buf = b""
        s.sendall(code.encode() + b"\x04")
        while not stop.is_set():
            try:
                d = s.recv(4096)
                if not d:
                    break
                buf += d
            except socket.timeout:
                continue
            except OSError:
                break
            *done, buf = buf.split(b"\n")
            for line in done:
                line = line.strip().decode(errors="replace")
                if line.startswith("OK "):
                    seen.append(int(line[3:]))
                elif "START" in line:
                    seen.append(0)
    finally:
        s.close()


def one_cut(board, base, rng, index, lines, expected, code_file):
    img = os.path.join(board.where, "cut.img")
    shutil.copyfile(base, img)
    seen, stop = [], threading.Event()
    emu = board.emulator(img, cut=True).start()
    try:
        board.ready(emu)
        t = threading.Thread(target=stream, args=(emu.repl_port, APPEND, seen, stop))
        t.start()
        deadline = time.monotonic() + 300
        while not seen and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(rng.uniform(0, board.span))  # a moment during the appends
        emu.cut()
    finally:
        stop.set()
        emu.cut()
    shown = max(seen) if seen else 0
    paths = sorted(expected) + [code_file, "data/current.jsonl"]
    with board.emulator(img) as check:
        board.ready(check)
        out = board.run(check, CHECK.replace("PATHS", repr(paths)))
    got = json.loads([l for l in out.splitlines() if l.startswith("CHECK ")][0][6:])
    lost_files = [p for p in sorted(expected) if got.get(p) != expected[p]]
    if got.get(code_file) != board.code_crc:
        lost_files.append(code_file)
    kept = got.get("lines", -1)
    if lost_files:
        verdict = "other files damaged or lost: " + ", ".join(lost_files)
    elif kept < 0:
        verdict = "record unreadable: %s" % got.get("error")
    elif kept < shown:
        verdict = "lost %d shown lines" % (shown - kept)
    else:
        verdict = "ok"
    print("cut %2d: %3d lines shown as saved, %3d on the board%s: %s" % (
        index, shown, max(kept, 0), " + a torn one" if got.get("torn") else "", verdict), flush=True)
    return verdict.split(":")[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", choices=("feather_rp2040", "pico"), default="feather_rp2040")
    ap.add_argument("--cuts", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    where = tempfile.mkdtemp(prefix="azul-cut-")
    board = Board(args.board, where)
    reason = board.missing()
    if reason:
        print(reason)
        return 0
    try:
        base = board.image()
        expected, code_file = board.expected()
        with open(RECORD) as f:
            lines = len([l for l in f.read().split("\n") if l])
        # the code file's crc and how long the appends take (wall s, under the chip's timings)
        with board.emulator(base) as emu:
            board.ready(emu)
            board.code_crc = json.loads([l for l in board.run(emu, CHECK.replace("PATHS", repr([code_file])))
                                         .splitlines() if l.startswith("CHECK ")][0][6:])[code_file]
        img = os.path.join(where, "timing.img")
        shutil.copyfile(base, img)
        seen, stop = [], threading.Event()
        with board.emulator(img, cut=True) as emu:
            board.ready(emu)
            t0 = time.monotonic()
            t = threading.Thread(target=stream, args=(emu.repl_port, APPEND, seen, stop))
            t.start()
            while (not seen or max(seen) < lines) and time.monotonic() - t0 < 3600:
                time.sleep(0.1)
            board.span = time.monotonic() - t0
            stop.set()
        print("%s: %d appends take %.0f s of wall time under the chip's timings" % (args.board, lines, board.span))
        rng = random.Random(args.seed)
        counts = {}
        for i in range(args.cuts):
            v = one_cut(board, base, rng, i + 1, lines, expected, code_file)
            counts[v] = counts.get(v, 0) + 1
        print("%s, %d cuts: %s" % (args.board, args.cuts, ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    finally:
        shutil.rmtree(where, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
