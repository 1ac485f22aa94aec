"""Fake of CircuitPython's `supervisor`: ticks_ms (wraps at 2**29 like the real one); the
harness stops the run from here, the one call every frame of the main loop makes."""
import harness


def ticks_ms():
    harness.check_stop()
    return harness.now_ms() & ((1 << 29) - 1)
