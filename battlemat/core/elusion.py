"""Elusion (rule E1): a hazard names skill ratings that exempt a character from it.

`Floor Trap [Block/Dodge 4 or Perception 3]`: a character meeting any requirement takes no harm;
otherwise the hazard inflicts its stated losses [house]. With the `partial_elusion` switch on, a
requirement met halves the harm (rounded down) instead of removing it — the text's avalanche case.
The rating compared is the effective rating as it stands (text line 15; rating.standing: base,
equipment in use (S5), less major-loss penalties (L5)); situational modifiers do not apply (the hazard
is not a contest). Perception counts at half unless the character is actively searching (O2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from battlemat.core.board import Hazard
from battlemat.core.character import Character
from battlemat.core.errors import RulesError
from battlemat.core.rating import standing
from battlemat.core.rules import Rules

_REQ = re.compile(r"^\s*([A-Za-z][A-Za-z /]*?)\s+(\d+)\s*$")


def parse_requirements(text: str, rules: Rules) -> tuple[tuple[str, int], ...]:
    """'Block/Dodge 4 or Perception 3' -> (('Block/Dodge', 4), ('Perception/Etiquette', 3)).

    Each requirement names a pair or either half (the pair's rating counts). Raises RulesError
    with the part it could not read.
    """
    out: list[tuple[str, int]] = []
    text = re.sub(r"^.*\[(.*)\]\s*$", r"\1", text.strip())  # 'Floor Trap [..]' -> '..'
    for part in re.split(r"\s+or\s+|,", text):
        if not part.strip():
            continue
        m = _REQ.match(part)
        if not m:
            raise RulesError(f"cannot read elusion requirement {part.strip()!r}: write it like 'Perception 3'")
        out.append((rules.pair_of(m.group(1)), int(m.group(2))))
    if not out:
        raise RulesError("an elusion requirement names at least one skill and rating, e.g. 'Acrobatics 4'")
    return tuple(out)


@dataclass(frozen=True)
class Elusion:
    exempt: bool
    harm: int  # losses the character suffers
    by: str  # "Block/Dodge 5 >= 4" or ""
    text: str  # plain words for the log
    halved: bool = False  # O2: a passive Perception was halved in the comparison
    helped: bool = False  # O2: a talent (Machinery) added to Perception against a mechanical trap


def elude(char: Character, hazard: Hazard, rules: Rules, major_losses: int = 0, using: str | None = None) -> Elusion:
    """E1: whether `char`, using the half `using` this turn, eludes `hazard` (its requirements, each a
    half or a pair and the rating that exempts; its harm). O2: a half that is halved when passive
    (Perception: `passive_halved` in the rules data) counts at half, rounded down, unless it is the
    half being used this turn (actively searching). Against a mechanical trap, the talent the rules data
    names for that half (`mechanical_talent`: Machinery for Perception) adds to it, unhalved (O2)."""
    requirements, harm = hazard.requirements, hazard.harm
    had: list[str] = []
    halved = helped = False
    for name, need in requirements:
        try:
            pair = rules.pair_of(name)
        except RulesError:  # a name the io layer let through: the character has no such rating
            pair = name
        # S5 (text line 158): an item helps only in use: one named for the half used this turn counts
        # if that half is of this pair; otherwise only an item named for the whole pair
        in_use = rules.halves.get(using) if using is not None else None
        named = in_use.name if in_use is not None and in_use.pair == pair else pair
        have = standing(rules, char, named, major_losses)
        label = f"{name} {have}"
        if have > 0 and _passive(rules, name, using):
            label = f"{name} {have // 2} (halved from {have}: not actively searching, O2)"
            have //= 2
            halved = True
        talent = _mechanical_talent(rules, char, name) if hazard.mechanical else (0, "")
        if talent[0]:
            have += talent[0]
            label += f" +{talent[0]} {talent[1]} talent (mechanical trap, unhalved, O2)"
            helped = True
        had.append(label)
        if have >= need:
            if rules.switch_bool("partial_elusion"):
                left = harm // 2
                return Elusion(False, left, f"{label} >= {need}",
                               f"{char.name} partly eludes it with {label} (E1): {left} loss(es)", halved, helped)
            return Elusion(True, 0, f"{label} >= {need}", f"{char.name} eludes it with {label} (E1)", halved, helped)
    needs = " or ".join(f"{p} {n}" for p, n in requirements)
    words = f"{char.name} cannot elude it (needs {needs}; has {', '.join(had)}): {harm} loss(es) (E1)"
    return Elusion(False, harm, "", words, halved, helped)


def _mechanical_talent(rules: Rules, char: Character, name: str) -> tuple[int, str]:
    """O2: (rating, skill) of the talent that adds to a requirement on `name` against a mechanical trap."""
    try:
        canon = rules.canonical(name)
    except RulesError:
        return 0, ""
    halves = [canon] if canon in rules.halves else [h for h in canon.split("/") if h in rules.halves]
    for h in halves:
        skill = rules.halves[h].mechanical_talent
        if skill and char.talent(rules.pair_of(skill)):
            return char.talent(rules.pair_of(skill)), skill
    return 0, ""


def _passive(rules: Rules, name: str, using: str | None) -> bool:
    """O2: whether a requirement on `name` (a half, or a pair: its halves) is met passively, at half,
    by a character using `using` this turn."""
    try:
        canon = rules.canonical(name)
    except RulesError:
        return False
    halves = [canon] if canon in rules.halves else [h for h in canon.split("/") if h in rules.halves]
    return any(rules.halves[h].passive_halved and h != using for h in halves)
