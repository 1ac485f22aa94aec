"""The game record, version 1 (shared/design/RECORD_FORMAT.md): JSON Lines, header first.

A record is the only truth about a game: scores are always recomputed by folding it.
"""
import json

from rules_core.errors import RecordError

FORMAT = "azul-companion-record"
VERSION = 1

# game name -> (module, class); imported on first use so a board loads only its game
GAMES = {
    "azul": ("rules_core.azul", "AzulRules"),
    "sintra": ("rules_core.sintra", "SintraRules"),
    "garden": ("rules_core.garden", "GardenRules"),
    "5211": ("rules_core.game5211", "Rules5211"),
}


def rules_class(game):
    if type(game) is not str or game not in GAMES:  # a list or dict would not even hash
        raise RecordError("unknown game %r (one of %s)" % (game, ", ".join(sorted(GAMES))))
    modname, clsname = GAMES[game]
    mod = __import__(modname, None, None, [clsname])
    return getattr(mod, clsname)


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
    cls = rules_class(h.get("game"))
    variant = h.get("variant")
    if variant is None:
        variant = cls.VARIANTS[0]
    if variant not in cls.VARIANTS:
        raise RecordError("%s has no variant %r (one of %s)" % (h["game"], variant, ", ".join(cls.VARIANTS)))
    players = h.get("players")
    lo, hi = cls.PLAYERS
    if type(players) is not list or not lo <= len(players) <= hi:
        raise RecordError("%s needs a list of %d to %d players" % (h["game"], lo, hi))
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


def replay(source):
    """Fold a record into a Session. Returns (session, warnings).

    A last line without its newline is a write cut by power loss: it is ignored with a
    warning. Any other bad line raises a ValueError subclass whose message starts "line N: ".
    """
    from rules_core.session import Session

    session = None
    warnings = []
    for n, text, complete in lines_of(source):
        if not complete:  # only the last line can lack its newline
            warnings.append("line %d: incomplete last line ignored (a write cut by power loss)" % n)
            break
        try:
            if not text.strip():
                raise RecordError("empty line")
            obj = parse_line(text)
            if session is None:
                session = Session(obj)
            else:
                session.add(obj, text)
        except ValueError as e:
            raise type(e)("line %d: %s" % (n, e))
    if session is None:
        raise RecordError("line 1: the record has no header")
    return session, warnings
