"""`battlemat arena ENCOUNTER [--runs N]`: each side's tactics against random and greedy baselines,
on the same seeds, with paired win-rate differences (battlemat.sim.arena).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from battlemat.commands.args import (
    RUNS,
    RUNS_HELP,
    WORKERS,
    WORKERS_HELP,
    add_ai_argument,
    add_batch_options,
    ai_overrides,
)
from battlemat.io.encounter import load_encounter
from battlemat.sim.arena import arena, format_table


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("encounter", help="encounter .toml file")
    p.add_argument("--runs", type=RUNS, default=100, help=f"combats per side and baseline (default 100; {RUNS_HELP})")
    add_batch_options(p)  # --seed, --dice, --max-turns, --dask-scheduler
    p.add_argument("--workers", type=WORKERS, default=1, help=f"worker processes (default 1; {WORKERS_HELP})")
    add_ai_argument(p, "also play a side (or every side) with this AI and compare it with the side's tactics "
                       "on the same seeds (a second table)")


def run(args: argparse.Namespace) -> int:
    path = str(Path(args.encounter).resolve())
    enc = load_encounter(path)
    seed = enc.seed if args.seed is None else args.seed
    rows = arena(path, args.runs, seed, args.dice, args.max_turns, args.workers, args.dask_scheduler,
                 ai_overrides(enc, args.ai))
    print(format_table(enc.title, rows, seed))
    return 0
