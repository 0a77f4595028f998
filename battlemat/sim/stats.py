"""Statistics over many runs: win rates with Wilson intervals, turn quartiles, per-character fates."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from battlemat.core.encounter import Encounter
from battlemat.sim.runner import RunResult

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: honest near 0 and 1 and for small n."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return (min(lo, p), max(hi, p))  # never exclude the observed rate through rounding


@dataclass
class SideStats:
    side: str
    wins: int
    rate: float
    low: float
    high: float


@dataclass
class CharStats:
    id: str
    name: str
    side: str
    defeat_rate: float
    fled_rate: float
    mean_losses: float
    sd_losses: float


@dataclass
class Summary:
    title: str
    runs: int
    seed: int
    dice: str
    max_turns: int
    sides: list[SideStats]
    undecided: int  # draws and runs stopped by the turn cap
    capped: int
    turns_median: float
    turns_q1: float
    turns_q3: float
    turns: list[int]
    chars: list[CharStats]
    stop_reasons: list[tuple[str, int]]
    defeat_heat: np.ndarray | None = field(default=None, repr=False)
    stop_heat: np.ndarray | None = field(default=None, repr=False)
    planned: int = 0  # the runs asked for: more than `runs` when the batch was interrupted

    @property
    def partial(self) -> bool:
        """Made from an interrupted batch: `runs` of the `planned` runs finished."""
        return self.runs < self.planned

    def to_json(self) -> dict[str, Any]:
        # "partial" and "runs_planned" appear only in a partial report: a complete one stays as it was.
        head: dict[str, Any] = {"title": self.title, "runs": self.runs}
        if self.partial:
            head |= {"partial": True, "runs_planned": self.planned}
        return head | {
            "seed": self.seed,
            "dice": self.dice,
            "max_turns": self.max_turns,
            "sides": [s.__dict__ for s in self.sides],
            "undecided": self.undecided,
            "capped": self.capped,
            "turns": {"median": self.turns_median, "q1": self.turns_q1, "q3": self.turns_q3,
                      "histogram": dict(sorted(Counter(self.turns).items()))},
            "characters": [c.__dict__ for c in self.chars],
            "stop_reasons": [{"reason": r, "count": n} for r, n in self.stop_reasons],
            "defeat_heat": None if self.defeat_heat is None else self.defeat_heat.tolist(),
            "stop_heat": None if self.stop_heat is None else self.stop_heat.tolist(),
        }


def summarise(enc: Encounter, results: Sequence[RunResult], seed: int, dice: str, max_turns: int,
              planned: int | None = None) -> Summary:
    """The statistics of `results`. `planned`: the runs asked for, if fewer finished (a partial summary)."""
    n = len(results)
    wins = Counter(r.winner for r in results if r.winner is not None)
    sides = []
    for side in enc.sides:
        w = wins.get(side, 0)
        lo, hi = wilson(w, n)
        sides.append(SideStats(side, w, w / n if n else 0.0, lo, hi))
    turns = [r.turns for r in results]
    q1, med, q3 = (float(v) for v in np.percentile(turns, [25, 50, 75])) if turns else (0.0, 0.0, 0.0)
    chars = []
    for c in enc.characters:
        losses = np.array([r.losses_taken.get(c.id, 0) for r in results], dtype=float)
        chars.append(CharStats(
            c.id, c.name, c.side,
            sum(r.chars[c.id].defeated for r in results) / n if n else 0.0,
            sum(r.chars[c.id].fled for r in results) / n if n else 0.0,
            float(losses.mean()) if n else 0.0,
            float(losses.std()) if n else 0.0,
        ))
    reasons: Counter[str] = Counter()
    for r in results:
        reasons.update(r.stop_reasons)
    defeat_heat = stop_heat = None
    if enc.board is not None:
        defeat_heat = np.zeros((enc.board.height, enc.board.width), dtype=np.int64)
        stop_heat = np.zeros_like(defeat_heat)
        for r in results:
            for x, y in r.defeat_squares:
                defeat_heat[y, x] += 1
            for x, y in r.stop_squares:
                stop_heat[y, x] += 1
    return Summary(
        enc.title, n, seed, dice, max_turns, sides,
        sum(1 for r in results if r.winner is None), sum(1 for r in results if r.capped),
        med, q1, q3, turns, chars, sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:8],
        defeat_heat, stop_heat, max(n, planned or 0),
    )
