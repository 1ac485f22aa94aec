"""A record line is bounded before it is parsed (RECORD_FORMAT.md "File"): at most
MAX_LINE bytes, arrays/objects nested at most MAX_DEPTH deep. Anything else is one
RecordError naming the line, read in bounded pieces, on every interpreter."""
import io
import sys

from checks import raises
from rules_core import RecordError
from rules_core.record import dumps
from rules_core.session import MAX_DEPTH, MAX_LINE, parse_line, replay

HEADER = dumps({"format": "azul-companion-record", "v": 1, "game": "azul", "players": ["Ann", "Ben"]}) + "\n"


class Endless:
    """A file whose one line never ends (like /dev/zero); counts the bytes handed out."""

    def __init__(self):
        self.given = 0

    def readline(self, size=-1):
        assert 0 < size <= 4096, "an unbounded or big readline(%r)" % size
        self.given += size
        return b"0" * size


def test_nesting_deeper_than_the_bound_names_the_line():
    for depth in (MAX_DEPTH + 1, 1000, 5000):
        deep = "[" * depth + "]" * depth
        raises(RecordError, replay, HEADER + deep + "\n", match="line 2: arrays/objects nested deeper than %d" % MAX_DEPTH)
        raises(RecordError, replay, HEADER + '{"e": "note", "text": "x", "x": %s}\n' % deep, match="line 2: arrays/objects")
        raises(RecordError, replay, HEADER.replace('"players"', '"x": %s, "players"' % deep), match="line 1: arrays/objects")
        raises(RecordError, replay, HEADER + "{" * depth + "\n", match="line 2: arrays/objects")


def test_nesting_up_to_the_bound_parses_and_brackets_in_strings_do_not_count():
    ok = '{"a": %s1%s}' % ("[" * (MAX_DEPTH - 1), "]" * (MAX_DEPTH - 1))
    value = parse_line(ok)["a"]
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == 1
    name = '[{\\"' * 200  # 400 brackets and escaped quotes inside one string
    assert parse_line('{"text": "%s"}' % name)["text"] == '[{"' * 200


def test_a_line_longer_than_the_bound_is_refused_after_reading_a_bounded_amount():
    endless = Endless()
    raises(RecordError, replay, endless, match="line 1: longer than %d bytes" % MAX_LINE)
    assert MAX_LINE < endless.given <= MAX_LINE + 512
    f = io.BytesIO()  # written in pieces: no second 64 KB copy on a small, fragmented heap
    f.write(HEADER.encode())
    piece = b"x" * 4096
    for _ in range(MAX_LINE // 4096):
        f.write(piece)
    f.write(b"x\n")
    f.seek(0)
    raises(RecordError, replay, f, match="line 2: longer than %d bytes" % MAX_LINE)
    raises(RecordError, replay, [HEADER, "x" * (MAX_LINE + 1)], match="line 2: longer than")


def test_a_line_of_exactly_the_bound_is_read_from_a_file():
    if sys.implementation.name != "cpython":
        return  # several 64 KB copies: a host's line; a board's fragmented heap cannot hold them
    note = '{"e": "note",%s"text": "x"}'  # JSON's blanks make it long, not its values
    f = io.BytesIO()
    f.write(HEADER.encode())
    f.write((note % (" " * (MAX_LINE - len(note % "")))).encode())
    f.write(b'\n{"e"')
    assert f.tell() == len(HEADER) + MAX_LINE + 5
    f.seek(0)
    session, warnings = replay(f)
    assert list(session.players) == ["Ann", "Ben"]
    assert warnings == ["line 3: incomplete last line ignored (a write cut by power loss)"]
