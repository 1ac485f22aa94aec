"""State shared by the fakes of CircuitPython's built-in modules, set by run_on_drive.py.

Time is real (time.monotonic); button presses are scheduled in ms, either from the start
of the run or (written +MS) from the first frame the display received, so a slow machine
delays them instead of losing them. The run stops (KeyboardInterrupt, as Ctrl-C stops a
CircuitPython program) STOP_MS after the first frame.
"""
import time

START = time.monotonic()
TRACE = None       # file object: one line per I2C transfer / NeoPixel write / remount
HOLDS = []         # (pin name, start ms, end ms, relative to the first frame)
STOP_MS = None     # ms after the first frame
LIMIT_MS = 60000   # no frame at all by then: stop anyway
first_frame_ms = None


def now_ms():
    return int((time.monotonic() - START) * 1000)


def check_stop():
    t = now_ms()
    if t > LIMIT_MS or (first_frame_ms is not None and STOP_MS is not None and t > first_frame_ms + STOP_MS):
        raise KeyboardInterrupt


def pressed(pin_name):
    t = now_ms()
    for name, start, end, relative in HOLDS:
        if name != pin_name:
            continue
        if relative:
            if first_frame_ms is None:
                continue
            start += first_frame_ms
            end += first_frame_ms
        if start <= t < end:
            return True
    return False


def log(line):
    TRACE.write(line + "\n")
    TRACE.flush()
