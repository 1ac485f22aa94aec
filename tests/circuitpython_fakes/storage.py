"""Fake of CircuitPython's `storage`: remount() is recorded in the trace."""
import harness


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    harness.log("remount %s readonly=%s" % (mount_path, readonly))
