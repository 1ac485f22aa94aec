"""`pip install .` gives a working tool: the wheel holds the core, the host tools with their
MicroPython fakes, every firmware file and the `azul-companion` script, and an install into a
fresh venv runs from that venv (not this checkout). Nothing is fetched from an index: the
wheel is built with this venv's setuptools (--no-build-isolation) from a copy of the tree.
"""
import os
import re
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import version

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = ("pyproject.toml", "README.md", "rules_core", "host_tools", "firmware")


def needed_setuptools():
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        m = re.search(r'"setuptools>=(\d+)', f.read())
    return int(m.group(1)) if m else 0


def have_setuptools():
    try:
        return int(version("setuptools").split(".")[0])
    except Exception:
        return -1


pytestmark = pytest.mark.skipif(have_setuptools() < needed_setuptools(),
                                reason="the build needs setuptools>=%d in this venv" % needed_setuptools())


def repo_files(top, ext=".py"):
    out = set()
    for d, dirs, names in os.walk(os.path.join(ROOT, top)):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        out.update(os.path.relpath(os.path.join(d, n), ROOT).replace(os.sep, "/") for n in names if n.endswith(ext))
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    src = tmp_path_factory.mktemp("src")
    for name in SHIPPED:
        path = os.path.join(ROOT, name)
        if os.path.isdir(path):
            shutil.copytree(path, str(src / name), ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(path, str(src / name))
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                        "--no-index", "-w", str(out), str(src)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    (whl,) = [str(out / n) for n in os.listdir(str(out)) if n.endswith(".whl")]
    return whl


def test_wheel_holds_core_tools_fakes_firmware_and_the_script(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        entry = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        scripts = z.read(entry[0]).decode()
    for top in ("rules_core", "host_tools", "firmware"):
        missing = repo_files(top) - names
        assert not missing, sorted(missing)
    # the folders flash and vboard read files from, not only import
    assert {"host_tools/fakes/vboard/vbrepl.py", "host_tools/fakes/vboard/mip/ssd1306.py",
            "host_tools/fakes/mp/machine.py", "firmware/main.py", "firmware/boards/pico.py"} <= names
    assert "azul-companion = host_tools.cli:main" in scripts


def test_fresh_venv_runs_the_installed_copy(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = str(venv / "bin" / "python")
    r = subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-deps", "--no-index", wheel],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    run = dict(capture_output=True, text=True, timeout=120, cwd=str(tmp_path))  # not this checkout
    r = subprocess.run([py, "-c", "import host_tools.flash as f, rules_core; print(f.FIRMWARE); print(rules_core.__file__)"], **run)
    assert r.returncode == 0, r.stderr
    assert all(line.startswith(str(venv)) for line in r.stdout.split()), r.stdout
    record = os.path.join(ROOT, "tests", "oracles", "azul-random-games", "azul_2p_5000.jsonl")
    r = subprocess.run([str(venv / "bin" / "azul-companion"), "replay", record], **run)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "azul (colored) - final after round 6"
    # the firmware's modules (app, hal, boards) are found in the installed copy
    r = subprocess.run([str(venv / "bin" / "azul-companion"), "sim", "--script", "OK"], **run)
    assert r.returncode == 0, r.stderr
    assert "Azul" in r.stdout.splitlines()
    r = subprocess.run([str(venv / "bin" / "azul-companion"), "flash", "--dry-run", "--port", "socket://x:1"], **run)
    assert r.returncode == 0, r.stderr
    assert "firmware/main.py" in r.stdout and "rules_core/session.py" in r.stdout
