"""package.json (mip) and manifest.py (frozen firmware) cover every file flash installs."""
import ast
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host_tools import flash  # noqa: E402


def test_package_json_lists_every_firmware_and_core_file_where_flash_puts_it():
    with open(os.path.join(ROOT, "package.json")) as f:
        pkg = json.load(f)
    listed = {src: dest for dest, src in pkg["urls"]}
    expected = {os.path.relpath(path, ROOT).replace(os.sep, "/"): dest for path, dest in flash.source_files()}
    # nothing missing, nothing stale, same layout as `flash`
    assert listed == expected, "refresh: python -c 'import host_tools.flash as f; f.write_package_urls()'"
    assert ["ssd1306", "latest"] in pkg["deps"]
    assert pkg["version"].count(".") == 2


def test_manifest_freezes_every_firmware_folder_and_the_core():
    with open(os.path.join(ROOT, "manifest.py")) as f:
        tree = ast.parse(f.read())
    calls = [(n.func.id, n.args[0].value, {k.arg: k.value.value for k in n.keywords})
             for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    frozen = {(name, arg, kw.get("base_path", ".")) for name, arg, kw in calls}
    assert ("require", "ssd1306", ".") in frozen and ("package", "rules_core", ".") in frozen
    for entry in sorted(os.listdir(flash.FIRMWARE)):
        path = os.path.join(flash.FIRMWARE, entry)
        if os.path.isdir(path) and os.path.exists(os.path.join(path, "__init__.py")):
            assert ("package", entry, "firmware") in frozen, entry
        elif entry.endswith(".py") and entry != flash.CIRCUITPYTHON_BOOT:  # CircuitPython's boot.py only
            assert ("module", entry, "firmware") in frozen, entry


def test_virtual_board_side_and_fakes_compile_for_micropython():
    files = [os.path.join(d, n) for top in ("vboard", "mp")
             for d, _, ns in os.walk(os.path.join(ROOT, "host_tools", "fakes", top)) for n in ns if n.endswith(".py")]
    assert len(files) >= 4
    for path in files:
        r = subprocess.run([flash.mpy_cross(), "-o", os.devnull, path], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, (path, r.stderr)
