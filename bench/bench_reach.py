"""Benchmark: a rules-complete Reach query vs networkx's plain bounded Dijkstra (DESIGN: quality bars).

1. On a 100x100 map (15% blocked, 15% difficult), an allowance-4 mover's `movement.reach` (M1-M12:
   alternating diagonals, difficult squares, occupants, a sticky foe, refusal reasons for every
   square within allowance + 2) vs `nx.single_source_dijkstra_path_length(cutoff=4)` on the same
   cached graph without rules. Goal: ours >= 5x faster. Two kinds of query, each with an enemy
   using Melee (sticky, M6): "engaged" starts next to it (its reach holds the mover, M6), "in the
   open" starts three squares from it (the mover goes anywhere but into and out of its reach).
   A third kind asks the "in the open" query on the same map with walls between squares and doors
   (core.walls: 2,000 one-square wall pieces along grid lines, 200 closed and 50 locked doors):
   the steps across them are refused (M1) or end the move (M4 house `door_opening`); networkx's
   plain search runs on the same graph. Goal: still >= 5x.
2. The same query on 32x32 vs 256x256 maps. Goal: ratio <= 1.2 (bounded by the allowance, not the map).

Answers are remembered per board (movement.reach's memo); each round forgets them first, so every
query is searched. The compiled search (battlemat.core.movement.kernel) is compiled before timing.

Run: python bench/bench_reach.py   (prints medians and ratios; no assertions)
"""

from __future__ import annotations

import dataclasses
import sys

import networkx as nx
import numpy as np
from timing import paired  # bench/timing.py

from battlemat.core import movement
from battlemat.core.board import Board
from battlemat.core.walls import Door, Wall
from battlemat.io.rules_file import load_rules

RULES = load_rules()


def make_board(n: int, seed: int = 1) -> Board:
    rng = np.random.default_rng(seed)
    roll = rng.random((n, n))
    return Board(n, n, blocked=roll < 0.15, difficult=(roll >= 0.15) & (roll < 0.30))


def with_walls(board: Board, seed: int = 3) -> Board:
    """The board with 2,000 one-square wall pieces along grid lines, 200 closed and 50 locked doors."""
    rng = np.random.default_rng(seed)
    n = board.width

    def piece() -> Wall:
        x, y = (int(v) for v in rng.integers(0, n, 2))
        return Wall(x, y, x + 1, y) if rng.random() < 0.5 else Wall(x, y, x, y + 1)

    walls = tuple(piece() for _ in range(2000))
    doors = tuple(Door(f"d{i}", piece(), "closed" if i < 200 else "locked") for i in range(250))
    return dataclasses.replace(board, walls=walls, doors=doors)


def sources(board: Board, k: int, seed: int = 2) -> list[tuple[int, int]]:
    rng = np.random.default_rng(seed)
    out: list[tuple[int, int]] = []
    while len(out) < k:
        x, y = (int(v) for v in rng.integers(0, board.width, 2))
        if board.enterable((x, y)) and not board.difficult[y, x]:
            out.append((x, y))
    return out


def ours(board: Board, srcs: list[tuple[int, int]], gap: int = 1):
    def run() -> None:
        movement.forget(board)  # every query searches: no answer is reused between rounds
        for s in srcs:
            foe = (s[0] + gap, s[1]) if s[0] + gap < board.width else (s[0] - gap, s[1])
            ctx = movement.Context({foe: movement.Occupant("Orc", False)}, (movement.StickyFoe(foe, "Orc", "Melee"),))
            movement.reach(board, RULES, movement.Mover("a", "Ada", "Exit", s, 4), ctx)
    return run


def plain(board: Board, srcs: list[tuple[int, int]]):
    g = movement.grid(board).graph

    def run() -> None:
        for s in srcs:
            nx.single_source_dijkstra_path_length(g, s, cutoff=4, weight="cost")
    return run


def main() -> int:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 51
    b100 = make_board(100)
    movement.grid(b100)  # built once per board, outside the timing
    srcs = sources(b100, 50)
    for name, gap in (("engaged    ", 1), ("in the open", 3)):
        ours(b100, srcs, gap)()  # compiles (or loads) the kernel and builds its arrays outside the timing
        t_ours, t_nx, speedup = paired(ours(b100, srcs, gap), plain(b100, srcs), repeat)
        print(f"100x100, allowance 4, 50 queries, {name}: reach (rules) {t_ours / 50 * 1e6:6.1f} us/query   "
              f"networkx plain cutoff=4 {t_nx / 50 * 1e6:6.1f} us/query   speed-up x{speedup:.2f} (goal >= 5)")
    walled = with_walls(b100)
    movement.grid(walled)  # (its walls worked out once per board, outside the timing)
    ours(walled, srcs, 3)()
    t_ours, t_nx, speedup = paired(ours(walled, srcs, 3), plain(walled, srcs), repeat)
    print(f"100x100, allowance 4, 50 queries, walls+doors: reach (rules) {t_ours / 50 * 1e6:6.1f} us/query   "
          f"networkx plain cutoff=4 {t_nx / 50 * 1e6:6.1f} us/query   speed-up x{speedup:.2f} (goal >= 5)")
    boards = {}
    for n in (32, 256):
        b = make_board(n, seed=n)
        movement.grid(b)
        boards[n] = ours(b, sources(b, 50, seed=n))
    t32, t256, ratio = paired(boards[32], boards[256], repeat)
    print(f"32x32: reach {t32 / 50 * 1e6:8.1f} us/query   256x256: reach {t256 / 50 * 1e6:8.1f} us/query")
    print(f"256x256 / 32x32 ratio {ratio:.2f} (goal <= 1.2)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
