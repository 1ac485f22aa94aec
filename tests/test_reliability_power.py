"""Power cuts at every byte of a game's record writes, then a reboot that resumes.

The device writes a game as: the header appended to a new file (new game), then one
append_line per event (firmware/hal/storage.py). CutStorage keeps exactly the first `cut` bytes written
and fails every later operation, so trying every cut from 0 to the total tries every byte
of every line and every flush/sync/rename boundary (a cut equal to a line's end stops the
flush after it). After the cut the flash is rebooted and the game resumed as App.resume()
does (app.keeper: settle the tmp file, keep a torn tail aside and cut it, then replay); the resumed game must be the record up to the last
complete line, and appending the rest must give the full record's result.
"""
import glob
import os

import paths
from core.checks import events
from host_tools import sim  # noqa: F401  (firmware/ on sys.path)
from host_tools.vhal import CutStorage, PowerCut, VirtualDisplay, VirtualLeds
from hal.clock import Manual
from hal.keys import BACK
from hal.storage import WARM_BYTES
from rules_core.record import dumps
from rules_core.session import replay
from files import read_lines, read_text
from app import play

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.path.join(ROOT, "tests", "oracles", "azul-random-games", "azul_2p_5000.jsonl")
RECORDS = sorted(glob.glob(os.path.join(ROOT, "tests", "golden", "*.jsonl"))) + [ORACLE]


def record_lines(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if path == ORACLE:
        # undo/redo and a note with multi-byte UTF-8 are appended events too: cut them as well
        lines[4:4] = ['{"e": "undo"}', '{"e": "redo"}', '{"e": "note", "text": "Zoë ✓ café"}']
    return lines


def write_game(st, lines):
    """What the App writes for a game: at boot the data folder (App.__init__), then the
    header appended to a new file and one append per event (app.keeper.Keeper.start, add)."""
    st.ensure_dir(paths.DATA_DIR)
    for line in lines:
        st.append_line(paths.CURRENT, line)


def boot(st):
    """The App's boot: the data folder made (a cut may have come before it), then the
    resume (Keeper.resume: adopt or drop a tmp file, keep a torn last line aside and cut it
    off the file, replay what is left): (session, lines on flash)."""
    from app.keeper import Keeper
    st.ensure_dir(paths.DATA_DIR)
    session, _ = Keeper(st).resume()
    return session, read_lines(st, paths.CURRENT)[0]


def state(session):
    if session is None:
        return None
    return session.result(), events(session)


def total_bytes(lines):
    header = len(lines[0].encode("utf-8")) + 1
    return header + sum(len(l.encode("utf-8")) + 1 for l in lines[1:])


def cut_one_record(lines):
    """Every cut of one record's writes; returns the number of cuts tried."""
    ends = []  # bytes written when line k is on flash
    acc = 0
    for l in lines:
        acc += len(l.encode("utf-8")) + 1
        ends.append(acc)
    expected = {}  # complete lines -> state replayed from the source text alone

    def want(k):
        if k not in expected:
            expected[k] = state(replay("".join(l + "\n" for l in lines[:k]))[0]) if k else None
        return expected[k]
    full = want(len(lines))
    seen = {}  # resumed file bytes -> resumed state (the resume is a function of the bytes)
    total = total_bytes(lines)
    for cut in range(total + 1):
        st = CutStorage(cut)
        try:
            write_game(st, lines)
            raise AssertionError("cut %d not reached" % cut)
        except PowerCut:
            pass
        rebooted = st.after_reboot()
        complete = sum(1 for e in ends if e - 1 <= cut)  # (a line lacking only its newline is whole)
        session, got = boot(rebooted)
        assert got == lines[:complete], (cut, complete)
        content = rebooted.content(paths.CURRENT)
        if content not in seen:
            seen[content] = state(session)
        assert seen[content] == want(complete), cut
        # keep playing on the rebooted device: the final result is the full record's
        if session is None:  # no header on flash: the file is gone, the game starts anew
            assert rebooted.content(paths.CURRENT) is None, cut
            complete = 0
        for line in lines[complete:]:
            rebooted.append_line(paths.CURRENT, line)
        content = rebooted.content(paths.CURRENT)
        assert content == "".join(l + "\n" for l in lines).encode("utf-8"), cut
        if content not in seen:
            seen[content] = state(boot(rebooted)[0])
        assert seen[content] == full, cut
    return total + 1


def test_power_cut_at_every_byte_of_each_title_resumes_to_the_last_complete_event():
    counts = {}
    for path in RECORDS:
        counts[os.path.basename(path)] = cut_one_record(record_lines(path))
    print("cuts per record:", counts, "total", sum(counts.values()))
    assert len(counts) == 8 and min(counts.values()) > 1000


def test_settings_cut_at_every_byte_and_operation_leave_old_or_new():
    """write_atomic of the App's settings: after any cut the file parses to the old or new."""
    old = dumps({"brightness": 3, "symbols": True, "led_count": 25, "led_layout": "matrix5x5"}) + "\n"
    new = dumps({"brightness": 5, "symbols": False, "led_count": 8, "led_layout": "strip",
                 "sintra_windows_A": [1, 2, 3, 4, 5, 6, 7, 8]}) + "\n"
    size = len(new.encode("utf-8"))
    outcomes = {"old": 0, "new": 0}
    for cut in range(size + 2):  # size + 1 lets the flush, sync and rename through
        st = CutStorage(None)
        st.ensure_dir(paths.DATA_DIR)
        st.write_atomic(paths.SETTINGS, old)
        st.fs.cut_at_byte = st.fs.written + cut
        try:
            st.write_atomic(paths.SETTINGS, new)
        except PowerCut:
            pass
        text = read_text(st.after_reboot(), paths.SETTINGS)
        assert text in (old, new), cut
        outcomes["old" if text == old else "new"] += 1
    assert outcomes == {"old": size + 1, "new": 1}


# ---- the same through the real App, driven by keys ------------------------------------------
def app_on(storage):
    from app.app import App
    board = sim.load_board("pico")
    clock = Manual()
    app = App(VirtualDisplay(128, 64), VirtualLeds(25, 1.0, "RGB"), storage, clock, board)
    app.step(0, None)
    return app


def azul_key_script(tmp_path, events_wanted):
    """Keys that start a 2-player Azul game and enter its first events (as a player would)."""
    from test_app_games import Driver, play_azul
    from rules_core import azul_engine
    header, events = azul_engine.random_game(2, 5, "colored")[:2]
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    play_azul(d, header, events[:events_wanted])
    return d.keys, d.record().splitlines(), events


def test_app_driven_by_keys_resumes_after_a_cut_at_every_byte(tmp_path):
    """The App's own writes (header, events) cut at every byte of the first 6 events; after
    the reboot the App shows the game up to the last complete line, and entering the rest of
    the game on the rebooted App gives the engine's final scores."""
    from rules_core import azul_engine
    keys, lines, events = azul_key_script(tmp_path, 6)
    scores = azul_engine.random_game(2, 5, "colored")[2]
    total = total_bytes(lines)
    ends = []
    acc = 0
    for l in lines:
        acc += len(l.encode("utf-8")) + 1
        ends.append(acc)
    for cut in range(total + 1):
        st = CutStorage(WARM_BYTES + cut)  # (the boot's warm-up write comes first: Storage.warm)
        try:
            app = app_on(st)
            t = 0
            for k in keys:
                t += sim.KEY_STEP_MS if k is not None else sim.WAIT_MS
                app.step(t, k)
            raise AssertionError("cut %d not reached" % cut)
        except PowerCut:
            pass
        complete = sum(1 for e in ends if e - 1 <= cut)  # (a line lacking only its newline is whole)
        rebooted = st.after_reboot()
        app = app_on(rebooted)
        log = (rebooted.content(paths.ERRORS) or b"").decode()
        assert all(" kept as " in line for line in log.splitlines()), (cut, log)  # the torn bytes, kept
        if complete == 0:
            assert app.session is None, cut
            continue
        want = replay("".join(l + "\n" for l in lines[:complete]))[0]
        assert state(app.session) == state(want), cut
        assert type(app.screen).__name__ == "Scoreboard", cut
        for ev in events[complete - 1:]:
            assert play.enter(app, ev), (cut, ev, app.message)
        final = replay(rebooted.content(paths.CURRENT).decode("utf-8"))[0]
        assert final.result()["finished"] and final.scores == scores, cut
    print("App cuts:", total + 1)


def test_a_cut_inside_a_new_games_header_leaves_no_game_open_and_the_last_one_filed(tmp_path):
    """Starting a new game puts the open one aside into the history, then appends the new
    game's header to a new record. A power cut at every byte of that header: after the
    reboot the device shows the main menu with no game to resume (the new game never showed
    as started); the torn header is kept aside byte for byte (data/damaged-1.jsonl, said on
    the screen), an empty record is removed; the filed game is whole in the history, and the
    new game can be started again."""
    from rules_core import azul_engine
    from test_app_games import Driver, play_azul
    header, events = azul_engine.random_game(2, 5, "colored")[:2]
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    play_azul(d, header, events[:4])
    first = d.record().encode("utf-8")
    d.press(BACK)  # the scoreboard's BACK: the main menu
    at = len(d.keys)
    d.new_game("5211", "standard", 2)
    new_header = d.record().encode("utf-8")
    assert new_header.count(b"\n") == 1 and new_header != first
    keys = d.keys
    # the bytes written before the last set-up press (measured on a flash with no cut)
    st = CutStorage(None)
    app = run_keys(app_on(st), keys[:-1])
    before = st.fs.written
    assert at < len(keys) and type(app.screen).__name__ == "Step"
    # (a cut at `before` stops the filing's rename; the last cut keeps the open's empty file)
    for cut in list(range(before + 1, before + len(new_header))) + [before + 1]:
        st = CutStorage(cut)
        try:
            run_keys(app_on(st), keys)
            raise AssertionError("cut %d not reached" % cut)
        except PowerCut:
            pass
        rebooted = st.after_reboot()
        if cut == before + 1 and rebooted.content(paths.CURRENT) == new_header[:1]:
            rebooted.fs.files[paths.CURRENT] = bytearray()
        torn = rebooted.content(paths.CURRENT)
        app = app_on(rebooted)
        if torn == new_header[:-1]:  # only its newline missing: the game started
            assert app.session.game == "5211" and rebooted.content(paths.CURRENT) == new_header, cut
            continue
        assert app.session is None and type(app.screen).__name__ == "MainMenu", cut
        assert app.screen.rows() == ["New game", "Check a score", "History", "Settings"], (cut, app.text())  # no Resume
        assert rebooted.content(paths.CURRENT) is None and rebooted.content(paths.CURRENT + ".tmp") is None, cut
        assert rebooted.content(paths.HISTORY_DIR + "/000001.jsonl") == first, cut
        if torn:
            assert rebooted.content(paths.DAMAGED % 1) == torn, cut
            assert "kept as damaged-1" in " ".join(app.text()), cut
            rebooted.remove(paths.DAMAGED % 1)
            rebooted.remove(paths.ERRORS)
        else:
            assert not rebooted.exists(paths.ERRORS), cut
        again = Driver.__new__(Driver)  # the same new game again, on the rebooted App
        again.app, again.clock, again.keys = app, app.clock, []
        again.new_game("5211", "standard", 2)
        assert type(app.screen).__name__ == "Scoreboard" and app.session.game == "5211", cut
        assert rebooted.content(paths.CURRENT) == new_header, cut
    print("header cuts:", len(new_header))


def run_keys(app, keys):
    t = 0
    for k in keys:
        t += sim.KEY_STEP_MS if k is not None else sim.WAIT_MS
        app.step(t, k)
    return app


def test_a_fresh_board_makes_every_folder_it_saves_into(tmp_path):
    """From an empty flash (MemFS, as littlefs, refuses a file in a folder never made) the
    App saves its settings, its error log, a game's record, and files that game into the
    history when the next one starts: each folder it writes into, it makes."""
    from app import settings
    from rules_core import azul_engine
    from test_app_games import Driver, play_azul
    header, events = azul_engine.random_game(2, 5, "colored")[:2]
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    play_azul(d, header, events[:3])
    first = d.record().encode("utf-8")
    d.press(BACK)
    d.new_game("5211", "standard", 2)
    second = d.record().encode("utf-8")
    st = CutStorage(None)
    assert st.fs.files == {} and st.fs.dirs == set()
    app = app_on(st)
    assert settings.save(app, {"brightness": 5})
    app.log("a line")
    run_keys(app, d.keys)
    while app.prepare():  # the idle frames: the first game moved into the history
        pass
    assert type(app.screen).__name__ == "Scoreboard" and app.session.game == "5211"
    assert st.fs.dirs == {paths.DATA_DIR, paths.HISTORY_DIR}
    assert st.content(paths.HISTORY_DIR + "/000001.jsonl") == first
    assert st.content(paths.CURRENT) == second
    assert st.content(paths.ERRORS) == b"a line\n"
    assert b'"brightness": 5' in st.content(paths.SETTINGS)
