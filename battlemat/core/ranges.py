"""How far a ranged attack reaches without a penalty (rules R1, R3), in squares.

One definition for the resolver's range modifiers and the window's range bands; the numbers per
rating and per talent point are the rules data's (`range_per_rating`, `point_blank_per_talent`).
"""

from __future__ import annotations

from typing import NamedTuple

from battlemat.core.character import Character
from battlemat.core.rating import standing
from battlemat.core.rules import Rules


class Band(NamedTuple):
    """A circle of squares around the shooter: inside it, no penalty of its kind."""

    label: str
    radius: int
    rule: str


def unpenalized(rules: Rules, char: Character, use: str, major: int = 0) -> int:
    """R1: squares within which `use` takes no range penalty (0: no range band, as for Melee). The text
    ("ten times his or her skill rating") names no base rating, so it means the effective one (text
    line 15): the rating as it stands with `major` losses (rating.standing)."""
    half = rules.halves[use]
    return half.range_per_rating * standing(rules, char, use, major)


def point_blank(rules: Rules, char: Character, use: str) -> int:
    """R3: squares within which a talented `use` takes no penalty at all (0 without talent)."""
    half = rules.halves[use]
    return half.point_blank_per_talent * char.talent(half.pair)


def bands(rules: Rules, char: Character, use: str, major: int = 0) -> list[Band]:
    """The bands a window draws for `use`, innermost first (none for skills without a range)."""
    half = rules.halves.get(use)
    if half is None or not half.range_per_rating:
        return []
    out = [Band(f"{use} unpenalized ({half.range_per_rating} x rating {standing(rules, char, use, major)})",
                unpenalized(rules, char, use, major), "R1")]
    blank = point_blank(rules, char, use)
    if blank:
        talent = char.talent(half.pair)
        out.insert(0, Band(f"point blank ({half.point_blank_per_talent} x talent {talent})", blank, "R3"))
    return out
