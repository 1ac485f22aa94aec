"""const() on every runtime (the hardware layer's own: it imports nothing of the rules core)."""
try:
    from micropython import const
except ImportError:  # CPython: const() is only a hint to the MicroPython compiler
    def const(x):  # type: ignore[misc]  # (the stubs type the real one)
        return x
