"""The rules core. What every core module imports lives here, in the package, which each of
them loads anyway: a module of its own costs a Pico's heap about 0.25 KB more.

The error kinds are both ValueError, so callers can catch one type. const() is only a hint
to the MicroPython compiler (folded away there); CPython needs the name."""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


class RuleError(ValueError):
    """An event the rules forbid, e.g. 'row 2 already has blue on the wall'."""


class RecordError(ValueError):
    """A record line that is not valid JSON or not a valid event/header."""
