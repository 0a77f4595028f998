"""`2d6-under`: roll 2d6 at or under an attribute, from rules text 003 (rule D3).

What the text gives: 2d6 at or under the attribute plus modifiers succeeds; a natural 2 is a
critical success and a natural 12 a critical failure. An attack roll that succeeds is a hit;
one over the attribute misses, and nothing happens. Only a hit makes the target roll a
Null-check, at a penalty equal to the attacker's margin (attribute minus roll): a failed
Null-check drops the target a State, a successful one leaves it cut or bruised (no drop).

What battlemat adds (conversions, documented in `battlemat.core.engines`): the attribute of a
rating; both sides rolling once, each roll being that side's attack and its Null-check against
the other's hit (C2 is symmetric: the lower side suffers, whichever it is); and the losses of
a failed Null-check as the depth it failed by (003 drops one State per failure).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, TypeAlias

import numpy as np

from battlemat.core.engines.common import IntArray, contest_roll
from battlemat.core.rating import Rating
from battlemat.core.roll import Roll

CRITICAL_SUCCESS = 2  # 003: a natural 2
CRITICAL_FAILURE = 12  # 003: a natural 12

if TYPE_CHECKING:  # names for mypy only: the core keeps no module-level values that could change
    import numpy.typing as npt

    # The outcome rules below take plain ints (the table engine) or numpy arrays (the batch
    # sampler) alike, so both faces of the engine play one definition and cannot disagree.
    Dice: TypeAlias = IntArray | int
    Flags: TypeAlias = npt.NDArray[np.bool_] | bool


@dataclass(frozen=True)
class TwoD6Under:
    """Rule D3, text 003. Conversion constants (tuned with `battlemat calibrate --tune`):

    attribute = attribute_base + effective rating (situational modifiers stay in it: 003 itself
    adds and subtracts modifiers to the attribute). A check rolls against
    check_base + rating - target, so a target equal to the rating succeeds on 2d6 <= 7 (21/36).
    A contest: both roll once; a roll at or under the attribute (or a natural 2, never a
    natural 12) is a hit; margin = attribute - roll. A hit makes the other side's roll its
    Null-check at a penalty of the hitter's margin: it holds when its margin is at least that
    penalty (or it is a natural 2; a natural 12 never holds). The side whose Null-check fails
    loses by the depth of the failure (the margin gap), at least 1; if none fails (both miss,
    or the checks hold) it is a tie. Two Null-checks cannot both fail: each would need the
    lower margin.

    attribute_base decides how often a side hits, and so, a miss doing nothing, how often a
    contest is a tie: `--tune` searches it; why 5 is in `battlemat.core.engines`.
    """

    attribute_base: int = 5
    check_base: int = 7
    name = "2d6-under"
    tuning: ClassVar[Mapping[str, tuple[float, ...]]] = MappingProxyType({"attribute_base": (3, 4, 5, 6, 7)})

    def attribute(self, rating: Rating) -> int:
        return self.attribute_base + rating.value

    def check(self, rating: Rating, target: int, rng: random.Random) -> Roll:
        """C1 through 003: success at or under the number; the margin is the excess."""
        number = self.check_base + rating.value - target
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        roll = d1 + d2
        ok = bool(hits(roll, number))
        detail = f"2d6 {d1}+{d2}={roll} vs {number}" + _critical_words(roll)
        if ok:
            return Roll("attack", max(0, number - roll), roll, number, detail, "D3")
        return Roll("defense", max(1, roll - number), roll, number, detail, "D3")

    def contest(self, attack: Rating, defense: Rating, rng: random.Random) -> Roll:
        """C2 through 003: a hit forces the other side's Null-check at the hitter's margin; a
        miss does nothing, so a side can only win with its own hit."""
        na, nd = self.attribute(attack), self.attribute(defense)
        a1, a2, d1, d2 = (rng.randint(1, 6) for _ in range(4))
        ra, rd = a1 + a2, d1 + d2
        sign, losses = outcome(na, nd, ra, rd)
        detail = (
            f"2d6 {a1}+{a2}={ra} under {na} {_hit_words(ra, na)} vs "
            f"2d6 {d1}+{d2}={rd} under {nd} {_hit_words(rd, nd)}; "
            + _outcome_words(na, nd, ra, rd, int(sign), int(losses))
        )
        return contest_roll(int(sign), int(losses), ra, rd, detail)

    def sample_contests(
        self, attack: Rating, defense: Rating, n: int, gen: np.random.Generator
    ) -> tuple[IntArray, IntArray]:
        ra = gen.integers(1, 7, (n, 2)).sum(axis=1)
        rd = gen.integers(1, 7, (n, 2)).sum(axis=1)
        sign, losses = outcome(self.attribute(attack), self.attribute(defense), ra, rd)
        return np.asarray(sign, np.int64), np.asarray(losses, np.int64)


def hits(roll: Dice, number: int) -> Flags:
    """003: at or under the number succeeds (a hit, for an attack roll); a natural 2 always
    does, a natural 12 never."""
    return ((roll <= number) | (roll == CRITICAL_SUCCESS)) & (roll != CRITICAL_FAILURE)


def fails_null_check(roll: Dice, margin: Dice, penalty: Dice) -> Flags:
    """003's Null-check, rolled against the same attribute at a penalty of the hitter's margin:
    it fails when the roll is over attribute - penalty, that is when its margin is below the
    penalty; a natural 2 always holds and a natural 12 always fails."""
    return (roll != CRITICAL_SUCCESS) & ((roll == CRITICAL_FAILURE) | (margin < penalty))


def outcome(na: int, nd: int, ra: Dice, rd: Dice) -> tuple[Dice, Dice]:
    """(+1/-1/0, losses) of one contest from both attributes and rolls (see `TwoD6Under`).

    Losses are the depth of the failed Null-check, the hitter's margin less the loser's, and at
    least 1: a natural 12 can fail a Null-check its margin would have held, and a failed
    Null-check always costs (003 drops a State)."""
    ma, md = na - ra, nd - rd
    defender_fails = hits(ra, na) & fails_null_check(rd, md, ma)
    attacker_fails = hits(rd, nd) & fails_null_check(ra, ma, md)
    sign = defender_fails * 1 - attacker_fails * 1
    losses = np.maximum(1, sign * (ma - md)) * (sign != 0)
    return sign, losses


def _hit_words(roll: int, number: int) -> str:
    return ("hit" if hits(roll, number) else "miss") + _critical_words(roll)


def _outcome_words(na: int, nd: int, ra: int, rd: int, sign: int, losses: int) -> str:
    ma, md = na - ra, nd - rd
    if sign:
        hitter, loser, penalty = ("attacker", "defender", ma) if sign > 0 else ("defender", "attacker", md)
        return f"the {hitter}'s hit: the {loser}'s Null-check at -{penalty} fails by {losses}"
    if hits(ra, na):  # a lone hit always wins: a miss is a margin below 0, under any penalty
        return "both hit, both Null-checks hold (cut or bruised)"
    return "both miss: nothing happens"


def _critical_words(roll: int) -> str:
    if roll == CRITICAL_SUCCESS:
        return " (critical success)"
    if roll == CRITICAL_FAILURE:
        return " (critical failure)"
    return ""
