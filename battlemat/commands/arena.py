"""`battlemat arena ENCOUNTER [--runs N]`: each side's tactics against random and greedy baselines,
on the same seeds, with paired win-rate differences (battlemat.sim.arena).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from battlemat.core.dice import engine_names
from battlemat.core.errors import BattlematError
from battlemat.io.encounter import load_encounter
from battlemat.sim.arena import arena, format_table


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("encounter", help="encounter .toml file")
    p.add_argument("--runs", type=int, default=100, help="combats per side and baseline (default 100)")
    p.add_argument("--seed", type=int, default=None, help="batch seed (default: the encounter's seed)")
    p.add_argument("--dice", default=None, help="dice engine (default: the encounter's)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (the numbers are the same whatever it is)")
    p.add_argument("--max-turns", type=int, default=30, help="stop a combat after this many turns (default 30)")
    p.add_argument("--dask-scheduler", metavar="ADDRESS", default=None,
                   help="play on a Dask cluster at ADDRESS (the numbers are the same)")


def run(args: argparse.Namespace) -> int:
    if args.runs < 1 or args.workers < 1 or args.max_turns < 1:
        raise BattlematError("--runs, --workers and --max-turns must be at least 1")
    if args.dice is not None and args.dice not in engine_names():
        raise BattlematError(f"unknown dice {args.dice!r}; use one of: {', '.join(engine_names())}")
    path = str(Path(args.encounter).resolve())
    enc = load_encounter(path)
    seed = enc.seed if args.seed is None else args.seed
    rows = arena(path, args.runs, seed, args.dice, args.max_turns, args.workers, args.dask_scheduler)
    print(format_table(enc.title, rows, seed))
    return 0
