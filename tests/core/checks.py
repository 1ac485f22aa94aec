"""Assertion helpers for core tests that must run under pytest and MicroPython alike."""


def raises(exc_type, fn, *args, match=None):
    """Call fn(*args), assert it raises exc_type (with `match` in its message); return the message."""
    try:
        fn(*args)
    except exc_type as e:
        msg = str(e)
        assert match is None or match in msg, "message %r lacks %r" % (msg, match)
        return msg
    raise AssertionError("%s not raised by %r%r" % (exc_type.__name__, fn, args))
