"""Runtime shims so the same source runs on CPython, MicroPython and CircuitPython."""
try:
    from micropython import const
except ImportError:  # CPython: const() is only a hint to the MicroPython compiler
    def const(x):
        return x


def copy_data(v):
    """Deep copy of plain data (lists, dicts, bytearrays; ints, strs and tuples are shared)."""
    t = type(v)
    if t is list:
        out = list(v)
        for i in range(len(out)):  # the type test inline: most items are ints, not copied
            t = type(out[i])
            if t is list or t is dict or t is bytearray:
                out[i] = copy_data(out[i])
        return out
    if t is dict:
        out = {}
        for k in v:
            out[k] = copy_data(v[k])
        return out
    if t is bytearray:
        return bytearray(v)
    return v
