"""The web page in a real browser: the system Chromium driven by Playwright for Python.

Used by tests/test_web_page.py and bench/web_page.py. No browser is downloaded: Debian's
`chromium` package (.ci/run installs it) runs through `executable_path`; why_unavailable()
says what is missing when it is not there. The network is closed here, so Chromium's own
background traffic is switched off.
"""
import contextlib
import os
import shutil
import tempfile
import threading

from hal.keys import UP, DOWN, LEFT, RIGHT, OK, BACK, LONG
from host_tools import web

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}  # a phone held upright, in CSS pixels
KEYBOARD = {UP: "ArrowUp", DOWN: "ArrowDown", LEFT: "ArrowLeft", RIGHT: "ArrowRight",
            OK: "Enter", BACK: "Escape", BACK | LONG: "u"}
BUTTON = {UP: "UP", DOWN: "DOWN", LEFT: "LEFT", RIGHT: "RIGHT", OK: "OK", BACK: "BACK"}


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def why_unavailable():
    """None when the page can be tested here, else the reason."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[dev]')"
    if chromium() is None:
        return "no chromium on PATH (apt-get install chromium; .ci/run installs it)"
    missing = [n for n in web.RUNTIME_FILES if not os.path.isfile(os.path.join(web.RUNTIME, n))]
    if missing:
        return "the MicroPython webassembly runtime is not installed (npm install)"
    return None


@contextlib.contextmanager
def served_site():
    """Build the site into a temporary folder and serve it on 127.0.0.1; yields its URL."""
    site = tempfile.mkdtemp(prefix="azul-web-site-")
    web.build(site)
    httpd = web.server(site, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d/" % httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()
        shutil.rmtree(site, ignore_errors=True)


@contextlib.contextmanager
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium(), args=ARGS)
        try:
            yield b
        finally:
            b.close()


def open_page(context, url):
    """A page of the site, once its device has drawn its first frame; page errors fail."""
    page = context.new_page()
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.errors = []
    page.goto(url)
    wait_ready(page)
    return page


def wait_ready(page):
    page.wait_for_function("window.azulCompanion !== undefined")  # (the page's module has run)
    page.evaluate("window.azulCompanion.ready")
    assert not page.errors, page.errors


def screen(page):
    return page.evaluate("window.azulCompanion.screenText()")


def record(page):
    return page.evaluate("window.azulCompanion.record()")


def press(page, keys):
    """Key events (hal.keys codes) as key presses on the keyboard."""
    for k in keys:
        page.keyboard.press(KEYBOARD[k])


def click(page, keys):
    """Key events as clicks on the page's buttons."""
    for k in keys:
        page.click("#pad button[data-key=%s]" % BUTTON[k])
