"""The named values of the movement queries (STYLE 4): who moves, what stands in the way, and answers.

`Reach` is every square a mover can end on with its cost and route, and for the other squares near
it the reason it cannot; `Route` is one plan's steps and where and why it stopped. Refusals carry
the rule ID and plain words. The AI, the resolver and the UI make these for every query, and the
reach memo hashes some: named tuples are made, hashed and compared in C.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from battlemat.core.board import Hazard
from battlemat.core.types import XY, CharId


class Refusal(NamedTuple):
    """Why a square cannot be reached or a plan stopped: the rule ID and plain words."""

    rule: str
    why: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.why}"


class Step(NamedTuple):
    """One move on a route: the square entered, the cost so far, squares jumped over (M5)."""

    to: XY
    cost: int
    over: tuple[XY, ...] = ()
    diagonal: bool = False


class Route(NamedTuple):
    """Where a plan goes: its steps and cost, and where and why it stopped short (if it did)."""

    origin: XY
    steps: tuple[Step, ...]
    stopped: Refusal | None = None  # why the plan stopped before its end
    stopped_at: XY | None = None

    @property
    def end(self) -> XY:
        return self.steps[-1].to if self.steps else self.origin

    @property
    def cost(self) -> int:
        return self.steps[-1].cost if self.steps else 0

    @property
    def squares(self) -> tuple[XY, ...]:
        return tuple(s.to for s in self.steps)

    @property
    def jumps(self) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.over)


class Mover(NamedTuple):
    """Who moves and with what: the mover's side of a query."""

    who: CharId
    name: str
    use: str  # the skill half used this turn (its rules data says how it moves)
    at: XY
    allowance: int
    jump_rating: int = 0  # effective Acrobatics/Climb rating, for jumps (M5)
    target: XY | None = None  # Press charges it (M7), Provoke holds its ground against it (M8)
    target_name: str = ""


class Occupant(NamedTuple):
    name: str
    friend: bool  # allies pass through each other, enemies do not (M10)


class StickyFoe(NamedTuple):
    at: XY
    name: str
    use: str  # a sticky half such as Melee or Wrestle (M6)


NOBODY: Mapping[XY, Occupant] = MappingProxyType({})
NO_HAZARDS: Mapping[XY, Hazard] = MappingProxyType({})


class Context(NamedTuple):
    """This turn's facts around a mover: who stands where (other than the mover) and the sticky
    enemies (M6, M10). Built by `movement.context`."""

    occupants: Mapping[XY, Occupant] = NOBODY
    sticky: tuple[StickyFoe, ...] = ()


class Reach(NamedTuple):
    """Every square the mover can end on, with cost and route; for the other squares within
    allowance + 2, the reason it cannot (rule ID and words)."""

    mover: Mover
    allowance: int
    costs: Mapping[XY, int]
    routes: Mapping[XY, tuple[Step, ...]]
    refused: Mapping[XY, Refusal]
    hazards: Mapping[XY, Hazard] = NO_HAZARDS

    @property
    def reachable(self) -> Mapping[XY, int]:
        return self.costs

    def can_end(self, sq: XY) -> bool:
        return sq in self.costs

    def route_to(self, sq: XY) -> Route:
        if sq not in self.costs:
            return Route(self.mover.at, (), self.why_not(sq), self.mover.at)
        return Route(self.mover.at, self.routes[sq])

    def why_not(self, sq: XY) -> Refusal:
        return self.refused.get(sq, beyond(self.allowance))


# -- the refusals, in the rules' words -------------------------------------------------------------
BLOCKED = Refusal("M1", "blocked (wall)")
PIT = Refusal("M5", "pit: jump it with Acrobatics (M5)")
LEVEL = Refusal("M12", "needs stairs or Climb to change level (M12)")
LEVEL_CLIMB = Refusal("M12", "one level at a time (M12)")
ENDS_DIFFICULT = Refusal("M4", "difficult terrain ends the move (M4)")
ENDS_CLIMB = Refusal("M12", "a Climb step up or down ends the move (M12)")
ENDS_DOOR = Refusal("M4", "opening a door ends the move (M4, house: door_opening)")


def walled(words: str, door: bool) -> Refusal:
    """Why a step across a wall or a door that will not open is refused: `words` are
    geometry.barrier_words ("wall between (4, 5) and (5, 5)"). A wall or a locked door: M1; a closed
    door where only the game master opens doors: M4's house switch."""
    if door:
        return Refusal("M4", f"{words}: only the game master opens doors (M4, house: door_opening = closed)")
    return Refusal("M1", f"{words} (M1)")


def beyond(allowance: int) -> Refusal:
    return Refusal("M1", f"beyond the allowance of {allowance} squares (M1)")


def occupied(name: str) -> Refusal:
    return Refusal("M10", f"occupied by {name} (M10)")


def sticky_refusal(foe: StickyFoe) -> Refusal:
    """Why a step out of `foe`'s reach is refused (M6)."""
    return Refusal("M6", f"{foe.name} uses {foe.use}: sticky (M6)")


def toward(target_name: str) -> Refusal:
    return Refusal("M8", f"Provoke may not move toward {target_name} (M8)")


def off_line(target_name: str) -> Refusal:
    return Refusal("M7", f"Press charges {target_name}: straight line only (M7)")


def needs_running_start(n: int) -> Refusal:
    return Refusal("M5", f"needs a running start to jump {n} square{'s' if n != 1 else ''} (M5)")
