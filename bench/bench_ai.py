"""The search AI's speed (issue 31 item 3): `simulate --ai search` (the search on both sides) on the
art gallery, 200 runs on 2 workers, goal within 2 minutes; and the time per side's decision.

Run: python bench/bench_ai.py [--runs N] [--workers W]   (fewer runs: a quicker look; the goal scales)
The time is wall-clock on a shared machine: quote it with the load it ran under.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GALLERY = str(ROOT / "maps" / "art_gallery.toml")
GOAL_S = 120.0  # for 200 runs on 2 cores (issue 31 item 3)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=200, help="runs of the art gallery (default 200)")
    p.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    args = p.parse_args()
    cmd = [sys.executable, "-m", "battlemat", "simulate", GALLERY, "--runs", str(args.runs), "--workers",
           str(args.workers), "--ai", "search", "--quiet"]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return 1
    verdict = [line.strip() for line in done.stdout.splitlines() if " with search: " in line]
    goal = GOAL_S * args.runs / 200
    print(f"simulate --ai search, art gallery, {args.runs} runs, {args.workers} workers (with the tactics' batch "
          f"for the verdict): {took:.1f} s; goal {goal:.0f} s: {'within' if took <= goal else 'NOT within'}")
    for line in verdict:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
