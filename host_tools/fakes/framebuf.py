"""`framebuf` for CPython: the firmware's pure-Python FrameBuffer (MicroPython's API and font).

Import as `framebuf` by putting this folder on sys.path (vhal.install_framebuf() does it).
"""
try:
    from hal.framebuf_py import FrameBuffer, FrameBuffer1, MONO_VLSB, MONO_HLSB, MVLSB, FONT_8X8
except ImportError:  # imported as a top-level module with only this folder on sys.path
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "firmware"))
    from hal.framebuf_py import FrameBuffer, FrameBuffer1, MONO_VLSB, MONO_HLSB, MVLSB, FONT_8X8

__all__ = ["FrameBuffer", "FrameBuffer1", "MONO_VLSB", "MONO_HLSB", "MVLSB", "FONT_8X8"]
