"""Long session: complete games back to back through the App on the MicroPython unix port.

    .venv/bin/python bench/long_session.py [--games 1000] [--heap 256K] [--keep 50]

Key presses come from tests/test_app_games.py's Driver (the presses a player makes, read
off the screen), for a cycle of four engine games (Azul coloured 2p and grey 3p, 5211
standard 4p and long 3p), each started from the main menu after the previous one ended.
They run in one unix-port process from .mpy files (tests/mp_app.py) with a fixed heap and
data/settings.json history_keep = --keep. Prints one JSON line: games, live heap after the
first game and after the last (after gc.collect(), both on the same final screen), history
files left, errors logged, seconds.
"""
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "firmware")]

from hal.keys import OK  # noqa: E402
import mp_app  # noqa: E402
from test_app_games import Driver, play_azul, play_5211  # noqa: E402

GAMES = [("Azul", "coloured", "colored", 2, 5), ("5211", "standard", "standard", 4, 3),
         ("Azul", "grey", "grey", 3, 11), ("5211", "long", "long", 3, 1)]


def game_scripts(tmp):
    """[keys of game 1 from a fresh device] + [keys of each cycle game after a finished one]."""
    from rules_core import azul_engine, game5211_engine
    d = Driver(_Path(tmp))
    scripts = []
    for title, label, variant, n, seed in GAMES + GAMES[:1]:
        start = len(d.keys)
        d.new_game(title, label, n)
        if title == "Azul":
            header, events = azul_engine.random_game(n, seed, variant)[:2]
            play_azul(d, header, events)
        else:
            events = game5211_engine.random_game(n, seed, variant)[1]
            play_5211(d, events, n)
        d.press(OK)  # the final standings -> the main menu
        scripts.append(d.keys[start:])
    return scripts[0], scripts[1:]  # each cycle game always follows the same one


class _Path(str):
    def __truediv__(self, other):
        return _Path(os.path.join(self, other))


def keys_for(games, first, cycle):
    keys = list(first)
    for i in range(1, games):
        keys += cycle[(i - 1) % len(cycle)]
    return keys


def run(games, heap="256K", keep=50, tmp=None):
    tmp = tmp or tempfile.mkdtemp(prefix="azul-long-")
    first, cycle = game_scripts(os.path.join(tmp, "host"))
    data = os.path.join(tmp, "device")
    os.makedirs(os.path.join(data, "data"))
    with open(os.path.join(data, "data", "settings.json"), "w") as f:
        f.write(json.dumps({"history_keep": keep}) + "\n")
    one = mp_app.run_app_on_micropython(first, heap=heap, data_dir=os.path.join(tmp, "one"), measure_heap=False)
    t0 = time.time()
    out = mp_app.run_app_on_micropython(keys_for(games, first, cycle), heap=heap, data_dir=data,
                                        measure_heap=False)
    seconds = time.time() - t0
    history = os.listdir(os.path.join(data, "data", "history"))
    return {"games": games, "heap": heap, "live_after_first": one["heap"]["end"],
            "live_after_last": out["heap"]["end"], "history_files": len(history),
            "history_keep": keep, "errors": len(out["errors"]), "screen": out["screen"],
            "seconds": round(seconds, 1), "games_per_sec": round(games / seconds, 2),
            "data_dir": data, "result": out}


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--heap", default="256K", help="the MicroPython heap, e.g. 256K")
    parser.add_argument("--keep", type=int, default=50, help="history_keep")
    args = parser.parse_args(argv)
    r = run(args.games, args.heap, args.keep)
    r.pop("result")
    r.pop("data_dir")
    print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
