"""Resume and undo benchmark: a finished record with undo/redo pairs appended.

    .venv/bin/python bench/undo.py [--record tests/golden/5211_long_5p.jsonl] [--pairs 400] [--repeat 3]
    .venv/bin/micropython bench/undo.py --pairs 400

What the device does at boot (replay of data/current.jsonl) and on one undo press: each undo
and redo is appended to the record before the session takes it, and the session reads the
record back (its `reread`) for what it no longer holds. Times:
  resume_ms   replay of the record with --pairs undo/redo pairs appended (written to --tmp),
              best of --repeat
  base_ms     replay of the record alone
  undo_ms     one undo at the end of the game (it reopens the last round), best of --repeat
  redo_ms     the redo that follows it
  undo2_ms    two undos in a row at the end: the second one (the last round's last entry)
              refolds the round from the older kept state (app.current)
  undos       UNDOS undos in a row from the end of the game (a few rounds back): their
              median and slowest ms (undos_median_ms, undos_max_ms); the slowest is one
              that finds both kept states taken and folds the older one from the record
This bench runs no idle frames: on the device ReadBack.prepare() does that work between
presses (the App's, measured by bench/pico.py --presses BACK+LONG,...).
Prints one JSON line (plus the interpreter). Runs under MicroPython (unix port and a board:
copy rules_core, app/current.py and the record, run it from the folder that holds them), so arguments are
parsed by hand and time comes from ticks_us there.
"""
import sys
import time
import json

sys.path.insert(0, ".")   # run from the repository root (or the board's root)
sys.path.insert(0, "firmware")  # app.current, the device's session (at the board's root there)

from app.current import ReadBack  # noqa: E402
from rules_core.session import replay  # noqa: E402

USAGE = "usage: undo.py [--record PATH] [--pairs N] [--repeat N] [--tmp PATH]"
UNDOS = 60


def _ticks():
    """(now, diff_ms) in microseconds: ticks_us on MicroPython, perf_counter on CPython."""
    if hasattr(time, "ticks_us"):
        return time.ticks_us, lambda a, b: time.ticks_diff(b, a) / 1000
    return time.perf_counter, lambda a, b: (b - a) * 1000


def parse_args(argv):
    opts = {"record": "tests/golden/5211_long_5p.jsonl", "pairs": 400, "repeat": 3, "tmp": "undo-bench.jsonl"}
    i = 0
    while i < len(argv):
        key = argv[i][2:] if argv[i].startswith("--") else None
        if key not in opts or i + 1 >= len(argv):
            print(USAGE)
            sys.exit(2)
        opts[key] = argv[i + 1] if key in ("record", "tmp") else int(argv[i + 1])
        i += 2
    return opts


def main(argv):
    opts = parse_args(argv)
    with open(opts["record"]) as f:
        record = f.read()
    lines = record.count("\n")
    record += '{"e": "undo"}\n{"e": "redo"}\n' * opts["pairs"]  # the record the device replays
    now, ms = _ticks()
    best = {"resume_ms": None, "base_ms": None, "undo_ms": None, "redo_ms": None, "undo2_ms": None, "undos_median_ms": None,
            "undos_max_ms": None}

    def keep(key, value):
        if best[key] is None or value < best[key]:
            best[key] = value

    tmp = opts["tmp"]

    def reread():
        with open(tmp) as f:
            for line in f:
                yield line

    def enter(session, e):
        """The device's order: the line on flash first, then the session takes it."""
        with open(tmp, "a") as f:
            f.write('{"e": "%s"}\n' % e)
        t0 = now()
        session.undo() if e == "undo" else session.redo()
        return ms(t0, now())

    for _ in range(opts["repeat"]):
        with open(opts["record"]) as f:
            t0 = now()
            session = replay(f)[0]
            keep("base_ms", ms(t0, now()))
        session = None
        with open(tmp, "w") as f:  # the record as it was before this round's undos
            f.write(record)
        with open(tmp) as f:
            t0 = now()
            session = replay(f, ReadBack, reread)[0]
            keep("resume_ms", ms(t0, now()))
        finished = session.finished
        keep("undo_ms", enter(session, "undo"))
        keep("redo_ms", enter(session, "redo"))
        assert session.finished == finished
        enter(session, "undo")
        keep("undo2_ms", enter(session, "undo"))
        times = []
        for _ in range(UNDOS):
            times.append(enter(session, "undo"))
        times.sort()
        keep("undos_median_ms", times[len(times) // 2])
        keep("undos_max_ms", times[-1])
        session = None
    impl = sys.implementation
    out = {"bench": "undo", "record": opts["record"].split("/")[-1], "lines": lines,
           "pairs": opts["pairs"], "interpreter": "%s %s" % (impl.name, ".".join(str(x) for x in impl.version[:3]))}
    out["undos"] = UNDOS
    for k in ("base_ms", "resume_ms", "undo_ms", "redo_ms", "undo2_ms", "undos_median_ms", "undos_max_ms"):
        out[k] = round(best[k], 2)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
