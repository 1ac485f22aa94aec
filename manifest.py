# Freeze Azul Companion into a custom MicroPython firmware (frozen bytecode, no files to copy).
# `azul-companion build` (host_tools/build.py) builds it with the offline kit, adding the
# image's own image.py and boot.py; by hand:
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/this/manifest.py
# Board layout matches `azul-companion flash`: firmware/x is importable as x, rules_core as rules_core.
include("$(PORT_DIR)/boards/manifest.py")  # the port's own frozen modules
require("ssd1306")  # micropython-lib display driver
package("rules_core")
package("app", base_path="firmware")
package("hal", base_path="firmware")
package("boards", base_path="firmware")
module("paths.py", base_path="firmware")
module("version.py", base_path="firmware")
module("main.py", base_path="firmware")
