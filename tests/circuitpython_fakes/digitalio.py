"""Fake of CircuitPython's `digitalio`: inputs read the harness's scheduled presses; a
button shorts its pin to GND (as on the OLED FeatherWing), the pull-up reads high otherwise."""
import harness


class Direction:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"


class Pull:
    UP = "UP"
    DOWN = "DOWN"


class DriveMode:
    PUSH_PULL = "PUSH_PULL"
    OPEN_DRAIN = "OPEN_DRAIN"


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.direction = Direction.INPUT
        self.pull = None
        self._out = False

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction = Direction.OUTPUT
        self._out = value

    @property
    def value(self):
        if self.direction == Direction.OUTPUT:
            return self._out
        return self.pull == Pull.UP and not harness.pressed(self.pin.name)

    @value.setter
    def value(self, v):
        self._out = bool(v)

    def deinit(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
