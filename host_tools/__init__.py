"""Azul Companion host tools: the desktop side (CLI, simulator, replay, export, flashing, virtual board)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
# the board's import layout: firmware/'s content (app, hal, boards, paths) at the top level
if FIRMWARE not in sys.path:
    sys.path.insert(1, FIRMWARE)
