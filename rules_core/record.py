"""The game record, version 1 (docs/RECORD_FORMAT.md): JSON Lines, header first.

A record is the only truth about a game: scores are always recomputed by folding it
(rules_core.session.replay). This module reads and writes its lines.
"""
import json

try:
    from collections import OrderedDict
except ImportError:  # a port built without it: dumps() writes with dump() alone
    OrderedDict = None

from rules_core.errors import RecordError
from rules_core.games import game

FORMAT = "azul-companion-record"
VERSION = 1


def new_header(game, variant, players, options=None):
    """The header of a new game, validated."""
    return parse_header({"format": FORMAT, "v": VERSION, "game": game, "variant": variant,
                         "players": list(players), "options": options or {}})


def parse_header(h):
    """Validate a header object; return it with defaults filled in (variant, options)."""
    if type(h) is not dict or h.get("format") != FORMAT:
        raise RecordError("not an azul-companion record (header needs \"format\": \"%s\")" % FORMAT)
    if h.get("v") != VERSION:
        raise RecordError("record version %r is not supported (this reader knows v%d)" % (h.get("v"), VERSION))
    g = game(h.get("game"))
    players = h.get("players")
    if type(players) is not list:
        raise RecordError("%s needs a list of %d to %d players" % (g.key, g.players[0], g.players[1]))
    variant = g.check(h.get("variant"), len(players))
    for name in players:
        if type(name) is not str or not name:
            raise RecordError("player names must be non-empty strings, got %r" % (name,))
    options = h.get("options", {})
    if type(options) is not dict:
        raise RecordError("options must be an object")
    out = dict(h)
    out["variant"] = variant
    out["options"] = options
    return out


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


# Bounds on one line, checked before it is parsed: a record line is ~100 bytes and nests 4
# deep; without them `/dev/zero` or a 1 GB line would fill the memory, and deep nesting
# would exhaust the parser's recursion (CPython's json recurses on nesting).
MAX_LINE = 65536  # bytes, not counting the newline
MAX_DEPTH = 32  # arrays/objects inside one another


def parse_line(text):
    """One record line to an object; RecordError if it is not a JSON object."""
    if text.count("[") + text.count("{") > MAX_DEPTH:  # rare: only then measure the depth
        depth = 0
        quoted = escaped = False
        for ch in text:
            if quoted:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    quoted = False
            elif ch == '"':
                quoted = True
            elif ch == "[" or ch == "{":
                depth += 1
                if depth > MAX_DEPTH:
                    raise RecordError("arrays/objects nested deeper than %d" % MAX_DEPTH)
            elif ch == "]" or ch == "}":
                depth -= 1
    try:
        obj = json.loads(text)
    except ValueError:
        raise RecordError("not valid JSON")
    if type(obj) is not dict:
        raise RecordError("expected a JSON object")
    return obj


def lines_of(source):
    """Yield (lineno, text, complete) from a str, an iterable of lines, or an open file.

    A file is read with readline in pieces of at most 256 bytes (MicroPython reserves the
    whole size it is given), so memory stays bounded whatever it holds: a line longer than
    MAX_LINE raises RecordError once MAX_LINE bytes of it have been read.
    """
    if type(source) is str:
        lines = source.split("\n")
        last = lines.pop()  # "" when the text ends with a newline
        for i in range(len(lines)):
            lines[i] += "\n"
        if last:
            lines.append(last)
        source = lines
    read = getattr(source, "readline", None)
    if read is None:
        source = iter(source)
    n = 0
    while True:
        line = next(source, None) if read is None else read(256)
        if not line:
            return
        raw = type(line) is bytes
        nl = b"\n" if raw else "\n"
        if read is not None and len(line) == 256 and not line.endswith(nl):  # a longer line
            parts = [line]
            size = 256
            while size <= MAX_LINE:
                part = read(256)
                parts.append(part)
                size += len(part)
                if len(part) < 256 or part.endswith(nl):
                    break
            line = line[:0].join(parts)
            parts = None  # the generator's frame would keep the pieces alive as well
        n += 1
        complete = line.endswith(nl)
        if len(line) - complete > MAX_LINE:
            raise RecordError("line %d: longer than %d bytes" % (n, MAX_LINE))
        if raw:
            try:
                line = line.decode("utf-8")
            except UnicodeError:
                raise RecordError("line %d: not UTF-8 text" % n)
        yield n, line.rstrip("\r\n") if complete else line, complete
