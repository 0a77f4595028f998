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
from dataclasses import dataclass
from pathlib import Path

from battlemat.core.errors import BattlematError
from battlemat.sim.overrides import AI

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

    @property
    def beats(self) -> bool:
        return self.diff > 0


def wins_of(path: str, side: str, runs: int, seed: int, dice: str | None, max_turns: int, workers: int,
            ai: AI = ()) -> int:
    from battlemat.sim.pool import Batch, run_batch

    results = run_batch(Batch(path, runs, seed, dice, max_turns, ai), workers=workers)
    return sum(r.winner == side for r in results)


def arena(path: str, runs: int, seed: int, dice: str | None, max_turns: int, workers: int) -> list[Row]:
    from battlemat.io.encounter import load_encounter

    enc = load_encounter(path)
    rows = []
    base_wins = {s: 0 for s in enc.sides}
    from battlemat.sim.pool import Batch, run_batch

    for r in run_batch(Batch(path, runs, seed, dice, max_turns), workers=workers):
        if r.winner is not None:
            base_wins[r.winner] += 1
    for side in enc.sides:
        for baseline in BASELINES:
            b = wins_of(path, side, runs, seed, dice, max_turns, workers, ((side, baseline, ""),))
            d, lo, hi = newcombe(base_wins[side], runs, b, runs)
            rows.append(Row(side, baseline, runs, base_wins[side], b, d, lo, hi))
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
           f"{'side':<12} {'baseline':<8} {'tactics':>8} {'baseline':>9} {'difference':>11}  95% interval  verdict"]
    for r in rows:
        verdict = "beats it" if r.low > 0 else "ahead" if r.beats else "NOT better"
        out.append(f"{r.side:<12} {r.baseline:<8} {r.tactics_wins / r.runs:>8.1%} {r.baseline_wins / r.runs:>9.1%} "
                   f"{r.diff:>+11.1%}  {r.low:+.1%} to {r.high:+.1%}  {verdict}")
    return "\n".join(out)
