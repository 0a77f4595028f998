"""Rules by flag, never by skill name (STYLE 14, issue 25 item 1).

A copy of the rules data with every skill half and pair renamed, played on copies of the bundled
maps, encounters and rule cases renamed the same way, gives the same game: every `resolve --json`
and `reach --json` golden output, event for event once the names are mapped back, and every rule
case as it stands. The core, the window and the AI's rule questions ask the rules data's flags
(`battlemat.core.uses`, `Rules.talent_pair`), and no core module compares with a skill's name.
"""

from __future__ import annotations

import ast
import re
import shutil
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType

import pytest
from conftest import ROOT
from test_golden import _golden

from battlemat.core import uses
from battlemat.core.rules import Rules
from battlemat.io import rules_file
from battlemat.io.cases import load_case
from battlemat.io.tiled.terrain import PRESETS
from battlemat.teach.rule_cases import run_case

RULES_TEXT = (ROOT / "battlemat" / "data" / "rules.toml").read_text(encoding="utf-8")
_DATA = tomllib.loads(RULES_TEXT)
# "item" is not a skill: it is the word for using an item (M1), spelled the same in every rules data.
HALVES = tuple(h for h in _DATA["half"] if h != "item")
PAIRS = tuple(p for pairs in _DATA["groups"].values() for p in pairs)
PREFIX = "Xq"  # the same prefix for every name keeps their order, so nothing sorts differently
_NAME = re.compile(r"(?<![\w])(" + "|".join(sorted(map(re.escape, HALVES), key=len, reverse=True)) + r")(?![\w])")
_BACK = re.compile(PREFIX + "(" + "|".join(sorted(map(re.escape, HALVES), key=len, reverse=True)) + r")(?![\w])")


def renamed(text: str) -> str:
    """Every skill half renamed, and so every pair ("Melee/Press" -> "XqMelee/XqPress")."""
    return _NAME.sub(lambda m: PREFIX + m.group(1), text)


def named_back(text: str) -> str:
    return _BACK.sub(lambda m: m.group(1), text)


def test_the_renaming_renames_halves_and_pairs_and_maps_back() -> None:
    text = 'skills = { "Melee/Press" = 3, "Racial magic" = 1, Exit = 2 }  # Pressure, item, Lore'
    out = renamed(text)
    assert out == 'skills = { "XqMelee/XqPress" = 3, "XqRacial magic" = 1, XqExit = 2 }  # Pressure, item, XqLore'
    assert named_back(out) == text
    assert PREFIX not in RULES_TEXT


@pytest.fixture(scope="module")
def renamed_tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A copy of the maps, their tilesets and the rule cases with every skill renamed, while the
    renamed rules data is the one every loader reads (`load_rules`, wherever it was imported)."""
    root = tmp_path_factory.mktemp("renamed")
    for folder in ("maps", "assets", "cases"):
        for src in (ROOT / folder).rglob("*"):
            dst = root / src.relative_to(ROOT)
            if src.is_dir():
                dst.mkdir(parents=True, exist_ok=True)
            elif src.suffix in (".toml", ".tmx", ".tsx", ".tmj", ".tsj", ".json", ".tiled-project"):
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_text(renamed(src.read_text(encoding="utf-8")), encoding="utf-8")
            else:
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dst)
    rules = Rules.from_data(tomllib.loads(renamed(RULES_TEXT)))
    assert "XqMelee/XqPress" in rules.pairs and "Melee" not in rules.halves
    # The terrain presets are map data: the floor trap's elusion names skills (E1).
    presets = MappingProxyType({k: MappingProxyType({f: renamed(v) if isinstance(v, str) else v for f, v in p.items()})
                                for k, p in PRESETS.items()})
    original = rules_file.load_rules
    with pytest.MonkeyPatch.context() as mp:
        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").startswith("battlemat"):
                if getattr(module, "load_rules", None) is original:
                    mp.setattr(module, "load_rules", lambda: rules)
                if getattr(module, "PRESETS", None) is PRESETS:
                    mp.setattr(module, "PRESETS", presets)
        yield root


def _renamed_argv(argv: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(PREFIX + a if a in HALVES else a for a in argv)


def test_golden_outputs_are_the_same_with_every_skill_renamed(renamed_tree: Path, tmp_path: Path) -> None:
    """Every resolve and reach golden (scripted turns: no AI), played with the renamed rules data on
    the renamed maps, prints the golden output once the names are mapped back."""
    golden = _golden()
    kept = ROOT / "tests" / "golden"
    checked, differ = 0, []
    for case in golden.cases(ROOT):
        if case.argv[0] not in ("resolve", "reach"):
            continue
        case = golden.Case(case.name, _renamed_argv(case.argv))
        for fname, text in golden.run_case(case, renamed_tree, tmp_path).items():
            checked += 1
            if named_back(text) != (kept / fname).read_text():
                differ.append(fname)
    assert checked >= 150
    assert not differ, f"{len(differ)} outputs change when the skills are renamed: {differ[:10]}"


def _case_files(root: Path) -> list[Path]:
    return sorted((root / "cases").glob("*.toml"))


def test_rule_cases_hold_with_every_skill_renamed(renamed_tree: Path) -> None:
    """Every rule case, renamed, comes out as it does today: held, or failing as its xfail says."""
    wrong = []
    for path in _case_files(renamed_tree):
        expected_fail = bool(tomllib.loads(path.read_text(encoding="utf-8")).get("case", {}).get("xfail"))
        if run_case(load_case(path)).ok == expected_fail:
            wrong.append(path.stem)
    assert len(_case_files(renamed_tree)) >= 100
    assert not wrong, f"rule cases that change when the skills are renamed: {wrong}"


def test_a_name_check_is_caught_by_the_renamed_cases(renamed_tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The renamed play can fail: R2 asked by name ("Shoot") instead of by flag lets a shot fly next
    to an aggressive foe, and the renamed R2 case says so."""
    path = next(p for p in _case_files(renamed_tree) if p.stem.startswith("R2_"))
    assert run_case(load_case(path)).ok
    monkeypatch.setattr(uses, "engaged_forbids", lambda rules, use: use == "Shoot")
    assert not run_case(load_case(path)).ok


# -- no core module compares with a skill's name -------------------------------------------------
def skill_names_in(source: str) -> list[tuple[int, str]]:
    """(line, name) of every string constant in `source` that is a skill half or pair of the rules data."""
    names = set(HALVES) | set(PAIRS)
    return [(node.lineno, node.value) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names]


@pytest.mark.parametrize("package", ["core", "ui"])
def test_no_skill_name_in_the_rules_code(package: str) -> None:
    """S8 and the rest: the resolver and the window decide by the rules data's flags; a skill's name
    as a string in their code is a rule written a second time."""
    found = [f"{p.relative_to(ROOT)}:{line}: {name!r}"
             for p in sorted((ROOT / "battlemat" / package).rglob("*.py"))
             for line, name in skill_names_in(p.read_text(encoding="utf-8"))]
    assert not found, "decide by the rules data's flags (battlemat.core.uses), not by name:\n" + "\n".join(found)


def test_the_name_scan_can_fail() -> None:
    assert skill_names_in('if attack.use == "Shoot":\n    pass\n') == [(1, "Shoot")]
    assert skill_names_in('x = "Block/Dodge"; y = "Shooting"') == [(1, "Block/Dodge")]
