"""The screens' words in the chosen language, and the font that draws them.

English is the source: every text a screen shows is written in English in the screen's
code and passed through tr(); in English tr() returns it as it is, and nothing of this
module's tables is loaded. Another language is one generated table (app/lang_<code>.py,
made by host_tools/lang/make.py from the catalogue host_tools/lang/<code>.py): the
translations, found by a hash of their English text, and a bitmap font subset to exactly
the glyphs they use (12x12 for 64-pixel displays, 10x10 for 32-pixel ones) plus a
replacement glyph. The table stays out of the heap: a frozen module's bytes are read in
place (flash on the firmware image; the desktop and the web page read the module), else
the table is the file app/lang_<code>.bin (`flash` writes it in the module's place on a
board that loads .mpy files), read a piece at a time; only its index is held then.

Table layout (little-endian): b"AZW1", u16 n texts, u16 g glyphs, u32 where the texts
start, u32 where the glyphs start; n u24 key hashes (sorted); g u16 code points (sorted,
U+FFFD the last); n + 1 u16 text offsets; the texts (UTF-8); g 12x12 glyphs of 24 bytes,
then g 10x10 glyphs of 20 bytes (MONO_HLSB, 2 bytes a row). The hashes and the code points
are the index, what a table read from its file holds (1.6 KB).
"""
# (code, its name in English): the settings file's values and the Settings' Language menu,
# which names each through tr() (繁體中文 and 日本語 in those languages: their tables hold
# the glyphs; English has no font but its own 8x8 one)
LANGUAGES = (("en", "English"), ("zh-Hant", "Chinese (trad.)"), ("ja", "Japanese"))
_table = None  # the chosen language's Table; None: English
_code = "en"  # the language use() chose


def module_name(code):
    """The table's module: "zh-Hant" -> "lang_zh_hant"."""
    return "lang_" + code.lower().replace("-", "_")


def use(code):
    """Speak `code` (one of LANGUAGES) from now on: its table opened, or none for English
    (or a language whose table is missing: English then)."""
    global _table, _code
    if code == _code:
        return
    if _table is not None:
        _table.close()
    _table = None
    _code = code
    if code != "en":
        from app.langdata import Table  # (English loads none of it)
        _table = Table.open(module_name(code)[len("lang_"):])


def chosen():
    """The Table in use, None in English (the Canvas draws with its font)."""
    return _table


def tr(text, context=None):
    """text (English, a format string or a word) in the chosen language; the catalogue's
    entry for context + "|" + text first where a context is given (a game's own colour
    words: "5211|blu"), then text's own; text itself where the catalogue has neither."""
    t = _table
    if t is None:
        return text
    if context is not None:
        found = t.get(context + "|" + text)
        if found is not None:
            return found
    found = t.get(text)
    return text if found is None else found
