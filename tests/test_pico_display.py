"""hal.oled on the real MicroPython unix port: the SSD1306 and the SH1106, on I2C and on SPI,
sending only what changed, checked against model controllers (tests/oled_model.py) that
apply every byte sent, addressing commands included.

The frames are random drawings plus the app's typical changes (a cursor moving, a digit
changing, nothing changing); after every show() each model's panel must show the frame
buffer. On CPython (hypothesis): any sequence of frames, transfers cut half-way among them,
on every controller and bus. Also: what each kind of change costs in bytes, show() allocates
nothing (micropython.heap_lock), a transfer that fails part-way is sent again by the next
show(), an SSD1306 driver garbles an SH1106 (the model tells them apart), and the hardware
layer imports nothing of the rules core or the app.
"""
import ast
import json
import os
import random

import pytest
from hypothesis import given, settings, strategies as st

import mp
from oled_model import Panel

COMBOS = [("ssd1306", "i2c"), ("sh1106", "i2c"), ("ssd1306", "spi"), ("sh1106", "spi")]

SCRIPT = r'''
import sys, json, gc, micropython
sys.path.insert(0, "firmware")
import framebuf
from hal.oled import Oled, I2CBus, SPIBus


class Log:
    """The bus traffic, one string a transfer: I2C "hex", SPI "c hex" / "d hex" by D/C.
    The transfer numbered `fail_at` raises (a bus error) before it reaches the display."""

    def __init__(self):
        self.log = []
        self.fail_at = -1
        self.dc = 0
        self.keep = True

    def _out(self, text):
        if len(self.log) == self.fail_at:
            self.fail_at = -1
            raise OSError(5)  # EIO
        self.log.append(text)

    def writeto(self, addr, buf):  # an I2C bus
        self._out(bytes(buf).hex())

    def write(self, buf):  # an SPI bus
        self._out(("d " if self.dc else "c ") + bytes(buf).hex())

    def set_dc(self, v):
        self.dc = v


class Sink:
    def __init__(self):
        self.bytes = 0
        self.dc = 0

    def writeto(self, addr, buf):
        self.bytes += len(buf)

    def write(self, buf):
        self.bytes += len(buf)

    def set_dc(self, v):
        pass


def no_cs(v):
    pass


def make(driver, bus, width, height, line):
    b = I2CBus(line, 0x3C) if bus == "i2c" else SPIBus(line, line.set_dc, no_cs)
    return Oled(width, height, b, driver)


def apply(d, op):
    name = op[0]
    if name == "fill":
        d.fill(op[1])
    elif name == "text":
        d.text(op[1], op[2], op[3], op[4])
    elif name == "fill_rect":
        d.fill_rect(op[1], op[2], op[3], op[4], op[5])
    elif name == "pixel":
        d.pixel(op[1], op[2], op[3])
    elif name == "line":
        d.line(op[1], op[2], op[3], op[4], op[5])
    elif name == "scroll":
        d.scroll(op[1], op[2])
    elif name == "contrast":
        d.contrast(op[1])
    elif name == "fail" and hasattr(d.bus, "i2c"):
        d.bus.i2c.fail_at = len(d.bus.i2c.log) + op[1]
    elif name == "fail":
        d.bus.spi.fail_at = len(d.bus.spi.log) + op[1]


def run(driver, bus, width, height, ops):
    line = Log()
    d = make(driver, bus, width, height, line)
    ref = framebuf.FrameBuffer(bytearray(len(d.buffer)), width, height, framebuf.MONO_VLSB)
    # frame 0: the controller's set-up
    frames = [{{"sent": list(line.log), "buffer": bytes(d.buffer).hex(), "error": ""}}]
    seen = len(line.log)
    for op in ops:
        if op[0] != "show":
            apply(d, op)
            if op[0] not in ("contrast", "fail"):
                apply(ref, op)
            continue
        if bytes(d.buffer) != bytes(ref):  # drawing (fill() is the subclass's own) as framebuf draws
            raise ValueError("the frame buffer differs from framebuf's after %r" % (op,))
        error = ""
        try:
            d.show()
        except OSError as e:
            error = "OSError"
        frames.append({{"sent": line.log[seen:], "buffer": bytes(d.buffer).hex(), "error": error}})
        seen = len(line.log)
    return frames


def locked(d, frames):
    """fill() now and then, show() after each change of a text row, a contrast change, under
    heap_lock: "ok" or "MemoryError"."""
    texts = ("12", "13", "1 Red        27", "2 Blue       31")
    gc.collect()
    micropython.heap_lock()
    try:
        for k in range(frames):
            if k % 5 == 0:
                d.fill(k & 1)
            d.fill_rect(0, (k % 8) * 8, 128, 8, k & 1)
            d.text(texts[k % 4], (k * 8) % 96, (k % 8) * 8, 1 - (k & 1))
            d.show()
            if k % 7 == 0:
                d.contrast(k)
        res = "ok"
    except MemoryError:
        res = "MemoryError"
    micropython.heap_unlock()
    return res


CASES = {cases}
COMBOS = {combos}
out = {{}}
for driver, bus in COMBOS:
    key = driver + " " + bus
    out[key] = dict((name, run(driver, bus, *CASES[name])) for name in CASES)
    sink = Sink()
    d = make(driver, bus, 128, 64, sink)
    out[key]["heap_lock"] = locked(d, 40)
    out[key]["heap_lock_bytes"] = sink.bytes
print("RESULT " + json.dumps(out))
'''


def random_ops(rng, frames, width, height):
    ops = []
    for _ in range(frames):
        for _ in range(rng.randint(0, 6)):
            k = rng.random()
            x, y = rng.randint(-10, width + 5), rng.randint(-10, height + 5)
            c = rng.randint(0, 1)
            if k < 0.35:
                ops.append(["text", "".join(chr(rng.randint(32, 126)) for _ in range(rng.randint(1, 6))), x, y, c])
            elif k < 0.55:
                ops.append(["fill_rect", x, y, rng.randint(1, 40), rng.randint(1, 20), c])
            elif k < 0.75:
                ops.append(["pixel", x, y, c])
            elif k < 0.88:
                ops.append(["line", x, y, rng.randint(0, width), rng.randint(0, height), c])
            elif k < 0.92:
                ops.append(["contrast", rng.randint(0, 255)])
            elif k < 0.96:
                ops.append(["scroll", rng.randint(-3, 3), rng.randint(-3, 3)])
            else:
                ops.append(["fill", c])
        ops.append(["show"])
    return ops


def menu(cursor):
    """A menu screen as the app draws it: a title, a line, rows, the cursor row inverted."""
    ops = [["fill", 0], ["text", "Main menu", 0, 0, 1], ["fill_rect", 0, 7, 128, 1, 1]]
    for i, label in enumerate(("Resume", "New game", "History", "Settings")):
        y = 8 * (i + 1)
        if i == cursor:
            ops.append(["fill_rect", 0, y, 128, 8, 1])
        ops.append(["text", label, 0, y, 0 if i == cursor else 1])
    return ops + [["show"]]


def field(value):
    return [["fill", 0], ["text", "Wall Red", 0, 0, 1], ["fill_rect", 0, 16, 128, 8, 1],
            ["text", "tiles %d" % value, 0, 16, 0], ["text", "OK Red+%d" % value, 0, 24, 1], ["show"]]


def cases():
    rng = random.Random(20240611)
    typical = menu(0) + menu(0) + menu(1) + menu(2) + field(2) + field(3) + field(3)
    failing = menu(0) + menu(1) + [["fail", 1]] + menu(3) + menu(3) + [["fail", 0]] + menu(0) + menu(0)
    return {
        "typical": [128, 64, typical],
        "random": [128, 64, random_ops(rng, 100, 128, 64)],
        "random 128x32": [128, 32, random_ops(rng, 50, 128, 32)],
        "random 72x40": [72, 40, random_ops(rng, 50, 72, 40)],
        "failing bus": [128, 64, failing],
    }


_result = {}


def result(driver, bus):
    if not _result:
        script = SCRIPT.format(cases=json.dumps(cases()), combos=json.dumps(COMBOS))
        proc = mp.run(["-c", script], heap="16M")  # the frames are kept for the output
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        line = [l for l in proc.stdout.splitlines() if l.startswith("RESULT ")][0]
        _result.update(json.loads(line[7:]))
    return _result[driver + " " + bus]


def send(chip, text):
    """One transfer of the log (tests' format) into a model controller."""
    if text[:2] in ("c ", "d "):
        chip.spi(text[0] == "d", bytes.fromhex(text[2:]))
    else:
        chip.write(bytes.fromhex(text))


def replay_on_model(driver, frames, width, height):
    """Feed every transfer to a model controller; yield (frame, what its panel shows) after
    each show()."""
    chip = Panel(driver, width, height)
    for f in frames:
        for text in f["sent"]:
            send(chip, text)
        yield f, chip.image(), chip


def data_bytes(frame):
    return sum(len(s.split()[-1]) // 2 for s in frame["sent"])


@pytest.mark.parametrize("driver,bus", COMBOS)
def test_every_frame_on_the_model_display_equals_the_frame_buffer(driver, bus):
    for name in ("typical", "random", "random 128x32", "random 72x40"):
        width, height, _ = cases()[name]
        frames = result(driver, bus)[name]
        assert len(frames) > 5
        for i, (f, shown, chip) in enumerate(replay_on_model(driver, frames, width, height)):
            assert not f["error"]
            if i:  # (frame 0: the set-up alone, the panel still off)
                assert shown == bytes.fromhex(f["buffer"]), "%s: frame %d differs on the display" % (name, i)
                assert chip.on
        # random frames change little or much: both kinds occurred
        sizes = [data_bytes(f) for f in frames[2:]]
        assert name == "typical" or min(sizes) < 100 and max(sizes) > width * height // 16, (name, sizes)


def test_what_each_kind_of_change_costs_on_an_ssd1306_over_i2c():
    """Bytes on the bus (without the address byte of each transfer)."""
    init, first, same, cursor1, cursor2, field2, field3, field3_again = result("ssd1306", "i2c")["typical"]
    # power-on: the set-up in one transfer, the panel left off; the first frame goes whole
    # (the display RAM holds anything): two no-ops, one window, a transfer per page, then on
    assert init["sent"][0].startswith("00ae20") and len(init["sent"]) == 1
    assert first["sent"][:2] == ["00e3e3", "00" + "220007" + "21007f"]
    assert [len(s) // 2 for s in first["sent"][2:10]] == [1 + 128] * 8 and first["sent"][10:] == ["00af"]
    assert data_bytes(same) == 0  # nothing changed, nothing sent
    # the cursor moves from row 1 to row 2: pages 1 and 2, full width, one window
    assert cursor1["sent"][0] == "00" + "220102" + "21007f"
    assert [len(s) // 2 for s in cursor1["sent"][1:]] == [1 + 128, 1 + 128]
    assert data_bytes(cursor1) == data_bytes(cursor2) == 7 + 2 * (1 + 128)
    # the value 2 -> 3: one glyph in the field row and one in the preview row below it, in
    # the same 16-column chunk: one window over both pages
    assert data_bytes(field3) == 7 + 2 * (1 + 16)
    assert data_bytes(field3_again) == 0
    assert data_bytes(field2) < 1 + 1024


@pytest.mark.parametrize("driver,bus,address,data", [
    # SH1106 on I2C: each page its page and column address, 4 bytes (columns 2..129 of 132)
    ("sh1106", "i2c", [4, 4], [1 + 128, 1 + 128]),
    ("ssd1306", "spi", [6], [128, 128]),  # no control bytes on SPI: D/C says it
    ("sh1106", "spi", [3, 3], [128, 128])])
def test_what_a_cursor_move_costs_on_the_other_controllers_and_buses(driver, bus, address, data):
    cursor1 = result(driver, bus)["typical"][3]
    sizes = [(s[0] if s[:2] in ("c ", "d ") else "i", len(s.split()[-1]) // 2) for s in cursor1["sent"]]
    if driver == "sh1106":  # page 1, then page 2, from column 2
        addresses = [s.split()[-1][-6:] for s in cursor1["sent"] if s[:2] == "c " or s.startswith("00b")]
        assert addresses == ["b10210", "b20210"], cursor1["sent"]
    assert [n for kind, n in sizes if kind == "c" or (kind == "i" and n in address)] == address
    assert [n for kind, n in sizes if kind == "d" or (kind == "i" and n not in address)] == data


def test_window_commands_address_the_changed_pages_and_columns():
    f = result("ssd1306", "i2c")["typical"][6]  # field 2 -> 3: "tiles 3" (column 48, page 2), "OK Red+3" (56, page 3)
    assert f["sent"][0] == "00" + "220203" + "21" + "303f"  # the chunk of columns 48..63 of both
    assert len(f["sent"]) == 3
    f = result("sh1106", "spi")["typical"][6]  # the same chunk on an SH1106: columns 50.. (offset 2)
    assert f["sent"] == ["c b20213", "d " + f["sent"][1][2:], "c b30213", "d " + f["sent"][3][2:]]
    assert [len(s) // 2 - 1 for s in f["sent"][1::2]] == [16, 16]


@pytest.mark.parametrize("driver,bus", COMBOS)
def test_a_failed_transfer_is_sent_again_by_the_next_show(driver, bus):
    width, height, _ = cases()["failing bus"]
    frames = result(driver, bus)["failing bus"]
    errors = [f["error"] for f in frames]
    assert errors == ["", "", "", "OSError", "", "OSError", ""], errors
    shown = list(replay_on_model(driver, frames, width, height))
    # after each failure the display lags; the next show() puts it right
    assert shown[3][1] != bytes.fromhex(shown[3][0]["buffer"])
    for i in (4, 6):
        f, ram, _ = shown[i]
        assert ram == bytes.fromhex(f["buffer"]), "frame %d" % i


@pytest.mark.parametrize("driver,bus", COMBOS)
def test_show_allocates_nothing(driver, bus):
    assert result(driver, bus)["heap_lock"] == "ok"
    assert result(driver, bus)["heap_lock_bytes"] > 40 * 16  # the locked frames really sent something


def test_an_ssd1306_window_garbles_an_sh1106():
    """The model is no mirror of the driver: SSD1306 traffic (windows, horizontal addressing)
    on an SH1106 does not show the frame (the 1.3-inch module bought by mistake)."""
    frames = result("ssd1306", "i2c")["typical"]
    shown = list(replay_on_model("sh1106", frames, 128, 64))
    assert shown[1][1] != bytes.fromhex(frames[1]["buffer"])


def test_the_hardware_layer_imports_nothing_of_the_rules_core_or_the_app():
    hal = os.path.join(mp.ROOT, "firmware", "hal")
    bad = []
    for name in sorted(os.listdir(hal)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(hal, name), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            bad += ["%s: %s" % (name, m) for m in mods if m.split(".")[0] in ("rules_core", "app")]
    assert not bad, bad


class ModelBus:
    """A bus to a model controller (I2C: writeto; SPI: write with D/C from set_dc). fail_at:
    the transfer (counted from now) that breaks after half its bytes reached the display."""

    def __init__(self, chip):
        self.chip = chip
        self.fail_at = -1
        self.dc = 0

    def _send(self, data, apply):
        self.fail_at -= 1
        if self.fail_at == -1:
            if len(data) > 1:
                apply(data[:len(data) // 2])
            raise OSError(5)  # EIO
        apply(data)

    def writeto(self, addr, buf):
        self._send(bytes(buf), self.chip.write)

    def write(self, buf):
        self._send(bytes(buf), lambda data: self.chip.spi(self.dc, data))

    def set_dc(self, v):
        self.dc = v


def cpython_oled(width, height, driver, bus, chip):
    from host_tools import vhal
    vhal.install_framebuf()
    from hal.oled import Oled, I2CBus, SPIBus
    line = ModelBus(chip)
    b = I2CBus(line, 0x3C) if bus == "i2c" else SPIBus(line, line.set_dc, lambda v: None)
    return Oled(width, height, b, driver), line


# a frame: edits to the frame buffer, then show(), with maybe a transfer that breaks
EDIT = st.one_of(
    st.tuples(st.just("bytes"), st.integers(0, 7), st.integers(0, 127), st.integers(1, 128), st.integers(0, 255)),
    st.tuples(st.just("fill"), st.integers(0, 1)),
    st.tuples(st.just("contrast"), st.integers(0, 255)))
FRAME = st.tuples(st.lists(EDIT, max_size=8), st.one_of(st.none(), st.integers(0, 20)))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(COMBOS), st.sampled_from([(128, 64), (128, 32), (72, 40), (64, 48)]),
       st.lists(FRAME, min_size=1, max_size=12))
def test_the_display_shows_the_frame_buffer_after_any_frames(combo, size, frames):
    """Any sequence of frames, some with a transfer that breaks half-way: after every show()
    that returns, the model panel shows the frame buffer and `sent` equals it."""
    driver, bus = combo
    width, height = size
    chip = Panel(driver, width, height)
    d, line = cpython_oled(width, height, driver, bus, chip)
    for edits, fail_at in frames:
        for edit in edits:
            if edit[0] == "fill":
                d.fill(edit[1])
                continue
            if edit[0] == "contrast":
                d.contrast(edit[1])
                continue
            _, page, x, length, value = edit
            page %= height // 8
            x %= width
            start = page * width + x
            end = min(start + length, (page + 1) * width)
            d.buffer[start:end] = bytes([value]) * (end - start)
        if fail_at is not None:
            line.fail_at = fail_at
        try:
            d.show()
        except OSError:
            continue
        finally:
            line.fail_at = -1
        assert chip.image() == bytes(d.buffer)
        assert bytes(d.sent) == bytes(d.buffer)
