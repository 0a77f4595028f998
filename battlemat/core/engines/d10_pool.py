"""`d10-pool`: count successes on a pool of d10s, from rules text 002 (rule D3).

What the text gives: a pool of d10s; each die at or over the threshold (7 normally, 8 or 9 in
harsh conditions) is a success and a 10 is two; no success with at least one 1 is a fumble;
helpers add a die each, at most three; contested, more successes wins; uncontested, the GM
names the successes needed.

What battlemat adds (conversions, documented in `battlemat.core.engines`): dice per rating
point, disadvantages as a higher threshold, the group bonus as helpers, the success gap as
losses, and what a fumble costs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

import numpy as np

from battlemat.core.engines.common import IntArray, contest_roll, split
from battlemat.core.rating import Rating
from battlemat.core.roll import Roll

SIDES = 10
BASE_THRESHOLD = 7  # 002: 7+ is a success
HARSHEST_THRESHOLD = 9  # 002: harsh 8+, horribly dire 9+
MAX_HELPERS = 3  # 002: each helper adds a die, up to +3


@dataclass(frozen=True)
class Pool:
    """One side in 002's own terms."""

    dice: int
    threshold: int = BASE_THRESHOLD
    helpers: int = 0

    @property
    def size(self) -> int:
        return self.dice + self.helpers

    def describe(self) -> str:
        text = f"{self.size}d10"
        if self.helpers:
            text += f" ({self.helpers} from helpers)"
        if self.threshold != BASE_THRESHOLD:
            text += f" at {self.threshold}+"
        return text


def successes(faces: list[int] | tuple[int, ...], threshold: int = BASE_THRESHOLD) -> int:
    """002: every die at or over the threshold is a success, and a 10 counts twice."""
    return sum(2 if f == SIDES else 1 for f in faces if f >= threshold)


def fumbled(faces: list[int] | tuple[int, ...], threshold: int = BASE_THRESHOLD) -> bool:
    """002: no success at all and at least one 1."""
    return successes(faces, threshold) == 0 and 1 in faces


@dataclass(frozen=True)
class D10Pool:
    """Rule D3, text 002. Conversion constants (tuned with `battlemat calibrate`):

    pool = dice_per_point * (rating without situational and group) + dice_per_point per point
    of situational advantage; a situational disadvantage of -1/-2 raises the threshold to 8+/9+
    instead; a group bonus becomes one helper die per extra member (at most 3). A die averages
    half a success, so two dice per point make one expected success per rating point and the
    success gap of a contest can be the losses as it stands (C2's 'the difference is the
    losses'). A fumbling loser suffers `fumble_loss` more; a lone fumble breaks a 0-0 tie.
    """

    dice_per_point: int = 2
    fumble_loss: int = 1
    name = "d10-pool"
    tuning: ClassVar[Mapping[str, tuple[float, ...]]] = MappingProxyType(
        {"dice_per_point": (1, 2, 3), "fumble_loss": (0, 1)})

    # -- conversions ---------------------------------------------------------------------------
    def pool(self, rating: Rating) -> Pool:
        parts = split(rating, group=True)
        dice = self.dice_per_point * (parts.core + max(0, parts.situational))
        threshold = min(HARSHEST_THRESHOLD, BASE_THRESHOLD + max(0, -parts.situational))
        helpers = min(MAX_HELPERS, parts.group_size - 1)
        return Pool(max(0, dice), threshold, helpers)

    def needed(self, target: int) -> int:
        """Successes a target number asks for: what a pool of that rating averages."""
        return max(0, round(target * self.dice_per_point / 2))

    # -- the table engine ----------------------------------------------------------------------
    def check(self, rating: Rating, target: int, rng: random.Random) -> Roll:
        """C1 through 002: the GM's 'successes needed' is the target's expected successes;
        the excess is the successes to spare. A fumble always fails."""
        pool = self.pool(rating)
        faces = [rng.randint(1, SIDES) for _ in range(pool.size)]
        got, need = successes(faces, pool.threshold), self.needed(target)
        fumble = fumbled(faces, pool.threshold)
        detail = f"{pool.describe()} {faces} = {got} vs {need} needed" + (" (fumble)" if fumble else "")
        if got >= need and not fumble:
            return Roll("attack", got - need, got, need, detail, "D3")
        return Roll("defense", max(0, need - got) + (self.fumble_loss if fumble else 0), got, need, detail, "D3")

    def contest(self, attack: Rating, defense: Rating, rng: random.Random) -> Roll:
        """C2 through 002: more successes wins; the gap is the losses."""
        pa, pd = self.pool(attack), self.pool(defense)
        fa = [rng.randint(1, SIDES) for _ in range(pa.size)]
        fd = [rng.randint(1, SIDES) for _ in range(pd.size)]
        sa, sd = successes(fa, pa.threshold), successes(fd, pd.threshold)
        sign, margin = self.verdict(sa, sd, fumbled(fa, pa.threshold), fumbled(fd, pd.threshold))
        detail = f"{pa.describe()} {fa} = {sa} vs {pd.describe()} {fd} = {sd}"
        for who, faces, pool in (("attacker", fa, pa), ("defender", fd, pd)):
            if fumbled(faces, pool.threshold):
                detail += f"; {who} fumbles"
        return contest_roll(sign, margin, sa, sd, detail)

    def verdict(self, sa: int, sd: int, fa: bool, fd: bool) -> tuple[int, int]:
        """(+1/-1/0, losses). Only a side with no success can fumble, so a fumbler either
        loses anyway (and pays `fumble_loss` more) or meets another empty roll (0-0)."""
        if sa == sd:
            if fa == fd:
                return 0, 0
            return (-1 if fa else 1), self.fumble_loss
        sign = 1 if sa > sd else -1
        loser_fumbled = fd if sign == 1 else fa
        return sign, abs(sa - sd) + (self.fumble_loss if loser_fumbled else 0)

    # -- the batch sampler ---------------------------------------------------------------------
    def sample_contests(
        self, attack: Rating, defense: Rating, n: int, gen: np.random.Generator
    ) -> tuple[IntArray, IntArray]:
        sa, fa = _pool_batch(self.pool(attack), n, gen)
        sd, fd = _pool_batch(self.pool(defense), n, gen)
        sign = np.sign(sa - sd)
        loss = np.abs(sa - sd)
        tie = sign == 0
        lone = tie & (fa != fd)
        sign = np.where(lone, np.where(fa, -1, 1), sign)
        loser_fumbled = np.where(sign == 1, fd, fa) & ~tie
        loss = loss + np.where(loser_fumbled | lone, self.fumble_loss, 0)
        return sign.astype(np.int64), np.where(sign == 0, 0, loss).astype(np.int64)


def _pool_batch(pool: Pool, n: int, gen: np.random.Generator) -> tuple[IntArray, np.ndarray]:
    """(successes, fumbled) for n rolls of one pool."""
    if pool.size == 0:
        return np.zeros(n, np.int64), np.zeros(n, bool)
    faces = gen.integers(1, SIDES + 1, (n, pool.size))
    got = ((faces >= pool.threshold).astype(np.int64) + (faces == SIDES)).sum(axis=1)
    fumble = (got == 0) & (faces == 1).any(axis=1)
    return got, fumble
