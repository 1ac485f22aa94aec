"""The web page's speed in Chromium: load to first frame, and time per key press.

    .venv/bin/python bench/web_page.py [--loads N] [--picture PNG]

Builds the site (`azul-companion web`), serves it on 127.0.0.1 and drives the system
Chromium with Playwright (tests/web_browser.py), with a phone-sized window.
- first frame: ms from the start of navigation to the first frame the firmware draws on
  the canvas (window.azulCompanion.timings.firstFrame); "cold" is a first visit (a fresh
  profile: nothing cached), "warm" a reload served by the service worker's cache.
- key press: ms from the key event (event.timeStamp) to the end of its handler, which has
  run one turn of the device loop and put the new frame on the canvas; the browser shows
  it at its next paint. Every key of a complete 2-player Azul game (the app tests' Driver).
Measured at full speed and with the CPU throttled 4x (Chromium's own figure for a mid-range
phone). Prints one JSON line per measure; --picture writes a screenshot of the page mid-game.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[0:0] = [os.path.join(ROOT, "tests"), ROOT, os.path.join(ROOT, "firmware")]

import pathlib  # noqa: E402

import test_app_games as games  # noqa: E402
import web_browser as wb  # noqa: E402
from rules_core import azul_engine  # noqa: E402


def summary(name, values):
    values = sorted(values)
    return {"measure": name, "n": len(values), "median_ms": round(statistics.median(values), 2),
            "p95_ms": round(values[int(0.95 * (len(values) - 1))], 2), "max_ms": round(values[-1], 2)}


def page_at(ctx, url, slowdown):
    """A new page whose CPU runs `slowdown` times slower (Chromium's CPU throttling), then the site."""
    page = ctx.new_page()
    if slowdown > 1:
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    wb.wait_ready(page)
    return page


def first_frames(b, url, loads, slowdown):
    cold, warm = [], []
    for _ in range(loads):
        ctx = b.new_context(viewport=wb.PHONE)
        page = page_at(ctx, url, slowdown)
        cold.append(page.evaluate("window.azulCompanion.timings.firstFrame"))
        page.evaluate("navigator.serviceWorker.ready")
        page.reload()
        wb.wait_ready(page)
        warm.append(page.evaluate("window.azulCompanion.timings.firstFrame"))
        ctx.close()
    return cold, warm


def key_presses(b, url, slowdown):
    """ms per key of a whole 2-player Azul game typed on the keyboard."""
    header, events = azul_engine.random_game(2, 3, "colored")[:2]
    d = games.Driver(pathlib.Path(tempfile.mkdtemp(prefix="azul-bench-")))
    d.new_game("Azul", "coloured", 2)
    games.play_azul(d, header, events)
    ctx = b.new_context(viewport=wb.PHONE)
    page = page_at(ctx, url, slowdown)
    wb.press(page, d.keys)
    assert wb.record(page) == d.record(), "the page's game differs from the simulator's"
    times = page.evaluate("window.azulCompanion.timings.keys")
    ctx.close()
    return times, len(d.keys)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--slowdown", type=int, nargs="+", default=[1, 4],
                    help="CPU slowdowns to measure at (Chromium's throttling; 4 is its mid-range phone)")
    ap.add_argument("--picture", help="write a PNG of the page in the middle of a game")
    args = ap.parse_args()
    reason = wb.why_unavailable()
    if reason:
        sys.exit("bench/web_page.py: " + reason)
    with wb.served_site() as url, wb.browser() as b:
        for slowdown in args.slowdown:
            at = "" if slowdown == 1 else ", CPU %dx slower" % slowdown
            cold, warm = first_frames(b, url, args.loads, slowdown)
            print(json.dumps(summary("first frame, first visit" + at, cold)))
            print(json.dumps(summary("first frame, reload (service worker cache)" + at, warm)))
            times, n = key_presses(b, url, slowdown)
            print(json.dumps(summary("key press to frame, %d keys of a 2-player Azul game%s" % (n, at), times)))
        if args.picture:
            picture(b, url, args.picture)


def picture(b, url, path):
    """The page on a phone in round 4 of a game: the Azul wall form, the player's wall on the LEDs."""
    header, events = azul_engine.random_game(2, 3, "colored")[:2]
    d = games.Driver(pathlib.Path(tempfile.mkdtemp(prefix="azul-bench-")))
    d.new_game("Azul", "coloured", 2)
    games.play_azul(d, header, events[:12])
    d.entry("Wall Red")
    d.set("R2", "red")
    ctx = b.new_context(viewport=wb.PHONE, device_scale_factor=2)
    page = wb.open_page(ctx, url)
    wb.press(page, d.keys)
    page.wait_for_timeout(1700)  # no message over the screen
    page.screenshot(path=path)
    ctx.close()
    print(json.dumps({"picture": path}))


if __name__ == "__main__":
    main()
