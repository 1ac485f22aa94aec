"""Hardware abstraction: buttons, display, LEDs, storage and clock behind small seams.

Each module holds the runtime-independent logic plus a MicroPython and a CircuitPython
backend; backends import the runtime's modules only when they are built, so every module
imports on CPython too.
"""
