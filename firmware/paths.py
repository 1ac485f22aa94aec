"""Where the device keeps its files, relative to the filesystem root (the board's flash or --data)."""

DATA_DIR = "data"
CURRENT = "data/current.jsonl"
HISTORY_DIR = "data/history"
FILED = "data/filed.jsonl"  # a game filed, on its way into the history (app.records: archive, file)
SETTINGS = "data/settings.json"
ERRORS = "data/errors.log"
WARM = "data/.warm"  # written and removed at boot (Storage.warm)
DAMAGED = "data/damaged-%d.jsonl"  # a record that would not resume, kept untouched for the host tools
