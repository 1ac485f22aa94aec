"""Errors of the rules core. Both are ValueError, so callers can catch one type."""


class RuleError(ValueError):
    """An event the rules forbid, e.g. 'row 2 already has blue on the wall'."""


class RecordError(ValueError):
    """A record line that is not valid JSON or not a valid event/header."""
