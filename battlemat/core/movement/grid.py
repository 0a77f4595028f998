"""The movement grid of a board: flat numpy tables by node and slot, and the networkx graph they read as.

The graph is the model (DESIGN: networkx is the movement graph and the oracle): nodes are squares
(hexes on hex maps) with their terrain, and there is one directed edge per neighbour step, carrying
its cost (M11), whether it is diagonal, its compass direction, its slot (a straight direction: jumps
follow it, M5), the level change (M12) and whether entering is difficult in that direction (M4).
The searches read the same facts from tables instead (`GridArrays`): per node, the neighbour in each
slot and that step's flags, and the node's terrain. The tables are numpy arrays of about 50 bytes a
square, built in a few vectorised passes, so a 1000 x 1000 map (the largest battlemat reads) costs
about 50 MB; the graph, about 5 KB a square, is built only when asked for (`Grid.graph`: the oracle
tests, the benchmarks' baselines). `tests/test_movement_oracle.py` checks that the tables are the
graph's, edge for edge.

A grid is built once per board and diagonal setting and kept in the board's own cache
(`Board.cache.grids`). Per-turn facts (occupants, sticky zones, the mover's skill) never change it;
they enter through the step rules (`step.StepRules`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, cast

import numpy as np

from battlemat.core import geometry
from battlemat.core.board import ASCENDS, Board
from battlemat.core.movement.memo import ReachMemo
from battlemat.core.types import XY

if TYPE_CHECKING:  # names for mypy only
    import networkx as nx
    import numpy.typing as npt


class GridArrays(NamedTuple):
    """The grid's tables as numpy arrays, by node (y * width + x) and slot."""

    nbr: npt.NDArray[np.int32]  # [n, slots]: the neighbour node in each slot, or -1 off the map
    diag: npt.NDArray[np.bool_]  # [n, slots]: a diagonal step (M11)
    hard: npt.NDArray[np.bool_]  # [n, slots]: entering the neighbour this way is difficult (M4)
    blocked: npt.NDArray[np.bool_]  # [n]
    pit: npt.NDArray[np.bool_]  # [n]
    level: npt.NDArray[np.int16]  # [n]
    stairs: npt.NDArray[np.bool_]  # [n]: directional difficulty there: a stair or slope (M12 lets it change level)
    walled: npt.NDArray[np.int8]  # [n, slots]: what lies between the node and that neighbour (WALLED, DOOR or 0)
    sealed: npt.NDArray[np.uint8]  # [n]: bit d: a barrier (wall or door not open) toward neighbour direction d


# `walled` codes (core.walls): a wall or a locked door (M1), a closed door that opens (M4 house `door_opening`).
WALLED, DOOR = 1, 2


@dataclass(eq=False)
class Grid:
    """The movement tables of one board under one diagonal setting. The Python searches read them
    through flat views (`nbr[node * slots + slot]`, `blocked[node]`...) that index like lists and
    give Python ints and bools; `arrays` holds the same numbers as numpy arrays."""

    board: Board
    diagonals: str
    slots: int
    arrays: GridArrays
    hexmap: bool
    nbr: Sequence[int] = ()  # node * slots + slot -> neighbour node, or -1
    diag: Sequence[bool] = ()  # node * slots + slot -> a diagonal step (M11)
    hard: Sequence[bool] = ()  # node * slots + slot -> entering the neighbour this way is difficult (M4)
    blocked: Sequence[bool] = ()  # node -> a wall (M1)
    pit: Sequence[bool] = ()  # node -> a pit (M5)
    level: Sequence[int] = ()  # node -> level (M12)
    stairs: Sequence[bool] = ()  # node -> stairs or a slope (M12)
    walled: Sequence[int] = ()  # node * slots + slot -> WALLED, DOOR or 0 (core.walls)
    memo: ReachMemo = field(default_factory=ReachMemo)  # movement.reach's answers on this grid
    # the compiled search's arrays and scratch space (kernel.Tables, made on first use): opaque here, as
    # the kernel imports this module and this module never imports the kernel (nor numba with it)
    fast: object = None
    planning: dict[str, npt.NDArray[np.int8]] = field(default_factory=dict)  # walks.weights by door setting
    _graph: nx.DiGraph | None = None
    _rings: dict[tuple[int, int], tuple[tuple[int, int], ...]] = field(default_factory=dict)
    _zones: dict[XY, frozenset[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        a = self.arrays
        self.nbr, self.level = _view(a.nbr), _view(a.level)
        self.diag, self.hard = _flags(a.diag), _flags(a.hard)
        self.blocked, self.pit, self.stairs = _flags(a.blocked), _flags(a.pit), _flags(a.stairs)
        self.walled = _view(a.walled)
        self.memo.doors = bool(self.board.doors)

    @property
    def size(self) -> int:
        """Nodes: the board's squares."""
        return self.board.width * self.board.height

    @property
    def graph(self) -> nx.DiGraph:
        """The movement graph (networkx, `build_graph`), built on first use: the model the tables are
        tested against. Nothing in a match needs it."""
        if self._graph is None:
            self._graph = build_graph(self.board, self.diagonals)
        return self._graph

    def node(self, sq: XY) -> int:
        return sq[1] * self.board.width + sq[0]

    def sq(self, i: int) -> XY:
        w = self.board.width
        return i % w, i // w

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
            if len(self._zones) >= ZONES_KEPT:
                self._zones.clear()
            z = self._zones[at] = frozenset(
                self.node(s) for s, _, _ in geometry.steps(self.board, at, "chebyshev")
                if geometry.adjacent(self.board, s, at)
            )
        return z


ZONES_KEPT = 4096  # squares whose neighbours are kept per grid; the table starts over when full


def _view(a: npt.NDArray[np.integer]) -> Sequence[int]:
    """A flat view of a table for the Python searches: indexing it gives Python ints."""
    return memoryview(np.ascontiguousarray(a).reshape(-1))  # type: ignore[arg-type]


def _flags(a: npt.NDArray[np.bool_]) -> Sequence[bool]:
    """A flat view of a table of flags: indexing it gives Python bools (memoryview's format '?')."""
    return cast("Sequence[bool]", memoryview(np.ascontiguousarray(a).reshape(-1)))  # type: ignore[arg-type]


def grid(board: Board, diagonals: str = "alternating") -> Grid:
    """The movement grid of `board` under a diagonal setting (M11), built on first use and kept in
    the board's cache for as long as the board lives."""
    gr = board.cache.grids.get(diagonals)
    if not isinstance(gr, Grid):
        gr = board.cache.grids[diagonals] = _build(board, diagonals)
    return gr


def build_graph(board: Board, diagonals: str = "alternating") -> nx.DiGraph:
    """The movement graph: a node per square with its terrain (blocked, pit, level, stairs), a directed
    edge per neighbour step with cost (1, or 1.5 on average for an alternating diagonal: M11), diagonal,
    dir, slot, dlevel, difficult (M4: the square is difficult, or the step goes up it: ASCENDS) and
    wall ("wall": a wall or locked door lies between, M1; "door": a closed door; "": neither)."""
    import networkx as nx  # noqa: PLC0415 - start-up time: only the oracle tests and the benchmarks build the graph

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
                hard = bool(board.difficult[ny, nx_]) or bool(int(board.difficult_dirs[ny, nx_]) & ASCENDS[name])
                cost = 1.0 if not diag else (1.0 if diagonals == "chebyshev" else 1.5)
                bar = geometry.barrier_between(board, (x, y), n)
                wall = "" if bar is None else ("door" if bar[1] is not None and bar[1].state == "closed" else "wall")
                edges.append(((x, y), n, {
                    "cost": cost, "diagonal": diag, "dir": name, "slot": slot, "difficult": hard,
                    "dlevel": int(board.level[ny, nx_]) - int(board.level[y, x]), "wall": wall,
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
    """The tables of `slot_steps` for every square at once: a slot's step (dx, dy, diagonal, compass
    direction) depends only on the parity of the staggered coordinate (hex maps: alternate rows or
    columns) or on nothing (square grids), so it is read from `slot_steps` on a probe board for each
    parity and written for all the squares of that parity together, as array slices."""
    w, h = board.width, board.height
    hexmap = geometry.is_hex(board)
    slots = 6 if hexmap else (4 if diagonals == "manhattan" else 8)
    nbr = np.full((h, w, slots), -1, np.int32)
    diag = np.zeros((h, w, slots), bool)
    hard = np.zeros((h, w, slots), bool)
    node = np.arange(h * w, dtype=np.int32).reshape(h, w)
    probe = Board(6, 6, board.grid, board.stagger_axis, board.stagger_index)
    by_rows = hexmap and board.stagger_axis == "y"  # which coordinate's parity the steps depend on
    by_cols = hexmap and board.stagger_axis == "x"
    for p in (0, 1) if hexmap else (0,):
        here = (2 + p, 2 + p)  # a probe square of that parity, with every neighbour on the probe board
        for k, (there, d, name) in enumerate(slot_steps(probe, here, diagonals)):
            assert there is not None
            dx, dy = there[0] - here[0], there[1] - here[1]
            ys = _span(max(0, -dy), min(h, h - dy), p if by_rows else -1)  # squares whose neighbour is on the map
            xs = _span(max(0, -dx), min(w, w - dx), p if by_cols else -1)
            ty = slice(ys.start + dy, ys.stop + dy, ys.step)  # and those neighbours
            tx = slice(xs.start + dx, xs.stop + dx, xs.step)
            nbr[ys, xs, k] = node[ty, tx]
            diag[ys, xs, k] = d
            hard[ys, xs, k] = board.difficult[ty, tx] | (board.difficult_dirs[ty, tx] & ASCENDS[name] != 0)
    n = w * h
    walled, sealed = _walls(board, nbr.reshape(n, slots))
    arrays = GridArrays(nbr.reshape(n, slots), diag.reshape(n, slots), hard.reshape(n, slots),
                        board.blocked.reshape(-1).copy(), board.pit.reshape(-1).copy(),
                        board.level.reshape(-1).astype(np.int16), board.difficult_dirs.reshape(-1) != 0,
                        walled, sealed)
    return Grid(board, diagonals, slots, arrays, hexmap)


def _walls(board: Board, nbr: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint8]]:
    """The `walled` and `sealed` tables: only the squares next to a barrier have anything in them
    (geometry.barrier_between lists those pairs once per board), so a map without walls pays nothing."""
    n, slots = nbr.shape
    walled = np.zeros((n, slots), np.int8)
    sealed = np.zeros(n, np.uint8)
    if not board.barriers:
        return walled, sealed
    pairs = geometry.sealed_pairs(board)
    if not pairs:
        return walled, sealed
    w = board.width
    ax, ay = np.array([a[0] for a, _ in pairs], np.int64), np.array([a[1] for a, _ in pairs], np.int64)
    bx, by = np.array([b[0] for _, b in pairs], np.int64), np.array([b[1] for _, b in pairs], np.int64)
    door = np.array([d is not None and d.state == "closed" for _, d in board.barriers])[list(pairs.values())]
    code = np.where(door, DOOR, WALLED).astype(np.int8)
    u, j = ay * w + ax, by * w + bx
    for k in range(slots):
        hit = nbr[u, k] == j
        walled[u[hit], k] = code[hit]
    bits = np.left_shift(1, direction_indices(board, ax, ay, bx, by)).astype(np.uint8)
    np.bitwise_or.at(sealed, u, bits)
    return walled, sealed


def direction_indices(board: Board, ax: npt.NDArray[np.int64], ay: npt.NDArray[np.int64],
                      bx: npt.NDArray[np.int64], by: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """`direction_index` of many pairs of neighbours at once."""
    if geometry.is_hex(board):
        return np.array([direction_index(board, (a, b), (c, d)) for a, b, c, d in
                         zip(ax.tolist(), ay.tolist(), bx.tolist(), by.tolist(), strict=True)], np.int64)
    table = np.full(9, -1, np.int64)  # (dx + 1) + 3 * (dy + 1) -> the index of the step in SQUARE_STEPS
    for i, (dx, dy, _) in enumerate(geometry.SQUARE_STEPS):
        table[(dx + 1) + 3 * (dy + 1)] = i
    return table[(bx - ax + 1) + 3 * (by - ay + 1)]


def direction_index(board: Board, a: XY, b: XY) -> int:
    """Which neighbour of a b is, as the bits of `sealed` count them: the index of the step in
    geometry.SQUARE_STEPS (square grids) or geometry.CUBE_DIRS (hex maps, the order of their slots)."""
    if geometry.is_hex(board):
        ca, cb = geometry.to_cube(board, a), geometry.to_cube(board, b)
        return geometry.CUBE_DIRS.index((cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]))
    return [(dx, dy) for dx, dy, _ in geometry.SQUARE_STEPS].index((b[0] - a[0], b[1] - a[1]))


def _span(lo: int, hi: int, parity: int) -> slice:
    """Coordinates lo <= c < hi, every one (parity -1) or those of one parity."""
    if parity < 0:
        return slice(lo, max(lo, hi))
    lo += (lo - parity) & 1
    return slice(lo, max(lo, hi), 2)
