"""`action-dice`: Action Score to Action Dice, open-ended, from rules text 004 (rule D3).

What the text gives: an Action Score (AS) picks the Action Dice from a chart; the roll succeeds
when its total meets or beats the Difficulty Score (DS); in an opposed roll the opponent's roll
is the DS; the Effect is the excess, at least 1 on a success; a die showing its maximum adds
another die of its size, again and again (open-ended); all ones is a critical failure, a mishap
whether the roll succeeds or not. Advantages add +1 to the AS, hindrances +1 to the DS.

The chart past the text's examples is a house rule (RULES.md D3): AS 1-5 one die d4..d12,
AS 6 2d6, 7 d6+d8, 8 d6+d10, 9 d6+d12, 10 3d6, then the same ladder on one more banked d6.

What battlemat adds (conversions, documented in `battlemat.core.engines`): AS per rating point,
a target number as a DS, the Effect as losses, and what a mishap costs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

import numpy as np

from battlemat.core.engines.common import IntArray, ceil_div, contest_roll, split
from battlemat.core.rating import Rating
from battlemat.core.roll import Roll

SINGLE_DIE = (4, 6, 8, 10, 12)  # AS 1..5
LADDER = (6, 8, 10, 12)  # the die beside the banked d6s from AS 6 on
MAX_EXPLOSIONS = 100  # a scripted die stuck on its maximum must still end


def action_dice(score: int) -> tuple[int, ...]:
    """The Action Dice (sides of each die) for an Action Score; none below AS 1."""
    if score <= 0:
        return ()
    if score <= len(SINGLE_DIE):
        return (SINGLE_DIE[score - 1],)
    banked = (score - 6) // len(LADDER) + 1
    return (6,) * banked + (LADDER[(score - 6) % len(LADDER)],)


def dice_name(score: int) -> str:
    dice = action_dice(score)
    if not dice:
        return "no dice"
    counts: dict[int, int] = {}
    for s in dice:
        counts[s] = counts.get(s, 0) + 1
    return "+".join(f"{c if c > 1 else ''}d{s}" for s, c in counts.items())


@dataclass(frozen=True)
class ActionRoll:
    """One Action Dice roll: each die's faces (explosions chained), the total, the mishap."""

    dice: tuple[int, ...]
    faces: tuple[tuple[int, ...], ...]

    @property
    def total(self) -> int:
        return sum(sum(f) for f in self.faces)

    @property
    def all_ones(self) -> bool:
        """004: all ones on the dice is a critical failure (a roll with no dice has none)."""
        return bool(self.faces) and all(f[0] == 1 for f in self.faces)

    def describe(self) -> str:
        shown = ["+".join(map(str, f)) if len(f) > 1 else str(f[0]) for f in self.faces]
        return f"[{', '.join(shown)}]={self.total}" + (" all ones" if self.all_ones else "")


def roll_action_dice(score: int, rng: random.Random) -> ActionRoll:
    dice = action_dice(score)
    faces = []
    for sides in dice:
        chain = [rng.randint(1, sides)]
        while chain[-1] == sides and len(chain) <= MAX_EXPLOSIONS:
            chain.append(rng.randint(1, sides))  # 004: open-ended, repeating
        faces.append(tuple(chain))
    return ActionRoll(dice, tuple(faces))


@dataclass(frozen=True)
class ActionSide:
    """One side in 004's own terms: its Action Score and the hindrances that raise its DS."""

    score: int
    hindrance: int = 0

    def describe(self) -> str:
        text = f"AS {self.score} ({dice_name(self.score)})"
        return text + (f", DS +{self.hindrance}" if self.hindrance else "")


@dataclass(frozen=True)
class ActionDice:
    """Rule D3, text 004. Conversion constants (tuned with `battlemat calibrate`):

    AS = score_base + score_per_point * rating; each point of situational advantage is
    score_per_point +1 modifiers on the AS, each point of disadvantage score_per_point +1
    modifiers on the DS the roller must beat. A target number T becomes DS = the AS of a
    rating T, so 'Comparing Scores' (004) and the diceless check (C1) agree.
    The Action Dice gain about 1 in mean per AS step, so a rating point is worth about
    score_per_point; losses = Effect / effect_per_loss rounded up (at least 1, as the Effect).
    A losing roll pays the same way on the miss (004's Stunt costs the amount missed by); a
    losing roll of all ones pays `mishap_loss` more.
    """

    score_base: int = 2
    score_per_point: int = 2
    effect_per_loss: float = 2.2
    mishap_loss: int = 1
    name = "action-dice"
    tuning: ClassVar[Mapping[str, tuple[float, ...]]] = MappingProxyType({
        "score_base": (0, 1, 2, 3),
        "effect_per_loss": (1.8, 2.0, 2.2, 2.4, 2.6),
    })

    def side(self, rating: Rating) -> ActionSide:
        parts = split(rating)
        score = self.score_base + self.score_per_point * (parts.core + max(0, parts.situational))
        return ActionSide(score, self.score_per_point * max(0, -parts.situational))

    def difficulty(self, target: int) -> int:
        return self.score_base + self.score_per_point * target

    def losses(self, effect: int) -> int:
        return ceil_div(max(1, effect), self.effect_per_loss)

    def check(self, rating: Rating, target: int, rng: random.Random) -> Roll:
        """C1 through 004: an Action Check against the DS of the target number."""
        side = self.side(rating)
        ds = self.difficulty(target) + side.hindrance
        roll = roll_action_dice(side.score, rng)
        detail = f"{side.describe()} {roll.describe()} vs DS {ds}"
        if roll.total >= ds:
            return Roll("attack", self.losses(roll.total - ds), roll.total, ds, detail + ", success", "D3")
        miss = self.losses(ds - roll.total) + (self.mishap_loss if roll.all_ones else 0)
        return Roll("defense", miss, roll.total, ds, detail + ", failure", "D3")

    def contest(self, attack: Rating, defense: Rating, rng: random.Random) -> Roll:
        """C2 through 004's opposed roll: the defender's roll, raised by the attacker's
        hindrances, is the DS; the defender's own hindrances come off its roll."""
        a, d = self.side(attack), self.side(defense)
        ra, rd = roll_action_dice(a.score, rng), roll_action_dice(d.score, rng)
        ds = rd.total - d.hindrance + a.hindrance
        sign, margin = self.verdict(ra.total, ds, ra.all_ones, rd.all_ones)
        detail = f"{a.describe()} {ra.describe()} vs {d.describe()} {rd.describe()}: DS {ds}"
        if sign == 1:
            detail += f", Effect {max(1, ra.total - ds)}"
        return contest_roll(sign, margin, ra.total, ds, detail)

    def verdict(self, total: int, ds: int, ones_a: bool, ones_d: bool) -> tuple[int, int]:
        """(+1/-1, losses): meeting the DS succeeds (004), so an opposed roll never ties."""
        if total >= ds:
            return 1, self.losses(total - ds) + (self.mishap_loss if ones_d else 0)
        return -1, self.losses(ds - total) + (self.mishap_loss if ones_a else 0)

    def sample_contests(
        self, attack: Rating, defense: Rating, n: int, gen: np.random.Generator
    ) -> tuple[IntArray, IntArray]:
        a, d = self.side(attack), self.side(defense)
        ta, oa = _roll_batch(a.score, n, gen)
        td, od = _roll_batch(d.score, n, gen)
        effect = ta - (td - d.hindrance + a.hindrance)
        win = effect >= 0
        paid = np.ceil(np.maximum(1, np.abs(effect)) / self.effect_per_loss - 1e-9).astype(np.int64)
        paid += np.where(np.where(win, od, oa), self.mishap_loss, 0)
        return np.where(win, 1, -1).astype(np.int64), paid


def _roll_batch(score: int, n: int, gen: np.random.Generator) -> tuple[IntArray, np.ndarray]:
    """(total, all ones) for n open-ended rolls. An open-ended die of s sides totals s for each
    maximum before the first other face, which is uniform on 1..s-1: sampled in one go."""
    total = np.zeros(n, np.int64)
    ones = np.ones(n, bool)
    dice = action_dice(score)
    for sides in dice:
        maxima = gen.geometric(1 - 1 / sides, n) - 1
        last = gen.integers(1, sides, n)
        total += sides * maxima + last
        ones &= (maxima == 0) & (last == 1)
    return total, ones & bool(dice)
