"""The button reader of a CircuitPython board (hal.buttons.buttons_from_board): apart, so
that a MicroPython board's heap holds none of its code."""

SCAN_S = 0.005  # keypad's background scan: an edge is timed to within this


class KeypadReader:
    """CircuitPython: keypad.Keys, which scans the pins in the background and queues each
    change with its time (supervisor ticks, as hal.clock's), so a press made while the app is
    busy is still seen -> pressed mask and latched edges (hal.buttons.Buttons)."""

    def __init__(self, pin_names, active_low=True):
        import board
        import keypad
        pins = tuple(getattr(board, name) for name in pin_names)
        self._keys = keypad.Keys(pins, value_when_pressed=not active_low, pull=True, interval=SCAN_S)
        self._keys.reset()  # a button already down (held at power-on: safe mode) is queued as pressed
        self._event = keypad.Event()
        self._mask = 0
        self.edge_ms = 0

    def edge(self):
        """The mask after the oldest queued change, or -1 (allocates nothing: get_into)."""
        event = self._event
        if not self._keys.events.get_into(event):
            return -1
        bit = 1 << event.key_number
        if event.pressed:
            self._mask |= bit
        else:
            self._mask &= ~bit
        self.edge_ms = event.timestamp
        return self._mask

    def read(self):
        while self.edge() >= 0:  # (Buttons.poll has taken them as edges already)
            pass
        return self._mask
