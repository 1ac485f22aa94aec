"""Makes the pictures of docs/device.md with the simulator, from the key scripts beside them.

    ./dev.sh docs                 (the same: .venv/bin/python docs/device/make.py)

Each folder here is one device: its scripts NN-name.keys run in name order, each as

    azul-companion sim --data DEVICE --script NN-name.keys --keep-message --screenshot NN-name.png

A folder starts with an empty device, and each script starts where the one before left the
game (the device starts again on the game's scoreboard, or on the main menu). A script line
"# shows: TEXT" says what the screen must show when the script ends (a row containing
TEXT): when it does not, make.py stops naming the script, so a change to the screens that
breaks a script is found here instead of in a wrong picture.

--out DIR writes the pictures under DIR instead (tests/test_device_guide.py compares them
with the ones in the repository). --lang CODE makes them with the device speaking that
language (its settings file says so), in CODE/DEVICE/NN-name.png (the English pictures are
DEVICE/NN-name.png); --lang all makes every language's. The "# shows:" lines are English:
they are checked in English only (the same keys reach the same screens in every language).
"""
import argparse
import contextlib
import io
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COMMAND = "./dev.sh docs"
LANGUAGES = ("en", "zh-Hant", "ja")  # as firmware/app/lang.py's


class MakeError(Exception):
    pass


def devices(src=HERE):
    """The folders of scripts, in name order."""
    return sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)) and scripts(d, src))


def scripts(device, src=HERE):
    return sorted(f for f in os.listdir(os.path.join(src, device)) if f.endswith(".keys"))


def folder(lang):
    """Where a language's pictures go, under docs/device: "" (English) or "zh-Hant/"."""
    return "" if lang == "en" else lang + "/"


def pictures(src=HERE, lang="en"):
    """Every picture the scripts make, as "device/NN-name.png" ("zh-Hant/device/..." in
    another language)."""
    return [folder(lang) + d + "/" + s[:-len(".keys")] + ".png" for d in devices(src) for s in scripts(d, src)]


def shows(path):
    """The texts a script's "# shows:" lines want on the screen."""
    with open(path, encoding="utf-8") as f:
        return [line.split(":", 1)[1].strip() for line in f if line.startswith("# shows:")]


def run_sim(args):
    """azul-companion with args, in this process: (exit code, stdout lines, stderr)."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from host_tools import cli
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(args)
    return code, out.getvalue().splitlines(), err.getvalue().strip()


def make(out_dir=HERE, src=HERE, lang="en"):
    """Run every script under src and write its picture under out_dir; returns the pictures."""
    made = []
    for device in devices(src):
        with tempfile.TemporaryDirectory() as data:
            if lang != "en":  # (--data is the device's data folder)
                with open(os.path.join(data, "settings.json"), "w", encoding="utf-8") as f:
                    f.write('{"language": "%s"}\n' % lang)
            for name in scripts(device, src):
                script = os.path.join(src, device, name)
                picture = folder(lang) + device + "/" + name[:-len(".keys")] + ".png"
                path = os.path.join(out_dir, picture)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                code, text, err = run_sim(["sim", "--data", data, "--script", script, "--keep-message",
                                           "--screenshot", path])
                where = os.path.relpath(script, ROOT)
                if code:
                    raise MakeError("%s: %s" % (where, err))
                for want in shows(script) if lang == "en" else ():
                    if not any(want in row for row in text):
                        raise MakeError("%s should end on a screen showing %r; it shows:\n  %s"
                                        % (where, want, "\n  ".join(text)))
                made.append(picture)
    return made


def remove_orphans(made, lang="en"):
    """Pictures in docs/device (a language's folder) that no script makes any more."""
    top = os.path.join(HERE, folder(lang))
    for device in os.listdir(top):
        where = os.path.join(top, device)
        if os.path.isdir(where):
            for f in os.listdir(where):
                if f.endswith(".png") and folder(lang) + device + "/" + f not in made:
                    os.remove(os.path.join(where, f))


def main(argv=None):
    parser = argparse.ArgumentParser(description="Make the pictures of docs/device.md with the simulator.")
    parser.add_argument("--out", help="write the pictures under this folder (default: beside the scripts)")
    parser.add_argument("--lang", choices=LANGUAGES + ("all",), default="all",
                        help="the device's language (default: all, English first)")
    args = parser.parse_args(argv)
    made = []
    for lang in LANGUAGES if args.lang == "all" else (args.lang,):
        try:
            pics = make(args.out or HERE, lang=lang)
        except MakeError as e:
            print("make.py: %s" % e, file=sys.stderr)
            return 1
        if not args.out:
            remove_orphans(pics, lang)
        made += pics
    print("%d pictures in %s" % (len(made), args.out or os.path.relpath(HERE)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
