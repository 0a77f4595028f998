"""`simulate --sweep styles`: the batch again under each side's style knobs, with a warning when
the verdict depends on them ("the watch wins 20-65% depending on the ogres' style").

Each side in turn plays every combination of the knobs (core.character.STYLES) while the other
sides keep their own; every batch uses the same seeds. The verdict "depends" on a side's style
when the win rates it gives some side span more than SPREAD, or their Wilson intervals do not overlap.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product

from battlemat.core.character import STYLES
from battlemat.core.encounter import Encounter
from battlemat.sim.overrides import style_text
from battlemat.sim.pool import Batch, run_batch
from battlemat.sim.stats import wilson

SPREAD = 0.15


@dataclass
class SweepRow:
    styled: str  # the side whose style changes
    style: str  # e.g. "focus=spread,risk=cautious"
    wins: dict[str, int]
    runs: int


def styles() -> list[str]:
    keys = list(STYLES)
    return [style_text(dict(zip(keys, combo, strict=True))) for combo in product(*(STYLES[k] for k in keys))]


def sweep_styles(batch: Batch, enc: Encounter, workers: int) -> list[SweepRow]:
    """`batch` again with each side in each style (the other sides as they are)."""
    rows = []
    for side in enc.sides:
        for style in styles():
            results = run_batch(replace(batch, ai=((side, "", style),)), workers=workers)
            wins = {s: sum(r.winner == s for r in results) for s in enc.sides}
            rows.append(SweepRow(side, style, wins, batch.runs))
    return rows


def warnings(rows: list[SweepRow]) -> list[str]:
    out = []
    for styled in dict.fromkeys(r.styled for r in rows):
        mine = [r for r in rows if r.styled == styled]
        for side in mine[0].wins:
            rates = [r.wins[side] / r.runs for r in mine]
            ivs = [wilson(r.wins[side], r.runs) for r in mine]
            apart = max(lo for lo, _ in ivs) > min(hi for _, hi in ivs)
            if max(rates) - min(rates) > SPREAD or apart:
                out.append(f"warning: the {side} win {min(rates):.0%}-{max(rates):.0%} depending on the "
                           f"{styled}' style: the verdict depends on how they fight")
                break
    return out


def print_sweep(rows: list[SweepRow]) -> None:
    if not rows:
        return
    sides = list(rows[0].wins)
    print(f"\nStyle sweep ({rows[0].runs} combats each, same seeds): win rate of each side")
    print(f"{'styled side':<14} {'style':<30} " + " ".join(f"{s:>12}" for s in sides))
    for r in rows:
        print(f"{r.styled:<14} {r.style:<30} " + " ".join(f"{r.wins[s] / r.runs:>12.1%}" for s in sides))
    found = warnings(rows)
    print("\n".join(found) if found else "The verdict holds whatever style each side fights in.")
