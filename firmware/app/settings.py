"""The device's settings (data/settings.json): read field by field, so that a file of any
shape boots. A field of the wrong type or out of range takes its default and the others are
kept; keys this firmware does not know are kept as they are (a newer firmware wrote them).
"""
import json

import paths
from rules_core.record import dumps

# history_keep: finished games kept in data/history; older ones are removed (flash is small)
DEFAULTS = {"brightness": 3, "symbols": True, "history_keep": 50}
HISTORY_KEEP_MAX = 9999
LAYOUTS = ("strip", "matrix5x5")
WINDOWS = 8  # the Sintra palace board's windows, each a printed value 0..9


def defaults(board):
    s = dict(DEFAULTS)
    leds = board.get("leds") or {}
    s["led_count"] = leds.get("count", 0)
    s["led_layout"] = leds.get("layout", "strip")
    return s


def _ok(k, v, leds):
    """True when v is a usable value of setting k (keys this firmware does not know: any)."""
    if k == "brightness" or k == "history_keep" or k == "led_count":
        hi = 5 if k == "brightness" else HISTORY_KEEP_MAX if k == "history_keep" else leds
        return type(v) is int and (0 if k == "led_count" else 1) <= v <= hi
    if k == "symbols":
        return type(v) is bool
    if k == "led_layout":
        return v in LAYOUTS
    if k == "sintra_windows":
        if type(v) is not list or len(v) != WINDOWS:
            return False
        for x in v:
            if type(x) is not int or not 0 <= x <= 9:
                return False
    return True


def check(saved, board):
    """The settings to use: `saved` (anything json.loads gave) over the defaults, field by
    field; returns (settings, [names of the fields that were replaced by defaults])."""
    s = defaults(board)
    if type(saved) is not dict:
        return s, ["the whole file (not an object)"]
    leds = s["led_count"]
    bad = []
    for k in saved:
        if _ok(k, saved[k], leds):
            s[k] = saved[k]
        else:
            bad.append(k)
    return s, bad


def load(storage, board, log):
    """The settings from flash over the defaults; a bad file or field is logged, never raised."""
    saved = {}
    try:
        storage.settle(paths.SETTINGS)  # a save the power cut: the old text or the new
        text = storage.read_text(paths.SETTINGS)
        if text is not None:
            saved = json.loads(text)
    except (OSError, ValueError) as e:  # ValueError: JSON, and UnicodeError is one too
        log("settings unreadable, defaults used: %s" % (e,))
        saved = {}
    s, bad = check(saved, board)
    if bad:
        log("settings: defaults used for %s" % ", ".join(bad))
    return s


def save(storage, settings):
    """Write the settings atomically; OSError when the flash refuses (nothing changed then)."""
    storage.write_atomic(paths.SETTINGS, dumps(settings) + "\n")
