"""Colour names as the screens and the NeoPixels show them.

The OLED is monochrome, so every colour is named by a 3-letter label (in Chinese and
Japanese, the game's rulebook's word: app.lang) and, on the wall drawings, by a letter
(colour-blind players read the letter, never a shade).
"""
from app.lang import tr

# name -> (3-letter label, letter, (r, g, b))
COLOURS = {
    "blue": ("blu", "B", (0, 40, 255)),
    "yellow": ("yel", "Y", (255, 190, 0)),
    "red": ("red", "R", (255, 0, 0)),
    "black": ("blk", "K", (30, 0, 60)),
    "white": ("wht", "W", (200, 200, 200)),
    "pink": ("pnk", "P", (255, 40, 120)),
    "orange": ("org", "O", (255, 80, 0)),
    "green": ("grn", "G", (0, 200, 0)),
    "teal": ("tea", "T", (0, 180, 140)),
    "lightgreen": ("lgr", "L", (90, 255, 60)),
    "darkgreen": ("dgr", "D", (0, 90, 20)),
    "lilac": ("lil", "I", (180, 120, 255)),
    "purple": ("pur", "U", (120, 0, 200)),
}

# seat colours: player i plays colour PLAYER_COLOURS[i] (preset names start with it)
PLAYER_COLOURS = ("red", "blue", "green", "yellow", "purple")
PRESET_NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Ida", "Jo", "Kim")


def unsure(name, unverified):
    """"?" after a name the game's rulebook text does not give (rules_core.games' unverified), else ""."""
    return "?" if name in unverified else ""


def label(name, game=None):
    """A colour as the screens name it: its 3-letter label (the name's first three letters
    if unknown), marked "?" where `game`'s rulebook does not give it (unsure()); in another
    language the catalogue's word for it in that game (tr()'s context: "5211|blu")."""
    c = COLOURS.get(name)
    text = c[0] if c else name[:3]
    if game is not None:
        from rules_core.games import game as entry
        text += unsure(name, entry(game).unverified)
    return tr(text, game)


def letter(name):
    c = COLOURS.get(name)
    return c[1] if c else "?"


def rgb(name):
    c = COLOURS.get(name)
    return c[2] if c else (0, 0, 0)
