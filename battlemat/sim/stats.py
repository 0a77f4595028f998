"""Statistics over many runs: win rates with Wilson intervals, turn quartiles, per-character fates."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from battlemat.core.character import Character
from battlemat.core.encounter import Encounter
from battlemat.sim.runner import RunResult

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: honest near 0 and 1 and for small n. `successes` may be
    fractional (a score counting an undecided combat half: sim.verdict)."""
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
    # issue 18: the defeat rate's 95% Wilson interval, the turn it happens (median and quartiles over
    # the runs where it did; None if never), and the skill halves it declared, as shares of its turns.
    defeat_low: float = 0.0
    defeat_high: float = 1.0
    defeat_turn: dict[str, float] | None = None
    turns_active: int = 0
    skills: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class TurnLosses:
    """One side's losses in one turn, over the combats still going at its start."""

    turn: int
    runs: int
    median: float
    q1: float
    q3: float
    mean: float


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
    losses_by_turn: dict[str, list[TurnLosses]] = field(default_factory=dict)
    decided_by: list[tuple[str, int]] = field(default_factory=list)  # rule ID, defeats it decided
    before_defeat: list[tuple[str, int]] = field(default_factory=list)  # rule ID, defeats whose turn cited it
    defeats: int = 0
    rule_titles: dict[str, str] = field(default_factory=dict)
    presence: dict[str, np.ndarray] = field(default_factory=dict, repr=False)  # side -> character-turns a square
    starts: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # side -> start squares
    replays: dict[str, dict[str, Any]] = field(default_factory=dict)  # what -> file, run, seed, outcome
    replay_dir: str = ""  # where the replays were written (report.json names their files alone)
    verdict: list[str] = field(default_factory=list)  # the game master's lines (sim.verdict), set by the caller
    # issue 31 item 6: square -> who was defeated there, most often first: [(character id, defeats)]
    defeated_here: dict[tuple[int, int], list[tuple[str, int]]] = field(default_factory=dict, repr=False)

    @property
    def diceless(self) -> bool:
        return self.dice == "none"

    def tail(self) -> list[dict[str, float]]:
        """P(turns > k) with its Wilson interval, for k from 1 to the longest combat."""
        if not self.turns:
            return []
        out = []
        for k in range(1, max(self.turns) + 1):
            n = sum(1 for t in self.turns if t > k)
            lo, hi = wilson(n, self.runs)
            out.append({"more_than": k, "rate": n / self.runs, "low": lo, "high": hi})
        return out

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
            "characters": [c.to_json() for c in self.chars],
            "stop_reasons": [{"reason": r, "count": n} for r, n in self.stop_reasons],
            "defeat_heat": None if self.defeat_heat is None else self.defeat_heat.tolist(),
            "stop_heat": None if self.stop_heat is None else self.stop_heat.tolist(),
            # issue 18: fields added after the ones above, which stay as they were
            "diceless": self.diceless,
            "turns_tail": self.tail(),
            "losses_by_turn": {side: [t.__dict__ for t in rows] for side, rows in self.losses_by_turn.items()},
            "defeats": self.defeats,
            "decided_by": [{"rule": r, "title": self.rule_titles.get(r, ""), "defeats": n} for r, n in self.decided_by],
            "before_defeat": [{"rule": r, "title": self.rule_titles.get(r, ""), "defeats": n}
                              for r, n in self.before_defeat],
            "presence": {side: heat.tolist() for side, heat in self.presence.items()},
            "starts": {side: [list(sq) for sq in sqs] for side, sqs in self.starts.items()},
            "replays": self.replays,
            # issue 31: fields added after the ones above, which stay as they were
            "verdict": self.verdict,
            "defeated_here": [{"at": list(sq), "who": [{"id": cid, "defeats": k} for cid, k in who]}
                              for sq, who in sorted(self.defeated_here.items())],
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
    chars = [_char_stats(c, results) for c in enc.characters]
    losses_by_turn = {side: _losses_by_turn(side, results, max(turns, default=0)) for side in enc.sides}
    decided: Counter[str] = Counter()
    before: Counter[str] = Counter()
    for r in results:
        decided.update(r.decided_by)
        before.update(r.before_defeat)
    titles = {rule: entry.title for rule, entry in enc.rules.entries.items()}
    reasons: Counter[str] = Counter()
    for r in results:
        reasons.update(r.stop_reasons)
    defeat_heat = stop_heat = None
    presence = _presence(enc, results)
    if enc.board is not None:
        defeat_heat = np.zeros((enc.board.height, enc.board.width), dtype=np.int64)
        stop_heat = np.zeros_like(defeat_heat)
        for r in results:
            for x, y in r.defeat_squares:
                defeat_heat[y, x] += 1
            for x, y in r.stop_squares:
                stop_heat[y, x] += 1
    summary = Summary(
        enc.title, n, seed, dice, max_turns, sides,
        sum(1 for r in results if r.winner is None), sum(1 for r in results if r.capped),
        med, q1, q3, turns, chars, sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:8],
        defeat_heat, stop_heat, max(n, planned or 0),
        losses_by_turn, _top(decided), _top(before), sum(len(r.defeat_turn) for r in results),
        {r: titles[r] for r, _ in _top(decided) + _top(before) if r in titles}, presence, _starts(enc),
    )
    summary.defeated_here = _defeated_here(results) if enc.board is not None else {}
    return summary


def _defeated_here(results: Sequence[RunResult]) -> dict[tuple[int, int], list[tuple[str, int]]]:
    """Per square, who was defeated there and how often, most often first. A run's `defeat_squares`
    are in the order of its `defeat_turn` (runner._digest adds both at each `defeated` event); a run
    where a defeated character had no square (the lists differ in length) is left out of this count.
    A field in the digest naming the square of each defeat (defeat_at: id -> square) would remove
    that reliance on order (runner.py is issue 30's)."""
    here: dict[tuple[int, int], Counter[str]] = {}
    for r in results:
        if len(r.defeat_squares) != len(r.defeat_turn):
            continue
        for cid, (x, y) in zip(r.defeat_turn, r.defeat_squares, strict=True):
            here.setdefault((int(x), int(y)), Counter())[cid] += 1
    return {sq: sorted(c.items(), key=lambda kv: (-kv[1], kv[0])) for sq, c in here.items()}


def _top(counts: Counter[str]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:8]


def _char_stats(c: Character, results: Sequence[RunResult]) -> CharStats:
    n = len(results)
    losses = np.array([r.losses_taken.get(c.id, 0) for r in results], dtype=float)
    defeated = sum(r.chars[c.id].defeated for r in results)
    lo, hi = wilson(defeated, n)
    when = [r.defeat_turn[c.id] for r in results if c.id in r.defeat_turn]
    uses: Counter[str] = Counter()
    for r in results:
        uses.update(r.uses.get(c.id, {}))
    active = sum(uses.values())
    return CharStats(
        c.id, c.name, c.side,
        defeated / n if n else 0.0,
        sum(r.chars[c.id].fled for r in results) / n if n else 0.0,
        float(losses.mean()) if n else 0.0,
        float(losses.std()) if n else 0.0,
        lo, hi, _quartiles(when), active,
        {use: k / active for use, k in sorted(uses.items(), key=lambda kv: (-kv[1], kv[0]))},
    )


def _losses_by_turn(side: str, results: Sequence[RunResult], last: int) -> list[TurnLosses]:
    rows = []
    for t in range(1, last + 1):
        got = [r.side_losses[side][t - 1] for r in results if len(r.side_losses.get(side, ())) >= t]
        q = _quartiles(got)
        if q is not None:
            rows.append(TurnLosses(t, len(got), q["median"], q["q1"], q["q3"], float(np.mean(got))))
    return rows


def _presence(enc: Encounter, results: Sequence[RunResult]) -> dict[str, np.ndarray]:
    """Per side, how many character-turns ended on each square (after the turn's moves)."""
    presence: dict[str, np.ndarray] = {}
    if enc.board is not None:
        for side in enc.sides:
            heat = presence[side] = np.zeros((enc.board.height, enc.board.width), dtype=np.int64)
            for r in results:
                for (x, y), k in r.presence.get(side, {}).items():
                    heat[y, x] += k
    return presence


def _starts(enc: Encounter) -> dict[str, list[tuple[int, int]]]:
    start = enc.initial_state()
    starts: dict[str, list[tuple[int, int]]] = {side: [] for side in enc.sides}
    for c in enc.characters:
        at = start[c.id].at
        if at is not None:
            starts[c.side].append((int(at[0]), int(at[1])))
    return starts


def _quartiles(values: Sequence[int]) -> dict[str, float] | None:
    if not values:
        return None
    q1, med, q3 = (float(v) for v in np.percentile(values, [25, 50, 75]))
    return {"median": med, "q1": q1, "q3": q3}
