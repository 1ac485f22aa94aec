"""Generate the hardware docs from the board files, so pins are written down in one place only.

    .venv/bin/python hardware/generate.py  # rewrite hardware/wiring, images and README budget
    .venv/bin/python hardware/generate.py --out DIR  # write the same files under DIR instead (tests)

Outputs: wiring/<board>.md for every board in firmware/boards, images/schematic_pico.svg,
images/wiring_pico.png (Pillow), and inside README.md the current-budget table and the
battery-life table (hardware/battery.py, from the figures bench/power.py measured).
The enclosure previews come from render_enclosure.sh (needs OpenSCAD).
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "firmware"))
sys.path.insert(0, HERE)  # battery.py

from boards import BOARDS, load  # noqa: E402

# Supply current of everything but the LEDs, in mA: typical figures rounded up, Wi-Fi off.
MCU_MA = {"pico": 25, "pico_spi": 25, "esp32s3": 60, "feather_rp2040": 25}
OLED_MA = {64: 20, 32: 10}  # SSD1306 with every pixel lit, by panel height
USB_LIMIT_MA = 500          # a USB 2.0 port

# Physical header pin of each Pico GPIO (pin 1 is next to the USB socket, left column).
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
PICO_POWER_PIN = {"3V3": 36, "VBUS": 40, "GND_LED": 38, "GND_BUTTONS": 13, "GND_OLED": 8}
# Feather RP2040 `board` names and their RP2040 GPIO (CircuitPython pins.c of the board).
FEATHER_RP2040_GPIO = {"SDA": 2, "SCL": 3, "D4": 6, "D5": 7, "D6": 8, "D9": 9, "D10": 10,
                       "D11": 11, "D12": 12, "D13": 13, "NEOPIXEL": 16}
FEATHERWING_BUTTON = {"D9": "A", "D6": "B", "D5": "C"}

RAIL_SWITCH = ("the LED rail switch: VBUS to the AO3401A's source, its drain to LED +5V; 10 kohm from "
               "its gate to its source; the 2N7000's drain to that gate, its source to GND")
PICO_POWER = [("3V3(OUT), pin %d" % PICO_POWER_PIN["3V3"], "OLED VCC"),
              ("VBUS, pin %d (USB 5 V)" % PICO_POWER_PIN["VBUS"],
               "the rail switch's input (AO3401A source, 10 kohm), and the + leg of the 1000 uF capacitor"),
              ("GND, pin %d" % PICO_POWER_PIN["GND_LED"], "LED GND, capacitor - leg, the 2N7000's source and its 100 kohm"),
              ("GND, pin %d" % PICO_POWER_PIN["GND_OLED"], "OLED GND"),
              ("GND, pin %d" % PICO_POWER_PIN["GND_BUTTONS"], "the GND rail: second leg of every button")]
POWER = {  # (header pin, what connects to it)
    "pico": PICO_POWER,
    "pico_spi": PICO_POWER,
    "esp32s3": [("3V3", "OLED VCC (and encoder + on a KY-040 board)"),
                ("5V (USB 5 V)", "LED stick +5V, and the + leg of the 1000 uF capacitor"),
                ("GND", "OLED GND, LED GND, capacitor - leg, second leg of every button, encoder C/GND")],
    "feather_rp2040": [("all", "the OLED FeatherWing stacks on the Feather headers: no wires"),
                       ("USB (5 V) and GND", "only for the optional external 8-LED stick: +5V and GND")],
}


def pin_label(name, pin):
    """How the pin is printed on the board or its pinout card."""
    if name.startswith("pico"):
        return "GP%d (pin %d)" % (pin, PICO_PIN[pin])
    if name == "feather_rp2040":
        gpio = FEATHER_RP2040_GPIO.get(pin)
        return pin if gpio is None else "%s (GPIO%d)" % (pin, gpio)
    return "GPIO%d" % pin


STORES = {"fram": "Adafruit I2C FRAM breakout (MB85RC256V, 32 KB, PID 1895)"}
SPI_DISPLAY = (("sck", "SCK", "OLED D0 (SCK, CLK)"), ("mosi", "MOSI", "OLED D1 (MOSI, SDA, DIN)"),
               ("res", "RES", "OLED RES (RST)"), ("dc", "DC", "OLED DC (A0)"), ("cs", "CS", "OLED CS"))


def pin_rows(board):
    """(function, board-file pin, connect to) for every signal pin, in wiring order."""
    d = board["display"]
    if d.get("bus") == "spi":
        rows = [("Display " + name, d[key], to) for key, name, to in SPI_DISPLAY if key in d]
    else:
        rows = [("Display SDA", d["sda"], "OLED SDA"), ("Display SCL", d["scl"], "OLED SCL")]
    for key, pin in board["buttons"].items():
        rows.append(("Button " + key, pin, "button %s, its other leg to GND" % key))
    enc = board["encoder"]
    if enc:
        rows += [("Encoder A", enc["a"], "encoder A (KY-040: CLK)"),
                 ("Encoder B", enc["b"], "encoder B (KY-040: DT)"),
                 ("Encoder push", enc["push"], "encoder switch (KY-040: SW)")]
    rows.append(("LED data", board["leds"]["pin"], "LED DIN through a 330 ohm resistor"))
    if board["leds"].get("rail") is not None:
        rows.append(("LED rail", board["leds"]["rail"], "the 2N7000's gate, and 100 kohm from it to GND"))
    return rows


def connect_to(name, function, pin, default):
    """Board-specific wording of where a signal goes (stacked wings need no wire)."""
    if name != "feather_rp2040":
        return default
    if function.startswith("Display"):
        return "OLED FeatherWing (stacked, no wire)"
    if function.startswith("Button"):
        return "FeatherWing button %s (stacked, no wire)" % FEATHERWING_BUTTON.get(pin, "?")
    if function == "LED data" and pin == "NEOPIXEL":
        return "the Feather's own NeoPixel (no wire)"
    return default


def current_budget(name, board):
    """Worst-case supply current: ([(item, mA)], total mA), every LED white at the brightness cap."""
    leds = board["leds"]
    led_ma = leds["count"] * leds["ma_per_led_full"] * leds["brightness_max"]
    height = board["display"]["height"]
    items = [("LEDs: %d x %d mA (full white) x %g brightness cap" % (leds["count"], leds["ma_per_led_full"],
                                                                      leds["brightness_max"]), led_ma),
             ("board and MCU (radio off where there is one)", MCU_MA[name]),
             ("OLED 128x%d, every pixel lit" % height, OLED_MA[height])]
    return items, sum(ma for _, ma in items)


def budget_markdown(name, board):
    items, total = current_budget(name, board)
    lines = ["| consumer | mA |", "| --- | ---: |"]
    lines += ["| %s | %g |" % (item, ma) for item, ma in items]
    lines.append("| **total, worst case** | **%g** |" % total)
    lines.append("")
    lines.append("Headroom on a %d mA USB port: %g mA." % (USB_LIMIT_MA, USB_LIMIT_MA - total))
    return "\n".join(lines)


def display_note(board):
    d = board["display"]
    if d.get("bus") == "spi":
        from hal.display import SPI_BAUDRATE
        return ("- Display: %s %dx%d on SPI%d at %g MHz (an SH1106, `\"driver\": \"sh1106\"`: %g MHz), "
                "7-pin module; its VCC to 3V3, GND to GND." % (d["driver"].upper(), d["width"], d["height"], d["spi_id"],
                                                             d.get("baudrate", SPI_BAUDRATE[d["driver"]]) / 1e6,
                                                             SPI_BAUDRATE["sh1106"] / 1e6))
    where = "address 0x%02X" % d["addr"] if "addr" in d else "the address it answers at (0x3C or 0x3D, scanned)"
    other = "" if "addr" in d else "; a 1.3-inch SH1106 module: `\"driver\": \"sh1106\"`"
    return "- Display: %s %dx%d on I2C, %s, at %d kHz%s." % (d["driver"].upper(), d["width"], d["height"], where,
                                                            d["freq"] // 1000, other)


def wiring_markdown(name, board):
    leds = board["leds"]
    out = ["# Wiring: %s" % board["name"], "",
           "Generated by `hardware/generate.py` from `firmware/boards/%s.py` (runtime: %s); "
           "edit the board file and re-run, not this page." % (name, board["runtime"]), "",
           "## Signals", "",
           "| function | board file | header pin | connect to |", "| --- | --- | --- | --- |"]
    for function, pin, default in pin_rows(board):
        out.append("| %s | `%s` | %s | %s |" % (function, pin, pin_label(name, pin),
                                                connect_to(name, function, pin, default)))
    out += ["", "## Power", "", "| header pin | connect to |", "| --- | --- |"]
    out += ["| %s | %s |" % row for row in POWER[name]]
    if board.get("store"):
        # (the FRAM shares the display's I2C bus: its SDA and SCL are the Display rows' pins)
        out.append("| STEMMA QT socket (3V3, GND, %s, %s) | the FRAM breakout's STEMMA QT socket: one cable (PID 4210) |"
                   % (board["store"]["sda"], board["store"]["scl"]))
    out += ["", "## Notes", "", display_note(board)]
    if board.get("store"):
        out.append("- Games: on an %s at address 0x%02X on the same I2C bus (`hal/fram_fs.py`); without it the "
                   "app keeps them on the board's flash and says so at power-on." % (STORES[board["store"]["driver"]],
                                                                                    board["store"]["addr"]))
    out.append("- Buttons short their pin to GND when pressed; the firmware turns on the internal pull-%s."
               % board["button_pull"])
    if board.get("three_button"):
        out.append("- Three buttons only: the app maps long presses (long OK = BACK).")
    if name == "feather_rp2040":
        out.append("- Only button B has a pull-up on the wing (100K, for the ESP8266 Feather); "
                   "A and C rely on the internal pull-up.")
    if board["encoder"] is None:
        out.append("- No rotary encoder in this board file. To fit one, add "
                   "`\"encoder\": {\"a\": ..., \"b\": ..., \"push\": ...}` with three free pins and re-run.")
    else:
        out.append("- Encoder: common pin (EC11: C) to GND; on a KY-040 board connect + to 3V3, never 5 V.")
    out.append("- LEDs: %d x NeoPixel (%s order, layout `%s`), brightness capped at %g in firmware."
               % (leds["count"], leds["order"], leds["layout"], leds["brightness_max"]))
    if leds["pin"] != "NEOPIXEL":
        out.append("- 5 V LEDs from a 3.3 V pin: see the power notes in `hardware/README.md` "
                   "(330 ohm in series with DIN, 1000 uF across +5V/GND, level shifter if the first LED flickers).")
    if leds.get("rail") is not None:
        out.append("- LED rail: %s, high = on; off whenever every LED is dark (a dark WS2812B still draws about "
                   "0.8 mA). Wiring: %s." % (pin_label(name, leds["rail"]), RAIL_SWITCH))
    if board.get("deep_sleep"):
        out.append("- Once the display and the LEDs are dark the chip sleeps until a button (%s); the game "
                   "resumes from flash." % board["deep_sleep"])
    out += ["", "## Current budget", "", budget_markdown(name, board), ""]
    return "\n".join(out)


# ---------------------------------------------------------------- schematic (SVG)

def schematic_svg(name, board):
    """Net-per-row schematic: the Pico on the left, one line per net to its part on the right."""
    rows = [("3V3", "3V3(OUT) (%d)" % PICO_POWER_PIN["3V3"])]
    signals = pin_rows(board)
    for function, pin, _ in signals:
        rows.append((function, pin_label(name, pin).replace("pin ", "")))
    rows += [("VBUS", "VBUS (%d)" % PICO_POWER_PIN["VBUS"]), ("GND", "GND (%d)" % PICO_POWER_PIN["GND_LED"])]
    step, top, bx, bw, lx = 44, 90, 40, 230, 560
    rail = board["leds"].get("rail") is not None
    height = top + step * len(rows) + (260 if rail else 60)
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="960" height="%d" viewBox="0 0 960 %d" '
         'font-family="monospace" font-size="13">' % (height, height),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="40" y="36" font-size="18" font-weight="bold">Azul Companion: %s</text>' % board["name"],
         '<text x="40" y="58">generated by hardware/generate.py from firmware/boards/%s.py</text>' % name,
         '<rect x="%d" y="%d" width="%d" height="%d" fill="#e8f5e9" stroke="black" stroke-width="2"/>'
         % (bx, top - 24, bw, step * len(rows) + 8),
         '<text x="%d" y="%d" font-weight="bold">Raspberry Pi Pico</text>' % (bx + 10, top - 6)]

    def ground(x, y):
        s.append('<path d="M%d %d v10 M%d %d h20 M%d %d h12 M%d %d h4" stroke="black" stroke-width="2" fill="none"/>'
                 % (x, y, x - 10, y + 10, x - 6, y + 14, x - 2, y + 18))

    ys = {}
    for i, (net, label) in enumerate(rows):
        y = top + 20 + i * step
        ys[net] = y
        s.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (bx + bw - 8, y + 4, label))
        s.append('<circle cx="%d" cy="%d" r="3"/>' % (bx + bw, y))
        s.append('<text x="%d" y="%d" fill="#555">%s</text>' % (bx + bw + 14, y - 6, net))
    # OLED module spans 3V3, SDA and SCL; its GND leaves on the right
    oy0, oy1 = ys["3V3"] - 16, ys["Display SCL"] + 16
    for net in ("3V3", "Display SDA", "Display SCL"):
        s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (bx + bw, ys[net], lx, ys[net]))
    s.append('<rect x="%d" y="%d" width="170" height="%d" fill="#e3f2fd" stroke="black" stroke-width="2"/>'
             % (lx, oy0, oy1 - oy0))
    for net, pin in (("3V3", "VCC"), ("Display SDA", "SDA"), ("Display SCL", "SCL")):
        s.append('<text x="%d" y="%d">%s</text>' % (lx + 8, ys[net] + 4, pin))
    s.append('<text x="%d" y="%d" font-weight="bold">SSD1306</text>' % (lx + 60, ys["3V3"] + 4))
    s.append('<text x="%d" y="%d">%dx%d I2C</text>' % (lx + 60, ys["Display SDA"] + 4,
                                                         board["display"]["width"], board["display"]["height"]))
    s.append('<text x="%d" y="%d" text-anchor="end">GND</text>' % (lx + 162, ys["Display SCL"] + 4))
    s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (lx + 170, ys["Display SCL"],
                                                                          lx + 200, ys["Display SCL"]))
    ground(lx + 200, ys["Display SCL"])
    # buttons and encoder pins: a normally-open switch to ground
    for function, _, _ in signals:
        if not (function.startswith("Button") or function.startswith("Encoder")):
            continue
        y = ys[function]
        s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (bx + bw, y, lx, y))
        s.append('<circle cx="%d" cy="%d" r="3" fill="white" stroke="black"/>' % (lx + 3, y))
        s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black" stroke-width="2"/>' % (lx + 6, y, lx + 34, y - 12))
        s.append('<circle cx="%d" cy="%d" r="3" fill="white" stroke="black"/>' % (lx + 37, y))
        s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (lx + 40, y, lx + 70, y))
        s.append('<text x="%d" y="%d">%s</text>' % (lx + 104, y + 4, function.split(" ", 1)[1]))
        ground(lx + 70, y)
    # LED data through the series resistor; VBUS to LED +5V (through the rail switch) with the bulk
    # capacitor to ground
    yd, yv, yg = ys["LED data"], ys["VBUS"], ys["GND"]
    s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (bx + bw, yd, lx, yd))
    s.append('<path d="M%d %d l5 -8 l10 16 l10 -16 l10 16 l10 -16 l5 8" stroke="black" stroke-width="2" fill="none"/>'
             % (lx, yd))
    s.append('<text x="%d" y="%d">330R</text>' % (lx + 12, yd - 14))
    s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (lx + 50, yd, lx + 170, yd))
    cap_x = lx + 30 if rail else lx + 90
    s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (bx + bw, yv, lx + (60 if rail else 170), yv))
    s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (cap_x, yv, cap_x, yv + 12))
    s.append('<path d="M%d %d h24 M%d %d h24" stroke="black" stroke-width="2"/>'
             % (cap_x - 12, yv + 12, cap_x - 12, yv + 18))
    s.append('<text x="%d" y="%d">1000uF</text>' % (cap_x - 70, yv + 22))
    s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (cap_x, yv + 18, cap_x, yv + 28))
    ground(cap_x, yv + 28)
    if rail:
        rail_switch(s, ground, lx, ys["LED rail"], yv, top + step * len(rows) + 50)
    leds = board["leds"]
    s.append('<rect x="%d" y="%d" width="190" height="%d" fill="#fff3e0" stroke="black" stroke-width="2"/>'
             % (lx + 170, yd - 20, yv - yd + 60))
    s.append('<text x="%d" y="%d">DIN</text>' % (lx + 178, yd + 4))
    s.append('<text x="%d" y="%d">+5V</text>' % (lx + 178, yv + 4))
    s.append('<text x="%d" y="%d">GND</text>' % (lx + 178, yv + 34))
    s.append('<text x="%d" y="%d" font-weight="bold">%d x WS2812B</text>' % (lx + 220, yd + 4, leds["count"]))
    s.append('<text x="%d" y="%d">%s</text>' % (lx + 220, yd + 22, leds["layout"]))
    s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (lx + 150, yv + 30, lx + 170, yv + 30))
    ground(lx + 150, yv + 30)
    s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (bx + bw, yg, bx + bw + 60, yg))
    ground(bx + bw + 60, yg)
    s.append('</svg>')
    return "\n".join(s) + "\n"


def rail_switch(s, ground, lx, yr, yv, iy):
    """The LED rail switch as a block between VBUS and the LEDs' +5V (EN from the rail pin's
    row yr), and its circuit drawn out below the rows, from y = iy: the P-MOSFET in the +5V
    line, its gate held at its source by 10k (off) and pulled low by the 2N7000 that the rail
    pin drives, itself held off by 100k while the pin floats (boot, reset)."""
    box = 'fill="#f3e5f5" stroke="black" stroke-width="2"'
    line = '<path d="%s" stroke="black" fill="none"/>'

    def small(x, y, text):
        s.append('<text x="%d" y="%d" font-size="11">%s</text>' % (x, y, text))

    def part(x, y, name, pins):
        """A 70 x 30 box at (x, y) with its name inside and its pins' letters around it."""
        s.append('<rect x="%d" y="%d" width="70" height="30" %s/>' % (x, y, box))
        small(x + 10, y + 19, name)
        for letter, dx, dy in pins:
            small(x + dx, y + dy, letter)

    s.append(line % ("M%d %d H%d" % (270, yr, lx + 60)))  # the rail pin's row, on to EN
    s.append('<rect x="%d" y="%d" width="80" height="%d" %s/>' % (lx + 60, yr - 16, yv - yr + 32, box))
    for x, y, text in ((4, yr + 4, "EN"), (4, yv + 4, "IN"), (54, yv + 4, "OUT"), (40, yr + 4, "rail"),
                       (32, yr + 17, "switch")):
        small(lx + 60 + x, y, text)
    s.append('<rect x="%d" y="%d" width="30" height="6" fill="white"/>' % (lx + 140, yv - 3))
    s.append(line % ("M%d %d H%d" % (lx + 140, yv, lx + 170)))
    s.append(line % ("M%d %d v6" % (lx + 100, yv + 16)))
    ground(lx + 100, yv + 22)
    # the circuit, below
    ix = 60
    zig = "v8 l6 3 l-12 6 l12 6 l-12 6 l6 3 v8"  # a resistor, 36 px down
    s.append('<text x="%d" y="%d" font-weight="bold">The rail switch, at the LEDs</text>' % (ix - 20, iy))
    for x, y, text in ((-20, 34, "IN (VBUS)"), (466, 34, "OUT (LED +5V)"), (466, 129, "EN (the rail pin)")):
        s.append('<text x="%d" y="%d">%s</text>' % (ix + x, iy + y, text))
    part(ix + 300, iy + 15, "AO3401A", (("S", -10, 11), ("D", 74, 11), ("G", 40, 43)))
    part(ix + 165, iy + 110, "2N7000", (("D", 41, -4), ("S", 41, 44), ("G", 75, 10)))
    s.append(line % ("M%d %d H%d M%d %d H%d" % (ix + 60, iy + 30, ix + 300, ix + 370, iy + 30, ix + 460)))
    s.append(line % ("M%d %d %s V%d H%d V%d" % (ix + 200, iy + 30, zig, iy + 90, ix + 335, iy + 45)))
    small(ix + 212, iy + 62, "10k")
    s.append('<circle cx="%d" cy="%d" r="3"/><circle cx="%d" cy="%d" r="3"/>' % (ix + 200, iy + 30, ix + 200, iy + 90))
    s.append(line % ("M%d %d V%d M%d %d v12" % (ix + 200, iy + 90, iy + 110, ix + 200, iy + 140)))
    ground(ix + 200, iy + 152)
    s.append(line % ("M%d %d H%d" % (ix + 235, iy + 125, ix + 460)))
    s.append('<circle cx="%d" cy="%d" r="3"/>' % (ix + 380, iy + 125))
    s.append(line % ("M%d %d %s" % (ix + 380, iy + 125, zig)))
    small(ix + 392, iy + 150, "100k")
    ground(ix + 380, iy + 161)


# ---------------------------------------------------------------- wiring picture (PNG)

WIRE = {"power": (220, 30, 30), "3v3": (245, 140, 0), "gnd": (20, 20, 20), "sda": (30, 90, 220),
        "scl": (225, 190, 0), "button": (40, 150, 60), "led": (150, 60, 200), "rail": (0, 150, 160)}


def wiring_png(name, board, path):
    """A picture to wire the Pico build by: every wire from its header pin to the part's pin."""
    from PIL import Image, ImageDraw, ImageFont
    W, H = 1500, 1020
    img = Image.new("RGB", (W, H), "white")
    g = ImageDraw.Draw(img)
    font, small, big = (ImageFont.load_default(size=s) for s in (15, 12, 24))
    g.text((30, 20), "Azul Companion: wiring the %s build" % board["name"], fill="black", font=big)
    g.text((30, 54), "generated by hardware/generate.py from firmware/boards/%s.py; "
           "the tables in hardware/wiring/%s.md list the same pins" % (name, name), fill=(90, 90, 90), font=font)
    # the Pico, top view, USB up; 10 px per mm, header pitch 2.54 mm
    px, py, pw, ph = 640, 200, 210, 510
    g.rectangle((px + 70, py - 22, px + 140, py + 8), fill=(190, 190, 190), outline="black")
    g.text((px + 78, py - 20), "USB", fill="black", font=small)
    g.rectangle((px, py, px + pw, py + ph), fill=(30, 110, 60), outline="black", width=2)
    g.text((px + 52, py + 240), "Raspberry\n  Pi Pico\n (top view)", fill="white", font=font)
    gp_of = {v: k for k, v in PICO_PIN.items()}
    names = {3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 33: "AGND", 30: "RUN",
             35: "VREF", 36: "3V3", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS"}

    def pin_xy(n):  # pins 1-20 down the left edge, 21-40 up the right edge
        if n <= 20:
            return px + 14, py + 14 + (n - 1) * 25.4
        return px + pw - 14, py + 14 + (40 - n) * 25.4

    for n in range(1, 41):
        x, y = pin_xy(n)
        label = names.get(n) or "GP%d" % gp_of[n]
        g.ellipse((x - 6, y - 6, x + 6, y + 6), fill=(230, 200, 90), outline="black")
        lx = x + 12 if n <= 20 else x - 12 - g.textlength(label, font=small)
        g.text((lx, y - 7), label, fill="white", font=small)
        num = str(n)
        nx = px - 10 - g.textlength(num, font=small) if n <= 20 else px + pw + 10
        g.text((nx, y - 20), num, fill=(110, 110, 110), font=small)

    wires = []  # (header pin, target (x, y), colour kind, crosses over the top of the board)

    def wire(n, target, kind, over=False):
        wires.append((n, target, kind, over))

    def pin_of(gp):
        return PICO_PIN[gp]

    # OLED module, upper left; header pins GND VCC SCL SDA on its right edge
    d = board["display"]
    ox, oy = 250, 150
    g.rectangle((ox, oy, ox + 190, oy + 190), fill=(20, 40, 110), outline="black", width=2)
    g.rectangle((ox + 15, oy + 40, ox + 150, oy + 120), fill="black")
    g.text((ox + 25, oy + 70), "SSD1306 %dx%d" % (d["width"], d["height"]), fill="white", font=small)
    oled_pin = {}
    for i, label in enumerate(("VCC", "SDA", "SCL", "GND")):
        y = oy + 30 + i * 40
        oled_pin[label] = (ox + 190, y)
        g.text((ox + 155, y - 8), label, fill="white", font=small)
    wire(pin_of(d["sda"]), oled_pin["SDA"], "sda")
    wire(pin_of(d["scl"]), oled_pin["SCL"], "scl")
    wire(PICO_POWER_PIN["GND_OLED"], oled_pin["GND"], "gnd")
    wire(PICO_POWER_PIN["3V3"], oled_pin["VCC"], "3v3", over=True)
    g.text((ox, oy + 196), "header order differs between modules:\nmatch the labels", fill="black", font=small)
    # buttons, lower left: signal leg right, ground leg left onto a ground rail
    rail_x = 120
    by = 420
    buttons = list(board["buttons"].items())
    for i, (key, gp) in enumerate(buttons):
        y = by + i * 78
        g.rectangle((rail_x + 120, y - 22, rail_x + 180, y + 22), fill=(60, 60, 60), outline="black")
        g.ellipse((rail_x + 135, y - 14, rail_x + 165, y + 14), fill=(200, 200, 200))
        g.text((rail_x + 50, y - 28), key, fill="black", font=font)
        g.line((rail_x, y, rail_x + 120, y), fill=WIRE["gnd"], width=4)
        wire(pin_of(gp), (rail_x + 180, y), "button")
    rail_top, rail_bottom = by - 34, by + (len(buttons) - 1) * 78
    g.line((rail_x, rail_top, rail_x, rail_bottom), fill=WIRE["gnd"], width=4)
    g.text((rail_x - 80, rail_top - 30), "GND rail", fill="black", font=font)
    wire(PICO_POWER_PIN["GND_BUTTONS"], (rail_x, rail_top), "gnd")
    # LEDs, right: resistor on DIN, capacitor across +5V/GND
    leds = board["leds"]
    mx, my = 1180, 430
    g.rectangle((mx, my, mx + 290, my + 260), fill=(40, 40, 40), outline="black", width=2)
    side = 5 if leds["layout"] == "matrix5x5" else leds["count"]
    for i in range(leds["count"]):
        cx = mx + 60 + (i % side) * 50
        cy = my + 30 + (i // side) * 50
        g.rectangle((cx - 12, cy - 12, cx + 12, cy + 12), fill=(240, 240, 240), outline="black")
        g.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=(255, 210, 120))
    g.text((mx, my + 268), "%d x WS2812B (%s)" % (leds["count"], leds["layout"]), fill="black", font=font)
    v5, lgnd, din = (mx, my + 60), (mx, my + 140), (mx, my + 220)
    for label, (x, y) in (("DIN", din), ("+5V", v5), ("GND", lgnd)):
        g.text((x + 8, y - 8), label, fill="white", font=small)
    rx = 1040  # 330 ohm resistor in the data line
    g.line((rx, din[1], din[0], din[1]), fill=WIRE["led"], width=4)
    g.rectangle((rx + 30, din[1] - 9, rx + 90, din[1] + 9), fill=(210, 180, 140), outline="black")
    g.text((rx + 36, din[1] - 30), "330 ohm", fill="black", font=small)
    wire(pin_of(leds["pin"]), (rx, din[1]), "led")
    rail = leds.get("rail") is not None
    cx = 1000 if rail else 1120  # 1000 uF capacitor between +5V and GND, at the LEDs (the switch's input)
    sx0, sx1 = 1040, 1140  # the rail switch, between VBUS and the LEDs' +5V
    g.line((cx - 30, v5[1], sx0 if rail else v5[0], v5[1]), fill=WIRE["power"], width=4)
    g.line((cx - 30, lgnd[1], lgnd[0], lgnd[1]), fill=WIRE["gnd"], width=4)
    g.rectangle((cx - 14, v5[1] + 18, cx + 14, lgnd[1] - 18), fill=(30, 60, 160), outline="black")
    g.line((cx, v5[1], cx, v5[1] + 18), fill=WIRE["power"], width=3)
    g.line((cx, lgnd[1] - 18, cx, lgnd[1]), fill=WIRE["gnd"], width=3)
    g.text((cx - 60, v5[1] + 24), "1000 uF\n+ up", fill="black", font=small)
    wire(PICO_POWER_PIN["VBUS"], (cx - 30, v5[1]), "power")
    wire(PICO_POWER_PIN["GND_LED"], (cx - 30, lgnd[1]), "gnd")
    if rail:
        g.line((sx1, v5[1], v5[0], v5[1]), fill=WIRE["power"], width=4)  # OUT: the LEDs' +5V
        g.line((sx1 - 20, v5[1] + 30, sx1 - 20, lgnd[1]), fill=WIRE["gnd"], width=3)
        g.rectangle((sx0, v5[1] - 30, sx1, v5[1] + 30), fill=(235, 220, 240), outline="black", width=2)
        g.text((sx0 + 6, v5[1] - 27), "rail switch", fill="black", font=small)
        g.text((sx0 + 6, v5[1] - 8), "IN", fill="black", font=small)
        g.text((sx1 - 28, v5[1] - 8), "OUT", fill="black", font=small)
        g.text((sx0 + 14, v5[1] + 12), "EN", fill="black", font=small)
        g.text((sx0, v5[1] - 66), "AO3401A + 2N7000:\nsee the schematic", fill="black", font=small)
        en = ((lgnd[1] + din[1]) // 2)  # the rail pin's wire comes in under the GND line, then up
        g.line((sx0 + 20, en, sx0 + 20, v5[1] + 30), fill="white", width=10)
        g.line((sx0 + 20, en, sx0 + 20, v5[1] + 30), fill=WIRE["rail"], width=4)
        wire(pin_of(leds["rail"]), (sx0 + 20, en), "rail")
    draw_wires(g, wires, pin_xy, px, px + pw, py - 40)
    # legend
    ly = H - 60
    x = 30
    for kind, text in (("power", "VBUS 5 V"), ("3v3", "3V3"), ("gnd", "GND"), ("sda", "I2C SDA"),
                       ("scl", "I2C SCL"), ("button", "button"), ("led", "LED data"), ("rail", "LED rail")):
        g.line((x, ly, x + 40, ly), fill=WIRE[kind], width=5)
        g.text((x + 48, ly - 9), text, fill="black", font=font)
        x += 48 + g.textlength(text, font=font) + 40
    img.save(path, optimize=True)


def draw_wires(g, wires, pin_xy, left_x, right_x, over_y):
    """Route each wire header pin -> vertical lane -> target, on lanes chosen so few wires cross.

    A wire may share a lane with another only where their vertical runs do not overlap; wires
    heading up take lanes from the top pin down, wires heading down from the bottom pin up,
    which keeps bundles of parallel wires from crossing. Wires to the other side of the board
    go over its top on the outermost lanes. Each wire gets a white halo so crossings read clearly.
    """
    lanes = {"L": [], "R": []}  # per side: list of lanes, each a list of (y0, y1) runs

    def take(side, y0, y1, outermost=False):
        runs = lanes[side]
        k = len(runs)
        if not outermost:
            k = next((i for i, r in enumerate(runs) if all(y1 + 24 < a or y0 - 24 > b for a, b in r)), k)
        if k == len(runs):
            runs.append([])
        runs[k].append((y0, y1))
        return left_x - 44 - 14 * k if side == "L" else right_x + 44 + 14 * k

    def order(w):
        y, ty = pin_xy(w[0])[1], w[1][1]
        return (w[3], ty > y, y if ty <= y else -y)

    paths = []
    for n, (tx, ty), kind, over in sorted(wires, key=order):
        x, y = pin_xy(n)
        side = "L" if n <= 20 else "R"
        if over:
            other = "R" if side == "L" else "L"
            lane = take(side, over_y, y, True)
            far = take(other, over_y, ty, True)
            pts = [(x, y), (lane, y), (lane, over_y), (far, over_y), (far, ty), (tx, ty)]
        else:
            lane = take(side, min(y, ty), max(y, ty))
            pts = [(x, y), (lane, y), (lane, ty), (tx, ty)]
        paths.append((pts, WIRE[kind]))
    for pts, colour in paths:
        g.line(pts, fill="white", width=10, joint="curve")
        g.line(pts, fill=colour, width=4, joint="curve")
        tx, ty = pts[-1]
        g.ellipse((tx - 5, ty - 5, tx + 5, ty + 5), fill=colour)


# ---------------------------------------------------------------- README budget block

BUDGET_BEGIN = "<!-- generated: current budget (hardware/generate.py) -->"
BUDGET_END = "<!-- end generated -->"


def budget_summary():
    lines = ["| build | LEDs at cap | board + OLED | worst case |", "| --- | ---: | ---: | ---: |"]
    for name in BOARDS:
        items, total = current_budget(name, load(name))
        lines.append("| %s | %g mA | %g mA | **%g mA** |" % (name, items[0][1], total - items[0][1], total))
    return "\n".join(lines)


BATTERY_BEGIN = "<!-- generated: battery life (hardware/generate.py) -->"


def update_readme(text):
    """Replace the generated blocks of README.md (budget, battery life) with fresh numbers."""
    import battery
    measured = battery.load_measured()
    # (pico_spi draws as pico: the same board, panel and LEDs)
    boards = dict((name, load(name)) for name in BOARDS if name in measured["screens"])
    for begin, block in ((BUDGET_BEGIN, budget_summary()),
                         (BATTERY_BEGIN, battery.markdown(measured, boards))):
        start = text.index(begin) + len(begin)
        end = text.index(BUDGET_END, start)
        text = text[:start] + "\n" + block + "\n" + text[end:]
    return text


def generate(out):
    """Write every generated file under `out` (laid out like hardware/); return their relative paths."""
    written = []

    def write(rel, data):
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(data)
        written.append(rel)

    for name in BOARDS:
        write(os.path.join("wiring", name + ".md"), wiring_markdown(name, load(name)))
    pico = load("pico")
    write(os.path.join("images", "schematic_pico.svg"), schematic_svg("pico", pico))
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    wiring_png("pico", pico, os.path.join(out, "images", "wiring_pico.png"))
    written.append(os.path.join("images", "wiring_pico.png"))
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        write("README.md", update_readme(f.read()))
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=HERE, help="output folder (default: hardware/)")
    args = parser.parse_args(argv)
    for rel in generate(args.out):
        print("wrote", os.path.join(args.out, rel))


if __name__ == "__main__":
    main()
