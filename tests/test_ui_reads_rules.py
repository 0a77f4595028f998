"""The window reads the rules instead of restating them (issue: no skill names in battlemat/ui logic).

Which skills are sticky (M6), charge (M7), hold ground (M8), range (R1, R3) or are an item, and which
phase is which, come from the rules data through `battlemat.core`. So a skill half or pair named by
the rules data, or a phase ID P1..P4, must not appear in `battlemat/ui` as a plain string literal:
not compared with, not listed in a tuple or set, not passed to a look-up. Words shown to the user
are f-strings and are left alone. One exception: `half.act == "item"` compares with the rules
data's *act* vocabulary, where "item" is the name of an act (the item half's act is also "item").
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from battlemat.core.rules import PHASES
from battlemat.io.rules_file import load_rules

ROOT = Path(__file__).resolve().parent.parent
UI = ROOT / "battlemat" / "ui"
ACT_ATTRIBUTES = {"act"}  # Half fields whose values are the rules data's own vocabulary, not skill names


def rule_names() -> set[str]:
    rules = load_rules()
    return set(rules.halves) | set(rules.pairs) | set(PHASES)


def _act_comparands(tree: ast.AST) -> set[int]:
    """ids of literals compared with `<something>.act`: act words, not skill names."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        if any(isinstance(o, ast.Attribute) and o.attr in ACT_ATTRIBUTES for o in operands):
            for o in operands:
                for sub in ast.walk(o):
                    out.add(id(sub))
    return out


def _in_fstrings(tree: ast.AST) -> set[int]:
    """ids of every node inside an f-string: words for the user, labels aside."""
    return {id(sub) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for sub in ast.walk(node)}


def literals_restating_rules(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, literal) of each plain string literal in `source` that names a skill half, a skill
    pair or a phase, outside f-strings and act comparisons."""
    tree = ast.parse(source)
    allowed = _act_comparands(tree) | _in_fstrings(tree)
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
        and id(node) not in allowed
    )


@pytest.mark.parametrize("path", sorted(UI.glob("*.py")), ids=lambda p: p.name)
def test_ui_names_no_skill_or_phase(path: Path) -> None:
    found = literals_restating_rules(path.read_text(encoding="utf-8"), rule_names())
    assert not found, (
        f"{path.relative_to(ROOT)} restates the rules data; read enc.rules.halves[use] instead: "
        + ", ".join(f"line {line}: {value!r}" for line, value in found)
    )


@pytest.mark.parametrize(
    "source",
    [
        'if d.use == "Press" and d.target: pass',  # a compare with a half (M7)
        'STICKY = ("Melee", "Wrestle")',  # a tuple of halves (M6)
        'ok = use in {"Shoot", "Throw"}',  # a set of halves (R1)
        'ranged = ev.phase == "P3"',  # a phase ID
        'r = c.base("Shoot/Throw")',  # a pair passed to a look-up
        'if it.use != "item": pass',  # the item half by name
    ],
)
def test_the_check_catches_restated_rules(source: str) -> None:
    assert literals_restating_rules(source, rule_names())


@pytest.mark.parametrize(
    "source",
    [
        'words = f"{half}: moves {mv} square(s) (M1)"',  # a label
        'is_item = half.act == "item"',  # the act vocabulary
        'if rules.halves[d.use].charges and d.target: pass',  # the rules data
        'mode = "item_kind"',  # not a skill name
    ],
)
def test_the_check_lets_rules_data_and_labels_pass(source: str) -> None:
    assert not literals_restating_rules(source, rule_names())
