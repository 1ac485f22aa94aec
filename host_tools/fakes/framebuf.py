"""`framebuf` for CPython: the firmware's pure-Python FrameBuffer (MicroPython's API and font).

vhal.install_framebuf() registers it as the top-level `framebuf` module (firmware/ must be
importable: host_tools.use_board_layout()).
"""
from hal.framebuf_py import FrameBuffer, FrameBuffer1, MONO_VLSB, MONO_HLSB, MVLSB, FONT_8X8

__all__ = ["FrameBuffer", "FrameBuffer1", "MONO_VLSB", "MONO_HLSB", "MVLSB", "FONT_8X8"]
