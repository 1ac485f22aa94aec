"""The virtual board's side that runs inside the MicroPython unix port.

`vbrepl.py` is the board's "ROM": it puts the fake `machine` and `neopixel` (../mp) in
`sys.modules` with `vb_host.py` plugged in (trace file, button steps, resets), mounts a host folder as the flash at `/`, runs boot.py/main.py and speaks
the REPL protocols (friendly, raw, raw-paste) that mpremote expects. The host side
(host_tools/vboard.py) relays bytes between a pty/socket and this process and restarts it
on reset. `mip/` is an offline copy of the micropython-lib packages the firmware needs.
"""
