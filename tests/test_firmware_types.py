"""mypy over firmware/ against MicroPython's rp2 (Pico) stubs (firmware/mypy.ini), so a call
to machine, neopixel, framebuf, micropython or time that the board's MicroPython does not
have is caught on the desktop. ./dev.sh installs the stubs into .venv/micropython-stubs."""
import os
import subprocess
import sys

import mp

CONFIG = os.path.join(mp.ROOT, "firmware", "mypy.ini")
STUBS = os.path.join(mp.ROOT, ".venv", "micropython-stubs")


def mypy(*targets):
    assert os.path.exists(os.path.join(STUBS, "machine.pyi")), "MicroPython stubs missing: run ./dev.sh"
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--config-file", CONFIG] + list(targets),
                          cwd=mp.ROOT, capture_output=True, text=True, timeout=600)


def test_firmware_type_checks_against_the_micropython_stubs():
    r = mypy("firmware")
    assert r.returncode == 0 and "Success: no issues found" in r.stdout, r.stdout + r.stderr


def test_the_stubs_are_what_mypy_checks_against(tmp_path):
    """A call MicroPython's machine.Pin does not have, and time.monotonic (CPython's, not
    MicroPython's), are reported: the check really reads the MicroPython stubs."""
    bad = tmp_path / "bad_board_code.py"
    bad.write_text("import machine\nimport time\n\n\ndef f():\n    machine.Pin(1).valu()\n"
                   "    return time.monotonic()\n")
    r = mypy(str(bad))
    assert r.returncode == 1, r.stdout
    assert 'has no attribute "valu"' in r.stdout and 'has no attribute "monotonic"' in r.stdout, r.stdout
