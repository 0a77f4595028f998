"""Balance speed (issue 18 item 6): `balance` on the art gallery, watch to 50%, goal within 60 s.

Prints the wall time of the whole search and its combats per second, and, as the baseline measured
in the same run, the combats per second of a plain batch of the base encounter on the same workers:
the ratio says what the search costs beyond the combats it plays (many small batches, a pool per
round, each variant read once per worker).

Run: python bench/bench_balance.py [--workers W] [--runs N]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from timing import once  # bench/timing.py

from battlemat.io.encounter import load_encounter
from battlemat.sim.balance import Settings, search
from battlemat.sim.pool import Batch, run_batch

ROOT = Path(__file__).resolve().parent.parent
GALLERY = str(ROOT / "maps" / "art_gallery.toml")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--runs", type=int, default=200, help="confirmation runs (balance --runs)")
    args = ap.parse_args()
    enc = load_encounter(GALLERY)
    s = Settings(GALLERY, "watch", 0.5, args.runs, enc.seed, enc.dice, 30, 2, args.workers, None, True)
    plain_runs = 400
    run_batch(Batch(GALLERY, 20, 1, None, 30), workers=1)  # compiled kernels loaded, as `balance` finds them
    base = once(lambda: run_batch(Batch(GALLERY, plain_runs, 1, None, 30), workers=args.workers))
    found = []
    took = once(lambda: found.append(search(enc, s)))
    out = found[0]
    best = out.best
    plain_rate = plain_runs / base
    rate = out.combats / took
    print(f"balance art gallery (watch -> 50%), {args.workers} workers: {took:.1f} s (goal <= 60 s), "
          f"{out.combats:,} combats, {rate:.0f} combats/s")
    print(f"  best: {best.variant.text}: {best.stats.rate:.1%} ({best.stats.low:.1%} - {best.stats.high:.1%}), "
          f"{'within' if best.within else 'NOT within'} the target")
    print(f"  baseline: plain simulate, {plain_runs} runs: {plain_rate:.0f} combats/s; "
          f"balance/baseline combats per second: {rate / plain_rate:.2f}")


if __name__ == "__main__":
    main()
