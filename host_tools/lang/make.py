"""Makes the device's language tables, firmware/app/lang_<code>.py, from the catalogue.

    ./dev.sh words             (the same: .venv/bin/python -m host_tools.lang.make)
    ./dev.sh words --check     exit 1 naming what differs when a table is not what the
                               catalogue and the font make (tests/test_lang.py runs it)

Each table holds a language's translations and a bitmap font subset to exactly the glyphs
they use (app.lang describes the layout). The glyphs come from /efont/'s Unicode bitmap
fonts (Debian: xfonts-efont-unicode; BSD-3-Clause, firmware/app/FONT-LICENSE): b12 (12x12
CJK cells, ASCII 6x12) for 128x64 displays and b10 (10x10) for 128x32 ones. The tables are
committed: the device, the simulator, the web page and the tests need no font package, and
a catalogue change shows up as a table to make again (tests/test_lang.py fails until it is).
"""
import argparse
import os
import struct
import sys

from host_tools import ROOT
from host_tools.lang import CODES, words
from host_tools.lang.pcf import Font

FONT_DIR = os.environ.get("AZUL_FONT_DIR", "/usr/share/fonts/X11/misc")
FONTS = ((12, "b12.pcf.gz"), (10, "b10.pcf.gz"))  # (cell size, file), in the table's order
FONT_PACKAGE = "xfonts-efont-unicode"
REPLACEMENT = 0xFFFD
APP = os.path.join(ROOT, "firmware", "app")
COMMAND = "./dev.sh words"


class MakeError(Exception):
    pass


def _hash(text):
    from app.langdata import key_hash
    return key_hash(text)


def table_path(code):
    from app.lang import module_name
    return os.path.join(APP, module_name(code) + ".py")


def check_catalogue(code, table):
    """Problems of a language's WORDS against the device's keys: missing, unknown, placeholders."""
    from host_tools.lang.keys import device_keys
    keys = device_keys()
    problems = ["%s: no translation of %r (%s)" % (code, k, keys[k]) for k in sorted(keys) if k not in table]
    problems += ["%s: %r is no text of the device" % (code, k) for k in sorted(table) if k not in keys]
    for k, v in sorted(table.items()):
        if placeholders(k) != placeholders(v):
            problems.append("%s: %r has the placeholders %s, its translation %r %s"
                            % (code, k, placeholders(k), v, placeholders(v)))
    return problems


def placeholders(text):
    """The % conversions of a format string, in order ("%d", "%s"...)."""
    out = []
    i = 0
    while True:
        i = text.find("%", i)
        if i < 0 or i + 1 >= len(text):
            return out
        out.append(text[i:i + 2])
        i += 2


def glyph_codes(table):
    """The code points a table's font must hold: every non-ASCII character of its texts,
    and the replacement glyph (last)."""
    codes = set()
    for text in table.values():
        for ch in text:
            if ord(ch) > 0x7E:
                codes.add(ord(ch))
    if any(c > 0xFFFF for c in codes):
        raise MakeError("a character beyond the BMP: %r" % [chr(c) for c in codes if c > 0xFFFF])
    return sorted(codes) + [REPLACEMENT]


def _fonts():
    out = []
    for size, name in FONTS:
        path = os.path.join(FONT_DIR, name)
        if not os.path.exists(path):
            raise MakeError("%s missing: install Debian's %s (apt-get install %s)" % (path, FONT_PACKAGE, FONT_PACKAGE))
        out.append((size, Font(path)))
    return out


def _replacement(size):
    """A hollow box, the usual mark of a character the font does not hold."""
    full = (1 << size) - 1
    rows = [0] * size
    for y in range(1, size - 1):
        rows[y] = (1 << (size - 2)) | 2 if y not in (1, size - 2) else (full & ~1 & ~(1 << (size - 1)))
    return rows


def _glyph_bytes(rows, size):
    """MONO_HLSB, 2 bytes a row (the cell's left pixel the first byte's top bit)."""
    out = bytearray()
    for bits in rows:
        v = bits << (16 - size)
        out += bytes((v >> 8 & 0xFF, v & 0xFF))
    return bytes(out)


def build(code, fonts=None):
    """The table of language `code`, as bytes."""
    table = words(code)
    problems = check_catalogue(code, table)
    if problems:
        raise MakeError("\n".join(problems))
    items = sorted((_hash(k), k.encode("utf-8"), v.encode("utf-8")) for k, v in table.items())
    for a, b in zip(items, items[1:]):
        if a[0] == b[0]:
            raise MakeError("%s: %r and %r share the hash %06x: reword one" % (code, a[1], b[1], a[0]))
    codes = glyph_codes(table)
    fonts = fonts or _fonts()
    n, g = len(items), len(codes)
    index = bytearray()
    for h, _, _ in items:
        index += struct.pack("<I", h)[:3]
    texts = bytearray()
    offsets = [0]
    for _, _, v in items:
        texts += v
        offsets.append(len(texts))
    if len(texts) > 0xFFFF:
        raise MakeError("%s: %d bytes of texts, more than a u16 offset reaches" % (code, len(texts)))
    for c in codes:
        index += struct.pack("<H", c)
    for o in offsets:
        index += struct.pack("<H", o)
    texts_at = 16 + len(index)
    glyphs_at = texts_at + len(texts)
    glyphs = bytearray()
    for size, font in fonts:
        for c in codes:
            if c == REPLACEMENT:
                rows = _replacement(size)
            elif not font.has(c):
                raise MakeError("%s: the %d-pixel font has no glyph for %r (U+%04X)" % (code, size, chr(c), c))
            else:
                rows = font.rows(c, size)
            glyphs += _glyph_bytes(rows, size)
    head = b"AZW1" + struct.pack("<HHII", n, g, texts_at, glyphs_at)
    return bytes(head + index + texts + glyphs)


def module_text(code, data):
    """The table as a Python module: one bytes constant (a frozen module keeps it in flash)."""
    lines = ['"""%s\'s table for app.lang (texts and glyphs): made by `%s` from host_tools/lang/%s.py;\n'
             'do not edit. Glyphs from /efont/ (BSD-3-Clause: app/FONT-LICENSE)."""\n'
             % (code, COMMAND, code.lower().replace("-", "_")),
             "DATA = (\n"]
    for i in range(0, len(data), 40):
        lines.append("    %r\n" % data[i:i + 40])
    lines.append(")\n")
    return "".join(lines)


def make(codes=None, check=False):
    """Write (or, with check, compare) each language's table; returns the problems found."""
    fonts = _fonts()
    problems = []
    for code in codes or CODES[1:]:
        text = module_text(code, build(code, fonts))
        path = table_path(code)
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    old = f.read()
            except OSError:
                old = None
            if old != text:
                problems.append("%s is not what the catalogue makes: run %s" % (os.path.relpath(path, ROOT), COMMAND))
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    return problems


def main(argv=None):
    from host_tools import use_board_layout
    use_board_layout()
    parser = argparse.ArgumentParser(description="Make the device's language tables from the catalogue.")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    try:
        problems = make(check=args.check)
    except MakeError as e:
        print("make: %s" % e, file=sys.stderr)
        return 1
    for p in problems:
        print(p, file=sys.stderr)
    if not problems and not args.check:
        print("tables written: %s" % ", ".join(os.path.relpath(table_path(c), ROOT) for c in CODES[1:]))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
