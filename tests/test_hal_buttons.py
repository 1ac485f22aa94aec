"""Button logic: debounce, long press, repeat, latching, 3-button mapping, encoder decoding.

Times below are worked out from the defaults debounce_ms=20, long_ms=600, repeat_ms=120
unless a test says otherwise; a press counts from the sample where the contact settled.
"""
from hal import keys
from hal.buttons import ButtonLogic, buttons_from_board, THREE_BUTTON_NAMES, THREE_BUTTON_LONG_AS
from hal.encoder import QuadratureDecoder
from host_tools.vhal import VirtualButtons

SIX = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")
BIT = dict((name, 1 << i) for i, name in enumerate(SIX))


def drain(logic):
    out = []
    ev = logic.take()
    while ev is not None:
        out.append(ev)
        ev = logic.take()
    return out


def feed(logic, samples):
    """samples: [(time_ms, mask)]; returns [(time_ms, event)] taken after each sample."""
    out = []
    for t, mask in samples:
        logic.update(t, mask)
        out.extend((t, ev) for ev in drain(logic))
    return out


def test_bouncy_press_gives_one_event_after_stable_debounce():
    logic = ButtonLogic(SIX)
    ok = BIT["OK"]
    # contact chatters for 6 ms, then stays closed from t=6 until it opens at t=100
    samples = [(0, ok), (2, 0), (4, ok), (5, 0), (6, ok), (10, ok), (20, ok), (26, ok),
               (60, ok), (100, 0), (101, ok), (103, 0), (110, 0), (123, 0), (140, 0)]
    got = feed(logic, samples)
    # OK fires on release: the open contact is stable for 20 ms at t=123 (since t=103)
    assert got == [(123, keys.OK)]
    assert logic.pressed == 0


def test_glitch_shorter_than_debounce_is_ignored():
    logic = ButtonLogic(SIX)
    got = feed(logic, [(0, BIT["UP"]), (15, 0), (40, 0), (80, 0)])
    assert got == []


def test_direction_key_fires_on_press_then_repeats():
    logic = ButtonLogic(SIX)
    up = BIT["UP"]
    samples = [(t, up) for t in range(0, 1000, 10)] + [(1000, 0), (1030, 0)]
    got = feed(logic, samples)
    # press settles at t=0, debounced at t=20 -> UP; repeats at held 600, 720, 840, 960 ms
    assert got == [(20, keys.UP), (600, keys.UP | keys.REPEAT), (720, keys.UP | keys.REPEAT),
                   (840, keys.UP | keys.REPEAT), (960, keys.UP | keys.REPEAT)]


def test_late_frame_gives_one_repeat_not_a_burst():
    logic = ButtonLogic(SIX)
    left = BIT["LEFT"]
    got = feed(logic, [(0, left), (20, left), (1500, left), (1550, left), (1620, left)])
    # at 1500 one repeat (due since 600); the next is one period later, at 1620
    assert got == [(20, keys.LEFT), (1500, keys.LEFT | keys.REPEAT), (1620, keys.LEFT | keys.REPEAT)]


def test_long_press_fires_once_while_held_and_release_is_silent():
    logic = ButtonLogic(SIX)
    ok = BIT["OK"]
    samples = [(t, ok) for t in range(0, 2000, 50)] + [(2000, 0), (2050, 0)]
    got = feed(logic, samples)
    assert got == [(600, keys.OK | keys.LONG)]


def test_short_press_of_ok_and_back():
    logic = ButtonLogic(SIX)
    got = feed(logic, [(0, BIT["BACK"]), (30, BIT["BACK"]), (200, 0), (230, 0),
                       (300, BIT["OK"]), (330, BIT["OK"]), (599 + 300, 0), (930, 0)])
    assert got == [(230, keys.BACK), (930, keys.OK)]


def test_events_latch_between_frames_in_order():
    logic = ButtonLogic(SIX)
    up, back = BIT["UP"], BIT["BACK"]
    # three frames of samples go by without the app taking anything
    for t, mask in [(0, up), (30, up), (60, 0), (90, back), (120, back), (150, 0), (180, 0),
                    (200, up), (230, up), (260, 0)]:
        logic.update(t, mask)
    assert drain(logic) == [keys.UP, keys.BACK, keys.UP]
    assert logic.take() is None


def test_ring_full_drops_newest_and_counts():
    logic = ButtonLogic(("UP",))
    for k in range(20):
        logic.push(keys.UP if k < 16 else keys.DOWN)
    assert logic.dropped == 4
    assert drain(logic) == [keys.UP] * 16


def test_all_buttons_at_once():
    logic = ButtonLogic(SIX)
    everything = (1 << 6) - 1
    got = feed(logic, [(0, everything), (20, everything), (100, 0), (120, 0)])
    # directions on press (in bit order), OK and BACK on release
    assert got == [(20, keys.UP), (20, keys.DOWN), (20, keys.LEFT), (20, keys.RIGHT),
                   (120, keys.OK), (120, keys.BACK)]
    assert logic.held(keys.OK) is False


def test_held_reports_debounced_state():
    logic = ButtonLogic(SIX)
    logic.update(0, BIT["BACK"])
    assert not logic.held(keys.BACK)
    logic.update(25, BIT["BACK"])
    assert logic.held(keys.BACK) and not logic.held(keys.OK)


def test_three_button_mapping():
    # what buttons_from_board builds for a three-button board: long UP = LEFT, long OK = BACK, long DOWN = RIGHT
    logic = ButtonLogic(THREE_BUTTON_NAMES, 20, 600, 0, (), THREE_BUTTON_LONG_AS)
    up, ok, down = 1, 2, 4
    got = feed(logic, [
        (0, up), (30, up), (100, 0), (130, 0),                    # short UP -> UP on release
        (200, up), (230, up), (800, up), (900, 0), (930, 0),      # long UP -> LEFT, once
        (1000, down), (1600, down), (1700, 0), (1730, 0),         # long DOWN -> RIGHT
        (2000, ok), (2600, ok), (2700, 0), (2730, 0),             # long OK -> BACK
        (3000, down), (3030, down), (3100, 0), (3130, 0),         # short DOWN
        (3200, ok), (3230, ok), (3300, 0), (3330, 0),             # short OK
    ])
    assert got == [(130, keys.UP), (800, keys.LEFT), (1600, keys.RIGHT), (2600, keys.BACK),
                   (3130, keys.DOWN), (3330, keys.OK)]


class FakeKeypad:
    """CircuitPython's keypad as the test drives it: queued (key, pressed, timestamp) events."""

    def __init__(self):
        self.queue = []
        self.made = None
        self.reset = False
        fake = self

        class Event:
            key_number, pressed, timestamp = 0, False, 0

        class Keys:
            def __init__(self, pins, value_when_pressed, pull, interval):
                fake.made = (pins, value_when_pressed, pull, interval)
                self.events = self

            def reset(self):
                fake.reset = True

            def get_into(self, event):
                if not fake.queue:
                    return False
                event.key_number, event.pressed, event.timestamp = fake.queue.pop(0)
                return True

        self.Event, self.Keys = Event, Keys


def feather(monkeypatch):
    import sys
    import types
    kp = FakeKeypad()
    monkeypatch.setitem(sys.modules, "keypad", kp)
    monkeypatch.setitem(sys.modules, "board", types.SimpleNamespace(D9="D9", D6="D6", D5="D5"))
    board = {"name": "feather", "runtime": "circuitpython", "three_button": True,
             "buttons": {"UP": "D9", "OK": "D6", "DOWN": "D5"}, "button_pull": "up"}
    return buttons_from_board(board), kp


def test_three_button_board_file_mapping_with_fake_keypad(monkeypatch):
    buttons, kp = feather(monkeypatch)
    assert kp.made == (("D9", "D5", "D6"), False, True, 0.005)  # UP, DOWN, OK: short to GND
    assert kp.reset  # a button held at power-on is queued as pressed
    got = []
    for t in range(0, 1500, 10):
        if t == 100:
            kp.queue.append((2, True, 100))   # B (OK) held low 800 ms
        if t == 900:
            kp.queue.append((2, False, 900))
        buttons.poll(t)
        ev = buttons.take()
        if ev is not None:
            got.append((t, ev))
    assert got == [(700, keys.BACK)]  # settled at 100, long at 100 + 600


def test_a_press_while_the_app_is_busy_is_seen_from_its_latched_edges(monkeypatch):
    """Polled at 0 and 2000 ms only: the press between them is taken from keypad's queue."""
    buttons, kp = feather(monkeypatch)
    buttons.poll(0)
    kp.queue += [(1, True, 300), (1, False, 380)]  # C (DOWN) pressed for 80 ms
    buttons.poll(2000)
    assert buttons.take() == keys.DOWN and buttons.take() is None
    kp.queue += [(2, True, 2100), (2, False, 2900)]  # B held 800 ms: long press
    buttons.poll(4000)
    assert buttons.take() == keys.BACK and buttons.take() is None
    kp.queue += [(0, True, 4100), (0, False, 4110)]  # a 10 ms glitch stays a glitch
    buttons.poll(6000)
    assert buttons.take() is None


def test_latched_edges_make_the_samples_a_frame_apart_would_have_made():
    """ButtonLogic.edge(t, mask) = the pins as they were up to t, then mask: the same presses
    and long presses as samples taken every millisecond (a long press may come later, at the
    next edge or poll: the loop polls a frame apart while a key is held, as for the repeats).
    No hold lasts exactly the debounce or the long press (the two differ by a sample there)."""
    import random
    rng = random.Random(5)
    for _ in range(200):
        t, mask, edges = 0, 0, []
        for _ in range(rng.randrange(1, 8)):
            t += rng.choice((7, 41, 83, 211, 733))
            mask ^= 1 << rng.randrange(6)
            edges.append((t, mask))
        edges.append((t + 1000, 0))
        latched, sampled = ButtonLogic(SIX, repeat_ms=0), ButtonLogic(SIX, repeat_ms=0)
        for at, m in edges:
            latched.edge(at, m)
        latched.update(t + 3000, 0)
        i = 0
        for now in range(0, t + 3000):
            while i < len(edges) and edges[i][0] <= now:
                i += 1
            sampled.update(now, edges[i - 1][1] if i else 0)
        assert sorted(drain(latched)) == sorted(drain(sampled)), edges


# Clockwise Gray sequence with A as the high bit: 11 -> 10 -> 00 -> 01 -> 11 is one detent.
CW = (0b10, 0b00, 0b01, 0b11)


def test_quadrature_full_detents_both_ways():
    dec = QuadratureDecoder(steps_per_detent=4, ab=0b11)
    assert [dec.update(ab) for ab in CW * 2] == [0, 0, 0, 1, 0, 0, 0, 1]
    ccw = tuple(reversed(CW[:-1])) + (0b11,)  # 01, 00, 10, 11
    assert [dec.update(ab) for ab in ccw] == [0, 0, 0, -1]


def test_quadrature_bounce_on_one_edge_cancels():
    dec = QuadratureDecoder(ab=0b11)
    # chatter between 11 and 10 nets zero quarter steps; then the rest of the detent
    steps = [dec.update(ab) for ab in (0b10, 0b11, 0b10, 0b11, 0b10, 0b00, 0b01, 0b11)]
    assert steps == [0, 0, 0, 0, 0, 0, 0, 1]


def test_quadrature_ignores_impossible_jump():
    dec = QuadratureDecoder(ab=0b11)
    assert dec.update(0b00) == 0  # both bits changed: direction unknown, counts nothing
    assert [dec.update(ab) for ab in (0b01, 0b11, 0b10, 0b00)] == [0, 0, 0, 1]


def test_encoder_board_turns_and_push(monkeypatch):
    import sys
    import types
    levels = {}

    class Pin:
        IN, PULL_UP, PULL_DOWN = 0, 1, 2
        IRQ_FALLING, IRQ_RISING = 4, 8

        def __init__(self, pin_id, mode, pull):
            self.id = pin_id
            levels.setdefault(pin_id, 1)

        def value(self):
            return levels[self.id]

        def irq(self, handler, trigger, hard=False):
            pass  # (polled here: the levels change between polls, no edge is latched)

    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(Pin=Pin))
    board = {"name": "enc", "runtime": "micropython", "buttons": {},
             "button_pull": "up", "encoder": {"a": 10, "b": 11, "push": 12}}
    buttons = buttons_from_board(board)
    got = []
    t = 0

    def step(a, b, push=1):
        nonlocal t
        levels[10], levels[11], levels[12] = a, b, push
        buttons.poll(t)
        ev = buttons.take()
        while ev is not None:
            got.append(ev)
            ev = buttons.take()
        t += 10

    step(1, 1)
    for ab in CW:                     # one clockwise detent -> UP
        step(ab >> 1, ab & 1)
    for ab in (0b01, 0b00, 0b10, 0b11):  # one counter-clockwise detent -> DOWN
        step(ab >> 1, ab & 1)
    for _ in range(5):                # short push -> OK on release
        step(1, 1, 0)
    step(1, 1, 1)
    step(1, 1, 1)
    step(1, 1, 1)
    for _ in range(70):               # long push -> BACK
        step(1, 1, 0)
    step(1, 1, 1)
    step(1, 1, 1)
    step(1, 1, 1)
    assert got == [keys.UP, keys.DOWN, keys.OK, keys.BACK]


def test_virtual_buttons_script():
    vb = VirtualButtons()
    vb.hold("OK", 100, 80)
    vb.hold("OK", 400, 900)
    vb.hold("DOWN", 1500, 300)
    events = [ev for _, ev in vb.run(2000)]
    assert [keys.describe(ev) for ev in events] == ["OK", "OK+LONG", "DOWN"]


def test_describe_and_code_of():
    assert keys.describe(keys.UP | keys.REPEAT) == "UP+REPEAT"
    assert keys.code_of("BACK") == 6
    try:
        keys.code_of("MENU")
    except ValueError as e:
        assert "MENU" in str(e)
    else:
        raise AssertionError("unknown key accepted")


def test_busy_from_the_first_contact_to_the_debounced_release():
    """main.py sleeps long only when no button is busy: every sample of a press must come a
    frame apart, or the debounce and the long press would be timed by the sleep."""
    logic = ButtonLogic(SIX)
    ok = BIT["OK"]
    busy = []
    for t, mask in [(0, 0), (10, ok), (20, ok), (30, ok), (100, 0), (110, 0), (120, 0), (130, 0)]:
        logic.update(t, mask)
        busy.append(logic.busy())
    assert busy == [False, True, True, True, True, True, False, False]
    assert drain(logic) == [keys.OK]  # fired at t=120: released and stable for 20 ms


def test_a_pin_interrupt_latches_each_edge_and_an_encoder_is_busy_between_detents(monkeypatch):
    import sys
    import types
    levels = {}
    armed = {}
    clock = [0]

    class Pin:
        IN, PULL_UP, PULL_DOWN = 0, 1, 2
        IRQ_FALLING, IRQ_RISING = 4, 8

        def __init__(self, pin_id, mode, pull):
            self.id = pin_id
            levels.setdefault(pin_id, 1)

        def value(self):
            return levels[self.id]

        def irq(self, handler, trigger, hard=False):
            armed[self.id] = (handler, trigger, hard)

    def edge(pin_id, level, at):  # the pin changes at `at`: its interrupt runs then
        clock[0] = at
        levels[pin_id] = level
        armed[pin_id][0](pin_id)

    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(Pin=Pin))
    monkeypatch.setattr("hal.buttons.ticks_ms", lambda: clock[0])
    board = {"name": "enc", "runtime": "micropython", "buttons": {"OK": 14, "BACK": 15},
             "button_pull": "up", "encoder": {"a": 10, "b": 11, "push": 12}}
    buttons = buttons_from_board(board)
    assert sorted(armed) == [10, 11, 12, 14, 15]
    assert set((t, hard) for _, t, hard in armed.values()) == {(Pin.IRQ_FALLING | Pin.IRQ_RISING, True)}
    buttons.poll(0)
    assert not buttons.busy()
    levels[10] = 0  # A leads: a quarter step of a detent
    buttons.poll(10)
    assert buttons.busy()
    levels[11] = 0
    buttons.poll(20)
    levels[10] = 1
    buttons.poll(30)
    levels[11] = 1  # the detent completes: one step
    buttons.poll(40)
    assert not buttons.busy() and buttons.take() == keys.DOWN
    # OK pressed for 80 ms between two polls 2 s apart: latched by its pin's interrupt
    edge(14, 0, 100)
    edge(14, 1, 180)
    buttons.poll(2000)
    assert buttons.take() == keys.OK and buttons.take() is None
