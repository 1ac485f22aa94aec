"""The catalogue (host_tools/lang) and the device's language tables (firmware/app/lang_*.py).

- Each language translates exactly the device's texts (host_tools/lang/keys.py reads them
  from the code), with the same placeholders, and the page's and the reports' own texts.
- The committed tables hold exactly the catalogue's translations and a glyph for each of
  their characters; with Debian's font package present, they are byte for byte what
  `./dev.sh words` makes (else that check skips, saying so).
- A table read a piece at a time from its file (what `flash` puts on a board) answers as
  the module does.
"""
import os
import re
import subprocess
import sys

import pytest

from host_tools import ROOT
from host_tools import lang as catalogue
from host_tools.lang import make
from host_tools.lang.keys import device_keys
from app import langdata
from app.langdata import Table

OTHER = catalogue.CODES[1:]


def table(code):
    from app.lang import module_name
    return Table(__import__("app." + module_name(code), None, None, ["DATA"]).DATA)


@pytest.mark.parametrize("code", OTHER)
def test_each_language_translates_every_text_of_the_device_with_its_placeholders(code):
    assert len(device_keys()) > 250
    assert make.check_catalogue(code, catalogue.words(code)) == []


@pytest.mark.parametrize("code", OTHER)
def test_the_committed_table_holds_the_catalogue_and_a_glyph_for_each_character(code):
    t = table(code)
    words = catalogue.words(code)
    assert t.n == len(words)
    for english, text in words.items():
        assert t.get(english) == text, english
    assert t.get("not a text of the device") is None
    codes = make.glyph_codes(words)
    assert t.g == len(codes)
    for c in codes:
        assert t.glyph(c) == codes.index(c)
    assert t.glyph(ord("한")) == t.g - 1  # the replacement glyph: last


def test_the_tables_are_what_the_catalogue_and_the_font_make():
    if not os.path.exists(os.path.join(make.FONT_DIR, make.FONTS[0][1])):
        pytest.skip("no %s (Debian's %s): the tables cannot be made here" % (make.FONTS[0][1], make.FONT_PACKAGE))
    r = subprocess.run([sys.executable, "-m", "host_tools.lang.make", "--check"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("code", OTHER)
def test_a_table_read_from_its_file_answers_as_its_module(tmp_path, code):
    from host_tools.flash import table_bytes
    from app.lang import module_name
    path = tmp_path / (module_name(code) + ".bin")
    path.write_bytes(table_bytes(os.path.join(ROOT, "firmware", "app", module_name(code) + ".py")))
    with open(str(path), "rb") as f:
        read = Table.read(f)
        whole = table(code)
        assert len(read.m) < len(whole.m) // 4  # only the index is held
        for english in list(catalogue.words(code))[::7]:
            assert read.get(english) == whole.get(english)
        from hal.framebuf_py import FrameBuffer, MONO_VLSB
        for size in (64, 32):
            shown = []
            for t in (read, whole):
                buf = bytearray(128 * 8)
                d = FrameBuffer(buf, 128, 64, MONO_VLSB)
                t.font(size).text(d, whole.get("New game") + " Ann 12", 0, 0)
                t.font(size).text(d, whole.get("New game"), 0, 20, 0)
                shown.append(bytes(buf))
            assert shown[0] == shown[1] and any(shown[0])


def test_the_web_page_and_the_reports_texts_are_in_each_language():
    """Every text the page's HTML marks (data-text, data-label) and its script translates
    (tr(), format()) has a translation in each language."""
    with open(os.path.join(ROOT, "web", "index.html"), encoding="utf-8") as f:
        html = f.read()
    with open(os.path.join(ROOT, "web", "azul.js"), encoding="utf-8") as f:
        js = f.read()
    texts = set(re.findall(r'data-(?:text|label)="([^"]+)"', html))
    texts |= set(re.findall(r'\b(?:tr|format)\("((?:[^"\\]|\\.)+)"', js))
    texts |= set(re.findall(r'\? "(history downloaded[^"]+)" : "(history downloaded[^"]+)"', js)[0])
    assert len(texts) > 15
    for code in OTHER:
        page = catalogue.page(code)
        missing = sorted(t for t in texts if t not in page)
        assert not missing, "%s: no translation of %r" % (code, missing)


def test_replay_and_the_html_report_speak_the_language_csv_stays_english(tmp_path):
    golden = os.path.join(ROOT, "tests", "golden", "azul_grey_4p.jsonl")

    def run(*args):
        r = subprocess.run([sys.executable, "-m", "host_tools"] + list(args), cwd=ROOT, capture_output=True,
                           text=True, encoding="utf-8")
        assert r.returncode == 0, r.stderr
        return r.stdout
    assert run("replay", golden).splitlines()[0] == "azul (grey) - final after round 6"
    assert run("replay", golden, "--lang", "zh-Hant").splitlines()[0] == "花磚密語 (灰色牆面) - 結束於第6輪"
    assert run("replay", golden, "--lang", "ja").splitlines()[0] == "アズール (灰色の面) - ラウンド6で終了"
    report = run("export", golden, "--to", "html", "--lang", "zh-Hant")
    for words in ('<html lang="zh-Hant">', "花磚密語 (灰色牆面)", "<td>第1輪</td>", "<td>橫排獎勵</td>", "<b>分數</b>"):
        assert words in report
    assert run("export", golden, "--to", "csv", "--lang", "ja") == run("export", golden, "--to", "csv")
