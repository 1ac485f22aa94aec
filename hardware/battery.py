"""Battery life of each build at play and at idle: the figures, where each comes from, and the
arithmetic, rendered into hardware/README.md by generate.py.

Measured here (bench/power.py writes hardware/power_measured.json): the share of lit pixels
and the LEDs' load over every frame of the eight scripted games in the simulator, and on the
emulated Pico the busy fraction of main.py's loop (emulated CPU cycles over emulated time),
the CPU time of a key press, and that the chip goes DORMANT once dark. Everything else is a
datasheet figure, a figure someone measured and published (cited), or an assumption, said
as such in FIGURES.

Model: every consumer's power at the battery, summed; hours = cell energy / power.
MCU: busy share x busy current + the rest x its sleep current (the Pico sleeps in
machine.lightsleep between frames, and DORMANT once dark where its board file says so; the
other builds stay awake). OLED: the SSD1306's segment current (contrast / 256 x 100 uA)
flows through each lit pixel for the 1/MUX of the frame its row is driven, so the panel
draws ISEG x columns x lit share at VCC, made by the controller's charge pump; plus the
controller itself. LEDs: each WS2812B draws its idle current even when dark, plus 20 mA a
channel at full value, times the board's brightness cap; where a rail switch cuts their
supply while they are all dark (the board file's "rail"), only the switch's leakage. The
5 V boost draws its own idle current from the cell on top of its losses.
"""
import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "firmware"))

from app import idle  # noqa: E402
from app.leds import LedView, BEAT_MS, BEAT_ON_MS, IDLE_DIM  # noqa: E402
from app.settings import DEFAULTS  # noqa: E402

MEASURED = os.path.join(HERE, "power_measured.json")

# name: (value, kind, source). Kinds: datasheet, published (someone's measurement), assumed.
FIGURES = {
    "cell_mah": (1200, "assumed", "a 3.7 V LiPo of 1200 mAh (Adafruit PID 258, the Feather build's cell); "
                 "hours scale with the capacity"),
    "cell_v": (3.7, "datasheet", "LiPo nominal voltage"),
    "boost_eff": (0.85, "assumed", "LiPo to 5 V boost (PowerBoost 1000C, MT3608) with the 1N5817 diode"),
    "pico_reg_eff": (0.9, "assumed", "the Pico's 3.3 V buck-boost (RT6150) feeding the OLED"),
    "pico_awake_ma": (21, "published", "a Pico at 5 V on VSYS, MicroPython 1.19, main.py in time.sleep: "
                      "about 21 mA (micropython/micropython issue 8770)"),
    "pico_busy_ma": (25, "assumed", "the awake figure plus a margin for a core running flat out"),
    "pico_lightsleep_ma": (0.99, "published", "a Pico at 5 V on VSYS in machine.lightsleep(5000), nothing on "
                           "USB: 990 uA (micropython/micropython pull request 8832)"),
    "pico_dormant_ma": (0.9, "published", "a Pico in machine.lightsleep() with no time (DORMANT: the crystal "
                        "stopped), measured from the USB port: about 0.9 mA (micropython/micropython commit "
                        "b004e7e, which gave rp2 its lightsleep; the same measurement found 1.5 mA in "
                        "lightsleep(5000))"),
    "boost_idle_ma": (0.1, "assumed", "the boost's own draw from the cell at next to no load (its switching in "
                      "bursts, its feedback divider): no module lists it; a module with a power LED draws more "
                      "than the whole device at rest"),
    "rail_off_ma": (0.001, "datasheet", "the LED rail switch off: the AO3401A's drain leakage, 1 uA at most "
                    "(zero gate voltage drain current)"),
    "esp32s3_awake_ma": (31.7, "published", "ESP32-S3-DevKitM-1 awake (FreeRTOS delay), 3.3 V: 31.7 mA "
                         "(lucidar.me, power consumption of ESP32-S3-DevKitM-1); the loop never sleeps "
                         "deeper on this build, so it is taken for busy and idle alike"),
    "rp2040_awake_ma_3v3": (21 * 5 * 0.9 / 3.3, "assumed", "the Pico's awake figure moved to 3.3 V through "
                            "a 90 % regulator: the Feather's RP2040 in CircuitPython's time.sleep"),
    "rp2040_busy_ma_3v3": (25 * 5 * 0.9 / 3.3, "assumed", "the Pico's busy figure moved to 3.3 V the same "
                           "way: the Feather's RP2040 running"),
    "iseg_ua": (100, "datasheet", "SSD1306 segment current at contrast 255: ISEG = contrast / 256 x IREF x 8, "
                "IREF 12.5 uA (SSD1306 datasheet, Solomon Systech: SEG/COM driving block)"),
    "oled_vcc": (7.5, "datasheet", "VCC from the SSD1306's charge pump (command 8Dh, 14h)"),
    "pump_eff": (0.7, "assumed", "the SSD1306 charge pump's efficiency"),
    "oled_on_ma": (0.6, "assumed", "the SSD1306 controller and pump with the panel on, no pixel lit"),
    "oled_off_ma": (0.01, "assumed", "the SSD1306 in its sleep mode (display off, command AEh)"),
    "ws2812_idle_ma": (0.8, "published", "a dark WS2812B: about 0.8 mA (rad1o/hardware issue 116; about 1 mA "
                       "in idlehandsdev/esp_ornaments issue 2); no datasheet figure found"),
    "ws2812_channel_ma": (20, "datasheet", "a WS2812B channel at full value (60 mA a white LED, the budget "
                          "above)"),
    "game_hours": (1, "assumed", "a game lasts an hour: its key presses (the scripted games' mean) spread "
                   "over it"),
}

SCENES = ("play", "dimmed", "dark")


def fig(name):
    return FIGURES[name][0]


def load_measured(path=MEASURED):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def beat_load(board):
    """The "I am on" blink's share of all LEDs at full white after the board's brightness
    cap, averaged over its period."""
    view = LedView(types.SimpleNamespace(n=board["leds"]["count"]))
    view.configure(DEFAULTS["brightness"], view.n, "strip")
    r, g, b = view.beat
    cap = board["leds"].get("brightness_max", 1.0)
    return (r + g + b) * cap / (3 * 255 * view.n) * BEAT_ON_MS / BEAT_MS


def oled_ma(board, share, contrast, on=True):
    """SSD1306 supply current at 3.3 V: the panel (lit share at contrast) and the controller."""
    if not on:
        return fig("oled_off_ma")
    iseg_ma = fig("iseg_ua") / 1000 * contrast / 255
    panel_ma = iseg_ma * board["display"]["width"] * share  # at VCC; each row driven 1/MUX of the time
    return fig("oled_on_ma") + panel_ma * fig("oled_vcc") / 3.3 / fig("pump_eff")


def led_ma(board, load):
    """LED supply current at its rail: idle current of every LED plus the lit channels (load
    None: the rail switched off)."""
    if load is None:
        return fig("rail_off_ma")
    leds = board["leds"]
    return leds["count"] * (fig("ws2812_idle_ma") + 3 * fig("ws2812_channel_ma") * load)


def press_cpu_ms(m):
    """The median CPU time of a key press on the emulated Pico."""
    ms = sorted(p["cpu_ms"] for p in m["pico"]["press_when_lit"])
    return ms[len(ms) // 2]


def scene(name, board, m, before=False):
    """(display: share, contrast, on), LED load (None: the rail off), busy share (None:
    DORMANT) for a scene on a build."""
    s = m["screens"][name]
    pico = m["pico_before" if before else "pico"]
    playing = m["screens"]["pico"]["presses_per_game"] * press_cpu_ms(m) / (fig("game_hours") * 3.6e6)
    if name == "feather_rp2040":  # its own loop, measured on the emulated Feather (bench/feather.py)
        f = m["feather"]
        busy = f["busy_idle"]
        playing = m["screens"][name]["presses_per_game"] * f["press_median_ms"] / (fig("game_hours") * 3.6e6)
        pico = {"busy_lit": busy, "busy_dimmed": busy, "busy_dark": busy}
    lit = (s["lit_mean"], idle.FULL_CONTRAST, True)
    if before:  # nothing dimmed or darkened: the scoreboard stays lit, the loop awake every 10 ms
        waiting = ((s["lit_scoreboard"], idle.FULL_CONTRAST, True), s["led_load_mean"], pico["busy_lit"])
        return {"play": (lit, s["led_load_mean"], pico["busy_lit"] + playing), "dimmed": waiting, "dark": waiting}
    dark = ((0, 0, False), beat_load(board), pico.get("busy_dark"))
    if board["leds"].get("rail") is not None:  # no "I am on" blink: every LED off, the rail too
        dark = ((0, 0, False), None, None if board.get("deep_sleep") == "dormant" else pico.get("busy_dark"))
    return {"play": (lit, s["led_load_mean"], pico["busy_lit"] + playing),
            "dimmed": ((s["lit_scoreboard"], idle.DIM_CONTRAST, True), s["led_load_mean"] / IDLE_DIM,
                       pico["busy_dimmed"]),
            "dark": dark}


def battery_mw(name, board, display, load, busy, before=False):
    """Power drawn from the cell, in mW."""
    oled = oled_ma(board, *display)
    leds = led_ma(board, load)
    boost = fig("boost_idle_ma") * fig("cell_v")
    if name == "pico":
        sleep = fig("pico_awake_ma") if before else fig("pico_lightsleep_ma")
        mcu = fig("pico_dormant_ma") if busy is None else busy * fig("pico_busy_ma") + (1 - busy) * sleep
        return (5 * (mcu + leds) + 3.3 * oled / fig("pico_reg_eff")) / fig("boost_eff") + boost
    if name == "esp32s3":  # 5 V pin, the board's linear regulator: the 3.3 V current flows at 5 V
        return 5 * (fig("esp32s3_awake_ma") + oled + leds) / fig("boost_eff") + boost
    if name == "feather_rp2040":  # the cell feeds the Feather's linear 3.3 V regulator; its NeoPixel runs at 3.3 V
        mcu = busy * fig("rp2040_busy_ma_3v3") + (1 - busy) * fig("rp2040_awake_ma_3v3")
        return fig("cell_v") * (mcu + oled + leds)
    raise ValueError("hardware/battery.py has no power model for board %r" % name)


def hours(mw):
    return fig("cell_mah") * fig("cell_v") / mw


def table(m, boards):
    """Rows (build, scene, mA from the cell, hours) for every build and scene, and the Pico's
    figures before idle dimming and sleeping (the loop awake every 10 ms)."""
    rows = []
    for name in boards:
        for before in ((False, True) if name == "pico" and "pico_before" in m else (False,)):
            scenes = scene(name, boards[name], m, before)
            for s in SCENES:
                display, load, busy = scenes[s]
                mw = battery_mw(name, boards[name], display, load, busy, before)
                label = name + (", firmware %s" % m["pico_before"]["firmware"] if before else "")
                rows.append((label, s, mw / fig("cell_v"), hours(mw)))
    return rows


def markdown(m, boards):
    out = ["| build | at play | dimmed | dark |", "| --- | ---: | ---: | ---: |"]
    rows = table(m, boards)
    for i in range(0, len(rows), 3):
        cells = [cell(ma, h) for _, _, ma, h in rows[i:i + 3]]
        out.append("| %s | %s |" % (rows[i][0], " | ".join(cells)))
    out += ["", "| figure | value | kind | source |", "| --- | ---: | --- | --- |"]
    for name, (value, kind, source) in FIGURES.items():
        out.append("| %s | %s | %s | %s |" % (name, "%.4g" % value, kind, source))
    pico, before = m["pico"], m.get("pico_before")
    s = m["screens"]
    if "dormant_after_dark_ms" in pico:
        dark = ("the chip DORMANT %d ms after the display and the LEDs went dark; a press on the dark "
                "device shows the game again after %.0f ms (the press held 100 ms, its release resets the "
                "chip, the boot resumes the game from flash)"
                % (pico["dormant_after_dark_ms"], pico["wake_from_dark"]["frame_done_ms"]))
    else:
        dark = ("dark %s; a press wakes a dark display in %s ms (to its first byte)"
                % (pct(pico["busy_dark"]), pico["wake_from_dark"]["first_byte_ms"]))
    out += ["", "Measured (`bench/power.py`): lit share of the display over every frame of the eight "
            "scripted games %s (Pico and ESP32-S3, 128x64) and %s (Feather, 128x32), %s on the scoreboard "
            "(what a dimmed display shows); LED load %s (Pico) / %s (ESP32-S3) / %s (Feather) of full white "
            "after the cap; %d presses a game. On the emulated Pico: busy fraction of main.py's loop with "
            "the display lit %s, dimmed %s; %s; CPU time of a key press %s ms."
            % (pct(s["pico"]["lit_mean"]), pct(s["feather_rp2040"]["lit_mean"]), pct(s["pico"]["lit_scoreboard"]),
               pct(s["pico"]["led_load_mean"]), pct(s["esp32s3"]["led_load_mean"]),
               pct(s["feather_rp2040"]["led_load_mean"]), s["pico"]["presses_per_game"], pct(pico["busy_lit"]),
               pct(pico["busy_dimmed"]), dark, press_cpu_ms(m))]
    f = m.get("feather")
    if f:
        out[-1] += (" On the emulated Feather (`bench/feather.py`, CircuitPython 10.2.1): busy fraction of "
                    "main.py's loop with nobody pressing %s (it wakes every 40 ms to poll: CircuitPython's "
                    "time.sleep, the core in WFI between), a key press's median %s ms." % (
                        pct(f["busy_idle"]), f["press_median_ms"]))
    if before:
        out += ["", "The row \"pico, firmware %s\" is the firmware from before the display dimmed and "
                   "the loop slept: the display stays lit and the loop wakes every 10 ms, busy %s of the "
                   "time, dimmed or not." % (before["firmware"], pct(before["busy_lit"]))]
    return "\n".join(out)


def cell(ma, h):
    """"1.5 mA, **777 h** (32 days)": a decimal under 10 mA, days from two of them."""
    text = ("%.1f mA" if ma < 10 else "%.0f mA") % ma + ", **%.0f h**" % h
    return text + " (%.0f days)" % (h / 24) if h >= 48 else text


def pct(x):
    return "%.2g %%" % (100 * x)
