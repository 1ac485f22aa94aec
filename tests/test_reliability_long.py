"""Long sessions on the MicroPython unix port (bench/long_session.py, reduced): games back to
back through the App from .mpy files, history rotated at the history_keep setting."""
import os
import sys


from rules_core.session import replay

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
import long_session  # noqa: E402


def test_twenty_games_back_to_back_keep_the_newest_history_files(tmp_path):
    r = long_session.run(20, heap="512K", keep=5, tmp=str(tmp_path))
    print({k: v for k, v in r.items() if k != "result"})
    assert r["errors"] == 0, r["result"]["errors"][:3]
    assert r["screen"] == "MainMenu"
    history = os.path.join(r["data_dir"], "data", "history")
    names = sorted(os.listdir(history))
    # 20 finished games, the oldest 15 rotated out: 000016 .. 000020 remain
    assert names == ["%06d.jsonl" % i for i in range(16, 21)]
    for name in names:
        with open(os.path.join(history, name), encoding="utf-8") as f:
            assert replay(f.read())[0].finished, name


def test_live_heap_after_a_game_does_not_grow_with_the_number_of_games(tmp_path):
    """After all four games' modules are loaded (game 4), 16 more games must not leave more
    than 2 KB more live after gc.collect() on the same screen, and log no error (no
    MemoryError) in a fixed 256 KB heap."""
    a = long_session.run(4, heap="256K", keep=5, tmp=str(tmp_path / "a"))
    b = long_session.run(20, heap="256K", keep=5, tmp=str(tmp_path / "b"))
    assert a["errors"] == 0 and b["errors"] == 0, (a["result"]["errors"], b["result"]["errors"])
    assert b["live_after_last"] - a["live_after_last"] < 2048, (a["live_after_last"], b["live_after_last"])
