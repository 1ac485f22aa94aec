"""The core on real MicroPython (unix port): the same test files, a heap budget, identical results."""
import json
import os

import mp
from rules_core.record import dumps
from rules_core.session import replay


def _summary(out):
    last = out.strip().splitlines()[-1]
    passed, failed = [int(w) for w in last.replace(",", "").split() if w.isdigit()]
    return passed, failed


def test_core_test_files_pass_on_micropython():
    """tests/core/*.py run unchanged under MicroPython (every test file and game module compiled
    from source on the device; the board budget is checked below with .mpy files)."""
    r = mp.run(["tests/core/mp_runner.py"], heap="512K")
    assert r.returncode == 0, r.stdout + r.stderr
    passed, failed = _summary(r.stdout)
    assert failed == 0 and passed >= 40, r.stdout


REPLAY_SCRIPT = """
import sys, gc, micropython
sys.path.insert(0, {lib!r})
from rules_core.session import replay
for path in {paths!r}:
    gc.collect()
    with open(path) as f:
        s, w = replay(f)
    gc.collect()
    live = gc.mem_alloc()
    from rules_core.record import dump  # the output's, not the replay's: after the measure
    dump(s.result(), sys.stdout.write)
    print()
print("live", live)
"""


def replay_on_micropython(paths, tmp_path, heap):
    """Replay records with the core compiled by mpy-cross (as flashed); return (results, bytes
    still allocated after the last replay and a gc.collect(): the game's resident size)."""
    lib = str(tmp_path / "lib")
    mp.compile_package("rules_core", lib)
    script = tmp_path / "replay.py"
    script.write_text(REPLAY_SCRIPT.format(lib=lib, paths=[os.path.abspath(p) for p in paths]))
    r = mp.run([str(script)], heap=heap)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    lines = r.stdout.splitlines()
    live = int(lines[len(paths)].split()[1])
    return lines[:len(paths)], live


FOUR_PLAYER_GAMES = [
    "tests/oracles/azul-random-games/azul_4p_7000.jsonl",
    "tests/golden/sintra_4p.jsonl",
    "tests/golden/azul_grey_4p.jsonl",
    "tests/golden/garden_4p.jsonl",
    "tests/golden/5211_4p.jsonl",
]


def test_four_player_game_of_each_title_replays_in_80k(tmp_path):
    """The core's budget (docs/performance.md): a complete 4-player game of each title replays
    within -X heapsize=80K on the unix port. (The App's is the emulated Pico's live heap.)"""
    for path in FOUR_PLAYER_GAMES:  # one interpreter per game: a board loads one game's rules
        (line,), live = replay_on_micropython([os.path.join(mp.ROOT, path)], tmp_path, "80K")
        with open(os.path.join(mp.ROOT, path)) as f:
            want = replay(f)[0].result()
        assert json.loads(line) == want, path
        assert want["finished"], path
        print("%s: %d bytes live after replay" % (path, live))


def simulated_records(tmp_path, count):
    """`count` engine games (Azul both walls, 5211 both variants, 2-5 players) as record files."""
    from rules_core import azul_engine, game5211_engine
    kinds = [(azul_engine, "colored", (2, 3, 4)), (azul_engine, "grey", (2, 3, 4)),
             (game5211_engine, "standard", (2, 3, 4, 5)), (game5211_engine, "long", (2, 3, 4, 5))]
    paths = []
    for i in range(count):
        engine, variant, sizes = kinds[i % len(kinds)]
        game = engine.random_game(sizes[i // len(kinds) % len(sizes)], 1000 + i, variant)
        path = tmp_path / ("game%03d.jsonl" % i)
        path.write_text("".join(dumps(x) + "\n" for x in [game[0]] + list(game[1])))
        paths.append(str(path))
    return paths


def test_200_simulated_records_give_identical_json_on_cpython_and_micropython(tmp_path):
    paths = simulated_records(tmp_path, 200)
    results, _ = replay_on_micropython(paths, tmp_path, "512K")
    for path, line in zip(paths, results):
        with open(path) as f:
            assert line == dumps(replay(f)[0].result()), path
