"""Alternative dice engines from the other rules texts (rule D3), and how battlemat feeds them.

This docstring is the one place the conversions are written down (docs/ENGINES.md points
here). Each engine plays its text's resolution as that text describes it; what the texts
cannot say is how a battlemat rating becomes their numbers and how their outcome becomes
losses, so battlemat decides, aiming at C2: on average a rating difference of d should cost the
lower side d losses, as in the diceless rules. `battlemat calibrate` measures that; its
residual is the root mean square of (mean signed losses - d) over d = -4..+4 at ratings 2, 4
and 6 (100,000 contests per cell, seed 0). Every constant below is a dataclass field, so a
trial engine is `dataclasses.replace(engine, ...)`, and `battlemat calibrate --tune` grid-searches
the fields each engine declares in `tuning`.

Shared conventions
    Ratings reach an engine as `Rating` values (effective rating, 0..8 base, up to ~14 with
    bonuses). An engine that re-expresses a part (the situational modifier, S6; the group
    bonus, S7) starts from the rating without that part (`common.split`), so nothing counts
    twice; halving (C5) and the 0 floor are recomputed, not subtracted. An undefended
    opposition (C5, fixed 0) has nothing to re-express. Contest results are a `Roll` with rule
    "D3": winner "attack", "defense" or "tie", and `margin` = losses for the loser.

d20-stunt (text 001: d20 roll-under with Stunt dice, Free Dice, criticals, fumbles)
    Rank = 2 + 2 x rating (1 Fumbling = 4, 4 Polished = 10, 8 Legendary = 18), never above 19.
    In a contest, if the higher rank would pass 19 both ranks slide down together, so ratings
    above the d20's reach still count as a difference.
    Situational +1/+2 = that many Free Dice, -1/-2 = that many Stunt dice (extra d20s that must
    all succeed); Free Dice cancel Stunt dice one for one; any Free Die left gives the text's
    single re-roll, so +2 is worth no more than +1 (a property of the text, kept).
    Group bonus: stays in the rating (001 has no helpers).
    Check against target T: a Stunt die per point the rating falls short of T, a Free Die per
    point it exceeds T, cancelled against the situational dice; success gives the diceless
    excess, +1 for a successful critical (the text's automatic Stunt).
    Contest: round by round as the text says (one succeeds and one fails: settled; both fail:
    a lone fumble loses; both succeed: a natural 1 may try the critical roll, which then wins
    or loses outright). The critical roll is tried when one d20 under the rank wins at least
    as often as playing on, equal odds included (at rating 4 vs 4, both 1/2): 001 makes
    trying the norm ("for this reason a player may choose not to try"), so declining needs
    the better odds of playing on. The odds are compared as exact fractions.
    Two dice (one Stunt die): 001's "a Critical happens if either die is 1" is read as at
    least one of the two showing 1, on a roll that succeeded (both dice at or under the rank),
    and the Critical roll is then the single d20 of the one-die case. Why: the text's
    Critical upgrades a success (a natural 1 on one d20 at rank 3+ is always one, and a
    contest offers it only when both sides succeed), so a 1 beside a failing die opens
    nothing; "either" is inclusive, a pair of 1s being no worse than one; and the text names
    no other die for the Critical roll. Three dice or more: no Critical.
    Losses: from the margin gap of the deciding round (rank - worst die, winner's less
    loser's, 0 if a critical or a lone fumble settled it against the margins): (gap - 5) / 2
    rounded up, at least 1; +1 for a win by a critical roll. The 5 is
    there because a deciding round sets a success against a failure, so even equals differ by
    about 10; only what lies beyond says how lopsided the contest was.
    Residual 0.25 (worst: rating 2, d -4 gives -3.43); sd at d=0 about 3.2.

d10-pool (text 002: d10 pool, 7+ a success, a 10 two, fumble on no success with a 1)
    Pool = 2 d10 per rating point: a die averages half a success, so a rating point is one
    expected success, and the success gap can be the losses as it stands (C2's own words).
    Situational +1/+2: 2 more dice per point; -1/-2: the text's harsh conditions instead,
    threshold 8+ / 9+ (worth about 0.1 / 0.2 successes per die, so the cost grows with the
    pool: -0.84 / -1.69 losses at rating 4).
    Group bonus: replaced by the text's helpers, one die per member beyond the first, at most
    3 (worth half a point each: +0.5 / +1.0 / +1.5 losses for groups of 2 / 3 / 5).
    Check against target T: T successes needed (what a rating-T pool averages).
    Contest: more successes wins; losses = the success gap; a fumbling loser pays 1 more and
    a lone fumble breaks a 0-0 tie (by 1). Residual 0.03 (0.02 without the fumble loss,
    which is kept because the text makes a fumble a bad result); sd at d=0 about 2.7.

2d6-under (text 003: 2d6 at or under the attribute, natural 2 / 12 critical)
    Attribute = 5 + effective rating; situational modifiers and the group bonus stay in it
    (003 itself adds modifiers to the attribute).
    Check against target T: 2d6 <= 7 + rating - T (so 21/36 when the rating equals T); a
    natural 2 always succeeds, a natural 12 always fails; the excess is the margin.
    Contest: both roll once; margin = attribute - roll. 003's attack roll: at or under the
    attribute (or a natural 2, never a natural 12) is a hit, over it a miss, and a miss does
    nothing. A hit makes the other side's roll its Null-check at a penalty of the hitter's
    margin: it holds when its own margin is at least the penalty (a natural 2 always holds, a
    natural 12 never), and a held check leaves the target cut or bruised, no losses. Each roll
    is its side's attack and its Null-check against the other's (C2 is symmetric), so a side
    wins only with its own hit: a lone hit always wins, two misses are a tie, two hits go to
    the higher margin (equal margins, or a natural 2 holding: a tie). Losses: 003 drops one
    State per failed Null-check; battlemat prices the failure by its depth, the hitter's
    margin less the loser's, at least 1, so one rating point is one margin point.
    Why 5: with 3 (rating 4 at 003's average attribute of 7) double misses (ties) are so
    common at low ratings that a point is worth 0.9 losses at rating 2 (residual 0.12); from
    5 up the residual is 0.02-0.03 (exact: 0.028 at 5, 0.022 at 6 and 7, closer than the
    noise of `calibrate --tune`), and 5 is the lowest of them, keeping every rating up to 7
    inside 2d6's 2..12. Residual 0.03 (worst: rating 2, d +2 gives +1.95); sd at d=0 about
    3.4, the swingiest after action-dice, because 2d6 has only eleven totals to spread a
    rating over; at 4 vs 4, 168 of the 1,296 throws (13%) are ties.

action-dice (text 004: Action Score to Action Dice, opposed rolls, Effect, open-ended dice)
    Action Score = 2 + 2 x rating (0 = d6, 4 = 3d6, 8 = 5d6); the dice follow the chart of
    RULES.md D3 [house] and every die is open-ended. Each AS step adds about 1 to the mean
    roll, so one rating point is worth about 2 and losses = Effect / 2.2 rounded up.
    Situational: +1 = two +1 modifiers on the AS, -1 = two +1 modifiers on the DS the roller
    must beat (004's own advantage/hindrance modifiers, two per rating point).
    Group bonus: stays in the rating (004's helpers are modifiers, which is what it is).
    Check against target T: DS = the AS of rating T (2 + 2T), so 004's "Comparing Scores"
    and the diceless check agree; success Effect >= 1.
    Contest: 004's opposed roll, the defender's total is the DS; meeting it succeeds (so no
    ties, a slight edge to the attacker); Effect at least 1; a miss costs the attacker the
    amount missed by, the way 004 prices a failed Stunt; a losing all-ones roll pays 1 more.
    Residual 0.10 (worst: rating 2, d +4 gives +4.22); sd at d=0 about 4.0.

For comparison, the built-in D2 engines (d6/d8/d10) undershoot: about 0.8 x d (residual
0.53-0.61), because their divisor (sides / 2 + 1) is larger than a die's mean ((sides + 1) / 2)
and rounding down takes a little more. They are left as the core text has them.
"""

from __future__ import annotations

from battlemat.core.engines.action_dice import ActionDice
from battlemat.core.engines.d10_pool import D10Pool
from battlemat.core.engines.d20_stunt import D20Stunt
from battlemat.core.engines.two_d6_under import TwoD6Under

ALTERNATIVES = (D20Stunt, D10Pool, TwoD6Under, ActionDice)  # texts 001..004 (dice.engines lists them by name)

__all__ = ["ALTERNATIVES", "ActionDice", "D10Pool", "D20Stunt", "TwoD6Under"]
