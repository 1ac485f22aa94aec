#!/usr/bin/env bash
# Makes docs/sim-80x24.png, the README's picture of the simulator: a real terminal (xterm,
# 80x24, DejaVu Sans Mono) on a virtual X screen (Xvfb), the simulator in it driven by tmux
# to an Azul wall being entered, the window's pixels taken with xwd.
#     docs/terminal-picture.sh          (after ./dev.sh setup)
# Needs Debian's xvfb, xterm, x11-apps (xwd), netpbm and fonts-dejavu-core, installed here
# with apt-get where we can (root), as .ci/run installs the tests' chromium and tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
need=""
for pair in Xvfb:xvfb xterm:xterm xwd:x11-apps xwdtopnm:netpbm tmux:tmux; do
    command -v "${pair%%:*}" >/dev/null || need="$need ${pair#*:}"
done
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || need="$need fonts-dejavu-core"
if [ -n "$need" ]; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
    else
        echo "terminal-picture.sh needs:$need (apt-get install$need)" >&2
        exit 1
    fi
fi
work=$(mktemp -d)
display=:$((90 + RANDOM % 100))
server="azul-picture-$$"
cleanup() {
    tmux -L "$server" kill-server 2>/dev/null || true
    [ -n "${xterm_pid:-}" ] && kill "$xterm_pid" 2>/dev/null || true
    [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
# a 2-player Azul game, round 1: the simulator starts on its scoreboard
.venv/bin/azul-companion sim --data "$work/data" --script "OK OK OK OK OK OK OK" >/dev/null
tmux -L "$server" -f /dev/null new-session -d -x 80 -y 24 -s sim \
    "TERM=xterm-256color .venv/bin/python -m host_tools sim --data $work/data"
tmux -L "$server" set-option -g status off
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp &
xvfb_pid=$!
sleep 1
DISPLAY=$display xterm -geometry 80x24+0+0 -fa "DejaVu Sans Mono" -fs 13 -bg "#101214" -fg "#e8e8e8" \
    -title azul-sim -e tmux -L "$server" attach -t sim &
xterm_pid=$!
sleep 2
# the round's entries, Red's wall: row 1 blue, row 2 yellow, the cursor on row 2
for key in Enter Enter Right Down Right Right; do
    tmux -L "$server" send-keys -t sim "$key"
    sleep 0.4
done
sleep 1
xwd -display "$display" -name azul-sim -silent | xwdtopnm 2>/dev/null > "$work/shot.ppm"
.venv/bin/python -c "
import sys
from PIL import Image
Image.open(sys.argv[1]).convert('RGB').save(sys.argv[2], optimize=True)
" "$work/shot.ppm" docs/sim-80x24.png
echo "docs/sim-80x24.png"
