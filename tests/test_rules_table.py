"""The rules data: every RULES.md ID with its core/house tag; `battlemat rules` prints it (issue 2)."""

from __future__ import annotations

import re

import pytest
from conftest import SHARED

from battlemat.cli import main
from battlemat.io.rules_file import load_rules

ALL_IDS = (
    [f"S{i}" for i in range(1, 9)] + [f"P{i}" for i in range(1, 5)] + [f"M{i}" for i in range(1, 14)]
    + [f"R{i}" for i in range(1, 7)] + [f"C{i}" for i in range(1, 9)] + [f"O{i}" for i in range(1, 7)]
    + [f"L{i}" for i in range(1, 6)] + ["E1", "D1", "D2", "D3"]
)


def test_every_rule_id_is_in_the_data():
    assert sorted(load_rules().entries) == sorted(ALL_IDS)


def test_tags_match_rules_md():
    path = SHARED / "RULES.md"
    if not path.exists():
        pytest.skip("shared/RULES.md not beside the repository")
    text = path.read_text()
    found = dict(re.findall(r"\*\*([A-Z]\d+) \[(core|house)\]\*\*", text))
    assert set(found) >= set(ALL_IDS) - {"C5", "D3"}  # C5 and D3 carry mixed tags in RULES.md
    rules = load_rules()
    for rid, tag in found.items():
        assert rules.entries[rid].tag == tag, rid


def test_rules_command_lists_every_id(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for rid in ALL_IDS:
        assert re.search(rf"^{rid}\s+(core|house)\s", out, re.M), rid


def test_rules_command_one_rule_with_values(capsys):
    assert main(["rules", "m1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("M1 [core]") and "Exit [core]: 4" in out and "Bargain [house]: 1" in out


def test_every_half_has_phase_move_and_defense():
    rules = load_rules()
    halves = {h for pair in rules.pairs for h in pair.split("/")}
    assert halves <= set(rules.halves)
    for h in rules.halves.values():
        assert h.phase in ("P1", "P2", "P3", "P4") and h.move >= 0
        assert h.defense in ("full_vs_chosen", "full", "half", "undefended")


@pytest.mark.parametrize("half,move", [("Exit", 4), ("Press", 3), ("Melee", 2), ("Shoot", 0), ("Wrestle", 1)])
def test_M1_allowances(half, move):
    assert load_rules().allowance(half) == move


def test_encounter_overrides_only_known_switches_with_right_types():
    from battlemat.core.errors import RulesError

    rules = load_rules()
    assert rules.with_overrides({"diagonals": "chebyshev"}).switch("diagonals") == "chebyshev"
    with pytest.raises(RulesError):
        rules.with_overrides({"diagonals": "hexagonal"})
    with pytest.raises(RulesError):
        rules.with_overrides({"group_table": "big"})
