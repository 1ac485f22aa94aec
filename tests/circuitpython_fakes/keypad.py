"""Fake of CircuitPython's `keypad`: Keys queues a change of a button as the harness's
scheduled presses make it, timed by the fake supervisor's ticks (the real one scans in the
background; this one looks when its queue is asked)."""
import harness
import supervisor


class Event:
    def __init__(self, key_number=0, pressed=True):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = 0


class _Queue:
    def __init__(self, keys):
        self._keys = keys

    def get_into(self, event):
        keys = self._keys
        for i, pin in enumerate(keys.pins):
            now = harness.pressed(pin.name)
            if now != keys.state[i]:
                keys.state[i] = now
                event.key_number, event.pressed, event.timestamp = i, now, supervisor.ticks_ms()
                return True
        return False


class Keys:
    def __init__(self, pins, value_when_pressed, pull=True, interval=0.02, max_events=64):
        assert value_when_pressed is False and pull  # the wing's buttons short to GND
        self.pins = tuple(pins)
        self.state = [False] * len(self.pins)
        self.events = _Queue(self)

    def reset(self):
        self.state = [False] * len(self.pins)  # a held button: queued as pressed
