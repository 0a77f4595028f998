"""Simulation speed (issue 6), as ratios measured in one run (never as timed tests).

1. Full-rules combats per second of the default encounter, 1 worker vs 2 workers (goal: >= 1.8x).
2. Full-rules combats per second vs a crude baseline on the same map: 8 tokens each doing a plain
   networkx single_source_dijkstra_path_length(cutoff=4) and a random step, for 10 turns
   (goal: ratio >= 1.5, issue 30; it was >= 1.0, so 10,000 runs take about a minute on 2 cores).

Run: python bench/bench_sim.py [--runs N] [--repeats R]
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

import networkx as nx
from timing import once  # bench/timing.py

from battlemat.io.encounter import load_encounter
from battlemat.sim.pool import Batch, run_batch

ROOT = Path(__file__).resolve().parent.parent
GALLERY = str(ROOT / "maps" / "art_gallery.toml")


def crude_graph(board) -> nx.Graph:  # type: ignore[no-untyped-def]
    g = nx.Graph()
    for y in range(board.height):
        for x in range(board.width):
            if board.blocked[y, x] or board.pit[y, x]:
                continue
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                nx_, ny = x + dx, y + dy
                if 0 <= nx_ < board.width and 0 <= ny < board.height and not board.blocked[ny, nx_]:
                    g.add_edge((x, y), (nx_, ny), weight=1.5 if dx and dy else 1.0)
    return g


def crude_combat(g: nx.Graph, rng: random.Random) -> None:
    nodes = sorted(g.nodes)
    tokens = rng.sample(nodes, 8)
    for _ in range(10):
        for i, t in enumerate(tokens):
            dist = nx.single_source_dijkstra_path_length(g, t, cutoff=4)
            tokens[i] = rng.choice(sorted(dist))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    enc = load_encounter(GALLERY)
    n, m = args.runs, max(50, args.runs // 4)
    g = crude_graph(enc.board) if enc.board is not None else None
    rng = random.Random(0)

    def crude_batch() -> None:
        assert g is not None
        for _ in range(m):
            crude_combat(g, rng)

    batch = Batch(GALLERY, n, seed=1, dice="d6", max_turns=30)
    one, two, crude, by_workers, by_crude = [], [], [], [], []
    for _ in range(args.repeats):  # each round runs all three, so a slow spell of the machine hits them alike
        t1 = once(lambda: run_batch(batch, workers=1))
        t2 = once(lambda: run_batch(batch, workers=2))
        one.append(t1)
        two.append(t2)
        by_workers.append(t1 / t2)
        if g is not None:
            tc = once(crude_batch)
            crude.append(tc)
            by_crude.append((n / t1) / (m / tc))
    rate1, rate2 = n / statistics.median(one), n / statistics.median(two)
    print(f"full rules, 1 worker : {rate1:8.1f} combats/s (median of {args.repeats} rounds of {n})")
    print(f"full rules, 2 workers: {rate2:8.1f} combats/s")
    print(f"ratio 2 workers / 1 worker: {statistics.median(by_workers):.2f}  (median of the rounds' ratios; "
          "goal >= 1.8)")
    print(f"so 10,000 runs on 2 workers take about {10_000 / rate2:.0f} s (the goal: about a minute)")
    if g is None:
        print("the default encounter has no map: crude baseline skipped")
        return
    print(f"crude networkx loop   : {m / statistics.median(crude):8.1f} combats/s (8 tokens x 10 turns, cutoff=4)")
    print(f"ratio full rules (1 worker) / crude: {statistics.median(by_crude):.2f}  (median of the rounds' ratios; "
          "goal >= 1.5)")


if __name__ == "__main__":
    main()
