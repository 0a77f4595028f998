"""Batch execution: in-process, a process pool on one machine, or an existing Dask cluster.

Work is cut into chunks of run indices; every run's seed depends only on (batch seed, index)
(runner.run_seed) and results are put back in index order, so the numbers are identical whatever
the backend or the number of workers. Workers load the encounter from its path once per process:
encounters hold read-only mappings that are cheaper to re-read than to pickle, and a Dask cluster
needs the files at the same path on its workers.

Stopping (Ctrl+C, or SIGTERM through battlemat.interrupt): the batch stops at once, whatever the
backend. In this process the run being played is dropped; a pool's workers are ended (the chunks
they were playing are dropped); a Dask cluster's futures are cancelled and the client closed (the
cluster is someone else's: it stays up). Then `Interrupted` carries the runs finished so far.
"""

from __future__ import annotations

import ctypes
import gc
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import Any

from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.core.memory import MatchMemory
from battlemat.interrupt import signal_of
from battlemat.io.encounter import load_encounter
from battlemat.sim.overrides import AI, with_ai
from battlemat.sim.runner import RunResult, play_one
from battlemat.sim.variants import build_variant

Progress = Callable[[int], None]  # called with the number of runs just finished

_CACHE: dict[tuple[str, str, AI], Encounter] = {}


class Interrupted(KeyboardInterrupt):
    """A batch stopped by Ctrl+C or SIGTERM before its end. `results`: the runs finished, in run
    order (not always the first ones: chunks finish out of order on a pool); `planned`: the runs
    asked for; `signum`: the signal that stopped it. A KeyboardInterrupt, so a caller that does
    not want partial results stops as on any Ctrl+C. `groups`: for run_batches, the runs finished of
    each batch (`results` is then the first batch's)."""

    def __init__(self, results: list[RunResult], planned: int, signum: int,
                 groups: list[list[RunResult]] | None = None) -> None:
        super().__init__(f"interrupted after {len(results)} of {planned} runs")
        self.results = results
        self.planned = planned
        self.signum = signum
        self.groups = groups if groups is not None else [results]


def _encounter(path: str, variant: str = "", ai: AI = ()) -> Encounter:
    """The batch's encounter: the file's, with a what-if change (sim.variants) and tactics or style
    knobs put on a side (sim.overrides.with_ai); kept per process."""
    enc = _CACHE.get((path, variant, ai))
    if enc is not None:
        return enc
    if ai:
        enc = with_ai(_encounter(path, variant), ai)
    elif variant:  # the file's encounter with a what-if change (sim.variants), on the same board
        enc = build_variant(_encounter(path), path, variant)
    else:
        enc = load_encounter(path)
    _CACHE[path, variant, ai] = enc
    return enc


def play_chunk(b: Batch, indices: Sequence[int]) -> Iterator[RunResult]:
    """Play the runs `indices` of batch `b`, one result at a time."""
    enc = _encounter(b.path, b.variant, b.ai)
    memory = MatchMemory(enc)  # shared by the chunk's matches: what it holds is the encounter's
    with fewer_collections():
        for i in indices:
            yield play_one(enc, i, b.seed, b.dice, b.max_turns, memory)


def run_chunk(b: Batch, indices: Sequence[int]) -> list[RunResult]:
    """Play the runs `indices` of batch `b`. Top-level so process pools and Dask can ship it (a Batch
    is a small frozen value)."""
    return list(play_chunk(b, indices))


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


def _work(batches: Sequence[Batch], workers: int) -> Iterator[Work]:
    """The chunks of every batch, interleaved (each batch's first chunk, then each one's second...)
    so that a stopped run of several batches has about as many runs of each. Made as they are asked
    for, never listed up front: a batch of MAX_RUNS costs no memory before its first run. Chunk sizes
    follow the whole work's size; they never change a result."""
    total = sum(b.runs - b.first for b in batches)
    size = max(1, min(100, total // max(1, workers * 8)))
    starts = [b.first for b in batches]
    while True:
        made = False
        for k, b in enumerate(batches):
            i = starts[k]
            if i < b.runs:
                made = True
                starts[k] = min(b.runs, i + size)
                yield k, b, range(i, starts[k])
        if not made:
            return


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
    variant: str = ""  # a what-if change of the encounter (sim.variants syntax); "" the file as it is
    first: int = 0  # play runs first..runs-1 only (a search playing on with more runs of the same seeds)
    ai: AI = ()  # tactics and style knobs put on a side for this batch (sim.overrides.with_ai)


Work = tuple[int, Batch, range]  # (which batch, the batch, run indices)
Finished = Generator[tuple[int, list[RunResult]], None, None]  # each finished piece of work, as it comes


def run_batch(
    batch: Batch,
    workers: int = 1,
    dask_scheduler: str | None = None,
    progress: Progress | None = None,
) -> list[RunResult]:
    """Play `batch` in this process (workers=1), on a process pool, or on a Dask cluster; results in
    run order. `progress` is told how many runs each finished piece of work held. Stopped by Ctrl+C
    (or by SIGTERM where battlemat.interrupt.sigterm_raises is in force, as in every battlemat
    command), it ends its workers and raises Interrupted with the runs finished so far."""
    return run_batches([batch], workers, dask_scheduler, progress)[0]


def run_batches(
    batches: Sequence[Batch],
    workers: int = 1,
    dask_scheduler: str | None = None,
    progress: Progress | None = None,
) -> list[list[RunResult]]:
    """Play several batches as one piece of work (one pool, one Dask session: what-if variants and
    balance searches play many small batches); each batch's results in run order, exactly as
    run_batch gives them. Stopped, it raises Interrupted whose `groups` hold each batch's finished runs."""
    tick = progress or (lambda n: None)
    work = _work(batches, workers)
    done: Finished
    if dask_scheduler:
        done = _dask(work, dask_scheduler)
    elif workers <= 1:
        done = _in_process(work)
    else:
        done = _processes(work, workers)
    results: list[list[RunResult | None]] = [[None] * (b.runs - b.first) for b in batches]
    try:
        for k, finished in done:
            for r in finished:
                results[k][r.index - batches[k].first] = r
            tick(len(finished))
    except KeyboardInterrupt as stop:
        done.close()  # if the signal came between two pieces: the backend's `finally` ends its workers
        groups = [[r for r in rs if r is not None] for rs in results]
        raise Interrupted(groups[0] if groups else [], batches[0].runs if batches else 0, signal_of(stop),
                          groups) from stop
    assert all(r is not None for rs in results for r in rs)
    return results  # type: ignore[return-value]


def _in_process(work: Iterator[Work]) -> Finished:
    # Run by run, so that a stop keeps every combat finished before it.
    for k, b, part in work:
        for result in play_chunk(b, part):
            yield k, [result]


def _processes(work: Iterator[Work], workers: int) -> Finished:
    # Where workers are forked, what the parent holds (the encounter, its movement graph) is shared
    # with them page by page until written to; a garbage collection in a worker would write to every
    # one of those objects, so they are frozen out of the collector's sight first (the gc module's
    # own advice for fork without exec). About 10% more combats per second on 2 workers.
    # At most IN_FLIGHT chunks a worker are queued at a time: the rest of the work is made as they finish.
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start, initargs=(os.getpid(),))
    complete = False
    gc.freeze()
    try:
        with _signals_held():  # the workers are made here (_signals_held says why)
            futures = {pool.submit(run_chunk, b, part): k
                       for k, b, part in islice(work, workers * IN_FLIGHT)}
        while futures:
            done, _ = wait(futures, return_when=FIRST_COMPLETED)
            for fut in done:
                k = futures.pop(fut)
                for k2, b, part in islice(work, 1):
                    futures[pool.submit(run_chunk, b, part)] = k2
                yield k, fut.result()
        complete = True
    finally:
        if not complete:  # stopped, a chunk failed, or the caller went away: the rest is not wanted
            _end_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)
        gc.unfreeze()


IN_FLIGHT = 4  # chunks queued per worker: enough that none waits for the next, few enough to stream


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now, mid-chunk. ProcessPoolExecutor.shutdown waits for every chunk
    already queued (minutes of a large batch), and only Python 3.14 has terminate_workers(); before
    it the pool's processes are in its `_processes`. Once one worker is gone the pool ends the rest
    itself and fails what was pending, so shutdown returns at once."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:  # pragma: no cover - Python 3.14+
        terminate()
        return
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.terminate()


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait (are blocked in this thread, not lost) while the pool makes its
    workers: a worker inherits the block and lifts it only once _worker_start has set its own
    handlers, so a Ctrl+C at that moment cannot raise KeyboardInterrupt in a half-started worker.
    A signal that came meanwhile is delivered here on leaving."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _worker_start(parent: int) -> None:
    """First thing every pool worker runs.

    - SIGINT is ignored: Ctrl+C in a terminal goes to the whole foreground process group, workers
      included. The parent alone decides what a stop means (it keeps the finished runs and ends the
      workers); a worker raising KeyboardInterrupt would only print a traceback.
    - SIGTERM goes back to its default, ending the worker at once: a forked worker inherits the
      parent's handler (battlemat.interrupt), and the parent ends its workers with SIGTERM.
    - The worker dies with its parent (_die_with_parent), however the parent ends, SIGKILL included.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _die_with_parent(parent: int) -> None:
    """Make this worker end when the process that runs the batch (`parent`) does.

    On Linux, prctl(PR_SET_PDEATHSIG, SIGKILL): the kernel kills the worker the moment its parent
    dies, however it dies. A SIGKILL of the parent runs no code in the parent, so nothing the
    parent does could cover that case; and this costs nothing while the worker plays. Polling the
    parent instead needs a thread waking in every worker (taking the GIL from the combats) and
    notices only a poll interval later: it is the fallback where prctl is missing (macOS, the BSDs)
    and where the worker's parent is not the batch's, as with a fork server (Python 3.14's default
    start method on Linux): the fork server outlives the batch while its workers hold it open, so
    its death would come too late. Two details of PR_SET_PDEATHSIG: it follows the parent *thread*
    that made the worker, and ProcessPoolExecutor makes its workers in the thread that calls
    run_batch, which outlives the pool; and the parent may die before prctl runs, hence the check
    after it.
    """
    direct = os.getppid() == parent  # forked or spawned by it
    if direct and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
            armed = False
        if armed:
            if os.getppid() != parent:  # it died before prctl: this worker is already an orphan
                os._exit(1)
            return
    threading.Thread(target=_watch_parent, args=(parent, direct), name="battlemat-watch-parent", daemon=True).start()


def _watch_parent(parent: int, direct: bool) -> None:
    while os.getppid() == parent if direct else _exists(parent):
        time.sleep(0.5)
    os._exit(1)


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # gone (or its number taken by another user's process)
        return False
    return True


def _dask(work: Iterator[Work], address: str) -> Finished:
    try:
        from distributed import Client  # noqa: PLC0415 - optional dependency: dask (the dask extra)
        from distributed import as_completed as dask_completed  # noqa: PLC0415 - optional dependency: dask
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise BattlematError(
            "--dask-scheduler needs Dask: pip install 'battlemat[dask]' (dask[distributed])"
        ) from exc
    with _connect(Client, address) as client:
        flow = dask_completed(loop=client.loop)  # as they finish; results land by index anyway
        waiting: dict[str, tuple[int, Any]] = {}  # future key -> (which batch, the future)

        def submit(n: int) -> None:  # the work is streamed: at most DASK_IN_FLIGHT chunks queued there
            for k, b, part in islice(work, n):
                fut = client.submit(run_chunk, b, part, pure=False)
                waiting[fut.key] = (k, fut)
                flow.add(fut)

        submit(DASK_IN_FLIGHT)
        complete = False
        try:
            for fut in flow:
                k, _ = waiting.pop(fut.key)
                submit(1)
                yield k, fut.result()
            complete = True
        finally:
            if not complete:  # the cluster stops what nobody waits for; chunks running finish there
                client.cancel([f for _, f in waiting.values()])


DASK_IN_FLIGHT = 256  # chunks queued on a cluster at a time (a cluster of 64 workers gets 4 each)
# Seconds to wait for a scheduler to answer. One on the same network answers in milliseconds; an
# address where nothing listens is refused at once, and one that drops packets would otherwise
# keep a command silent for Dask's default of 30 s and more.
DASK_CONNECT_SECONDS = 5


def _connect(client_type: Any, address: str) -> Any:
    """A Dask client of the scheduler at `address`, or one BattlematError: the address is malformed,
    or no scheduler answers there within DASK_CONNECT_SECONDS. A TCP address is first tried with a
    plain socket: where nothing listens the system refuses at once, while Dask would retry until its
    timeout (and a client that failed to start spends as long again closing itself when collected).
    Dask's own log lines about failed attempts are kept quiet: the message says it all."""
    shown = address[:200]
    fix_form = "write it as tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"
    try:
        from distributed.comm.addressing import (  # noqa: PLC0415 - optional dependency: dask (the dask extra)
            parse_address,
            parse_host_port,
        )

        scheme, location = parse_address(address)
        host_port = parse_host_port(location) if scheme in ("tcp", "tls") else None
    except (ValueError, TypeError) as exc:
        raise BattlematError(f"--dask-scheduler {shown!r} is not an address ({_first_line(exc)}). "
                             f"Fix: {fix_form}") from None
    no_answer = (f"--dask-scheduler {shown!r}: no Dask scheduler answers there within {DASK_CONNECT_SECONDS} s "
                 "({why}). Fix: start one (`dask scheduler`) and give the address it prints, or " + fix_form)
    if host_port is not None:
        try:
            socket.create_connection(host_port, timeout=DASK_CONNECT_SECONDS).close()
        except (OSError, ValueError, OverflowError) as exc:  # refused, unreachable, unknown name, port > 65535
            raise BattlematError(no_answer.format(why=_first_line(exc))) from None
    quiet = [logging.getLogger(name) for name in ("distributed", "distributed.client", "distributed.comm")]
    levels = [log.level for log in quiet]
    for log in quiet:
        log.setLevel(logging.CRITICAL)
    try:
        return client_type(address, set_as_default=False, timeout=DASK_CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:  # something answers, but no scheduler
        _disarm_failed_client(exc, client_type)
        raise BattlematError(no_answer.format(why=_first_line(exc))) from None
    finally:
        for log, level in zip(quiet, levels, strict=True):
            log.setLevel(level)


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0][:160] or type(exc).__name__


def _disarm_failed_client(exc: BaseException, client_type: Any) -> None:
    """A Dask client whose start failed still closes itself when collected, waiting twice its
    connect timeout for a scheduler that never answered. Marked closed, it is collected at once."""
    tb = exc.__traceback__
    while tb is not None:
        client = tb.tb_frame.f_locals.get("self")
        if isinstance(client, client_type):
            client.status = "closed"
        tb = tb.tb_next


def default_workers(runs: int) -> int:
    """One worker per core for batches worth the start-up of a process pool (about 100 runs and
    up); a small batch plays in this process. Results never depend on it (run_batch)."""
    return max(1, min(os.cpu_count() or 1, runs // 50))
