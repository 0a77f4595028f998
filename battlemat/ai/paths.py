"""Walking distances for planning beyond this turn: how many squares from each square to a goal,
over the board's movement graph with its levels and stairs (M12), walls and pits (M1, M5) and
difficult ground counted double (M4 ends a move). Climbing one level without stairs counts as a
whole turn's move (CLIMB: a Climb step ends the move, M12). Cached per board and goal square:
terrain never changes during a match, and simulated combats ask the same questions again and again.
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from battlemat.core import movement
from battlemat.core.perboard import PerBoard
from battlemat.types import XY

_FIELDS: PerBoard[dict[tuple[str, XY], list[int]]] = PerBoard()
_LEVELS: PerBoard[dict[int, Any]] = PerBoard()
_REVERSE: PerBoard[dict[str, list[list[tuple[int, int]]]]] = PerBoard()
FAR = 1 << 20
CLIMB = 3  # a Climb step up or down one level ends the move (M12): about a turn's walking


def _reverse(gr: movement.Grid) -> list[list[tuple[int, int]]]:
    """For each square, the squares one legal walking step away from it, with the step's cost."""
    per = _REVERSE.setdefault(gr.board, dict)
    rev = per.get(gr.diagonals)
    if rev is None:
        rev = [[] for _ in range(len(gr.edges))]
        for u, out in enumerate(gr.edges):
            if gr.blocked[u] or gr.pit[u]:
                continue
            for _k, j, _diag, hard, free, dl in out:
                if not free or abs(dl) > 1:
                    continue
                if dl and not (gr.stairs[j] or gr.stairs[u]):
                    rev[j].append((u, CLIMB))
                    continue
                rev[j].append((u, 2 if hard else 1))
        per[gr.diagonals] = rev
    return rev


def walk_field(board: Any, diagonals: str, goal: XY) -> list[int]:
    """Squares of walking from every node to `goal` (FAR where it cannot be walked to)."""
    per = _FIELDS.setdefault(board, dict)
    key = (diagonals, goal)
    field = per.get(key)
    if field is not None:
        return field
    gr = movement.grid(board, diagonals)
    rev = _reverse(gr)
    field = [FAR] * len(gr.edges)
    g = gr.node(goal)
    field[g] = 0
    heap = [(0, g)]
    while heap:
        d, j = heapq.heappop(heap)
        if d > field[j]:
            continue
        for u, c in rev[j]:
            nd = d + c
            if nd < field[u]:
                field[u] = nd
                heapq.heappush(heap, (nd, u))
    if len(per) > 4096:
        per.clear()
    per[key] = field
    return field


def walk(board: Any, diagonals: str, frm: XY, goal: XY) -> int:
    gr = movement.grid(board, diagonals)
    return walk_field(board, diagonals, goal)[gr.node(frm)]


def level_changes_near(board: Any, at: XY, r: int) -> bool:
    """Whether any square within r squares of `at` in x and y lies on another level than `at` (M12).
    Worked out for the whole board once per radius: where the highest and the lowest level in the
    window around a square differ."""
    per = _LEVELS.setdefault(board, dict)
    varies = per.get(r)
    if varies is None:
        level = np.asarray(board.level)
        edge = np.pad(level, r, mode="edge")  # squares off the map repeat the edge: no change
        windows = np.lib.stride_tricks.sliding_window_view(edge, (2 * r + 1, 2 * r + 1))
        varies = per[r] = (windows.max(axis=(2, 3)) != windows.min(axis=(2, 3))).tolist()
    return bool(varies[at[1]][at[0]])
