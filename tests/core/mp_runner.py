"""Run the plain-function core tests on any interpreter (MicroPython has no pytest).

Usage: micropython tests/core/mp_runner.py [module ...]   (run from the repository root)
Prints one line per failure and closes with 'N passed, N failed'.
"""
import sys
import gc

sys.path.insert(0, "tests/core")
sys.path.insert(0, ".")
sys.path.insert(0, "firmware")  # app.current: the device's session, tested with the core's

try:
    import os
    listdir = os.listdir
except ImportError:
    import uos
    listdir = uos.listdir


def main(names):
    if not names:
        names = sorted(f[:-3] for f in listdir("tests/core") if f.startswith("test_") and f.endswith(".py"))
    passed = failed = 0
    for name in names:
        mod = __import__(name)
        for attr in sorted(dir(mod)):
            fn = getattr(mod, attr)
            if not attr.startswith("test_") or not callable(fn):
                continue
            if getattr(fn, "cpython_only", False):
                continue
            gc.collect()
            try:
                fn()
                passed += 1
            except Exception as e:  # report and go on: one line per failure
                failed += 1
                print("FAIL %s.%s: %s: %s" % (name, attr, type(e).__name__, e))
        del sys.modules[name]
        gc.collect()
    print("%d passed, %d failed" % (passed, failed))
    return failed


if __name__ == "__main__":
    sys.exit(1 if main(sys.argv[1:]) else 0)
