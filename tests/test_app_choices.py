"""Form choices made when asked (app.entry_azul.GreyCells): the same choices, in the same
order, as the list it replaces, which made every value when the form opened."""
from app.entry_azul import GreyCells
from rules_core.azul import COLOURS


def test_a_grey_wall_row_offers_every_colour_in_every_column():
    cells = GreyCells()
    made = [None] + [(col, c) for c in COLOURS for col in range(1, 6)]
    assert len(cells) == len(made) == 26
    assert [cells.value(i) for i in range(26)] == made
    assert cells[0] == ("-", None) and cells[7] == ("yel c2", (2, "yellow"))
    assert cells.value(7) is cells[7][1]  # made once, shared by the five rows
