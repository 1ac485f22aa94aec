"""The firmware's version, pyproject.toml's (tests/test_image.py checks that they agree):
Settings > About shows it."""
VERSION = "0.1.0"
