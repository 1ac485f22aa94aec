"""The record's canonical JSON text (docs/RECORD_FORMAT.md): dump() and dumps().

Only what writes a record imports this (the device's record and settings writers, the host
tools): a replay reads with rules_core.session and loads none of it (1.4 KB of a Pico's heap).
"""
import json

try:
    from collections import OrderedDict
except ImportError:  # a port built without it: dumps() writes with dump() alone
    OrderedDict = None


def _dump_str(s, write):
    write('"')
    for ch in s:
        if ch == '"' or ch == "\\":
            write("\\" + ch)
        elif ord(ch) < 0x20 or 0xD800 <= ord(ch) <= 0xDFFF:  # a lone surrogate (CPython) is no UTF-8
            write("\\u%04x" % ord(ch))
        else:
            write(ch)
    write('"')


# keys that lead an object, in this order; the rest follow sorted
_KEY_ORDER = ("format", "v", "game", "variant", "players", "options", "e", "p")


def _keys(obj):
    keys = []
    for k in _KEY_ORDER:
        if k in obj:
            keys.append(k)
    rest = []
    for k in obj:
        if k not in _KEY_ORDER:
            rest.append(k)
    rest.sort()
    return keys + rest


def dump(obj, write):
    """Canonical JSON written piece by piece: the same text on every interpreter (MicroPython
    dicts keep no order), and no big intermediate string on a small heap."""
    t = type(obj)
    if obj is None:
        write("null")
    elif obj is True:
        write("true")
    elif obj is False:
        write("false")
    elif t is int or t is float:
        write(repr(obj))
    elif t is str:
        _dump_str(obj, write)
    elif t is list or t is tuple:
        write("[")
        for i in range(len(obj)):
            if i:
                write(", ")
            dump(obj[i], write)
        write("]")
    elif t is dict:
        keys = _keys(obj)
        write("{")
        for i in range(len(keys)):
            if i:
                write(", ")
            _dump_str(keys[i], write)
            write(": ")
            dump(obj[keys[i]], write)
        write("}")
    else:
        raise TypeError("cannot serialise %r" % (obj,))


def _ordered(obj):
    """obj as json.dumps writes canonically: each dict an OrderedDict in the canonical key
    order, each list or tuple holding a dict a list of such (others are taken as they are)."""
    t = type(obj)
    if t is dict:
        out = OrderedDict()
        for k in _keys(obj):
            if type(k) is not str:
                raise TypeError("cannot serialise key %r" % (k,))
            out[k] = _ordered(obj[k])
        return out
    if t is list or t is tuple:
        for x in obj:
            tx = type(x)
            if tx is dict or tx is list or tx is tuple:
                out = []
                for x in obj:
                    out.append(_ordered(x))
                return out
            if not (tx is str or tx is int or x is None or tx is bool or tx is float):
                raise TypeError("cannot serialise %r" % (x,))
    elif not (t is str or t is int or obj is None or t is bool or t is float):
        raise TypeError("cannot serialise %r" % (obj,))
    return obj


def dumps(obj):
    """Canonical JSON text of obj: the text dump() writes.

    On a Pico dump() costs 1.5-10 ms an event (a call there is ~12 us): the built-in json
    writes the same text in C when nothing in it is escaped or beyond ASCII (json.dumps
    escapes a newline as \\n where a record has \\u000a, and MicroPython's would keep a lone
    surrogate), which is every event the device writes."""
    if OrderedDict is not None:
        text = json.dumps(_ordered(obj))
        if "\\" not in text and len(text.encode()) == len(text):
            return text
    parts = []
    dump(obj, parts.append)
    return "".join(parts)
