"""Key events: a small int, key code | flags, so latching an event allocates nothing."""
from hal.compat import const

UP = const(1)
DOWN = const(2)
LEFT = const(3)
RIGHT = const(4)
OK = const(5)
BACK = const(6)

CODE_MASK = const(15)
LONG = const(16)    # the key was held past long_ms (fires once, while still held)
REPEAT = const(32)  # auto-repeat of a held direction key

# index = code; NAMES[0] is unused
NAMES = ("", "UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")


def code_of(name):
    """Key code for a name such as "OK"; ValueError names the unknown key."""
    for i in range(1, len(NAMES)):
        if NAMES[i] == name:
            return i
    raise ValueError("unknown key name %r (expected one of %s)" % (name, ", ".join(NAMES[1:])))


def describe(event):
    """Readable form of an event for logs and tests: "UP", "OK+LONG", "DOWN+REPEAT"."""
    text = NAMES[event & CODE_MASK]
    if event & LONG:
        text += "+LONG"
    if event & REPEAT:
        text += "+REPEAT"
    return text
