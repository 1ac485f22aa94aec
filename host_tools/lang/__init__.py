"""The catalogue: every text of the device, the web page and the reports, in English (the
source: the texts as the code writes them), Traditional Chinese and Japanese.

Each language other than English is a module here (zh_hant.py, ja.py) with WORDS, the
device's screens' texts {English: translation} (host_tools/lang/keys.py lists the keys;
make.py turns them into the device's table, firmware/app/lang_<code>.py), and PAGE, the web
page's and the reports' own texts. English has no module: its texts are the keys.
"""
import importlib

CODES = ("en", "zh-Hant", "ja")  # as firmware/app/lang.py's LANGUAGES
NAMES = {"en": "English", "zh-Hant": "繁體中文", "ja": "日本語"}  # each in its own words


def module(code):
    """The catalogue module of a language other than English."""
    if code not in CODES or code == "en":
        raise ValueError("no catalogue for %r (one of %s)" % (code, ", ".join(CODES[1:])))
    return importlib.import_module("host_tools.lang." + code.lower().replace("-", "_"))


def words(code):
    """{English: translation} of the device's texts ({} in English)."""
    return {} if code == "en" else module(code).WORDS


def page(code):
    """{English: translation} of the web page's and the reports' texts ({} in English)."""
    return {} if code == "en" else module(code).PAGE


class Translator:
    """tr() for host tools: a language's text for an English one, as the device's app.lang
    does (a context first: "5211|blu"), English where the catalogue has none."""

    def __init__(self, code="en"):
        self.code = code
        self.table = dict(words(code))
        self.table.update(page(code))

    def __call__(self, text, context=None):
        if context is not None and context + "|" + text in self.table:
            return self.table[context + "|" + text]
        return self.table.get(text, text)


def status(session, tr):
    """Where a game stands (rules_core.outcome's status()) in tr's language."""
    r = session.rules
    name = tr("round %d/%d") % (r.round, r.rounds_total) if r.rounds_total else tr("round %d") % r.round
    if r.finished:
        return tr("final after %s") % name
    if r.closed:
        return tr("after %s, final scoring to enter") % name
    return tr("in progress, %s") % name


def breakdown_label(key, game, tr):
    """A breakdown key in tr's language, as the device's final standings name it."""
    from host_tools.lang.keys import breakdown_words
    return tr(breakdown_words(key), game)
