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
Where the win rates cannot tell the two apart (both at 0% or 100%, where every seed ties, or too
close), the whole outcome of each seed decides, compared seed by seed (Outcome: the result, then the
foes put out of the fight less its own, then its own that got away (fled) rather than fell, then a
win sooner or a loss later), with the same paired
interval on the seeds that end better with the tactics and those that end better with the baseline.
Losses dealt past a defeat count for nothing: a loss margin would rank a harder blow on a fallen foe
above a faster win. Results do not depend on the number of workers (sim.pool).

`arena --ai SIDE=search` (any tactic; sim.overrides) adds challengers: the side played by that AI
against its own tactics, on the same seeds, in a second table read the same way ("search" in the
first column's place, the tactics as the baseline): the search beats the tactics where its row says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from battlemat.core.encounter import Encounter
from battlemat.io.encounter import load_encounter
from battlemat.sim.overrides import AI
from battlemat.sim.pool import Batch, run_batches
from battlemat.sim.runner import RunResult
from battlemat.sim.stats import wilson

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


@dataclass(frozen=True, order=True)
class Outcome:
    """How one combat ended for a side, in the order the arena ranks outcomes: the result first (won,
    undecided, lost), then the foes put out of the fight (defeated or fled) less its own, then its own
    out of it that fled rather than fell (one that gets away is better off than one defeated), then the
    time: a win sooner, a loss later. Losses dealt past a defeat count for nothing here (a harder
    blow on a fallen foe is no better play)."""

    result: int  # 2 won, 1 undecided (a draw or the turn cap), 0 lost
    out: int  # foes out of the fight less own characters out
    away: int  # own characters out that got away (fled) rather than fell: more is better (issue 31 item 3)
    time: int  # -turns when won, +turns when lost, 0 when undecided

    @property
    def won(self) -> bool:
        return self.result == 2


def outcome_of(result: int, out: int, turns: int, away: int = 0) -> Outcome:
    return Outcome(result, out, away, -turns if result == 2 else turns if result == 0 else 0)


@dataclass
class Row:
    side: str
    baseline: str
    runs: int
    tactics_wins: int
    baseline_wins: int
    diff: float  # win rate with the tactics less with the baseline, and its paired 95% interval
    low: float
    high: float
    better: int = 0  # seeds whose outcome ranks higher with the tactics (Outcome order)
    worse: int = 0  # ... higher with the baseline
    order_diff: float = 0.0  # (better - worse) / runs, and its paired 95% interval
    order_low: float = 0.0
    order_high: float = 0.0
    mine: str = "tactics"  # who played the side in the first column: its tactics, or a challenger (--ai)

    @property
    def beats(self) -> bool:
        """Wins more (the win rates' paired interval above 0); where the win rates cannot tell them
        apart (the interval holds 0: both at 0% or 100%, or too close), ends combats better seed by
        seed (the paired interval of better less worse above 0)."""
        if self.low > 0:
            return True
        return self.high >= 0 and self.order_low > 0

    @property
    def verdict(self) -> str:
        if self.low > 0:
            return "beats it (wins)"
        if self.beats:
            return "beats it (outcomes)"
        if self.better == self.worse == 0:
            return "same every combat"
        return "NOT better"


def outcomes(enc: Encounter, results: Sequence[RunResult], side: str) -> list[Outcome]:
    """Per run, in run order, how the combat ended for the side (Outcome)."""
    out = []
    for r in results:
        result = 2 if r.winner == side else 1 if r.winner is None else 0
        gone = sum(1 if enc.by_id[cid].side != side else -1
                   for cid, c in r.chars.items() if c.defeated or c.fled)
        away = sum(1 for cid, c in r.chars.items() if c.fled and enc.by_id[cid].side == side)
        out.append(outcome_of(result, gone, r.turns, away))
    return out


def compare(side: str, baseline: str, mine: Sequence[Outcome], theirs: Sequence[Outcome]) -> Row:
    """A row of the table from the per-seed outcomes of the tactics and of the baseline (same seeds)."""
    n = len(mine)
    pairs = list(zip(mine, theirs, strict=True))
    d, lo, hi = paired_wins([(x.won, y.won) for x, y in pairs])
    od, olo, ohi = paired_wins([(x > y, y > x) for x, y in pairs])
    return Row(side, baseline, n, sum(x.won for x in mine), sum(y.won for y in theirs), d, lo, hi,
               sum(x > y for x, y in pairs), sum(y > x for x, y in pairs), od, olo, ohi)


def arena(path: str, runs: int, seed: int, dice: str | None, max_turns: int, workers: int,  # noqa: PLR0913
          dask_scheduler: str | None = None, challengers: AI = ()) -> list[Row]:
    """The table's rows, side by side and baseline by baseline, then a row per challenger (side, AI,
    ''): the side played by that AI against its tactics (Row.mine names the AI). The tactics' batch is
    played once and every batch goes to the workers (or the Dask cluster) as one piece of work."""
    enc = load_encounter(path)
    base = Batch(path, runs, seed, dice, max_turns)
    batches = [base] + [replace(base, ai=((side, b, ""),)) for side in enc.sides for b in BASELINES]
    batches += [replace(base, ai=(c,)) for c in challengers]
    played = iter(run_batches(batches, workers, dask_scheduler))
    mine = next(played)
    rows = []
    for side in enc.sides:
        ours = outcomes(enc, mine, side)
        for baseline in BASELINES:
            rows.append(compare(side, baseline, ours, outcomes(enc, next(played), side)))
    for side, tactic, _ in challengers:
        row = compare(side, "tactics", outcomes(enc, next(played), side), outcomes(enc, mine, side))
        rows.append(replace(row, mine=tactic))
    return rows


def format_table(title: str, rows: list[Row], seed: int) -> str:
    """The arena's table, then the challengers' (rows whose `mine` is not the tactics), if any."""
    ours = [r for r in rows if r.mine == "tactics"]
    others = [r for r in rows if r.mine != "tactics"]
    text = _table(title, ours, seed)
    if others:
        text += "\n\n" + _table(title, others, seed, ("AI", "AI wins", "tactics"))
        text += ("\nAI: the side played by that AI (--ai) against its own tactics on the same seeds; better/worse:"
                 " seeds that end better with the AI / with the tactics")
    return text


def _table(title: str, rows: list[Row], seed: int,
           head: tuple[str, str, str] = ("baseline", "tactics", "baseline")) -> str:
    """The rows under `head`: the second column's name, then the two win rates' (the first column's AI first)."""
    ours = head[1] == "tactics"
    n = rows[0].runs if rows else 0
    out = [f"{title}: arena, {n} combats each, seed {seed} (same seeds for every row)",
           f"{'side':<12} {head[0]:<8} {head[1]:>8} {head[2]:>9} {'difference':>11}  "
           f"{'paired 95%':<18} {'better/worse':>12}  {'paired 95%':<18}  verdict"]
    for r in rows:
        interval = f"{r.low:+.1%} to {r.high:+.1%}"
        order = f"{r.better}/{r.worse}"
        ointerval = f"{r.order_low:+.1%} to {r.order_high:+.1%}"
        out.append(f"{r.side:<12} {r.baseline if ours else r.mine:<8} {r.tactics_wins / r.runs:>8.1%} "
                   f"{r.baseline_wins / r.runs:>9.1%} "
                   f"{r.diff:>+11.1%}  {interval:<18} {order:>12}  {ointerval:<18}  {r.verdict}")
    if not ours:
        return "\n".join(out)
    out.append("difference: the win rate with the tactics less with the baseline; paired 95%: Newcombe's interval"
               " for paired rates, seed by seed")
    out.append("better/worse: seeds that end better with the tactics / with the baseline (won > undecided > lost,"
               " then foes out of the fight less own, then own fled rather than defeated, then a win sooner or a loss"
               " later)")
    out.append("beats it (wins): the win rates' interval lies above 0; beats it (outcomes): they cannot tell the two"
               " apart, and better less worse has its interval above 0")
    return "\n".join(out)
