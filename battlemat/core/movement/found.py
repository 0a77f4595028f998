"""A reach search's question and answer, as both searches take and give them (the reference in
search.py, the compiled kernel in kernel.py).

`Query`: a mover among occupants (M10) and sticky foes (M6), and how it moves (step.Kind).
`Found`: the squares a move can end on in the order found (`nodes`, with their `costs`), and,
worked out only when asked for, their deviations from a charge's line (M7), the route to the i-th
of them, and the refusal log (why each square near the mover was refused; `answers.settle` keeps
the strongest reason for each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from battlemat.core.movement.grid import Grid
from battlemat.core.movement.results import Mover, Occupant, Refusal, Step, StickyFoe
from battlemat.core.movement.step import Kind
from battlemat.core.types import XY

Occupants = Sequence[tuple[XY, Occupant]]  # (square, occupant) pairs
RefusalLog = list[tuple[int, int, Refusal]]  # (node, priority, refusal), in the order met
EndedLog = list[tuple[int, int]]  # (node, ends code): a move ended there, so its neighbours are refused (M4, M12)


class Query(NamedTuple):
    """One search."""

    mover: Mover
    occupants: Occupants  # who stands near the mover
    sticky: tuple[StickyFoe, ...]  # the sticky foes among them whose zones hold this mover (none if unstuck)
    how: Kind
    grid: Grid  # the grid searched (for the words of a wall's refusal)
    doors: str = "ends_move"  # how closed doors are crossed: the rules' `door_opening` (core.walls)


class Found:
    __slots__ = ()
    nodes: list[int]
    costs: list[int]

    def devs(self) -> list[float]:
        raise NotImplementedError

    def route(self, i: int) -> tuple[Step, ...]:
        raise NotImplementedError

    def log(self) -> tuple[RefusalLog, EndedLog]:
        raise NotImplementedError


class FastSearch(Protocol):
    """The compiled search of one grid (kernel.Tables, kept in `Grid.fast`), as the grid and the searches
    see it without importing the kernel (and numba with it): None when it cannot run a query."""

    def search(self, q: Query) -> Found | None: ...
