"""Repository promises: README's two commands, CI runs the test one verbatim, layers stay headless."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import ROOT


def readme_commands():
    text = (ROOT / "README.md").read_text()
    setup = text.split("## Set up on a fresh machine")[1].split("\n## ")[0]
    return [line.strip() for line in setup.splitlines() if line.startswith("    ")]


def test_readme_has_exactly_two_setup_commands():
    cmds = readme_commands()
    assert len(cmds) == 2
    assert cmds[0].endswith("python main.py") and "pytest" in cmds[1]


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (ROOT / ".ci" / "run").read_text()
    assert readme_commands()[1] in ci.splitlines()


def test_headless_packages_never_import_pygame():
    code = (
        "import sys, battlemat.core.match, battlemat.io.encounter, battlemat.cli, battlemat.ai, battlemat.sim\n"
        "import battlemat.core.resolver, battlemat.core.dice\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui')]\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_core_is_pure():
    for path in (ROOT / "battlemat" / "core").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*(import|from) (pygame|pytmx)", text, re.M), path
        assert not re.search(r"\brandom\.(random|randint|choice|shuffle|uniform|seed)\(", text), path
        assert not re.search(r"\b(open|time\.time|datetime\.now)\(", text), path
