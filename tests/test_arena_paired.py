"""The arena's paired statistics (issue 18 item 2): hand-made per-seed outcomes with known answers."""

from __future__ import annotations

import math

import pytest

from battlemat.sim.arena import compare, newcombe, outcome_of, paired_wins
from battlemat.sim.stats import wilson


def test_paired_wins_without_both_kinds_of_seed_is_newcombe() -> None:
    # 4 seeds won with the tactics alone, 36 lost both ways: the 2x2 table has an empty column, so
    # phi is 0 and the paired interval is the unpaired one; it includes 0, as the sign test says
    # (4 discordant seeds all one way: p = 2 / 2**4 = 0.125)
    pairs = [(True, False)] * 4 + [(False, False)] * 36
    d, lo, hi = paired_wins(pairs)
    assert (d, lo, hi) == pytest.approx(newcombe(4, 40, 0, 40))
    assert d == pytest.approx(0.1) and lo < 0 < hi
    assert paired_wins([(True, False)] * 10 + [(False, False)] * 30)[1] > 0  # 10 to 0: p = 0.002


def test_paired_wins_known_value() -> None:
    # a=10 both, b=5 tactics only, c=1 baseline only, d=24 neither (n=40), by hand:
    # phi = (ad - bc - n/2) / sqrt((a+b)(c+d)(a+c)(b+d)) = (240 - 5 - 20) / sqrt(15*25*11*29)
    pairs = [(True, True)] * 10 + [(True, False)] * 5 + [(False, True)] + [(False, False)] * 24
    l1, u1 = wilson(15, 40)
    l2, u2 = wilson(11, 40)
    p, q = 15 / 40, 11 / 40
    phi = 215 / math.sqrt(15 * 25 * 11 * 29)
    lo = p - q - math.sqrt((p - l1) ** 2 - 2 * phi * (p - l1) * (u2 - q) + (u2 - q) ** 2)
    hi = p - q + math.sqrt((u1 - p) ** 2 - 2 * phi * (u1 - p) * (q - l2) + (q - l2) ** 2)
    assert paired_wins(pairs) == pytest.approx((0.1, lo, hi))
    # pairing narrows the interval of correlated outcomes against the unpaired one
    _, ulo, uhi = newcombe(15, 40, 11, 40)
    assert ulo < lo and hi < uhi


def test_verdicts() -> None:
    """Wins decide where they can; where they cannot, the whole outcome, seed by seed (Outcome order)."""
    fast, slow = outcome_of(2, 1, 2), outcome_of(2, 1, 3)
    assert fast > slow > outcome_of(1, 0, 30) > outcome_of(0, 0, 9) > outcome_of(0, 0, 3)
    assert outcome_of(0, 1, 3) > outcome_of(0, 0, 9)  # a foe put out of the fight first, then time
    row = compare("monsters", "greedy", [fast] * 40, [slow] * 40)  # both win every seed: the time decides
    assert (row.better, row.worse) == (40, 0) and row.beats and row.verdict == "beats it (outcomes)"
    row = compare("monsters", "greedy", [slow] * 40, [fast] * 40)
    assert not row.beats and row.verdict == "NOT better"
    assert compare("a", "random", [slow] * 40, [slow] * 40).verdict == "same every combat"
    won, lost = outcome_of(2, 4, 5), outcome_of(0, -4, 5)
    row = compare("goblins", "greedy", [won] * 4 + [lost] * 36, [lost] * 40)  # 4 to 0: no proof
    assert row.low < 0 < row.high and not row.beats and row.verdict == "NOT better"
    row = compare("patrol", "greedy", [won] * 30 + [lost] * 10, [lost] * 40)
    assert row.low > 0 and row.verdict == "beats it (wins)"
    # fewer wins with the tactics is never made up by the rest of the outcome
    row = compare("ogres", "greedy", [lost] * 12 + [fast] * 28, [won] * 40)
    assert row.high < 0 and not row.beats


def test_a_side_that_gets_away_ranks_above_one_defeated():
    """Issue 31 item 3: the arena counts a character that flees (gets away) as better off than
    one defeated (M9: Exit), when the result and the foes put out of the fight are the same."""
    fled, fell = outcome_of(0, -1, 4, away=1), outcome_of(0, -1, 4, away=0)
    assert fled > fell
    assert outcome_of(0, 0, 4, away=0) > fled  # nobody of its own out at all is better still
