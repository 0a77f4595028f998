"""Elusion (rule E1): a hazard names skill ratings that exempt a character from it.

`Floor Trap [Block/Dodge 4 or Perception 3]`: a character meeting any requirement takes no harm;
otherwise the hazard inflicts its stated losses [house]. With the `partial_elusion` switch on, a
requirement met halves the harm (rounded down) instead of removing it — the text's avalanche case.
The rating compared is the base rating plus equipment in use (S5), less major-loss penalties (L5);
situational modifiers do not apply (the hazard is not a contest).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from battlemat.core.character import Character
from battlemat.core.errors import RulesError
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


def elude(
    char: Character, requirements: tuple[tuple[str, int], ...], harm: int, rules: Rules, major_losses: int = 0
) -> Elusion:
    penalty = major_losses if rules.switch("major_loss_penalty") == "skills" else 0
    for pair, need in requirements:
        have = char.base(pair) + char.equipment_bonus(pair)[0] - penalty
        if have >= need:
            if rules.switch("partial_elusion"):
                left = harm // 2
                return Elusion(False, left, f"{pair} {have} >= {need}",
                               f"{char.name} partly eludes it with {pair} {have} (E1): {left} loss(es)")
            return Elusion(True, 0, f"{pair} {have} >= {need}", f"{char.name} eludes it with {pair} {have} (E1)")
    needs = " or ".join(f"{p} {n}" for p, n in requirements)
    return Elusion(False, harm, "", f"{char.name} cannot elude it (needs {needs}): {harm} loss(es) (E1)")
