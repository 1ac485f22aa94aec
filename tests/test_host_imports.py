"""Importing the host tools changes nothing: no sys.path edit, the CLI imports only the
module of the command given, and on CPython the App keeps every game's modules loaded
(unloading is for a board's heap)."""
import json
import os
import subprocess
import sys

import mp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORD = os.path.join(ROOT, "tests", "oracles", "azul-random-games", "azul_2p_5000.jsonl")

# run in a bare interpreter (no pytest pythonpath): what an installed copy sees
PROBE = r'''
import json, sys
before = list(sys.path)
import host_tools.cli
same = sys.path == before
code = host_tools.cli.main(sys.argv[1:])
ours = sorted(m for m in sys.modules if m.split(".")[0] in ("host_tools", "app", "hal", "boards", "paths"))
after = list(sys.path)
import host_tools.export, host_tools.flash, host_tools.vboard
same = same and sys.path == after
print(json.dumps({"same_path_on_import": same, "code": code, "modules": ours,
                  "firmware_on_path": host_tools.FIRMWARE in sys.path}))
'''


def probe(*argv):
    r = subprocess.run([sys.executable, "-c", PROBE] + list(argv), capture_output=True, text=True,
                       cwd=ROOT, timeout=120, env=dict(os.environ, PYTHONPATH=""))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.splitlines()[-1])


def test_import_leaves_sys_path_and_replay_loads_no_other_command():
    got = probe("replay", RECORD)
    assert got["same_path_on_import"] and got["code"] == 0
    assert not got["firmware_on_path"]
    # no sim, vboard, export, firmware: only what every command shares, and the catalogue's
    # list of languages (--lang), no language's words in English
    assert got["modules"] == ["host_tools", "host_tools.cli", "host_tools.lang", "host_tools.output"]
    got = probe("export", RECORD, "--to", "json")
    assert got["code"] == 0 and got["modules"] == ["host_tools", "host_tools.cli", "host_tools.export",
                                                 "host_tools.lang", "host_tools.output"]


def test_sim_puts_the_board_layout_on_the_path_and_runs_the_firmware():
    got = probe("sim", "--script", "OK")
    assert got["code"] == 0 and got["firmware_on_path"]
    assert {"host_tools.sim", "app.app", "hal.keys", "paths"} <= set(got["modules"])
    assert "host_tools.vboard" not in got["modules"]


def test_help_imports_no_command_module():
    r = subprocess.run([sys.executable, "-c", "import sys\nfrom host_tools.cli import main\n"
                        "try:\n    main(['-h'])\nexcept SystemExit:\n    pass\n"
                        "print(sorted(m for m in sys.modules if m.startswith('host_tools')))"],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "replay" in r.stdout and "vboard" in r.stdout  # every command is listed
    assert r.stdout.splitlines()[-1] == "['host_tools', 'host_tools.cli', 'host_tools.output']"


def test_unloading_other_games_keeps_the_classes_on_cpython():
    from app.play import other_games, unload
    from rules_core.games import game
    from rules_core.session import rules_class
    from rules_core.azul import AzulRules

    unload(other_games("5211"))
    assert rules_class(game("azul")) is AzulRules


def test_unloading_other_games_frees_them_on_micropython():
    script = ("import sys\nsys.path[:0] = ['firmware', '.']\n"
              "from rules_core.games import game\nfrom rules_core.session import rules_class\n"
              "rules_class(game('azul')); rules_class(game('garden'))\n"
              "from app.play import other_games, unload\nunload(other_games('garden'))\n"
              "print('rules_core.azul' in sys.modules, 'rules_core.garden' in sys.modules)")
    r = mp.run(["-c", script], heap="512K")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "True"]
