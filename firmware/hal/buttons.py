"""Buttons: debounce, long press and auto-repeat as a pure function of pin samples.

ButtonLogic never touches a pin: a backend samples the pins into `pressed_mask`
(bit i = button i pressed, already de-inverted) and calls update(now_ms, mask) every
frame; the app calls take() until it returns None. Events are ints from keys.py.

Per button, one of two behaviours:
- repeating keys (UP/DOWN/LEFT/RIGHT by default): the key event fires as soon as the
  press is debounced; held past long_ms, KEY|REPEAT fires, then every repeat_ms.
- other keys (OK, BACK, and every key when repeat_ms == 0): the key event fires on
  release; held past long_ms, KEY|LONG (or the key named in long_as) fires once, while
  still held, and the release that follows fires nothing.

Three-button boards (UP, OK, DOWN physical; see buttons_from_board):
  short UP = UP, short OK = OK, short DOWN = DOWN,
  long UP = LEFT, long OK = BACK, long DOWN = RIGHT (no auto-repeat on these boards).
Rotary encoder: hal.encoder's QuadratureDecoder turns A/B samples into steps (imported only
for a board that has one); one detent clockwise = UP, counter-clockwise = DOWN (swap the A
and B pins to reverse); the push switch is an "OK" button whose long press is BACK.

No press is lost however long the app is busy between two polls: the pins' edges are
latched as they happen (MicroPython: a pin interrupt that notes the time and the pins;
CircuitPython: keypad.Keys, which scans in the background and queues timed events), and
poll() feeds each latched edge to ButtonLogic as two samples, the pins as they were up to
the edge's time and as they are after it (edge()): the same pure logic decides debounce and
long press from them as from samples taken a frame apart.

update() and take() allocate nothing: state lives in preallocated lists and a bytearray
ring, and times are small ints (ticks wrap below 2**30).
"""
from hal.compat import const
from hal import keys
from hal.clock import ticks_diff, ticks_ms

RING_SIZE = const(16)
EDGES = const(16)  # latched pin edges kept between two polls
_FIRED = const(-1)  # _next_at value: the long press has fired, nothing more until release

DIRECTION_KEYS = ("UP", "DOWN", "LEFT", "RIGHT")
THREE_BUTTON_NAMES = ("UP", "OK", "DOWN")
THREE_BUTTON_LONG_AS = ("LEFT", "BACK", "RIGHT")


class ButtonLogic:
    """Debounced key events from pin samples, latched in a ring until the app takes them."""

    def __init__(self, names, debounce_ms=20, long_ms=600, repeat_ms=120,
                 repeat_keys=DIRECTION_KEYS, long_as=None):
        n = len(names)
        if n < 1 or n > 16:
            raise ValueError("ButtonLogic: need 1..16 buttons, got %d" % n)
        self.names = tuple(names)
        self._n = n
        self._codes = bytearray(n)
        self._long_events = bytearray(n)  # event fired by a long press of button i
        repeat_mask = 0
        for i in range(n):
            code = keys.code_of(names[i])
            self._codes[i] = code
            self._long_events[i] = code | keys.LONG
            if long_as is not None and long_as[i]:
                self._long_events[i] = keys.code_of(long_as[i])
            if repeat_ms > 0 and names[i] in repeat_keys:
                repeat_mask |= 1 << i
        self._repeat_mask = repeat_mask
        self._debounce_ms = debounce_ms
        self._long_ms = long_ms
        self._repeat_ms = repeat_ms
        self._raw = 0        # last sampled mask
        self._stable = 0     # debounced mask
        self._changed_at = [0] * n  # when bit i of the raw sample last changed
        self._pressed_at = [0] * n  # when the current debounced press settled
        self._next_at = [0] * n     # hold time (ms) at which the next LONG/REPEAT fires
        self._ring = bytearray(RING_SIZE)
        self._head = 0
        self._count = 0
        self.dropped = 0  # events lost because the ring was full

    @property
    def pressed(self):
        """Debounced mask of the buttons held now."""
        return self._stable

    def busy(self):
        """True while a button is down or its release is being debounced: the next samples
        must come a frame apart (debounce, long press, repeat)."""
        return (self._raw | self._stable) != 0

    def held(self, code):
        """True while a button with this key code is (debounced) held, e.g. for safe mode."""
        for i in range(self._n):
            if self._codes[i] == code and self._stable & (1 << i):
                return True
        return False

    def update(self, now_ms, pressed_mask):
        """Feed one sample; latches any events it completes (a press, a release, a long
        press or a repeat of each button: inline, it runs every frame)."""
        changed = pressed_mask ^ self._raw
        self._raw = pressed_mask
        stable = self._stable
        repeat = self._repeat_mask
        next_at = self._next_at
        for i in range(self._n):
            bit = 1 << i
            if changed & bit:
                self._changed_at[i] = now_ms
            if (pressed_mask ^ stable) & bit and \
                    ticks_diff(now_ms, self._changed_at[i]) >= self._debounce_ms:
                stable ^= bit
                if stable & bit:  # pressed: a repeating key fires now, the others on release
                    self._pressed_at[i] = self._changed_at[i]
                    next_at[i] = self._long_ms
                    if repeat & bit:
                        self.push(self._codes[i])
                elif not repeat & bit and next_at[i] != _FIRED:  # released before its long press
                    self.push(self._codes[i])
            if stable & bit and next_at[i] != _FIRED:  # held: a long press or a repeat due?
                held_ms = ticks_diff(now_ms, self._pressed_at[i])
                due = next_at[i]
                if held_ms < due:
                    continue
                if repeat & bit:
                    self.push(self._codes[i] | keys.REPEAT)
                    due += self._repeat_ms
                    if due <= held_ms:  # a late frame: one repeat now, the next one a period later
                        due = held_ms + self._repeat_ms
                    next_at[i] = due
                else:
                    self.push(self._long_events[i])
                    next_at[i] = _FIRED
        self._stable = stable

    def edge(self, at_ms, pressed_mask):
        """A latched edge: the pins as they were up to at_ms (the last sample's), then as
        they are from it."""
        self.update(at_ms, self._raw)
        self.update(at_ms, pressed_mask)

    def push(self, event):
        """Latch an event (also used for encoder steps); a full ring drops the newest."""
        if self._count == RING_SIZE:
            self.dropped += 1
            return
        self._ring[(self._head + self._count) % RING_SIZE] = event
        self._count += 1

    def take(self):
        """The oldest latched event, or None."""
        if self._count == 0:
            return None
        event = self._ring[self._head]
        self._head = (self._head + 1) % RING_SIZE
        self._count -= 1
        return event

    def pending(self):
        return self._count

    def clear(self):
        """Drop latched events (e.g. when a screen changes and old presses must not leak)."""
        self._count = 0


class Buttons:
    """Polls a pin reader (and an optional encoder) into one ButtonLogic each frame.

    reader.read() -> pressed mask; ab_reader.read() -> (A << 1) | B. A reader that latches
    edges (the board's) also has edge() -> the mask after the oldest edge latched since the
    last poll (its time in reader.edge_ms), or -1 when there is none.
    """

    def __init__(self, logic, reader, ab_reader=None, decoder=None):
        self.logic = logic
        self._reader = reader
        self._ab_reader = ab_reader
        self._decoder = decoder
        self._edge = getattr(reader, "edge", None)
        self._ab_edge = getattr(ab_reader, "edge", None)

    def poll(self, now_ms):
        ab = self._ab_reader
        if ab is not None:
            edge = self._ab_edge
            if edge is not None:
                mask = edge()
                while mask >= 0:  # every latched transition of A and B, in order
                    self._turn(mask)
                    mask = edge()
            self._turn(ab.read())
        reader = self._reader
        edge = self._edge
        if edge is not None:
            mask = edge()
            while mask >= 0:
                self.logic.edge(reader.edge_ms, mask)
                mask = edge()
        self.logic.update(now_ms, reader.read())

    def _turn(self, ab):
        step = self._decoder.update(ab)
        if step > 0:
            self.logic.push(keys.UP)
        elif step < 0:
            self.logic.push(keys.DOWN)

    def take(self):
        return self.logic.take()

    def busy(self):
        """A press (or an encoder step) is under way: poll again within a frame."""
        return self.logic.busy() or (self._decoder is not None and self._decoder.moving())


class MachinePinReader:
    """MicroPython: machine.Pin inputs -> pressed mask (pull-up, active low by default).

    An interrupt on both edges of every pin latches the time and the pins at each edge in a
    ring (EDGES of them between two polls; more are dropped, the pins read at the poll stay
    right). It is also what ends machine.lightsleep(ms) early on rp2 (hal.clock). A hard
    interrupt where the port has them: it runs at the edge, even inside a long C call, and
    allocates nothing."""

    def __init__(self, pins, active_low=True):
        from machine import Pin
        pull = Pin.PULL_UP if active_low else Pin.PULL_DOWN
        self._pins = [Pin(p, Pin.IN, pull) for p in pins]
        self._level = 0 if active_low else 1
        self._times = [0] * EDGES  # type: list
        self._masks = [0] * EDGES
        self._head = 0  # written by the interrupt only
        self._tail = 0  # written by edge() only
        self.edge_ms = 0
        handler = self._latch  # (one bound method, made once)
        trigger = Pin.IRQ_FALLING | Pin.IRQ_RISING
        for p in self._pins:
            try:
                p.irq(handler, trigger, hard=True)
            except (TypeError, ValueError):  # a port without hard pin interrupts
                p.irq(handler, trigger)

    def read(self):
        mask = 0
        for i in range(len(self._pins)):
            if self._pins[i].value() == self._level:
                mask |= 1 << i
        return mask

    def _latch(self, pin):
        head = self._head
        nxt = (head + 1) % EDGES
        if nxt != self._tail:
            self._times[head] = ticks_ms()
            self._masks[head] = self.read()
            self._head = nxt

    def edge(self):
        tail = self._tail
        if tail == self._head:
            return -1
        self.edge_ms = self._times[tail]
        mask = self._masks[tail]
        self._tail = (tail + 1) % EDGES
        return mask


def buttons_from_board(board, debounce_ms=20, long_ms=600, repeat_ms=120):
    """Build Buttons from a board file's BOARD dict (keys "buttons", "button_pull",
    "three_button", "encoder": {"a", "b", "push"}, "runtime")."""
    pins = board.get("buttons") or {}
    names = [name for name in keys.NAMES[1:] if name in pins]
    pin_ids = [pins[name] for name in names]
    long_as = [None] * len(names)  # type: list[str | None]
    if board.get("three_button"):
        for i in range(len(names)):
            names_i = THREE_BUTTON_NAMES.index(names[i])  # ValueError names a stray key
            long_as[i] = THREE_BUTTON_LONG_AS[names_i]
        repeat_ms = 0
    encoder = board.get("encoder")
    if encoder:
        names.append("OK")
        pin_ids.append(encoder["push"])
        long_as.append("BACK")
    if not names:
        raise ValueError("board %r: no buttons and no encoder" % board.get("name"))
    logic = ButtonLogic(names, debounce_ms, long_ms, repeat_ms, DIRECTION_KEYS, long_as)
    active_low = board.get("button_pull", "up") == "up"
    if board.get("runtime") == "circuitpython":
        from hal import cp_buttons  # (a MicroPython board's heap holds none of it)
        reader_class = cp_buttons.KeypadReader  # type: type
    else:
        reader_class = MachinePinReader
    reader = reader_class(pin_ids, active_low)
    if not encoder:
        return Buttons(logic, reader)
    from hal.encoder import QuadratureDecoder  # (a board without one holds none of it)
    # mask bit 1 = A, bit 0 = B; inverting both levels keeps the direction of the Gray code
    ab_reader = reader_class((encoder["b"], encoder["a"]), active_low)
    return Buttons(logic, reader, ab_reader, QuadratureDecoder(encoder.get("steps_per_detent", 4)))
