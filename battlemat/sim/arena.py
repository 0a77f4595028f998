"""`battlemat arena ENCOUNTER`: each side's tactics against two baselines for that side.

For every side, the encounter is played with its own tactics, then with that side on `random`
(random legal intents) and on `greedy` (attack the nearest foe with the best attack;
battlemat.ai.baselines), the other sides keeping theirs. All on the same run seeds (common random
numbers), so the table compares like with like, run by run. The difference in the side's win rate
carries a paired 95% interval: Newcombe's score interval for paired proportions (his 1998 method 10),
built from the per-seed outcomes (won with the tactics, won with the baseline) and the two Wilson
intervals (sim.stats.wilson), with the correlation of the pairs. Unlike the normal interval on the
per-seed differences (mean +- 1.96 sd / sqrt n), it stays honest when few seeds disagree (4 seeds
won by the tactics alone and none the other way is no proof at 95%: a sign test gives p = 0.125).
Where both win rates sit at a ceiling (0% or 100%: every seed ties), the loss margin decides, with
the paired normal interval of its per-seed differences. Results do not depend on the number of
workers (sim.pool).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from battlemat.core.errors import BattlematError
from battlemat.sim.pool import Batch
from battlemat.sim.stats import Z95, wilson

BASELINES = ("random", "greedy")


def newcombe(a: int, n: int, b: int, m: int) -> tuple[float, float, float]:
    """The difference a/n - b/m of independent proportions with Newcombe's hybrid score 95%
    interval (his 1998 method 10 for unpaired data)."""
    p, q = a / n, b / m
    l1, u1 = wilson(a, n)
    l2, u2 = wilson(b, m)
    d = p - q
    lo = d - math.sqrt((p - l1) ** 2 + (u2 - q) ** 2)
    hi = d + math.sqrt((u1 - p) ** 2 + (q - l2) ** 2)
    return d, max(-1.0, lo), min(1.0, hi)


def paired_wins(pairs: Sequence[tuple[bool, bool]]) -> tuple[float, float, float]:
    """The difference of two paired proportions (per seed: won with the tactics, won with the
    baseline) with Newcombe's hybrid score 95% interval for paired data (Newcombe 1998, Stat Med
    17:2635, method 10): the Wilson intervals of both rates, combined with the continuity-corrected
    phi of the 2x2 table of pairs."""
    n = len(pairs)
    if n == 0:
        return 0.0, -1.0, 1.0
    both = sum(1 for x, y in pairs if x and y)
    only_x = sum(1 for x, y in pairs if x and not y)
    only_y = sum(1 for x, y in pairs if y and not x)
    neither = n - both - only_x - only_y
    a, b = both + only_x, both + only_y
    p, q = a / n, b / n
    l1, u1 = wilson(a, n)
    l2, u2 = wilson(b, n)
    denom = (both + only_x) * (only_y + neither) * (both + only_y) * (only_x + neither)
    num = both * neither - only_x * only_y
    if denom == 0:
        phi = 0.0
    else:
        phi = (max(num - n / 2, 0.0) if num > 0 else num) / math.sqrt(denom)
    d = p - q
    lo = d - math.sqrt(max(0.0, (p - l1) ** 2 - 2 * phi * (p - l1) * (u2 - q) + (u2 - q) ** 2))
    hi = d + math.sqrt(max(0.0, (u1 - p) ** 2 - 2 * phi * (u1 - p) * (q - l2) + (q - l2) ** 2))
    return d, max(-1.0, lo), min(1.0, hi)


def paired_mean(diffs: Sequence[float]) -> tuple[float, float, float]:
    """The mean of per-seed differences with its normal 95% interval, mean +- 1.96 sd / sqrt(n)
    (as the what-if variants' paired change, sim.variants.paired)."""
    n = len(diffs)
    if n == 0:
        return 0.0, -math.inf, math.inf
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass
class Row:
    side: str
    baseline: str
    runs: int
    tactics_wins: int
    baseline_wins: int
    diff: float
    low: float
    high: float
    tactics_margin: float = 0.0  # mean losses dealt less losses taken a combat, with the side's tactics
    baseline_margin: float = 0.0  # the same with the baseline
    margin_low: float = 0.0  # paired 95% interval of the margin's per-seed difference
    margin_high: float = 0.0

    @property
    def ceiling(self) -> bool:
        """Both win every combat, or both lose every one: the win rates cannot tell them apart."""
        return self.tactics_wins == self.baseline_wins and self.tactics_wins in (0, self.runs)

    @property
    def beats(self) -> bool:
        """Wins more (the paired interval above 0); where both win rates sit at the same ceiling,
        trades losses better (the paired interval of the margin above 0)."""
        if self.ceiling:
            return self.margin_low > 0
        return self.low > 0

    @property
    def verdict(self) -> str:
        if self.beats:
            return "beats it"
        if self.diff > 0:
            return "ahead on wins"
        if self.diff == 0 and self.tactics_margin > self.baseline_margin:
            return "ahead on losses"
        return "NOT better"


def outcomes(batch: Batch, side: str, workers: int) -> list[tuple[bool, int]]:
    """Per run, in run order: whether the side won, and its margin of losses (dealt to foes less taken)."""
    from battlemat.io.encounter import load_encounter
    from battlemat.sim.pool import run_batch

    enc = load_encounter(batch.path)
    out = []
    for r in run_batch(batch, workers=workers):
        margin = sum(-n if enc.by_id[cid].side == side else n for cid, n in r.losses_taken.items())
        out.append((r.winner == side, margin))
    return out


def compare(side: str, baseline: str, mine: Sequence[tuple[bool, int]],
            theirs: Sequence[tuple[bool, int]]) -> Row:
    """A row of the table from the per-seed outcomes of the tactics and of the baseline (same seeds)."""
    n = len(mine)
    d, lo, hi = paired_wins([(x[0], y[0]) for x, y in zip(mine, theirs, strict=True)])
    _, mlo, mhi = paired_mean([x[1] - y[1] for x, y in zip(mine, theirs, strict=True)])
    return Row(side, baseline, n, sum(x[0] for x in mine), sum(y[0] for y in theirs), d, lo, hi,
               sum(x[1] for x in mine) / n, sum(y[1] for y in theirs) / n, mlo, mhi)


def arena(path: str, runs: int, seed: int, dice: str | None, max_turns: int, workers: int) -> list[Row]:  # noqa: PLR0913
    from battlemat.io.encounter import load_encounter

    enc = load_encounter(path)
    rows = []
    for side in enc.sides:
        base = Batch(path, runs, seed, dice, max_turns)
        mine = outcomes(base, side, workers)
        for baseline in BASELINES:
            theirs = outcomes(replace(base, ai=((side, baseline, ""),)), side, workers)
            rows.append(compare(side, baseline, mine, theirs))
    return rows


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("encounter", help="encounter .toml file")
    p.add_argument("--runs", type=int, default=100, help="combats per side and baseline (default 100)")
    p.add_argument("--seed", type=int, default=None, help="batch seed (default: the encounter's seed)")
    p.add_argument("--dice", default=None, help="dice engine (default: the encounter's)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (the numbers are the same whatever it is)")
    p.add_argument("--max-turns", type=int, default=30, help="stop a combat after this many turns (default 30)")


def run(args: argparse.Namespace) -> int:
    from battlemat.core.dice import engine_names
    from battlemat.io.encounter import load_encounter

    if args.runs < 1 or args.workers < 1 or args.max_turns < 1:
        raise BattlematError("--runs, --workers and --max-turns must be at least 1")
    if args.dice is not None and args.dice not in engine_names():
        raise BattlematError(f"unknown dice {args.dice!r}; use one of: {', '.join(engine_names())}")
    path = str(Path(args.encounter).resolve())
    enc = load_encounter(path)
    seed = enc.seed if args.seed is None else args.seed
    rows = arena(path, args.runs, seed, args.dice, args.max_turns, args.workers)
    print(format_table(enc.title, rows, seed))
    return 0


def format_table(title: str, rows: list[Row], seed: int) -> str:
    n = rows[0].runs if rows else 0
    out = [f"{title}: arena, {n} combats each, seed {seed} (same seeds for every row)",
           f"{'side':<12} {'baseline':<8} {'tactics':>8} {'baseline':>9} {'difference':>11}  "
           f"{'paired 95%':<18} {'margin':>13}  {'margin diff 95%':<15}  verdict"]
    for r in rows:
        interval = f"{r.low:+.1%} to {r.high:+.1%}"
        margin = f"{r.tactics_margin:+.1f} vs {r.baseline_margin:+.1f}"
        mint = f"{r.margin_low:+.1f} to {r.margin_high:+.1f}"
        out.append(f"{r.side:<12} {r.baseline:<8} {r.tactics_wins / r.runs:>8.1%} {r.baseline_wins / r.runs:>9.1%} "
                   f"{r.diff:>+11.1%}  {interval:<18} {margin:>13}  {mint:<15}  {r.verdict}")
    out.append("paired 95%: Newcombe's interval for paired rates, seed by seed; beats it when it lies above 0")
    out.append("margin: losses dealt to foes less losses taken, mean a combat; where both rates are 0% or 100%,"
               " beats it when the paired interval of its per-seed difference lies above 0")
    return "\n".join(out)
