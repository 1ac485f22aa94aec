"""Idle: the display dims, then goes dark, while nobody presses a key (an OLED showing the
same scoreboard for an hour burns in, and a battery runs down).

After the setting dim_after (seconds, 0 = never) without a key the display drops to a low
contrast and the LEDs dim; after blank_after the display goes dark (the SSD1306's sleep
mode, its frame kept in its RAM) and the LEDs go dark but one slow "I am on" blink (none
where their supply is switched: app.leds; the board then sleeps until a key). With no
LED in use the panel stays on instead, showing only a small dot that moves every few seconds.
A key on a dimmed screen restores it and acts as usual; a key on a dark screen only wakes it,
so nothing is entered unseen. Nothing here touches the game or the flash.

The level only rises until a key: a ticks difference that wraps (days later) cannot wake it.
"""
from hal.compat import const

ACTIVE = 0
DIM = 1
BLANK = 2

FULL_CONTRAST = 255  # what the SSD1306 drivers set at power-on
DIM_CONTRAST = 8
_MARK_MS = const(4000)  # the dot on a dark screen moves this often, so no pixel stays lit
FOREVER_MS = 1 << 28  # "nothing due": below the ticks half-period on every runtime


class Idle:
    def __init__(self, display, clock):
        self.display = display
        self.clock = clock
        self.level = ACTIVE
        self.since = None  # ticks of the last key; None until the first frame
        self.dim_ms = 0
        self.blank_ms = 0
        self.marker = False  # a dark screen shows the moving dot (no LED to blink)
        self.mark_at = None  # type: int | None  # ticks the dot was last drawn (None: draw it now)

    def configure(self, dim_after, blank_after, leds_in_use):
        """dim_after, blank_after: seconds (0: never); leds_in_use: an LED can blink."""
        self.dim_ms = dim_after * 1000
        self.blank_ms = blank_after * 1000
        self.marker = not leds_in_use

    def key(self, now):
        """A key at now. True when it only woke a dark screen: it must not act."""
        self.since = now
        was = self.level
        if was != ACTIVE:
            self._set(ACTIVE)
        return was == BLANK

    def update(self, now):
        """Dim or darken once the time has come; True when the level changed."""
        if self.since is None:
            self.since = now
            return False
        quiet = self.clock.ticks_diff(now, self.since)
        level = ACTIVE
        if self.blank_ms and quiet >= self.blank_ms:
            level = BLANK
        elif self.dim_ms and quiet >= self.dim_ms:
            level = DIM
        if level <= self.level:
            return False
        self._set(level)
        return True

    def _set(self, level):
        d = self.display
        if not self.marker:
            if level == BLANK:
                d.poweroff()
            elif self.level == BLANK:
                d.poweron()
        d.contrast(FULL_CONTRAST if level == ACTIVE else DIM_CONTRAST)
        self.level = level
        self.mark_at = None

    def quiet_ms(self, now):
        """Milliseconds until this needs a frame: the next level, or the dot's next move."""
        if self.since is None:
            return 0
        if self.level == BLANK:
            if not self.marker:
                return FOREVER_MS
            if self.mark_at is None:
                return 0
            return max(0, _MARK_MS - self.clock.ticks_diff(now, self.mark_at))
        due = self.blank_ms  # from DIM only BLANK is next (update() tries it first)
        if self.level == ACTIVE and self.dim_ms and (not due or self.dim_ms < due):
            due = self.dim_ms
        if not due:
            return FOREVER_MS
        return max(0, due - self.clock.ticks_diff(now, self.since))

    def mark(self, now):
        """On a dark screen without LEDs: draw the dot at its next place when it is due."""
        if not self.marker or self.level != BLANK:
            return
        if self.mark_at is not None and self.clock.ticks_diff(now, self.mark_at) < _MARK_MS:
            return
        self.mark_at = now
        d = self.display
        k = (now // _MARK_MS) % 97  # 97 places, visited in a scattered order
        d.fill(0)
        d.fill_rect((k * 37) % (d.width - 2), (k * 23) % (d.height - 2), 2, 2, 1)
        d.show()
