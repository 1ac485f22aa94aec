"""Azul Companion host tools: the desktop side (CLI, simulator, replay, export, flashing, virtual board)."""
