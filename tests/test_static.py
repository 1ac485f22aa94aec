"""Static checks of everything that goes on the board: mpy-cross compiles it, no CPython-only imports."""
import os
import re
import subprocess

import mp

BOARD_PACKAGES = ("rules_core", "firmware")
CPYTHON_ONLY = re.compile(r"^\s*(from|import)\s+(dataclasses|enum|typing|abc|pathlib|__future__|functools)\b", re.M)


def board_files():
    for package in BOARD_PACKAGES:
        for dirpath, _, files in os.walk(os.path.join(mp.ROOT, package)):
            for f in sorted(files):
                if f.endswith(".py"):
                    yield os.path.join(dirpath, f)


def test_every_board_file_compiles_with_mpy_cross(tmp_path):
    files = list(board_files())
    assert len(files) > 5
    failed = []
    for path in files:
        r = subprocess.run([mp.mpy_cross(), "-o", str(tmp_path / "out.mpy"), path], capture_output=True, text=True)
        if r.returncode:
            failed.append("%s: %s" % (os.path.relpath(path, mp.ROOT), r.stderr.strip().splitlines()[-1]))
    assert not failed, "\n".join(failed)


def test_no_cpython_only_imports_on_the_board():
    bad = []
    for path in board_files():
        with open(path, encoding="utf-8") as f:
            for m in CPYTHON_ONLY.finditer(f.read()):
                bad.append("%s: %s" % (os.path.relpath(path, mp.ROOT), m.group(0).strip()))
    assert not bad, "\n".join(bad)
