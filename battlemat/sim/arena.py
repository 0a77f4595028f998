"""`battlemat arena ENCOUNTER`: each side's tactics against two baselines for that side.

For every side, the encounter is played with its own tactics, then with that side on `random`
(random legal intents) and on `greedy` (attack the nearest foe with the best attack;
battlemat.ai.baselines), the other sides keeping theirs. All on the same run seeds (common random
numbers), so the table compares like with like; the difference in the side's win rate carries a
95% Newcombe interval built from the two Wilson intervals (sim.stats.wilson): it treats the runs
as independent, which only widens it. Results do not depend on the number of workers (sim.pool).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, replace
from pathlib import Path

from battlemat.core.errors import BattlematError
from battlemat.sim.pool import Batch

BASELINES = ("random", "greedy")


def newcombe(a: int, n: int, b: int, m: int) -> tuple[float, float, float]:
    """The difference a/n - b/m with Newcombe's hybrid score 95% interval (his method 10)."""
    from battlemat.sim.stats import wilson

    p, q = a / n, b / m
    l1, u1 = wilson(a, n)
    l2, u2 = wilson(b, m)
    d = p - q
    lo = d - math.sqrt((p - l1) ** 2 + (u2 - q) ** 2)
    hi = d + math.sqrt((u1 - p) ** 2 + (q - l2) ** 2)
    return d, max(-1.0, lo), min(1.0, hi)


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

    @property
    def beats(self) -> bool:
        """Wins more; where both win (or lose) every combat, trades losses better."""
        if self.tactics_wins != self.baseline_wins:
            return self.diff > 0
        return self.tactics_margin > self.baseline_margin


def wins_of(batch: Batch, side: str, workers: int) -> tuple[int, float]:
    """The side's wins, and its mean margin of losses (dealt to foes less taken) a combat."""
    from battlemat.io.encounter import load_encounter
    from battlemat.sim.pool import run_batch

    enc = load_encounter(batch.path)
    results = run_batch(batch, workers=workers)
    margin = 0
    for r in results:
        for cid, n in r.losses_taken.items():
            margin += -n if enc.by_id[cid].side == side else n
    return sum(r.winner == side for r in results), margin / batch.runs


def arena(path: str, runs: int, seed: int, dice: str | None, max_turns: int, workers: int) -> list[Row]:  # noqa: PLR0913
    from battlemat.io.encounter import load_encounter

    enc = load_encounter(path)
    rows = []
    for side in enc.sides:
        base = Batch(path, runs, seed, dice, max_turns)
        a, ma = wins_of(base, side, workers)
        for baseline in BASELINES:
            b, mb = wins_of(replace(base, ai=((side, baseline, ""),)), side, workers)
            d, lo, hi = newcombe(a, runs, b, runs)
            rows.append(Row(side, baseline, runs, a, b, d, lo, hi, ma, mb))
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
           f"{'95% interval':<18} {'margin':>13}  verdict"]
    for r in rows:
        verdict = ("beats it" if r.low > 0 else "ahead on wins" if r.diff > 0
                   else "ahead on losses" if r.beats else "NOT better")
        interval = f"{r.low:+.1%} to {r.high:+.1%}"
        margin = f"{r.tactics_margin:+.1f} vs {r.baseline_margin:+.1f}"
        out.append(f"{r.side:<12} {r.baseline:<8} {r.tactics_wins / r.runs:>8.1%} {r.baseline_wins / r.runs:>9.1%} "
                   f"{r.diff:>+11.1%}  {interval:<18} {margin:>13}  {verdict}")
    out.append("margin: losses dealt to foes less losses taken, mean a combat (decides where win rates tie)")
    return "\n".join(out)
