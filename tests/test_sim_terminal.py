"""`azul-companion sim` in a real terminal: tmux runs it in an 80x24 pane, as a newcomer would.

The pane must show the whole display as text (the menu's words as the device shows them,
the cursor's row in reverse video), the LEDs and the key help; a key press moves the
cursor; a resize redraws (half blocks when the pane is big, one line when it is too small);
`q` gives the terminal back exactly as it was (stty settings, visible cursor, the screen
before the command: the drawing was on the alternate screen) with the prompt below it.
"""
import os
import re
import shlex
import shutil
import itertools
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROMPT = "PROMPT$ "
BRAILLE = set(chr(c) for c in range(0x2801, 0x2900))
HALF_BLOCKS = set("\u2580\u2584\u2588")

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (.ci/run installs it with apt-get)")


class Pane:
    """One tmux pane on a private tmux server (-L), killed at the end."""

    def __init__(self, name, cols, rows):
        self.tmux = ["tmux", "-L", name]
        self.run("new-session", "-d", "-x", str(cols), "-y", str(rows), "-s", "t",
                 "env PS1=%s bash --norc --noprofile" % shlex.quote(PROMPT))
        self.wait_for(lambda rows: any(r.startswith(PROMPT.strip()) for r in rows), "the shell prompt")

    def run(self, *args):
        return subprocess.run(self.tmux + list(args), capture_output=True, text=True, check=True,
                              timeout=30).stdout

    def type(self, text):
        self.run("send-keys", "-t", "t", "-l", text)
        self.run("send-keys", "-t", "t", "Enter")

    def key(self, name):
        self.run("send-keys", "-t", "t", name)

    def rows(self):
        return self.run("capture-pane", "-p", "-t", "t").split("\n")

    def wait_for(self, ok, what, seconds=60):
        end = time.monotonic() + seconds
        while True:
            rows = self.rows()
            if ok(rows):
                return rows
            if time.monotonic() > end:
                pytest.fail("no %s in the pane after %d s:\n%s" % (what, seconds, "\n".join(rows)))
            time.sleep(0.1)

    def kill(self):
        subprocess.run(self.tmux + ["kill-server"], capture_output=True, timeout=30)


def drawing_rows(rows, chars):
    """Indexes of the rows that hold at least 8 characters of the given drawing set."""
    return [i for i, r in enumerate(rows) if sum(c in chars for c in r) >= 8]


PANES = itertools.count()


@pytest.fixture
def pane():
    # a server of its own per test: kill-server returns before the old server has let go of
    # its socket, and a new session on the same name would go to the dying server
    p = Pane("azul-sim-test-%d-%d" % (os.getpid(), next(PANES)), 80, 24)
    yield p
    p.kill()


MENU = ["Azul Companion", "New game", "Check a score", "History"]


def menu_shown(rows):
    return [r[:16].rstrip() for r in rows[:4]] == MENU and any("q quit" in r for r in rows)


def reversed_rows(pane):
    """The rows of the pane's screen that start in reverse video (SGR 7), by capture-pane -e."""
    lines = pane.run("capture-pane", "-p", "-e", "-t", "t").split("\n")
    return [i for i, line in enumerate(lines) if re.match(r"(\x1b\[[0-9;]*m)*\x1b\[([0-9;]*;)?7[;m]", line)]


def test_sim_in_an_80x24_pane(pane, tmp_path):
    stty_before, stty_after = tmp_path / "stty-before", tmp_path / "stty-after"
    pane.type("cd %s && stty -g > %s && %s -m host_tools sim --data %s" % (
        shlex.quote(ROOT), stty_before, shlex.quote(sys.executable), tmp_path / "data"))
    # a capture can land between the drawing and the key help of one frame: wait for both
    rows = pane.wait_for(menu_shown, "the main menu as text and the key help")
    # the whole display, a character per 8x8 cell from the top row, the LEDs beside it
    assert all(len(r) < 80 for r in rows)
    assert sum("\u2591\u2591 " in r for r in rows) == 5, rows  # the Pico's 5x5 LED matrix, all off
    assert not any(c in BRAILLE for r in rows for c in r)  # no text drawn as dots
    assert reversed_rows(pane) == [1]  # the cursor's row: New game

    pane.key("Down")
    pane.wait_for(lambda rows: reversed_rows(pane) == [2], "the cursor on Check a score after Down")

    pane.run("resize-window", "-t", "t", "-x", "150", "-y", "45")
    pane.wait_for(lambda rows: len(drawing_rows(rows, HALF_BLOCKS)) >= 10, "half-block drawing at 150x45")
    pane.run("resize-window", "-t", "t", "-x", "40", "-y", "10")
    rows = pane.wait_for(lambda rows: "terminal too small" in rows[0], "too-small line at 40x10")
    assert [r for r in rows if r.strip()] == [rows[0]] and len(rows[0]) < 40
    pane.run("resize-window", "-t", "t", "-x", "80", "-y", "24")
    rows = pane.wait_for(lambda rows: [r[:16].rstrip() for r in rows[:4]] == MENU, "the menu again at 80x24")

    pane.key("q")
    rows = pane.wait_for(lambda rows: sum(r.startswith(PROMPT.strip()) for r in rows) == 2,
                         "the prompt below the command after q")
    # the screen as it was before the command: its line (wrapped), then the prompt, nothing drawn
    prompt = max(i for i, r in enumerate(rows) if r.startswith(PROMPT.strip()))
    assert rows[0].startswith(PROMPT.strip()) and "host_tools sim" in "".join(rows[:prompt]) and prompt <= 3
    assert not any(r.strip() for r in rows[prompt + 1:]), rows
    assert pane.run("display", "-p", "-t", "t", "#{cursor_flag}").strip() == "1"  # cursor shown again
    pane.type("stty -g > %s" % stty_after)
    end = time.monotonic() + 30
    while not (stty_after.exists() and stty_after.read_text()) and time.monotonic() < end:
        time.sleep(0.1)
    assert stty_after.read_text() == stty_before.read_text()  # echo, canonical mode... as before


def test_sim_draws_the_dimmed_and_the_dark_display(pane, tmp_path):
    """Settings of 1 s and 3 s (the form offers minutes; the file takes any seconds)."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text('{"dim_after": 1, "blank_after": 3}')
    pane.type("cd %s && %s -m host_tools sim --data %s" % (shlex.quote(ROOT), shlex.quote(sys.executable), data))
    pane.wait_for(menu_shown, "the menu")
    rows = pane.wait_for(lambda rows: any("display dimmed" in r for r in rows), "the dimmed display")
    assert [r[:16].rstrip() for r in rows[:4]] == MENU  # the same picture...
    coloured = pane.run("capture-pane", "-p", "-e", "-t", "t")
    assert "38;5;242m" in coloured  # ...in grey
    rows = pane.wait_for(lambda rows: any("display dark" in r for r in rows), "the dark display")
    assert not any(r[:16].strip() for r in rows[:8])  # nothing lit
    pane.key("Down")  # only wakes it: the cursor stays where it was
    # lit and not yet dimmed again (1 s later it is: on a loaded machine, before a capture)
    pane.wait_for(lambda rows: [r[:16].rstrip() for r in rows[:4]] == MENU and
                  not any("display d" in r for r in rows) and reversed_rows(pane) == [1],
                  "the display lit again, the cursor where it was")
    pane.key("q")
