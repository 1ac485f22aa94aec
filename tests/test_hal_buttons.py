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


def test_three_button_board_file_mapping_with_fake_digitalio(monkeypatch):
    import sys
    import types
    levels = {"D9": True, "D6": True, "D5": True}

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.direction = None
            self.pull = None

        @property
        def value(self):
            return levels[self.pin]

    digitalio = types.SimpleNamespace(DigitalInOut=DigitalInOut,
                                      Direction=types.SimpleNamespace(INPUT="in"),
                                      Pull=types.SimpleNamespace(UP="up", DOWN="down"))
    board = types.SimpleNamespace(D9="D9", D6="D6", D5="D5")
    monkeypatch.setitem(sys.modules, "digitalio", digitalio)
    monkeypatch.setitem(sys.modules, "board", board)
    feather = {"name": "feather", "runtime": "circuitpython", "three_button": True,
               "buttons": {"UP": "D9", "OK": "D6", "DOWN": "D5"}, "button_pull": "up"}
    buttons = buttons_from_board(feather)
    got = []
    for t in range(0, 1500, 10):
        levels["D6"] = not (100 <= t < 900)   # B held low 800 ms
        buttons.poll(t)
        ev = buttons.take()
        if ev is not None:
            got.append((t, ev))
    assert got == [(700, keys.BACK)]  # settled at 100, long at 100 + 600


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

        def __init__(self, pin_id, mode, pull):
            self.id = pin_id
            levels.setdefault(pin_id, 1)

        def value(self):
            return levels[self.id]

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


def test_wake_on_press_arms_every_pin_and_an_encoder_is_busy_between_detents(monkeypatch):
    import sys
    import types
    levels = {}
    armed = {}

    class Pin:
        IN, PULL_UP, PULL_DOWN = 0, 1, 2
        IRQ_FALLING, IRQ_RISING = 4, 8

        def __init__(self, pin_id, mode, pull):
            self.id = pin_id
            levels.setdefault(pin_id, 1)

        def value(self):
            return levels[self.id]

        def irq(self, handler, trigger):
            armed[self.id] = (callable(handler), trigger)

    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(Pin=Pin))
    board = {"name": "enc", "runtime": "micropython", "buttons": {"OK": 14, "BACK": 15},
             "button_pull": "up", "encoder": {"a": 10, "b": 11, "push": 12}}
    buttons = buttons_from_board(board)
    buttons.wake_on_press()
    assert armed == dict((p, (True, Pin.IRQ_FALLING | Pin.IRQ_RISING)) for p in (10, 11, 12, 14, 15))
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
