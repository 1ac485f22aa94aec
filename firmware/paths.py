"""Where the device keeps its files, relative to the filesystem root (the board's flash or --data)."""

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
