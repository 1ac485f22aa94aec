"""The device's settings (data/settings.json): read field by field, so that a file of any
shape boots. A field of the wrong type or out of range takes its default and the others are
kept; keys this firmware does not know are kept as they are (a newer firmware wrote them).

The Sintra board values (app.sintra_board) are stored only once the owner has entered or
confirmed them on the device: a key present is a confirmed value, a key absent is not entered
yet (windows) or the inferred table, unverified (track, ornaments).
"""
# history_keep: finished games kept in data/history; older ones are removed (flash is small)
# dim_after, blank_after: seconds without a key before the display dims / goes dark (0: never)
# language: one of app.lang.LANGUAGES' codes, present once chosen (until then the board's:
# App.language)
DEFAULTS = {"brightness": 3, "symbols": True, "history_keep": 50, "dim_after": 120, "blank_after": 600}
HISTORY_KEEP_MAX = 9999
IDLE_MAX = 86400  # a day
LAYOUTS = ("strip", "matrix5x5")
# the Sintra board values as the device enters them (their check: sintra_problem)
SINTRA = ("sintra_windows_A", "sintra_windows_B", "sintra_track", "sintra_ornaments")


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
    if k == "dim_after" or k == "blank_after":
        return type(v) is int and 0 <= v <= IDLE_MAX
    if k == "symbols":
        return type(v) is bool
    if k == "led_layout":
        return v in LAYOUTS
    if k == "language":
        from app.lang import LANGUAGES
        return v in [code for code, _ in LANGUAGES]
    if k in SINTRA:
        return sintra_problem(k, v) is None
    return _plain(v)


def _plain(v):
    """True when v writes back as JSON: no NaN or infinity (which json.loads reads) in it."""
    t = type(v)
    if t is float:
        return v == v and v - v == 0
    if t is list:
        for x in v:
            if not _plain(x):
                return False
    if t is dict:
        for k in v:
            if not _plain(v[k]):
                return False
    return True


def sintra_problem(k, v):
    """What is wrong with v as the Sintra board value k, or None: the rules' own check
    (rules_core.sintra_board, which a record's options.board meets too) as a short line's
    format (the catalogue's English: app.lang) and its values, a tuple."""
    from rules_core.sintra_board import problem_format
    return problem_format(k.split("_")[1], v)


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


def load(keeper, board):
    """The settings from flash over the defaults. A file that is not an object of settings
    (too big, not UTF-8, not JSON, nested too deep), or a field of it, is logged and written
    again as the settings in use; never raised."""
    saved, problem = keeper.read_settings()
    s, bad = check({} if saved is None else saved, board)
    if problem:
        keeper.log("settings unreadable, defaults used: %s" % problem)
    elif bad:
        keeper.log("settings: defaults used for %s" % ", ".join(bad))
    if problem or bad:
        try:
            keeper.save_settings(as_text(s))
        except OSError as e:
            keeper.log("settings not written again: %s" % (e,))
    return s


def save(app, changes, text=None):
    """Write app's settings with `changes` (text: their file's text, made ahead) atomically,
    then make the App use them; False (and says why) when the flash refused them: the old
    settings stay in use. (Here, not in the App: only the settings screens save.)"""
    new = dict(app.settings)
    new.update(changes)
    try:
        app.keeper.save_settings(text or as_text(new))
    except OSError as e:
        from app.keeper import why
        app.log("settings not saved: %s" % (e,))
        app.refuse("not saved: " + why(e))
        return False
    app.settings = new
    app.apply_settings()
    return True


def as_text(settings):
    """The settings file's text."""
    from rules_core.record import dumps  # (not needed to read them at boot)
    return dumps(settings) + "\n"
