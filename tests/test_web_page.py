"""The device as a web page, in Chromium: the same firmware files on MicroPython webassembly.

`azul-companion web` builds the site; it is served on 127.0.0.1 and driven by Playwright
with the system Chromium (tests/web_browser.py). The keys come from the app tests' Driver
playing the same game in the simulator (CPython), so the page must end on the same screen
and write the same record bytes as the simulator did.
"""
import json
import subprocess
import sys
import zipfile

import pytest

import test_app_games as games
import web_browser as wb
from hal.keys import NAMES, CODE_MASK, LONG, OK
from rules_core import azul_engine
from rules_core.session import replay

pytestmark = pytest.mark.skipif(wb.why_unavailable() is not None, reason=str(wb.why_unavailable()))

WAIT_MS = 2100  # the simulator's `wait` lets 2 s pass; a message shows 4 s: two of them


@pytest.fixture(scope="module")
def url():
    with wb.served_site() as u:
        yield u


@pytest.fixture(scope="module")
def chromium():
    with wb.browser() as b:
        yield b


@pytest.fixture
def context(chromium):
    ctx = chromium.new_context(viewport=wb.PHONE)
    yield ctx
    ctx.close()


def driver_game(tmp_path, seed, checkpoint=None):
    """A 2-player Azul engine game played by the Driver in the simulator: (driver, the
    engine's scores, the keys up to the checkpoint, the screen there). The Driver waits at
    the checkpoint and at the end, so that no message covers the screen."""
    header, events, scores = azul_engine.random_game(2, seed, "colored")[:3]
    if checkpoint is None:
        checkpoint = len(events)
    d = games.Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    games.play_azul(d, header, events[:checkpoint])
    d.wait()
    d.wait()
    mid, mid_screen = list(d.keys), d.app.text()
    games.play_azul(d, header, events[checkpoint:])
    d.wait()
    d.wait()
    return d, scores, mid, mid_screen


def play(page, keys, how=wb.press):
    """Key events into the page; None (the Driver's wait) lets the messages time out."""
    for k in keys:
        if k is None:
            page.wait_for_timeout(WAIT_MS)
        else:
            how(page, [k])


def check_final(page, d, scores):
    """The page shows what the simulator showed; its record is the simulator's, byte for
    byte, and replays (rules_core on CPython) to the scores on the page and the engine's."""
    shown = wb.screen(page)
    assert shown == d.app.text()
    text = wb.record(page)
    assert text == d.record()
    session = replay(text)[0]
    r = session.result()
    assert r["finished"] and r["scores"] == scores
    for rank, p in session.standings()[:len(shown) - 1]:
        assert any(line.startswith("%d %-7s%4d" % (rank, session.players[p][:7], r["scores"][p])) for line in shown), shown


def test_a_game_by_key_presses_survives_a_reload(context, url, tmp_path):
    d, scores, mid, mid_screen = driver_game(tmp_path, 3, checkpoint=14)
    page = wb.open_page(context, url)
    assert wb.screen(page)[0] == "Azul Companion"
    play(page, mid)
    assert wb.screen(page) == mid_screen
    page.reload()
    wb.wait_ready(page)
    assert wb.screen(page) == mid_screen  # the same scoreboard, resumed from localStorage
    play(page, d.keys[len(mid):])
    check_final(page, d, scores)


def test_a_game_by_clicking_the_buttons(context, url, tmp_path):
    d, scores = driver_game(tmp_path, 8)[:2]
    page = wb.open_page(context, url)
    play(page, d.keys, wb.click)
    check_final(page, d, scores)


def simulate(tmp_path, seed):
    path = tmp_path / ("azul_2p_%d.jsonl" % seed)
    subprocess.run([sys.executable, "-m", "host_tools", "simulate", "--game", "azul", "--players", "2",
                    "--seed", str(seed), "--out", str(path)], check=True, capture_output=True, timeout=120)
    return path


def open_record(page, path):
    """Open a file with the page's "Open a record"; the status line it answers with."""
    page.evaluate("document.getElementById('status').textContent = ''")
    page.set_input_files("#open-record", str(path))
    page.wait_for_function("document.getElementById('status').textContent !== ''")
    return page.inner_text("#status")


def test_open_a_simulated_record_then_download_it_and_the_history(context, url, tmp_path):
    """A record from `azul-companion simulate` opens as the current game; the game it
    replaces goes into the history; the downloads hold the stored bytes, laid out as `pull`."""
    page = wb.open_page(context, url)
    d = games.Driver(tmp_path / "sim")
    d.new_game("Azul", "coloured", 2)
    wb.press(page, d.keys)
    first = wb.record(page)
    assert first == d.record()

    bad = tmp_path / "bad.jsonl"
    bad.write_text(first + '{"e": "first", "p": 7}\n', encoding="utf-8")
    assert open_record(page, bad).startswith("bad.jsonl: line 2: ")  # one line: the file and the line
    assert wb.record(page) == first

    path = simulate(tmp_path, 4)
    text = path.read_text(encoding="utf-8")
    assert open_record(page, path) == "opened %s" % path.name
    assert wb.record(page) == text
    session = replay(text)[0]
    r = session.result()
    shown = wb.screen(page)
    assert shown[0] == "Azul final"
    for rank, p in session.standings():
        assert "%d %-7s%4d" % (rank, session.players[p][:7], r["scores"][p]) in shown

    with page.expect_download() as info:
        page.click("#download-record")
    assert info.value.suggested_filename.endswith(".jsonl")
    assert open(info.value.path(), encoding="utf-8").read() == text
    with page.expect_download() as info:
        page.click("#download-history")
    with zipfile.ZipFile(info.value.path()) as z:
        assert z.testzip() is None  # every CRC right
        assert z.namelist() == ["current.jsonl", "history/000001.jsonl"]
        assert z.read("current.jsonl").decode() == text
        assert z.read("history/000001.jsonl").decode() == first

    # undo twice: `u` on the keyboard, then BACK held on the screen past the long press
    page.keyboard.press("u")
    page.hover("#pad button[data-key=BACK]")
    page.mouse.down()
    page.wait_for_timeout(800)  # the firmware's long press is 600 ms
    page.mouse.up()
    assert wb.record(page) == text + '{"e": "undo"}\n' * 2
    assert replay(wb.record(page))[0].result()["finished"] is False


def sim_picture(tmp_path, keys):
    """The simulator's --screenshot of the screen after these keys (4x, LEDs under it)."""
    from PIL import Image
    script = " ".join(NAMES[k & CODE_MASK] + (":long" if k & LONG else "") for k in keys)
    png = tmp_path / "sim.png"
    subprocess.run([sys.executable, "-m", "host_tools", "sim", "--script", script, "--data",
                    str(tmp_path / "sim-data"), "--screenshot", str(png)],
                   check=True, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    return Image.open(png).convert("RGB")


def test_the_page_draws_the_simulators_picture(context, url, tmp_path):
    """The Azul wall form with a tile set: the same 128x64 pixels on the canvas as in the
    simulator's screenshot, and the same colour in each of the 25 LEDs (the wall)."""
    import io
    from PIL import Image
    d = games.Driver(tmp_path / "drv")
    d.new_game("Azul", "coloured", 2)
    d.entry("Wall Red")
    d.set("R2", "yellow")
    d.set("R1", "blue")
    sim = sim_picture(tmp_path, d.keys)
    page = wb.open_page(context, url)
    wb.press(page, d.keys)
    page.wait_for_timeout(2 * WAIT_MS)  # the message gone, as sim --script lets it go
    box = page.evaluate("""(() => { const c = document.getElementById('oled'), r = c.getBoundingClientRect();
        return {x: r.x + c.clientLeft, y: r.y + c.clientTop, width: c.clientWidth, height: c.clientHeight}; })()""")
    shot = Image.open(io.BytesIO(page.screenshot(clip=box))).convert("L")
    s = shot.width // 128
    assert shot.size == (128 * s, 64 * s) and s >= 2  # whole device pixels per OLED pixel
    page_px = [[shot.getpixel((x * s + s // 2, y * s + s // 2)) > 128 for x in range(128)] for y in range(64)]
    sim_px = [[sum(sim.getpixel((x * 4 + 2, y * 4 + 2))) > 384 for x in range(128)] for y in range(64)]
    assert page_px == sim_px
    assert 300 < sum(map(sum, page_px)) < 128 * 64 - 300  # a real screen, neither blank nor full
    dots = page.evaluate("[...document.querySelectorAll('#leds .led')].map(e => getComputedStyle(e).backgroundColor)")
    sim_leds = ["rgb(%d, %d, %d)" % sim.getpixel((8 + (i % 5) * 24 + 9, 256 + 8 + (i // 5) * 24 + 9))
                for i in range(25)]
    assert dots == sim_leds
    assert len(set(dots)) >= 3  # the wall shows colours, not one shade


def test_it_starts_offline_once_visited(context, url):
    """Nothing is fetched from anywhere but the site; the service worker caches all of it,
    so with the network gone a reload still boots the device. The manifest names what an
    installed app needs, and the six buttons fit a phone held upright, large enough to tap."""
    requested = []
    context.on("request", lambda r: requested.append(r.url))
    page = wb.open_page(context, url)
    for name in wb.BUTTON.values():
        box = page.locator("#pad button[data-key=%s]" % name).bounding_box()
        assert box["height"] >= 60 and box["width"] >= 60
        assert box["x"] >= 0 and box["x"] + box["width"] <= wb.PHONE["width"]
        assert box["y"] + box["height"] <= wb.PHONE["height"]
    wb.press(page, [OK])
    menu = wb.screen(page)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    manifest = page.evaluate("fetch('manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
    context.set_offline(True)
    try:
        page.reload()
        wb.wait_ready(page)
        assert wb.screen(page)[0] == "Azul Companion"  # booted again, from the cache
        assert page.evaluate("navigator.serviceWorker.controller !== null")
    finally:
        context.set_offline(False)
    assert menu != wb.screen(page)
    assert requested and all(u.startswith(url) for u in requested), requested


def fill_storage(page):
    """localStorage filled to its quota for real (junk keys); how many were written."""
    return page.evaluate("""(() => { let n = 0, size = 1 << 20;
        while (size >= 16) { try { localStorage.setItem('junk' + n, 'x'.repeat(size)); n++; }
                            catch (e) { size >>= 1; } }
        return n; })()""")


def free_storage(page):
    page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('junk')).forEach(k => localStorage.removeItem(k))")


def first_marker_game(tmp_path):
    """A 2-player Azul game whose last keys enter its first entry (the first player marker
    to Blue): the Driver and where those keys start."""
    d = games.Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    start = len(d.keys)
    d.entry("First marker")
    d.choose("Blue")
    return d, start


def test_a_full_browser_storage_says_so_and_keeps_the_record(context, url, tmp_path):
    """localStorage filled to its quota for real: an entry that cannot be stored says
    "not saved: storage full" and is not applied; the stored record stays whole, and with
    room again the same OK on the same open screen saves it; a reload resumes the game."""
    d, start = first_marker_game(tmp_path)
    page = wb.open_page(context, url)
    wb.press(page, d.keys[:start])
    before = wb.record(page)
    filled = fill_storage(page)
    assert filled > 0
    wb.press(page, d.keys[start:])
    shown = " ".join(wb.screen(page))
    assert "not saved: storage full" in shown, shown  # the ENOSPC from localStorage, said plainly
    assert wb.record(page) == before
    free_storage(page)
    wb.press(page, d.keys[-1:])  # the same screen, still open on the same choice: OK again
    assert wb.record(page) == before + '{"e": "first", "p": 1}\n' == d.record()
    page.reload()
    wb.wait_ready(page)
    assert wb.record(page) == d.record()
    assert replay(d.record())[0].result()["round"] == 1


def test_a_second_tab_writes_nothing_until_it_takes_the_device_over(context, url, tmp_path):
    """Two tabs of the site: the second says the device is open elsewhere and runs nothing
    (its keys write nothing); its "Use it here" takes the device over, the game resumed
    there, and the first tab then says so and writes nothing: never two writers."""
    d = games.Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    first = wb.open_page(context, url)
    wb.press(first, d.keys)
    record = wb.record(first)
    second = wb.open_page(context, url)
    assert second.is_visible("#busy") and "open in another tab" in second.inner_text("#busy")
    assert wb.screen(second) == []
    wb.press(second, [OK, OK])
    assert wb.record(first) == record
    second.click("#take-over")
    wb.wait_ready(second)
    assert not second.is_visible("#busy") and wb.screen(second)[0].startswith("Azul R1")
    first.wait_for_selector("#busy", state="visible")
    wb.press(first, [OK, OK, OK])  # the first tab's keys go nowhere now
    assert wb.record(second) == record
    wb.press(second, [OK])  # the entry menu, in the tab that has the device
    assert wb.screen(second)[0] == "Round 1"


def test_site_storage_cleared_mid_game_offers_a_new_game(context, url, tmp_path):
    """The browser's storage for the site cleared while a game is open: the next entry says
    the record is gone and the main menu offers a new game, instead of refusing every key."""
    d = first_marker_game(tmp_path)[0]
    page = wb.open_page(context, url)
    wb.press(page, d.keys[:-1])
    page.evaluate("localStorage.clear()")
    wb.press(page, d.keys[-1:])
    shown = " ".join(wb.screen(page))
    assert "record is gone from storage" in shown and "New game" in shown, shown
    assert wb.record(page) == ""


def test_open_a_record_refuses_a_huge_file_at_once_and_a_full_storage_keeps_the_game(context, url, tmp_path):
    """A 30 MB file is refused in a moment, by its size; a record the full storage has no
    room for says "storage full", and the game in play stays, with no .tmp left behind."""
    import time
    page = wb.open_page(context, url)
    d = games.Driver(tmp_path / "sim")
    d.new_game("Azul", "coloured", 2)
    wb.press(page, d.keys)
    first = wb.record(page)
    huge = tmp_path / "huge.jsonl"
    huge.write_bytes(first.encode() * (30 * 1024 * 1024 // len(first)))
    t0 = time.monotonic()
    said = open_record(page, huge)
    assert said.startswith("huge.jsonl not opened: ") and time.monotonic() - t0 < 3
    path = simulate(tmp_path, 4)
    fill_storage(page)
    assert open_record(page, path) == "%s not opened: storage full" % path.name
    free_storage(page)
    assert wb.record(page) == first
    keys = page.evaluate("Object.keys(localStorage)")
    assert not [k for k in keys if k.endswith(".tmp")], keys


def test_the_page_opened_from_a_file_says_how_to_serve_it(context, tmp_path):
    """index.html double-clicked (file://): the browser loads no module from a file, so the
    page says in its status line what to run instead of waiting on "starting MicroPython"."""
    from host_tools import web
    site = tmp_path / "site"
    web.build(str(site))
    page = context.new_page()
    page.goto((site / "index.html").as_uri())
    page.wait_for_timeout(1000)
    status = page.inner_text("#status")
    assert "azul-companion web --serve" in status and "python3 -m http.server" in status, status
    assert "starting MicroPython" not in status


def test_the_page_speaks_the_browsers_language_until_one_is_chosen(chromium, url):
    """A Traditional Chinese browser: the device and the page's own words in 繁體中文; Settings
    > Language > English then turns both to English, and a reload keeps it (the settings)."""
    from hal.keys import UP, DOWN
    ctx = chromium.new_context(viewport=wb.PHONE, locale="zh-TW")
    try:
        page = wb.open_page(ctx, url)
        assert wb.screen(page)[:5] == ["Azul Companion", "新遊戲", "檢查分數", "歷史紀錄", "設定"]
        assert page.inner_text("#download-record") == "下載紀錄"
        assert page.evaluate("document.documentElement.lang") == "zh-Hant"
        assert page.get_attribute("[data-key=UP]", "aria-label") == "上"
        # main menu: Settings; its last item: Language; the chosen one (繁體中文) under the
        # cursor: UP to English, OK saves it
        wb.press(page, [DOWN, DOWN, DOWN, OK] + [UP, OK])
        assert wb.screen(page)[0] == "語言" and wb.screen(page)[1:] == ["English", "繁體中文", "日本語"]
        wb.press(page, [UP, OK])
        assert wb.screen(page)[:2] == ["Azul Companion", "New game"]
        assert page.inner_text("#download-record") == "Download record"
        page.reload()
        wb.wait_ready(page)
        assert wb.screen(page)[1] == "New game" and page.inner_text("#download-record") == "Download record"
    finally:
        ctx.close()


def test_check_a_score_on_the_page_works_out_what_a_board_leaves_to_it(context, url, tmp_path):
    """The page runs the device's Check a score (app.check): a wall of 14 touching tiles,
    whose fewest a board leaves to the page, has both ends of its range worked out here, in
    the page's idle frames, as the simulator (CPython) works them out."""
    from rules_core.verify import Check, parse_wall
    import test_app_check as check
    wall = "xxxxx,xxxxx,xx...,xx...,....."
    d = games.Driver(tmp_path)
    check.open_check(d)
    check.enter_wall(d, wall)
    check.to_claim(d, 50)
    d.press(games.DOWN)
    d.press(OK)
    c = Check(parse_wall(wall))
    c.run()
    page = wb.open_page(context, url)
    wb.press(page, d.keys)
    page.wait_for_function("window.azulCompanion.screenText()[1].startsWith('placed')", timeout=120000)
    assert wb.screen(page) == ["Claim 50", "placed %d..%d" % (c.placement.low, c.placement.high),
                               "bonus +%d" % c.bonus, "total %d..%d" % (c.low, c.high), "50: plausible"]
