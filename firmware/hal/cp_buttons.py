"""The button readers of a CircuitPython board (hal.buttons.buttons_from_board): apart, so
that a MicroPython board's heap holds none of their code."""


class DigitalioReader:
    """CircuitPython: digitalio inputs named by board attribute ("D9") -> pressed mask."""

    def __init__(self, pin_names, active_low=True):
        import board
        import digitalio
        self._ios = []
        for name in pin_names:
            io = digitalio.DigitalInOut(getattr(board, name))
            io.direction = digitalio.Direction.INPUT
            io.pull = digitalio.Pull.UP if active_low else digitalio.Pull.DOWN
            self._ios.append(io)
        self._level = not active_low

    def read(self):
        mask = 0
        for i in range(len(self._ios)):
            if self._ios[i].value == self._level:
                mask |= 1 << i
        return mask


class KeypadReader:
    """CircuitPython: keypad.Keys (scanned in the background) -> pressed mask."""

    def __init__(self, pin_names, active_low=True):
        import board
        import keypad
        pins = tuple(getattr(board, name) for name in pin_names)
        self._keys = keypad.Keys(pins, value_when_pressed=not active_low, pull=True)
        self._event = keypad.Event()
        self._mask = 0

    def read(self):
        while self._keys.events.get_into(self._event):
            bit = 1 << self._event.key_number
            if self._event.pressed:
                self._mask |= bit
            else:
                self._mask &= ~bit
        return self._mask
