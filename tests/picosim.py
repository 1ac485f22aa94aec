"""The emulated Pico: the official MicroPython v1.28 RPI_PICO firmware on rp2040js (npm),
its USB REPL on a loopback port for mpremote, a control port for buttons and counters.

    missing() -> None, or why the emulator cannot run here (one line)
    bench_can_run() -> False after printing why not (a bench exits 0), True to go on
    Emulator(flash_img, pins_high=False, uf2=None).start() ... .stop()   (also a context manager)

The firmware image and boot ROM are read from ../shared/picosim next to the project
(AZUL_PICOSIM names another folder; uf2: another firmware, e.g. the image `azul-companion
build` makes); the emulator itself is the project's own, tests/emulator/run.mjs (a copy of
the shared one, extended: see its head), run with the project's rp2040js (package.json,
installed by ./dev.sh setup). `--i2c-stub` charges real 400 kHz bus time and counts bytes;
the display behind it (or on SPI) is a model SSD1306 or SH1106 that keeps its RAM (screen()).
ticks_us on the emulated chip counts emulated cycles at 125 MHz: device time, whatever the
host's load.
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
CP_ENV = "AZUL_CPSIM"  # the emulated Feather RP2040's CircuitPython (../shared/cpsim)
CP_UF2 = "circuitpython-10.2.1-adafruit_feather_rp2040.uf2"
BIN = os.path.dirname(sys.executable)
DEVICE_SRC = os.path.join(ROOT, "bench", "pico_device.py")  # the measuring side, run on the board
RUN_MJS = os.path.join(ROOT, "tests", "emulator", "run.mjs")


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
    return files_or_node_missing("Pico", folder(), (UF2, BOOTROM), ENV) or mpremote_missing()


def mpremote_missing():
    if not os.path.exists(os.path.join(BIN, "mpremote")):
        return "no emulated Pico: mpremote is not installed in this Python (./dev.sh setup)"
    return None


def cp_folder():
    return os.environ.get(CP_ENV) or os.path.join(ROOT, "..", "shared", "cpsim")


def cp_missing():
    """None when the emulated Feather can run CircuitPython (cpdrive.py and mtools make its
    drive), else why not."""
    for name in (CP_UF2, BOOTROM, "cpdrive.py"):
        if not os.path.exists(os.path.join(cp_folder(), name)):
            return "no emulated Feather: %s not found (set %s to the cpsim folder)" % (
                os.path.join(cp_folder(), name), CP_ENV)
    if not shutil.which("mcopy"):
        return "no emulated Feather: mtools is not installed (apt-get install mtools)"
    return missing()


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
        from boards import load
        return load(name)
    finally:
        sys.path.pop(0)


def board_buttons(name="pico"):
    """Button name -> GPIO of a Pico board file (pressed = pin reads 0)."""
    return dict(board_file(name)["buttons"])


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Emulator:
    """One emulated Pico. pins_high: the buttons read released from power-on, so main.py runs
    the App; otherwise every button reads held (safe mode: the REPL stays free).
    flash_img keeps the filesystem (the flash from 0xA0000) across emulator restarts (a power
    cycle); the firmware below it is uf2's (default: the official MicroPython).
    display: the board file's display dict (default the Pico's: an SSD1306 on I2C), which the
    model panel follows (controller, bus and its pins); addr: where it answers on I2C (None:
    nothing does). trace_pins: GPIOs whose level changes trace() returns; neopixel_pin: the
    GPIO whose WS2812 frames leds() decodes. circuitpython: the Feather RP2040's CircuitPython
    instead (its drive in flash_img: cpdrive.py), pins_high then the GPIOs that read high and
    gpio the display's pins' numbers by board name."""

    def __init__(self, flash_img, pins_high=False, log=None, display=None, addr=0x3C, trace_pins=(),
                 neopixel_pin=None, circuitpython=False, gpio=None, uf2=None):
        self.circuitpython = circuitpython
        self.gpio = gpio or {}
        self.flash_img = flash_img
        self.uf2 = uf2  # None: the folder's own firmware
        self.pins_high = pins_high
        self.log = log or os.devnull
        self.display = display or board_file()["display"]
        self.addr = addr
        self.trace_pins = trace_pins
        self.neopixel_pin = neopixel_pin
        self.proc = None
        self.repl_port = self.ctl_port = None

    @property
    def port(self):
        return "socket://127.0.0.1:%d" % self.repl_port

    def command(self):
        """The emulator's command line (tests/cpsim.py's Feather has its own)."""
        where = cp_folder() if self.circuitpython else folder()
        d = dict((k, self.gpio.get(v, v)) for k, v in self.display.items())
        uf2 = self.uf2 or os.path.join(where, CP_UF2 if self.circuitpython else UF2)
        cmd = ["node", RUN_MJS, "--uf2", uf2, "--bootrom", os.path.join(where, BOOTROM),
               "--i2c-stub", "--port", str(self.repl_port), "--ctl-port", str(self.ctl_port),
               "--flash-img", self.flash_img, "--display", d["driver"], "--display-bus", d.get("bus", "i2c"),
               "--i2c-addr", "none" if self.addr is None else "0x%x" % self.addr]
        if d.get("bus") == "spi":
            cmd += ["--spi-pins", "%d,%d" % (d["dc"], d["cs"])]
        else:
            cmd += ["--i2c-pins", "%d,%d" % (d["sda"], d["scl"])]
        if self.trace_pins:
            cmd += ["--trace-pins", ",".join(str(p) for p in self.trace_pins)]
        if self.neopixel_pin is not None:
            cmd += ["--neopixel-pin", str(self.neopixel_pin)]
        if self.pins_high:
            high = board_buttons().values() if self.pins_high is True else self.pins_high
            cmd += ["--pins-high", ",".join(str(p) for p in sorted(high))]
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

    def screen(self):
        """What the model display shows: {"image": [hex of each page, 128 columns], "on",
        "contrast", "driver", "bus", "dataBytes", ...} (run.mjs screen-json)."""
        return json.loads(self.ctl("screen-json"))

    def trace(self):
        """The traced pins' level changes: [{"pin", "level", "emu_ns", "edges", "reset"}]."""
        return json.loads(self.ctl("trace"))

    def leds(self):
        """The NeoPixel frames written: [{"emu_ns", "hex" (wire order), "reset"}]."""
        return json.loads(self.ctl("leds"))

    def reset(self):
        """The RESET button: the chip starts again from flash (main.py, with the pins as set)."""
        assert self.ctl("reset") == "ok"

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
    """`azul-companion flash --driver local` onto the emulated board, then install(). tree:
    the checkout whose firmware is flashed (another revision's, extracted). Returns flash's
    last line."""
    # the tree's own host_tools (python -m from it), whatever the venv has installed
    r = subprocess.run([sys.executable, "-m", "host_tools", "flash", "--port", emu.port, "--driver", "local"],
                       capture_output=True, text=True, timeout=1800, cwd=tree)
    if r.returncode != 0:
        raise RuntimeError("flash failed: %s" % (r.stderr or r.stdout).strip()[-500:])
    install(emu, files, where)
    return r.stdout.strip().splitlines()[-1]


def install(emu, files, where):
    """The measuring module (bench/pico_device.py as picobench.mpy) and `files` ({board
    path: bytes}) onto the emulated board: all a firmware image (azul-companion build) needs."""
    sys.path.insert(0, ROOT)
    from host_tools.flash import mkdirs_code, mpy_cross
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
    if folders:
        emu.mpremote("exec", mkdirs_code(sorted(folders)))
    emu.mpremote(*args)
