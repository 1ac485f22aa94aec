"""What only reports ask of a Session (the host tools, the tests): the replay result and
where the game stands. Session.result() and status() import this module when first asked:
a board never loads it (its screens read the standings, winners and tie-break instead).
"""


class Report:
    """Session.result and status are a Report's bound methods: rules_core.session, which a
    board loads, makes no function for them (0.2 KB of a Pico's heap)."""

    def __init__(self, s):
        self.s = s

    def result(self):
        """The replay result (RECORD_FORMAT.md): scores and winners are the contract."""
        s = self.s
        r = s.rules
        won = s.winners()
        return {"game": s.game, "variant": s.variant, "finished": r.finished,
                "round": r.round, "scores": list(r.scores), "winners": won,
                "tiebreak": s.tiebreak(won),
                "breakdown": [r.breakdown(p) for p in range(len(s.players))],
                "round_scores": [list(x) for x in r.round_scores]}

    def status(self):
        """Where the game stands: "final after round 6/6", "in progress, round 3/6" (two
        rounds closed), "after round 6/6, final scoring to enter"."""
        r = self.s.rules
        if r.finished:
            return "final after " + r.round_name()
        if r.closed:
            return "after %s, final scoring to enter" % r.round_name()
        return "in progress, " + r.round_name()
