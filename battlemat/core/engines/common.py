"""What the D3 engines share: splitting a rating into the parts they re-express, and the
batch-sampling protocol the calibration tool uses (rule D3).

Every D3 engine has two faces. `check` and `contest` are the rules as a table would play them:
one `random.Random` (the match's), one die at a time, a readable `detail` for the log.
`sample_contests` answers the same contest for many samples at once with a numpy
`Generator`, because calibration needs millions of contests and a per-die Python loop would
take minutes. The tests hold the two faces to the same distribution.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from battlemat.core.rating import Rating
from battlemat.core.roll import Roll

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Parts:
    """A rating split into what an engine may re-express in its own terms.

    `core` is the effective rating with the situational modifier (S6) and, if asked, the
    group bonus (S7) taken out; `situational` and `group_size` are what was taken out.
    Engines that re-express a part must start from `core`, or the part would count twice.
    """

    core: int
    situational: int
    group_size: int


def split(rating: Rating, *, group: bool = False) -> Parts:
    """Split `rating` (see `Parts`).

    Why not `rating.value - rating.situational_net`: a halved rating (C5) halves the sum, and
    the 0 floor can swallow part of a penalty; recomputing without the parts gets both right.
    An undefended opposition (C5, `fixed`) has nothing to re-express.
    """
    if rating.fixed is not None:
        return Parts(rating.value, 0, 1)
    changes: dict[str, object] = {"situational": ()}
    group_size = 1
    if group and rating.group:
        changes["group"] = 0
        group_size = max(2, rating.group_size)
    return Parts(rating.with_(**changes).value, rating.situational_net, group_size)


def contest_roll(sign: int, margin: int, attack_total: int, defense_total: int, detail: str) -> Roll:
    """A contest `Roll` from a signed verdict (+1 attacker wins, -1 defender, 0 tie)."""
    winner = {1: "attack", -1: "defense", 0: "tie"}[sign]
    return Roll(winner, margin if sign else 0, attack_total, defense_total, detail, rule="D3")


def ceil_div(numerator: int, denominator: float) -> int:
    """Round a positive ratio up; used where a rule says 'at least 1'."""
    whole = int(numerator // denominator)
    return whole + (1 if numerator - whole * denominator > 1e-9 else 0)


class BatchEngine(Protocol):
    """An engine that can also sample many contests at once (for `battlemat calibrate`)."""

    name: str

    def sample_contests(
        self, attack: Rating, defense: Rating, n: int, gen: np.random.Generator
    ) -> tuple[IntArray, IntArray]:
        """`n` independent contests: (winner sign +1/0/-1, losses >= 0) per sample."""
        ...
