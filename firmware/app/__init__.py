"""The device application: screens, entry flows and LED frames over the rules core.

`App` (app.app) is the only entry point; the composition root (main.py) builds the HAL
devices and passes them in.
"""
