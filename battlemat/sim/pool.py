"""Batch execution: in-process, a process pool on one machine, or an existing Dask cluster.

Work is cut into chunks of run indices; every run's seed depends only on (batch seed, index)
(runner.run_seed) and results are put back in index order, so the numbers are identical whatever
the backend or the number of workers. Workers load the encounter from its path once per process:
encounters hold read-only mappings that are cheaper to re-read than to pickle, and a Dask cluster
needs the files at the same path on its workers.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass

from battlemat.core.encounter import Encounter
from battlemat.core.memory import MatchMemory
from battlemat.sim.runner import RunResult, play_one

Progress = Callable[[int], None]  # called with the number of runs just finished

_CACHE: dict[str, Encounter] = {}


def _encounter(path: str) -> Encounter:
    enc = _CACHE.get(path)
    if enc is None:
        from battlemat.io.encounter import load_encounter

        enc = _CACHE[path] = load_encounter(path)
    return enc


def run_chunk(path: str, indices: Sequence[int], seed: int, dice: str | None, max_turns: int) -> list[RunResult]:
    """Play the runs `indices` of a batch. Top-level so process pools and Dask can ship it."""
    enc = _encounter(path)
    memory = MatchMemory(enc)  # shared by the chunk's matches: what it holds is the encounter's
    with fewer_collections():
        return [play_one(enc, i, seed, dice, max_turns, memory) for i in indices]


@contextmanager
def fewer_collections(young: int = 10_000) -> Iterator[None]:
    """Let the cyclic garbage collector wait for `young` new objects (Python's default is 700) while
    combats are played. A turn makes thousands of short-lived objects that reference counting frees
    at once; at 700 the collector ran several times a turn to find almost nothing, and cost about 10%
    of a batch (bench/bench_sim.py). The collector's settings come back afterwards."""
    old = gc.get_threshold()
    gc.set_threshold(young, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def chunks(runs: int, workers: int) -> list[list[int]]:
    size = max(1, min(100, runs // max(1, workers * 8)))
    return [list(range(i, min(runs, i + size))) for i in range(0, runs, size)]


@dataclass(frozen=True)
class Batch:
    """What a batch plays: the encounter file, how many combats, the batch seed, the dice engine
    (None: the encounter's) and the turn cap. The results depend on these alone, never on how the
    batch is run (run_batch's workers or Dask cluster)."""

    path: str
    runs: int
    seed: int
    dice: str | None
    max_turns: int

    def chunk(self, indices: Sequence[int]) -> list[RunResult]:
        return run_chunk(self.path, indices, self.seed, self.dice, self.max_turns)


def run_batch(
    batch: Batch,
    workers: int = 1,
    dask_scheduler: str | None = None,
    progress: Progress | None = None,
) -> list[RunResult]:
    """Play `batch` in this process (workers=1), on a process pool, or on a Dask cluster; results in
    run order. `progress` is told how many runs each finished chunk held."""
    tick = progress or (lambda n: None)
    parts = chunks(batch.runs, workers)
    if dask_scheduler:
        done = _dask(batch, parts, dask_scheduler)
    elif workers <= 1:
        done = (batch.chunk(part) for part in parts)
    else:
        done = _processes(batch, parts, workers)
    results: list[RunResult | None] = [None] * batch.runs
    for finished in done:
        for r in finished:
            results[r.index] = r
        tick(len(finished))
    assert all(r is not None for r in results)
    return results  # type: ignore[return-value]


def _processes(batch: Batch, parts: list[list[int]], workers: int) -> Iterator[list[RunResult]]:
    # Where workers are forked, what the parent holds (the encounter, its movement graph) is shared
    # with them page by page until written to; a garbage collection in a worker would write to every
    # one of those objects, so they are frozen out of the collector's sight first (the gc module's
    # own advice for fork without exec). About 10% more combats per second on 2 workers.
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(run_chunk, batch.path, part, batch.seed, batch.dice, batch.max_turns)
                       for part in parts]
            for fut in as_completed(futures):
                yield fut.result()
    finally:
        gc.unfreeze()


def _dask(batch: Batch, parts: list[list[int]], address: str) -> Iterator[list[RunResult]]:
    try:
        from distributed import Client
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        from battlemat.core.errors import BattlematError

        raise BattlematError(
            "--dask-scheduler needs Dask: pip install 'battlemat[dask]' (dask[distributed])"
        ) from exc
    with Client(address, set_as_default=False) as client:
        futures = client.map(run_chunk, [batch.path] * len(parts), parts, seed=batch.seed, dice=batch.dice,
                             max_turns=batch.max_turns, pure=False)
        for fut in futures:  # in submission order; results land by index anyway
            yield fut.result()
