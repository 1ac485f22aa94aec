"""The emulated Feather RP2040: CircuitPython 10.2.1 on the project's emulator (picosim's
Emulator, tests/emulator/run.mjs), its CIRCUITPY drive a FAT volume inside the flash image,
the OLED FeatherWing's SSD1306 at 0x3C on GPIO2/3 (a model that keeps its pixels), the
wing's buttons on GPIO9/8/7 and a RESET button.

    missing() -> None, or why the emulated Feather cannot run here (one line)
    flash_folder(folder): `azul-companion flash --board feather_rp2040 --drive folder`
    new_drive(img, folder): a blank flash whose CIRCUITPY holds the folder (cpdrive.py, mtools)
    Emulator(img, safe=False, fram=None).start() ... .stop()   (also a context manager)
    fram_file(fram_img, path): a file off the FRAM breakout's image (hal.fram_fs), or None

CircuitPython's firmware, the boot ROM, the raw-REPL client cprepl.py and the drive tool
cpdrive.py are read from ../shared/cpsim next to the project (AZUL_CPSIM names another
folder). Emulated ns (the control port's stats) are device time, what time.monotonic_ns()
counts.
"""
import importlib.util
import os
import shutil
import subprocess
import sys

import picosim

ROOT = picosim.ROOT
ENV = "AZUL_CPSIM"
UF2 = "circuitpython-10.2.1-adafruit_feather_rp2040.uf2"
BOOT_OUT = ("Adafruit CircuitPython 10.2.1 on 2026-11-28; Adafruit Feather RP2040 with rp2040\n"
            "Board ID:adafruit_feather_rp2040\n")


def folder():
    return os.environ.get(ENV) or os.path.join(ROOT, "..", "shared", "cpsim")


def missing():
    """None when the emulated Feather can run, else the reason it cannot (for a skip or an exit 0)."""
    reason = picosim.files_or_node_missing("Feather", folder(), (UF2, picosim.BOOTROM, "cpdrive.py", "cprepl.py"),
                                           ENV)
    if reason:
        return reason
    if not shutil.which("mcopy"):
        return "no emulated Feather: mtools is not installed (apt-get install mtools)"
    return None


def gpio():
    """The Feather's `board` pin names -> RP2040 GPIO (hardware/generate.py's table, and the
    SPI pins)."""
    spec = importlib.util.spec_from_file_location("hw_generate", os.path.join(ROOT, "hardware", "generate.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return dict(gen.FEATHER_RP2040_GPIO, SCK=18, MOSI=19)


def board_buttons(board=None):
    """Button name -> GPIO (pressed = 0) of the Feather's board file (or `board`)."""
    pins = gpio()
    board = board or picosim.board_file("feather_rp2040")
    return dict((name, pins[pin]) for name, pin in board["buttons"].items())


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


def fram_file(fram_img, path):
    """The bytes of a file on the emulated FRAM (its image, the emulator stopped), or None."""
    from fram_chip import Chip
    from hal.fram_fs import FramFS
    with open(fram_img, "rb") as f:
        fs = FramFS(Chip(data=f.read()))
    try:
        with fs.open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def fram_image(fram_img, files):
    """An FRAM image holding `files` ({path: bytes}; their folders made), as the app writes them."""
    from fram_chip import Chip
    from hal.fram_fs import FramFS
    chip = Chip(data=bytes(32768))
    fs = FramFS(chip)
    for path in sorted(files):
        parts = path.split("/")
        for i in range(1, len(parts)):
            if "/".join(parts[:i]) not in fs.where:
                fs.mkdir("/".join(parts[:i]))
        with fs.open(path, "wb") as f:
            f.write(files[path])
    with open(fram_img, "wb") as f:
        f.write(chip.bytes)


def _cprepl():
    spec = importlib.util.spec_from_file_location("azul_cprepl", os.path.join(folder(), "cprepl.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Emulator(picosim.Emulator):
    """One emulated Feather RP2040 with its board file's display and buttons (board: another
    BOARD dict, written over the drive's boards/feather_rp2040.py; addr: where the display
    answers on I2C, None: nothing does). safe=True holds OK from power-on: boot.py leaves the
    drive to the computer and the app does not start (the REPL is free). fram: the image file
    of an FRAM breakout on the I2C bus (made blank when missing; None: none fitted). extra:
    more run.mjs options (--flash-op-ms 45,8 ...)."""

    def __init__(self, flash_img, safe=False, log=None, extra=(), board=None, addr=0x3C, fram=None):
        board = board or picosim.board_file("feather_rp2040")
        pins = gpio()
        display = dict((k, pins.get(v, v)) for k, v in board["display"].items())
        # SDA and SCL read high (CircuitPython's busio.I2C wants their pull-ups), so do the
        # released buttons
        high = [pins["SDA"], pins["SCL"]] + [g for name, g in board_buttons(board).items()
                                             if not (safe and name == "OK")]
        picosim.Emulator.__init__(self, flash_img, pins_high=high, log=log, display=display, addr=addr,
                                  uf2=os.path.join(folder(), UF2),
                                  extra=(["--fram-img", fram] if fram else []) + list(extra))
        self.safe = safe

    def firmware(self):
        return self.uf2, os.path.join(folder(), picosim.BOOTROM)

    def start(self, timeout=180):
        return picosim.Emulator.start(self, timeout)

    def shown(self):
        """What the panel shows: its pages' bytes, 128 columns each."""
        return bytes.fromhex("".join(self.screen()["image"]))

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
