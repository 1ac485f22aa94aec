"""The emulated Feather RP2040: CircuitPython 10.2.1 on rp2040js, its CIRCUITPY drive a FAT
volume inside the flash image, the OLED FeatherWing's SSD1306 at 0x3C on GPIO2/3 (a stub
that keeps its pixels), the wing's buttons on GPIO9/8/7 and a RESET button.

    missing() -> None, or why the emulator cannot run here (one line)
    new_drive(img, folder): a blank flash whose CIRCUITPY holds the folder (cpdrive.py, mtools)
    flash_folder(folder): `azul-companion flash --board feather_rp2040 --drive folder`
    Emulator(img, safe=False).start() ... .stop()   (also a context manager)

The emulator's folder is ../shared/cpsim next to the project (AZUL_CPSIM names another);
it is read-only: run.mjs is the project's copy (tests/rp2040/run.mjs), its raw-REPL client
cprepl.py and drive tool cpdrive.py are used from there. The flash image is written back per
flash operation, so a SIGKILL of the emulator is a power cut after the last one.
Emulated ns (the control port's stats) are device time, what time.monotonic_ns() counts.
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time

import picosim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = "AZUL_CPSIM"
UF2 = "circuitpython-10.2.1-adafruit_feather_rp2040.uf2"
BOOTROM = "bootrom-b1.bin"
RUN = os.path.join(ROOT, "tests", "rp2040", "run.mjs")
SDA, SCL = 2, 3
BOOT_OUT = ("Adafruit CircuitPython 10.2.1 on 2026-11-28; Adafruit Feather RP2040 with rp2040\n"
            "Board ID:adafruit_feather_rp2040\n")


def folder():
    return os.environ.get(ENV) or os.path.join(ROOT, "..", "shared", "cpsim")


def missing():
    """None when the emulator can run, else the reason it cannot (for a skip or an exit 0)."""
    reason = picosim.files_or_node_missing("Feather", folder(), (UF2, BOOTROM, "cpdrive.py", "cprepl.py"), ENV)
    if reason:
        return reason
    if not shutil.which("mcopy"):
        return "no emulated Feather: mtools is not installed (apt-get install mtools)"
    return None


def board_buttons():
    """Button name -> GPIO of the wing's buttons (the board file names them D9, D6, D5)."""
    gpio = {"D9": 9, "D6": 8, "D5": 7}  # the Feather RP2040's pinout
    return dict((name, gpio[pin]) for name, pin in picosim.board_file("feather_rp2040")["buttons"].items())


def _cpdrive(img, *args):
    r = subprocess.run([sys.executable, os.path.join(folder(), "cpdrive.py"), img] + list(args),
                       capture_output=True, text=True, timeout=600)
    if r.returncode:
        raise RuntimeError("cpdrive.py %s: %s" % (" ".join(args), (r.stderr or r.stdout)[-1000:]))
    return r.stdout


def flash_folder(where, tree=ROOT, source=False):
    """A CIRCUITPY folder written by the project's own `flash --board feather_rp2040 --drive`
    (a boot_out.txt first, as CircuitPython writes it; --source with source); flash's output."""
    os.makedirs(where, exist_ok=True)
    with open(os.path.join(where, "boot_out.txt"), "w") as f:
        f.write(BOOT_OUT)
    r = subprocess.run([sys.executable, "-m", "host_tools", "flash", "--board", "feather_rp2040", "--drive", where]
                       + (["--source"] if source else []), capture_output=True, text=True, timeout=600, cwd=tree)
    if r.returncode:
        raise RuntimeError("flash --drive failed: %s" % (r.stderr or r.stdout)[-1000:])
    return r.stdout


def new_drive(img, src=None):
    """A blank 8 MB flash image with an empty CIRCUITPY, then src's files put on it."""
    _cpdrive(img, "new")
    if src:
        _cpdrive(img, "put", src)


def put(img, src, dest="/"):
    _cpdrive(img, "put", src, dest)


def get(img, path, local):
    """Copy a file off the drive (the emulator stopped); False when it is not there."""
    r = subprocess.run([sys.executable, os.path.join(folder(), "cpdrive.py"), img, "get", path, local],
                       capture_output=True, text=True, timeout=120)
    return r.returncode == 0 and os.path.exists(local)


def _cprepl():
    spec = importlib.util.spec_from_file_location("azul_cprepl", os.path.join(folder(), "cprepl.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Emulator(picosim.Emulator):
    """One emulated Feather RP2040 + OLED FeatherWing. safe=True holds OK (D6) from power-on:
    boot.py leaves the drive to the computer and the app does not start (the REPL is free).
    extra: more run.mjs options (--flash-op-ms 45,8 ...). pico=True: the Pico's MicroPython
    firmware (../shared/picosim) on the same run.mjs. The control port, stats, pins, waits
    and stop are picosim.Emulator's."""

    def __init__(self, flash_img, safe=False, log=None, extra=(), pico=False):
        picosim.Emulator.__init__(self, flash_img, log=log)
        self.safe = safe
        self.extra = list(extra)
        self.pico = pico

    def command(self):
        where = folder()
        if self.pico:  # its buttons all read held unless high: safe mode leaves them low
            uf2, i2c = os.path.join(picosim.folder(), picosim.UF2), (4, 5)
            high = [] if self.safe else sorted(picosim.board_buttons().values())
        else:
            uf2, i2c = os.path.join(where, UF2), (SDA, SCL)
            high = [SDA, SCL] + [g for name, g in sorted(board_buttons().items()) if not (self.safe and name == "OK")]
        cmd = ["node", RUN, "--uf2", uf2, "--bootrom", os.path.join(where, BOOTROM),
               "--port", str(self.repl_port), "--ctl-port", str(self.ctl_port), "--flash-img", self.flash_img,
               "--i2c-stub", "--i2c-pins", "%d,%d" % i2c, "--quiet"] + self.extra
        if high:
            cmd += ["--pins-high", ",".join(map(str, sorted(high)))]
        return cmd

    def start(self, timeout=180):
        return picosim.Emulator.start(self, timeout)

    def cut(self):
        """A power cut: SIGKILL, the image as the last finished flash operation left it."""
        p, self.proc = self.proc, None
        if p is not None and p.poll() is None:
            p.kill()
            p.wait(10)

    def emu_ms(self):
        return self.stats()["emu_ns"] / 1e6

    def reset(self):
        """The RESET button: boot.py and code.py run again, the flash kept."""
        assert self.ctl("reset") == "ok"

    def screen(self):
        """The SSD1306's memory as the app last sent it: {"on", "height", "pages": [bytes]}."""
        d = json.loads(self.ctl("screen-json"))
        d["pages"] = [bytes.fromhex(p) for p in d["pages"]]
        return d

    def wait_for(self, check, timeout=300, what="the screen"):
        """Poll check() (every ~20 ms of wall time) until it returns something true."""
        deadline = time.monotonic() + timeout
        while True:
            r = check()
            if r:
                return r
            if time.monotonic() > deadline:
                raise RuntimeError("waited %d s for %s%s" % (timeout, what, self.log_tail()))
            time.sleep(0.02)

    def first_frame_ms(self, timeout=600):
        """Power-on to the end of the App's first frame, device ms (picosim's way, past the
        581 bytes of the display's set-up)."""
        return picosim.Emulator.first_frame_ms(self, timeout, setup_bytes=600)

    def exec(self, code, timeout=600):
        """Stop code.py, run code in the raw REPL, leave it; (stdout, stderr) as text."""
        board = _cprepl().Board(self.repl_port)
        try:
            board.enter_raw()
            out, err = board.exec_raw(code, timeout)
            board.leave_raw()
        finally:
            board.s.close()
        return out.decode(errors="replace"), err.decode(errors="replace")
