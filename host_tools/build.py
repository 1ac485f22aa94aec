"""`azul-companion build --board pico --out FILE.uf2`: the whole firmware of a Pico in one
file, MicroPython v1.28 with the project frozen in (manifest.py), built offline.

    azul-companion build [--board pico] [--out azul-companion-pico.uf2]

The MicroPython build kit (micropython-rp2-kit: MicroPython, the pico-sdk, TinyUSB,
micropython-lib and picotool as sources) is ../shared/mpkit beside the checkout, or the folder
AZUL_MPKIT names: a folder holding the kit's tarball, unpacked once into build/mpkit/, or an
unpacked kit (its build.sh). The compiler comes from Debian: gcc-arm-none-eabi,
libnewlib-arm-none-eabi, libstdc++-arm-none-eabi-newlib, cmake, build-essential.

build/image/<board>/ is kept: picotool and mpy-cross are built once (about 1.5 min on two
cores the first time, with the firmware), the firmware again only where a file changed. The
image adds two frozen modules of its own, written there: image.py (the board the image is
for and the project's version; Settings > About shows them) and boot.py, which puts the
frozen modules before the files on flash, so that the .mpy files an earlier
`azul-companion flash` left there do not shadow them. A UF2 writes only the firmware's part
of the flash (checked here): the data folder, and the games in it, stay.

SOURCE_DATE_EPOCH (the date in MicroPython's banner, all that the kit's build takes from
the day) is the checkout's last commit unless set, so that a commit builds the same image
again.
"""
import glob
import hashlib
import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile

from host_tools.output import CliError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = "AZUL_MPKIT"
KIT_TARBALL = "micropython-rp2-kit-*.tar.xz"
CACHE = os.path.join(ROOT, "build")
# board file -> the kit's MicroPython board (it has one: the Pico, with either display wiring)
PORT_BOARDS = {"pico": "RPI_PICO", "pico_spi": "RPI_PICO"}
# the RP2040's flash as MicroPython's RPI_PICO lays it out: the firmware below FS_START, the
# littlefs filesystem (the data folder) from there to the end of its 2 MB
FLASH_BASE = 0x10000000
FS_START = 0xA0000
APT = "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake build-essential"
# tool -> what provides it (Debian/Ubuntu)
TOOLS = (("arm-none-eabi-gcc", "gcc-arm-none-eabi"), ("arm-none-eabi-g++", "gcc-arm-none-eabi"),
         ("cmake", "cmake"), ("make", "build-essential"), ("gcc", "build-essential"),
         ("g++", "build-essential"), ("python3", "python3"))
# what the ARM compiler must find besides itself -> its package
LIBS = (("libc.a", "libnewlib-arm-none-eabi"), ("libstdc++.a", "libstdc++-arm-none-eabi-newlib"))

IMAGE_PY = '''"""What this firmware is: an image built by azul-companion build (Settings > About)."""
BOARD = %r  # the board file it was built for
VERSION = %r  # the project's (version.VERSION, frozen beside it)
'''
BOOT_PY = '''# Azul Companion firmware image (azul-companion build): the frozen modules come first, so
# that .mpy files an earlier `azul-companion flash` left on the flash do not shadow them
# (a frozen main.py runs before the one on flash already).
import sys
sys.path.remove(".frozen")
sys.path.insert(0, ".frozen")
'''
MANIFEST_PY = '''# written by azul-companion build: the project's manifest, and this folder's image.py and boot.py
include(%r)
module("image.py")
module("boot.py")
'''


def kit_folder():
    return os.environ.get(ENV) or os.path.join(ROOT, "..", "shared", "mpkit")


def find_kit(cache=CACHE):
    """The unpacked kit's folder (its build.sh): the one AZUL_MPKIT or ../shared/mpkit names,
    or its tarball's, unpacked under cache/mpkit the first time (again when the tarball
    changes). CliError saying what is missing and how to get it."""
    where = kit_folder()
    if os.path.isfile(os.path.join(where, "build.sh")):
        return os.path.abspath(where)
    tarballs = sorted(glob.glob(os.path.join(where, KIT_TARBALL)))
    if not tarballs:
        raise CliError("no MicroPython build kit: no %s and no build.sh in %s (put the kit beside the "
                       "checkout as ../shared/mpkit, or set %s to its folder)" % (KIT_TARBALL, where, ENV))
    tarball = tarballs[-1]
    name = os.path.basename(tarball)[:-len(".tar.xz")]
    dest = os.path.join(cache, "mpkit", name)
    stamp = os.path.join(cache, "mpkit", name + ".sha256")
    digest = sha256_file(tarball)
    if os.path.isfile(os.path.join(dest, "build.sh")) and _read(stamp) == digest:
        return dest
    print("unpacking %s into %s (once)" % (os.path.basename(tarball), os.path.dirname(dest)), flush=True)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.rmtree(dest, ignore_errors=True)
    tmp = tempfile.mkdtemp(prefix=".unpack-", dir=os.path.dirname(dest))
    try:
        with tarfile.open(tarball) as tar:
            if hasattr(tarfile, "data_filter"):  # (3.12+, and security releases of 3.9-3.11)
                tar.extractall(tmp, filter="data")
            else:
                tar.extractall(tmp)
        tops = os.listdir(tmp)
        top = os.path.join(tmp, tops[0]) if len(tops) == 1 else tmp
        if not os.path.isfile(os.path.join(top, "build.sh")):
            raise CliError("%s is not a MicroPython build kit: no build.sh in it" % tarball)
        os.rename(top, dest)
    except (OSError, tarfile.TarError) as e:
        raise CliError("cannot unpack %s: %s" % (tarball, e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    with open(stamp, "w") as f:
        f.write(digest)
    return dest


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def missing_tool():
    """None, or one line naming the first tool the build lacks and the package that has it."""
    for tool, package in TOOLS:
        if not shutil.which(tool):
            return "%s not found: install %s (Debian/Ubuntu: %s)" % (tool, package, APT)
    for lib, package in LIBS:
        found = subprocess.run(["arm-none-eabi-gcc", "-print-file-name=" + lib], capture_output=True,
                               text=True).stdout.strip()
        if not os.path.isabs(found):  # (gcc prints the bare name when it has no such file)
            return "the ARM compiler has no %s: install %s (Debian/Ubuntu: %s)" % (lib, package, APT)
    return None


def version():
    """firmware/version.py's VERSION (pyproject.toml's: tests/test_image.py)."""
    spec = importlib.util.spec_from_file_location("azul_version", os.path.join(ROOT, "firmware", "version.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.VERSION


def source_date_epoch():
    """SOURCE_DATE_EPOCH as given, else the checkout's last commit's time (None outside git)."""
    given = os.environ.get("SOURCE_DATE_EPOCH")
    if given:
        return given
    try:
        r = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip().isdigit() else None


def uf2_blocks(data):
    """[(flash address, payload)] of a UF2 file's blocks for the main flash."""
    out = []
    for off in range(0, len(data) - 511, 512):
        magic0, magic1, flags, addr, size = struct.unpack_from("<IIIII", data, off)
        if magic0 != 0x0A324655 or magic1 != 0x9E5D5157 or struct.unpack_from("<I", data, off + 508)[0] != 0x0AB16F30:
            continue
        if flags & 1:  # not main flash
            continue
        out.append((addr, data[off + 32:off + 32 + size]))
    return out


def write_uf2(data, flash):
    """Write a UF2's blocks into a flash image (a bytearray from FLASH_BASE), as the RP2040's
    boot ROM does when the file is dropped on its drive; nothing else of it changes."""
    for addr, payload in uf2_blocks(data):
        start = addr - FLASH_BASE
        flash[start:start + len(payload)] = payload


def check_image(path):
    """The UF2's blocks lie in the firmware's part of the flash (below FS_START), or CliError:
    one that reached the filesystem would overwrite the games."""
    with open(path, "rb") as f:
        blocks = uf2_blocks(f.read())
    if not blocks:
        raise CliError("%s holds no UF2 block" % path)
    end = max(addr + len(p) for addr, p in blocks) - FLASH_BASE
    if min(addr for addr, _ in blocks) < FLASH_BASE or end > FS_START:
        raise CliError("%s writes flash up to 0x%x, into the filesystem (from 0x%x): the games "
                       "would be overwritten" % (path, end, FS_START))
    return end


def build(board, out, cache=CACHE, say=print):
    """Build the image for `board` into `out`; returns (the kit's folder, the build folder)."""
    if board not in PORT_BOARDS:
        raise CliError("no firmware image for board %r: the kit builds %s" % (board, ", ".join(sorted(PORT_BOARDS))))
    if not os.path.isfile(os.path.join(ROOT, "manifest.py")):
        raise CliError("no manifest.py in %s: build runs from the project's checkout" % ROOT)
    kit = find_kit(cache)
    problem = missing_tool()
    if problem:
        raise CliError(problem)
    where = os.path.join(cache, "image", board)
    os.makedirs(where, exist_ok=True)
    for name, text in (("image.py", IMAGE_PY % (board, version())), ("boot.py", BOOT_PY),
                       ("manifest.py", MANIFEST_PY % os.path.join(ROOT, "manifest.py"))):
        path = os.path.join(where, name)
        if _read(path) != text.strip():  # (unchanged files keep their time: no rebuild)
            with open(path, "w") as f:
                f.write(text)
    # GIT_CEILING_DIRECTORIES: the kit's MicroPython is no git checkout, and unpacked under
    # build/ its version script would find the project's and put its commit in the banner
    # (sys.version) as MicroPython's version; stopped there, the banner says v1.28.0
    env = dict(os.environ, JOBS=os.environ.get("JOBS") or str(os.cpu_count() or 2),
               GIT_CEILING_DIRECTORIES=os.path.dirname(kit))
    epoch = source_date_epoch()
    if epoch:
        env["SOURCE_DATE_EPOCH"] = epoch
    out = os.path.abspath(out)
    log = os.path.join(where, "build.log")
    say("building MicroPython for %s with Azul Companion %s frozen in (log: %s)" % (board, version(), log))
    with open(log, "w") as f:
        proc = subprocess.Popen(["bash", os.path.join(kit, "build.sh"), os.path.join(where, "manifest.py"), out,
                                 os.path.join(where, "kit")], cwd=where, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in proc.stdout:
            f.write(line)
            if line.startswith("=== "):  # the kit's steps
                say("  " + line[4:].rstrip())
        code = proc.wait()
    if code != 0:
        with open(log) as f:
            tail = f.read().splitlines()[-15:]
        sys.stderr.write("".join("  | %s\n" % t for t in tail))
        raise CliError("the firmware build failed (exit %d): %s (whole log: %s)" % (
            code, tail[-1] if tail else "no output", log))
    end = check_image(out)
    say("wrote %s: %d KB of firmware, the flash from 0x%x (the data folder) untouched; sha256 %s" % (
        out, (end + 1023) // 1024, FS_START, sha256_file(out)))
    return kit, where


def add_arguments(parser):
    parser.add_argument("--board", default="pico", choices=sorted(PORT_BOARDS),
                        help="the board file (default pico)")
    parser.add_argument("--out", help="the UF2 file to write (default azul-companion-BOARD.uf2)")


def run(args):
    build(args.board, args.out or "azul-companion-%s.uf2" % args.board)
    return 0
