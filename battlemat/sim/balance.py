"""Small changes that bring a side's win rate to a target (`battlemat balance ENCOUNTER --side SIDE
--target 0.5` writes the best one as a new encounter file beside the original).

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

`balance --ai SIDE=search` (any tactic; sim.overrides) plays every batch, the base's and each
candidate's, with that AI on the side: the rate balanced is the one that AI's play gets (the search's
budget is in evaluated turns, so the numbers still depend only on the seed). The file written keeps
the encounter's own `ai`: the note at its top says which AI the rate was measured with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from battlemat.core.encounter import Encounter
from battlemat.sim.overrides import AI
from battlemat.sim.pool import Batch, run_chunk
from battlemat.sim.progress import play_batches
from battlemat.sim.runner import RunResult
from battlemat.sim.stats import wilson
from battlemat.sim.variants import Change, Paired, Variant, paired, parse_variant

FIGHTING_TACTICS = ("brawler", "archer", "skirmisher", "guardian")
SCREEN_RUNS = 8  # first round: runs per candidate
KEEP = 3  # each round keeps a third, with three times the runs
FINALISTS = 3


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
    ai: AI = ()  # tactics put on a side for every batch (--ai; sim.overrides)


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
    batches = [Batch(s.path, stop, s.seed, s.dice, s.max_turns, text, start, s.ai) for text, start, stop in plan]
    groups, stop = play_batches(batches, s.workers, s.dask, quiet=s.quiet, what="balancing")
    if stop is not None:
        raise stop
    return groups


def search(enc: Encounter, s: Settings) -> Outcome:
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
            print_best_so_far(s, results, combats, enc)
            raise
        for (t, _, _), rs in zip(plan, got, strict=True):
            results.setdefault(t, []).extend(rs)
            combats += len(rs)

    def score(t: str) -> float:
        return abs(_rate(results[t], s.side) - s.target)

    if s.dask is None and s.workers > 1:
        # Forked workers inherit what this process has loaded (the compiled movement kernels, the
        # encounter's board): one combat here spares each worker of each round that start-up.
        run_chunk(Batch(s.path, 1, s.seed, s.dice, s.max_turns, ai=s.ai), [0])
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


def print_best_so_far(s: Settings, results: dict[str, list[RunResult]], combats: int, enc: Encounter) -> None:
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
        lines.append(f"best so far (screened, not confirmed): {parse_variant(best, enc).words(enc)} ({best}): "
                     f"{s.side} wins {_rate(rs, s.side):.1%} "
                     f"(95% {low:.1%} - {high:.1%}) over {len(rs)} runs")
    print("\n".join(lines), flush=True)
