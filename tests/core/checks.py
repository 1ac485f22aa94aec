"""Assertion helpers for core tests that must run under pytest and MicroPython alike."""
import json


def raises(exc_type, fn, *args, match=None):
    """Call fn(*args), assert it raises exc_type (with `match` in its message); return the message."""
    try:
        fn(*args)
    except exc_type as e:
        msg = str(e)
        assert match is None or match in msg, "message %r lacks %r" % (msg, match)
        return msg
    raise AssertionError("%s not raised by %r%r" % (exc_type.__name__, fn, args))


def events(session):
    """A session's effective events, oldest first (undone ones left out), as dicts: its
    record lines; a device session that let its older lines go (app.current.ReadBack)
    reads them back from its record."""
    done = session.done
    if done.lo:
        from rules_core.session import replay
        return events(replay(session.reread())[0])
    return [json.loads(done[i]) for i in range(len(done))]
