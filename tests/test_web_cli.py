"""`azul-companion web`: the site it writes, the server, and one line for each mistake."""
import json
import os
import subprocess
import sys
import urllib.request

import pytest

from host_tools import web

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
needs_runtime = pytest.mark.skipif(not os.path.isfile(os.path.join(web.RUNTIME, "micropython.wasm")),
                                   reason="the MicroPython webassembly runtime is not installed (npm install)")


def cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "host_tools", "web"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@needs_runtime
def test_out_writes_a_self_contained_site(tmp_path):
    out = tmp_path / "site"
    done = cli("--out", str(out))
    assert done.returncode == 0, done.stderr
    names = sorted(os.listdir(out))
    assert names == sorted(web.PAGE_FILES + web.RUNTIME_FILES + (web.FIRMWARE_BUNDLE, web.WORDS, web.SERVICE_WORKER))
    bundle = json.loads((out / web.FIRMWARE_BUNDLE).read_text())
    from host_tools.flash import source_files
    want = {dest[:-3] + ".mpy" for _, dest in source_files()} | {"webhal.mpy", "webmain.mpy"}
    assert set(bundle) == want
    worker = (out / web.SERVICE_WORKER).read_text()
    assert "__" not in worker  # VERSION and FILES filled in
    cached = json.loads(worker.split("const FILES = ", 1)[1].split(";", 1)[0])
    assert all(n == "./" or (out / n).is_file() for n in cached) and web.FIRMWARE_BUNDLE in cached
    for name in ("index.html", "azul.js", "sw.js"):  # nothing from elsewhere
        text = (out / name).read_text()
        assert "http://" not in text and "https://" not in text


@needs_runtime
def test_serve_answers_on_localhost(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "web", "--serve", "--port", "0", "--out",
                             str(tmp_path / "site")], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL)
    try:
        line = proc.stdout.readline()
        while line and not line.startswith("serving on "):
            line = proc.stdout.readline()
        url = line.split()[2]
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url, timeout=30) as r:
            assert b'src="azul.js"' in r.read()
        with urllib.request.urlopen(url + "micropython.wasm", timeout=30) as r:
            assert r.headers["Content-Type"] == "application/wasm" and r.read(4) == b"\0asm"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_mistakes_get_one_line(monkeypatch, tmp_path, capsys):
    for args in ([], ["--serve", "--port", "70000"]):
        done = cli(*args)
        assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert done.stderr.startswith("azul-companion web: ")
    from host_tools import cli as main_cli
    monkeypatch.setattr(web, "RUNTIME", str(tmp_path / "nowhere"))
    assert main_cli.main(["web", "--out", str(tmp_path / "site")]) == 1
    err = capsys.readouterr().err
    assert "npm install" in err and len(err.strip().splitlines()) == 1
