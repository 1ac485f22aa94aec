"""The game record, version 1 (docs/RECORD_FORMAT.md): JSON Lines, header first.

A record is the only truth about a game: scores are always recomputed by folding it
(rules_core.session.replay). This module reads and writes its lines.
"""
import json

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
        elif ord(ch) < 0x20:
            write("\\u%04x" % ord(ch))
        else:
            write(ch)
    write('"')


# keys that lead an object, in this order; the rest follow sorted
_KEY_ORDER = ("format", "v", "game", "variant", "players", "options", "e", "p")


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
        keys = [k for k in _KEY_ORDER if k in obj]
        keys += sorted(k for k in obj if k not in _KEY_ORDER)
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


def dumps(obj):
    """Canonical JSON text of obj (see dump)."""
    parts = []
    dump(obj, parts.append)
    return "".join(parts)


def parse_line(text):
    """One record line to an object; RecordError if it is not a JSON object."""
    try:
        obj = json.loads(text)
    except ValueError:
        raise RecordError("not valid JSON")
    if type(obj) is not dict:
        raise RecordError("expected a JSON object")
    return obj


def lines_of(source):
    """Yield (lineno, text, complete) from a str or an iterable of lines (e.g. an open file)."""
    if type(source) is str:
        source = source.split("\n")
        last = source.pop()  # "" when the text ends with a newline
        source = [s + "\n" for s in source]
        if last:
            source.append(last)
    n = 0
    for line in source:
        n += 1
        if type(line) is bytes:
            try:
                line = line.decode("utf-8")
            except UnicodeError:
                raise RecordError("line %d: not UTF-8 text" % n)
        complete = line.endswith("\n")
        yield n, line.rstrip("\r\n") if complete else line, complete
