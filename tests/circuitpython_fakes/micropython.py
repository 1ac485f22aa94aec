"""Fake of CircuitPython's built-in `micropython`: const() is a compiler hint."""


def const(x):
    return x
