"""Runtime shims so the same source runs on CPython, MicroPython and CircuitPython."""
try:
    from micropython import const
except ImportError:  # CPython: const() is only a hint to the MicroPython compiler
    def const(x):
        return x
