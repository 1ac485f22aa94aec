"""What a newcomer reads before running anything: the licence pyproject.toml declares is in
the repository, the README says what the skipped tests need, and hardware/README.md's
commands run as written in the project's folder (the CLI is in .venv, not on PATH)."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as f:
        return f.read()


def test_the_licence_pyproject_names_is_in_the_repository():
    declared = re.search(r'^license = "([^"]+)"', read("pyproject.toml"), re.M).group(1)
    assert declared == "MIT"
    text = read("LICENSE")
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text
    assert "(LICENSE)" in read("README.md")


def test_the_readme_says_what_the_skipped_tests_need():
    import picosim
    readme = read("README.md")
    part = readme[readme.index("**The two tests that skip**"):]
    part = part[:part.index("\n## ")]
    for need in ("tests/test_pico_emulated.py", "../shared/picosim", picosim.ENV, "node", "rp2040js",
                 picosim.UF2, picosim.BOOTROM, "run.mjs"):
        assert need in part, need


def test_hardware_readme_commands_run_as_written():
    """Each command block's azul-companion line starts as the project runs it: ./dev.sh or
    .venv/bin/azul-companion (a bare azul-companion is found only in an activated venv)."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", read("hardware", "README.md"), re.S)
    lines = [l.strip() for b in blocks for l in b.splitlines() if "azul-companion" in l or "dev.sh" in l]
    assert lines and all(re.match(r"(\./dev\.sh|\.venv/bin/azul-companion) ", l) for l in lines), lines
    inline = re.findall(r"`([^`]*azul-companion [a-z]+[^`]*)`", read("hardware", "README.md"))
    assert all(c.startswith(".venv/bin/") for c in inline if not c.startswith("pip ")), inline
