"""Walking distances over several turns, for planning (the AI): how many squares from each square to a goal.

A query of the movement grid (grid.py): Dijkstra's search from the goal over the reversed steps,
with the rules' walking weights (`weights`): a step costs 1, entering difficult ground 2 (M4 ends
a move there), and changing level without stairs CLIMB (a Climb step ends the move, M12: about a
turn's walking); walls and pits are never walked (M1, M5), nor more than one level at once.

The search runs over the grid's flat tables, compiled by numba where it is installed (on a 1000 x
1000 map about 0.04 s a goal, after 0.2 s once for the weights; microseconds on a bundled map), in
Python otherwise (bench/bench_board.py, part 2, measures its memory); its answer is
one int32 array per goal (4 bytes a square). `tests/test_movement_oracle.py` checks it against
networkx's Dijkstra over the movement graph. Terrain never changes, so each answer is kept in the
board's cache (`Board.cache.walks`): at most WALKS_KEPT answers, and at most WALKS_BYTES of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from battlemat.core.board import Board
from battlemat.core.movement.grid import DOOR, WALLED, Grid, grid
from battlemat.core.types import XY

if TYPE_CHECKING:  # names for mypy only
    import numpy.typing as npt

FAR = 1 << 20  # no walk leads there
CLIMB = 3  # a Climb step up or down one level ends the move (M12): about a turn's walking
WALKS_KEPT = 4096  # answers per board; the table starts over when full
WALKS_BYTES = 64 << 20  # and no more than this much of them (16 answers on a 1000 x 1000 map)


def weights(gr: Grid, doors: str = "ends_move") -> npt.NDArray[np.int8]:
    """The planner's cost of each step as the tables give them (int8 [node, slot]; 0: never walked):
    reversed, so that entry [j, k] is the step from j's neighbour in slot k into j (the opposite slot
    leads back: slots are listed round the compass). Walls and locked doors are never walked through
    (M1); a closed door costs what opening it costs by `doors` (the rules' `door_opening`: 2 when it
    ends the move, as difficult ground, M4; never when only the game master opens it). Built once
    per grid and door setting."""
    rev = gr.planning.get(doors)
    if rev is None:
        a = gr.arrays
        level = a.level.astype(np.int32)
        walkable = ~(a.blocked | a.pit)  # M1, M5
        rev = np.zeros((gr.size, gr.slots), np.int8)
        shut = (a.walled == WALLED) | ((a.walled == DOOR) & (doors == "closed"))  # (a wall lies both ways round)
        opens = (a.walled == DOOR) & (doors == "ends_move")
        for k in range(gr.slots):
            u = a.nbr[:, k]  # the neighbour the step starts from, and the slot it steps through
            back = (k + gr.slots // 2) % gr.slots
            i = np.maximum(u, 0)
            dl = level - level[i]
            never = (u < 0) | ~walkable | ~walkable[i] | (np.abs(dl) > 1) | shut[:, k]  # M12: one level at a time
            climb = (dl != 0) & ~(a.stairs | a.stairs[i])  # M12: a climb, not a stair
            slow = a.hard[i, back] | opens[:, k]
            rev[:, k] = np.where(never, 0, np.where(climb, CLIMB, np.where(slow, 2, 1)))  # M4
        gr.planning[doors] = rev
    return rev


def walk_field(board: Board, diagonals: str, goal: XY, doors: str = "ends_move") -> Sequence[int]:
    """Squares of walking from every node (y * width + x) to `goal`, FAR where no walk leads there;
    `doors` is the rules' `door_opening` (how a closed door is walked through, core.walls)."""
    walks = board.cache.walks
    key = (diagonals, (goal[0], goal[1]), doors)
    field = walks.get(key)
    if field is None:
        gr = grid(board, diagonals)
        field = _ints(_lengths(gr.arrays.nbr, weights(gr, doors), gr.node(goal)))
        if len(walks) >= kept(board):
            walks.clear()
        walks[key] = field
    return field


def kept(board: Board) -> int:
    """How many walking-distance answers a table keeps for `board` (WALKS_KEPT, WALKS_BYTES)."""
    return max(1, min(WALKS_KEPT, WALKS_BYTES // (4 * board.width * board.height)))


def _lengths(nbr: npt.NDArray[np.int32], rev: npt.NDArray[np.int8], goal: int) -> npt.NDArray[np.int32]:
    """The search, compiled where numba is installed (kernel.walk_lengths)."""
    from battlemat.core.movement import kernel  # noqa: PLC0415 - start-up time: numba is imported on the first walk

    return kernel.walk_lengths(nbr, rev, goal, FAR)


def _ints(a: npt.NDArray[np.int32]) -> Sequence[int]:
    """An answer as the planner reads it: indexing gives Python ints (4 bytes a square, no copy)."""
    return memoryview(a)  # type: ignore[arg-type]


def level_changes_near(board: Board, at: XY, r: int) -> bool:
    """Whether any square within r squares of `at` in x and y lies on another level than `at` (M12).
    Worked out for the whole board once per radius: where the highest and the lowest level in the
    window around a square differ (the window's extremes taken along rows, then along columns)."""
    windows = board.cache.level_windows
    varies = windows.get(r)
    if varies is None:
        edge = np.pad(np.asarray(board.level), r, mode="edge")  # squares off the map repeat the edge: no change
        rows = np.lib.stride_tricks.sliding_window_view(edge, 2 * r + 1, axis=1)
        hi = np.lib.stride_tricks.sliding_window_view(rows.max(axis=-1), 2 * r + 1, axis=0).max(axis=-1)
        lo = np.lib.stride_tricks.sliding_window_view(rows.min(axis=-1), 2 * r + 1, axis=0).min(axis=-1)
        varies = windows[r] = (hi != lo).tolist()
    return bool(varies[at[1]][at[0]])
