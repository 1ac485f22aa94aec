"""Run a file of a CircuitPython drive as CircuitPython would, on CPython.

    python -I -S run_on_drive.py DRIVE FILE TRACE STOP_MS [PIN:START:END ...]

-I -S: no site-packages, so only the drive and these fakes can satisfy an import. The
import path is CircuitPython's: built-in modules (here their fakes: board, busio,
digitalio, neopixel_write, storage, supervisor, micropython), then the drive's root, then
its lib/. The working directory is the drive's root, as "/" on the board. FILE (boot.py or
code.py) runs as __main__; each run is a fresh interpreter, as CircuitPython resets its VM
between boot.py and code.py. PIN:START:END holds a button from START to END ms after the
run began (+START:+END: after the first display frame). The run stops STOP_MS after the
first display frame; exit 0 when it stopped or FILE returned, 3 if no frame ever came.
"""
import __future__
import importlib.machinery
import os
import sys

FAKES = os.path.dirname(os.path.abspath(__file__))
# CircuitPython parses annotations and never evaluates them; CPython evaluates them at def
# time, and the Adafruit libraries annotate with names (WriteableBuffer...) that only exist
# where circuitpython_typing is installed. Compiling as `from __future__ import annotations`
# keeps them unevaluated, as on the board.
LAZY_ANNOTATIONS = __future__.annotations.compiler_flag


class CircuitPythonLoader(importlib.machinery.SourceFileLoader):
    """Compiles every .py from its source (no __pycache__ read or written)."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return compile(self.get_data(path), path, "exec", flags=LAZY_ANNOTATIONS, dont_inherit=True)


def run_file(name):
    with open(name, "rb") as f:
        code = compile(f.read(), name, "exec", flags=LAZY_ANNOTATIONS, dont_inherit=True)
    exec(code, {"__name__": "__main__", "__file__": name})


def main(argv):
    drive, name, trace, stop_ms = argv[1], argv[2], argv[3], int(argv[4])
    drive = os.path.abspath(drive)
    on_drive = [drive, os.path.join(drive, "lib")]

    def drive_finder(path):
        if path != drive and not path.startswith(drive + os.sep):
            raise ImportError(path)  # the standard finders take every other folder
        return importlib.machinery.FileFinder(path, (CircuitPythonLoader, [".py"]))

    sys.path_hooks.insert(0, drive_finder)
    sys.path_importer_cache.clear()
    sys.path[:0] = [FAKES] + on_drive
    import harness
    harness.TRACE = open(trace, "a")
    harness.STOP_MS = stop_ms
    for spec in argv[5:]:
        pin, start, end = spec.split(":")
        harness.HOLDS.append((pin, int(start), int(end), start.startswith("+")))
    os.chdir(drive)
    try:
        run_file(name)
    except KeyboardInterrupt:
        if harness.first_frame_ms is None:
            print("no display frame within %d ms" % harness.LIMIT_MS)
            return 3
        print("stopped %d ms after the first frame" % stop_ms)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
