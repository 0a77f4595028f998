"""Runs you can watch: the typical run and each side's worst run of a batch, saved as replays.

The workers ship no logs. After the batch, each chosen run is played again here, alone, from its
own seed (runner.run_seed), recording its intents (runner.Recording: the AI draws from its own
stream, so the dice come from the seed alone); it plays exactly as it did in the batch, which
`record_run` checks.

- **typical**: among the runs with the most common outcome (the side that won, or undecided), the
  one closest to that group's median turns and median losses of each side, each distance divided by
  its interquartile range (at least 1); the lowest run index on ties.
- **worst for a side**: the run where that side fares worst: lost (another side won) before
  undecided before won, then the most of its characters defeated, then the most losses it took;
  the lowest run index on ties.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.io.saves import Save, encounter_ref, write_save
from battlemat.sim.pool import Batch
from battlemat.sim.runner import Recording, RunResult, play_one


def side_losses(enc: Encounter, r: RunResult) -> dict[str, int]:
    out = dict.fromkeys(enc.sides, 0)
    for c in enc.characters:
        out[c.side] += r.losses_taken.get(c.id, 0)
    return out


def outcome(enc: Encounter, r: RunResult) -> dict[str, Any]:
    """What a replay must reproduce of its run."""
    return {"winner": r.winner, "turns": r.turns, "losses": side_losses(enc, r),
            "defeated": sorted(cid for cid, c in r.chars.items() if c.defeated)}


def typical(enc: Encounter, results: Sequence[RunResult]) -> RunResult:
    winners = Counter(r.winner for r in results)
    order = {side: i for i, side in enumerate(enc.sides)}
    mode = min(winners, key=lambda w: (-winners[w], order.get(w, len(order)) if w is not None else len(order)))
    group = [r for r in results if r.winner == mode]
    cols = [[float(r.turns) for r in group]]
    cols += [[float(side_losses(enc, r)[side]) for r in group] for side in enc.sides]
    table = np.array(cols)  # one row per measure, one column per run
    q1, med, q3 = np.percentile(table, [25, 50, 75], axis=1)
    scale = np.maximum(q3 - q1, 1.0)
    dist = (np.abs(table - med[:, None]) / scale[:, None]).sum(axis=0)
    best = min(range(len(group)), key=lambda i: (float(dist[i]), group[i].index))
    return group[best]


def worst(enc: Encounter, results: Sequence[RunResult], side: str) -> RunResult:
    members = [c.id for c in enc.characters if c.side == side]

    def badness(r: RunResult) -> tuple[int, int, int, int]:
        fate = 2 if r.winner not in (None, side) else 1 if r.winner is None else 0
        fallen = sum(r.chars[cid].defeated for cid in members)
        return (fate, fallen, side_losses(enc, r)[side], -r.index)

    return max(results, key=badness)


def record_run(enc: Encounter, r: RunResult, batch: Batch) -> Recording:
    """Play run `r.index` of `batch` again alone, recording it; it must come out as the batch recorded it."""
    rec = Recording()
    again = play_one(enc, r.index, batch.seed, batch.dice, batch.max_turns, record=rec)
    if outcome(enc, again) != outcome(enc, r):  # pragma: no cover - would be a determinism bug
        raise BattlematError(f"run {r.index} played differently when replayed alone: {outcome(enc, again)} "
                             f"instead of {outcome(enc, r)}")
    return rec


def write_replays(enc: Encounter, batch: Batch, results: Sequence[RunResult], out_dir: Path,
                  prefix: str = "") -> dict[str, dict[str, Any]]:
    """Save the typical run and each side's worst run into `out_dir` as `{prefix}typical.json`,
    `{prefix}worst-{side}.json`; returns, per replay, its file, run index, seed and outcome. One run
    chosen twice is recorded once."""
    if not results:
        return {}
    chosen = {"typical": typical(enc, results)}
    for side in enc.sides:
        chosen[f"worst-{side}"] = worst(enc, results, side)
    recordings: dict[int, Recording] = {}
    encounter_path = Path(batch.path)
    ref = encounter_ref(encounter_path, enc.title)
    out: dict[str, dict[str, Any]] = {}
    for what, r in chosen.items():
        rec = recordings.get(r.index)
        if rec is None:
            rec = recordings[r.index] = record_run(enc, r, batch)
        meta = {"title": enc.title, "simulated": {"what": what, "run": r.index, "batch_seed": batch.seed,
                                                    "outcome": outcome(enc, r)}}
        save = Save(str(encounter_path.resolve()), r.seed, batch.dice, tuple(rec.turns), (), meta=meta, ref=ref)
        path = write_save(save, out_dir / f"{prefix}{what}.json")
        out[what] = {"file": path.name, "run": r.index, "seed": r.seed, **outcome(enc, r)}
    return out
