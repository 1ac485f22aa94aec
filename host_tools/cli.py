"""`azul-companion` / `python -m host_tools`: one CLI for the desktop side.

Every failure the user can cause (bad arguments, missing board, broken record) ends in one
line on stderr and a non-zero exit, never a traceback.
"""
import argparse
import os
import sys

from host_tools import use_board_layout
from host_tools.output import CliError, printable, not_replacing

# command -> module that provides add_arguments(parser) and run(args); only the module of
# the command given is imported
COMMANDS = (
    ("sim", "host_tools.sim", "run the device firmware in the terminal (virtual board)"),
    ("replay", "host_tools.cli", "score a game record and print the result"),
    ("simulate", "host_tools.cli", "play random legal games with the full engines and write records"),
    ("export", "host_tools.export", "records to csv, json, BG Stats or an HTML report"),
    ("flash", "host_tools.flash", "compile with mpy-cross and copy the firmware to a board"),
    ("pull", "host_tools.flash", "copy game records off a board"),
    ("build", "host_tools.build", "build a Pico's firmware file (UF2) with the app frozen in, offline"),
    ("vboard", "host_tools.vboard", "start a virtual board running real MicroPython"),
    ("web", "host_tools.web", "the device as an offline web page (MicroPython webassembly)"),
    ("verify", "host_tools.verify", "the scores a final Azul wall allows, and a verdict on a claimed one"),
)
RUN_FIRMWARE = ("sim", "vboard")  # commands that import firmware/ modules (app, hal, boards)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, "%s: error: %s\n" % (self.prog, message))


def _module(name):
    return __import__(name, None, None, ["run"])


def add_arguments(parser):
    """Arguments of the commands defined here (replay, simulate)."""
    if parser.prog.endswith("replay"):
        parser.add_argument("file", help="a game record (.jsonl)")
        parser.add_argument("--json", action="store_true", help="print the result object (RECORD_FORMAT.md)")
        from host_tools.lang import CODES
        parser.add_argument("--lang", choices=CODES, default="en",
                            help="the text's language (the device's words; --json stays English)")
    else:
        from rules_core.games import GAMES
        engines = [g for g in GAMES if g.engine]
        parser.add_argument("--game", choices=[g.key for g in engines], required=True)
        parser.add_argument("--variant", help="; ".join("%s: %s" % (g.key, "|".join(g.variants)) for g in engines))
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--games", type=int, default=1, help="games with seeds seed, seed+1, ... (several need --out-dir)")
        parser.add_argument("--out", help="the record's file (one game); default: stdout")
        parser.add_argument("--out-dir", help="a folder for the records, one file per game (GAME_Np_SEED.jsonl)")
        parser.add_argument("--force", action="store_true", help="replace files that exist already")


def run(args):
    return _replay(args) if args.command == "replay" else _simulate(args)


def _replay(args):
    from rules_core.session import replay

    try:
        with open(args.file, "rb") as f:
            session, warnings = replay(f)
    except OSError as e:
        raise CliError("cannot read %s: %s" % (args.file, e.strerror or e))
    except ValueError as e:
        raise CliError("%s: %s" % (args.file, e))
    for w in warnings:
        print("%s: warning: %s" % (printable(args.file), printable(w)), file=sys.stderr)
    result = session.result()
    if args.json:
        from rules_core.record import dumps
        print(dumps(result))
    else:
        print(format_result(session, getattr(args, "lang", "en")))
    return 0


def format_result(session, code="en"):
    """The standings as a small text table; in another language than English, the game and
    its variant by their names and every word the device's (host_tools.lang)."""
    from host_tools.lang import Translator, status
    tr = Translator(code)
    r = session.result()
    if code == "en":
        lines = ["%s (%s) - %s" % (session.game, session.variant, session.status())]
    else:
        g = session.info
        label = tr(g.labels[g.variants.index(session.variant)], g.key)
        lines = ["%s (%s) - %s" % (tr(g.name), label, status(session, tr))]
    for rank, p in session.standings():
        lines.append("%2d. %-12s %4d%s" % (rank, printable(session.players[p]), r["scores"][p],
                                           "  " + tr("winner") if p in r["winners"] else ""))
    if r["tiebreak"]:
        lines.append(tr("tie-break: %s") % tr(r["tiebreak"], session.game))
    return "\n".join(lines)


def _simulate(args):
    from rules_core.record import dumps

    if args.games < 1:
        raise CliError("--games must be at least 1")
    # one record per file (RECORD_FORMAT.md): several games never share a file or stdout
    if args.out and args.out_dir:
        raise CliError("give --out FILE (one game) or --out-dir DIR, not both")
    if args.games > 1 and not args.out_dir:
        raise CliError("--games %d makes %d records, one per file: give --out-dir DIR" % (args.games, args.games))
    from rules_core.games import game
    g = game(args.game)
    random_game = __import__(g.engine, None, None, ["random_game"]).random_game
    variant = args.variant or g.variants[0]
    out_dir = args.out_dir
    paths = [os.path.join(out_dir, "%s_%dp_%d.jsonl" % (args.game, args.players, args.seed + k)) if out_dir
             else args.out for k in range(args.games)]
    for path in paths:  # all of them before any is written
        if path:
            not_replacing(path, args.force)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    for k in range(args.games):
        seed = args.seed + k
        try:
            game = random_game(args.players, seed, variant)
        except ValueError as e:
            raise CliError(str(e))
        header, events = game[0], game[1]
        text = "".join(dumps(x) + "\n" for x in [header] + list(events))
        path = paths[k]
        if path:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print("%s: scores %s" % (printable(path), game[2]))
        else:
            sys.stdout.write(text)
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    given = next((a for a in argv if not a.startswith("-")), None)  # the top level has only -h
    parser = _Parser(prog="azul-companion", description="Azul Companion host tools")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, modname, helptext in COMMANDS:
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.set_defaults(module=modname)
        if name != given:
            continue
        if name in RUN_FIRMWARE:
            use_board_layout()
        try:
            _module(modname).add_arguments(p)
        except ImportError:
            p.set_defaults(unavailable=True)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    if getattr(args, "unavailable", False):
        print("azul-companion: %s is not available in this installation" % args.command, file=sys.stderr)
        return 2
    try:
        return _module(args.module).run(args)
    except CliError as e:
        print("azul-companion %s: %s" % (args.command, printable(str(e))), file=sys.stderr)
        return 1
    except OSError as e:  # an unwritable --out/--data/--screenshot, a vanished file...
        where = "%s: " % e.filename if getattr(e, "filename", None) else ""
        print("azul-companion %s: %s" % (args.command, printable("%s%s" % (where, e.strerror or e))),
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
