"""The NeoPixel frame: what the LEDs say about the game, written only when it changes.

Strip layout (a matrix uses the same indices outside the screen's picture):
  LED p (p < players): player p's colour, full when p has an entry pending, dim otherwise;
  next LED: the start player's colour; next: Sintra's round colour.
  One LED: the colour of the next player to enter (or of the start player).
A 5x5 matrix shows the screen's picture where it has one (the wall being entered on the
Azul form).
A refused input flashes every LED red; the final standings chase in the winner's colour.
Idle (app.idle): a dimmed screen dims every LED to 1/IDLE_DIM; a dark screen darkens them
all but LED 0, which blinks faintly for BEAT_ON_MS every BEAT_MS ("I am on"), unless the
LEDs' supply is switched (leds.switched: the Pico build's rail): then all go dark, the rail
off, and the board can sleep until a key (a blink would power the rail up every 4 s).
Colours are scaled once per brightness change into tuples that the frame only points at,
and the player LEDs are worked out once per entered event (app.entered counts them), so
building a frame allocates nothing: the LED loop obeys the no-allocation rule.
"""
from app.colours import COLOURS, PLAYER_COLOURS
from hal.compat import const
from app.idle import ACTIVE, DIM as IDLE_DIMMED, BLANK, FOREVER_MS

OFF = (0, 0, 0)
_DIM = const(6)  # a dim colour is 1/DIM of the full one
IDLE_DIM = 4  # a dimmed screen's LEDs: 1/IDLE_DIM of their brightness
BEAT_MS = 4000
BEAT_ON_MS = 1000
_CHASE_MS = const(150)  # the final standings' chase moves one LED this often


class LedView:
    def __init__(self, leds):
        self.leds = leds
        self.n = leds.n
        self.count = self.n
        self.matrix = False
        self.want = [OFF] * self.n
        self.shown = [None] * self.n  # type: list
        self.seats = [OFF] * self.n  # the player LEDs, made for seats_for = (session, entered)
        self.seats_session = None
        self.seats_entered = -1
        self.full = {}
        self.dim = {}
        self.level = 5
        self.idle = ACTIVE
        self.beat = OFF
        self.last = None  # (session, flashing, picture, entered) of the frame shown, while it needs no clock
        self.last_flash = False
        self.last_picture = None
        self.last_entered = -1
        self.scaled = 0  # times the colours were scaled
        self.chased = None  # the chase frames take() got for the next frame (chases())
        self.framed = None  # the LEDs' bytes of seats, take() got made ahead (frame())
        self.beating = not getattr(leds, "switched", False)  # a dark screen blinks LED 0
        self.configure(5, self.n, "strip")

    def configure(self, level, count, layout):
        """Brightness 1..5, LEDs in use, "strip" or "matrix5x5". The same again (a save of
        other settings) keeps the frame shown: no colours scaled, no LEDs rewritten."""
        count = max(0, min(count, self.n))
        matrix = layout == "matrix5x5" and count >= 25
        if self.full and level == self.level and count == self.count and matrix == self.matrix:
            return
        self.level = level
        self.count = count
        self.matrix = matrix
        self._palette()

    def _palette(self):
        """Scale the colours for the brightness and the idle level (allocates: only when
        one of them changes)."""
        level = self.level
        div = 5 * IDLE_DIM if self.idle == IDLE_DIMMED else 5
        for name in COLOURS:
            r, g, b = COLOURS[name][2]
            self.full[name] = (r * level // div, g * level // div, b * level // div)
            if name in PLAYER_COLOURS:  # (only a seat is ever dim)
                self.dim[name] = (r * level // (div * _DIM), g * level // (div * _DIM), b * level // (div * _DIM))
        self.beat = self.dim["green"]
        self.scaled += 1  # (LED frames made ahead with the colours before are not taken)
        self.chased = self.framed = None
        self.shown = [None] * self.n  # force a rewrite
        self.seats_session = None
        self.last = None

    def quiet_ms(self, now, won):
        """Milliseconds until the frame changes by itself: the chase of the final standings
        (won: the winners shown, else None) or the "I am on" blink."""
        if not self.count or (self.idle == BLANK and not self.beating):
            return FOREVER_MS
        if self.idle == BLANK:
            t = now % BEAT_MS
            return BEAT_ON_MS - t if t < BEAT_ON_MS else BEAT_MS - t
        if won:
            return _CHASE_MS - now % _CHASE_MS
        return FOREVER_MS

    def update(self, now, s, flashing, won, picture, entered, idle=ACTIVE):
        """Compose the frame and write and show() only what changed. s: the session (or
        None); won: the winners when the screen is final standings, else None; picture: the
        screen's 5x5 picture (Screen.matrix: 25 colour names or None), else None; entered:
        the App's count of entered events (the player LEDs are worked out again when it moves); idle: the
        App's idle level."""
        if idle != self.idle:
            self.idle = idle
            self._palette()
        chase = s is not None and s.finished and won is not None
        if idle == BLANK or chase:
            self.last = None  # the blink and the chase move with the clock
        elif s is self.last and flashing == self.last_flash and picture is self.last_picture \
                and entered == self.last_entered and s is not None:
            return  # the same frame as the one shown (a cursor move on a screen)
        else:
            self.last = s
            self.last_flash = flashing
            self.last_picture = picture
            self.last_entered = entered
        if s is not None and not flashing and idle != BLANK and not chase and not (picture is not None and self.matrix):
            if s is not self.seats_session or entered != self.seats_entered:
                self.take(self.seats_for(s, s.pending()), s, entered)
            w = self.seats  # the frame is the player LEDs as they are
            made = self.framed
            if made is not None:  # their bytes, made ahead (frame()): put whole
                self.framed = None
                self.leds.put(made)
                self.shown[:] = w
                self.leds.show()
                return
        else:
            made = self.chased if chase and not (idle == BLANK or flashing) else None
            if made is not None:  # the chase's first frame, made ahead (chases()): put whole
                self.chased = None
                w, frame = made[(now // _CHASE_MS) % 3]
                self.leds.put(frame)
                self.shown[:] = w
                self.leds.show()
                return
            w = self.want
            # the picture sets its 25 LEDs itself (the matrix shows it when no other case does)
            pictured = picture is not None and self.matrix and not (idle == BLANK or flashing or chase)
            for i in range(25 if pictured else 0, self.n):
                w[i] = OFF
            if idle == BLANK:
                if self.beating and self.count and now % BEAT_MS < BEAT_ON_MS:
                    w[0] = self.beat
            elif flashing:
                red = self.full["red"]
                for i in range(self.count):
                    w[i] = red
            elif chase:
                self._chase(w, (now // _CHASE_MS) % 3, won)
            elif pictured:  # the screen's 5x5 picture: 25 colour names or None, row by row
                full = self.full
                for i in range(25):
                    name = picture[i]
                    w[i] = full[name] if name else OFF
        if w == self.shown:  # compared in one call: most frames change nothing or a few LEDs
            return
        self.leds.set_changed(w, self.shown)  # (a form's picture: up to 25 LEDs)
        self.leds.show()

    def seats_for(self, s, waiting):
        """The player LEDs of session s as it stands (waiting: s.pending()); allocates. Made
        with its scoreboard, often in an idle frame for a state s takes at the next press
        (scoreboard.screen_for): take() them once it has."""
        w = [OFF] * self.n
        n = len(s.players)
        if self.count == 1:
            p = waiting[0][1] if waiting and waiting[0][1] is not None else s.start_player
            w[0] = self.full[PLAYER_COLOURS[p]]
        else:
            for p in range(min(n, self.count)):
                busy = False
                for _, q in waiting:
                    if q == p:
                        busy = True
                w[p] = (self.full if busy else self.dim)[PLAYER_COLOURS[p]]
            if n < self.count:
                w[n] = self.full[PLAYER_COLOURS[s.start_player]]
            colour = s.bonus_colour()
            if n + 1 < self.count and colour:
                w[n + 1] = self.full[colour]
        return self.scaled, w, None

    def take(self, made, s, entered):
        """s, after its entered-th event, has the state ahead() made the player LEDs `made`
        for, or chases() the final standings' frames (None: none made): the next frame
        shows them, not worked out again, unless the colours were scaled since."""
        self.framed = None
        if made is None or made[0] != self.scaled:
            return
        if made[2] is not None:
            self.chased = made[2]
            return
        self.seats[:] = made[1]
        self.seats_session = s
        self.seats_entered = entered
        if len(made) > 3:
            self.framed = made[3]

    def frame(self, made):
        """The player LEDs ahead() made, with their bytes as Leds.put() sets them whole: the
        press that shows them writes no LED one by one (a dozen from the final standings'
        chase). Made in an idle frame (the undo of a finished game's last round end,
        play.make_undo); allocates."""
        leds = self.leds
        was = leds.frame()
        leds.set_changed(made[1], [None] * self.n)  # (every LED set)
        out = leds.frame()
        leds.put(was)  # (nothing was shown meanwhile)
        return made + (out,)

    def chases(self, won):
        """The final standings' chase frames in the colours of `won`, one per phase, made in
        an idle frame with the standings (scoreboard.screen_for): the press that shows them puts
        its phase's frame whole (Leds.put), not LED by LED. Allocates."""
        leds = self.leds
        was = leds.frame()
        dark = (bytes(len(was[0])), bytes(len(was[1])))  # every LED off
        made = []
        for phase in range(3):
            w = [OFF] * self.n
            self._chase(w, phase, won)
            leds.put(dark)
            for i in range(self.n):
                if w[i] is not OFF:  # (the lit third only)
                    leds[i] = w[i]
            made.append((w, leds.frame()))
        leds.put(was)  # (nothing was shown meanwhile)
        return self.scaled, None, made

    def _chase(self, w, phase, won):
        """The chase's LEDs of `phase` into w (the others left as they are)."""
        full = self.full
        for i in range((3 - phase) % 3, self.count if won else 0, 3):  # (i + phase) % 3 == 0
            w[i] = full[PLAYER_COLOURS[won[(i // 3) % len(won)]]]
