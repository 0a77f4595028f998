"""Rule D3: the alternative dice engines of texts 001..004, each special case with a scripted
die, exact odds by enumeration, the table engine held to its batch sampler, and every engine's
mean losses held to its calibration target (C2: a difference of d costs about d losses)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np
import pytest
from conftest import ROOT

import battlemat.core.engines
from battlemat.core.dice import Roll, engine, engine_names
from battlemat.core.engines import ActionDice, D10Pool, D20Stunt, TwoD6Under
from battlemat.core.engines.action_dice import action_dice, roll_action_dice
from battlemat.core.engines.common import split
from battlemat.core.engines.d10_pool import fumbled, successes
from battlemat.core.engines.d20_stunt import StuntSide, attempts_critical
from battlemat.core.rating import Modifier, Rating
from battlemat.sim.calibrate import calibrate

D3_ENGINES = ("d20-stunt", "d10-pool", "2d6-under", "action-dice")
T = TypeVar("T")


class Scripted:
    """A stand-in for random.Random whose dice come from a queue; it refuses a face the die
    cannot show, and `done` proves the engine rolled exactly the dice the rule asks for."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, low: int, high: int) -> int:
        assert self.faces, "the engine rolled more dice than scripted"
        face = self.faces.pop(0)
        assert low <= face <= high, f"scripted {face} on a d{high}"
        return face

    @property
    def done(self) -> bool:
        return not self.faces


def rating(base: int, situational: int = 0, *, group: int = 0, group_size: int = 1) -> Rating:
    mods = (Modifier(situational, "test"),) if situational else ()
    return Rating("Melee", base=base, situational=mods, group=group, group_size=group_size)


def play(dice: object, rng: Scripted, fn: str, *args: object) -> Roll:
    roll: Roll = getattr(dice, fn)(*args, rng)
    assert rng.done, f"{len(rng.faces)} scripted dice left unrolled"
    return roll


class _Branch(Exception):
    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high


class _Replay:
    """Replays a fixed sequence of faces, and stops where the sequence runs out."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix, self.i = prefix, 0

    def randint(self, low: int, high: int) -> int:
        if self.i == len(self.prefix):
            raise _Branch(low, high)
        self.i += 1
        return self.prefix[self.i - 1]


def exact(fn: Callable[[Any], T], limit: int = 12) -> tuple[list[tuple[float, T]], float]:
    """Every outcome of fn(rng) with its probability, by replaying every possible sequence of
    faces (fair dice); sequences longer than `limit` (open-ended dice) are cut, and their
    probability is returned as the unexplored mass. The table engine is the oracle."""
    leaves: list[tuple[float, T]] = []
    unexplored = 0.0
    stack: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    while stack:
        prefix, p = stack.pop()
        try:
            leaves.append((p, fn(_Replay(prefix))))
        except _Branch as branch:
            if len(prefix) >= limit:
                unexplored += p
                continue
            n = branch.high - branch.low + 1
            stack.extend((prefix + (face,), p / n) for face in range(branch.low, branch.high + 1))
    return leaves, unexplored


def signed(roll: Roll) -> tuple[int, int]:
    return {"attack": 1, "defense": -1, "tie": 0}[roll.winner], roll.margin


def assert_batch_matches(
    leaves: list[tuple[float, tuple[int, int]]], dice: Any, attack: Rating, defense: Rating, settle: bool = False
) -> None:
    """The batch sampler's mean losses and win rate agree with the exact odds (4.5 sd)."""
    if settle:  # a d20 contest: one round's odds given that it settles
        leaves = [(p, r) for p, r in leaves if r[0] != 0]
    total = sum(p for p, _ in leaves)
    mean = sum(p * sign * loss for p, (sign, loss) in leaves) / total
    win = sum(p for p, (sign, _) in leaves if sign == 1) / total
    sign, losses = dice.sample_contests(attack, defense, 200_000, np.random.default_rng(3))
    sample = sign * losses
    assert abs(sample.mean() - mean) < 4.5 * sample.std() / math.sqrt(sample.size) + 1e-9
    assert abs(np.mean(sign == 1) - win) < 4.5 * math.sqrt(win * (1 - win) / sample.size) + 1e-9


# -- every engine ---------------------------------------------------------------------------------
def test_D3_engines_register_under_their_names() -> None:
    names = engine_names()
    for name in D3_ENGINES:
        assert name in names
        assert engine(name).name == name


@pytest.mark.parametrize("name", D3_ENGINES)
def test_D3_engines_use_only_the_rng_passed_in(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*_: object, **__: object) -> None:
        raise AssertionError("the global random module was used")

    for fn in ("randint", "random", "randrange", "choice", "getrandbits", "uniform"):
        monkeypatch.setattr(random, fn, forbidden)
    dice = engine(name)
    first = [dice.contest(rating(5, 1), rating(3, -1), random.Random(7)) for _ in range(3)]
    again = [dice.contest(rating(5, 1), rating(3, -1), random.Random(7)) for _ in range(3)]
    assert first == again  # same seed, same rolls
    assert dice.check(rating(4), 3, random.Random(7)).rule == "D3"


def test_D3_split_takes_situational_out_before_halving() -> None:
    halved = Rating("Melee", base=5, situational=(Modifier(2, "high ground"),), halved=True)
    assert halved.value == 3  # (5 + 2) // 2
    parts = split(halved)
    assert (parts.core, parts.situational) == (2, 2)  # 5 // 2, not 3 - 2 = 1
    undefended = Rating("item", base=6, situational=(Modifier(-2, "dark"),), fixed=0)
    assert split(undefended) == split(Rating("item", fixed=0))


# -- d20-stunt (text 001) --------------------------------------------------------------------------
def test_D3_d20_stunt_ranks_follow_the_conversion() -> None:
    d = D20Stunt()
    assert [d.rank(r) for r in (0, 1, 4, 8, 14)] == [2, 4, 10, 18, 19]
    assert d.contest_ranks(12, 10) == (19, 15)  # slid down together, difference kept


def test_D3_d20_stunt_natural_1_critical_adds_a_better_result() -> None:
    roll = play(D20Stunt(), Scripted(1, 7), "check", rating(4), 4)  # rank 10: 1, then 7 <= 10
    assert (roll.winner, roll.margin) == ("attack", 1)
    assert "critical 7 ok" in roll.detail


def test_D3_d20_stunt_fumble_on_the_critical_roll_spoils_the_success() -> None:
    roll = play(D20Stunt(), Scripted(1, 20), "check", rating(4), 4)
    assert roll.winner == "defense"


def test_D3_d20_stunt_no_critical_below_rank_3() -> None:
    roll = play(D20Stunt(), Scripted(1), "check", rating(0), 0)  # rank 2: no second roll
    assert (roll.winner, roll.margin) == ("attack", 0)


def test_D3_d20_stunt_critical_on_either_of_two_dice_but_not_three() -> None:
    two = play(D20Stunt(), Scripted(5, 1, 3), "check", rating(4), 5)  # one Stunt die
    assert (two.winner, two.margin) == ("attack", 1)
    three = play(D20Stunt(), Scripted(1, 1, 1), "check", rating(4), 6)  # two Stunt dice
    assert (three.winner, three.margin) == ("attack", 0)


def test_D3_d20_stunt_stunt_dice_must_all_succeed() -> None:
    roll = play(D20Stunt(), Scripted(3, 11), "check", rating(4, -1), 4)  # -1 = one Stunt die
    assert roll.winner == "defense"


def test_D3_d20_stunt_free_dice_cancel_stunt_dice_one_for_one() -> None:
    # Short of the target by 1 (a Stunt die) with +1 situational (a Free Die): one plain d20,
    # and no re-roll because no Free Die is left.
    assert play(D20Stunt(), Scripted(10), "check", rating(4, 1), 5).winner == "attack"
    assert play(D20Stunt(), Scripted(11), "check", rating(4, 1), 5).winner == "defense"


def test_D3_d20_stunt_leftover_free_dice_give_one_reroll_only() -> None:
    assert play(D20Stunt(), Scripted(15, 9), "check", rating(4, 1), 4).winner == "attack"
    assert play(D20Stunt(), Scripted(15, 14), "check", rating(4, 2), 4).winner == "defense"


def test_D3_d20_stunt_natural_20_fumbles_below_rank_19_and_always_fails() -> None:
    low = play(D20Stunt(), Scripted(20), "check", rating(4), 4)
    high = play(D20Stunt(), Scripted(20), "check", rating(9), 9)  # rank 19
    assert low.winner == high.winner == "defense"
    assert "fumble" in low.detail and "fumble" not in high.detail


def test_D3_d20_stunt_contest_goes_round_by_round() -> None:
    # Both succeed (no critical), both miss (no fumble), then 4 against 15 settles it:
    # margins 6 and -5, a gap of 11; 6 beyond the slack of 5, at 2 per loss: 3 losses.
    roll = play(D20Stunt(), Scripted(5, 6, 12, 13, 4, 15), "contest", rating(4), rating(4))
    assert (roll.winner, roll.margin) == ("attack", 3)
    assert roll.detail.count("; r") == 3


def test_D3_d20_stunt_lone_fumble_loses_when_both_miss() -> None:
    roll = play(D20Stunt(), Scripted(14, 20), "contest", rating(4), rating(4))
    assert (roll.winner, roll.margin) == ("attack", 1)


def test_D3_d20_stunt_critical_roll_settles_a_double_success() -> None:
    won = play(D20Stunt(), Scripted(1, 5, 8), "contest", rating(4), rating(4))
    assert (won.winner, won.margin) == ("attack", 2)  # gap 4 -> 1, +1 for the critical
    lost = play(D20Stunt(), Scripted(1, 5, 15), "contest", rating(4), rating(4))
    assert (lost.winner, lost.margin) == ("defense", 1)


def test_D3_d20_stunt_critical_upset_costs_only_the_minimum() -> None:
    # Ranks slide to 9 vs 19; margins 8 vs 17 favour the defender, but the critical wins:
    # 1 loss (not 9 beyond the slack's worth) plus 1 for the critical.
    roll = play(D20Stunt(), Scripted(1, 2, 4), "contest", rating(4), rating(9))
    assert (roll.winner, roll.margin) == ("attack", 2)


def test_D3_d20_stunt_declines_the_critical_only_when_playing_on_is_better() -> None:
    assert attempts_critical(StuntSide(10), StuntSide(14))  # 50% now vs 30% by playing on
    assert not attempts_critical(StuntSide(10), StuntSide(6))  # 50% now vs 70%
    # Against a weak foe the critical is declined: both succeed, the contest goes on.
    roll = play(D20Stunt(), Scripted(1, 3, 2, 12), "contest", rating(4), rating(2))
    assert roll.winner == "attack" and roll.detail.count("; r") == 2


def test_D3_d20_stunt_tries_the_critical_at_equal_odds_as_documented() -> None:
    """001: "a player may choose not to try" the Critical roll "for this reason" (its risk), so
    trying is the norm: at equal odds the engine tries, and its docs say so (they once said
    "when it beats playing on" while the code tried at a tie too)."""
    a, d = D20Stunt().contest_sides(rating(4), rating(4))
    assert (a, d) == (StuntSide(10), StuntSide(10))
    # Playing on wins with x(1-y) / (x(1-y) + y(1-x)) = 1/4 / 1/2 = 1/2; the critical roll 10/20.
    assert a.single == Fraction(1, 2) and attempts_critical(a, d)
    # Exact, not rounded: a Free Die's re-roll at rank 5 (x = 1 - (15/20)^2 = 7/16) against
    # rank 14 (y = 7/10): playing on wins with (21/160) / (21/160 + 63/160) = 1/4 = 5/20.
    assert attempts_critical(StuntSide(5, free=1), StuntSide(14))
    # One round at 4 vs 4, every die enumerated. It settles when one side succeeds and the other
    # fails (2 x 1/2 x 1/2), on a lone fumble when both fail (2 x 1/20 x 9/20), and, both
    # succeeding, on a critical roll: a 1 beside a 2..10 (2 x 1/20 x 9/20) settles whatever the
    # critical roll gives; two 1s settle when exactly one critical roll succeeds (1/400 x 1/2).
    # Declining at the tie would leave only 1/2 + 18/400.
    dice = D20Stunt()
    leaves, unexplored = exact(lambda rng: dice.play_round(a, d, rng).sign)
    assert unexplored == 0
    settled = sum(p for p, sign in leaves if sign)
    assert settled == pytest.approx(1 / 2 + 18 / 400 + 18 / 400 + 1 / 800, abs=1e-12)
    engines_doc = battlemat.core.engines.__doc__ or ""
    assert "equal odds included" in engines_doc
    assert "and at equal odds too" in (ROOT / "docs" / "ENGINES.md").read_text(encoding="utf-8")


def test_D3_d20_stunt_two_dice_critical_needs_a_success_and_rolls_one_d20() -> None:
    """001: on 2d20 "a Critical happens if either die is 1", read as at least one 1 on a roll
    that succeeded, then the one-die Critical roll (docs/ENGINES.md)."""
    beside_a_miss = play(D20Stunt(), Scripted(1, 15), "check", rating(4), 5)  # rank 10, one Stunt die
    assert (beside_a_miss.winner, "critical" in beside_a_miss.detail) == ("defense", False)
    pair = play(D20Stunt(), Scripted(1, 1, 3), "check", rating(4), 5)  # two 1s: one Critical roll
    assert (pair.winner, pair.margin) == ("attack", 1)


D20_EXACT = {
    "even": (4, 0, 4, 0),
    "critical declined": (4, 0, 2, 0),
    "free re-roll": (4, 1, 4, 0),
    "stunt die": (4, -1, 3, 0),
    "no fumbles at 19": (9, 0, 8, -1),
    "low ranks": (1, 0, 0, 1),
}


@pytest.mark.parametrize("case", sorted(D20_EXACT))
def test_D3_d20_stunt_exact_contest_odds_match_the_batch_sampler(case: str) -> None:
    ab, asit, db, dsit = D20_EXACT[case]
    dice, attack, defense = D20Stunt(), rating(ab, asit), rating(db, dsit)
    a, d = dice.contest_sides(attack, defense)
    leaves, unexplored = exact(lambda rng: (lambda r: (r.sign, r.losses))(dice.play_round(a, d, rng)))
    assert unexplored == 0
    assert_batch_matches(leaves, dice, attack, defense, settle=True)


# -- d10-pool (text 002) ---------------------------------------------------------------------------
def test_D3_d10_pool_single_die_odds_by_enumeration() -> None:
    counts = [successes([face]) for face in range(1, 11)]
    assert sum(c >= 1 for c in counts) / 10 == 4 / 10
    assert sum(c == 2 for c in counts) / 10 == 1 / 10
    assert sum(counts) / 10 == 0.5  # why two dice make one rating point
    assert sum(successes([f], 8) for f in range(1, 11)) / 10 == 0.4
    assert sum(successes([f], 9) for f in range(1, 11)) / 10 == 0.3


def test_D3_d10_pool_a_ten_counts_twice() -> None:
    assert successes([10, 7, 6, 1]) == 3
    assert successes([10, 8, 7], threshold=8) == 3


def test_D3_d10_pool_fumble_is_no_success_and_a_one() -> None:
    assert fumbled([1, 3, 6])
    assert not fumbled([1, 7])
    assert not fumbled([2, 3, 6])
    assert fumbled([1, 8], threshold=9)


def test_D3_d10_pool_conversion_of_modifiers_and_groups() -> None:
    d = D10Pool()
    assert d.pool(rating(4)).size == 8
    harsh, dire = d.pool(rating(4, -1)), d.pool(rating(4, -2))
    assert (harsh.size, harsh.threshold, dire.threshold) == (8, 8, 9)
    assert d.pool(rating(4, 1)).size == 10
    group = d.pool(rating(4, group=2, group_size=3))
    assert (group.dice, group.helpers) == (8, 2)
    assert d.pool(rating(4, group=3, group_size=7)).helpers == 3  # up to +3


def test_D3_d10_pool_contest_gap_is_the_losses() -> None:
    roll = play(D10Pool(), Scripted(10, 7, 8, 2), "contest", rating(1), rating(1))
    assert (roll.winner, roll.margin, roll.attack_total, roll.defense_total) == ("attack", 2, 3, 1)


def test_D3_d10_pool_fumbles_cost_a_loss() -> None:
    loser_fumbles = play(D10Pool(), Scripted(7, 3, 1, 4), "contest", rating(1), rating(1))
    assert (loser_fumbles.winner, loser_fumbles.margin) == ("attack", 2)
    lone = play(D10Pool(), Scripted(2, 3, 1, 5), "contest", rating(1), rating(1))
    assert (lone.winner, lone.margin) == ("attack", 1)
    both = play(D10Pool(), Scripted(1, 3, 1, 5), "contest", rating(1), rating(1))
    assert (both.winner, both.margin) == ("tie", 0)


def test_D3_d10_pool_check_needs_the_target_in_successes() -> None:
    roll = play(D10Pool(), Scripted(7, 10, 3, 3), "check", rating(2), 2)
    assert (roll.winner, roll.margin) == ("attack", 1)
    miss = play(D10Pool(), Scripted(7, 3, 3, 3), "check", rating(2), 2)
    assert (miss.winner, miss.margin) == ("defense", 1)


@pytest.mark.parametrize(
    ("attack", "defense"),
    [
        (rating(1), rating(1)),
        (rating(2), rating(0)),
        (rating(1, -2), rating(1)),
        (rating(0, group=1, group_size=3), rating(1)),
        (rating(1), rating(1, -1)),
    ],
)
def test_D3_d10_pool_exact_contest_odds_match_the_batch_sampler(attack: Rating, defense: Rating) -> None:
    dice = D10Pool()
    leaves, unexplored = exact(lambda rng: signed(dice.contest(attack, defense, rng)))
    assert unexplored == 0
    assert_batch_matches(leaves, dice, attack, defense)


# -- 2d6-under (text 003) --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("base", "target", "wins"),
    [(4, 4, 21), (0, 6, 1), (10, 0, 35), (5, 4, 26)],  # 2d6 <= 7, <= 1 (a natural 2 only), <= 17, <= 8
)
def test_D3_2d6_under_check_odds_by_enumeration(base: int, target: int, wins: int) -> None:
    dice = TwoD6Under()
    ok = 0
    for d1, d2 in itertools.product(range(1, 7), repeat=2):
        ok += play(dice, Scripted(d1, d2), "check", rating(base), target).success
    assert ok == wins  # of 36


def test_D3_2d6_under_a_hit_forces_a_null_check_at_the_attackers_margin() -> None:
    """003: a hit makes the target roll a Null-check at a penalty of the attacker's margin;
    it fails by how far the roll is over its number, and that depth is the losses."""
    roll = play(TwoD6Under(), Scripted(2, 3, 4, 4), "contest", rating(4), rating(4))  # 9-5=4 vs 9-8=1
    assert (roll.winner, roll.margin) == ("attack", 3)  # 8 over 9 - 4: fails by 3
    assert "Null-check at -4 fails by 3" in roll.detail


def test_D3_2d6_under_a_missed_attack_does_nothing() -> None:
    """003: an attack roll over the attribute misses; a better margin on a miss wins nothing."""
    both_miss = play(TwoD6Under(), Scripted(4, 6, 5, 6), "contest", rating(4), rating(2))  # 9-10 vs 7-11
    assert (both_miss.winner, both_miss.margin) == ("tie", 0)
    assert "both miss: nothing happens" in both_miss.detail


def test_D3_2d6_under_a_held_null_check_is_cut_or_bruised_not_a_loss() -> None:
    """003: "If an attack hits, but a target succeeds their Null-check, then the target has been
    cut or bruised": no State drop, so no losses (both hit with equal margins here)."""
    roll = play(TwoD6Under(), Scripted(3, 3, 4, 2), "contest", rating(4), rating(4))
    assert (roll.winner, roll.margin) == ("tie", 0)
    assert "cut or bruised" in roll.detail


def test_D3_2d6_under_natural_2_always_hits_and_holds_natural_12_never() -> None:
    """003: a natural 2 is a critical success, a natural 12 a critical failure, on the attack
    roll and the Null-check alike; neither wins by itself."""
    # A natural 2 at attribute 5 against 15: both hit; each Null-check holds (the 2 by being a 2).
    upset = play(TwoD6Under(), Scripted(1, 1, 1, 2), "contest", rating(0), rating(10))
    assert (upset.winner, upset.margin) == ("tie", 0)
    # A natural 2 holds a Null-check at -12 (a 2 against 5 - 12).
    held = play(TwoD6Under(), Scripted(1, 2, 1, 1), "contest", rating(10), rating(0))
    assert (held.winner, held.margin) == ("tie", 0)
    # A natural 12 misses at attribute 15 and fails a Null-check its margin (3 at -3) would hold.
    slip = play(TwoD6Under(), Scripted(5, 6, 6, 6), "contest", rating(9), rating(10))  # 14-11 vs 15-12
    assert (slip.winner, slip.margin) == ("attack", 1)


def _by_003(na: int, nd: int) -> Counter[tuple[int, int]]:
    """Text 003 played out on 2d6 totals, for every pair of throws (weights out of 1,296):
    written from the text, not from the engine, so the two can be held to each other."""
    ways = {total: 6 - abs(total - 7) for total in range(2, 13)}  # 2d6: 1, 2, ..., 6, ..., 1
    out: Counter[tuple[int, int]] = Counter()
    for ra, rd in itertools.product(ways, repeat=2):
        weight = ways[ra] * ways[rd]
        a_hit = ra == 2 or (ra != 12 and ra <= na)  # "roll below" the attribute; 2 / 12 critical
        d_hit = rd == 2 or (rd != 12 and rd <= nd)
        # A hit: the other rolls its Null-check at a penalty of the hitter's margin (the same
        # throw, C2 being symmetric); the check's number is its attribute less the penalty.
        d_check = nd - (na - ra)
        a_check = na - (nd - rd)
        d_fails = a_hit and rd != 2 and (rd == 12 or rd > d_check)
        a_fails = d_hit and ra != 2 and (ra == 12 or ra > a_check)
        assert not (a_fails and d_fails)
        if d_fails:  # dropped a State; battlemat's losses: how far over its number, at least 1
            out[(1, max(1, rd - d_check))] += weight
        elif a_fails:
            out[(-1, max(1, ra - a_check))] += weight
        else:  # nobody hit, or every Null-check held (cut or bruised)
            out[(0, 0)] += weight
    return out


# (ratings, attacker wins, ties, defender wins) of 1,296, counted by hand at attribute 5 + rating.
# 4 vs 2 = 9 vs 7: both miss 6 x 15 = 90; both hit with equal margins (ra = rd + 2) 99, and a
# defender's natural 2 holding against ra 2 or 3: 3; ties 192. The defender wins on its lone hit
# (6 x 21 = 126) or on the higher margin when both hit (ra > rd + 2: 165): 291. The rest, 813.
# 4 vs 4 = 9 vs 9: both miss 6 x 6 = 36, equal rolls both hitting 1+4+9+16+25+36+25+16 = 132:
# ties 168, and the rest splits evenly.
HAND_COUNTED = [((4, 2), 813, 192, 291), ((4, 4), 564, 168, 564), ((2, 4), 291, 192, 813)]


@pytest.mark.parametrize(("pair", "wins", "ties", "losses"), HAND_COUNTED)
def test_D3_2d6_under_exact_outcomes_follow_003_by_hand(
    pair: tuple[int, int], wins: int, ties: int, losses: int
) -> None:
    """003 to the letter, every die face enumerated (6^4 throws through the table engine):
    the whole distribution of (winner, losses) equals the text played on totals, and the
    headline counts equal the ones counted by hand above."""
    dice, (a, b) = TwoD6Under(), pair
    leaves, unexplored = exact(lambda rng: signed(dice.contest(rating(a), rating(b), rng)))
    assert unexplored == 0 and len(leaves) == 6**4
    engine_counts = Counter(outcome for _, outcome in leaves)  # every leaf is 1/1296
    assert engine_counts == _by_003(dice.attribute(rating(a)), dice.attribute(rating(b)))
    by_sign = Counter(sign for sign, _ in engine_counts.elements())
    assert (by_sign[1], by_sign[0], by_sign[-1]) == (wins, ties, losses)


@pytest.mark.parametrize(("a", "b"), [(4, 2), (4, 4), (2, 4), (8, 0), (0, 8), (10, 3), (9, 10)])
def test_D3_2d6_under_a_missed_attack_never_wins(a: int, b: int) -> None:
    """003: only a hit forces a Null-check, so over every throw a side wins only if its own
    roll hit (at or under its attribute, or a natural 2, never a natural 12)."""
    dice = TwoD6Under()
    na, nd = dice.attribute(rating(a)), dice.attribute(rating(b))
    leaves, _ = exact(lambda rng: dice.contest(rating(a), rating(b), rng))
    for _, roll in leaves:
        ra, rd = roll.attack_total, roll.defense_total
        if roll.winner == "attack":
            assert ra == 2 or (ra != 12 and ra <= na), roll.detail
        if roll.winner == "defense":
            assert rd == 2 or (rd != 12 and rd <= nd), roll.detail


@pytest.mark.parametrize(("a", "b"), [(4, 4), (5, 3), (10, 2), (2, 10), (12, 11)])
def test_D3_2d6_under_exact_contest_odds_match_the_batch_sampler(a: int, b: int) -> None:
    dice = TwoD6Under()
    leaves, unexplored = exact(lambda rng: signed(dice.contest(rating(a), rating(b), rng)))
    assert unexplored == 0 and len(leaves) == 6**4
    assert_batch_matches(leaves, dice, rating(a), rating(b))
    if abs(a - b) <= 2:  # a tie on a double miss and the criticals pull the mean only a little off d
        mean = sum(p * sign * loss for p, (sign, loss) in leaves)
        assert abs(mean - (a - b)) < 0.1


# -- action-dice (text 004) ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("score", "dice"),
    [
        (0, ()),
        (1, (4,)),
        (3, (8,)),
        (5, (12,)),
        (6, (6, 6)),
        (7, (6, 8)),
        (9, (6, 12)),
        (10, (6, 6, 6)),
        (11, (6, 6, 8)),
        (13, (6, 6, 12)),
        (14, (6, 6, 6, 6)),
        (15, (6, 6, 6, 8)),
    ],
)
def test_D3_action_dice_chart(score: int, dice: tuple[int, ...]) -> None:
    assert action_dice(score) == dice


def test_D3_action_dice_explosions_chain() -> None:
    roll = roll_action_dice(1, Scripted(4, 4, 4, 2))  # type: ignore[arg-type]
    assert roll.faces == ((4, 4, 4, 2),) and roll.total == 14
    pair = roll_action_dice(6, Scripted(6, 3, 5))  # type: ignore[arg-type]
    assert pair.faces == ((6, 3), (5,)) and pair.total == 14


def test_D3_action_dice_all_ones_is_a_critical_failure() -> None:
    assert roll_action_dice(6, Scripted(1, 1)).all_ones  # type: ignore[arg-type]
    assert not roll_action_dice(6, Scripted(1, 6, 1)).all_ones  # type: ignore[arg-type]
    loser = play(ActionDice(), Scripted(1, 4), "contest", rating(0), rating(0))  # d6 vs d6
    assert (loser.winner, loser.margin) == ("defense", 3)  # missed by 3 -> 2, +1 mishap


def test_D3_action_dice_meeting_the_opposed_roll_succeeds_with_effect_1() -> None:
    roll = play(ActionDice(), Scripted(3, 3), "contest", rating(0), rating(0))
    assert (roll.winner, roll.margin) == ("attack", 1)
    assert "Effect 1" in roll.detail


def test_D3_action_dice_effect_becomes_losses() -> None:
    roll = play(ActionDice(), Scripted(6, 6, 5, 2), "contest", rating(0), rating(0))  # 17 vs 2
    assert (roll.winner, roll.margin) == ("attack", math.ceil(15 / 2.2))


def test_D3_action_dice_situational_as_score_and_difficulty_modifiers() -> None:
    d = ActionDice()
    assert (d.side(rating(4)).score, d.side(rating(4, 1)).score) == (10, 12)
    hindered = d.side(rating(4, -1))
    assert (hindered.score, hindered.hindrance) == (10, 2)
    roll = play(d, Scripted(3), "check", rating(0, -1), 0)  # d6 vs DS 2 + 2
    assert (roll.winner, roll.defense_total) == ("defense", 4)


@pytest.mark.parametrize(
    ("attack", "defense"),
    [(rating(0), rating(0)), (rating(1), rating(0)), (rating(0, -1), rating(0)), (rating(0), rating(0, -2))],
)
def test_D3_action_dice_exact_contest_odds_match_the_batch_sampler(attack: Rating, defense: Rating) -> None:
    dice = ActionDice()
    leaves, unexplored = exact(lambda rng: signed(dice.contest(attack, defense, rng)), limit=10)
    assert unexplored < 1e-4  # open-ended dice: only long chains of maxima are cut
    assert_batch_matches(leaves, dice, attack, defense)


# -- the table engines agree with their batch samplers ---------------------------------------------
AGREEMENT_CASES = {
    "even": (rating(4), rating(4)),
    "uneven": (rating(6), rating(3)),
    "hindered": (rating(4, -1), rating(4)),
    "defender hindered": (rating(4), rating(5, -2)),
    "favoured": (rating(4, 2), rating(5)),
    "group": (rating(4, group=2, group_size=3), rating(5)),
    "undefended": (rating(3), Rating("item", fixed=0)),
}


@pytest.mark.parametrize("case", sorted(AGREEMENT_CASES))
@pytest.mark.parametrize("name", D3_ENGINES)
def test_D3_table_engine_matches_its_batch_sampler(name: str, case: str) -> None:
    dice = engine(name)
    attack, defense = AGREEMENT_CASES[case]
    rng = random.Random(11)
    code = {"attack": 1, "defense": -1, "tie": 0}
    rolls = [dice.contest(attack, defense, rng) for _ in range(3000)]
    table = np.array([code[r.winner] * r.margin for r in rolls])
    table_win = np.mean([r.winner == "attack" for r in rolls])
    sign, losses = dice.sample_contests(attack, defense, 100_000, np.random.default_rng(11))  # type: ignore[attr-defined]
    batch = sign * losses
    se = math.sqrt(table.var() / table.size + batch.var() / batch.size) + 1e-9
    assert abs(table.mean() - batch.mean()) < 4.5 * se
    p = np.mean(sign == 1)
    assert abs(table_win - p) < 4.5 * math.sqrt(p * (1 - p) / table.size) + 1e-9


# -- calibration targets (C2 through each engine) --------------------------------------------------
# Stated tolerance per engine: the largest |mean losses - d| allowed in any cell of the grid
# (d -4..+4 at ratings 2, 4, 6) and the residual (rms) allowed over it. The D3 values are the
# residuals reported in battlemat/core/engines/__init__.py plus room for 20,000-sample noise;
# the D2 engines keep their known undershoot (about 0.8 d) and are held to it.
TOLERANCE = {
    "none": (0.0, 0.0),
    "d6": (1.0, 0.7),
    "d8": (1.0, 0.7),
    "d10": (1.0, 0.7),
    "d20-stunt": (0.7, 0.32),
    "d10-pool": (0.2, 0.08),
    "2d6-under": (0.2, 0.08),
    "action-dice": (0.4, 0.16),
}


@pytest.mark.parametrize("name", sorted(TOLERANCE))
def test_D3_mean_losses_stay_near_the_rating_difference(name: str) -> None:
    cell_limit, rms_limit = TOLERANCE[name]
    cal = calibrate(name, 20_000, seed=1, modifiers=False)
    worst = cal.worst
    assert abs(worst.error) <= cell_limit, f"{name} r{worst.case.rating} d{worst.case.diff}: {worst.mean:+.2f}"
    assert cal.rms <= rms_limit
    # and the direction is right everywhere: a bigger difference never costs fewer losses
    for r in (2, 4, 6):
        means = [cal.cell(r, d).mean for d in range(-4, 5)]
        assert means == sorted(means)
