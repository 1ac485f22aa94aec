"""The English side of the catalogue: every text the device's screens pass through tr(),
read from the firmware's code (tr("...") with a constant) and from the tables those screens
translate at run time (the registry's names, the entry modules' WORDS, the rules' breakdown
keys and tie-breaks, the colour labels in each game's context). A language's catalogue
(host_tools/lang/<code>.py) translates exactly these keys: tests/test_lang.py checks it."""
import ast
import os

from host_tools import ROOT

APP = os.path.join(ROOT, "firmware", "app")


def _static():
    """{key: where} of every tr() whose text (and context) is a constant."""
    out = {}
    trees = {}
    for name in sorted(os.listdir(APP)):
        if name.endswith(".py") and not name.startswith("lang_"):
            path = os.path.join(APP, name)
            with open(path, encoding="utf-8") as f:
                trees[name] = ast.parse(f.read(), path)
    # tr(NAME) of a module's text constant (keeper.NOT_CUT_SAFE: logged in English, shown in tr)
    texts = dict((t.id, node.value.value) for tree in trees.values() for node in tree.body
                 if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                 and isinstance(node.value.value, str) for t in node.targets if isinstance(t, ast.Name))
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr" and node.args
                    and (isinstance(node.args[0], ast.Constant) or getattr(node.args[0], "id", None) in texts)):
                context = node.args[1] if len(node.args) > 1 else None
                key = getattr(node.args[0], "value", None) or texts[node.args[0].id]
                if isinstance(context, ast.Constant) and context.value is not None:
                    key = context.value + "|" + key
                out.setdefault(key, "firmware/app/%s:%d" % (name, node.lineno))
    # the Sintra board's problems (rules_core.sintra_board.problem_format): (format, values)
    # tuples the board form translates
    path = os.path.join(ROOT, "rules_core", "sintra_board.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    problem = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "problem_format"][0]
    for node in ast.walk(problem):
        if isinstance(node, ast.Tuple) and node.elts and isinstance(node.elts[0], ast.Constant):
            out.setdefault(node.elts[0].value, "rules_core/sintra_board.py:%d" % node.lineno)
    return out


def _label(name):
    from app.colours import COLOURS
    c = COLOURS.get(name)
    return c[0] if c else name[:3]


def breakdown_words(key):
    """A breakdown key as the final standings name it (app.scoreboard.Final)."""
    return key.replace("_points", " pts").replace("complete_", "full ").replace("_", " ")


def _dynamic():
    """{key: where} of the texts the screens translate from tables."""
    import importlib
    from host_tools import use_board_layout
    use_board_layout()
    from rules_core.games import GAMES
    from rules_core import azul, sintra, garden, game5211
    from app import scoreboard, entry_garden, system, entry_azul
    from app.lang import LANGUAGES
    from app.colours import PLAYER_COLOURS
    out = {}

    def add(key, where):
        out.setdefault(key, where)
    for word in scoreboard.WORDS.values():
        add(word, "app.scoreboard.WORDS")
    for legend in scoreboard.LEGEND:
        if legend:
            add(legend, "app.scoreboard.LEGEND")
    for row in entry_garden.VARIANT_NOTE:
        add(row, "app.entry_garden.VARIANT_NOTE")
    for table in (system.ONOFF, system.LAYOUTS, system.DIM_AFTER, system.DARK_AFTER):
        for text, _ in table:
            add(text, "app.system")
    for _, name in LANGUAGES:
        add(name, "app.lang.LANGUAGES")
    for row in entry_azul.ROWS + entry_azul.BLANKS:
        add(row, "app.entry_azul.ROWS")
    for c in PLAYER_COLOURS:
        add(_label(c), "app.colours.PLAYER_COLOURS")
    for g in GAMES:
        where = "rules_core.games " + g.key
        add(g.name, where)
        add(g.short, where)
        for label in g.labels:
            add(g.key + "|" + label, where)
        if g.settings:
            add(g.settings, where)
        screens = importlib.import_module(g.screens)
        for e, word in getattr(screens, "WORDS", {}).items():
            add(g.key + "|" + word, g.screens + ".WORDS")
        nothing = getattr(screens, "END_ROUND_NOTHING", "")
        if nothing:
            add(nothing, g.screens + ".END_ROUND_NOTHING")
    for cls, key in ((azul.AzulRules, "azul"), (sintra.SintraRules, "sintra"),
                     (game5211.Game5211Rules, "5211")):
        add(key + "|" + cls.TIEBREAK, "rules_core %s TIEBREAK" % key)
    add("shared", "rules_core.session tiebreak")
    # the colours each game's screens name, in its context ("?" where its rulebook gives none)
    unsure = dict((g.key, g.unverified) for g in GAMES)
    for key, names in (("azul", azul.COLOURS), ("sintra", sintra.COLOURS),
                       ("garden", garden.COLOURS), ("5211", game5211.COLOURS)):
        for c in names:
            mark = "?" if c in unsure[key] else ""
            add("%s|%s%s" % (key, _label(c), mark), "app.colours %s" % key)
    for c in sintra.COLOURS:  # round colours, side B's colour in the breakdown
        add("sintra|%s%s" % (c, "?" if c in unsure["sintra"] else ""), "rules_core.sintra.COLOURS")
    for p in garden.PATTERNS:
        add("garden|%s%s" % (p, "?" if p in unsure["garden"] else ""), "rules_core.garden.PATTERNS")
    for c in game5211.COLOURS + ("roosters",):  # the colour last scored
        add("5211|" + c, "rules_core.game5211")
    # the final standings' breakdown labels, in each game's context
    samples = {"azul": ["placement", "floor", "row_bonus", "column_bonus", "colour_bonus", "complete_rows"],
               "sintra": ["windows", "colour_bonus", "track_resets", "marker_penalty", "glass_lost",
                          "leftover_points", "side_points", "complete_windows", "colour"],
               "garden": ["start"] + list(garden.PARTS),
               "5211": ["cards_kept", "score_pile", "roosters_kept", "decks", "last_scored"]
               + ["deck%d" % i for i in range(1, 10)]}
    for key, words in samples.items():
        for w in words:
            add(key + "|" + breakdown_words(w), "rules breakdown " + key)
    return out


def device_keys():
    """{key: where it comes from} of every text the device translates."""
    keys = _dynamic()
    keys.update(_static())
    return keys
