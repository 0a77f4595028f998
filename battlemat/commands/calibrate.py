"""`battlemat calibrate [--samples N] [--engine NAME] [--plot FILE] [--tune]`: how each dice engine
turns a rating difference into losses (D1-D3), measured by battlemat.sim.calibrate.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

from battlemat.commands.args import CALIBRATE_SAMPLES, CALIBRATE_SAMPLES_HELP, dice_argument, seed_argument
from battlemat.core.dice import engine, engine_names
from battlemat.io.errors import LoadError
from battlemat.io.outfile import check_writable
from battlemat.sim.calibrate import (
    DEFAULT_SAMPLES,
    TUNE_SAMPLES,
    calibrate,
    engine_table,
    modifier_table,
    ordered,
    plot,
    summary_table,
    tune,
    tuning_table,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--samples", type=CALIBRATE_SAMPLES, default=DEFAULT_SAMPLES,
        help=f"contests per cell (default {DEFAULT_SAMPLES:,}; {CALIBRATE_SAMPLES_HELP})"
    )
    parser.add_argument("--seed", type=seed_argument, default=0, help="random seed (default 0)")
    parser.add_argument("--plot", type=Path, default=None, metavar="FILE", help="also draw a PNG chart to FILE")
    parser.add_argument(
        "--engine",
        action="append",
        type=dice_argument,
        default=None,
        metavar="NAME",
        help="only this engine (repeatable); default: every registered engine",
    )
    parser.add_argument(
        "--tune",
        action="store_true",
        help=f"grid-search each engine's declared conversion constants instead "
        f"(use with --samples {TUNE_SAMPLES:,} or so: it calibrates once per combination)",
    )


def run(args: argparse.Namespace) -> int:
    out, err = Console(), Console(stderr=True)
    names = ordered(args.engine or engine_names())  # each --engine is a known one (dice_argument)
    if args.plot is not None:
        try:  # before the contests: a chart that cannot be written fails now (io.outfile)
            check_writable(args.plot, "the chart", "choose another file with --plot")
        except LoadError as exc:
            err.print(str(exc), highlight=False, soft_wrap=True)
            return 2
    if args.tune:
        return _run_tune(names, args.samples, args.seed, out)
    cals = [calibrate(n, args.samples, args.seed) for n in names]
    out.print("r: the lower rating; d > 0: attacker higher; + losses on the defender")
    for cal in cals:
        out.print(engine_table(cal))
    out.print(modifier_table(cals))
    out.print(summary_table(cals, args.samples, args.seed))
    if args.plot is not None:
        try:
            plot(cals, args.plot)
        except ModuleNotFoundError as exc:
            err.print(f"--plot needs matplotlib ({exc.name} is missing): pip install 'battlemat[lab]'")
            return 2
        except LoadError as exc:  # the writer's refusal: a full disk, a folder, a place not writable
            err.print(str(exc), highlight=False, soft_wrap=True)
            return 2
        out.print(f"chart written to {args.plot}", soft_wrap=True)
    return 0


def _run_tune(names: Sequence[str], samples: int, seed: int, out: Console) -> int:
    for name in names:
        space = getattr(engine(name), "tuning", None)
        if not space:
            out.print(f"{name}: no tunable constants declared")
            continue
        current = calibrate(name, samples, seed, modifiers=False).rms
        out.print(tuning_table(name, tune(name, space, samples, seed), current))
    return 0
