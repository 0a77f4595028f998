"""The rules of one step and one jump: the single definition every move on the board goes through.

`StepRules` is one mover in one turn's context over a grid. `step(u, k)` says whether the mover may
step from node u through slot k, and if so whether that step ends its move; `jumps(u, k, lastk)`
lists the straight jumps from u (M5); `cost` counts a step (M11); `leave` is what holds a mover in
place (M6 sticky foes, M8 Provoke). The reference search (`search.py`) and `follow` are built on
these; the compiled search (`kernel.py`) mirrors `step` over flat arrays and is tested against the
reference on random boards (tests/test_kernel.py). How a skill moves is the rules data's
(`Half.jumps`, `climbs`, `charges`, `holds_ground`, `unstuck`), never a skill's name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from battlemat.core import geometry
from battlemat.core.board import Board
from battlemat.core.movement.grid import DOOR, WALLED, Grid
from battlemat.core.movement.results import (
    BLOCKED,
    ENDS_CLIMB,
    ENDS_DIFFICULT,
    ENDS_DOOR,
    LEVEL,
    LEVEL_CLIMB,
    PIT,
    Context,
    Mover,
    Occupant,
    Refusal,
    StickyFoe,
    needs_running_start,
    occupied,
    sticky_refusal,
    toward,
    walled,
)
from battlemat.core.rules import Rules

# How strongly a refusal explains a square, when several moves into it were refused: terrain first.
PRIO_TERRAIN, PRIO_RULE, PRIO_ENDS = 0, 1, 2
# Why a move stopped on a square: nothing, difficult terrain entered (M4), a Climb step (M12), a door
# opened (M4 house `door_opening` = ends_move).
GOES_ON, ENDS_M4, ENDS_M12, ENDS_OPENED = 0, 1, 2, 3
ENDS: Mapping[int, Refusal] = MappingProxyType({ENDS_M4: ENDS_DIFFICULT, ENDS_M12: ENDS_CLIMB, ENDS_OPENED: ENDS_DOOR})
# How closed doors are crossed (the rules' `door_opening`), as the kernel's query carries it.
DOOR_MODES = ("ends_move", "free", "closed")


def wall_refusal(gr: Grid, u: int, j: int, code: int) -> Refusal:
    """Why the step from node u to j is refused by what lies between (`walled` code WALLED or DOOR)."""
    return walled(geometry.barrier_words(gr.board, gr.sq(u), gr.sq(j)), code == DOOR)


class Verdict(NamedTuple):
    """The rules' answer for one step: the square entered, why not (None: allowed, `prio` says how
    strongly the refusal explains the square), and whether the step ends the move (`ends`)."""

    to: int
    refusal: Refusal | None
    prio: int
    ends: int


class Jump(NamedTuple):
    """A straight jump (M5): where it lands, the squares it crosses, and why not (None: allowed)."""

    land: int
    crossed: tuple[int, ...]
    refusal: Refusal | None


class Kind(NamedTuple):
    """How a mover moves this turn, from the rules data of the half it uses."""

    unstuck: bool  # M6: sticky foes do not hold it (Block, Dodge, Escape)
    climb: bool  # M12: steps one level up or down, which ends the move (Climb)
    jumper: bool  # M5: jumps pits and difficult squares (Acrobatics, with a rating to jump with)
    press: bool  # M7: charges its target in a straight line (Press)
    provoke: bool  # M8: may not move toward its target (Provoke)


# Every Kind there can be, by its bits (unstuck 16, climb 8, jumper 4, press 2, provoke 1): made once,
# as a search is asked for thousands of times a combat.
_KINDS = tuple(Kind(bool(i & 16), bool(i & 8), bool(i & 4), bool(i & 2), bool(i & 1)) for i in range(32))


def kind(rules: Rules, mover: Mover) -> Kind:
    half = rules.halves[mover.use]
    aimed = mover.target is not None
    return _KINDS[16 * half.unstuck + 8 * half.climbs + 4 * (half.jumps and mover.jump_rating > 0)
                  + 2 * (half.charges and aimed) + (half.holds_ground and aimed)]


def charge_line(board: Board, mover: Mover) -> tuple[float, float, float, float, float]:
    """M7: the straight line from the mover's centre to its target's (ax, ay, bx, by, length)."""
    assert mover.target is not None
    (ax, ay), (bx, by) = geometry.centre(board, mover.at), geometry.centre(board, mover.target)
    return ax, ay, bx, by, math.hypot(bx - ax, by - ay) or 1.0


OFF_MAP = -1  # the node a step off the map's edge goes to (C5): no square's neighbour, no zone's member


class StepRules:
    """One mover's rules of movement this turn, over a grid."""

    def __init__(self, gr: Grid, rules: Rules, mover: Mover, ctx: Context) -> None:
        self.gr, self.mover = gr, mover
        self.kind = how = kind(rules, mover)
        self.alternating = gr.diagonals == "alternating"
        w, h, here = gr.board.width, gr.board.height, mover.at
        # M10: who stands where, by node, on the board; the mover's own square never counts
        self.occ: dict[int, Occupant] = {sq[1] * w + sq[0]: o for sq, o in ctx.occupants.items()
                                         if 0 <= sq[0] < w and 0 <= sq[1] < h and sq != here}
        # M6: the squares next to each sticky foe, unless the mover may leave them anyway
        self.zones: list[tuple[frozenset[int], StickyFoe]] = []
        if not how.unstuck:
            self.zones = [(gr.zone(foe.at), foe) for foe in ctx.sticky]
        self.climb, self.jumper, self.press, self.provoke = how.climb, how.jumper, how.press, how.provoke
        self.doors = DOOR_MODES.index(rules.switch_str("door_opening"))  # (core.walls)
        self.run_m = self.stand_m = 0.0  # M5: how far it jumps with and without a running start
        if self.jumper:
            self.run_m = rules.switch_float("jump_running_m_per_rating") * mover.jump_rating
            self.stand_m = rules.switch_float("jump_standing_m_per_rating") * mover.jump_rating
        self._dev: dict[int, float] = {}
        self.a = self.b = (0.0, 0.0)
        self.length = 1.0  # of the line a Press charge follows (M7)
        if self.press:
            ax, ay, bx, by, self.length = charge_line(gr.board, mover)
            self.a, self.b = (ax, ay), (bx, by)

    def cost(self, diag: bool, par: int) -> tuple[int, int]:
        """M11: (cost of a step, diagonal parity after it). Alternating diagonals cost 1, 2, 1, ...;
        chebyshev and orthogonal steps 1; hex maps have no diagonals."""
        if not diag or not self.alternating:
            return 1, par
        return (1, 1) if par == 0 else (2, 0)

    def step(self, u: int, k: int) -> Verdict:
        """The rules of stepping from node u through slot k (a neighbour must be there)."""
        gr = self.gr
        uk = u * gr.slots + k
        j = gr.nbr[uk]
        if gr.blocked[j]:
            return Verdict(j, BLOCKED, PRIO_TERRAIN, GOES_ON)  # M1: nobody enters a wall
        if gr.pit[j]:
            return Verdict(j, PIT, PRIO_TERRAIN, GOES_ON)  # M5: pits are jumped, never entered
        wall = gr.walled[uk]
        if wall and (wall == WALLED or self.doors == 2):  # M1: a wall or locked door; a door nobody opens
            return Verdict(j, wall_refusal(gr, u, j, wall), PRIO_TERRAIN, GOES_ON)
        o = self.occ.get(j)
        if o is not None and not o.friend:
            return Verdict(j, occupied(o.name), PRIO_TERRAIN, GOES_ON)  # M10: enemies cannot be passed
        ends = ENDS_M4 if gr.hard[uk] else GOES_ON  # M4: entering difficult terrain ends the move
        dl = gr.level[j] - gr.level[u]
        if dl:
            if abs(dl) == 1 and (gr.stairs[j] or gr.stairs[u]):
                pass  # M12: stairs change level; their directional difficulty does the rest (M4)
            elif abs(dl) == 1 and self.climb:
                ends = ENDS_M12  # M12: a Climb step up or down ends the move
            else:
                return Verdict(j, LEVEL_CLIMB if self.climb else LEVEL, PRIO_RULE, GOES_ON)  # M12
        if wall and self.doors == 0:
            ends = ENDS_OPENED  # M4 house: opening a closed door ends the move
        bad = self.leave(u, j)
        if bad is not None:
            return Verdict(j, bad, PRIO_RULE, GOES_ON)
        return Verdict(j, None, PRIO_TERRAIN, ends)

    def leave(self, u: int, j: int) -> Refusal | None:
        """What holds the mover when it moves from u to j (a step or a jump; j `OFF_MAP`: a step off the
        map's edge, C5, out of every square's reach): M6, then M8."""
        for zone, foe in self.zones:
            if u in zone and j not in zone:
                return sticky_refusal(foe)  # M6: no move out of a sticky foe's reach
        if self.provoke and j != OFF_MAP:  # (off the map is away from everyone)
            assert self.mover.target is not None
            gr, t = self.gr, self.mover.target
            board, d = gr.board, gr.diagonals
            if geometry.distance(board, gr.sq(j), t, d) < geometry.distance(board, gr.sq(u), t, d):
                return toward(self.mover.target_name)  # M8: no move toward the provoked foe
        return None

    def jumps(self, u: int, k: int, lastk: int) -> list[Jump]:
        """M5: straight jumps from u in slot k's direction over pits and squares difficult to enter
        on u's level, landing on the first enterable free square of that level beyond; a running
        jump (the step before went the same way) reaches farther than a standing one."""
        gr, slots = self.gr, self.gr.slots
        out: list[Jump] = []
        crossed: list[int] = []
        cur, level = u, gr.level[u]
        running = lastk == k
        while True:
            nxt = gr.nbr[cur * slots + k]
            if nxt < 0 or gr.blocked[nxt] or gr.level[nxt] != level or not (gr.pit[nxt] or gr.hard[cur * slots + k]):
                break  # only pits and difficult squares are jumped
            if gr.walled[cur * slots + k]:
                break  # M5: a jump never passes through a wall or a closed door
            crossed.append(nxt)
            land = gr.nbr[nxt * slots + k]
            if land < 0 or gr.walled[nxt * slots + k]:
                break
            cur = nxt
            if gr.blocked[land] or gr.pit[land] or gr.level[land] != level or land in self.occ:
                continue
            n = len(crossed)
            gap = n * (2.83 if gr.diag[u * slots + k] else 2.0)  # metres: squares of 2 m, diagonals 2.83 m
            if gap <= (self.run_m if running else self.stand_m):
                out.append(Jump(land, tuple(crossed), self.leave(u, land)))
            elif not running and gap <= self.run_m:
                out.append(Jump(land, tuple(crossed), needs_running_start(n)))
            else:
                break
        return out

    def jump_ends(self, jump: Jump, k: int) -> int:
        """M4: a jump ends the move when its landing is difficult to enter from the last square crossed."""
        return ENDS_M4 if self.gr.hard[jump.crossed[-1] * self.gr.slots + k] else GOES_ON

    def deviation(self, j: int) -> float:
        """M7: how far a square's centre lies from the charge's straight line (0 for any other move)."""
        if not self.press:
            return 0.0
        dev = self._dev.get(j)
        if dev is None:
            (ax, ay), (bx, by) = self.a, self.b
            px, py = geometry.centre(self.gr.board, self.gr.sq(j))
            dev = self._dev[j] = abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / self.length
        return dev
