"""The device App driven by key presses through the virtual board: complete games of all
eight variants, checked against a replay of the record the App wrote.

The Driver only presses keys (UP/DOWN/LEFT/RIGHT/OK/BACK); it reads the screen's rows to
know how many presses reach a menu item or a field value, like a player looking at it.
"""
import json
import os

import pytest

from host_tools import sim
from hal.keys import UP, DOWN, RIGHT, OK, BACK, LONG
from rules_core.session import replay
from rules_core import azul_engine

PATTERNS = ("tree", "bird", "butterfly", "flower", "plant", "lily")
# the Group form's pattern rows: names the rulebook text does not give are marked "?"
PATTERN_ROWS = ("tree", "bird", "butterfly", "flower", "plant?", "lily?")
NAMES = ["Red", "Blue", "Green", "Yellow", "Purple"]


class Driver:
    def __init__(self, tmp_path, board="pico"):
        self.data = str(tmp_path / "data")
        self.app, self.display, self.leds, self.clock = sim.build(board, self.data)
        self.keys = []

    def press(self, k, times=1):
        for _ in range(times):
            self.keys.append(k)
            self.clock.now += sim.KEY_STEP_MS
            self.app.step(self.clock.now, k)

    def wait(self):
        self.keys.append(None)
        self.clock.now += sim.WAIT_MS
        self.app.step(self.clock.now, None)

    @property
    def screen(self):
        return self.app.screen

    def rows(self):
        return self.screen.rows()

    def choose(self, prefix):
        """Move the menu cursor to the item starting with prefix and press OK."""
        rows = self.rows()
        hits = [i for i, r in enumerate(rows) if r.startswith(prefix)]
        assert hits, "%r not in menu %r" % (prefix, rows)
        n = len(rows)
        self.press(DOWN, (hits[0] - self.screen.cursor) % n)
        self.press(OK)

    def set(self, label, value):
        """Move to the form field `label` and press RIGHT until it holds `value`."""
        fields = self.screen.fields
        i = [f.label for f in fields].index(label)
        self.press(DOWN, (i - self.screen.cursor) % (len(fields) + 1))
        f = fields[i]
        for _ in range(len(f.choices) + 1):  # + 1: a board value starts unset
            if f.value() == value:
                return
            self.press(RIGHT)
        raise AssertionError("%s cannot be %r (choices %r)" % (label, value, list(f.choices)))

    def save(self):
        n = len(self.screen.fields)
        self.press(DOWN, (n - self.screen.cursor) % (n + 1))
        self.press(OK)

    def entry(self, action):
        """From the scoreboard: open the round's entries and pick one."""
        assert type(self.screen).__name__ == "Scoreboard", self.app.text()
        self.press(OK)
        self.choose(action)

    def new_game(self, title, variant, n, start=0):
        self.choose("New game")
        if self.screen.title.endswith(" in play"):  # a game in play: it goes into the History
            self.choose("put aside")
        self.choose(title)
        self.choose(variant)
        self.choose("%d players" % n)
        for i in range(n):
            self.choose(NAMES[i])
        if title != "5211":
            self.choose(NAMES[start])
        if self.screen.title == "Variant side":  # what the players will read off the board
            self.choose("OK: start")

    def record(self):
        with open(os.path.join(self.data, "current.jsonl"), encoding="utf-8") as f:
            return f.read()


def end_round(d):
    d.entry("End round")
    d.press(OK)  # the confirm form: its only row saves


def check_final(d, want_scores=None):
    """The final screen shows the replayed scores; the record on disk replays to them."""
    s, warnings = replay(d.record())
    r = s.result()
    assert r["finished"] and not warnings
    assert d.app.session.scores == r["scores"]
    if want_scores is not None:
        assert r["scores"] == want_scores
    assert type(d.screen).__name__ == "Final"
    text = d.app.text()
    for rank, p in s.standings()[:len(text) - 1]:
        assert any(line.startswith("%d %-7s%4d" % (rank, s.players[p][:7], r["scores"][p])) for line in text), text
    assert "won: " + ", ".join(s.players[p] for p in r["winners"]) in d.screen.rows()
    return r


# ---- Azul: every event of an engine game, entered with the keys -------------------------
def play_azul(d, header, events):
    names = NAMES[:len(header["players"])]
    for ev in events:
        if ev["e"] == "wall":
            d.entry("Wall " + names[ev["p"]])
            for t in ev["tiles"]:
                d.set("R%d" % t[0], (t[1], t[2]) if len(t) == 3 else t[1])
            d.set("floor", ev["floor"])
            d.save()
        elif ev["e"] == "first":
            d.entry("First marker")
            d.choose(names[ev["p"]])
        else:
            end_round(d)
        assert type(d.screen).__name__ in ("Scoreboard", "Final"), d.app.text()


@pytest.mark.parametrize("variant,label,n,seed", [("colored", "coloured", 3, 11), ("grey", "grey", 2, 5)])
def test_azul_complete_game(tmp_path, variant, label, n, seed):
    """An engine game (rules_core.azul_engine) entered on the device scores as the engine did."""
    header, events, scores = azul_engine.random_game(n, seed, variant)[:3]
    d = Driver(tmp_path)
    d.new_game("Azul", label, n)
    play_azul(d, header, events)
    check_final(d, scores)


# ---- 5211 -----------------------------------------------------------------------------------
def play_5211(d, events, n):
    for ev in events:
        if ev["e"] == "play":
            d.entry("Reveal " + NAMES[ev["p"]])
            for i, card in enumerate(ev["cards"]):
                d.set(d.screen.fields[i].label, list(card))
            d.save()
        elif ev["e"] == "new_deck":
            d.entry("New deck")
            d.press(OK)  # the confirm form: its only row saves
        else:
            end_round(d)


@pytest.mark.parametrize("variant,label,n,seed", [("standard", "standard", 4, 3), ("long", "long", 3, 1)])
def test_5211_complete_game(tmp_path, variant, label, n, seed):
    from rules_core import game5211_engine
    header, events, scores = game5211_engine.random_game(n, seed, variant)[:3]
    d = Driver(tmp_path)
    d.new_game("5211", label, n)
    play_5211(d, events, n)
    check_final(d, scores)


# ---- Sintra: a hand-made game ---------------------------------------------------------------
ROUND_COLOURS = ["pink", "orange", "yellow", "green", "blue", "pink"]


def sintra_events():
    """Six rounds of windows, broken glass and start tiles; leftovers after round VI."""
    evs = []
    for rnd in range(6):
        colour = ROUND_COLOURS[rnd]
        evs.append({"e": "window", "p": 0, "col": rnd + 1, "bonus": 1, "keep": colour})
        evs.append({"e": "window", "p": 1, "col": 8 - rnd, "bonus": 0, "keep": "blue" if colour != "blue" else "pink"})
        evs.append({"e": "broken", "p": 1, "n": 2})
        evs.append({"e": "first", "p": rnd % 2})
        if rnd == 5:
            evs.append({"e": "leftover", "p": 0, "n": 4})
            evs.append({"e": "leftover", "p": 1, "n": 7})
        evs.append({"e": "end_round"})
    return evs


# the window values entered on the device, side A and side B (different boards), left to right
WINDOWS = {"A": [3, 1, 4, 1, 5, 2, 6, 2], "B": [2, 7, 1, 8, 2, 8, 1, 8]}


def enter_windows(d, side, values):
    """On a Sintra board menu: open the side's window values, set each one, save."""
    d.choose("%s win" % side)
    for i, v in enumerate(values):
        d.set("win %d" % (i + 1), v)
    d.save()
    assert d.rows()[0] == "%s win %s" % (side, "".join(str(v) for v in values)), d.app.text()


def board_check(d, side, values=None):
    """A new Sintra game's first step: the side's board values (windows entered), then start."""
    assert d.screen.title == "Side %s board" % side, d.app.text()
    if d.rows()[0].endswith("????????"):
        enter_windows(d, side, values or WINDOWS[side])
    d.choose("Continue")


def play_sintra(d, events):
    for ev in events:
        e = ev["e"]
        if e == "window":
            d.entry("Window " + NAMES[ev["p"]])
            d.set("window", ev["col"])
            d.set("keep", ev["keep"])
            d.set("bonus", ev["bonus"])
            d.save()
        elif e in ("broken", "leftover"):
            d.entry(e.capitalize() + " " + NAMES[ev["p"]])
            d.set("glass", ev["n"])
            d.save()
        elif e == "first":
            d.entry("First from ctr")
            d.choose(NAMES[ev["p"]])
        else:
            end_round(d)


@pytest.mark.parametrize("side", ["A", "B"])
def test_sintra_complete_game(tmp_path, side):
    d = Driver(tmp_path)
    d.new_game("Sintra", "side " + side, 2)
    board_check(d, side)  # the side's window values come first
    for c in ROUND_COLOURS:
        d.choose(c)
    header = json.loads(d.record().splitlines()[0])
    assert header["options"]["round_colors"] == ROUND_COLOURS
    assert header["options"]["board"]["windows"] == WINDOWS[side]
    assert "bonus pnk (P)" in d.app.text()
    play_sintra(d, sintra_events())
    r = check_final(d)
    # the same events replayed by the rules core alone give the same scores
    from rules_core.session import Session
    s = Session(header)
    for ev in sintra_events():
        s.add(ev)
    assert r["scores"] == s.scores


# ---- Queen's Garden: a hand-made game --------------------------------------------------------
def garden_events(variant):
    evs = []
    for rnd in range(4):
        evs.append({"e": "buy", "p": 1})
        evs.append({"e": "pass", "p": 0, "discard": [2] if rnd == 0 else []})
        evs.append({"e": "pass", "p": 1, "discard": []})
        for p in range(2):
            if variant == "standard":
                evs.append({"e": "round_score", "p": p, "matches": [rnd + 1, 2, 0], "pillars": p})
            else:
                evs.append({"e": "round_score", "p": p, "points": 5 + rnd, "pillars": p})
        if rnd == 3:
            evs.append({"e": "reserve", "p": 0, "jokers": 1, "values": [3]})
            evs.append({"e": "reserve", "p": 1, "jokers": 0, "values": []})
            evs.append({"e": "garden", "p": 0, "groups": [{"of": "blue", "values": [1, 2, 4]},
                                                           {"of": "bird", "values": [2, 2, 2, 2]}]})
            evs.append({"e": "garden", "p": 1, "groups": []})
            if variant == "variant":
                evs.append({"e": "bonus", "p": 0, "points": 7})
                evs.append({"e": "bonus", "p": 1, "points": 12})
        evs.append({"e": "end_round"})
    return evs


def add_garden_groups(d, groups):
    """Each group of a "garden" event added on the open garden screen (Add group, saved)."""
    for g in groups:
        d.choose("Add group")
        d.set("of", g["of"])
        if g["of"] == "blue":
            # switch the wanted patterns on before the others off: a group keeps >= 3
            for on in (True, False):
                for i in range(6):
                    if (i + 1 in g["values"]) == on:
                        d.set(PATTERN_ROWS[i], on)
        else:
            d.set("pattern n", len(g["values"]))
        d.save()


def play_garden(d, events):
    for ev in events:
        e = ev["e"]
        name = NAMES[ev["p"]] if "p" in ev else ""
        if e == "buy":
            d.entry("Buy " + name)
        elif e in ("pass", "reserve"):
            d.entry(e.capitalize() + " " + name)
            vals = ev["discard"] if e == "pass" else ev["values"]
            if e == "reserve":
                d.set("jokers", ev["jokers"])
            for v in range(1, 7):
                if vals.count(v):
                    d.set("value %d x" % v, vals.count(v))
            d.save()
        elif e == "round_score":
            d.entry("Score " + name)
            if "matches" in ev:
                for i, m in enumerate(ev["matches"]):
                    d.set("categ %d" % (i + 1), m)
            else:
                d.set("points", ev["points"])
            d.set("pillars", ev["pillars"])
            d.save()
        elif e == "bonus":
            d.entry("Bonus " + name)
            d.set("points", ev["points"])
            d.save()
        elif e == "garden":
            d.entry("Garden " + name)
            add_garden_groups(d, ev["groups"])
            d.choose("save")
        else:
            end_round(d)


@pytest.mark.parametrize("variant,label", [("standard", "standard"), ("variant", "variant side")])
def test_garden_complete_game(tmp_path, variant, label):
    d = Driver(tmp_path)
    d.new_game("Queen's Garden", label, 2)
    play_garden(d, garden_events(variant))
    r = check_final(d)
    # by hand, standard side: Red 15 -1 (first pass) -2 (discard) + rounds (1+2)+(2+2)+(3+2)+(4+2)=18
    # + reserve 1-3 + groups (1+2+4) + (2*4) = 15-1-2+18-2+15 = 43; plus first pass each round -1 x3 = 40
    if variant == "standard":
        assert r["scores"][0] == 40
        # Blue: 15 - 4 buys x 6 + rounds 4 x (0+2+0... matches [r+1,2,0]) = 18 + pillars 4 = 13
        assert r["scores"][1] == 15 - 24 + 18 + 4
    else:
        # variant side, by hand: Red 15 - 4 (first to pass each round) - 2 (discard) + printed
        # points 5+6+7+8 = 26 - 2 (reserve 1 - 3) + groups 7 + 8 + the side's end bonus 7 = 55;
        # Blue 15 - 24 (4 buys) + 26 + 4 pillars + end bonus 12 = 33
        assert r["scores"] == [55, 33]
        while d.app.prepare():  # the idle frames after the last press add the breakdowns
            pass
        rows = d.screen.rows()
        assert rows.index("side bonus 7") < rows.index("- Blue") < rows.index("side bonus 12")


def test_garden_variant_setup_says_what_is_read_off_the_board(tmp_path):
    """Variant side (rulebook 變體規則: its pattern scoring and end bonuses are printed on the
    board, not in the text): set-up says both will be read off the board; the standard side
    goes straight to the game."""
    d = Driver(tmp_path / "v")
    d.choose("New game")
    d.choose("Queen's Garden")
    d.choose("variant side")
    d.choose("2 players")
    d.choose(NAMES[0])
    d.choose(NAMES[1])
    d.choose(NAMES[0])
    assert d.screen.title == "Variant side"
    assert d.rows() == ["You read off the", "board as printed", "each round: pts", "game end: bonus", "OK: start"]
    d.press(OK)
    assert type(d.screen).__name__ == "Scoreboard" and d.app.session.variant == "variant"
    d = Driver(tmp_path / "s")
    d.new_game("Queen's Garden", "standard", 2)
    assert type(d.screen).__name__ == "Scoreboard"


def test_azul_wall_form_offers_no_colour_beyond_twenty_tiles(tmp_path):
    """遊戲設置 4 (20 tiles of each colour): Red completes lines 1-5 in blue (15 tiles); on
    Blue's wall form, line 5 may still be blue (20), and then line 1 offers every colour but
    blue (21). The entry that is saved scores as the rules say: 1 point for the line-5 tile."""
    d = Driver(tmp_path)
    d.new_game("Azul", "coloured", 2)
    d.entry("Wall Red")
    for r in range(1, 6):
        d.set("R%d" % r, "blue")
    d.save()
    d.entry("Wall Blue")
    d.set("R5", "blue")
    r1 = d.screen.fields[0]
    offered = set()
    d.press(DOWN, (0 - d.screen.cursor) % (len(d.screen.fields) + 1))
    for _ in range(len(r1.choices)):
        offered.add(r1.value())
        d.press(RIGHT)
    assert offered == {None, "yellow", "red", "black", "white"}
    with pytest.raises(AssertionError, match="R1 cannot be 'blue'"):
        d.set("R1", "blue")
    d.set("R1", None)
    d.save()
    assert d.app.session.scores[1] == 1
    s, _ = replay(d.record())
    assert s.scores == d.app.session.scores


def test_a_form_save_enters_the_state_its_check_made(tmp_path, monkeypatch):
    """The save row's points came from the rules' check of the values on screen: saving them
    writes that checked state instead of copying and applying the rules' state a second time
    (3-5 ms of a Pico's save). What is on flash replays to the scores the screen now holds."""
    from rules_core import game5211_engine
    from app.current import ReadBack
    header, events, scores = game5211_engine.random_game(4, 3, "standard")[:3]
    d = Driver(tmp_path)
    d.new_game("5211", "standard", 4)
    play = [ev for ev in events if ev["e"] == "play"][0]
    d.entry("Reveal " + NAMES[play["p"]])
    for i, card in enumerate(play["cards"]):
        d.set(d.screen.fields[i].label, list(card))
    shown = d.screen.rows()[len(d.screen.fields)]  # "save Red+3 ..." : the checked points
    trials = []
    real = ReadBack.trial
    monkeypatch.setattr(ReadBack, "trial", lambda s, ev: trials.append(ev) or real(s, ev))
    d.save()
    assert trials == []  # the form's own check was entered
    assert d.app.session.last_event() == play
    with open(os.path.join(d.data, "current.jsonl")) as f:
        on_flash = replay(f.read())[0]
    assert on_flash.scores == d.app.session.scores
    gained = ["%s%+d" % (NAMES[p][:3], d.app.session.scores[p]) for p in range(4) if d.app.session.scores[p]]
    assert shown == "save " + (" ".join(gained) or "+0")  # the first play: points from 0


def test_the_end_round_confirm_enters_the_state_its_check_made(tmp_path, monkeypatch):
    """The end-round confirmation has no values to turn: the check that gave its save row's
    points is the one its OK enters, not a second copy and apply of the rules' state. The
    round closes as a replay of the record closes it."""
    from rules_core import game5211_engine
    from app.current import ReadBack
    header, events, scores = game5211_engine.random_game(4, 3, "standard")[:3]
    d = Driver(tmp_path)
    d.new_game("5211", "standard", 4)
    play_5211(d, events[:events.index({"e": "end_round"})], 4)
    d.entry("End round")
    shown = d.screen.rows()
    trials = []
    real = ReadBack.trial
    monkeypatch.setattr(ReadBack, "trial", lambda s, ev: trials.append(ev) or real(s, ev))
    d.press(OK)
    assert trials == []
    assert type(d.screen).__name__ == "Scoreboard" and d.app.session.round == 2
    on_flash = replay(d.record())[0]
    assert on_flash.round == 2 and on_flash.scores == d.app.session.scores
    gained = ["%s %+d" % (NAMES[p], on_flash.scores[p]) for p in range(4) if on_flash.scores[p]]
    assert shown == (["save"] + gained if gained else ["save +0"])  # a row a player
