"""hal.ssd1306_delta on the real MicroPython unix port: micropython-lib's SSD1306_I2C that
sends only what changed, checked against a model SSD1306 (host_tools.vboard.Ssd1306) that
applies every byte sent, addressing commands included.

The frames are random drawings plus the app's typical changes (a cursor moving, a digit
changing, nothing changing); after every show() the model's display RAM must equal the
frame buffer. On CPython (hypothesis): any sequence of frames, transfers cut half-way among
them. Also: what each kind of change costs in bytes, show() allocates nothing
(micropython.heap_lock), a transfer that fails part-way is sent again by the next show(),
and the hardware layer imports nothing of the rules core or the app.
"""
import ast
import functools
import json
import os
import random

from hypothesis import given, settings, strategies as st

import mp
from host_tools.vboard import Ssd1306
from host_tools.vhal import micropython_fakes_dir

SSD1306_DIR = os.path.join(mp.ROOT, "host_tools", "fakes", "vboard", "mip")

SCRIPT = r'''
import sys, json, gc, micropython
sys.path.insert(0, "firmware")
sys.path.insert(0, {ssd1306!r})
sys.path.insert(0, {fakes!r})
import framebuf, machine
from hal.ssd1306_delta import SSD1306Delta
machine.KEEP = 1000000  # the fake bus keeps every transfer


class FailingI2C(machine.I2C):
    """Records like the fake bus; the transfer numbered `fail_at` raises (a bus error)."""
    fail_at = -1

    def writeto(self, addr, buf, stop=True):
        if len(self.log) == self.fail_at:
            self.fail_at = -1
            raise OSError(5)  # EIO
        return machine.I2C.writeto(self, addr, buf, stop)


class Sink:
    def __init__(self):
        self.bytes = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += len(buf)


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
    elif name == "fail" and hasattr(d, "i2c"):
        d.i2c.fail_at = len(d.i2c.log) + op[1]


def run(width, height, ops):
    d = SSD1306Delta(width, height, FailingI2C())
    ref = framebuf.FrameBuffer(bytearray(len(d.buffer)), width, height, framebuf.MONO_VLSB)
    # frame 0: the driver's set-up commands and its first (blank) frame
    frames = [{{"sent": [b.hex() for a, b in d.i2c.log], "buffer": bytes(d.buffer).hex(), "error": ""}}]
    seen = len(d.i2c.log)
    for op in ops:
        if op[0] != "show":
            apply(d, op)
            apply(ref, op)
            continue
        if bytes(d.buffer) != bytes(ref):  # drawing (fill() is the subclass's own) as framebuf draws
            raise ValueError("the frame buffer differs from framebuf's after %r" % (op,))
        error = ""
        try:
            d.show()
        except OSError as e:
            error = "OSError"
        log = d.i2c.log
        frames.append({{"sent": [b.hex() for a, b in log[seen:]], "buffer": bytes(d.buffer).hex(),
                        "error": error}})
        seen = len(log)
    return frames


def locked(d, frames):
    """fill() now and then, show() after each change of a text row, under heap_lock: "ok"
    or "MemoryError"."""
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
        res = "ok"
    except MemoryError:
        res = "MemoryError"
    micropython.heap_unlock()
    return res


CASES = {cases}
out = {{}}
for name in CASES:
    w, h, ops = CASES[name]
    out[name] = run(w, h, ops)
d = SSD1306Delta(128, 64, machine.I2C())
d.i2c = Sink()
out["heap_lock"] = locked(d, 40)
out["heap_lock_bytes"] = d.i2c.bytes
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
            elif k < 0.9:
                ops.append(["line", x, y, rng.randint(0, width), rng.randint(0, height), c])
            elif k < 0.95:
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
        "random": [128, 64, random_ops(rng, 120, 128, 64)],
        "random 128x32": [128, 32, random_ops(rng, 60, 128, 32)],
        "random 72x40": [72, 40, random_ops(rng, 60, 72, 40)],
        "failing bus": [128, 64, failing],
    }


_result = {}


def result():
    if not _result:
        script = SCRIPT.format(ssd1306=SSD1306_DIR, fakes=micropython_fakes_dir(), cases=json.dumps(cases()))
        proc = mp.run(["-c", script], heap="16M")  # the frames are kept for the output
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        line = [l for l in proc.stdout.splitlines() if l.startswith("RESULT ")][0]
        _result.update(json.loads(line[7:]))
    return _result


def replay_on_model(frames, width, height):
    """Feed every transfer to a model SSD1306; yield (frame, the RAM bytes the display
    shows, in the frame buffer's layout) after each show()."""
    chip = Ssd1306(128, 64)
    offset = (128 - width) // 2
    for f in frames:
        for data in f["sent"]:
            chip.write(bytes.fromhex(data))
        ram = bytearray()
        for page in range(height // 8):
            ram += chip.ram[page * 128 + offset:page * 128 + offset + width]
        yield f, bytes(ram)


def data_bytes(frame):
    return sum(len(s) // 2 for s in frame["sent"])


def test_every_frame_on_the_model_display_equals_the_frame_buffer():
    for name in ("typical", "random", "random 128x32", "random 72x40"):
        width, height, _ = cases()[name]
        frames = result()[name]
        assert len(frames) > 5
        for i, (f, ram) in enumerate(replay_on_model(frames, width, height)):
            assert not f["error"]
            assert ram == bytes.fromhex(f["buffer"]), "%s: frame %d differs on the display" % (name, i)
        # random frames change little or much: both kinds occurred
        sizes = [data_bytes(f) for f in frames[1:]]
        assert min(sizes) < 100 and max(sizes) > width * height // 16, (name, sizes)


def test_what_each_kind_of_change_costs():
    """Bytes on the bus (without the address byte of each transfer)."""
    init, first, same, cursor1, cursor2, field2, field3, field3_again = result()["typical"]
    whole = 1 + 1024
    # power-on: the display RAM holds anything, the whole (blank) frame goes: one window,
    # a transfer per page
    assert init["sent"][-9:] == ["00" + "220007" + "21007f"] + ["40" + "00" * 128] * 8
    assert data_bytes(first) < whole  # the menu: pages 0..4 of the 8
    assert data_bytes(same) == 0  # nothing changed, nothing sent
    # the cursor moves from row 1 to row 2: pages 1 and 2, full width, one window
    assert cursor1["sent"][0] == "00" + "220102" + "21007f"
    assert [len(s) // 2 for s in cursor1["sent"][1:]] == [1 + 128, 1 + 128]
    assert data_bytes(cursor1) == data_bytes(cursor2) == 7 + 2 * (1 + 128)
    # the value 2 -> 3: one glyph in the field row and one in the preview row below it, in
    # the same 16-column chunk: one window over both pages
    assert data_bytes(field3) == 7 + 2 * (1 + 16)
    assert data_bytes(field3_again) == 0
    assert data_bytes(field2) < whole


def test_window_commands_address_the_changed_pages_and_columns():
    f = result()["typical"][6]  # field 2 -> 3: "tiles 3" (column 48, page 2), "OK Red+3" (56, page 3)
    assert f["sent"][0] == "00" + "220203" + "21" + "303f"  # the chunk of columns 48..63 of both
    assert len(f["sent"]) == 3


def test_a_failed_transfer_is_sent_again_by_the_next_show():
    width, height, _ = cases()["failing bus"]
    frames = result()["failing bus"]
    errors = [f["error"] for f in frames]
    assert errors == ["", "", "", "OSError", "", "OSError", ""], errors
    shown = list(replay_on_model(frames, width, height))
    # after each failure the display lags; the next show() puts it right
    assert shown[3][1] != bytes.fromhex(shown[3][0]["buffer"])
    for i in (4, 6):
        f, ram = shown[i]
        assert ram == bytes.fromhex(f["buffer"]), "frame %d" % i


def test_show_allocates_nothing():
    assert result()["heap_lock"] == "ok"
    assert result()["heap_lock_bytes"] > 40 * 16  # the locked frames really sent something


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


@functools.lru_cache()
def cpython_driver():
    """hal.ssd1306_delta on CPython, over micropython-lib's ssd1306 and the pure-Python
    framebuf (the same source the board runs; `micropython.const` is only a hint)."""
    import sys
    import types
    from host_tools import vhal
    vhal.install_framebuf()
    saved = {name: sys.modules.pop(name, None) for name in ("micropython", "ssd1306", "hal.ssd1306_delta")}
    stub = types.ModuleType("micropython")
    stub.const = lambda x: x
    sys.modules["micropython"] = stub
    sys.path.insert(0, SSD1306_DIR)
    try:
        from hal.ssd1306_delta import SSD1306Delta
    finally:
        sys.path.remove(SSD1306_DIR)
        for name, module in saved.items():
            sys.modules.pop(name, None)
            if module is not None:
                sys.modules[name] = module
    return SSD1306Delta


class ModelBus:
    """The I2C bus to a model SSD1306. fail_at: the transfer (counted from now) that breaks
    after half its bytes reached the display."""

    def __init__(self, chip):
        self.chip = chip
        self.fail_at = -1

    def writeto(self, addr, buf, stop=True):
        data = bytes(buf)
        self.fail_at -= 1
        if self.fail_at == -1:
            if len(data) > 1:
                self.chip.write(data[:len(data) // 2])
            raise OSError(5)  # EIO
        self.chip.write(data)


# a frame: edits to the frame buffer, then show(), with maybe a transfer that breaks
EDIT = st.one_of(
    st.tuples(st.just("bytes"), st.integers(0, 7), st.integers(0, 127), st.integers(1, 128), st.integers(0, 255)),
    st.tuples(st.just("fill"), st.integers(0, 1)))
FRAME = st.tuples(st.lists(EDIT, max_size=8), st.one_of(st.none(), st.integers(0, 20)))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([(128, 64), (128, 32), (72, 40), (64, 48)]), st.lists(FRAME, min_size=1, max_size=12))
def test_the_display_shows_the_frame_buffer_after_any_frames(size, frames):
    """Any sequence of frames, some with a transfer that breaks half-way: after every show()
    that returns, the model display's RAM and `sent` equal the frame buffer."""
    width, height = size
    chip = Ssd1306(128, 64)
    offset = (128 - width) // 2
    d = cpython_driver()(width, height, ModelBus(chip))
    for edits, fail_at in frames:
        for edit in edits:
            if edit[0] == "fill":
                d.fill(edit[1])
                continue
            _, page, x, length, value = edit
            page %= height // 8
            x %= width
            start = page * width + x
            end = min(start + length, (page + 1) * width)
            d.buffer[start:end] = bytes([value]) * (end - start)
        if fail_at is not None:
            d.i2c.fail_at = fail_at
        try:
            d.show()
        except OSError:
            continue
        finally:
            d.i2c.fail_at = -1
        shown = b"".join(bytes(chip.ram[p * 128 + offset:p * 128 + offset + width]) for p in range(height // 8))
        assert shown == bytes(d.buffer)
        assert bytes(d.sent) == bytes(d.buffer)
