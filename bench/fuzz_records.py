"""Bad-record fuzzer: mutated records of every title must replay or fail with "line N: ...".

    .venv/bin/python bench/fuzz_records.py --cases 10000 [--seed 1] [--timeout 2]

Each case takes a valid record (tests/golden/*.jsonl and an Azul oracle record), applies one
or more mutations chosen with rules_core.rng.Rng (wrong types, unknown events, out-of-range
numbers, impossible cards/tiles, events after the end, non-UTF-8 bytes, huge lines,
truncation, duplication, deletion, swapped lines) and replays it. Outcomes:
  ok          replay returned a session (the mutation was legal, or a torn last line)
  line_error  a ValueError whose message starts "line N: " with N a line of the record
  bad_error   a ValueError without the "line N: " prefix (a finding)
  crash       any other exception (a finding)
  timeout     a case that ran longer than --timeout seconds (a finding)
Prints one JSON line: cases, counts by outcome, slowest case, first findings.
"""
import glob
import json
import os
import signal
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rules_core.session import replay  # noqa: E402
from rules_core.rng import Rng  # noqa: E402

ODD_VALUES = [None, True, False, -1, 0, 1, 2, 5, 6, 7, 99, -2**31, 2**40, 1.5, "1", "", "blue",
              "nosuchcolour", [], [1], [[1, "blue"]], [[9, "red"]], [[1, "blue", "x"]], {},
              {"a": 1}, [None], [[0, 0]], [["x", "y"]], "\u00e9\u2713", 10 ** 30]
ODD_EVENTS = ["wall", "first", "end_round", "play", "new_deck", "window", "broken", "leftover",
              "buy", "pass", "round_score", "reserve", "garden", "undo", "redo", "note",
              "nosuch", "", "WALL", "end"]


class CaseTimeout(Exception):
    pass


def records():
    paths = sorted(glob.glob(os.path.join(ROOT, "tests", "golden", "*.jsonl")))
    paths.append(os.path.join(ROOT, "tests", "oracles", "azul-random-games", "azul_3p_6000.jsonl"))
    out = []
    for p in paths:
        with open(p, "rb") as f:
            out.append((os.path.basename(p), f.read().split(b"\n")[:-1]))
    return out


def _mutate_value(rng, value):
    """A nearby wrong value: an odd constant, or a change inside a list/dict."""
    if type(value) is list and value and rng.randbelow(2):
        value = list(value)
        i = rng.randbelow(len(value))
        value[i] = _mutate_value(rng, value[i])
        return value
    if type(value) is dict and value and rng.randbelow(2):
        value = dict(value)
        k = sorted(value)[rng.randbelow(len(value))]
        value[k] = _mutate_value(rng, value[k])
        return value
    if type(value) is int and rng.randbelow(2):
        return value + rng.randbelow(21) - 10
    return rng.choice(ODD_VALUES)


def _mutate_object(rng, obj):
    obj = dict(obj)
    kind = rng.randbelow(5)
    keys = sorted(obj)
    if kind == 0 and keys:            # wrong value for an existing field
        k = rng.choice(keys)
        obj[k] = _mutate_value(rng, obj[k])
    elif kind == 1 and keys:          # a field missing
        del obj[rng.choice(keys)]
    elif kind == 2:                   # an unknown or different event name
        obj["e"] = rng.choice(ODD_EVENTS)
    elif kind == 3:                   # an extra field
        obj[rng.choice(["x", "p", "n", "tiles", "cards", "col", "floor"])] = rng.choice(ODD_VALUES)
    else:                             # the player index out of range
        obj["p"] = rng.choice([-1, 5, 6, 99, "0", None, 1.0])
    return obj


def mutate(rng, lines):
    """One mutation of a list of byte lines; returns (name, new lines, trailing newline?)."""
    lines = list(lines)
    n = len(lines)
    i = rng.randbelow(n)
    kind = rng.randbelow(11)
    newline = True
    if kind in (0, 1):
        name = "field" if kind == 0 else "header"
        i = i if kind == 0 else 0
        try:  # an earlier mutation may have broken the line already: then leave it
            obj = json.loads(lines[i].decode("utf-8"))
            if type(obj) is dict:
                lines[i] = json.dumps(_mutate_object(rng, obj)).encode("utf-8")
        except ValueError:
            pass
    elif kind == 2:
        name = "after_end"  # the game's events again once it has ended
        lines += lines[1 + rng.randbelow(n - 1):] if n > 1 else []
    elif kind == 3:
        name = "non_utf8"
        line = bytearray(lines[i])
        line[rng.randbelow(len(line) + 1) if line else 0:0] = rng.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\x80\x80"])
        lines[i] = bytes(line)
    elif kind == 4:
        name = "huge_line"
        pad = b" " * (50000 + rng.randbelow(200000))
        lines[i] = lines[i][:-1] + b', "pad": "' + pad + b'"}' if rng.randbelow(2) else pad + b"x"
    elif kind == 5:
        name = "truncate_bytes"
        data = b"\n".join(lines) + b"\n"
        cut = rng.randbelow(len(data))
        lines = data[:cut].split(b"\n")
        newline = lines[-1] == b""
        lines = lines[:-1] if newline else lines
    elif kind == 6:
        name = "duplicate"
        lines.insert(i, lines[i])
    elif kind == 7:
        name = "delete"
        del lines[i]
    elif kind == 8:
        name = "swap"
        j = rng.randbelow(n)
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 9:
        name = "garbage_line"
        lines.insert(i, rng.choice([b"", b"   ", b"[]", b"null", b"{", b"{}", b'{"e": 1}', b'"x"',
                                    b"\x00\x01", b'{"e": "undo"}', b'{"e": "redo"}', b'{"e": "note"}']))
    else:
        name = "flip_byte"
        line = bytearray(lines[i])
        if line:
            k = rng.randbelow(len(line))
            line[k] = (line[k] + 1 + rng.randbelow(255)) & 0xFF
        lines[i] = bytes(line)
    return name, lines, newline


def run_case(lines, newline):
    """Replay byte lines as a file read in binary gives them; returns the outcome name."""
    source = [l + b"\n" for l in lines]
    if not newline and source:
        source[-1] = source[-1][:-1]
    try:
        replay(source)
        return "ok", None
    except ValueError as e:
        msg = str(e)
        head = msg.split(":", 1)[0]
        if head.startswith("line ") and head[5:].isdigit() and 1 <= int(head[5:]) <= max(1, len(lines)):
            return "line_error", None
        return "bad_error", "%s: %s" % (type(e).__name__, msg[:200])
    except CaseTimeout:
        raise
    except Exception as e:  # noqa: BLE001  (any other exception is what we hunt for)
        return "crash", "%s: %s" % (type(e).__name__, str(e)[:200])


def _alarm(signum, frame):
    raise CaseTimeout()


def fuzz(cases, seed=1, timeout=2.0):
    rng = Rng(seed)
    recs = records()
    counts = {"ok": 0, "line_error": 0, "bad_error": 0, "crash": 0, "timeout": 0}
    by_mutation = {}
    findings = []
    slowest = (0.0, None)
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for case in range(cases):
            title, lines = recs[case % len(recs)]
            names = []
            newline = True
            for _ in range(1 + rng.randbelow(3)):
                name, lines, nl = mutate(rng, lines)
                newline = newline and nl
                names.append(name)
                if not lines:
                    break
            t0 = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                outcome, detail = run_case(lines, newline)
            except CaseTimeout:
                outcome, detail = "timeout", None
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            dt = time.perf_counter() - t0
            counts[outcome] += 1
            by_mutation.setdefault("+".join(names), 0)
            by_mutation["+".join(names)] += 1
            if dt > slowest[0]:
                slowest = (dt, {"case": case, "record": title, "mutations": names})
            if outcome in ("bad_error", "crash", "timeout") and len(findings) < 20:
                findings.append({"case": case, "record": title, "mutations": names,
                                 "outcome": outcome, "detail": detail})
    finally:
        signal.signal(signal.SIGALRM, old)
    return {"cases": cases, "seed": seed, "counts": counts,
            "slowest": dict(slowest[1] or {}, seconds=round(slowest[0], 4)),
            "mutation_kinds": len(by_mutation), "findings": findings}


def main(argv):
    opts = {"--cases": 10000, "--seed": 1, "--timeout": 2.0}
    i = 0
    while i < len(argv):
        if argv[i] not in opts or i + 1 >= len(argv):
            print("usage: fuzz_records.py [--cases N] [--seed N] [--timeout SECONDS]")
            return 2
        opts[argv[i]] = type(opts[argv[i]])(argv[i + 1])
        i += 2
    t0 = time.time()
    out = fuzz(opts["--cases"], opts["--seed"], opts["--timeout"])
    out["seconds"] = round(time.time() - t0, 2)
    print(json.dumps(out))
    bad = out["counts"]["bad_error"] + out["counts"]["crash"] + out["counts"]["timeout"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
