"""The browser's HAL and composition root (web/webhal.py, web/webmain.py) on CPython.

The page hands the firmware a small `host` object over localStorage, the canvas and the LED
dots; here a dict-backed host with the same five calls stands in, with localStorage's
all-or-nothing writes and an optional quota. The device's own Storage runs on top of it,
unchanged. tests/test_web_page.py runs the same files in Chromium.
"""
import binascii
import os
import sys

import pytest

from hal.keys import BACK, LONG, OK, NAMES, CODE_MASK
from hal.storage import Storage
from rules_core.session import replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "web"))

import webhal  # noqa: E402
from webhal import FILE_KEY, LocalFS  # noqa: E402
from files import read_lines, read_text


class Host:
    """localStorage, the canvas and the LEDs as the page's script offers them to webhal."""

    def __init__(self, quota=None, items=None):
        self.items = {} if items is None else items
        self.quota = quota  # characters of keys and values, as browsers count them
        self.frames = []
        self.led_frames = []

    def get(self, key):
        return self.items.get(key)

    def set(self, key, value):
        used = sum(len(k) + len(v) for k, v in self.items.items() if k != key)
        if self.quota is not None and used + len(key) + len(value) > self.quota:
            return "QuotaExceededError"  # localStorage.setItem threw: nothing was stored
        self.items[key] = value
        return ""

    def remove(self, key):
        self.items.pop(key, None)

    def keys(self):
        return "\n".join(self.items)

    def display(self, hex_frame):
        self.frames.append(binascii.unhexlify(hex_frame))

    def leds(self, hex_leds):
        self.led_frames.append(binascii.unhexlify(hex_leds))


def storage(host):
    fs = LocalFS(host)
    st = Storage(fs.open, fs)
    st.ensure_dir("data")
    return st


def test_record_lines_are_stored_as_the_device_appends_them():
    host = Host()
    st = storage(host)
    lines = ['{"format": "azul-companion-record", "players": ["Zo\u00eb", "Ben"]}', '{"e": "end_round"}']
    for line in lines:
        st.append_line("data/current.jsonl", line)
    assert read_lines(st, "data/current.jsonl") == (lines, False)
    stored = host.items[FILE_KEY + "data/current.jsonl"]
    assert webhal.to_bytes(stored) == "".join(l + "\n" for l in lines).encode("utf-8")
    assert len(stored) == len("".join(l + "\n" for l in lines).encode("utf-8"))  # one character a byte


def test_every_byte_value_survives_and_no_nul_reaches_javascript():
    """Strings from MicroPython to JavaScript end at a NUL, so byte 0 is stored as U+0100."""
    data = bytes(range(256)) * 2
    fs = LocalFS(Host())
    with fs.open("blob", "wb") as f:
        f.write(data[:100])
        f.write(data[100:])
    assert "\x00" not in fs.host.items[FILE_KEY + "blob"]
    with fs.open("blob", "rb") as f:
        assert f.read(10) == data[:10]
        assert f.read() == data[10:]
    assert webhal.to_bytes(webhal.to_text(b"plain ascii")) == b"plain ascii"


def test_a_full_store_refuses_a_write_whole_with_enospc():
    """localStorage.setItem throws QuotaExceededError: the write is not stored at all."""
    host = Host()
    st = storage(host)
    st.append_line("data/current.jsonl", '{"e": "end_round"}')
    before = dict(host.items)
    host.quota = sum(len(k) + len(v) for k, v in host.items.items()) + 5
    with pytest.raises(OSError) as e:
        st.append_line("data/current.jsonl", '{"e": "first", "p": 1}')
    assert e.value.args[0] == webhal.ENOSPC and "storage full" in str(e.value)
    assert host.items == before
    with pytest.raises(OSError):
        st.write_atomic("data/settings.json", "{}\n")
    assert read_lines(st, "data/current.jsonl") == (['{"e": "end_round"}'], False)


def test_the_os_calls_storage_makes():
    fs = LocalFS(Host())
    with pytest.raises(OSError) as e:
        fs.open("data/x.jsonl", "ab")  # no folder yet
    assert e.value.args[0] == webhal.ENOENT
    fs.mkdir("data")
    with pytest.raises(OSError) as e:
        fs.mkdir("data")
    assert e.value.args[0] == webhal.EEXIST
    fs.mkdir("data/history")
    with fs.open("data/a.jsonl", "ab") as f:
        f.write(b"abc\n")
    assert sorted(fs.listdir("data")) == ["a.jsonl", "history"]
    assert fs.listdir("") == ["data"]
    assert fs.stat("data/a.jsonl")[6] == 4 and fs.stat("data")[0] & 0x4000
    fs.rename("data/a.jsonl", "data/history/000001.jsonl")
    assert fs.listdir("data/history") == ["000001.jsonl"] and "a.jsonl" not in fs.listdir("data")
    for call in (lambda: fs.stat("data/a.jsonl"), lambda: fs.remove("data/a.jsonl"),
                 lambda: fs.open("data/a.jsonl", "rb"), lambda: fs.rename("data/a.jsonl", "data/b"),
                 lambda: fs.rename("data/history/000001.jsonl", "nowhere/b"), lambda: fs.listdir("nowhere")):
        with pytest.raises(OSError) as e:
            call()
        assert e.value.args[0] == webhal.ENOENT
    with fs.open("data/history/000001.jsonl", "ab") as f:
        f.truncate(2)
    assert fs.read_bytes("data/history/000001.jsonl") == b"ab"
    with pytest.raises(ValueError):
        fs.open("data/history/000001.jsonl", "r")


def test_the_keeper_moves_games_into_the_history_folder():
    from app.keeper import Keeper
    host = Host()
    st = storage(host)
    st.ensure_dir("data")
    k = Keeper(st)
    for n in range(3):
        st.write_atomic("data/current.jsonl", '{"game": %d}\n' % n)
        st.ensure_dir("data/history")
        k.put_aside()
        k.file()
    names = LocalFS(host).listdir("data/history")
    assert sorted(names) == ["000001.jsonl", "000002.jsonl", "000003.jsonl"]
    assert not st.exists("data/current.jsonl")
    assert read_text(st, "data/history/000003.jsonl") == '{"game": 2}\n'


# ---- the composition root: the App on the web HAL ----------------------------------------
def device(host):
    import webmain
    return webmain.Device(host)


def enter(dev, keys):
    """Key events as the page delivers them: a press and a release, `u` for BACK+LONG."""
    for k in keys:
        if k == BACK | LONG:
            dev.hold_back()
        else:
            name = NAMES[k & CODE_MASK]
            dev.button(name, True)
            dev.button(name, False)


def azul_keys(tmp_path, upto=None):
    """The keys the app tests' Driver presses to play a 2-player engine game (first `upto` events)."""
    import test_app_games as games
    from rules_core import azul_engine
    header, events = azul_engine.random_game(2, 3, "colored")[:2]
    d = games.Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    games.play_azul(d, header, events[:upto])
    return d


def test_the_device_boots_plays_and_resumes_from_the_same_store(tmp_path):
    host = Host()
    dev = device(host)
    assert dev.screen_text().startswith("Azul Companion") and host.frames
    driver = azul_keys(tmp_path, 9)
    enter(dev, driver.keys)
    assert dev.screen_text().split("\n") == driver.app.text()
    text = binascii.unhexlify(dev.record_hex()).decode("utf-8")
    assert text == driver.record()  # the same record bytes as the simulator wrote
    again = device(Host(items=host.items))  # the page reloaded: a new device, the same storage
    assert again.screen_text() == dev.screen_text()
    assert again.backup_paths() == "data/current.jsonl"
    session = replay(text)[0]
    assert again.app.session.scores == session.scores
    enter(again, [BACK | LONG])  # undo, as `u` does
    assert "undone" in again.screen_text()
    assert binascii.unhexlify(again.record_hex()).decode() == text + '{"e": "undo"}\n'


def test_open_record_checks_first_then_files_the_current_game(tmp_path):
    from rules_core import azul_engine
    from rules_core.record import dumps
    host = Host()
    dev = device(host)
    enter(dev, azul_keys(tmp_path, 2).keys)
    mine = dev.record_hex()
    header, events, scores = azul_engine.random_game(2, 11, "colored")[:3]
    good = "".join(dumps(x) + "\n" for x in [header] + list(events)).encode()
    bad = good.replace(b'"floor": ', b'"floor": -', 1)
    bad_line = bad[:bad.index(b'"floor": -')].count(b"\n") + 1
    problem = dev.open_record("bad.jsonl", binascii.hexlify(bad).decode())
    assert problem.startswith("bad.jsonl: line %d: " % bad_line) and "\n" not in problem
    assert dev.record_hex() == mine  # nothing changed
    assert dev.open_record("game.jsonl", binascii.hexlify(good).decode()) == ""
    assert binascii.unhexlify(dev.record_hex()) == good
    assert dev.app.session.finished and dev.app.session.scores == scores
    assert dev.backup_paths().split("\n") == ["data/current.jsonl", "data/history/000001.jsonl"]
    assert dev.file_hex("data/history/000001.jsonl") == mine
    assert device(Host(items=host.items)).backup_paths() == dev.backup_paths()  # kept over a reload
    torn = good + b'{"e": "no'
    assert "incomplete last line" in dev.open_record("torn.jsonl", binascii.hexlify(torn).decode())
    assert binascii.unhexlify(dev.record_hex()) == good  # stored without the torn line


def test_the_page_moves_a_game_filed_into_the_history_and_trims_it_in_its_frames():
    """The page runs the board's idle work (main.idle) in its frames without a key, as the
    board's loop does: the game the final standings' OK filed goes into the history, then
    the history is trimmed to the number of games kept."""
    from rules_core import azul_engine
    from rules_core.record import dumps
    header, events = azul_engine.random_game(2, 11, "colored")[:2]
    good = "".join(dumps(x) + "\n" for x in [header] + list(events))
    dev = device(Host())
    for n in (1, 2, 3):
        dev.storage.write_atomic("data/history/%06d.jsonl" % n, good)
    assert dev.open_record("game.jsonl", binascii.hexlify(good.encode()).decode()) == ""
    assert dev.app.session.finished
    dev.app.settings["history_keep"] = 2
    enter(dev, [OK])  # files the game (the press and the release: the release's frame moves it)
    assert dev.screen_text().startswith("Azul Companion")
    for _ in range(3):
        dev.frame()
    assert dev.backup_paths().split("\n") == ["data/history/000003.jsonl", "data/history/000004.jsonl"]
    assert binascii.unhexlify(dev.file_hex("data/history/000004.jsonl")).decode() == good
