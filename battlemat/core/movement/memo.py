"""The reach memo (a speed device): one grid's remembered `reach` answers, their key and when they go.

Answers are values, so a question asked again gets the same object back: the AI's plan, the
resolver's check of the same intent and the UI's preview ask the same question about the same turn,
and a batch of combats asks its first turns' questions again and again. What decides an answer is
declared once, in `ReachKey`, and built by one function, `ReachMemo.key`:
- the mover, as far as the rules tell movers apart (its square and allowance; M5 jumps with their
  lengths, M6 sticky zones, M7 a Press charge's target, M8 Provoke's target, M12 Climb). Who moves
  does not matter, so Block and Dodge from one square share an answer, and neither minds sticky zones;
- who stands within reach of the move: an occupant or a sticky foe farther than allowance + 2
  squares in x or y cannot change the answer (a step moves at most one square each way, on hex maps
  too; a jump one more), and the mover's own square never counts (M10).

Measured on bench_sim's encounter (art gallery, combats 400-800 of a batch): 8192 answers kept with a
second chance for those asked for again search 16.5 times a combat; the first 2048 in, first out,
25.8 times. An answer is about 5 KB, so a full memo holds about 40 MB.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from battlemat.core import uses
from battlemat.core.movement.results import Context, Mover, Occupant, Reach, StickyFoe
from battlemat.core.rules import Rules
from battlemat.core.types import XY

MEMO_SIZE = 8192  # answers kept per grid
NEAR_SIZE = 256  # looks at who stands near a square, kept per grid (one turn's worth)
_ALONE = Context()


class ReachKey(NamedTuple):
    """What decides a reach answer (see the module's docstring)."""

    like: tuple[object, ...]  # the mover as the rules tell movers apart (hashable parts)
    near: tuple[tuple[XY, Occupant], ...]  # who stands within reach of the move, by square
    held: tuple[StickyFoe, ...]  # the sticky foes within reach of the move (none for Block, Dodge, Escape)


class ReachMemo:
    """At most `size` answers, oldest first. When full, the oldest answer nobody asked for again since
    it was last looked at goes; one asked for again goes to the back of the queue instead, once
    ("second chance": nearly least-recently-used, without moving an answer on every look-up, which
    would hash its key again)."""

    __slots__ = ("size", "_answers", "_asked", "_near", "doors")

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.size = size
        self._answers: OrderedDict[ReachKey, Reach] = OrderedDict()
        self._asked: set[int] = set()  # ids of the answers asked for again
        # who stands near a square: (id of the occupants, square, radius) -> (occupants, near)
        self._near: dict[tuple[int, XY, int], tuple[Mapping[XY, Occupant], tuple[tuple[XY, Occupant], ...]]] = {}
        self.doors = False  # the grid's board has doors: how they open (M4 house `door_opening`) is part of a key

    def __len__(self) -> int:
        return len(self._answers)

    def key(self, rules: Rules, mover: Mover, ctx: Context | None) -> ReachKey:
        """The one builder of a ReachKey. Who stands near a square is the same for every question
        about that square in one turn, so it is kept by the occupants' identity when those are
        read-only (movement.context makes them so; a plain dict may change under the same id)."""
        occupants, sticky = ctx or _ALONE
        here, A = mover.at, mover.allowance
        x0, y0 = here
        r = A + 2 + (1 if mover.jump_rating else 0)
        shared = type(occupants) is MappingProxyType
        looked = self._near.get((id(occupants), here, r)) if shared else None
        if looked is not None and looked[0] is occupants:
            near = looked[1]
        else:
            found = []
            for sq, o in occupants.items():  # (a loop: a comprehension is a call of its own)
                if -r <= sq[0] - x0 <= r and -r <= sq[1] - y0 <= r and sq != here:
                    found.append((sq, o))
            if len(found) > 1:
                found.sort()
            near = tuple(found)
            if shared:
                if len(self._near) >= NEAR_SIZE:
                    self._near.clear()
                self._near[id(occupants), here, r] = (occupants, near)  # (holding it keeps its id from being reused)
        half = rules.halves[mover.use]
        if half.unstuck:
            free: tuple[object, ...] = ("free", here, A)
            if self.doors:
                free += (rules.switch_str("door_opening"),)
            return ReachKey(free, near, ())  # M6: sticky zones do not hold them
        held: tuple[StickyFoe, ...] = ()
        for f in sticky:
            if -r <= f.at[0] - x0 <= r and -r <= f.at[1] - y0 <= r:
                held += (f,)
        if half.jumps and mover.jump_rating > 0:  # M5
            like: tuple[object, ...] = ("jump", here, A, mover.jump_rating,
                                        rules.switch_float("jump_running_m_per_rating"),
                                        rules.switch_float("jump_standing_m_per_rating"))
        elif uses.aims_at_target(rules, mover.use) and mover.target is not None:  # M7, M8
            like = (mover.use, here, A, mover.target, mover.target_name)
        else:
            like = ("climb" if half.climbs else "", here, A)  # M12
        if self.doors:
            like += (rules.switch_str("door_opening"),)
        return ReachKey(like, near, held)

    def lookup(self, rules: Rules, mover: Mover, ctx: Context | None) -> tuple[ReachKey, Reach | None]:
        """The question's key, and the answer remembered for it (None: search it, then `put` it)."""
        key = self.key(rules, mover, ctx)
        hit = self._answers.get(key)
        if hit is not None:
            self._asked.add(id(hit))  # asked for again: kept a while longer
        return key, hit

    def put(self, key: ReachKey, answer: Reach) -> None:
        if len(self._answers) >= self.size:
            self._make_room()
        self._answers[key] = answer

    def _make_room(self) -> None:
        while True:
            key, old = self._answers.popitem(last=False)
            if id(old) not in self._asked:
                return
            self._asked.discard(id(old))
            self._answers[key] = old

    def clear(self) -> None:
        self._answers.clear()
        self._asked.clear()
        self._near.clear()
