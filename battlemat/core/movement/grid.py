"""The movement graph of a board (networkx) and the flat tables the searches read from it.

The graph is the model (DESIGN: networkx is the movement graph and the oracle): nodes are squares
(hexes on hex maps) with their terrain, and there is one directed edge per neighbour step, carrying
its cost (M11), whether it is diagonal, its compass direction, its slot (a straight direction: jumps
follow it, M5), the level change (M12) and whether entering is difficult in that direction (M4).
It is built once per board and diagonal setting and kept in the board's own cache
(`Board.cache.grids`), with this turn-independent view of it: per node, the neighbour in each slot
and that step's flags. Per-turn facts (occupants, sticky zones, the mover's skill) never change the
graph; they enter through the step rules (`step.StepRules`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from battlemat.core import geometry
from battlemat.core.board import DIRECTIONS, Board
from battlemat.core.movement.memo import ReachMemo
from battlemat.types import XY


@dataclass(eq=False)
class Grid:
    """The movement graph of one board under one diagonal setting, and its tables by node
    (node = y * width + x) and slot."""

    board: Board
    diagonals: str
    graph: nx.DiGraph
    slots: int
    nbr: list[list[int]]  # node -> slot -> neighbour node, or -1
    diag: list[list[bool]]  # node -> slot -> a diagonal step (M11)
    hard: list[list[bool]]  # node -> slot -> entering the neighbour this way is difficult (M4)
    blocked: list[bool]
    pit: list[bool]
    level: list[int]
    stairs: list[bool]  # directional difficulty there: a stair or slope (M12 lets it change level)
    sqs: list[XY]  # node -> square
    hexmap: bool
    memo: ReachMemo = field(default_factory=ReachMemo)  # movement.reach's answers on this grid
    fast: Any = None  # the compiled search's arrays and scratch space (kernel.Tables), made on first use
    planning: Any = None  # the walkable steps reversed, for walking distances (walks.reversed_walks)
    _rings: dict[tuple[int, int], tuple[tuple[int, int], ...]] = field(default_factory=dict)
    _zones: dict[XY, frozenset[int]] = field(default_factory=dict)

    def node(self, sq: XY) -> int:
        return sq[1] * self.board.width + sq[0]

    def sq(self, i: int) -> XY:
        return self.sqs[i]

    def ring(self, at: XY, r: int) -> tuple[tuple[int, int], ...]:
        """Offsets (dx, dy) within distance r of `at` (M11); kept per radius and row/column parity."""
        parity = (at[0] & 1) if self.board.stagger_axis == "x" else (at[1] & 1)
        key = (r, parity if self.hexmap else 0)
        got = self._rings.get(key)
        if got is None:
            probe = Board(4 * r + 4, 4 * r + 4, self.board.grid, self.board.stagger_axis, self.board.stagger_index)
            c = (2 * r + 2 + (at[0] & 1), 2 * r + 2 + (at[1] & 1))  # same parity as `at` (hex offsets)
            got = self._rings[key] = tuple(
                (dx, dy) for dy in range(-r - 1, r + 2) for dx in range(-r - 1, r + 2)
                if geometry.distance(probe, c, (c[0] + dx, c[1] + dy), self.diagonals) <= r
            )
        return got

    def zone(self, at: XY) -> frozenset[int]:
        """Nodes next to `at`: a sticky foe's reach (M6), the squares a charge aims for (M7)."""
        z = self._zones.get(at)
        if z is None:
            z = self._zones[at] = frozenset(
                self.node(s) for s, _, _ in geometry.steps(self.board, at, "chebyshev")
                if geometry.adjacent(self.board, s, at)
            )
        return z


def grid(board: Board, diagonals: str = "alternating") -> Grid:
    """The movement grid of `board` under a diagonal setting (M11), built on first use and kept in
    the board's cache for as long as the board lives."""
    gr: Grid | None = board.cache.grids.get(diagonals)
    if gr is None:
        gr = board.cache.grids[diagonals] = _build(board, diagonals)
    return gr


def build_graph(board: Board, diagonals: str = "alternating") -> nx.DiGraph:
    """The movement graph: a node per square with its terrain (blocked, pit, level, stairs), a directed
    edge per neighbour step with cost (1, or 1.5 on average for an alternating diagonal: M11), diagonal,
    dir, slot, dlevel and difficult (M4: the square is difficult, or difficult in that direction)."""
    g = nx.DiGraph()
    w, h = board.width, board.height
    g.add_nodes_from(
        ((x, y), {"blocked": bool(board.blocked[y, x]), "pit": bool(board.pit[y, x]),
                  "level": int(board.level[y, x]), "stairs": bool(board.difficult_dirs[y, x])})
        for y in range(h) for x in range(w)
    )
    edges = []
    for y in range(h):
        for x in range(w):
            for slot, (n, diag, name) in enumerate(slot_steps(board, (x, y), diagonals)):
                if n is None:
                    continue
                nx_, ny = n
                hard = bool(board.difficult[ny, nx_]) or bool(int(board.difficult_dirs[ny, nx_]) & DIRECTIONS[name])
                cost = 1.0 if not diag else (1.0 if diagonals == "chebyshev" else 1.5)
                edges.append(((x, y), n, {
                    "cost": cost, "diagonal": diag, "dir": name, "slot": slot, "difficult": hard,
                    "dlevel": int(board.level[ny, nx_]) - int(board.level[y, x]),
                }))
    g.add_edges_from(edges)
    return g


def slot_steps(board: Board, sq: XY, diagonals: str) -> list[tuple[XY | None, bool, str]]:
    """Neighbours by fixed slot, None off the board (a slot is one straight direction: jumps follow it, M5)."""
    if geometry.is_hex(board):
        c = geometry.to_cube(board, sq)
        here = geometry.centre(board, sq)
        out: list[tuple[XY | None, bool, str]] = []
        for d in geometry.CUBE_DIRS:
            n = geometry.from_cube(board, (c[0] + d[0], c[1] + d[1], c[2] + d[2]))
            there = geometry.centre(board, n)
            name = geometry.compass(there[0] - here[0], there[1] - here[1])
            out.append((n if board.inside(n) else None, False, name))
        return out
    out = []
    for dx, dy, name in geometry.SQUARE_STEPS:
        diag = dx != 0 and dy != 0
        if diag and diagonals == "manhattan":
            continue
        n = (sq[0] + dx, sq[1] + dy)
        out.append((n if board.inside(n) else None, diag, name))
    return out


def _build(board: Board, diagonals: str) -> Grid:
    g = build_graph(board, diagonals)
    hexmap = geometry.is_hex(board)
    slots = 6 if hexmap else (4 if diagonals == "manhattan" else 8)
    w, n = board.width, board.width * board.height
    nbr = [[-1] * slots for _ in range(n)]
    diag = [[False] * slots for _ in range(n)]
    hard = [[False] * slots for _ in range(n)]
    for (ux, uy), (vx, vy), d in g.edges(data=True):
        i, k = uy * w + ux, d["slot"]
        nbr[i][k] = vy * w + vx
        diag[i][k] = d["diagonal"]
        hard[i][k] = d["difficult"]
    terrain = [g.nodes[(i % w, i // w)] for i in range(n)]
    return Grid(
        board, diagonals, g, slots, nbr, diag, hard,
        blocked=[t["blocked"] for t in terrain], pit=[t["pit"] for t in terrain],
        level=[t["level"] for t in terrain], stairs=[t["stairs"] for t in terrain],
        sqs=[(i % w, i // w) for i in range(n)], hexmap=hexmap,
    )
