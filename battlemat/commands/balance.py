"""`battlemat balance ENCOUNTER --side SIDE --target 0.5`: small changes that bring a side's win rate
to a target (battlemat.sim.balance searches them), and the best one written as a new encounter file
beside the original. `--ai SIDE=search` (or any tactic) measures every rate with that AI on the side.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table

from battlemat.commands.args import (
    DEPTH,
    DEPTH_HELP,
    RUNS,
    RUNS_HELP,
    TARGET_HELP,
    WORKERS,
    WORKERS_HELP,
    add_ai_argument,
    add_batch_options,
    ai_overrides,
    target_argument,
)
from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.io.encounter import load_encounter
from battlemat.io.limits import MAX_WORKERS
from battlemat.io.outfile import check_writable
from battlemat.sim.balance import Outcome, Settings, search
from battlemat.sim.pool import default_workers
from battlemat.sim.variants import _close, write_variant


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("encounter", help="encounter .toml file")
    p.add_argument("--side", required=True, help="the side whose win rate should reach the target")
    p.add_argument("--target", type=target_argument, default=0.5, help=TARGET_HELP)
    p.add_argument("--runs", type=RUNS, default=200,
                   help=f"runs that confirm the finalists and the base (default 200; screening uses fewer; "
                        f"at least 10; {RUNS_HELP})")
    add_batch_options(p)  # --seed, --dice, --max-turns, --dask-scheduler
    p.add_argument("--depth", type=DEPTH, default=2,
                   help=f"at most this many changes combined (default 2; {DEPTH_HELP})")
    p.add_argument("--workers", type=WORKERS, default=None,
                   help=f"worker processes (default: one per core; {WORKERS_HELP})")
    p.add_argument("-o", "--out", default=None,
                   help="the encounter file to write (default: beside the original, NAME.balanced.toml)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_ai_argument(p, "play a side (or every side) with this AI in every batch: the rate balanced is the one its "
                       "play gets")


def run(args: argparse.Namespace) -> int:
    if args.runs < 10:
        raise BattlematError("--runs must be at least 10")
    path = str(Path(args.encounter).resolve())
    enc = load_encounter(path)
    if args.side not in enc.sides:
        raise BattlematError(f"no side {args.side!r}{_close(args.side, enc.sides)}; the sides are: "
                             f"{', '.join(enc.sides)}")
    workers = args.workers if args.workers is not None else min(MAX_WORKERS, default_workers(10_000))
    s = Settings(path, args.side, args.target, args.runs, enc.seed if args.seed is None else args.seed,
                 args.dice or enc.dice, args.max_turns, args.depth, workers, args.dask_scheduler, args.quiet,
                 ai_overrides(enc, args.ai))
    dest = Path(args.out) if args.out else Path(path).with_suffix(".balanced.toml")
    if dest.resolve().parent != Path(path).parent:
        raise BattlematError(f"{dest}: write the balanced encounter beside the original ({Path(path).parent}), "
                             "so that its map path stays valid")
    check_writable(dest, "the balanced encounter", "choose another file with -o")  # before the search
    out = search(enc, s)
    print_outcome(enc, s, out)
    best = out.best
    note = (f"battlemat balance: {best.variant.words(enc)}\n"
            f"{s.side} wins {best.stats.rate:.1%} (95% {best.stats.low:.1%} - "
            f"{best.stats.high:.1%}) over {best.stats.n} runs, seed {s.seed}, dice {s.dice}; target {s.target:.0%}; "
            f"base {out.base_rate:.1%}{played_by(s)}")
    write_variant(path, best.variant, enc, dest, note)
    load_encounter(dest)  # what was written reads back
    print(f"\nwrote {dest}")
    return 0


def played_by(s: Settings) -> str:
    """'; played with --ai watch=search' when --ai put an AI on a side ('' otherwise)."""
    return "; played with " + " ".join(f"--ai {side}={tactic}" for side, tactic, _ in s.ai) if s.ai else ""


def print_outcome(enc: Encounter, s: Settings, out: Outcome) -> None:
    con = Console(width=130)
    con.print(f"[bold]{enc.title}[/]: {s.side} wins {out.base_rate:.1%} ({out.base_low:.1%} - {out.base_high:.1%}) "
              f"over {s.runs} runs, seed {s.seed}, dice {s.dice}; target {s.target:.0%}{played_by(s)}", highlight=False)
    t = Table(title=f"Best variants ({s.runs} runs each, the base's seeds)", title_justify="left")
    for col in ("#", "change", f"{s.side} wins", "95% interval", "change vs base (paired 95%)", "target"):
        t.add_column(col, justify="left" if col == "change" else "right")
    for i, f in enumerate(out.finalists, 1):
        st = f.stats
        t.add_row(str(i), f.variant.words(enc), f"{st.rate:.1%}", f"{st.low:.1%} - {st.high:.1%}",
                  f"{st.change:+.1%} [{st.change_low:+.1%}, {st.change_high:+.1%}]",
                  "within" if f.within else "not reached")
    con.print(t)
    con.print(f"{out.combats:,} combats; " + "; ".join(out.rounds), highlight=False)
    con.print(f"Best: {out.best.variant.words(enc)}, and {s.side} wins {out.best.stats.rate:.1%} "
              f"({out.best.stats.low:.1%} - {out.best.stats.high:.1%}); as a --variant: {out.best.variant.text}",
              highlight=False)
    if not out.best.within:
        con.print(f"[bold]No variant of up to {s.depth} changes reached {s.target:.0%} within its interval[/]; "
                  "the closest is written.", highlight=False)
