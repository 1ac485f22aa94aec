"""The emulated Pico: the official MicroPython v1.28 RPI_PICO firmware on rp2040js (npm),
its USB REPL on a loopback port for mpremote, a control port for buttons and counters.

    missing() -> None, or why the emulator cannot run here (one line)
    bench_can_run() -> False after printing why not (a bench exits 0), True to go on
    Emulator(flash_img, pins_high=False).start() ... .stop()   (also a context manager)

The emulator's folder is ../shared/picosim next to the project (AZUL_PICOSIM names another);
it is read-only: its run.mjs is copied under build/ so that Node finds the project's own
rp2040js (package.json, installed by ./dev.sh setup). The firmware image and boot ROM are
read from the folder. `--i2c-stub` puts an SSD1306 at 0x3C that charges real 400 kHz bus
time and counts bytes (it keeps no pixels). ticks_us on the emulated chip counts emulated
cycles at 125 MHz: device time, whatever the host's load.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = "AZUL_PICOSIM"
UF2 = "micropython-v1.28.0-RPI_PICO.uf2"
BOOTROM = "bootrom-b1.bin"
BIN = os.path.dirname(sys.executable)
DEVICE_SRC = os.path.join(ROOT, "bench", "pico_device.py")  # the measuring side, run on the board


def folder():
    return os.environ.get(ENV) or os.path.join(ROOT, "..", "shared", "picosim")


def files_or_node_missing(board, where, names, env):
    """Why an emulated board cannot run (its folder's files, node, rp2040js), or None."""
    for name in names:
        if not os.path.exists(os.path.join(where, name)):
            return "no emulated %s: %s not found (set %s to its folder)" % (board, os.path.join(where, name), env)
    if not shutil.which("node"):
        return "no emulated %s: node is not on PATH" % board
    if not os.path.isdir(os.path.join(ROOT, "node_modules", "rp2040js")):
        return "no emulated %s: npm package rp2040js is not installed (./dev.sh setup)" % board
    return None


def missing():
    """None when the emulator can run, else the reason it cannot (for a skip or an exit 0)."""
    reason = files_or_node_missing("Pico", folder(), ("run.mjs", UF2, BOOTROM), ENV)
    if reason:
        return reason
    if not os.path.exists(os.path.join(BIN, "mpremote")):
        return "no emulated Pico: mpremote is not installed in this Python (./dev.sh setup)"
    return None


def bench_can_run():
    """For a bench's main(): False after printing why the emulator cannot run (the bench exits
    0); True with SIGTERM made an exit, so that the bench's `finally` stops its emulator."""
    reason = missing()
    if reason:
        print(reason)
        return False
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    return True


def board_file(name="pico"):
    """The BOARD dict of firmware/boards/<name>.py."""
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    try:
        return __import__("boards." + name, None, None, ("BOARD",)).BOARD
    finally:
        sys.path.pop(0)


def board_buttons():
    """Button name -> GPIO of the Pico board file (pressed = pin reads 0)."""
    return dict(board_file()["buttons"])


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Emulator:
    """One emulated Pico. pins_high: the buttons read released from power-on, so main.py runs
    the App; otherwise every button reads held (safe mode: the REPL stays free).
    flash_img keeps the filesystem across emulator restarts (a power cycle)."""

    def __init__(self, flash_img, pins_high=False, log=None):
        self.flash_img = flash_img
        self.pins_high = pins_high
        self.log = log or os.devnull
        self.proc = None
        self.repl_port = self.ctl_port = None

    @property
    def port(self):
        return "socket://127.0.0.1:%d" % self.repl_port

    def command(self):
        """The emulator's command line (tests/cpsim.py's Feather has its own)."""
        where = folder()
        run = os.path.join(ROOT, "build", "picosim", "run.mjs")
        os.makedirs(os.path.dirname(run), exist_ok=True)
        shutil.copyfile(os.path.join(where, "run.mjs"), run)
        cmd = ["node", run, "--uf2", os.path.join(where, UF2), "--bootrom", os.path.join(where, BOOTROM),
               "--i2c-stub", "--port", str(self.repl_port), "--ctl-port", str(self.ctl_port),
               "--flash-img", self.flash_img]
        if self.pins_high:
            cmd += ["--pins-high", ",".join(str(p) for p in sorted(board_buttons().values()))]
        return cmd

    def start(self, timeout=120):
        self.repl_port, self.ctl_port = free_port(), free_port()
        cmd = self.command()
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("the emulator exited at start (code %s), see %s" % (self.proc.returncode, self.log))
            try:
                if self.stats()["usb_connected"]:
                    return self
            except OSError:
                pass
            if time.monotonic() > end:
                self.stop()
                raise RuntimeError("the emulator did not come up in %d s" % timeout)
            time.sleep(0.2)

    def stop(self):
        """Stop the emulator this object started (by its PID); it writes the flash image."""
        p, self.proc = self.proc, None
        if p is None or p.poll() is not None:
            return
        p.terminate()
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(10)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def ctl(self, command, timeout=60):
        """One command on the control port; its answer line."""
        with socket.create_connection(("127.0.0.1", self.ctl_port), timeout=timeout) as s:
            s.sendall(command.encode() + b"\n")
            buf = b""
            while not buf.endswith(b"\n"):
                d = s.recv(65536)
                if not d:
                    break
                buf += d
        return buf.decode().strip()

    def stats(self):
        """Emulated cycles and ns since power-on, flash and I2C counters (run.mjs stats)."""
        return json.loads(self.ctl("stats"))

    def pin(self, gpio, level):
        assert self.ctl("pin %d %d" % (gpio, level)) == "ok"

    def wait_emulated(self, ms, timeout=120):
        """Let `ms` of emulated time pass (a sleeping chip runs no faster than the wall clock)."""
        end_ns = self.stats()["emu_ns"] + ms * 1000000
        deadline = time.monotonic() + timeout
        while self.stats()["emu_ns"] < end_ns:
            if time.monotonic() > deadline:
                raise RuntimeError("the emulated clock did not advance %d ms in %d s" % (ms, timeout))
            time.sleep(0.01)

    def mpremote(self, *args, timeout=600):
        """Run mpremote on the board; its stdout (RuntimeError with its output on failure)."""
        r = subprocess.run([os.path.join(BIN, "mpremote"), "connect", self.port] + list(args),
                           capture_output=True, text=True, timeout=timeout)
        if r.returncode != 0:
            raise RuntimeError("mpremote %s failed: %s%s" % (" ".join(args)[:80], (r.stderr + r.stdout)[-2000:],
                                                             self.log_tail()))
        return r.stdout

    def log_tail(self):
        """The end of the emulator's log, and its exit code if it has stopped."""
        code = self.proc.poll() if self.proc else None
        try:
            with open(self.log, "rb") as f:
                f.seek(0, 2)
                f.seek(max(0, f.tell() - 2000))
                tail = f.read().decode(errors="replace")
        except OSError:
            tail = ""
        return "\nemulator%s; its log ends:\n%s" % ("" if code is None else " exited with %s" % code, tail)

    def result(self, code, timeout=3600):
        """Run code with mpremote exec (after a soft reset); its "RESULT {json}" line, with
        the "T us screen" lines (bench/pico_device.py) as the lists "us" and "screen", and
        the "P [row]" lines as the list "rows"."""
        out = self.mpremote("exec", code, timeout=timeout)
        us, screen, rows = [], [], []
        for line in out.splitlines():
            if line.startswith("T "):
                t, s = line.split()[1:]
                us.append(int(t))
                screen.append(int(s))
            elif line.startswith("P "):
                rows.append(json.loads(line[2:]))
            elif line.startswith("RESULT "):
                r = json.loads(line[7:])
                if us:
                    r["us"], r["screen"] = us, screen
                if rows:
                    r["presses"] = rows
                return r
        raise RuntimeError("no result from the board:\n%s" % out[-3000:])

    def first_frame_ms(self, timeout=600, setup_bytes=0):
        """Power-on to the end of the App's first frame, in emulated ms (the chip must have
        been started with pins_high so that main.py runs the App). setup_bytes: what the
        display's set-up sends before any frame (the Feather's driver sends 581 bytes).

        The control port is polled: the frame is over when the I2C byte count reaches the
        value it keeps once the chip idles (main.py's loop sleeping between frames; before
        that first frame the chip never sleeps once the display has been set up).
        Resolution: one poll, about 10 ms of emulated time."""
        samples = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            st = self.stats()
            samples.append((st["emu_ns"], st["cycles"], st["i2c"]["bytes"]))
            if st["i2c"]["bytes"] > setup_bytes:
                old = [s for s in samples if s[0] <= st["emu_ns"] - 300e6]
                if old:  # idle: under a third of the last 300 ms spent running, no new bytes
                    ns0, cyc0, bytes0 = old[-1]
                    busy = (st["cycles"] - cyc0) * 8 / (st["emu_ns"] - ns0)
                    if busy < 0.33 and bytes0 == st["i2c"]["bytes"]:
                        final = st["i2c"]["bytes"]
                        return min(s[0] for s in samples if s[2] == final) / 1e6
            time.sleep(0.01)
        raise RuntimeError("no idle first frame within %d s" % timeout)


def flash(emu, files, where, tree=ROOT):
    """`azul-companion flash --driver local` onto the emulated board, then the measuring
    module (bench/pico_device.py as picobench.mpy) and `files` ({board path: bytes}).
    tree: the checkout whose firmware is flashed (another revision's, extracted). Returns
    flash's last line."""
    sys.path.insert(0, ROOT)
    from host_tools.flash import mkdirs_code, mpy_cross
    # the tree's own host_tools (python -m from it), whatever the venv has installed
    r = subprocess.run([sys.executable, "-m", "host_tools", "flash", "--port", emu.port, "--driver", "local"],
                       capture_output=True, text=True, timeout=1800, cwd=tree)
    if r.returncode != 0:
        raise RuntimeError("flash failed: %s" % (r.stderr or r.stdout).strip()[-500:])
    mpy = os.path.join(where, "picobench.mpy")
    subprocess.run([mpy_cross(), "-o", mpy, DEVICE_SRC], check=True, capture_output=True, timeout=60)
    args = ["fs", "cp", mpy, ":picobench.mpy"]
    for dest, data in sorted(files.items()):
        local = os.path.join(where, dest.replace("/", "_"))
        with open(local, "wb") as f:
            f.write(data)
        args += ["+", "fs", "cp", local, ":" + dest]
    folders = set()
    for dest in files:  # each folder and the folders it is in ("data" before "data/history")
        parts = dest.split("/")[:-1]
        folders.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    emu.mpremote("exec", mkdirs_code(sorted(folders)))
    emu.mpremote(*args)
    return r.stdout.strip().splitlines()[-1]
