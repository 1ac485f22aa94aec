"""Rotary encoder: A/B samples -> detent steps, a pure function of the samples (hal.buttons
polls it; imported only for a board that has an encoder)."""

# Gray-code step for (previous AB << 2) | current AB: +1 one quarter clockwise, -1 back,
# 0 for no change or an impossible jump (both bits changed: a missed sample).
_QUARTER_STEPS = (0, 1, -1, 0,
                  -1, 0, 0, 1,
                  1, 0, 0, -1,
                  0, -1, 1, 0)


class QuadratureDecoder:
    """Rotary encoder A/B samples -> detent steps; a pure function of the samples."""

    def __init__(self, steps_per_detent=4, ab=3):
        self._per_detent = steps_per_detent
        self._ab = ab & 3
        self._quarters = 0

    def moving(self):
        """Between two detents (quarter steps counted)."""
        return self._quarters != 0

    def update(self, ab):
        """ab = (A << 1) | B. Returns +1 (clockwise detent), -1 or 0."""
        ab &= 3
        self._quarters += _QUARTER_STEPS[(self._ab << 2) | ab]
        self._ab = ab
        if self._quarters >= self._per_detent:
            self._quarters -= self._per_detent
            return 1
        if self._quarters <= -self._per_detent:
            self._quarters += self._per_detent
            return -1
        return 0
