"""docs/device.md, the device guide: its pictures are what the simulator shows today.

Each picture is made again from its key script (docs/device/make.py, `./dev.sh docs`) in a
temporary folder and compared pixel by pixel with the one in the repository, so a change to
what a screen shows fails here until the pictures are made again and looked at.
"""
import importlib.util
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDE = os.path.join(ROOT, "docs", "device.md")
spec = importlib.util.spec_from_file_location("device_make", os.path.join(ROOT, "docs", "device", "make.py"))
make = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make)

STALE = "%s is stale: make the guide's pictures again with  " + make.COMMAND + "  and look at them"


def pixels(path):
    from PIL import Image
    with Image.open(path) as im:
        return im.size, im.convert("RGB").tobytes()


@pytest.mark.parametrize("lang", make.LANGUAGES)
def test_every_picture_is_what_the_simulator_shows_today(tmp_path, lang):
    made = make.make(str(tmp_path), lang=lang)
    assert made == make.pictures(lang=lang) and len(made) >= 40
    top = os.path.join(make.HERE, make.folder(lang))
    in_repo = sorted(make.folder(lang) + d + "/" + f for d in make.devices() if os.path.isdir(os.path.join(top, d))
                     for f in os.listdir(os.path.join(top, d)) if f.endswith(".png"))
    assert sorted(made) == in_repo, "pictures without a script, or scripts without a picture: run " + make.COMMAND
    for picture in made:
        committed = os.path.join(make.HERE, picture)
        assert pixels(str(tmp_path / picture)) == pixels(committed), STALE % ("docs/device/" + picture)


def test_the_guide_shows_every_picture_and_readme_links_it():
    with open(GUIDE, encoding="utf-8") as f:
        text = f.read()
    linked = re.findall(r"!\[[^\]]*\]\((device/[^)]+)\)", text)
    assert sorted(linked) == sorted("device/" + p for lang in make.LANGUAGES for p in make.pictures(lang=lang))
    assert make.COMMAND in text
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        assert "(docs/device.md)" in f.read()


def test_a_script_that_no_longer_reaches_its_screen_is_named(tmp_path):
    """A change to the menus that sends a script elsewhere stops make.py with the script's
    name and what the screen shows, instead of making a wrong picture."""
    src = tmp_path / "src" / "demo"
    src.mkdir(parents=True)
    (src / "01-menu.keys").write_text("# shows: New game\n")
    (src / "02-game.keys").write_text("# shows: Sintra\nDOWN*2 OK   # History, not New game\n")
    with pytest.raises(make.MakeError) as e:
        make.make(str(tmp_path / "out"), str(tmp_path / "src"))
    assert "02-game.keys should end on a screen showing 'Sintra'" in str(e.value) and "History" in str(e.value)
    assert (tmp_path / "out" / "demo" / "01-menu.png").exists()
