"""Where the device keeps its files, relative to the filesystem root (the board's flash or
--data), and how a history game's file is named."""

DATA_DIR = "data"
CURRENT = "data/current.jsonl"
HISTORY_DIR = "data/history"
FILED = "data/filed.jsonl"  # a game put aside, on its way into the history (app.keeper)
SETTINGS = "data/settings.json"
ERRORS = "data/errors.log"
WARM = "data/.warm"  # written and removed at boot (Storage.warm)
DAMAGED = "data/damaged-%d.jsonl"  # a record that would not resume, kept untouched for the host tools
TORN = "data/torn-%d"  # bytes after a record's last complete line (a write the power cut), kept
INDEX = "data/history.txt"  # a summary line per history game (its History rows)
OPENED = "data/opened.jsonl"  # a record being opened on the web page, before it takes the game's place


def game_path(n):
    """History game n's file: zero-padded to six digits, so that names sort as numbers."""
    return "%s/%06d.jsonl" % (HISTORY_DIR, n)


def game_number(name):
    """The number of a history file's name ("000007.jsonl" -> 7), else None: ASCII digits
    only ("\u00b2.jsonl" and "my game.jsonl" are no game)."""
    if not name.endswith(".jsonl") or len(name) < 7:
        return None
    for c in name[:-6]:
        if c not in "0123456789":
            return None
    return int(name[:-6])
