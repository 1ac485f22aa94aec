"""Power cuts on the emulated boards with the chips' real timings: what a cut while the board
saves leaves of its games and files, counted per board and store.

    .venv/bin/python bench/power_cut.py --board feather_rp2040|pico [--store fram|flash]
                                        [--work append|file] [--cuts 20] [--seed 1]

The board runs the firmware's own store (main.storage_from_board: on the Feather its FRAM
breakout, --store fram, or without it the FAT drive, --store flash; on the Pico littlefs)
beside a settings file and a game in the history written before, and prints "OK n" once
each save has returned (what the screen then shows as saved):
- append: Storage.append_line over the 244 lines of the 5-player 5211 golden record;
- file: whole games written into the history (Storage.write_atomic of a 2 KB record, as a
  filing onto that store would write them), one after another.
The emulator (tests/emulator/run.mjs) writes every flash erase and program into the image
before the CPU goes on, an erase taking 45 ms and a program 8 ms a 4 KB sector of wall time
(--flash-op-ms 45,8, a W25Q/GD25Q chip's typical times), and each byte the FRAM receives
into its image before the byte is acknowledged (an FRAM write takes no time beyond the
bus's, 400 kHz, which the emulator charges), so a SIGKILL at a random moment of the saves
falls where a real cut would. After each cut the board boots again in safe mode (the app
does not start) and reads back what it has: every save shown kept, nothing torn but the
save under way, every other file whole (the code on the drive too), or not. Prints one line
per cut and the counts; asserts nothing. Exits 0 with the reason where an emulator is missing.
"""
import argparse
import binascii
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
GAME = os.path.join(ROOT, "tests", "golden", "azul_grey_4p.jsonl")  # the history's game, and each one filed
OP_MS = "45,8"
SETTINGS = '{"brightness": 2, "history_keep": 50}'
HISTORY = "data/history/000001.jsonl"
STORE = """
import main
st = main.storage_from_board(main.load_board(main.board_name()))
"""
WORK = {
    "append": STORE + """
with open("cut/record.jsonl") as f:
    lines = f.read().split("\\n")
print("START")
for i in range(len(lines)):
    if lines[i]:
        st.append_line("data/current.jsonl", lines[i])
        print("OK", i + 1)
print("DONE")
""",
    "file": STORE + """
with open("cut/game.jsonl", "rb") as f:
    game = f.read()
print("START")
for n in range(2, 400):
    st.write_atomic("data/history/%06d.jsonl" % n, game)
    print("OK", n - 1)
print("DONE")
""",
}
# what the board holds after a cut: [length, crc32] of each path (None: missing), code files
# read from the drive, data files from the store; the record's bytes; the history's names
CHECK = STORE + """
import binascii, json
def crc(p):
    try:
        if p.startswith("data/"):
            d = st.read(p)
        else:
            with open(p, "rb") as f:
                d = f.read()
        return [len(d), binascii.crc32(d)]
    except OSError:
        return None
out = dict((p, crc(p)) for p in PATHS)
try:
    out["record"] = binascii.b2a_base64(st.read("data/current.jsonl")).decode().strip()
except OSError:
    out["record"] = None
out["history"] = sorted(name for name, is_dir in st.entries("data/history"))
print("CHECK " + json.dumps(out))
"""


def crc(data):
    return [len(data), binascii.crc32(data)]


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Board:
    """One board kind and store: how to make its images, start its emulator, run code on it."""

    def __init__(self, name, store, where):
        self.name, self.store, self.where = name, store, where
        self.fram = store == "fram"

    def missing(self):
        return cpsim.missing() if self.name == "feather_rp2040" else picosim.missing()

    def image(self):
        """The flashed firmware, the settings and a filed game on the board's store."""
        img = os.path.join(self.where, "base.img")
        extra = os.path.join(self.where, "extra")
        os.makedirs(os.path.join(extra, "cut"))
        shutil.copyfile(RECORD, os.path.join(extra, "cut", "record.jsonl"))
        shutil.copyfile(GAME, os.path.join(extra, "cut", "game.jsonl"))
        data = {"data/settings.json": SETTINGS.encode(), HISTORY: read(GAME)}
        if not self.fram:
            for path, content in data.items():
                os.makedirs(os.path.dirname(os.path.join(extra, path)), exist_ok=True)
                with open(os.path.join(extra, path), "wb") as f:
                    f.write(content)
        if self.name == "feather_rp2040":
            drive = os.path.join(self.where, "drive")
            cpsim.flash_folder(drive)
            cpsim.new_drive(img, drive)
            cpsim.put(img, extra)
            if self.fram:
                cpsim.fram_image(img + ".fram", data)
        else:
            files = {}
            for dirpath, _, names in os.walk(extra):
                for n in names:
                    full = os.path.join(dirpath, n)
                    files[os.path.relpath(full, extra).replace(os.sep, "/")] = read(full)
            with picosim.Emulator(img, log=os.path.join(self.where, "flash.log")) as emu:
                picosim.flash(emu, files, self.where)
        return img

    def copy(self, base, name):
        img = os.path.join(self.where, name)
        shutil.copyfile(base, img)
        if self.fram:
            shutil.copyfile(base + ".fram", img + ".fram")
        return img

    def expected(self):
        """{path: [length, crc32]} of the files a cut must leave whole, and a code file."""
        exp = {"data/settings.json": crc(SETTINGS.encode()), HISTORY: crc(read(GAME))}
        return exp, "main.mpy" if self.name == "feather_rp2040" else "app/app.mpy"

    def emulator(self, img, cut=False):
        """The board's emulator: in safe mode (the app does not start, the REPL is free), but
        for the Feather's saves onto its drive: its code may write the drive only when
        boot.py gave it the drive, out of safe mode (the app starts; the REPL's Ctrl-C stops it)."""
        extra = ["--flash-op-ms", OP_MS] if cut else []
        log = os.path.join(self.where, "emu.log")
        if self.name == "pico":  # every button read held: safe mode
            return picosim.Emulator(img, log=log, extra=extra)
        return cpsim.Emulator(img, safe=not cut, log=log, extra=extra, fram=img + ".fram" if self.fram else None)

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

    def check(self, emu, paths):
        out = self.run(emu, CHECK.replace("PATHS", repr(paths)))
        lines = [l for l in out.splitlines() if l.startswith("CHECK ")]
        if not lines:
            raise RuntimeError("no CHECK from the board:\n" + out[-2000:])
        return json.loads(lines[0][6:])


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


def verdict(work, got, shown, expected, code_file, code_crc):
    """(what the cut left: "ok" or what it lost, the saves kept, whether a save is torn)."""
    lost = [p for p in sorted(expected) if got.get(p) != expected[p]]
    if got.get(code_file) != code_crc:
        lost.append(code_file)
    if work == "append":  # the record: a prefix of whole lines, and maybe a torn one
        data = binascii.a2b_base64(got["record"]) if got["record"] is not None else b""
        want = read(RECORD)
        kept = pos = 0
        for line in want.split(b"\n")[:-1]:
            end = pos + len(line) + 1
            if data[pos:end] != want[pos:end]:
                break
            kept, pos = kept + 1, end
        torn = len(data) > pos
    else:  # file: each game shown as filed there whole; a .tmp left is a torn one
        game = crc(read(GAME))
        kept = 0
        while got.get("data/history/%06d.jsonl" % (kept + 2)) == game:
            kept += 1
        torn = any(name.endswith(".tmp") for name in got["history"])
    if lost:
        what = "files damaged or lost: " + ", ".join(lost)
    elif kept < shown:
        what = "lost %d shown saves" % (shown - kept)
    else:
        what = "ok"
    return what, kept, torn


def one_cut(board, base, rng, index, work, expected, code_file):
    img = board.copy(base, "cut.img")
    seen, stop = [], threading.Event()
    emu = board.emulator(img, cut=True).start()
    try:
        board.ready(emu)
        t = threading.Thread(target=stream, args=(emu.repl_port, WORK[work], seen, stop))
        t.start()
        deadline = time.monotonic() + 300
        while not seen and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(rng.uniform(0, board.span))  # a moment during the saves
        emu.cut()
    finally:
        stop.set()
        emu.cut()
    shown = max(seen) if seen else 0
    paths = sorted(expected) + [code_file] + ["data/history/%06d.jsonl" % n for n in range(2, shown + 3)]
    with board.emulator(img) as check:
        board.ready(check)
        got = board.check(check, paths)
    what, kept, torn = verdict(work, got, shown, expected, code_file, board.code_crc)
    print("cut %2d: %3d saves shown, %3d on the board%s: %s" % (index, shown, kept, " + a torn one" if torn else "",
                                                                what), flush=True)
    return what.split(":")[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", choices=("feather_rp2040", "pico"), default="feather_rp2040")
    ap.add_argument("--store", choices=("fram", "flash"), default="fram",
                    help="the Feather's: its FRAM breakout (the board file's), or its drive without one")
    ap.add_argument("--work", choices=sorted(WORK), default="append")
    ap.add_argument("--cuts", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    where = tempfile.mkdtemp(prefix="azul-cut-")
    board = Board(args.board, args.store if args.board == "feather_rp2040" else "flash", where)
    reason = board.missing()
    if reason:
        print(reason)
        return 0
    try:
        base = board.image()
        expected, code_file = board.expected()
        with board.emulator(board.copy(base, "check.img")) as emu:
            board.ready(emu)
            board.code_crc = board.check(emu, [code_file])[code_file]
        # how long the saves take (wall s, under the chips' timings)
        total = len([l for l in read(RECORD).split(b"\n") if l]) if args.work == "append" else 10
        seen, stop = [], threading.Event()
        with board.emulator(board.copy(base, "timing.img"), cut=True) as emu:
            board.ready(emu)
            t0 = time.monotonic()
            t = threading.Thread(target=stream, args=(emu.repl_port, WORK[args.work], seen, stop))
            t.start()
            while (not seen or max(seen) < total) and time.monotonic() - t0 < 3600:
                time.sleep(0.1)
            board.span = time.monotonic() - t0
            stop.set()
        print("%s on %s: %d saves (%s) take %.0f s of wall time under the chips' timings"
              % (args.board, board.store, total, args.work, board.span))
        rng = random.Random(args.seed)
        counts = {}
        for i in range(args.cuts):
            v = one_cut(board, base, rng, i + 1, args.work, expected, code_file)
            counts[v] = counts.get(v, 0) + 1
        print("%s on %s, %s, %d cuts: %s" % (args.board, board.store, args.work, args.cuts,
                                             ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    finally:
        shutil.rmtree(where, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
