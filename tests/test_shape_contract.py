"""The shape checks itself (issue 25 item 6): the layers' import contract, read from the code with
ast (imports inside functions count), no import cycle between modules, no module over 600 lines,
and lazy imports only where their reason is written. Each check is shown to fail on a bad example.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import networkx as nx
import pytest
from conftest import ROOT

PACKAGE = ROOT / "battlemat"
MAX_LINES = 600
# What the pure core may import besides itself (DESIGN: core may import networkx and numpy; the
# compiled search uses numba).
CORE_THIRD_PARTY = frozenset({"numpy", "networkx", "numba"})
WINDOW = frozenset({"pygame", "pygame_gui"})
IO_NEVER = ("battlemat.ai", "battlemat.sim", "battlemat.ui", "battlemat.teach", "battlemat.commands")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(root: Path = PACKAGE) -> dict[str, Path]:
    return {module_name(p, root.parent): p for p in sorted(root.rglob("*.py"))}


def imports(tree: ast.AST, name: str, is_package: bool, known: Iterable[str] = ()) -> set[str]:
    """Every module `tree` imports, at any depth (inside functions too); `from a import b` counts as
    `a.b` where `a.b` is one of the `known` modules, else as `a`."""
    known = set(known)
    found: set[str] = set()
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            subs = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
            found.update(subs or [base])
    return found


def import_map(root: Path = PACKAGE) -> dict[str, set[str]]:
    mods = sources(root)
    return {
        name: imports(ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", mods)
        for name, path in mods.items()
    }


def _top(module: str) -> str:
    return module.split(".")[0]


def contract_breaches(graph: Mapping[str, set[str]]) -> list[str]:
    """Each import that breaks the layers' contract (DESIGN: layers), as 'who imports what: why'."""
    out: list[str] = []
    stdlib = sys.stdlib_module_names
    for who, targets in sorted(graph.items()):
        for what in sorted(targets):
            top = _top(what)
            if who.startswith("battlemat.core") and not (
                    what.startswith("battlemat.core") or top in stdlib or top in CORE_THIRD_PARTY
                    or what == "__future__"):
                out.append(f"{who} imports {what}: core imports only core (and the stdlib, numpy, networkx, numba)")
            if top in WINDOW and not who.startswith("battlemat.ui"):
                out.append(f"{who} imports {what}: only battlemat.ui imports pygame")
            if who.startswith("battlemat.io") and what.startswith(IO_NEVER):
                out.append(f"{who} imports {what}: io reads and writes files; it never imports a feature")
    return out


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import cycles between battlemat's modules (a package imports its own `__init__` first,
    so a module importing its package's `__init__` that imports it back is a cycle too)."""
    g = nx.DiGraph()
    for who, targets in graph.items():
        g.add_node(who)
        g.add_edges_from((who, t) for t in targets if t in graph and t != who)
    return [sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1]


def test_the_layers_keep_their_import_contract() -> None:
    assert not contract_breaches(import_map()), "\n".join(contract_breaches(import_map()))


def test_no_import_cycle_between_modules() -> None:
    found = cycles(import_map())
    assert not found, "import cycles (lazy imports included):\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_module_over_600_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


LAZY_REASON = re.compile(r"#\s*noqa:\s*PLC0415\s+-\s+(?P<why>.*\S)")


def unexplained_lazy_imports(source: str) -> list[int]:
    """Lines of imports inside a function whose `noqa: PLC0415` gives no reason: an optional
    dependency or a command's start-up time are the only ones kept (ruff refuses the rest)."""
    lines = source.splitlines()
    bad = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    m = LAZY_REASON.search(lines[inner.lineno - 1])
                    if m is None or not re.search(r"optional|start-up", m["why"]):
                        bad.append(inner.lineno)
    return sorted(set(bad))


def test_every_lazy_import_says_why() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}" for p in sorted(PACKAGE.rglob("*.py"))
             for n in unexplained_lazy_imports(p.read_text(encoding="utf-8"))]
    assert not found, ("imports inside functions need `# noqa: PLC0415 - <reason: an optional dependency or "
                       "start-up time>`, or move to the top:\n" + "\n".join(found))


# -- each check can fail --------------------------------------------------------------------------
BAD_TREE = {
    "battlemat/__init__.py": "",
    "battlemat/core/__init__.py": "",
    "battlemat/core/a.py": "import pygame\nfrom battlemat.io import maps\n",
    "battlemat/io/__init__.py": "",
    "battlemat/io/maps.py": "def f():\n    from battlemat.sim import runner\n",
    "battlemat/sim/__init__.py": "",
    "battlemat/sim/runner.py": "from battlemat.sim import report\n",
    "battlemat/sim/report.py": "def f():\n    from . import runner\n",
}


@pytest.fixture
def bad_tree(tmp_path: Path) -> Path:
    for rel, text in BAD_TREE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path / "battlemat"


def test_the_contract_check_can_fail(bad_tree: Path) -> None:
    breaches = contract_breaches(import_map(bad_tree))
    assert any("battlemat.core.a imports pygame" in b for b in breaches)
    assert any("battlemat.core.a imports battlemat.io.maps" in b for b in breaches)
    assert any("battlemat.io.maps imports battlemat.sim.runner" in b for b in breaches)


def test_the_cycle_check_sees_a_lazy_relative_import(bad_tree: Path) -> None:
    assert cycles(import_map(bad_tree)) == [["battlemat.sim.report", "battlemat.sim.runner"]]


def test_the_lazy_import_check_can_fail() -> None:
    src = ("def f():\n    import matplotlib  # noqa: PLC0415 - optional: the report's figures\n"
           "    import json  # noqa: PLC0415\n    import os  # noqa: PLC0415 - shorter\n")
    assert unexplained_lazy_imports(src) == [3, 4]
