"""Shared aliases used across layers (STYLE.md 10). They live in core because core imports only core
(tests/test_shape_contract.py); every other layer may import core."""

from __future__ import annotations

from typing import TypeAlias

CharId: TypeAlias = str
SideName: TypeAlias = str
SkillPair: TypeAlias = str  # "Melee/Press", "Alchemy"
SkillHalf: TypeAlias = str  # "Press", "Alchemy", "item"
RuleId: TypeAlias = str  # "M4"
XY: TypeAlias = tuple[int, int]
