"""`2d6-under`: roll 2d6 at or under an attribute, from rules text 003 (rule D3).

What the text gives: 2d6 at or under the attribute plus modifiers succeeds; a natural 2 is a
critical success and a natural 12 a critical failure; a hit forces the target's Null-check at a
penalty equal to the attacker's margin (attribute minus roll), so the margin carries into the
outcome: the target fails by how much the attacker's margin beats its own.

What battlemat adds (conversions, documented in `battlemat.core.engines`): the attribute of a
rating and the margin gap as losses, with both sides rolling (C2 is symmetric: the lower side
suffers, whichever it is).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from battlemat.core.dice import Roll
from battlemat.core.engines.common import IntArray, contest_roll
from battlemat.core.rating import Rating

CRITICAL_SUCCESS = 2  # 003: a natural 2
CRITICAL_FAILURE = 12  # 003: a natural 12


@dataclass(frozen=True)
class TwoD6Under:
    """Rule D3, text 003. Conversion constants (tuned with `battlemat calibrate`):

    attribute = attribute_base + effective rating (situational modifiers stay in it: 003 itself
    adds and subtracts modifiers to the attribute). A check rolls against
    check_base + rating - target, so a target equal to the rating succeeds on 2d6 <= 7 (21/36).
    A contest: both roll; margin = attribute - roll; the higher margin wins and the gap is the
    losses (003's Null-check failed by that much). A lone natural 2 wins and a lone natural 12
    loses whatever the margins, by the gap in the winner's favour and at least 1.
    """

    attribute_base: int = 3
    check_base: int = 7
    name = "2d6-under"
    tuning: ClassVar[dict[str, tuple[float, ...]]] = {}  # a contest only sees the margin gap

    def attribute(self, rating: Rating) -> int:
        return self.attribute_base + rating.value

    def check(self, rating: Rating, target: int, rng: random.Random) -> Roll:
        """C1 through 003: success at or under the number; the margin is the excess."""
        number = self.check_base + rating.value - target
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        roll = d1 + d2
        ok = (roll <= number or roll == CRITICAL_SUCCESS) and roll != CRITICAL_FAILURE
        detail = f"2d6 {d1}+{d2}={roll} vs {number}" + _critical_words(roll)
        if ok:
            return Roll("attack", max(0, number - roll), roll, number, detail, "D3")
        return Roll("defense", max(1, roll - number), roll, number, detail, "D3")

    def contest(self, attack: Rating, defense: Rating, rng: random.Random) -> Roll:
        """C2 through 003: the attacker's margin is the penalty on the defender's Null-check,
        so the defender fails by the margin gap; symmetrically, a better defender margin makes
        the attacker the loser."""
        na, nd = self.attribute(attack), self.attribute(defense)
        a1, a2, d1, d2 = (rng.randint(1, 6) for _ in range(4))
        ra, rd = a1 + a2, d1 + d2
        sign, margin = verdict(na - ra, nd - rd, ra, rd)
        detail = (
            f"2d6 {a1}+{a2}={ra} under {na}{_critical_words(ra)} vs 2d6 {d1}+{d2}={rd} under {nd}{_critical_words(rd)}"
        )
        return contest_roll(sign, margin, ra, rd, detail)

    def sample_contests(
        self, attack: Rating, defense: Rating, n: int, gen: np.random.Generator
    ) -> tuple[IntArray, IntArray]:
        ra = gen.integers(1, 7, (n, 2)).sum(axis=1)
        rd = gen.integers(1, 7, (n, 2)).sum(axis=1)
        ma, md = self.attribute(attack) - ra, self.attribute(defense) - rd
        sign = np.sign(ma - md)
        crit_a = _critical_rank(ra)
        crit_d = _critical_rank(rd)
        sign = np.where(crit_a != crit_d, np.sign(crit_a - crit_d), sign)
        loss = np.where(sign == 0, 0, np.maximum(1, sign * (ma - md)))
        return sign.astype(np.int64), loss.astype(np.int64)


def verdict(margin_a: int, margin_d: int, roll_a: int, roll_d: int) -> tuple[int, int]:
    """(+1/-1/0, losses): a lone critical decides; otherwise the higher margin, by the gap.
    A critical that wins against the margins still costs the loser only 1: the upset is the
    critical's reward, not a windfall of losses."""
    ca, cd = _critical_rank(roll_a), _critical_rank(roll_d)
    if ca != cd:
        sign = 1 if ca > cd else -1
    else:
        sign = (margin_a > margin_d) - (margin_a < margin_d)
    return sign, (max(1, sign * (margin_a - margin_d)) if sign else 0)


def _critical_rank(roll: IntArray | int) -> IntArray | int:
    """+1 for a natural 2, -1 for a natural 12, 0 otherwise (works on arrays too)."""
    return (roll == CRITICAL_SUCCESS) * 1 - (roll == CRITICAL_FAILURE) * 1


def _critical_words(roll: int) -> str:
    if roll == CRITICAL_SUCCESS:
        return " (critical success)"
    if roll == CRITICAL_FAILURE:
        return " (critical failure)"
    return ""
