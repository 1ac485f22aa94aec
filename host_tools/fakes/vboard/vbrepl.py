"""The virtual board's boot ROM, run by the MicroPython unix port.

Environment (set by host_tools/vboard.py):
  VBOARD_FLASH  host folder mounted at "/" (the board's flash)
  VBOARD_MODE   "friendly" (power-on / hard reset: boot.py then main.py, then the REPL),
                "raw" (soft reset from the raw REPL: boot.py only, back to the raw REPL), or
                "repl" (after a program ignored Ctrl-C: straight to the friendly REPL)
  VBOARD_TRACE  optional file for peripheral records (see vb_host.py)
  VBOARD_BUTTONS  file of button steps from the host (see vb_host.py)

Protocols, as MicroPython's shared/runtime/pyexec.c speaks them (mpremote relies on them):
  friendly REPL ">>> "; Ctrl-A -> raw REPL; Ctrl-B -> banner; Ctrl-C -> new prompt;
  Ctrl-D on an empty line -> soft reset.
  raw REPL "raw REPL; CTRL-B to exit\\r\\n>"; code then Ctrl-D -> "OK", stdout, "\\x04",
  error text, "\\x04", ">"; Ctrl-D on empty input -> "OK\\r\\n" and soft reset;
  "\\x05A\\x01" -> raw-paste: "R\\x01", window size (2 bytes LE) and "\\x01", then the host
  sends at most one window per "\\x01" we send, ending with "\\x04" which we echo.
Newlines are sent as "\\n"; the host side turns them into "\\r\\n" like a board's UART.
Control lines for the host go to stderr (vb_host.control): BUSY/IDLE while user code runs
(so Ctrl-C becomes SIGINT -> KeyboardInterrupt), RAW/FRIENDLY for the REPL mode, and
SOFT/RESET to be restarted.
"""
import gc
import io
import os
import sys

# the fake `machine` and `neopixel` the tests use too, from ../mp (the unix port puts this
# script's folder first on sys.path); boot() then gives the board its own sys.path, and
# imports of them find these modules in sys.modules, whatever the flash holds
sys.path.insert(1, sys.path[0] + "/../mp")
import machine  # noqa: E402,F401
import neopixel  # noqa: E402,F401
import vb_host  # noqa: E402

vb_host.plug_in()
control = vb_host.control

WINDOW = 128  # raw-paste flow-control window, as a board with a 256-byte stdin buffer
BANNER = b"MicroPython virtual board (unix port) with the Azul Companion fakes\nType \"help()\" for more information.\n"

_write = sys.stdout.buffer.write
_read = sys.stdin.buffer.read
_globals = {"__name__": "__main__"}


def print_exception(e):
    """The traceback as a board prints it: without this ROM's own frames."""
    buf = io.StringIO()
    sys.print_exception(e, buf)
    for line in buf.getvalue().split("\n"):
        if line and "vbrepl.py" not in line:
            _write(line.encode() + b"\n")


def read_byte():
    c = _read(1)
    if not c:  # the host closed our stdin: power off
        sys.exit(0)
    return c[0]


def run(code, name, mode):
    """Compile and run user code in the board's __main__ globals; errors are printed."""
    try:  # BUSY inside the try: the host may send SIGINT as soon as it reads it
        control("BUSY")
        exec(compile(code, name, mode), _globals)
    except SystemExit:
        pass
    except BaseException as e:  # KeyboardInterrupt included, as on a board
        print_exception(e)
    control("IDLE")


def run_file(path):
    try:
        with open(path) as f:
            source = f.read()
    except OSError:
        return
    run(source, path, "exec")


def soft_reset():
    control("SOFT")
    while True:  # the host restarts the process
        read_byte()


def raw_repl():
    control("RAW")
    _write(b"raw REPL; CTRL-B to exit\n")
    while True:
        _write(b">")
        line = bytearray()
        while True:
            c = read_byte()
            if c == 1:  # Ctrl-A: raw-paste request, or restart the raw REPL
                if len(line) == 2 and line[0] == 5:
                    raw_paste(line[1])
                    line = bytearray()
                    _write(b">")
                    continue
                _write(b"raw REPL; CTRL-B to exit\n>")
                line = bytearray()
            elif c == 2:  # Ctrl-B: friendly REPL
                _write(b"\n")
                return
            elif c == 3:
                line = bytearray()
            elif c == 4:
                break
            else:
                line.append(c)
        _write(b"OK")
        if not line:
            _write(b"\n")
            soft_reset()
        run_raw(bytes(line))


def run_raw(code):
    try:
        control("BUSY")
        exec(compile(code, "<stdin>", "exec"), _globals)
    except SystemExit:
        pass
    except BaseException as e:
        _write(b"\x04")
        print_exception(e)
        _write(b"\x04")
        control("IDLE")
        return
    _write(b"\x04\x04")
    control("IDLE")


def raw_paste(command):
    if command != ord("A"):
        _write(b"R\x00")
        return
    _write(b"R\x01")
    _write(bytes((WINDOW & 0xFF, WINDOW >> 8, 1)))  # window size, then one more window free
    data = bytearray()
    remain = WINDOW
    while True:
        c = read_byte()
        if c == 4 or c == 3:
            _write(b"\x04")
            if c == 3:
                _write(b"\x04KeyboardInterrupt\n\x04")
                return
            break
        data.append(c)
        remain -= 1
        if remain == 0:
            _write(b"\x01")
            remain = WINDOW
    run_raw(bytes(data))


def friendly_repl():
    control("FRIENDLY")
    _write(BANNER)
    lines = []
    line = bytearray()
    _write(b">>> ")
    while True:
        c = read_byte()
        if c == 1:
            _write(b"\n")
            return
        elif c == 2:
            _write(b"\n" + BANNER + b">>> ")
            lines, line = [], bytearray()
        elif c == 3:
            _write(b"\n>>> ")
            lines, line = [], bytearray()
        elif c == 4:
            if not line and not lines:
                _write(b"\n")
                soft_reset()
        elif c == 8 or c == 127:
            if line:
                line = line[:-1]
                _write(b"\x08 \x08")
        elif c == 13:
            _write(b"\n")
            text = line.decode()
            line = bytearray()
            if lines or text.rstrip().endswith(":"):
                lines.append(text)
                if text.strip():
                    _write(b"... ")
                    continue
                text = "\n".join(lines) + "\n"
                lines = []
            if text.strip():
                run(text, "<stdin>", "single")
            _write(b">>> ")
        elif c >= 32 or c == 9:
            line.append(c)
            _write(bytes((c,)))
        # other control bytes (and the \n after \r) are ignored


def boot():
    flash = os.getenv("VBOARD_FLASH")
    os.umount("/")
    os.mount(os.VfsPosix(flash), "/")
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]
    mode = os.getenv("VBOARD_MODE") or "friendly"
    gc.collect()
    if mode == "repl":  # restarted after a program would not stop: no boot.py/main.py
        mode = "friendly"
    else:
        run_file("boot.py")
        if mode == "friendly":
            run_file("main.py")
    while True:
        try:
            if mode == "raw":
                raw_repl()
                mode = "friendly"
            else:
                friendly_repl()
                mode = "raw"
        except KeyboardInterrupt:  # a Ctrl-C that raced the end of user code
            control("IDLE")


boot()
