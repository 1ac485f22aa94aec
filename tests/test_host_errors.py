"""Every mistake a user can make with a host command (bad arguments, no board, a broken
record) ends in exactly one line on stderr and a non-zero exit, never a traceback."""
import os
import socket
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOOD = os.path.join(ROOT, "tests", "oracles", "azul-random-games", "azul_2p_5000.jsonl")
HEADER = ('{"format": "azul-companion-record", "v": 1, "game": "azul", "variant": "colored", '
          '"players": ["A", "B"], "options": {}}\n')
RECORDS = {
    # Azul's wall has no pink (rulebook: five colours)
    "colour.jsonl": HEADER + '{"e": "wall", "p": 0, "tiles": [[1, "pink"]], "floor": 0}\n',
    # one wall-tiling per player per round (RECORD_FORMAT.md, azul)
    "twice.jsonl": HEADER + '{"e": "wall", "p": 0, "tiles": [], "floor": 0}\n'
                            '{"e": "wall", "p": 0, "tiles": [], "floor": 0}\n',
    "garbage.jsonl": "this is not a record\n",
    # RECORD_FORMAT.md "File": arrays/objects nest at most 32 deep
    "deep.jsonl": HEADER + "[" * 5000 + "]" * 5000 + "\n",
    "deephead.jsonl": HEADER.replace('"options": {}', '"options": %s' % ("{\"x\": " * 2000 + "1" + "}" * 2000)),
}


def closed_socket_url():
    """A loopback port with nobody listening (bound once, then released)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return "socket://127.0.0.1:%d" % port


# (arguments, start of the one stderr line); {tmp} is a fresh folder, {socket} a dead port
CASES = [
    (["flash", "--driver", "nope"], "azul-companion flash: error: argument --driver"),
    (["flash", "--port", "{tmp}/no-such-port"], "azul-companion flash: no board at {tmp}/no-such-port"),
    (["flash", "--port", "{socket}"], "azul-companion flash: no board at socket://"),
    (["flash", "--port", os.devnull], "azul-companion flash: %s is not a serial port" % os.devnull),
    (["flash", "--board", "nope", "--dry-run"], "azul-companion flash: unknown board 'nope'"),
    (["pull", "--port", "{tmp}/no-such-port", "--to", "{tmp}/out"], "azul-companion pull: no board at"),
    (["pull", "--port", "{socket}", "--to", "{tmp}/out"], "azul-companion pull: no board at socket://"),
    (["pull", "--to"], "azul-companion pull: error: argument --to"),
    (["export", "{tmp}/colour.jsonl", "--to", "csv"], "azul-companion export: {tmp}/colour.jsonl: line 2:"),
    (["export", "{tmp}/garbage.jsonl", "--to", "json"], "azul-companion export: {tmp}/garbage.jsonl: line 1:"),
    (["export", "{tmp}/missing.jsonl", "--to", "html"], "azul-companion export: cannot read {tmp}/missing.jsonl"),
    (["export", GOOD, "--to", "pdf"], "azul-companion export: error: argument --to"),
    (["export", GOOD, "--to", "csv", "--out", "{tmp}/colour.jsonl/x.csv"], "azul-companion export: cannot write"),
    (["vboard", "--no-pty"], "azul-companion vboard: --no-pty needs --tcp PORT"),
    (["vboard", "--board", "nope", "--data", "{tmp}/flash"], "azul-companion vboard: unknown board 'nope'"),
    (["vboard", "--heap", "lots", "--data", "{tmp}/flash"], "azul-companion vboard: --heap 'lots'"),
    (["vboard", "--tcp", "70000", "--data", "{tmp}/flash"], "azul-companion vboard: --tcp 70000"),
    (["vboard", "--data", "{tmp}/colour.jsonl/flash"], "azul-companion vboard: cannot start: {tmp}/colour.jsonl"),
    (["sim", "--script", "UP PUSH"], "azul-companion sim: unknown key 'PUSH'"),
    (["sim", "--board", "nope", "--script", "OK"], "azul-companion sim: unknown board 'nope'"),
    (["sim", "--script", "DOWN*x"], "azul-companion sim: bad repeat count"),
    (["replay", "{tmp}/colour.jsonl"], "azul-companion replay: {tmp}/colour.jsonl: line 2: unknown colour 'pink'"),
    (["replay", "{tmp}/twice.jsonl"], "azul-companion replay: {tmp}/twice.jsonl: line 3:"),
    (["replay", "{tmp}/garbage.jsonl"], "azul-companion replay: {tmp}/garbage.jsonl: line 1: not valid JSON"),
    (["replay", "{tmp}/missing.jsonl"], "azul-companion replay: cannot read {tmp}/missing.jsonl"),
    (["replay"], "azul-companion replay: error: the following arguments are required"),
    (["replay", "{tmp}/deep.jsonl"], "azul-companion replay: {tmp}/deep.jsonl: line 2: arrays/objects nested deeper than 32"),
    (["replay", "{tmp}/deephead.jsonl"], "azul-companion replay: {tmp}/deephead.jsonl: line 1: arrays/objects nested"),
    (["export", "{tmp}/deep.jsonl", "--to", "html"], "azul-companion export: {tmp}/deep.jsonl: line 2: arrays/objects"),
    (["export", "{tmp}/deephead.jsonl", "--to", "bgstats"], "azul-companion export: {tmp}/deephead.jsonl: line 1: arrays"),
    (["replay", "/dev/zero"], "azul-companion replay: /dev/zero: line 1: longer than 65536 bytes"),
    (["export", "/dev/zero", "--to", "csv"], "azul-companion export: /dev/zero: line 1: longer than 65536 bytes"),
    (["export", "{tmp}/colour.jsonl", "--to", "csv", "--out", "{tmp}/colour.jsonl"],
     "azul-companion export: --out {tmp}/colour.jsonl is one of the records read; refusing to overwrite it"),
]


@pytest.mark.parametrize("args,start", CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_one_line_and_a_failing_exit(tmp_path, args, start):
    for name, text in RECORDS.items():
        (tmp_path / name).write_text(text)
    fill = {"tmp": str(tmp_path), "socket": closed_socket_url()}
    argv = [a.format(**fill) for a in args]
    r = subprocess.run([sys.executable, "-m", "host_tools"] + argv, capture_output=True, text=True,
                       cwd=str(tmp_path), timeout=120, stdin=subprocess.DEVNULL)
    assert r.returncode != 0, r.stdout
    assert "Traceback" not in r.stderr + r.stdout
    assert r.stderr.count("\n") == 1 and r.stderr.endswith("\n"), r.stderr
    assert r.stderr.startswith(start.format(**fill)), r.stderr


@pytest.mark.parametrize("args", [
    ["simulate", "--game", "azul", "--players", "2", "--out", "/proc/no-such-dir/x.jsonl"],
    ["sim", "--data", "/proc/no-such-dir", "--script", "OK"],
])
def test_unwritable_output_is_one_line(args):
    """A file the user names that cannot be written: one line naming it, exit 1, no traceback."""
    r = subprocess.run([sys.executable, "-m", "host_tools"] + args, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "/proc/no-such-dir" in r.stderr, r.stderr


def limited(address_space=None, file_size=None):
    """preexec_fn: the child may map at most `address_space` bytes / write files of at most
    `file_size` bytes (a write past it fails with EFBIG; Python ignores SIGXFSZ)."""
    import resource

    def apply():
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        if file_size:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    return apply


@pytest.mark.parametrize("command", [["replay"], ["export", "--to", "html"]])
def test_a_1_gb_line_is_refused_in_bounded_memory(tmp_path, command):
    """A 1 GB file of one line (sparse: zero bytes, no newline) under a 400 MB address-space
    limit: read in bounded pieces, it ends in one line, fast, not in MemoryError."""
    big = tmp_path / "big.jsonl"
    with open(str(big), "wb") as f:
        f.truncate(1 << 30)
    r = subprocess.run([sys.executable, "-m", "host_tools", command[0], str(big)] + command[1:],
                       capture_output=True, text=True, timeout=60, preexec_fn=limited(address_space=400 << 20))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr == "azul-companion %s: %s: line 1: longer than 65536 bytes\n" % (command[0], big)
