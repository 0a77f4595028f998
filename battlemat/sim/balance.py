"""`battlemat balance ENCOUNTER --side SIDE --target 0.5`: small changes that bring a side's win rate
to a target, and the best one written as a new encounter file beside the original.

Candidates are single what-if changes (battlemat.sim.variants): each character's ratings +-1 and
+-2, one character fewer or one more (a copy), another tactic. Only changes that can move the rate
toward the target are tried (the side's ratings up or its foes' down when it wins too little, and
the other way round); tactics go both ways.

The search is successive halving on common random numbers: every candidate plays the same first
runs as the base (runs 0..n-1 of one batch seed), the third closest to the target plays on with
three times the runs (its earlier runs kept), and so on; the last few are confirmed with `--runs`
runs and compared with the base run by run (a paired interval). When no single change reaches the
target within its interval, the best one is kept and a second change is searched on top of it
(up to `--depth` changes). Results depend only on the seed, never on the workers or the backend.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from battlemat.core.dice import engine_names
from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.sim.runner import RunResult
from battlemat.sim.stats import wilson
from battlemat.sim.variants import Change, Paired, Variant, _close, paired, parse_variant, play_batches

FIGHTING_TACTICS = ("brawler", "archer", "skirmisher", "guardian")
SCREEN_RUNS = 8  # first round: runs per candidate
KEEP = 3  # each round keeps a third, with three times the runs
FINALISTS = 3


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("encounter", help="encounter .toml file")
    p.add_argument("--side", required=True, help="the side whose win rate should reach the target")
    p.add_argument("--target", type=float, default=0.5, help="the win rate wanted, 0..1 (default 0.5)")
    p.add_argument("--runs", type=int, default=200,
                   help="runs that confirm the finalists and the base (default 200; screening uses fewer)")
    p.add_argument("--seed", type=int, default=None, help="batch seed (default: the encounter's seed)")
    p.add_argument("--dice", default=None, help="dice engine (default: the encounter's)")
    p.add_argument("--max-turns", type=int, default=30, help="stop a combat after this many turns (default 30)")
    p.add_argument("--depth", type=int, default=2, help="at most this many changes combined (default 2)")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: one per core)")
    p.add_argument("--dask-scheduler", metavar="ADDRESS", default=None,
                   help="run on an existing Dask distributed cluster, e.g. tcp://10.0.0.5:8786")
    p.add_argument("-o", "--out", default=None,
                   help="the encounter file to write (default: beside the original, NAME.balanced.toml)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


@dataclass(frozen=True)
class Settings:
    path: str
    side: str
    target: float
    runs: int
    seed: int
    dice: str
    max_turns: int
    depth: int = 2
    workers: int = 1
    dask: str | None = None
    quiet: bool = True


@dataclass(frozen=True)
class Finalist:
    variant: Variant
    stats: Paired  # the side's rate, its Wilson interval, and the change from the base (paired)
    target: float

    @property
    def within(self) -> bool:
        """The target lies in the rate's 95% interval."""
        return self.stats.low <= self.target <= self.stats.high


@dataclass
class Outcome:
    base_rate: float
    base_low: float
    base_high: float
    finalists: list[Finalist]
    combats: int = 0
    rounds: list[str] = field(default_factory=list)

    @property
    def best(self) -> Finalist:
        return self.finalists[0]


def candidates(enc: Encounter, side: str, up: bool, on: Variant) -> list[Variant]:
    """Single changes on top of `on` that can move `side`'s rate up (`up`) or down, in a fixed order."""
    gone = {c.who for c in on.changes if c.kind == "remove"}
    touched = {(c.who, c.pair) for c in on.changes if c.kind == "rating"}
    present = [c for c in enc.characters if c.id not in gone]
    out: list[Change] = []
    for c in present:
        friend = c.side == side
        sign = 1 if friend == up else -1  # raise the side's ratings to help it, lower its foes'
        for pair, value in c.skills.items():
            if value <= 0 or (c.id, pair) in touched:
                continue
            for step in (1, 2):
                v = value + sign * step
                if 0 <= v <= 8:
                    out.append(Change("rating", c.id, pair=pair, value=v))
    for c in present:
        friend = c.side == side
        others = [o for o in present if o.side == c.side and o.id != c.id]
        if friend != up and others:
            out.append(Change("remove", c.id))
        if friend == up:
            out.append(Change("copy", c.id))
    for c in present:
        for t in FIGHTING_TACTICS:
            if t != (c.ai or "default") and not any(x.kind == "ai" and x.who == c.id for x in on.changes):
                out.append(Change("ai", c.id, ai=t))
    return [Variant((*on.changes, ch)) for ch in out]


def _rate(results: Sequence[RunResult], side: str) -> float:
    return sum(r.winner == side for r in results) / len(results) if results else 0.0


def _play(s: Settings, plan: list[tuple[str, int, int]]) -> list[list[RunResult]]:
    """Play runs [start, stop) of each variant text in `plan`, all on the batch seed (common numbers)."""
    from battlemat.sim.pool import Batch

    batches = [Batch(s.path, stop, s.seed, s.dice, s.max_turns, text, start) for text, start, stop in plan]
    groups, stop = play_batches(batches, s.workers, s.dask, quiet=s.quiet, what="balancing")
    if stop is not None:
        raise stop
    return groups


def search(enc: Encounter, s: Settings) -> Outcome:  # noqa: C901 - the rounds read best in one place
    """Successive halving over candidates, depth by depth; the finalists confirmed with s.runs runs."""
    results: dict[str, list[RunResult]] = {}
    combats = 0
    rounds: list[str] = []

    def more(texts: Sequence[str], n: int) -> None:
        nonlocal combats
        plan = [(t, len(results.get(t, [])), n) for t in texts if len(results.get(t, [])) < n]
        if not plan:
            return
        try:
            got = _play(s, plan)
        except KeyboardInterrupt:
            print_best_so_far(s, results, combats)
            raise
        for (t, _, _), rs in zip(plan, got, strict=True):
            results.setdefault(t, []).extend(rs)
            combats += len(rs)

    def score(t: str) -> float:
        return abs(_rate(results[t], s.side) - s.target)

    if s.dask is None and s.workers > 1:
        # Forked workers inherit what this process has loaded (the compiled movement kernels, the
        # encounter's board): one combat here spares each worker of each round that start-up.
        from battlemat.sim.pool import Batch, run_chunk

        run_chunk(Batch(s.path, 1, s.seed, s.dice, s.max_turns), [0])
    more([""], s.runs)
    base_rate = _rate(results[""], s.side)
    on = Variant(())
    finalists: list[Finalist] = []
    for depth in range(max(1, s.depth)):
        here = results[on.text] if on.text else results[""]
        up = _rate(here, s.side) < s.target
        pool = [v.text for v in candidates(enc, s.side, up, on)]
        order = {t: i for i, t in enumerate(pool)}  # ties go to the earlier candidate: deterministic
        n = SCREEN_RUNS
        while len(pool) > FINALISTS:
            more(pool, n)
            pool.sort(key=lambda t: (score(t), order[t]))
            rounds.append(f"depth {depth + 1}: {len(pool)} candidates x {n} runs")
            n = min(s.runs, n * KEEP)
            pool = pool[:FINALISTS if n >= s.runs else max(FINALISTS, len(pool) // KEEP)]
            if n >= s.runs:
                break
        more(pool, s.runs)
        pool.sort(key=lambda t: (score(t), order[t]))
        finalists = [Finalist(parse_variant(t, enc), paired(s.side, results[""], results[t]), s.target)
                     for t in pool[:FINALISTS]]
        rounds.append(f"depth {depth + 1}: {len(pool[:FINALISTS])} finalists x {s.runs} runs")
        if finalists[0].within:
            break
        on = finalists[0].variant
    return Outcome(base_rate, *wilson(round(base_rate * s.runs), s.runs), finalists, combats, rounds)


def run(args: argparse.Namespace) -> int:
    from battlemat.io.encounter import load_encounter
    from battlemat.sim.cli import default_workers
    from battlemat.sim.variants import write_variant

    if not 0.0 < args.target < 1.0:
        raise BattlematError(f"--target must be a win rate between 0 and 1, found {args.target}")
    if args.runs < 10:
        raise BattlematError("--runs must be at least 10")
    if args.depth < 1:
        raise BattlematError("--depth must be at least 1")
    if args.dice is not None and args.dice not in engine_names():
        raise BattlematError(f"unknown dice {args.dice!r}; use one of: {', '.join(engine_names())}")
    path = str(Path(args.encounter).resolve())
    enc = load_encounter(path)
    if args.side not in enc.sides:
        raise BattlematError(f"no side {args.side!r}{_close(args.side, enc.sides)}; the sides are: "
                             f"{', '.join(enc.sides)}")
    workers = args.workers if args.workers is not None else default_workers(10_000)
    if workers < 1:
        raise BattlematError("--workers must be at least 1")
    s = Settings(path, args.side, args.target, args.runs, enc.seed if args.seed is None else args.seed,
                 args.dice or enc.dice, args.max_turns, args.depth, workers, args.dask_scheduler, args.quiet)
    dest = Path(args.out) if args.out else Path(path).with_suffix(".balanced.toml")
    if dest.resolve().parent != Path(path).parent:
        raise BattlematError(f"{dest}: write the balanced encounter beside the original ({Path(path).parent}), "
                             "so that its map path stays valid")
    out = search(enc, s)
    print_outcome(enc, s, out)
    best = out.best
    note = (f"battlemat balance: {s.side} wins {best.stats.rate:.1%} (95% {best.stats.low:.1%} - "
            f"{best.stats.high:.1%}) over {best.stats.n} runs, seed {s.seed}, dice {s.dice}; target {s.target:.0%}; "
            f"base {out.base_rate:.1%}")
    write_variant(path, best.variant, enc, dest, note)
    load_encounter(dest)  # what was written reads back
    print(f"\nwrote {dest}")
    return 0


def print_best_so_far(s: Settings, results: dict[str, list[RunResult]], combats: int) -> None:
    """Stopped mid-search (Ctrl+C): the candidate nearest the target on the runs it has had so far,
    marked as unconfirmed; nothing is written."""
    tried = {t: rs for t, rs in results.items() if t and rs}
    lines = [f"interrupted after {combats} combats: nothing written"]
    if "" in results and results[""]:
        lines.append(f"base: {s.side} wins {_rate(results[''], s.side):.1%} over {len(results[''])} runs")
    if tried:
        best = min(tried, key=lambda t: (abs(_rate(tried[t], s.side) - s.target), -len(tried[t]), t))
        rs = tried[best]
        low, high = wilson(sum(r.winner == s.side for r in rs), len(rs))
        lines.append(f"best so far (screened, not confirmed): {best}: {s.side} wins {_rate(rs, s.side):.1%} "
                     f"(95% {low:.1%} - {high:.1%}) over {len(rs)} runs")
    print("\n".join(lines), flush=True)


def print_outcome(enc: Encounter, s: Settings, out: Outcome) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console(width=130)
    con.print(f"[bold]{enc.title}[/]: {s.side} wins {out.base_rate:.1%} ({out.base_low:.1%} - {out.base_high:.1%}) "
              f"over {s.runs} runs, seed {s.seed}, dice {s.dice}; target {s.target:.0%}", highlight=False)
    t = Table(title=f"Best variants ({s.runs} runs each, the base's seeds)", title_justify="left")
    for col in ("#", "variant", f"{s.side} wins", "95% interval", "change vs base (paired 95%)", "target"):
        t.add_column(col, justify="left" if col == "variant" else "right")
    for i, f in enumerate(out.finalists, 1):
        st = f.stats
        t.add_row(str(i), f.variant.text, f"{st.rate:.1%}", f"{st.low:.1%} - {st.high:.1%}",
                  f"{st.change:+.1%} [{st.change_low:+.1%}, {st.change_high:+.1%}]",
                  "within" if f.within else "not reached")
    con.print(t)
    con.print(f"{out.combats:,} combats; " + "; ".join(out.rounds), highlight=False)
    if not out.best.within:
        con.print(f"[bold]No variant of up to {s.depth} changes reached {s.target:.0%} within its interval[/]; "
                  "the closest is written.", highlight=False)
