"""Runs on the emulated Pico (bench/pico.py copies it there as picobench.mpy).

game(keys): a clean data folder (but the games filed in data/history), the App built as main.py builds it (the board file's
SSD1306 on machine.I2C, NeoPixel, littlefs storage), then the scripted keys fed to
App.step with a virtual clock (100 ms a press, 2 s a wait) as host_tools.sim.run_script
feeds them. Each press is timed with ticks_us around App.step: key handling, drawing, the
I2C transfer of the frame (show()) and the LED write. Between presses main.py's idle work
runs as its loop runs it (_idle); a press that comes while it is under way waits, and that
wait counts in the press. Prints "T us screen" for each press, then one "RESULT {json}" line.

frame(): the App built over the record already on flash, timed to its first frame, then
its first press (OK).
presses(keys): the App built over what is on flash, then the given keys, each press timed.
profile(keys): the game again with the hot functions wrapped in timers (inclusive times),
and for each press over 40 ms the times of the functions it ran.
lines(n): what a record line costs on littlefs, call by call (see there).
filings(n): what filing a finished game costs on littlefs, the press's part and the idle's.
Keys file: one byte a key (hal.keys codes), WAIT for "no key, let two seconds pass".
"""
import binascii
import gc
import json
import os
import sys
import time
from array import array

WAIT = 255
HEAP = 254  # presses(): not a key, the live heap then (after the press before it)
KEY_MS = 100
WAIT_MS = 2000


def _rmtree(path):
    try:
        names = os.listdir(path)
    except OSError:
        return
    for n in names:
        p = path + "/" + n
        if os.stat(p)[0] & 0x4000:
            _rmtree(p)
        else:
            os.remove(p)
    os.rmdir(path)


def _clean():
    """The data folder as a device that has filed games has it when no game is open: the games
    bench/pico.py put in data/history (--history; their count in bench/filed) stay, the rest
    goes (the games frame()'s OK filed too), so each game meets the same history; the settings
    name only the language bench/pico.py --language put in bench/language."""
    try:
        names = os.listdir("data")
    except OSError:
        names = []
        os.mkdir("data")  # (a flash the App never booted on)
    for n in names:
        if n != "history":
            p = "data/" + n
            if os.stat(p)[0] & 0x4000:
                _rmtree(p)
            else:
                os.remove(p)
    try:
        with open("bench/language") as f:
            language = f.read().strip()
        with open("data/settings.json", "w") as f:
            f.write('{"language": "%s"}\n' % language)
    except OSError:
        pass
    try:
        with open("bench/filed") as f:
            filed = int(f.read())
        names = os.listdir("data/history")
    except OSError:
        return
    for n in names:
        if int(n[:6]) > filed:
            os.remove("data/history/" + n)


def _live():
    gc.collect()
    return gc.mem_alloc()


def build():
    """main.main() up to its loop: board file, buttons, display, LEDs, App, first frame.
    Returns (app, microseconds from the first import to the end of the first frame)."""
    t0 = time.ticks_us()
    import main
    from hal import clock
    from hal.buttons import buttons_from_board
    board = main.load_board(main.board_name())
    buttons_from_board(board)  # as main.py: the pins exist, nothing polls them here
    from hal.display import display_from_board
    from hal.leds import leds_from_board
    display = display_from_board(board)
    leds = leds_from_board(board)
    from hal.storage import Storage
    from app.app import App
    gc.collect()
    app = App(display, leds, Storage(), clock, board)
    app.step(time.ticks_ms(), None)
    return app, time.ticks_diff(time.ticks_us(), t0)


def _keys(path):
    with open(path, "rb") as f:
        return f.read()


FRAME_US = 10000  # main.FRAME_MS: the loop comes back after a frame while work is left
# the pieces of idle work of the last gap: [count, us of each (negative: the collector ran in it)]
_GAP = array("i", bytes(4 * 32))
# bytes allocated: [by the last gap's idle work (-1: the collector ran in it), the most by a
# press and the idle work in the gap after it, that press's index, the most by a press, the
# most by a piece of idle work] (presses and gaps in which the collector ran left out)
_ALLOC = array("i", bytes(4 * 5))
_LONGEST = array("i", [0])  # us of the last gap's longest piece of idle work (after_press's too)


def _idle(app, gap_us, fetched, pressed=True):
    """main.py's loop while nobody presses, for the gap_us until the next key: first, where
    a press or the first frame came before the gap (pressed), main.after_press(), then
    main.idle(app) each frame (one module imported ahead, a piece of work ahead; before
    after_press, also the garbage collected when the heap ran low), a frame apart while
    more is left. Returns the us the key waits for the work under way
    when it comes. fetched: [module, us] for each module imported here."""
    main = sys.modules.get("main")
    work = getattr(main, "idle", None)
    if work is None:  # (firmware from before it: the garbage only, untimed)
        tidy = getattr(main, "tidy", None)
        if tidy:
            tidy()
        return 0
    after = getattr(main, "after_press", None)
    t = 0
    _GAP[0] = 0
    _LONGEST[0] = 0
    _ALLOC[0] = 0
    if pressed and after:  # logged as a piece of its own where it collected
        a0 = gc.mem_alloc()
        t0 = time.ticks_us()
        after()
        t = time.ticks_diff(time.ticks_us(), t0)
        _LONGEST[0] = t
        if gc.mem_alloc() < a0:
            _GAP[0] = 1
            _GAP[1] = -t
            _ALLOC[0] = -1
    while True:
        n = len(getattr(app, "fetched", ()))
        a0 = gc.mem_alloc()
        t0 = time.ticks_us()
        more = work(app)
        dt = time.ticks_diff(time.ticks_us(), t0)
        a = gc.mem_alloc() - a0
        if a < 0:
            _ALLOC[0] = -1
        elif _ALLOC[0] >= 0:
            _ALLOC[0] += a
            _ALLOC[4] = max(_ALLOC[4], a)
        if _GAP[0] < len(_GAP) - 1:
            _GAP[0] += 1
            _GAP[_GAP[0]] = -dt if a < 0 else dt
        if len(getattr(app, "fetched", ())) > n:
            fetched.append([app.fetched[-1], dt])
        _LONGEST[0] = max(_LONGEST[0], dt)
        t += dt
        if t > gap_us:
            return t - gap_us
        if not more:
            return 0
        t += FRAME_US
        if t >= gap_us:
            return 0


def _held(app, hold_us, t, back):
    """main.py's loop while a button (BACK: back) is down for hold_us, t us of which the
    idle work under way when it went down took: App.prepare_undo each frame of its first
    main.HELD_WORK_MS. Returns the us the key that fires at its end waits for the piece
    under way then."""
    limit = min(hold_us, 1000 * getattr(sys.modules.get("main"), "HELD_WORK_MS", 0))
    while back and t < limit and getattr(app, "held", None):
        t0 = time.ticks_us()
        more = app.prepare_undo()
        t += time.ticks_diff(time.ticks_us(), t0)
        if not more:
            break
        t += FRAME_US
    return max(0, t - hold_us)


def _play(app, keys, now, times, screens, names, acc, fetched, probe=None):
    """Feed keys; times[i] = us of press i (with its wait for idle work under way),
    screens[i] = index in names of the screen that took it. acc = [steps in which the
    collector ran, their us, max heap in use right after one, us each press waited
    (an array, made before the App's heap is measured), and optionally a log (an array) of
    each press that waited: its number, its gap's pieces (_GAP), in turn, then -1].
    probe: (before(), after(i, us, collected)) called around each press (profile)."""
    i = 0
    pressed = True  # the gap follows a press or the first frame (not a WAIT's)
    used = -1  # bytes the last press allocated (-1: the collector ran in it)
    for k in keys:
        waited = _idle(app, 1000 * (WAIT_MS if k == WAIT else KEY_MS), fetched, pressed)
        if used >= 0:  # the press and the gaps after it until the next press
            used = used + _ALLOC[0] if _ALLOC[0] >= 0 else -1
            if used > _ALLOC[1]:
                _ALLOC[1] = used
                _ALLOC[2] = i - 1
        pressed = k != WAIT
        if k == WAIT:
            now = time.ticks_add(now, WAIT_MS)
            app.step(now, None)
            continue
        used = -1
        now = time.ticks_add(now, KEY_MS)
        name = type(app.screen).__name__
        if name not in names:
            names.append(name)
        screens[i] = names.index(name)
        if probe:
            probe[0]()
        a0 = gc.mem_alloc()
        t0 = time.ticks_us()
        app.step(now, k)
        dt = time.ticks_diff(time.ticks_us(), t0)
        a1 = gc.mem_alloc()
        if probe:
            probe[1](i, dt + waited, a1 < a0)
        times[i] = dt + waited
        acc[3][i] = waited
        if waited and len(acc) > 4:  # the log: i, count, pieces
            log = acc[4]
            j = acc[5]
            if j + _GAP[0] + 2 < len(log):
                log[j] = i
                for m in range(_GAP[0] + 1):
                    log[j + 1 + m] = _GAP[m]
                acc[5] = j + _GAP[0] + 2
        if a1 >= a0:
            used = a1 - a0
            _ALLOC[3] = max(_ALLOC[3], used)
        else:  # the heap shrank: the collector ran during this press
            acc[0] += 1
            acc[1] += dt
            if a1 > acc[2]:
                acc[2] = a1
        i += 1
    now = time.ticks_add(now, 2 * WAIT_MS)  # let a last message (4 s) time out, as run_script does
    app.step(now, None)
    return now


def game(path):
    """Heap figures are the App's: live bytes minus what this module holds (keys, timings),
    measured before the App is built."""
    _clean()
    keys = _keys(path)
    n = 0
    for k in keys:
        if k != WAIT:
            n += 1
    times = array("i", bytes(4 * n))  # (MicroPython copies the bytes: n zeros)
    screens = bytearray(n)
    names = []
    acc = [0, 0, 0, array("i", bytes(4 * n)), array("i", bytes(4 * 512)), 0]
    fetched = []
    for j in range(len(_ALLOC)):
        _ALLOC[j] = 0
    own = _live()
    app, boot_us = build()
    heap_boot = _live() - own
    _play(app, keys, time.ticks_ms(), times, screens, names, acc, fetched)
    heap_end = _live() - own
    s = app.session
    out = {"presses": n, "screens": names, "app_boot_us": boot_us,
           "heap_boot": heap_boot, "heap_end": heap_end, "heap_own": own,
           "heap_total": gc.mem_alloc() + gc.mem_free(),
           "gc_presses": acc[0], "gc_us": acc[1], "heap_after_gc_max": acc[2] - own if acc[0] else None,
           "waited": [[i, acc[3][i]] for i in range(n) if acc[3][i]], "prefetched": fetched,
           "waited_gaps": _gaps(acc[4], acc[5]), "alloc": list(_ALLOC[1:]),
           "final": type(app.screen).__name__, "text": app.text(),
           "scores": list(s.scores) if s else None, "finished": s.finished if s else None,
           "shown_equals_buffer": _shown(app.display),
           "buffer": binascii.hexlify(app.display.buffer).decode()}
    app = s = None
    gc.collect()
    for i in range(n):  # a line a press: a list of thousands would not fit beside the App
        print("T", times[i], screens[i])
    print("RESULT " + json.dumps(out))


def _gaps(log, end):
    """{press number: the us of each piece of idle work in the gap before it (negative: the
    collector ran in it)} from _play's log."""
    out = {}
    j = 0
    while j < end:
        k = log[j + 1]
        out[log[j]] = list(log[j + 2:j + 2 + k])
        j += k + 2
    return out


def _shown(display):
    """True when the display's record of what it sent equals its frame buffer (None: the
    driver keeps no such record)."""
    sent = getattr(display, "sent", None)
    return None if sent is None else bytes(sent) == bytes(display.buffer)


def frame():
    """The App's first frame over the record on flash, and its frame buffer (hex); then the
    first press, OK, a press's time later (main.py's idle work before it, as in game()):
    "first_ok" [screen it left, screen it showed, us with its wait, us waited]. The live heap
    after the first frame ("heap") and after that press ("heap_first_ok"), less what this
    module held before (as game() counts it: the device runs no bench)."""
    own = _live()
    app, us = build()
    s = app.session
    out = {"app_resume_us": us, "heap": _live() - own, "heap_own": own, "text": app.text(),
           "screen": type(app.screen).__name__,
           "scores": list(s.scores) if s else None,
           "buffer": binascii.hexlify(app.display.buffer).decode(),
           "shown_equals_buffer": _shown(app.display)}
    from hal.keys import OK
    waited = _idle(app, 1000 * KEY_MS, [], True)
    t0 = time.ticks_us()
    app.step(time.ticks_add(time.ticks_ms(), KEY_MS), OK)
    dt = time.ticks_diff(time.ticks_us(), t0)
    out["first_ok"] = [out["screen"], type(app.screen).__name__, dt + waited, waited]
    out["heap_first_ok"] = _live() - own
    print("RESULT " + json.dumps(out))


def presses(path, spec=None, after_ms=None, gap_ms=KEY_MS, hold_ms=0):
    """The App built over what is on flash (a record or none: the main menu), its idle work
    done (2 s, as a WAIT; with after_ms, the first key comes that long after the first frame
    instead, meeting whatever idle work is under way then), then the keys of the keys file `path` gap_ms apart, main.py's idle work between them as in game(),
    each key after hold_ms more (a button held: main.py runs only App.prepare_undo, BACK held). Prints
    "P [screen it left, screen it showed, us with its wait, us waited, us of the longest
    piece of idle work in the gap before it (the most a key could wait there), [us of each
    piece of that gap, as _GAP]]" as each key is done (kept on the board, a long chain's rows
    would fill the App's heap and count in it), then "RESULT {json}": the live heap after the
    first frame ("heap"), once its idle work is done ("heap_idle"), at each HEAP ("heaps")
    and after the last key ("heap_end"), less this module's (as game()).
    spec: profile()'s, the functions timed; each press's row then ends with {label: us}
    of those it ran (the modules named there are imported before the App is built)."""
    keys = _keys(path)
    if spec:
        _profiled(spec)
    labels = list(PROFILE)
    before = array("i", bytes(4 * len(labels)))
    heaps = array("i", bytes(4 * keys.count(bytes([HEAP]))))  # (made before the App's heap is read)
    own = _live()
    app, us = build()
    out = {"app_resume_us": us, "heap": _live() - own, "screen": type(app.screen).__name__}
    from hal.keys import BACK, CODE_MASK  # (the App's already)
    now = time.ticks_ms()
    if after_ms is None:
        _idle(app, 1000 * WAIT_MS, [], True)
        now = time.ticks_add(now, WAIT_MS)
        app.step(now, None)
        out["heap_idle"] = _live() - own
    h = 0
    pressed = after_ms is not None  # (the first frame's after_press comes in the first gap)
    for k in keys:
        if k == HEAP:
            heaps[h] = _live() - own
            h += 1
            continue
        gap = WAIT_MS if k == WAIT else (after_ms or gap_ms)
        after_ms = None
        waited = _idle(app, 1000 * gap, [], pressed)
        if hold_ms and k != WAIT:
            waited = _held(app, 1000 * hold_ms, waited, k & CODE_MASK == BACK)
        pressed = k != WAIT
        now = time.ticks_add(now, gap if k == WAIT else gap + hold_ms)
        if k == WAIT:
            app.step(now, None)
            continue
        was = type(app.screen).__name__
        for j in range(len(labels)):
            before[j] = PROFILE[labels[j]][0]
        t0 = time.ticks_us()
        app.step(now, k)
        dt = time.ticks_diff(time.ticks_us(), t0)
        row = [was, type(app.screen).__name__, dt + waited, waited, _LONGEST[0],
               [_GAP[i] for i in range(1, _GAP[0] + 1)]]
        if labels:
            row.append({labels[j]: PROFILE[labels[j]][0] - before[j] for j in range(len(labels))
                        if PROFILE[labels[j]][0] > before[j]})
        print("P " + json.dumps(row))
        row = None
    out["heaps"] = list(heaps)
    out["heap_end"] = _live() - own
    out["text"] = app.text()
    print("RESULT " + json.dumps(out))


# ---- a record line, call by call ------------------------------------------------------------
CALLS = ("stat", "open", "seek", "write", "flush", "close", "sync")


def lines(n, size=58):
    """n lines of `size` bytes appended to a fresh file, each call a line can take timed on
    its own (os.stat of the length, open "ab", a seek to the end, write, flush, close,
    os.sync), then n more lines to another file by Storage.append_line itself, the garbage
    collected before each line; the boot's Storage.warm first (littlefs's first walk of the
    flash after a mount). Prints "RESULT {json}": [min, median, max] us of each, and "slowest":
    the [line, us] of the four slowest lines of each (littlefs's walk when its lookahead runs
    out: Storage.warm)."""
    from hal.storage import Storage
    _clean()
    try:
        os.mkdir("data")
    except OSError:  # (there: games filed in data/history)
        pass
    Storage().warm("data/.warm")
    data = b"x" * (size - 1) + b"\n"
    us = {c: array("i", bytes(4 * n)) for c in CALLS + ("append_line",)}
    path = "data/calls.jsonl"
    with open(path, "wb") as f:
        f.write(data)  # a record's header: create=False appends only to a started file
    for i in range(n):
        gc.collect()
        t0 = time.ticks_us()
        os.stat(path)
        t1 = time.ticks_us()
        f = open(path, "ab")
        t2 = time.ticks_us()
        f.seek(0, 2)
        t3 = time.ticks_us()
        f.write(data)
        t4 = time.ticks_us()
        f.flush()
        t5 = time.ticks_us()
        f.close()
        t6 = time.ticks_us()
        os.sync()
        t7 = time.ticks_us()
        for c, a, b in zip(CALLS, (t0, t1, t2, t3, t4, t5, t6), (t1, t2, t3, t4, t5, t6, t7)):
            us[c][i] = time.ticks_diff(b, a)
    st = Storage()
    text = data[:-1].decode()
    path = "data/lines.jsonl"
    with open(path, "wb") as f:
        f.write(data)
    for i in range(n):
        gc.collect()
        t0 = time.ticks_us()
        st.append_line(path, text, create=False)
        us["append_line"][i] = time.ticks_diff(time.ticks_us(), t0)
    out = {}
    slowest = {}
    for c in us:
        xs = sorted(us[c])
        out[c] = [xs[0], xs[n // 2], xs[-1]]
        slowest[c] = sorted([[i + 1, us[c][i]] for i in range(n)], key=lambda r: -r[1])[:4]
    print("RESULT " + json.dumps({"lines": n, "bytes": size, "us": out, "slowest": slowest}))


def filings(n, record):
    """n finished games filed one after another into the history already on flash, as the
    App files them (app.keeper.Keeper): the press's part (archive: Keeper.put_aside, a rename
    to data/filed.jsonl) timed apart from an idle frame's (file: the move into the history;
    trim: the oldest dropped, the history kept at its size). The record (its bytes on flash
    under `record`) is copied to data/current.jsonl before each, untimed. Prints
    "RESULT {json}": "us" {part: [us of each filing]}."""
    from hal.storage import Storage
    from app.keeper import Keeper
    import paths
    _clean()
    rec = Keeper(Storage())
    rec.boot()  # as the App's boot: its littlefs mount, the history listed
    keep = rec.count or 50
    with open(record, "rb") as f:
        data = f.read()
    us = {"archive": array("i", bytes(4 * n)), "file": array("i", bytes(4 * n)), "trim": array("i", bytes(4 * n))}
    for i in range(n):
        with open(paths.CURRENT, "wb") as f:
            f.write(data)
        gc.collect()
        t0 = time.ticks_us()
        rec.put_aside()
        t1 = time.ticks_us()
        rec.file()
        t2 = time.ticks_us()
        rec.trim(keep)
        t3 = time.ticks_us()
        us["archive"][i], us["file"][i], us["trim"][i] = (time.ticks_diff(t1, t0), time.ticks_diff(t2, t1),
                                                          time.ticks_diff(t3, t2))
    print("RESULT " + json.dumps({"filings": n, "kept": keep, "us": {k: list(v) for k, v in us.items()}}))


# ---- profile --------------------------------------------------------------------------------
PROFILE = {}  # label -> [us, calls]


def _wrap(owner, attr, label):
    f = getattr(owner, attr)
    acc = PROFILE.setdefault(label, [0, 0])
    if type(owner) is type and type(f) is not type(_wrap):
        # a native method inherited by a Python class (FrameBuffer.text): called unbound with
        # the Python instance it would read the instance as its own struct; super() binds it
        def timed(self, *a):
            t0 = time.ticks_us()
            try:
                return getattr(super(owner, self), attr)(*a)
            finally:
                acc[0] += time.ticks_diff(time.ticks_us(), t0)
                acc[1] += 1
    else:
        def timed(*a, **kw):
            t0 = time.ticks_us()
            try:
                return f(*a, **kw)
            finally:
                acc[0] += time.ticks_diff(time.ticks_us(), t0)
                acc[1] += 1
    setattr(owner, attr, timed)


def _profiled(spec):
    """spec: [(module, class or "", attribute, label)]; classes are patched before use."""
    for mod, cls, attr, label in spec:
        try:
            __import__(mod)
            owner = sys.modules[mod]
            if cls:
                owner = getattr(owner, cls)
            _wrap(owner, attr, label)
        except (ImportError, AttributeError):  # the firmware being measured has no such thing
            pass


def _slow(app, names, screens, slow_us):
    """The probe that prints, for each press over slow_us, "S press us screen" and the
    inclusive us of each timed function in it ("label=us;..."), largest first ("gc=1": the
    collector ran in it)."""
    labels = list(PROFILE)
    before = array("i", bytes(4 * len(labels)))

    def mark():
        for j in range(len(labels)):
            before[j] = PROFILE[labels[j]][0]

    def done(i, us, collected):
        if us <= slow_us:
            return
        parts = [(1, "gc")] if collected else []
        for j in range(len(labels)):
            d = PROFILE[labels[j]][0] - before[j]
            if d:
                parts.append((d, labels[j]))
        parts.sort(reverse=True)
        print("S", i, us, names[screens[i]], ";".join("%s=%d" % (l, d) for d, l in parts))
    return mark, done


def profile(path, spec, slow_us=40000):
    _clean()
    keys = _keys(path)
    _profiled(spec)
    app, _ = build()
    n = 0
    for k in keys:
        if k != WAIT:
            n += 1
    for label in PROFILE:
        PROFILE[label][0] = PROFILE[label][1] = 0  # count the game only, not the boot
    times = array("i", bytes(4 * n))
    screens = bytearray(n)
    acc = [0, 0, 0, array("i", bytes(4 * n))]
    names = []
    _play(app, keys, time.ticks_ms(), times, screens, names, acc, [], _slow(app, names, screens, slow_us))
    print("RESULT " + json.dumps({"presses": n, "total_us": sum(times), "gc_presses": acc[0],
                                  "gc_us": acc[1], "profile": PROFILE}))
