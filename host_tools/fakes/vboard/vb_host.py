"""The virtual board's link to its host (host_tools/vboard.py), plugged into the fake
`machine` as machine.board by vbrepl.py: the trace of what the firmware sent, the host's
button steps, and the control lines (resets, steps done).

Trace: with VBOARD_TRACE set, every write is appended to that file as one text line:
`i2c <addr hex> <bytes hex>`, `np <pin> <bytes hex>`, `pin <id> <value>`,
`wdt <id> <timeout ms>`. The file is opened before the flash is mounted, so it lives
outside it, and hex goes out in CHUNK-byte pieces, never as one string (the firmware under
test owns the heap).

Buttons: the host presses them by appending steps to the file named by VBOARD_BUTTONS, one
line each: `SEQ MS PIN=LEVEL PIN=LEVEL ...`. A step starts at the first input read that
sees it and lasts until an input read at least MS board milliseconds later, which still
returns its levels (so the firmware sampled it at both ends); then "KEYS SEQ" goes to the
host and the next step starts at a later millisecond.
"""
import os
import sys
import time
from binascii import hexlify

import machine

CHUNK = 64


def control(word):
    """Tell the host something, on stderr, which it reads apart."""
    sys.stderr.write("\x1bVB:" + word + "\n")


class Host:
    def __init__(self, trace_path, buttons_path):
        # both opened before the flash is mounted at "/"
        self._trace = open(trace_path, "a") if trace_path else None
        self._buttons = open(buttons_path) if buttons_path else None
        self._buf = ""
        self._seq = -1     # step in force (-1: none yet)
        self._started = 0  # board ms when it started
        self._ms = 0       # how long it lasts
        self._done = True  # its end was sampled and reported
        self._looked = -1  # board ms of the last look at the file (one look per ms)

    def record(self, kind, where, data):
        """Append one write to the trace file; `data` is bytes-like (hexed) or an int."""
        if self._trace is None:
            return
        f = self._trace
        f.write("%s %s " % (kind, where))
        if isinstance(data, int):
            f.write(str(data))
        else:
            view = memoryview(data)
            for i in range(0, len(view), CHUNK):
                f.write(hexlify(view[i:i + CHUNK]))
        f.write("\n")
        f.flush()

    def poll(self):
        """Apply the host's button steps to machine.LEVELS (called on each input read)."""
        if self._buttons is None:
            return
        now = time.ticks_ms()
        if not self._done:
            if time.ticks_diff(now, self._started) < self._ms:
                return
            self._done = True  # this read still returns the step's levels
            self._looked = now
            control("KEYS %d" % self._seq)
            return
        if now == self._looked:
            return
        self._looked = now
        if "\n" not in self._buf:
            self._buf += self._buttons.read()
            if "\n" not in self._buf:
                return
        line, self._buf = self._buf.split("\n", 1)
        parts = line.split()
        for part in parts[2:]:
            pin, level = part.split("=")
            machine.LEVELS[int(pin)] = int(level)
        self._seq, self._ms = int(parts[0]), int(parts[1])
        self._started = now
        self._done = False

    def reset(self):
        """Hard reset: the host restarts the interpreter, keeps the pty/socket."""
        control("RESET")
        self._wait()

    def _wait(self):
        # the host kills and restarts this process; never return into the program
        while True:
            try:
                time.sleep_ms(100)
            except KeyboardInterrupt:  # a Ctrl-C racing the reset: the reset wins
                pass


class WDT:
    """machine.WDT: records its timeout; feeds are not checked (a loaded host stalls)."""

    def __init__(self, id=0, timeout=5000):
        machine.board.record("wdt", id, timeout)

    def feed(self):
        pass


def plug_in():
    """Link the fake `machine` to the host (from the environment), and add to it what only a
    board with a host has: a watchdog and a reset."""
    host = Host(os.getenv("VBOARD_TRACE"), os.getenv("VBOARD_BUTTONS"))
    machine.board = host
    machine.KEEP = 0  # the trace file has every write: keep none of them on the board's heap
    machine.WDT = WDT
    machine.reset = host.reset
