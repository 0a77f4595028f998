"""Shared aliases used across layers (STYLE.md 10)."""

from __future__ import annotations

from typing import TypeAlias

CharId: TypeAlias = str
SideName: TypeAlias = str
SkillPair: TypeAlias = str  # "Melee/Press", "Alchemy"
SkillHalf: TypeAlias = str  # "Press", "Alchemy", "item"
RuleId: TypeAlias = str  # "M4"
XY: TypeAlias = tuple[int, int]
