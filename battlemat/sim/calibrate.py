"""How each dice engine turns a rating difference into losses (D1-D3).

The diceless rules (C2) make a rating difference of d cost the lower side exactly d losses. A
dice engine can only promise that on average, so this tool measures it: for every engine, for
differences -4..+4 at ratings 2, 4 and 6, the attacker's win probability and the mean signed
losses (+ the defender's, - the attacker's) with their standard deviation; then the same for
situational modifiers and group bonuses at 4 vs 4. The residual (root mean square of mean
losses minus the difference) is what the conversion constants of `battlemat.core.engines` were
tuned to keep small.

"Rating r" is the lower of the two ratings: d > 0 puts the attacker d above a defender rated r,
d < 0 puts the defender |d| above an attacker rated r, so every cell is a legal pair and the two
halves of a table show whether an engine favours the side that acts.

Speed: engines with a `sample_contests` method (all D3 engines) and the built-in D1/D2 engines
are sampled with numpy; any other registered engine falls back to its own `contest`, one sample
at a time, which is correct but slow.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt
from rich.table import Table

from battlemat.core.dice import DiceEngine, Diceless, SumDice, engine
from battlemat.core.rating import Modifier, Rating
from battlemat.io.outfile import writing

IntArray = npt.NDArray[np.int64]
Sampler = Callable[[Rating, Rating, int, np.random.Generator], tuple[IntArray, IntArray]]

DIFFS = tuple(range(-4, 5))
RATINGS = (2, 4, 6)
DEFAULT_SAMPLES = 100_000
MODIFIER_LEVEL = 4  # situational and group cases are measured at 4 vs 4
SITUATIONAL_CASES = (-2, -1, 1, 2)  # S6: the net modifier is clamped to -2..+2
GROUP_CASES = ((2, 1), (3, 2), (5, 3))  # S7 default table: members -> bonus (a GM may change it)
GOOD, FAIR = 0.25, 0.5  # |mean - target| colour bands in the tables
ORDER = ("none", "d6", "d8", "d10", "d20-stunt", "d10-pool", "2d6-under", "action-dice")  # D1, D2, D3 001..004
TUNE_SAMPLES = 20_000  # a grid search runs the grid once per combination: fewer samples per cell


@dataclass(frozen=True)
class Case:
    """One matchup: who rolls, and the losses the diceless rules would give (the target)."""

    label: str
    attack: Rating
    defense: Rating
    target: int
    rating: int = MODIFIER_LEVEL
    diff: int = 0


@dataclass(frozen=True)
class Cell:
    """What an engine did with one case over `samples` contests."""

    case: Case
    samples: int
    p_win: float
    p_tie: float
    mean: float
    sd: float

    @property
    def error(self) -> float:
        return self.mean - self.case.target


@dataclass(frozen=True)
class Calibration:
    """One engine's grid (ratings x differences) and its modifier cases."""

    engine: str
    grid: tuple[Cell, ...]
    modifiers: tuple[Cell, ...]
    seconds: float

    @property
    def rms(self) -> float:
        """Root mean square of (mean losses - difference) over the grid: the residual."""
        return _rms(self.grid)

    @property
    def modifier_rms(self) -> float:
        return _rms(self.modifiers)

    @property
    def worst(self) -> Cell:
        return max(self.grid, key=lambda c: abs(c.error))

    def cell(self, rating: int, diff: int) -> Cell:
        return next(c for c in self.grid if c.case.rating == rating and c.case.diff == diff)


def _rms(cells: Sequence[Cell]) -> float:
    return float(np.sqrt(np.mean([c.error**2 for c in cells]))) if cells else 0.0


# -- cases ---------------------------------------------------------------------------------------
def _rating(base: int, *, situational: int = 0, group: int = 0, group_size: int = 1) -> Rating:
    mods = (Modifier(situational, "calibration"),) if situational else ()
    return Rating("calibration", base=base, situational=mods, group=group, group_size=group_size)


def grid_cases(ratings: Sequence[int] = RATINGS, diffs: Sequence[int] = DIFFS) -> list[Case]:
    """Rating r is the lower side; d > 0 raises the attacker, d < 0 the defender."""
    cases = []
    for r in ratings:
        for d in diffs:
            a, b = (r + d, r) if d >= 0 else (r, r - d)
            cases.append(Case(f"{a} vs {b}", _rating(a), _rating(b), a - b, r, d))
    return cases


def modifier_cases(level: int = MODIFIER_LEVEL) -> list[Case]:
    """The attacker gets a situational modifier (S6) or a group bonus (S7) at level vs level,
    which engines may re-express (Free/Stunt dice, thresholds, helpers, DS modifiers)."""
    cases = [Case(f"situational {s:+d}", _rating(level, situational=s), _rating(level), s) for s in SITUATIONAL_CASES]
    cases += [
        Case(f"group of {n} (+{b})", _rating(level, group=b, group_size=n), _rating(level), b) for n, b in GROUP_CASES
    ]
    return cases


# -- sampling ------------------------------------------------------------------------------------
def sampler_for(dice: DiceEngine) -> Sampler:
    """The fastest faithful way to sample `dice`'s contests."""
    batch = getattr(dice, "sample_contests", None)
    if callable(batch):
        return batch  # type: ignore[no-any-return]
    if isinstance(dice, Diceless):
        return _diceless
    if isinstance(dice, SumDice):
        return partial(_sum_dice, dice)
    return partial(_one_at_a_time, dice)


def _diceless(attack: Rating, defense: Rating, n: int, gen: np.random.Generator) -> tuple[IntArray, IntArray]:
    gap = attack.value - defense.value
    return np.full(n, np.sign(gap), np.int64), np.full(n, abs(gap), np.int64)


def _sum_dice(
    dice: SumDice, attack: Rating, defense: Rating, n: int, gen: np.random.Generator
) -> tuple[IntArray, IntArray]:
    """D2 as `SumDice.contest` plays it: sums compared, excess // (sides/2 + 1)."""
    a = gen.integers(1, dice.sides + 1, (n, attack.value)).sum(axis=1)
    d = gen.integers(1, dice.sides + 1, (n, defense.value)).sum(axis=1)
    gap = a - d
    return np.sign(gap).astype(np.int64), (np.abs(gap) // dice.divisor).astype(np.int64)


def _one_at_a_time(
    dice: DiceEngine, attack: Rating, defense: Rating, n: int, gen: np.random.Generator
) -> tuple[IntArray, IntArray]:
    rng = random.Random(int(gen.integers(2**63)))
    signs = np.empty(n, np.int64)
    losses = np.empty(n, np.int64)
    code = {"attack": 1, "defense": -1, "tie": 0}
    for i in range(n):
        roll = dice.contest(attack, defense, rng)
        signs[i], losses[i] = code[roll.winner], roll.margin
    return signs, losses


def measure(name: str, sample: Sampler, case: Case, samples: int, seed: int) -> Cell:
    """Sample one case with its own stream, keyed by engine, seed and case, so a cell's numbers
    do not depend on which other engines or cases were asked for."""
    key = [seed, zlib.crc32(name.encode()), zlib.crc32(f"{case.label}@{case.rating}".encode())]
    gen = np.random.default_rng(np.random.SeedSequence(key))
    sign, losses = sample(case.attack, case.defense, samples, gen)
    signed = sign * losses
    return Cell(
        case,
        samples,
        float(np.mean(sign == 1)),
        float(np.mean(sign == 0)),
        float(np.mean(signed)),
        float(np.std(signed)),
    )


@dataclass(frozen=True)
class Grid:
    """Which cells a calibration measures: the lower ratings r and the differences d (see above)."""

    ratings: Sequence[int] = RATINGS
    diffs: Sequence[int] = DIFFS


FULL_GRID = Grid()


def calibrate(
    name: str,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    *,
    dice: DiceEngine | None = None,
    cells: Grid = FULL_GRID,
    modifiers: bool = True,
) -> Calibration:
    """Measure one engine (by registered name, or a given instance, e.g. with trial constants)."""
    started = time.perf_counter()
    dice = dice if dice is not None else engine(name)
    sample = sampler_for(dice)
    grid = tuple(measure(name, sample, c, samples, seed) for c in grid_cases(cells.ratings, cells.diffs))
    mods = tuple(measure(name, sample, c, samples, seed) for c in modifier_cases()) if modifiers else ()
    return Calibration(name, grid, mods, time.perf_counter() - started)


def tune(
    name: str, space: Mapping[str, Sequence[float]], samples: int = TUNE_SAMPLES, seed: int = 0
) -> list[tuple[dict[str, float], float]]:
    """Grid search over an engine's conversion constants: (constants, residual), best first.

    The engine must be a dataclass (every D3 engine is); each combination replaces the named
    fields of the registered default and is calibrated on the grid only (modifier cases are
    the text's own re-expressions, not something to tune away).
    """
    default = engine(name)
    results = []
    for combo in itertools.product(*space.values()):
        params = dict(zip(space, combo, strict=True))
        trial = dataclasses.replace(default, **params)  # type: ignore[type-var]
        results.append((params, calibrate(name, samples, seed, dice=trial, modifiers=False).rms))
    return sorted(results, key=lambda item: item[1])


def ordered(names: Sequence[str]) -> list[str]:
    """Diceless first, then D2, then the D3 engines in the order of their texts; others last."""
    rank = {n: i for i, n in enumerate(ORDER)}
    return sorted(names, key=lambda n: (rank.get(n, len(ORDER)), n))


# -- output --------------------------------------------------------------------------------------
def _style(error: float) -> str:
    return "green" if abs(error) < GOOD else "yellow" if abs(error) < FAIR else "red"


def engine_table(cal: Calibration) -> Table:
    """Rows d, and per rating the attacker's win % and mean losses ± sd, coloured by error."""
    ratings = sorted({c.case.rating for c in cal.grid})
    diffs = sorted({c.case.diff for c in cal.grid})
    table = Table(title=f"{cal.engine}: attacker's win % and mean losses ± sd (target: d)")
    table.add_column("d", justify="right")
    for r in ratings:
        table.add_column(f"r{r} win", justify="right")
        table.add_column(f"r{r} losses", justify="right")
    for d in diffs:
        row = [f"{d:+d}"]
        for r in ratings:
            c = cal.cell(r, d)
            row.append(f"{100 * c.p_win:.0f}%")
            row.append(f"[{_style(c.error)}]{c.mean:+.2f}[/] ± {c.sd:.1f}")
        table.add_row(*row)
    return table


def modifier_table(cals: Sequence[Calibration]) -> Table:
    """Mean losses when the attacker's edge is a modifier an engine may re-express."""
    table = Table(title=f"Attacker's modifier at {MODIFIER_LEVEL} vs {MODIFIER_LEVEL}: mean losses (target below)")
    table.add_column("engine", no_wrap=True)
    for c in cals[0].modifiers:
        head = c.case.label.split(" (")[0].replace("situational ", "sit").replace("group of ", "grp ")
        table.add_column(f"{head}\n→{c.case.target:+d}", justify="right")
    table.add_column("rms", justify="right")
    for cal in cals:
        cells = [f"[{_style(c.error)}]{c.mean:+.2f}[/]" for c in cal.modifiers]
        table.add_row(cal.engine, *cells, f"{cal.modifier_rms:.2f}")
    return table


def summary_table(cals: Sequence[Calibration], samples: int, seed: int) -> Table:
    """One line per engine: the residual, its worst cell, and the spread and ties at equal
    ratings (a tie is a contest nobody loses, such as 2d6-under's double miss)."""
    table = Table(title=f"Residual (mean losses - d): {samples:,} samples per cell, seed {seed}")
    table.add_column("engine", no_wrap=True)
    for head in ("rms", "worst cell", "sd d=0", "tie% d=0", "win% d=+1", "seconds"):
        table.add_column(head, justify="right")
    for cal in cals:
        w = cal.worst
        ratings = sorted({c.case.rating for c in cal.grid})
        mid = ratings[len(ratings) // 2]
        diffs = {c.case.diff for c in cal.grid}
        table.add_row(
            cal.engine,
            f"[{_style(cal.rms)}]{cal.rms:.2f}[/]",
            f"r{w.case.rating} d{w.case.diff:+d}: {w.mean:+.2f}",
            f"{cal.cell(mid, 0).sd:.2f}" if 0 in diffs else "-",
            f"{100 * cal.cell(mid, 0).p_tie:.0f}%" if 0 in diffs else "-",
            f"{100 * cal.cell(mid, 1).p_win:.0f}%" if 1 in diffs else "-",
            f"{cal.seconds:.1f}",
        )
    return table


def tuning_table(name: str, results: Sequence[tuple[dict[str, float], float]], current: float) -> Table:
    table = Table(title=f"{name}: best constants of {len(results)} tried (current rms {current:.3f})")
    for key in results[0][0]:
        table.add_column(key, justify="right")
    table.add_column("rms", justify="right")
    for params, rms in results[:5]:
        table.add_row(*(f"{v:g}" for v in params.values()), f"{rms:.3f}")
    return table


def plot(cals: Sequence[Calibration], path: Path) -> None:
    """One panel per engine: mean losses against d per rating, the diceless target dashed, and
    a band of ±1 sd at the middle rating so the spread is visible at a glance."""
    import matplotlib  # noqa: PLC0415 - start-up time of `battlemat calibrate`: matplotlib for --plot only

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - start-up time of `battlemat calibrate`, and after use("Agg")

    cols = min(4, len(cals))
    rows = (len(cals) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.4 * rows), sharex=True, sharey=True, squeeze=False)
    colours = ("tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown")
    for ax, cal in zip(axes.flat, cals, strict=False):
        ratings = sorted({c.case.rating for c in cal.grid})
        diffs = np.array(sorted({c.case.diff for c in cal.grid}))
        mid = ratings[len(ratings) // 2]
        band = [cal.cell(mid, int(d)) for d in diffs]
        ax.fill_between(
            diffs, [c.mean - c.sd for c in band], [c.mean + c.sd for c in band], color="0.85", label=f"±1 sd (r{mid})"
        )
        ax.plot(diffs, diffs, "--", color="0.3", linewidth=1.2, label="diceless (C2)")
        for r, colour, marker in zip(ratings, colours, "os^Dv", strict=False):
            means = [cal.cell(r, int(d)).mean for d in diffs]
            ax.plot(diffs, means, marker=marker, color=colour, markersize=4, linewidth=1.3, label=f"r{r}")
        ax.set_title(f"{cal.engine}   rms {cal.rms:.2f}", fontsize=11)
        ax.axhline(0, color="0.6", linewidth=0.6)
        ax.axvline(0, color="0.6", linewidth=0.6)
        ax.grid(True, alpha=0.3)
    for ax in axes.flat[len(cals) :]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("rating difference d (attacker - defender)")
    for ax in axes[:, 0]:
        ax.set_ylabel("mean losses (+ defender, - attacker)")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), frameon=False)
    fig.suptitle("Mean losses per rating difference, by dice engine", fontsize=13)
    fig.tight_layout(rect=(0, 0.05, 1, 0.96))
    # Drawn beside the target, then renamed over it (io.outfile): a Ctrl+C mid-write leaves an older chart whole.
    try:
        with writing(path, "the chart", "choose another file with --plot") as part:
            fig.savefig(part, dpi=110, format=path.suffix.lstrip(".").lower() or "png")
    finally:
        plt.close(fig)
