"""Batches played with a progress bar on stderr (shown on a terminal, or with BATTLEMAT_PROGRESS=1).

`play_batches` runs several batches as one piece of work (sim.pool.run_batches) for `simulate --variant`
and `balance`; on Ctrl+C it returns the runs finished and the stop instead of raising.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from battlemat.sim.pool import Interrupted, run_batches
from battlemat.sim.runner import RunResult


def play_batches(batches: list[Any], workers: int, dask: str | None, quiet: bool = False,
                 what: str = "simulating") -> tuple[list[list[RunResult]], BaseException | None]:
    """Run `batches` as one piece of work with a progress bar; on Ctrl+C, the runs finished and the stop."""
    show = not quiet and sys.stderr.isatty() or os.environ.get("BATTLEMAT_PROGRESS") == "1"
    with Progress(TextColumn(f"[bold]{what}[/]"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), disable=not show) as bar:
        task = bar.add_task("runs", total=sum(b.runs for b in batches))
        try:
            return run_batches(batches, workers, dask, progress=lambda n: bar.advance(task, n)), None
        except Interrupted as exc:
            return exc.groups, exc
