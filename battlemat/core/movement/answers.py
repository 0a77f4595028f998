"""From a search to a `Reach`: costs at once; routes, refusals and a charge's square when asked for.

The resolver and the AI only need the reachable squares; the UI and `battlemat reach` the rest, so
routes and the refusal of every square within allowance + 2 are worked out from the search's logs
the first time someone reads them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar, overload

from battlemat.core import geometry
from battlemat.core.board import Hazard
from battlemat.core.movement.found import EndedLog, Found, Occupants, RefusalLog
from battlemat.core.movement.grid import Grid
from battlemat.core.movement.results import (
    BLOCKED,
    NO_HAZARDS,
    PIT,
    Mover,
    Occupant,
    Reach,
    Refusal,
    Step,
    StickyFoe,
    beyond,
    occupied,
    off_line,
)
from battlemat.core.movement.search import find
from battlemat.core.movement.step import ENDS, PRIO_ENDS, kind
from battlemat.core.rules import Rules
from battlemat.core.types import XY


def answer(gr: Grid, rules: Rules, mover: Mover, occupants: Occupants, sticky: tuple[StickyFoe, ...]) -> Reach:
    """Search, and wrap what was found as a Reach."""
    how = kind(rules, mover)
    found = find(gr, rules, mover, occupants, sticky, how)
    w = gr.board.width
    charge = None
    if how.press:  # M7: one square only, the charge's (the others' costs are never read)
        charge = _charge(gr, mover, found)
        costs = {gr.sq(charge[0]): found.costs[found.nodes.index(charge[0])]}
    else:
        costs = {(u % w, u // w): c for u, c in zip(found.nodes, found.costs, strict=True)}
    routes: Mapping[XY, tuple[Step, ...]] = _Routes(costs, found, w)
    hazards = _hazards(gr, costs) if gr.board.hazards else NO_HAZARDS
    return Reach(mover, mover.allowance, MappingProxyType(costs), routes,
                 _Refusals(gr, mover, costs, occupants, found, charge), hazards)


def _hazards(gr: Grid, costs: Mapping[XY, int]) -> Mapping[XY, Hazard]:
    """The hazards (E1) on the squares a move can end on."""
    board = gr.board
    spots = {}
    for sq in costs:
        h = board.hazard[sq[1], sq[0]]
        if h >= 0:
            spots[sq] = board.hazards[int(h)]
    return MappingProxyType(spots)


def _charge(gr: Grid, mover: Mover, found: Found) -> tuple[int, Refusal]:
    """M7: Press takes the shortest path to a square next to its target, the one closest to the
    straight line between centres; failing that, the reachable square nearest the target.
    Returns the square's node, and the refusal of every other square the search found."""
    assert mover.target is not None
    t = mover.target
    nodes, costs, devs = found.nodes, found.costs, found.devs()
    beside = gr.zone(t)  # the squares next to the target
    start = gr.node(mover.at)
    near = [(c, dv, u) for u, c, dv in zip(nodes, costs, devs, strict=True) if u in beside]
    if start in beside and start in nodes:
        end = start
    elif near:
        end = min(near)[2]
    else:
        board, d, sq = gr.board, gr.diagonals, gr.sq
        end = min((geometry.distance(board, sq(u), t, d), c, dv, u)
                  for u, c, dv in zip(nodes, costs, devs, strict=True))[3]
    return end, off_line(mover.target_name)


def settle(gr: Grid, rlog: RefusalLog, ended_log: EndedLog) -> dict[int, tuple[int, Refusal]]:
    """The strongest reason logged for each square (lower priority number wins, first one on ties);
    the neighbours of a square where a move ended are refused by that ending (M4, M12)."""
    refused: dict[int, tuple[int, Refusal]] = {}
    nbr, slots = gr.nbr, gr.slots
    rlog = rlog + [(j, PRIO_ENDS, ENDS[ends]) for u, ends in ended_log for j in nbr[u * slots:(u + 1) * slots]
                   if j >= 0]
    for j, prio, why in rlog:
        old = refused.get(j)
        if old is None or prio < old[0]:
            refused[j] = (prio, why)
    return refused


class _Routes(Mapping[XY, tuple[Step, ...]]):
    """Routes of a Reach, rebuilt from the search's links when first asked for."""

    __slots__ = ("_squares", "_found", "_width", "_done")

    def __init__(self, squares: Mapping[XY, int], found: Found, width: int) -> None:
        self._squares = squares  # in the order found, as found.nodes
        self._found, self._width = found, width
        self._done: dict[XY, tuple[Step, ...]] | None = None

    def __getitem__(self, sq: XY) -> tuple[Step, ...]:
        if self._done is None:
            self._done = {}
        done = self._done.get(sq)
        if done is None:
            if sq not in self._squares:
                raise KeyError(sq)
            done = self._done[sq] = self._found.route(self._found.nodes.index(sq[1] * self._width + sq[0]))
        return done

    def __iter__(self) -> Iterator[XY]:
        return iter(self._squares)

    def __len__(self) -> int:
        return len(self._squares)

    def __contains__(self, sq: object) -> bool:
        return sq in self._squares


def _cut_off(gr: Grid, mover: Mover, sq: XY, occupants: Mapping[XY, Occupant],
             refused: dict[int, tuple[int, Refusal]]) -> Refusal:
    """Why a square within the allowance by distance was not reached: the first thing barring the
    straight way there (a pit M5, a wall square or a wall between squares M1, someone standing M10,
    a refused step), with no way round
    within the allowance; M1 when the straight way is open but every way is too long."""
    w, h = gr.board.width, gr.board.height
    way = geometry.line(gr.board, mover.at, sq)
    for i, (x, y) in enumerate(way[1:], 1):
        if not (0 <= x < w and 0 <= y < h):  # (a hex line may graze a square off the board's edge)
            continue
        if gr.board.barriers:
            hit = geometry.barrier_between(gr.board, way[i - 1], (x, y))
            door = hit[1] if hit is not None else None
            if hit is not None and (door is None or door.state == "locked"):  # (a closed door's refusal is logged)
                words = geometry.barrier_words(gr.board, way[i - 1], (x, y))
                return Refusal("M1", f"the way is cut: {words}, and there is no way round within "
                                     f"{mover.allowance} squares (M1)")
        if i == len(way) - 1:
            break
        j = y * w + x
        if gr.pit[j]:
            return Refusal("M5", f"the way is cut by a pit at ({x}, {y}), never entered (M5), and there is "
                                 f"no way round within {mover.allowance} squares")
        if gr.blocked[j]:
            return Refusal("M1", f"a wall at ({x}, {y}) bars the way, and there is no way round within "
                                 f"{mover.allowance} squares (M1)")
        if (x, y) in occupants and (x, y) != mover.at:
            return Refusal("M10", f"{occupants[x, y].name} at ({x}, {y}) bars the way (M10), and there is no way "
                                  f"round within {mover.allowance} squares")
        if j in refused:
            rule, why = refused[j][1]
            return Refusal(rule, f"the way is cut at ({x}, {y}): {why}")
    return Refusal("M1", f"no way there within the allowance of {mover.allowance} squares (M1)")


if TYPE_CHECKING:  # a name for mypy only
    # what _Refusals needs to work its answer out when first asked: the search's grid, mover, costs,
    # occupants, answer (Found) and a Press charge's square with the others' refusal
    _Pending = tuple[Grid, Mover, Mapping[XY, int], Occupants, Found, tuple[int, Refusal] | None]
_T = TypeVar("_T")


class _Refusals(Mapping[XY, Refusal]):
    """Why each square within allowance + 2 cannot be reached, worked out when first asked for.
    `charge` is a Press charge's square and the refusal of the others it found (M7)."""

    __slots__ = ("_args", "_out")

    def __init__(self, gr: Grid, mover: Mover, costs: Mapping[XY, int], occupants: Occupants, found: Found,
                 charge: tuple[int, Refusal] | None) -> None:
        self._args: _Pending | None = (gr, mover, costs, occupants, found, charge)
        self._out: dict[XY, Refusal] = {}

    def _all(self) -> dict[XY, Refusal]:
        if self._args is not None:
            gr, mover, costs, occupants, found, charge = self._args
            self._args = None
            rlog, ended_log = found.log()
            if charge is not None:  # M7: every other square the search found is off the charge's line
                keep, off = charge
                rlog = rlog + [(j, -1, off) for j in found.nodes if j != keep]
            self._fill(gr, mover, costs, dict(occupants), settle(gr, rlog, ended_log))
        return self._out

    def _fill(self, gr: Grid, mover: Mover, costs: Mapping[XY, int], occupants: Mapping[XY, Occupant],
              refused: dict[int, tuple[int, Refusal]]) -> None:
        far = beyond(mover.allowance)
        here = mover.at
        x0, y0 = here
        w, h = gr.board.width, gr.board.height
        for dx, dy in gr.ring(here, mover.allowance + 2):
            x, y = x0 + dx, y0 + dy
            if not (0 <= x < w and 0 <= y < h) or (x, y) in costs:
                continue
            j = y * w + x
            if gr.blocked[j]:
                why = BLOCKED
            elif gr.pit[j]:
                why = PIT
            elif (x, y) in occupants and (x, y) != here:
                why = occupied(occupants[x, y].name)
            elif j in refused:
                why = refused[j][1]
            elif geometry.distance(gr.board, here, (x, y), gr.diagonals) <= mover.allowance:
                why = _cut_off(gr, mover, (x, y), occupants, refused)
            else:
                why = far
            self._out[(x, y)] = why

    def __getitem__(self, sq: XY) -> Refusal:
        return self._all()[sq]

    def __iter__(self) -> Iterator[XY]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __contains__(self, sq: object) -> bool:
        return sq in self._all()

    @overload
    def get(self, sq: XY, /) -> Refusal | None: ...

    @overload
    def get(self, sq: XY, /, default: Refusal | _T) -> Refusal | _T: ...

    def get(self, sq: XY, /, default: object = None) -> object:
        return self._all().get(sq, default)
