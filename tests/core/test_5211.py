"""5211 scoring and validation, worked out by hand from the rulebook (seed 004).

"y6" is yellow 6, "b1" a blue rooster (g y b o t: green yellow blue orange teal). A round is
one string per player, "/" between players, each 4 cards revealed as 2, 1, 1.
"""
from app.current import clone
from checks import raises
from rules_core import RecordError, RuleError
from rules_core.game5211 import Game5211Rules, COLOURS, full_deck_counts, rounds_per_deck, scoring_colour

CODE = {"g": "green", "y": "yellow", "b": "blue", "o": "orange", "t": "teal"}
END = {"e": "end_round"}


def cards(text):
    return [(CODE[w[0]], int(w[1:])) for w in text.split()]


def ev(p, text):
    return {"e": "play", "p": p, "cards": [list(c) for c in cards(text)]}


def play_round(r, text):
    """Reveal one round (2, 1, 1 cards per player, players in turn), end it, return what scored."""
    hands = [h.split() for h in text.split("/")]
    for a, b in ((0, 2), (2, 3), (3, 4)):
        for p in range(len(hands)):
            r.apply(ev(p, " ".join(hands[p][a:b])))
    r.apply(END)
    return r.scoring_colour_of_round()


# 5 players, long variant, deck 1 (cap 8, 7 roosters score alone). Rounds 1 and 2: player 1's
# yellow / blue 6+5+4+4 (4 cards) score 19 each, as green+orange / teal+green reach the cap.
# Round 3: yellow and blue at 10 are discarded; round 4: orange and teal at 8 are discarded,
# yellow and blue tie at 2: nobody scores.
DECK1_38 = ("y6 y5 y4 y4/g2 o2 g2 o2/g2 o2 g2 o2/g3 o3 g3 o3/g3 o3 g3 o3",
            "b6 b5 b4 b4/t2 g2 t2 g2/t2 g4 t2 g4/t3 g5 t3 g6/t3 g1 t3 g1",
            "y2 y2 y2 y2/y2 y2 y3 y3/y3 y3 b2 b2/b2 b2 b2 b2/b3 b3 b3 b3",
            "o2 o2 o3 o4/o4 o5 o6 o1/t2 t2 t3 t4/t4 t5 t6 t1/y3 y1 b3 b1")


def test_deck_and_rounds_per_deck():
    """内容物 and 遊戲設置: 100 cards; removing 10/13/0/15 and dealing 5 each leaves piles of
    80/72/80/60 = 10/6/5/3 rounds of 4 draws per player, plus the round from hand."""
    deck = full_deck_counts()
    assert sum(deck.values()) == 100
    assert sum(deck[(c, 1)] for c in COLOURS) == 25
    assert [deck[("blue", v)] for v in range(1, 7)] == [5, 6, 5, 2, 1, 1]
    assert [rounds_per_deck(n) for n in (2, 3, 4, 5)] == [11, 7, 6, 4]
    assert Game5211Rules("standard", 3, {}).rounds_total == 7


ROOSTER_ROUND = "g1 b1 y6 y5/t1 o1 y4 y4/g1 g2 y3 o3/y1 b2 t%d o2"


def test_rooster_example_and_one_rooster_too_many():
    """2.1 公雞卡: 4 players, exactly 6 roosters: only roosters score, 1 each, although yellow
    (6 cards, below the cap of 7) would be the majority. 2.2: with 7 roosters yellow's 6 cards
    (y6+y5, y4+y4, y3, the yellow rooster) score 11, 8, 3, 1; a rooster counts in its colour."""
    r = Game5211Rules("standard", 4, {})
    assert play_round(r, ROOSTER_ROUND % 2) == "roosters"
    assert r.scores == [2, 2, 1, 1] and r.round_scores == [[2, 2, 1, 1]] and r.round == 2
    assert [r.breakdown(p)["roosters_kept"] for p in range(4)] == [2, 2, 1, 1]
    r = Game5211Rules("standard", 4, {})
    assert play_round(r, ROOSTER_ROUND % 1) == "yellow"
    assert r.scores == [11, 8, 3, 1] and r.kept == [2, 2, 1, 1] and r.roosters == [0, 0, 0, 1]


def test_cap_example_green_discarded_yellow_scores():
    """數量上限 example: 4 players, 8 green (cap 7) are discarded; yellow's 4 score 6, 3, 2, 1."""
    r = Game5211Rules("standard", 4, {})
    assert play_round(r, "g2 g3 y6 b2/g2 g4 g5 y3/g6 g2 y2 o3/g3 y1 t4 b3") == "yellow"
    assert r.scores == [6, 3, 2, 1]


def test_cap_is_reached_at_players_plus_3():
    """數量上限 "等於或超過": 2 players, cap 5: 5 blue are discarded, green scores; 4 blue score."""
    r = Game5211Rules("standard", 2, {})
    assert play_round(r, "b2 b3 b4 g2/b5 b6 g3 o2") == "green"
    assert r.scores == [2, 3]
    assert scoring_colour([cards("b2 b3 b4 g2"), cards("b5 g3 g4 o2")], 2) == "blue"


def test_tie_example_1_next_majority_scores():
    """數量平手 example 1: yellow and green tie at 5 and are discarded; orange (3) scores."""
    r = Game5211Rules("standard", 4, {})
    assert play_round(r, "y2 y3 g6 o4/y6 g2 g3 o2/y5 y4 g4 b2/g5 o6 b3 t2") == "orange"
    assert [r.rank_key(p) for p in range(4)] == [(4, 1), (2, 1), (0, 0), (6, 1)]


def test_tie_example_2_nobody_scores():
    """數量平手 example 2: yellow and green tie (3), then blue, orange, teal tie (2): nobody scores."""
    r = Game5211Rules("standard", 3, {})
    assert play_round(r, "y2 g2 b2 o2/y3 g3 t2 b3/y6 g6 o5 t4") is None
    assert r.scores == [0, 0, 0] and r.round_scores == [[0, 0, 0]]
    assert r.breakdown(0)["last_scored"] == "-"


def test_final_tie_broken_by_cards_in_score_pile():
    """遊戲勝利: 5 players, 4 rounds. Round 1: green, yellow, blue tie at 5, teal (3) scores:
    player 1 teal 6 (1 card), player 2 teal 3+3 (2 cards). Rounds 2-4 score nothing (all tie
    at 4; orange+teal at the cap, green+yellow tie; four colours tie at 5). 6 = 6: player 2
    wins with more cards; players 3-5 stay tied."""
    r = Game5211Rules("standard", 5, {})
    assert play_round(r, "t6 g2 y2 b2/t3 t3 g2 y2/g3 y3 b3 o2/g4 y4 b4 o3/g5 y5 b5 b6") == "teal"
    assert play_round(r, "g2 g2 y2 y2/b2 b2 o2 o2/t2 t2 g3 g3/y3 y3 b3 b3/o3 o3 t3 t3") is None
    assert play_round(r, "o2 o2 o2 o3/o3 o4 o4 o5/t2 t2 t2 t2/t3 t4 t4 t5/g2 g2 y2 y2") is None
    assert not r.finished and r.last_round()
    assert play_round(r, "g3 g3 g4 g6/g1 y3 y3 y4/y6 y1 b2 b2/b2 b3 b3 o6/o1 o1 o1 o1") is None
    assert r.finished and r.round == 4 and r.pending() == []
    assert r.scores == [6, 6, 0, 0, 0]
    assert r.rank_key(1) == (6, 2) and r.rank_key(0) == (6, 1) and r.rank_key(2) == r.rank_key(3)
    raises(RuleError, r.apply, ev(0, "b1 t1"), match="the game is over")
    raises(RuleError, r.apply, END, match="the game is over")
    raises(RuleError, Game5211Rules("standard", 2, {}).apply, {"e": "new_deck"}, match="only in the long")


def test_long_new_deck_and_the_50_threshold():
    """久時變體: 38 < 50 when deck 1 is used up: a new deck is dealt. In deck 2 round 1 yellow
    5+2+2+2 brings 49 (the game goes on); round 2 has 7 roosters, player 1 keeps 1: 50 ends
    the game at the end of that round ("達到或超過50分")."""
    r = Game5211Rules("long", 5, {})
    for text in DECK1_38:
        play_round(r, text)
    assert r.scores == [38, 0, 0, 0, 0] and not r.finished and not r.last_round()
    assert r.pending() == [("new_deck", None)]
    raises(RuleError, r.apply, ev(0, "b2 t2"), match="new_deck comes before")
    raises(RuleError, r.apply, END, match="new_deck comes before")
    r.apply({"e": "new_deck"})
    assert r.deck == 2 and r.round == 1 and r.rounds_total == 4
    assert r.cards_left() == full_deck_counts()
    raises(RuleError, r.apply, {"e": "new_deck"}, match="round 1 of 4")
    assert play_round(r, "y5 y2 y2 y2" + DECK1_38[0][11:]) == "yellow"
    assert r.scores[0] == 49 and not r.finished and r.round == 2
    assert play_round(r, "b1 g2 g3 t2/t1 g1 b2 b3/o1 o1 o3 t3/y1 t4 t5 t6/b1 g4 g5 g6") == "roosters"
    assert r.scores[0] == 50 and r.finished and r.round == 2
    b = r.breakdown(0)
    assert (b["deck1"], b["deck2"], b["decks"], b["cards_kept"]) == (38, 12, 2, 13)
    assert len(r.round_scores) == 6


def test_long_50_in_first_deck_waits_for_the_end_of_the_deck():
    """久時變體: the 50 rule holds "從現在開始", after deck 1; 57 after round 3 of deck 1 does
    not end the game (teal 6+5+4+4 = 19 as yellow and blue reach the cap); the deck's end does."""
    r = Game5211Rules("long", 5, {})
    play_round(r, DECK1_38[0])
    play_round(r, DECK1_38[1])
    assert play_round(r, "t6 t5 t4 t4/y2 b2 y2 b2/y2 b2 y2 b2/y3 b3 y3 b3/y3 b3 y3 b3") == "teal"
    assert r.scores[0] == 57 and not r.finished and r.round == 4 and r.last_round()
    assert play_round(r, "o2 o2 o3 o4/o4 o5 o6 o1/t2 t2 t3 t1/t1 t1 t1 t1/y2 y2 b2 b2") is None
    assert r.finished and r.pending() == []
    raises(RuleError, r.apply, {"e": "new_deck"}, match="the game is over")


def test_reveals_are_2_then_1_then_1():
    """1. 打出卡牌: the first turn reveals 2 cards, turns 2 and 3 one card each: 4 per round."""
    r = Game5211Rules("standard", 2, {})
    raises(RuleError, r.apply, ev(0, "b2"), match="player 1's first reveal of the round is 2 cards, not 1")
    r.apply(ev(0, "b2 t3"))
    assert r.next_reveal_size(0) == 1 and r.next_reveal_size(1) == 2
    raises(RuleError, r.apply, ev(0, "b3 t4"), match="second reveal of the round is 1 card, not 2")
    r.apply(ev(0, "b3"))
    r.apply(ev(0, "g6"))
    assert r.round_plays(0) == cards("b2 t3 b3 g6") and r.next_reveal_size(0) == 0
    raises(RuleError, r.apply, ev(0, "g5"), match="player 1 already revealed 4 cards this round")
    assert r.pending() == [("play", 1)]
    r.apply(ev(1, "g2 g3"))
    raises(RuleError, r.apply, END, match="player 2 revealed 2 of 4 cards this round")
    assert r.round == 1 and r.round_scores == []


def test_card_conservation_within_a_deck():
    """内容物: one blue 6 and five green roosters per deck, in one play or across rounds."""
    r = Game5211Rules("standard", 2, {})
    r.apply(ev(0, "b6 b2"))
    raises(RuleError, r.apply, ev(1, "b6 t2"), match="no blue 6 left in the deck")
    raises(RuleError, r.apply, ev(1, "b5 b5"), match="no blue 5 left in the deck")
    for p, text in ((1, "g1 g1"), (1, "g1"), (0, "g1"), (0, "g1")):
        r.apply(ev(p, text))
    raises(RuleError, r.apply, ev(1, "g1"), match="no green rooster left in the deck")
    left = r.cards_left()
    assert left[("blue", 6)] == 0 and left[("green", 1)] == 0 and left[("blue", 2)] == 5
    assert sum(left.values()) == 93
    r.apply(ev(1, "t6"))
    r.apply(END)
    raises(RuleError, r.apply, ev(0, "t6 t5"), match="no teal 6 left in the deck")
    assert r.cards_left()[("teal", 5)] == 1


def test_bad_fields_are_record_errors():
    """Colours from the one table, values 1..6, p in range, known events; nothing changes."""
    r = Game5211Rules("standard", 3, {})
    for cs, msg in (([["red", 2], ["blue", 2]], "unknown colour 'red'"),
                    ([["blue", 7], ["blue", 2]], "card value 7 is not 1..6"),
                    ([["blue", 0], ["blue", 2]], "card value 0 is not 1..6"),
                    ([["blue", True], ["blue", 2]], "is not 1..6"),
                    ([["blue", 2.0], ["blue", 2]], "is not 1..6"),
                    ([["blue"], ["blue", 2]], "a card is [colour, value]"),
                    ([], "non-empty list")):
        raises(RecordError, r.apply, {"e": "play", "p": 0, "cards": cs}, match=msg)
    raises(RecordError, r.apply, ev(3, "b2 b3"), match="play p must be a whole number 0..2, got 3")
    raises(RecordError, r.apply, {"e": "play", "p": True, "cards": [["blue", 2]]}, match="got True")
    raises(RecordError, r.apply, {"e": "wall", "p": 0}, match="unknown 5211 event 'wall'")
    assert r.cards_left() == full_deck_counts() and r.round_plays(0) == []
    for args, msg in ((("short", 3, {}), "5211 has no variant 'short'"), (("standard", 6, {}), "5211 needs 2 to 5 players, got 6"),
                      (("standard", 1, {}), "2 to 5"), (("standard", 3, {"x": 1}), "no options")):
        raises(RecordError, Game5211Rules, *args, match=msg)


def test_clone_is_independent():
    r = Game5211Rules("standard", 2, {})
    r.apply(ev(0, "b6 b2"))
    c = clone(r)
    c.apply(ev(0, "b3"))
    assert r.round_plays(0) == cards("b6 b2") and r.cards_left()[("blue", 3)] == 5


def test_long_tie_counts_the_score_pile_of_the_last_deck():
    """遊戲勝利 with 久時變體: a tie goes to the most cards in the score pile, and each new deck
    is shuffled from all 100 cards, score piles included, so only the pile of the deck being
    played counts. Deck 1: player 1 keeps 8 cards (38). Deck 2: player 2 keeps 4 + 4 (19 +
    19), then orange scores (7 cards, below the cap of 8): player 1 o4 o4 o3 o1 = 12 with 4
    cards, player 2 o6 o5 o1 = 12 with 3. 50 = 50: player 1 kept 12 cards in the game,
    player 2 11, but the pile now holds 4 against 11: player 2 wins."""
    r = Game5211Rules("long", 5, {})
    for text in DECK1_38:
        play_round(r, text)
    r.apply({"e": "new_deck"})
    play_round(r, "g2 o2 g2 o2/y6 y5 y4 y4/g2 o2 g2 o2/g3 o3 g3 o3/g3 o3 g3 o3")
    play_round(r, "t2 g2 t2 g2/b6 b5 b4 b4/t2 g4 t2 g4/t3 g5 t3 g6/t3 g1 t3 g1")
    assert r.scores[:2] == [38, 38] and not r.finished
    assert play_round(r, "o4 o4 o3 o1/o6 o5 o1 b3/y2 y2 y3 y3/b2 b2 b3 b3/t2 t2 t4 t4") == "orange"
    assert r.finished and r.scores == [50, 50, 0, 0, 0]
    assert (r.kept[0], r.kept[1]) == (12, 11) and (r.pile[0], r.pile[1]) == (4, 11)
    assert r.rank_key(1) > r.rank_key(0)
    assert r.breakdown(1)["score_pile"] == 11 and r.breakdown(0)["cards_kept"] == 12
