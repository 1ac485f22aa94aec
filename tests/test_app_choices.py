"""Form choices made when asked (app.entry_azul.GreyCells, app.entry_5211.Card): the same
choices, in the same order, as the lists they replace, which made every value when the form
opened."""
from app.entry_azul import GreyCells
from rules_core.azul import COLOURS


def test_a_grey_wall_row_offers_every_colour_in_every_column():
    cells = GreyCells()
    made = [None] + [(col, c) for c in COLOURS for col in range(1, 6)]
    assert len(cells) == len(made) == 26
    assert [cells.value(i) for i in range(26)] == made
    assert cells[0] == ("-", None) and cells[7] == ("yel c2", (2, "yellow"))
    assert cells.value(7) is cells[7][1]  # made once, shared by the five rows


def test_a_5211_reveal_offers_the_cards_left_and_says_which_ran_out(tmp_path):
    """5211 (setup: each colour has one 5 and one 6): a reveal's card fields offer "-", then
    each kind still in the deck in colour order, texts made as the cursor reaches them; a
    kind another field of the same reveal took the last copy of is skipped and said."""
    from hal.keys import LEFT, RIGHT
    from test_app_games import Driver
    d = Driver(tmp_path)
    d.new_game("5211", "standard", 2)
    d.entry("Reveal Red")
    d.set("card 1", ["green", 6])
    d.set("card 2", ["yellow", 2])
    d.save()
    d.entry("Reveal Blue")
    f = d.screen.fields[0]
    shown = []
    for _ in range(len(f.choices)):
        shown.append(d.app.text()[1])
        d.press(RIGHT)
    assert shown[:3] == ["card 1 -", "card 1 grn R", "card 1 grn 2"]
    assert "card 1 grn 5" in shown and "card 1 grn 6" not in shown  # Red revealed the only one
    assert len(shown) == 1 + 29 and shown[-1] == "card 1 tea 6"
    assert d.app.text()[1] == "card 1 -"  # round the choices: back to the first
    d.set("card 1", ["blue", 5])
    d.set("card 2", ["blue", 6])  # RIGHT from "-": blu 4, then blu 5 is skipped and said
    assert "card 2 blu 5: no blu 5 left" in " ".join(d.app.text())
    d.press(LEFT)
    assert d.screen.fields[1].value() == ["blue", 4]
