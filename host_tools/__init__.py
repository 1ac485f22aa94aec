"""Azul Companion host tools: the desktop side (CLI, simulator, replay, export, flashing, virtual board).

Importing this package changes nothing: the commands that run firmware code call
use_board_layout() first (the CLI does it for them).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")


def use_board_layout():
    """Make firmware/'s content (app, hal, boards, paths) importable at the top level, as on
    the board. In a checkout pyproject's pytest settings do the same; an installed copy
    needs this call."""
    if FIRMWARE not in sys.path:
        sys.path.insert(1, FIRMWARE)
