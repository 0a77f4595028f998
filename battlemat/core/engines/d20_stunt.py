"""`d20-stunt`: roll under a rank on a d20, from rules text 001 (rule D3).

What the text gives: a Rank, one d20 at or under it to succeed; difficulty as Stunt dice (every
die must succeed); Free Dice cancelling Stunt dice one for one, with one re-roll of a failed roll
while any are left; a natural 1 opening a critical roll for an automatic Stunt (rank 3+, never
with more than two dice; a fumble on it spoils the original roll); a natural 20 a fumble below
rank 19 and a failure always; contests rolled round by round until exactly one side succeeds.

What battlemat adds (conversions, documented in `battlemat.core.engines`): the rank of a
rating, situational modifiers as Free/Stunt dice, a target number as Stunt/Free dice, and the
losses of a won contest from the roll margins of the deciding round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar

import numpy as np

from battlemat.core.engines.common import IntArray, ceil_div, contest_roll, split
from battlemat.core.rating import Rating
from battlemat.core.roll import Roll

SIDES = 20
NO_FUMBLE_RANK = 19  # 001: rank 19+ no longer fumbles (a natural 20 still fails)
CRITICAL_RANK = 3  # 001: criticals need rank 3+
CRITICAL_MAX_DICE = 2  # 001: no criticals when more than two dice are rolled
MAX_ROUNDS = 200  # a contest that never settles (two ranks of 19+ missing together) is a tie


@dataclass(frozen=True)
class StuntSide:
    """One side of a roll in 001's own terms: a rank, Stunt dice beyond the first d20 and the
    Free Dice left after cancelling (any left means one re-roll, however many)."""

    rank: int
    stunt: int = 0
    free: int = 0

    @property
    def dice(self) -> int:
        return 1 + self.stunt

    @property
    def can_critical(self) -> bool:
        return self.rank >= CRITICAL_RANK and self.dice <= CRITICAL_MAX_DICE

    @property
    def can_fumble(self) -> bool:
        return self.rank < NO_FUMBLE_RANK

    @property
    def single(self) -> Fraction:
        """Chance that one d20 succeeds (a natural 20 never does). Exact, so that equal odds
        compare equal (`attempts_critical`)."""
        return Fraction(max(0, min(self.rank, SIDES - 1)), SIDES)

    @property
    def chance(self) -> Fraction:
        """Chance that a whole roll succeeds, re-roll included."""
        p = self.single**self.dice
        return 1 - (1 - p) ** 2 if self.free else p

    def describe(self) -> str:
        text = f"rank {self.rank}"
        if self.stunt:
            text += f", {self.dice}d20 stunt"
        if self.free:
            text += ", free re-roll"
        return text


def sides_from(free: int, stunt: int) -> tuple[int, int]:
    """001: Free Dice cancel Stunt dice one for one; returns (stunt, free) left over."""
    cancel = min(free, stunt)
    return stunt - cancel, free - cancel


def attempts_critical(me: StuntSide, foe: StuntSide) -> bool:
    """Whether a contestant with a natural 1 tries the critical roll (001 makes it optional).

    In a contest the critical roll is all or nothing: success wins, anything else loses. Playing
    on instead wins with x(1-y) / (x(1-y) + y(1-x)) (x, y: each side's chance per round), so
    try it exactly when one d20 under the rank is at least as good: at equal odds too, because
    001 makes trying the norm and declining a choice made for a reason ("for this reason a
    player may choose not to try"), and equal odds give none. The odds are exact fractions, so
    a tie is a tie, not a rounding: one plain d20 against a plain rank 10 (rating 4 vs 4) wins
    with the same x either way. The same function serves the table engine and the batch
    sampler so they cannot disagree.
    """
    x, y = me.chance, foe.chance
    settle = x * (1 - y) + y * (1 - x)
    keep_playing = x * (1 - y) / settle if settle > 0 else Fraction(1, 2)
    return me.single >= keep_playing


@dataclass(frozen=True)
class _Throw:
    faces: tuple[int, ...]
    success: bool
    fumble: bool
    critical: bool  # a natural 1 on a successful roll that may open a critical roll
    margin: int  # rank minus the worst die: how far inside (or outside) the rank the roll was
    rerolled: tuple[int, ...] = ()

    def describe(self) -> str:
        text = "/".join(map(str, self.faces))
        if self.rerolled:
            text = "/".join(map(str, self.rerolled)) + " re-rolled " + text
        return text + (" ok" if self.success else " fumble" if self.fumble else " miss")


@dataclass(frozen=True)
class Round:
    """One round of a contest: verdict (+1/-1/0), losses if settled, margins, worst dice, log."""

    sign: int
    losses: int
    margins: tuple[int, int]
    totals: tuple[int, int]
    words: str


def _throw(side: StuntSide, rng: random.Random) -> _Throw:
    faces = tuple(rng.randint(1, SIDES) for _ in range(side.dice))
    first: tuple[int, ...] = ()
    if not _inside(faces, side.rank) and side.free:
        first, faces = faces, tuple(rng.randint(1, SIDES) for _ in range(side.dice))
    ok = _inside(faces, side.rank)
    return _Throw(
        faces,
        ok,
        fumble=not ok and SIDES in faces and side.can_fumble,
        critical=ok and side.can_critical and 1 in faces,
        margin=side.rank - max(faces),
        rerolled=first,
    )


def _inside(faces: tuple[int, ...], rank: int) -> bool:
    return all(f <= rank and f < SIDES for f in faces)


@dataclass(frozen=True)
class D20Stunt:
    """Rule D3, text 001. Conversion constants (tuned with `battlemat calibrate`):

    rank = rank_base + rank_step * rating, at most 19; in a contest a higher rank past 19 slides
    both ranks down together so bonuses above the d20's reach still count as a difference.
    Losses of a won contest come from the deciding round's margin gap (the winner's rank minus
    its worst die, less the same for the loser; never below 0 when a critical or a lone
    fumble settled it against the margins): (gap - margin_slack) / margin_per_loss,
    rounded up, at least 1; a win by a critical roll adds `critical_bonus` (the text's
    automatic Stunt). The slack is there because a deciding round pits a success against a
    failure, so the gap is about 10 plus half the rank difference even between equals; only
    what lies beyond that says how lopsided the contest was.
    """

    rank_base: int = 2
    rank_step: int = 2
    margin_slack: int = 5
    margin_per_loss: float = 2.0
    critical_bonus: int = 1
    name = "d20-stunt"
    tuning: ClassVar[Mapping[str, tuple[float, ...]]] = MappingProxyType({
        "rank_base": (1, 2, 3),
        "margin_slack": (0, 3, 5, 7),
        "margin_per_loss": (1.5, 2.0, 2.5, 3.0),
    })

    # -- conversions ---------------------------------------------------------------------------
    def rank(self, rating: int) -> int:
        return max(0, min(NO_FUMBLE_RANK, self.rank_base + self.rank_step * rating))

    def contest_ranks(self, attack: int, defense: int) -> tuple[int, int]:
        ra = self.rank_base + self.rank_step * attack
        rd = self.rank_base + self.rank_step * defense
        over = max(ra, rd) - NO_FUMBLE_RANK
        if over > 0:
            ra, rd = ra - over, rd - over
        return max(0, ra), max(0, rd)

    def contest_sides(self, attack: Rating, defense: Rating) -> tuple[StuntSide, StuntSide]:
        """Situational advantages become Free Dice, disadvantages Stunt dice (S6 re-expressed)."""
        pa, pd = split(attack), split(defense)
        ra, rd = self.contest_ranks(pa.core, pd.core)
        a = StuntSide(ra, *sides_from(max(0, pa.situational), max(0, -pa.situational)))
        d = StuntSide(rd, *sides_from(max(0, pd.situational), max(0, -pd.situational)))
        return a, d

    def losses(self, winners_gap: int, by_critical: bool) -> int:
        """`winners_gap` is the margin gap in the winner's favour. It is negative only when a
        critical roll or a lone fumble settled the round against the margins; that still costs
        the loser 1."""
        beyond = max(0, winners_gap - self.margin_slack)
        return max(1, ceil_div(beyond, self.margin_per_loss)) + (self.critical_bonus if by_critical else 0)

    # -- the table engine ----------------------------------------------------------------------
    def check(self, rating: Rating, target: int, rng: random.Random) -> Roll:
        """C1 through 001: the gap to the target is difficulty in the text's own currency, a
        Stunt die per point short and a Free Die per point to spare, cancelled one for one
        against the situational Free/Stunt dice. A successful critical is the 'better result'
        C1 allows: one more point of excess."""
        parts = split(rating)
        gap = parts.core - target
        free = max(0, gap) + max(0, parts.situational)
        stunt = max(0, -gap) + max(0, -parts.situational)
        side = StuntSide(self.rank(parts.core), *sides_from(free, stunt))
        throw = _throw(side, rng)
        detail = f"{side.describe()}: {throw.describe()}"
        ok, bonus = throw.success, 0
        if throw.critical:  # always worth trying here: +1 at rank/20 against losing it all at 1/20
            extra = rng.randint(1, SIDES)
            if extra <= side.rank and extra < SIDES:
                bonus, detail = 1, detail + f", critical {extra} ok (+1)"
            elif extra == SIDES and side.can_fumble:
                ok, detail = False, detail + f", critical {extra} fumble spoils the roll"
            else:
                detail += f", critical {extra} no stunt"
        value = rating.value
        if ok:
            return Roll("attack", max(0, value - target) + bonus, max(throw.faces), side.rank, detail, "D3")
        return Roll("defense", max(0, target - value), max(throw.faces), side.rank, detail, "D3")

    def contest(self, attack: Rating, defense: Rating, rng: random.Random) -> Roll:
        """C2 through 001's round-by-round contest. Both succeed or both fail: another round,
        unless a critical roll or a lone fumble settles it (the fumbler loses)."""
        a, d = self.contest_sides(attack, defense)
        words = [f"{a.describe()} vs {d.describe()}"]
        for n in range(1, MAX_ROUNDS + 1):
            rnd = self.play_round(a, d, rng)
            if len(words) < 8:
                words.append(f"r{n} {rnd.words}")
            elif len(words) == 8:
                words.append("...")
            if rnd.sign:
                words.append(f"margins {rnd.margins[0]} vs {rnd.margins[1]}")
                return contest_roll(rnd.sign, rnd.losses, rnd.totals[0], rnd.totals[1], "; ".join(words))
        return contest_roll(0, 0, a.rank, d.rank, "; ".join(words + ["never settled"]))

    def play_round(self, a: StuntSide, d: StuntSide, rng: random.Random) -> Round:
        """One round of a contest; rounds repeat unchanged until one settles, so a contest's
        odds are one round's odds given that it settles (which the tests enumerate)."""
        ta, td = _throw(a, rng), _throw(d, rng)
        sign, by_critical, note = self._settle(ta, td, a, d, rng)
        losses = self.losses(sign * (ta.margin - td.margin), by_critical) if sign else 0
        return Round(
            sign,
            losses,
            (ta.margin, td.margin),
            (max(ta.faces), max(td.faces)),
            f"{ta.describe()} vs {td.describe()}{note}",
        )

    @staticmethod
    def _settle(ta: _Throw, td: _Throw, a: StuntSide, d: StuntSide, rng: random.Random) -> tuple[int, bool, str]:
        """One round's verdict: (+1/-1/0, settled by a critical roll, log words)."""
        if ta.success != td.success:
            return (1 if ta.success else -1), False, ""
        if not ta.success:
            if ta.fumble != td.fumble:
                return (-1 if ta.fumble else 1), False, " (lone fumble)"
            return 0, False, ""
        try_a = ta.critical and attempts_critical(a, d)
        try_d = td.critical and attempts_critical(d, a)
        if not (try_a or try_d):
            return 0, False, ""
        ok_a = try_a and _critical_roll(a, rng)
        ok_d = try_d and _critical_roll(d, rng)
        if try_a and try_d:
            sign = (1 if ok_a else -1) if ok_a != ok_d else 0
        elif try_a:
            sign = 1 if ok_a else -1
        else:
            sign = -1 if ok_d else 1
        won_by_critical = (sign == 1 and ok_a) or (sign == -1 and ok_d)
        return sign, won_by_critical, f" (critical {'won' if won_by_critical else 'failed'})" if sign else ""

    # -- the batch sampler ---------------------------------------------------------------------
    def sample_contests(
        self, attack: Rating, defense: Rating, n: int, gen: np.random.Generator
    ) -> tuple[IntArray, IntArray]:
        a, d = self.contest_sides(attack, defense)
        try_a, try_d = attempts_critical(a, d), attempts_critical(d, a)
        sign = np.zeros(n, np.int64)
        loss = np.zeros(n, np.int64)
        live = np.arange(n)
        for _ in range(MAX_ROUNDS):
            if live.size == 0:
                break
            m = live.size
            oka, fa, ca, ma = _throw_batch(a, m, gen)
            okd, fd, cd, md = _throw_batch(d, m, gen)
            s = np.zeros(m, np.int64)
            s[oka & ~okd] = 1
            s[okd & ~oka] = -1
            both_miss = ~oka & ~okd
            s[both_miss & fd & ~fa] = 1
            s[both_miss & fa & ~fd] = -1
            ta = oka & okd & ca & try_a
            td = oka & okd & cd & try_d
            wa = ta & _critical_batch(a, m, gen)
            wd = td & _critical_batch(d, m, gen)
            s[ta & ~td] = np.where(wa, 1, -1)[ta & ~td]
            s[td & ~ta] = np.where(wd, -1, 1)[td & ~ta]
            both = ta & td
            s[both] = (wa.astype(np.int64) - wd.astype(np.int64))[both]
            by_crit = ((s == 1) & wa) | ((s == -1) & wd)
            gap = np.maximum(0, s * (ma - md) - self.margin_slack)
            lost = np.maximum(1, np.ceil(gap / self.margin_per_loss - 1e-9).astype(np.int64))
            lost += np.where(by_crit, self.critical_bonus, 0)
            done = s != 0
            sign[live[done]] = s[done]
            loss[live[done]] = lost[done]
            live = live[~done]
        return sign, loss


def _throw_batch(
    side: StuntSide, m: int, gen: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, IntArray]:
    """(success, fumble, critical chance, margin) for m throws of one side."""
    faces = gen.integers(1, SIDES + 1, (m, side.dice))
    if side.free:
        again = gen.integers(1, SIDES + 1, (m, side.dice))
        first_ok = (faces.max(axis=1) <= side.rank) & (faces.max(axis=1) < SIDES)
        faces = np.where(first_ok[:, None], faces, again)
    hi, lo = faces.max(axis=1), faces.min(axis=1)
    ok = (hi <= side.rank) & (hi < SIDES)
    fumble = ~ok & (hi == SIDES) & side.can_fumble
    critical = ok & (lo == 1) & side.can_critical
    return ok, fumble, critical, side.rank - hi


def _critical_batch(side: StuntSide, m: int, gen: np.random.Generator) -> np.ndarray:
    extra = gen.integers(1, SIDES + 1, m)
    return (extra <= side.rank) & (extra < SIDES)


def _critical_roll(side: StuntSide, rng: random.Random) -> bool:
    extra = rng.randint(1, SIDES)
    return extra <= side.rank and extra < SIDES
