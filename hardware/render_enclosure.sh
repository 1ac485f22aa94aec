#!/bin/sh
# Render the enclosure previews (hardware/images/enclosure_*.png) and the printable STLs
# (hardware/enclosure/stl/) from hardware/enclosure/azul_companion.scad.
# Needs OpenSCAD (Debian: apt-get install openscad); without a display it uses xvfb-run (package xvfb).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
scad="$here/enclosure/azul_companion.scad"
mkdir -p "$here/images" "$here/enclosure/stl"

run() {
    if [ -n "${DISPLAY:-}" ] || ! command -v xvfb-run >/dev/null 2>&1; then
        openscad "$@"
    else
        xvfb-run -a openscad "$@"
    fi
}

png() {  # png NAME PART CAMERA(rx,ry,rz)
    run -q -D "part=\"$2\"" -o "$here/images/enclosure_$1.png" --imgsize=800,600 \
        --camera=0,0,0,$3,0 --autocenter --viewall --colorscheme=Tomorrow --projection=p "$scad"
}

png assembly assembly 55,0,25
png exploded exploded 60,0,35
png lid lid 0,0,0
png lid_underside lid 180,0,0
png base base 45,0,200
for part in base lid; do
    run -q -D "part=\"$part\"" -o "$here/enclosure/stl/azul_companion_$part.stl" "$scad"
done
echo "rendered previews into $here/images and STLs into $here/enclosure/stl"
