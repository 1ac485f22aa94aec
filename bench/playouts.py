"""Playout benchmark: complete games of uniformly random legal moves per second.

    .venv/bin/python bench/playouts.py --game azul --players 2 --games 500 [--variant grey] [--seed 0]
    .venv/bin/python bench/playouts.py --game 5211 --players 4 --games 500
    .venv/bin/python bench/playouts.py --game azul --players 2 --games 500 --replay
    .venv/bin/micropython bench/playouts.py --game azul --players 2 --games 50

Prints one JSON line: game, players, games, seconds, games_per_sec, interpreter (plus mode,
variant, cpu_seconds where the interpreter has a process clock). --replay first generates the
records (untimed) and then times rules_core.session.replay over their text: records per second.
Runs under MicroPython too, so the arguments are parsed by hand.
"""
import sys
import time
import json

sys.path.insert(0, ".")   # run from the repository root (as the usage lines show)
try:
    sys.path.insert(0, __file__.rsplit("/", 2)[0] if __file__.count("/") >= 2 else ".")
except NameError:         # some MicroPython builds run scripts without __file__
    pass

USAGE = "usage: playouts.py --game azul|5211 [--players N] [--games N] [--variant V] [--seed N] [--replay]"


def parse_args(argv):
    opts = {"game": "azul", "players": 2, "games": 500, "variant": None, "seed": 0, "replay": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--replay":
            opts["replay"] = True
            i += 1
            continue
        if a in ("-h", "--help"):
            print(USAGE)
            sys.exit(0)
        key = a[2:] if a.startswith("--") else None
        if key not in opts or i + 1 >= len(argv):
            print(USAGE)
            sys.exit(2)
        val = argv[i + 1]
        if key in ("players", "games", "seed"):
            try:
                val = int(val)
            except ValueError:
                print(USAGE)
                sys.exit(2)
        opts[key] = val
        i += 2
    return opts


def _clock():
    """Wall-clock seconds as a float (perf_counter on CPython, ticks_us on MicroPython)."""
    if hasattr(time, "perf_counter"):
        return time.perf_counter
    if hasattr(time, "ticks_us"):
        base = time.ticks_us()
        return lambda: time.ticks_diff(time.ticks_us(), base) / 1e6
    return time.time


def game_function(key):
    """(random_game(nplayers, seed, variant), the default variant, None) of the game's engine
    (rules_core.games), or (None, None, the reason) when it has none."""
    from rules_core.games import game
    try:
        g = game(key)
        if not g.engine:
            return None, None, "%s has no engine" % key
        return __import__(g.engine, None, None, ["random_game"]).random_game, g.variants[0], None
    except (ValueError, ImportError) as e:
        return None, None, "engine not available: %s" % e


def interpreter():
    impl = sys.implementation
    return "%s %s" % (impl.name, ".".join(str(x) for x in impl.version[:3]))


def main(argv):
    o = parse_args(argv)
    out = {"game": o["game"], "players": o["players"], "games": o["games"], "seconds": None,
           "games_per_sec": None, "interpreter": interpreter(),
           "mode": "replay" if o["replay"] else "play"}
    play, default_variant, why = game_function(o["game"])
    if play is None:
        out["skipped"] = why
        print(json.dumps(out))
        return 0
    variant = o["variant"] or default_variant
    out["variant"] = variant
    seeds = range(o["seed"], o["seed"] + o["games"])
    clock = _clock()
    cpu = getattr(time, "process_time", None)
    if o["replay"]:
        try:
            from rules_core.record import dumps
            from rules_core.session import replay
        except ImportError as e:
            out["skipped"] = "replay not available: %s" % e
            print(json.dumps(out))
            return 0
        texts = []
        for seed in seeds:
            game = play(o["players"], seed, variant)
            texts.append("".join(dumps(x) + "\n" for x in [game[0]] + list(game[1])))
        c0 = cpu() if cpu else 0
        t0 = clock()
        for text in texts:
            replay(text)
    else:
        c0 = cpu() if cpu else 0
        t0 = clock()
        for seed in seeds:
            play(o["players"], seed, variant)
    secs = clock() - t0
    if cpu:
        out["cpu_seconds"] = round(cpu() - c0, 4)
    out["seconds"] = round(secs, 4)
    out["games_per_sec"] = round(o["games"] / secs, 1) if secs > 0 else None
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
