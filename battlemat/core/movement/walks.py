"""Walking distances over several turns, for planning (the AI): how many squares from each square to a goal.

A query of the movement graph (grid.py) with networkx's Dijkstra, from the goal over the reversed
graph, with the rules' walking weights: a step costs 1, entering difficult ground 2 (M4 ends a
move there), and changing level without stairs CLIMB (a Climb step ends the move, M12: about a
turn's walking); walls and pits are never walked (M1, M5), nor more than one level at once. Terrain
never changes, so each answer is kept in the board's cache (`Board.cache.walks`) for as long as
the board lives.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from battlemat.core.board import Board
from battlemat.core.movement.grid import Grid, grid
from battlemat.types import XY

FAR = 1 << 20  # no walk leads there
CLIMB = 3  # a Climb step up or down one level ends the move (M12): about a turn's walking
WALKS_KEPT = 4096  # answers per board; the table starts over when full


def walking_weight(gr: Grid, u: int, j: int, k: int) -> int | None:
    """The planner's cost of stepping from node u to its neighbour j in slot k, None if never walked."""
    if gr.blocked[u] or gr.pit[u] or gr.blocked[j] or gr.pit[j]:
        return None
    dl = gr.level[j] - gr.level[u]
    if abs(dl) > 1:
        return None
    if dl and not (gr.stairs[j] or gr.stairs[u]):
        return CLIMB  # M12: a climb, not a stair
    return 2 if gr.hard[u][k] else 1  # M4


def reversed_walks(gr: Grid) -> nx.DiGraph:
    """The walkable steps of a grid reversed (an edge j -> u for each step u -> j), by node, with
    their walking weights: a search from a goal over it finds the walk from every square to the goal.
    Built once per grid."""
    rev: nx.DiGraph | None = gr.planning
    if rev is None:
        rev = nx.DiGraph()
        rev.add_nodes_from(range(len(gr.nbr)))
        rev.add_weighted_edges_from(
            (j, u, w) for u, row in enumerate(gr.nbr) for k, j in enumerate(row)
            if j >= 0 and (w := walking_weight(gr, u, j, k)) is not None
        )
        gr.planning = rev
    return rev


def walk_field(board: Board, diagonals: str, goal: XY) -> list[int]:
    """Squares of walking from every node (y * width + x) to `goal`, FAR where no walk leads there."""
    walks = board.cache.walks
    key = (diagonals, (goal[0], goal[1]))
    field = walks.get(key)
    if field is None:
        gr = grid(board, diagonals)
        field = [FAR] * len(gr.nbr)
        for node, d in nx.single_source_dijkstra_path_length(reversed_walks(gr), gr.node(goal)).items():
            field[node] = int(d)
        if len(walks) >= WALKS_KEPT:
            walks.clear()
        walks[key] = field
    return field


def level_changes_near(board: Board, at: XY, r: int) -> bool:
    """Whether any square within r squares of `at` in x and y lies on another level than `at` (M12).
    Worked out for the whole board once per radius: where the highest and the lowest level in the
    window around a square differ."""
    windows = board.cache.level_windows
    varies: Any = windows.get(r)
    if varies is None:
        level = np.asarray(board.level)
        edge = np.pad(level, r, mode="edge")  # squares off the map repeat the edge: no change
        view = np.lib.stride_tricks.sliding_window_view(edge, (2 * r + 1, 2 * r + 1))
        varies = windows[r] = (view.max(axis=(2, 3)) != view.min(axis=(2, 3))).tolist()
    return bool(varies[at[1]][at[0]])
