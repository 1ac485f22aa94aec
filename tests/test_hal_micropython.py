"""The HAL on the real MicroPython unix port, with fake `machine`/`neopixel` modules
(host_tools/fakes/mp).

- golden frame buffer: one scene drawn with MicroPython's C framebuf and with the
  pure-Python work-alike must give identical bytes (font, clipping, Bresenham, blit);
- the MicroPython display (found by scanning), LED (with its rail) and button backends
  built from the Pico board file;
- micropython.heap_lock(): Leds.show(), ButtonLogic.update() and take() allocate nothing.
"""
import json
import os

import mp
from boards.pico import BOARD as PICO
from hal import framebuf_py
from host_tools.vhal import VirtualDisplay, micropython_fakes_dir
from oled_model import Panel

# Drawn identically by both implementations; every printable char plus bytes outside the font.
SCENE = r'''
def draw(fb, FrameBuffer, MONO_VLSB, MONO_HLSB):
    fb.fill(0)
    chars = "".join(chr(c) for c in range(32, 128))
    for k in range(6):
        fb.text(chars[k * 16:(k + 1) * 16], 0, k * 9, 1)
    fb.text("clip", 122, 60, 1)
    fb.text("off", -5, -3, 1)
    fb.text("\xe9\x01", 40, 56, 1)
    for x2, y2 in ((127, 63), (0, 63), (127, 0), (64, 10), (10, 60), (-20, 70), (200, -5), (5, 5)):
        fb.line(64, 32, x2, y2, 1)
    fb.rect(3, 3, 50, 20, 1)
    fb.rect(100, 40, 60, 60, 0, True)
    fb.fill_rect(-4, 50, 10, 30, 1)
    fb.hline(0, 63, 200, 1)
    fb.vline(127, -10, 30, 0)
    fb.pixel(1, 1, 1)
    fb.pixel(300, 1, 1)
    icon = FrameBuffer(bytearray(b"\x81\x42\x24\x18\x18\x24\x42\x81"), 8, 8, MONO_HLSB)
    fb.blit(icon, 60, 20)
    fb.blit(icon, 124, -3, 0)
    page = FrameBuffer(bytearray(b"\xff\x00\xaa\x55"), 4, 8, MONO_VLSB)
    fb.blit(page, 30, 40, 1)
    fb.scroll(2, -1)
    # the screens' own drawing: rows of text on 8-pixel rows over row-wide fills, inverted
    fb.fill_rect(0, 8, 100, 8, 1)
    fb.text("cursor row", 0, 8, 0)
    fb.fill_rect(0, 16, 128, 16, 0)
    fb.text("a row of sixteen", 0, 16, 1)
    fb.text("rows 2/3", 60, 24, 1)
    # and a walk of fills, lines and text anywhere (a small LCG: the same on both)
    r = 12345
    for k in range(120):
        r = (r * 1103515245 + 12345) & 0x7FFFFFFF
        x, y, w, h = r % 150 - 10, (r >> 8) % 80 - 8, (r >> 4) % 70, (r >> 12) % 20
        c = (r >> 20) & 1
        op = k % 4
        if op == 0:
            fb.fill_rect(x, y, w, h, c)
        elif op == 1:
            fb.text(chars[(r >> 3) % 80:(r >> 3) % 80 + 5], x, y - y % 8 if k % 8 == 1 else y, c)
        elif op == 2:
            fb.hline(x, y, w, c)
        else:
            fb.vline(x, y, h, c)
    return (fb.pixel(1, 1), fb.pixel(0, 0), fb.pixel(500, 500))
'''

MP_SCRIPT = r'''
import sys, gc, json, micropython
sys.path.insert(0, "firmware")
sys.path.insert(0, {fakes!r})
import framebuf, machine
machine.KEEP = 1000  # every I2C transfer: the display test applies them all to a model SSD1306
from hal import leds as hal_leds, buttons as hal_buttons, display as hal_display, keys
from hal.buttons import ButtonLogic
{scene}
buf = bytearray(128 * 8)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
probe = draw(fb, framebuf.FrameBuffer, framebuf.MONO_VLSB, framebuf.MONO_HLSB)
print(json.dumps({{"golden": buf.hex(), "probe": probe}}))

BOARD = {board}
disp = hal_display.display_from_board(BOARD)
disp.fill(0)
disp.text("Score 42", 0, 0, 1)
disp.rect(0, 10, 128, 20, 1)
disp.show()
disp.contrast(80)
log = disp.bus.i2c.log
print(json.dumps({{"display": [disp.width, disp.height], "sent": [b.hex() for a, b in log[:-1]],
                  "contrast": log[-1][1].hex(), "addr": disp.bus.addr,
                  "is_framebuffer": isinstance(disp, framebuf.FrameBuffer)}}))

leds = hal_leds.leds_from_board(BOARD)
rail = [machine.LEVELS[17]]
leds.show()  # every LED dark: the rail stays off, nothing is written
rail.append(machine.LEVELS[17])
leds[0] = (255, 0, 0)
leds[1] = (0, 128, 0)
leds[24] = (10, 20, 40)
leds.show()
np = leds._out
rail.append(machine.LEVELS[17])
print(json.dumps({{"leds_frame": np.frames[-1].hex(), "leds_writes": np.writes, "rail": rail}}))

btn = hal_buttons.buttons_from_board(BOARD)
events = []
for t in range(0, 1000, 10):
    machine.set_level(14, 0 if 50 <= t < 150 else 1)    # OK short press
    machine.set_level(10, 0 if 300 <= t < 1000 else 1)  # UP held: press then repeats
    btn.poll(t)
    ev = btn.take()
    while ev is not None:
        events.append(keys.describe(ev))
        ev = btn.take()
print(json.dumps({{"events": events}}))

# heap lock: nothing below may allocate
np.frames = None
logic = ButtonLogic(("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK"))
masks = (1, 1, 1, 0, 0, 16, 16, 0, 0, 63, 63, 0, 0)


def locked_frames(leds, logic, masks):
    # a function: new module globals would grow the globals dict (an allocation)
    taken = 0
    gc.collect()
    micropython.heap_lock()
    try:
        for k in range(400):
            leds.show()
            logic.update(k * 10, masks[k % 13] if k < 200 else 1)
            ev = logic.take()
            while ev is not None:
                taken += 1
                ev = logic.take()
    except MemoryError:
        taken = -1
    finally:
        micropython.heap_unlock()
    return taken


taken = locked_frames(leds, logic, masks)
error = "MemoryError" if taken < 0 else ""
print(json.dumps({{"heap_lock_error": error, "taken": taken, "writes": np.writes}}))
'''


def run_script():
    script = MP_SCRIPT.format(fakes=micropython_fakes_dir(), scene=SCENE, board=repr(PICO))
    proc = mp.run(["-c", script], heap="256K")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = {}
    for line in proc.stdout.splitlines():
        out.update(json.loads(line))
    return out


_cache = {}


def result():
    if not _cache:
        _cache.update(run_script())
    return _cache


def test_golden_framebuffer_identical_on_cpython_and_micropython():
    namespace = {}
    exec(SCENE, namespace)
    buf = bytearray(128 * 8)
    fb = framebuf_py.FrameBuffer(buf, 128, 64, framebuf_py.MONO_VLSB)
    probe = namespace["draw"](fb, framebuf_py.FrameBuffer, framebuf_py.MONO_VLSB, framebuf_py.MONO_HLSB)
    got = result()
    assert list(probe) == got["probe"]
    assert buf.hex() == got["golden"]
    assert buf.count(0) not in (0, len(buf))  # the scene really drew something


def test_micropython_display_backend_sends_the_framebuffer_over_i2c():
    got = result()
    assert got["display"] == [128, 64] and got["is_framebuffer"]
    assert got["addr"] == 0x3C  # the board file gives none: the fake bus's one device, scanned
    expected = VirtualDisplay(128, 64)
    expected.text("Score 42", 0, 0, 1)
    expected.rect(0, 10, 128, 20, 1)
    assert expected.text_lines()[0] == "Score 42"
    # the bytes sent, applied by a model SSD1306, leave the frame buffer in the display RAM
    chip = Panel("ssd1306")
    for data in got["sent"]:
        chip.write(bytes.fromhex(data))
    assert chip.image() == bytes(expected.buffer) and chip.on
    assert got["contrast"] == "008150"  # commands: SET_CONTRAST 0x81, 80


def test_micropython_led_backend_writes_capped_grb():
    got = result()
    frame = bytearray(75)
    frame[0:3] = bytes([0, 64, 0])
    frame[3:6] = bytes([32, 0, 0])
    frame[72:75] = bytes([5, 2, 10])
    assert got["leds_frame"] == frame.hex()
    assert got["leds_writes"] == 1  # (the dark frame before it wrote nothing)
    assert got["rail"] == [0, 0, 1]  # GP17: off at start, off for a dark frame, on for a lit one


def test_micropython_button_backend_reads_active_low_pins():
    # OK low 50..140 -> settles 50, released at 150 settles 170 -> OK at 170;
    # UP low from 300 -> UP at 320, repeats at 900 (held 600)
    assert result()["events"] == ["OK", "UP", "UP+REPEAT"]


def test_show_and_update_allocate_nothing_under_heap_lock():
    got = result()
    assert got["heap_lock_error"] == ""
    assert got["writes"] == 401  # 1 earlier frame + 400 locked ones
    # masks cycle every 130 ms for 2 s (UP, OK, all six), then UP is held and repeats
    assert got["taken"] > 20
