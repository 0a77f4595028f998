"""`battlemat arena ENCOUNTER [--runs N]`: each side's tactics against random and greedy baselines,
on the same seeds, with paired win-rate differences (battlemat.sim.arena).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from battlemat.commands.args import (
    RUNS,
    RUNS_HELP,
    TURNS,
    TURNS_HELP,
    WORKERS,
    WORKERS_HELP,
    dice_argument,
    seed_argument,
)
from battlemat.io.encounter import load_encounter
from battlemat.sim.arena import arena, format_table


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("encounter", help="encounter .toml file")
    p.add_argument("--runs", type=RUNS, default=100, help=f"combats per side and baseline (default 100; {RUNS_HELP})")
    p.add_argument("--seed", type=seed_argument, default=None, help="batch seed (default: the encounter's seed)")
    p.add_argument("--dice", type=dice_argument, default=None, help="dice engine (default: the encounter's)")
    p.add_argument("--workers", type=WORKERS, default=1, help=f"worker processes (default 1; {WORKERS_HELP})")
    p.add_argument("--max-turns", type=TURNS, default=30,
                   help=f"stop a combat after this many turns (default 30; {TURNS_HELP})")
    p.add_argument("--dask-scheduler", metavar="ADDRESS", default=None,
                   help="play on a Dask cluster at ADDRESS (the numbers are the same)")


def run(args: argparse.Namespace) -> int:
    path = str(Path(args.encounter).resolve())
    enc = load_encounter(path)
    seed = enc.seed if args.seed is None else args.seed
    rows = arena(path, args.runs, seed, args.dice, args.max_turns, args.workers, args.dask_scheduler)
    print(format_table(enc.title, rows, seed))
    return 0
