"""`battlemat simulate ENCOUNTER --runs N ...`: play an encounter many times with AI on all sides.

Prints win rates with 95% Wilson intervals, turn quartiles, each character's defeat rate and
losses, and the most common reasons moves were cut short; `--report DIR` adds PNG figures and
report.json with every number.

Ctrl+C (or SIGTERM) stops a batch within a moment (battlemat.sim.pool): the summary and the report
are then made from the runs finished so far, marked partial, and the exit status is 130 (143 after
SIGTERM; battlemat.interrupt says why).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from battlemat.core.dice import engine_names
from battlemat.core.errors import BattlematError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("encounter", help="encounter .toml file")
    p.add_argument("--runs", type=int, default=200, help="number of combats to play (default 200)")
    p.add_argument("--seed", type=int, default=None, help="batch seed (default: the encounter's seed)")
    p.add_argument("--dice", default=None, help="dice engine (default: the encounter's)")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes on this machine (default: one per core from 100 runs up, else 1; "
                        "the numbers are the same whatever it is)")
    p.add_argument("--max-turns", type=int, default=30, help="stop a combat after this many turns (default 30)")
    p.add_argument("--report", metavar="DIR", default=None, help="write PNG figures and report.json here")
    p.add_argument("--dask-scheduler", metavar="ADDRESS", default=None,
                   help="run on an existing Dask distributed cluster, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--log-run", type=int, default=None, metavar="K",
                   help="also print the full log of run K (0-based), as `resolve` prints one, "
                        "with the AI's notes")
    p.add_argument("--sweep", choices=("styles",), default=None,
                   help="styles: play the batch under each side's style knobs; warn when the verdict depends on them")


def default_workers(runs: int) -> int:
    """One worker per core for batches worth the start-up of a process pool (about 100 runs and
    up); a small batch plays in this process. Results never depend on it (pool.run_batch)."""
    return max(1, min(os.cpu_count() or 1, runs // 50))


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from battlemat.interrupt import stopped
    from battlemat.io.encounter import load_encounter
    from battlemat.sim.pool import Batch, Interrupted, run_batch
    from battlemat.sim.stats import summarise

    if args.runs < 1:
        raise BattlematError("--runs must be at least 1")
    workers = default_workers(args.runs) if args.workers is None else args.workers
    if workers < 1:
        raise BattlematError("--workers must be at least 1")
    if args.max_turns < 1:
        raise BattlematError("--max-turns must be at least 1")
    if args.log_run is not None and not 0 <= args.log_run < args.runs:
        raise BattlematError(f"--log-run must be a run of the batch, 0 to {args.runs - 1}")
    if args.dice is not None and args.dice not in engine_names():
        raise BattlematError(f"unknown dice {args.dice!r}; use one of: {', '.join(engine_names())}")
    path = str(Path(args.encounter).resolve())
    enc = load_encounter(path)  # fails early, in this process, with a clear message
    seed = enc.seed if args.seed is None else args.seed
    dice = args.dice or enc.dice
    console = Console(stderr=True)
    show = not args.quiet and sys.stderr.isatty() or os.environ.get("BATTLEMAT_PROGRESS") == "1"
    with Progress(
        TextColumn("[bold]simulating[/]"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=console, disable=not show,
    ) as bar:
        task = bar.add_task("runs", total=args.runs)
        stop: Interrupted | None = None
        try:
            results = run_batch(Batch(path, args.runs, seed, dice, args.max_turns), workers=workers,
                                dask_scheduler=args.dask_scheduler, progress=lambda n: bar.advance(task, n))
        except Interrupted as exc:
            results, stop = exc.results, exc
    status = 0 if stop is None else stopped(stop)  # "battlemat: interrupted" on stderr; the summary says more
    summary = summarise(enc, results, seed, dice, args.max_turns, planned=args.runs)
    print_summary(summary)
    if args.log_run is not None and stop is None:
        from battlemat.sim.runlog import log_lines

        print(f"\n# run {args.log_run} in full")
        print("\n".join(log_lines(enc, args.log_run, seed, dice, args.max_turns)))
    if args.sweep == "styles" and stop is None:
        from battlemat.sim.sweep import print_sweep, sweep_styles

        print_sweep(sweep_styles(Batch(path, args.runs, seed, dice, args.max_turns), enc, workers))
    if args.report:
        from battlemat.sim.report import write_report

        out = Path(args.report)
        files = write_report(enc, summary, out, Path(path))
        print(f"\nreport: {', '.join(str(f) for f in files)}")
    return status


def print_summary(s: object) -> None:
    from rich.console import Console
    from rich.table import Table

    from battlemat.labels import labels_by_id
    from battlemat.sim.stats import Summary

    assert isinstance(s, Summary)
    con = Console(width=110)
    if s.partial:
        con.print(f"[bold]interrupted after {s.runs:,} of {s.planned:,} runs: partial results[/]", highlight=False)
        if not s.runs:
            con.print("No combat had finished: nothing to summarise.")
            return
    con.print(f"[bold]{s.title}[/]: {s.runs} combats, seed {s.seed}, dice {s.dice}, turn cap {s.max_turns}")
    wins = Table(title="Who wins (95% Wilson interval)", title_justify="left")
    for col in ("side", "wins", "rate", "95% interval"):
        wins.add_column(col, justify="right" if col != "side" else "left")
    for side in s.sides:
        wins.add_row(side.side, str(side.wins), f"{side.rate:.1%}", f"{side.low:.1%} - {side.high:.1%}")
    if s.undecided:
        wins.add_row("undecided", str(s.undecided), f"{s.undecided / s.runs:.1%}",
                     f"{s.capped} hit the turn cap")
    con.print(wins)
    con.print(f"Turns: median {s.turns_median:g}, quartiles {s.turns_q1:g} - {s.turns_q3:g}, "
              f"range {min(s.turns)} - {max(s.turns)}")
    chars = Table(title="Characters", title_justify="left")
    for col in ("token", "character", "side", "defeated", "fled", "losses taken (mean +- sd)"):
        chars.add_column(col, justify="left" if col in ("token", "character", "side") else "right")
    labels = labels_by_id(s.chars)  # the window's token labels: GS1, GS2 where initials repeat
    for c in s.chars:
        chars.add_row(labels[c.id], c.name, c.side, f"{c.defeat_rate:.1%}", f"{c.fled_rate:.1%}",
                      f"{c.mean_losses:.2f} +- {c.sd_losses:.2f}")
    con.print(chars)
    if s.stop_reasons:
        stops = Table(title="Moves cut short, most common reasons", title_justify="left")
        stops.add_column("reason")
        stops.add_column("times", justify="right")
        stops.add_column("per combat", justify="right")
        for reason, n in s.stop_reasons:
            stops.add_row(reason, str(n), f"{n / s.runs:.2f}")
        con.print(stops)
    else:
        con.print("No move was cut short.")


def summary_json(s: object) -> str:
    from battlemat.sim.stats import Summary

    assert isinstance(s, Summary)
    return json.dumps(s.to_json(), indent=2)
