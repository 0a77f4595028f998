"""Movement on the board: the movement graph and its two queries, `Reach` and `Route` (rules M1-M12).

The graph (networkx) is built once per Board and diagonal setting and cached per Board object
(STYLE 3). Its edges carry the step cost, a diagonal flag, the compass direction, the level change
and whether entering is difficult in that direction. Per-turn facts (occupied squares, sticky zones,
the mover's skill) never change the graph: they enter through `Context` and `Mover`, read by one
bounded search over arrays derived once from the graph (a bucket queue: step costs are small whole
numbers). Ties go to the first found and there is no time limit (STYLE 5); it only visits squares
within the allowance, so its cost does not grow with the map. The search runs compiled
(`kernel.bucket_search`, numba) for most moves; `_search` here is the reference it is tested
against, and serves jumps (M5) and Provoke (M8).

The UI preview, the `reach` command and the resolver all call `reach()` / `follow()` here.
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

import networkx as nx
import numpy as np

from battlemat.core import geometry, kernel
from battlemat.core.board import DIRECTIONS, Board, Hazard
from battlemat.core.encounter import memo_for
from battlemat.core.perboard import PerBoard
from battlemat.core.rules import Rules
from battlemat.types import XY, CharId

STICKY_EXEMPT = ("Block", "Dodge", "Escape")  # M6


# -- named results (STYLE 4) ------------------------------------------------------------------------
# The values below are made for every query and route, the AI's and the resolver's included, and
# the memo hashes some: named tuples are made, hashed and compared in C, frozen dataclasses in Python.
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
    """Who moves and with what: the mover's side of the weight function."""

    who: CharId
    name: str
    use: str
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
    use: str  # Melee or Wrestle (M6)


_NOBODY: Mapping[XY, Occupant] = MappingProxyType({})
_NO_HAZARDS: Mapping[XY, Hazard] = MappingProxyType({})


class Context(NamedTuple):
    """Per-turn facts: who stands where (other than the mover) and sticky enemies (M6, M10)."""

    occupants: Mapping[XY, Occupant] = _NOBODY
    sticky: tuple[StickyFoe, ...] = ()


class Reach(NamedTuple):
    """Every square the mover can end on, with cost and route; for the other squares within
    allowance + 2, the reason it cannot (rule ID and words)."""

    mover: Mover
    allowance: int
    costs: Mapping[XY, int]
    routes: Mapping[XY, tuple[Step, ...]]
    refused: Mapping[XY, Refusal]
    hazards: Mapping[XY, Hazard] = _NO_HAZARDS

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
        return self.refused.get(sq, Refusal("M1", f"beyond the allowance of {self.allowance} squares (M1)"))


_new_reach = tuple.__new__  # a named tuple's own __new__ parses its arguments in Python (Reach, Mover, Step)


# -- allowance (M1, M2, M3) -------------------------------------------------------------------------
def allowance(
    rules: Rules, char: Any, use: str, major: int = 0, item: str = "simple", moving_shot: bool = False
) -> int:
    """M1 by the skill used (Shoot 1 instead of 0 when it moves, at -1 to the shot); M2 adds
    ceil(Acrobatics talent / 2) to any allowance above 0; M3 takes 1 per major loss when the
    major-loss penalty is movement."""
    base = rules.allowance(use, item)
    if use == "Shoot" and moving_shot and base == 0:
        base = 1
    if base > 0:
        base += math.ceil(char.talent("Acrobatics/Climb") / 2)
    if rules.switch("major_loss_penalty") == "movement":
        base = max(0, base - major)
    return base


def match_allowance(enc: Any, char: Any, use: str, major: int, item: str = "simple", moving_shot: bool = False) -> int:
    """allowance() for a character of `enc`, remembered for the match (memo_for): the AI and the
    resolver ask it many times a turn."""
    memo, key = memo_for(enc), ("allowance", char.id, use, major, item, moving_shot)
    got = memo.get(key)
    if got is None:
        got = memo[key] = allowance(enc.rules, char, use, major, item, moving_shot)
    return got  # type: ignore[no-any-return]


# -- the graph, built once per board -----------------------------------------------------------------
@dataclass
class Grid:
    """The movement graph of one board and the flat arrays the bounded search reads."""

    board: Board
    diagonals: str
    graph: nx.DiGraph
    slots: int
    nbr: list[list[int]]  # node -> slot -> neighbour node or -1
    diag: list[list[bool]]
    bit: list[list[int]]  # node -> slot -> DIRECTIONS bit of travel
    hard: list[list[bool]]  # entering the neighbour in this direction is difficult (M4)
    blocked: list[bool]
    pit: list[bool]
    level: list[int]
    stairs: list[bool]
    hazard: list[int]
    # node -> ((slot, neighbour, diagonal, difficult, enterable, level change), ...): the hot loop's view
    edges: list[tuple[tuple[int, int, bool, bool, bool, int], ...]] = field(default_factory=list)
    # node -> the enterable edges among those that change level (M12): all a last step can log
    level_edges: list[tuple[tuple[int, int, bool, bool, bool, int], ...]] = field(default_factory=list)
    sqs: list[XY] = field(default_factory=list)  # node -> square
    _arrays: tuple[Any, ...] | None = None
    work: dict[int, tuple[Any, int, int]] = field(default_factory=dict)  # allowance -> kernel scratch and its layout
    # reach's answers, oldest first, and which of them were asked for again (by id: see _make_room)
    memo: OrderedDict[tuple[Any, ...], Reach] = field(default_factory=OrderedDict)
    asked: set[int] = field(default_factory=set)
    # reach's look at who stands near a square: (id of the occupants, square, radius) -> (occupants, near)
    near: dict[tuple[int, XY, int], tuple[Mapping[XY, Occupant], tuple[tuple[XY, Occupant], ...]]] = field(
        default_factory=dict)
    hexmap: bool = False

    rings: dict[tuple[int, int], tuple[tuple[int, int], ...]] = field(default_factory=dict)
    zones: dict[XY, frozenset[int]] = field(default_factory=dict)

    def arrays(self) -> tuple[Any, ...]:
        """The arrays of the compiled search (kernel.bucket_search): the packed step flags by (node,
        slot), and centres by node. Built on first use."""
        if self._arrays is None:
            n = len(self.nbr)
            sqs, level = self.sqs, self.level
            flags = [
                [(max(-2, min(2, level[j] - level[i])) << 9) + 256 + ((sqs[j][1] - sqs[i][1] + 1) << 6)
                 + ((sqs[j][0] - sqs[i][0] + 1) << 4) + 8 * (self.stairs[i] or self.stairs[j])
                 + 4 * (not (self.blocked[j] or self.pit[j]))
                 + 2 * self.hard[i][k] + self.diag[i][k] if j >= 0 else 0 for k, j in enumerate(row)]
                for i, row in enumerate(self.nbr)
            ]
            centres = [geometry.centre(self.board, self.sqs[i]) for i in range(n)]
            self._arrays = (
                np.array(flags, np.int16).reshape((n, self.slots)), np.array(centres, np.float64).reshape((n, 2)),
            )
        return self._arrays

    def ring(self, at: XY, r: int) -> tuple[tuple[int, int], ...]:
        """Offsets (dx, dy) within distance r of `at` (M11); cached per radius and row/column parity."""
        parity = (at[0] & 1) if self.board.stagger_axis == "x" else (at[1] & 1)
        key = (r, parity if geometry.is_hex(self.board) else 0)
        if key not in self.rings:
            probe = Board(4 * r + 4, 4 * r + 4, self.board.grid, self.board.stagger_axis, self.board.stagger_index)
            c = (2 * r + 2 + (at[0] & 1), 2 * r + 2 + (at[1] & 1))  # same parity as `at` (hex offsets)
            self.rings[key] = tuple(
                (dx, dy) for dy in range(-r - 1, r + 2) for dx in range(-r - 1, r + 2)
                if geometry.distance(probe, c, (c[0] + dx, c[1] + dy), self.diagonals) <= r
            )
        return self.rings[key]

    def zone(self, at: XY) -> frozenset[int]:
        """Nodes next to `at` (a sticky foe's reach, M6), cached per square."""
        z = self.zones.get(at)
        if z is None:
            z = self.zones[at] = frozenset(
                self.node(s) for s, _, _ in geometry.steps(self.board, at, "chebyshev")
                if geometry.adjacent(self.board, s, at)
            )
        return z

    def node(self, sq: XY) -> int:
        return sq[1] * self.board.width + sq[0]

    def sq(self, i: int) -> XY:
        return self.sqs[i]


_GRIDS: PerBoard[dict[str, Grid]] = PerBoard()


def build_graph(board: Board, diagonals: str = "alternating") -> nx.DiGraph:
    """Nodes are squares (hexes on hex maps); one directed edge per neighbour step with
    cost (1, or 1.5 on average for an alternating diagonal: M11), diagonal, dir, dlevel, difficult."""
    g = nx.DiGraph()
    w, h = board.width, board.height
    g.add_nodes_from((x, y) for y in range(h) for x in range(w))
    edges = []
    for y in range(h):
        for x in range(w):
            for slot, (n, diag, name) in enumerate(_slot_steps(board, (x, y), diagonals)):
                if n is None:
                    continue
                bit = DIRECTIONS[name]
                nx_, ny = n
                hard = bool(board.difficult[ny, nx_]) or bool(int(board.difficult_dirs[ny, nx_]) & bit)
                cost = 1.0 if not diag else (1.0 if diagonals == "chebyshev" else 1.5)
                edges.append(((x, y), n, {
                    "cost": cost, "diagonal": diag, "dir": name, "slot": slot, "difficult": hard,
                    "dlevel": int(board.level[ny, nx_]) - int(board.level[y, x]),
                }))
    g.add_edges_from(edges)
    return g


def _slot_steps(board: Board, sq: XY, diagonals: str) -> list[tuple[XY | None, bool, str]]:
    """Neighbours by fixed slot (a slot is one straight direction: jumps follow it, M5)."""
    if geometry.is_hex(board):
        c = geometry.to_cube(board, sq)
        here = geometry.centre(board, sq)
        out: list[tuple[XY | None, bool, str]] = []
        for d in geometry._CUBE_DIRS:
            n = geometry.from_cube(board, (c[0] + d[0], c[1] + d[1], c[2] + d[2]))
            there = geometry.centre(board, n)
            name = geometry._compass(there[0] - here[0], there[1] - here[1])
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


def grid(board: Board, diagonals: str = "alternating") -> Grid:
    """The cached movement graph and arrays of `board` (built on first use, once per setting)."""
    per_board = _GRIDS.get(board)
    if per_board is not None:
        gr = per_board.get(diagonals)
        if gr is not None:
            return gr
    return _build_grid(board, diagonals)


def _build_grid(board: Board, diagonals: str) -> Grid:
    per_board = _GRIDS.setdefault(board, dict)
    g = build_graph(board, diagonals)
    slots = 6 if geometry.is_hex(board) else (4 if diagonals == "manhattan" else 8)
    n = board.width * board.height
    nbr = [[-1] * slots for _ in range(n)]
    diag = [[False] * slots for _ in range(n)]
    bit = [[0] * slots for _ in range(n)]
    hard = [[False] * slots for _ in range(n)]
    w = board.width
    for (ux, uy), (vx, vy), d in g.edges(data=True):
        i, k = uy * w + ux, d["slot"]
        nbr[i][k] = vy * w + vx
        diag[i][k] = d["diagonal"]
        bit[i][k] = DIRECTIONS[d["dir"]]
        hard[i][k] = d["difficult"]
    flat = {name: getattr(board, name).ravel().tolist() for name in ("blocked", "pit", "level", "hazard")}
    stairs = (board.difficult_dirs.ravel() != 0).tolist()
    gr = Grid(board, diagonals, g, slots, nbr, diag, bit, hard, [bool(b) for b in flat["blocked"]],
              [bool(b) for b in flat["pit"]], [int(v) for v in flat["level"]], stairs, [int(v) for v in flat["hazard"]])
    gr.edges = [
        tuple(
            (k, j, diag[i][k], hard[i][k], not (gr.blocked[j] or gr.pit[j]), gr.level[j] - gr.level[i])
            for k, j in enumerate(nbr[i]) if j >= 0
        )
        for i in range(n)
    ]
    gr.level_edges = [tuple(e for e in out if e[4] and e[5]) for out in gr.edges]
    gr.sqs = [(i % w, i // w) for i in range(n)]
    gr.hexmap = geometry.is_hex(board)
    per_board[diagonals] = gr
    return gr


# -- the rules of one step -----------------------------------------------------------------------------
_PRIO_TERRAIN, _PRIO_RULE, _PRIO_ENDS, _PRIO_FAR = 0, 1, 2, 3
BLOCKED = Refusal("M1", "blocked (wall)")
PIT = Refusal("M5", "pit: jump it with Acrobatics (M5)")
_LEVEL = Refusal("M12", "needs stairs or Climb to change level (M12)")
_LEVEL_CLIMB = Refusal("M12", "one level at a time (M12)")
_ENDS = {1: Refusal("M4", "difficult terrain ends the move (M4)"),
         2: Refusal("M12", "a Climb step up or down ends the move (M12)")}


def _charge_line(board: Board, mover: Mover) -> tuple[float, float, float, float, float]:
    """M7: the straight line from the mover's centre to its target's (ax, ay, bx, by, length)."""
    assert mover.target is not None
    (ax, ay), (bx, by) = geometry.centre(board, mover.at), geometry.centre(board, mover.target)
    return ax, ay, bx, by, math.hypot(bx - ax, by - ay) or 1.0


def sticky_refusal(foe: StickyFoe) -> Refusal:
    """Why a step out of `foe`'s reach is refused (M6)."""
    return Refusal("M6", f"{foe.name} uses {foe.use}: sticky (M6)")


class _Search:
    """The per-query view: the mover, the context, and the step rules read from the grid arrays."""

    def __init__(self, gr: Grid, rules: Rules, mover: Mover, ctx: Context) -> None:
        self.gr, self.rules, self.mover, self.ctx = gr, rules, mover, ctx
        self.alternating = gr.diagonals == "alternating"
        w, h, here = gr.board.width, gr.board.height, mover.at
        self.occ = {sq[1] * w + sq[0]: o for sq, o in ctx.occupants.items()
                    if 0 <= sq[0] < w and 0 <= sq[1] < h and sq != here}  # by node, on the board
        self.zones: list[tuple[frozenset[int], StickyFoe]] = []
        if mover.use not in STICKY_EXEMPT:
            self.zones = [(gr.zone(foe.at), foe) for foe in ctx.sticky]
        self.jumper = mover.use == "Acrobatics" and mover.jump_rating > 0
        self.run_m = self.stand_m = 0.0  # M5: how far it jumps with and without a running start
        if self.jumper:
            self.run_m = float(rules.switch("jump_running_m_per_rating")) * mover.jump_rating
            self.stand_m = float(rules.switch("jump_standing_m_per_rating")) * mover.jump_rating
        self._dev: dict[int, float] = {}
        self.press = mover.use == "Press" and mover.target is not None
        self.provoke = mover.use == "Provoke" and mover.target is not None
        self.length = 1.0  # of the line a Press charge follows (M7)
        if self.press or self.provoke:
            ax, ay, bx, by, length = _charge_line(gr.board, mover)
            self.a, self.b = (ax, ay), (bx, by)
            if self.press:
                self.length = length

    def forbid(self) -> dict[int, dict[int, Refusal]]:
        """M6 as a table: zone square -> {neighbour outside the zone: refusal}; the first foe wins.
        A step from one zone into another foe's zone still leaves the first."""
        table: dict[int, dict[int, Refusal]] = {}
        for zone, foe in self.zones:
            why = sticky_refusal(foe)
            for u in zone:
                out = table.setdefault(u, {})
                for j in self.gr.nbr[u]:
                    if j >= 0 and j not in zone:
                        out.setdefault(j, why)
        return table

    def step_cost(self, diag: bool, par: int) -> tuple[int, int]:
        """M11: alternating diagonals cost 1, 2, 1, ...; chebyshev 1; hex and orthogonal 1."""
        if not diag or not self.alternating:
            return 1, par
        return (1, 1) if par == 0 else (2, 0)

    def deviation(self, j: int) -> float:
        """M7: distance of a square's centre from the straight line between the two centres
        (memoised per query: a square is reached in several search states)."""
        if not self.press:
            return 0.0
        dev = self._dev.get(j)
        if dev is None:
            (ax, ay), (bx, by) = self.a, self.b
            px, py = geometry.centre(self.gr.board, self.gr.sq(j))
            dev = self._dev[j] = abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / self.length
        return dev

    def terrain(self, j: int) -> Refusal | None:
        if self.gr.blocked[j]:
            return BLOCKED
        if self.gr.pit[j]:
            return PIT
        return None

    def leave(self, u: int, j: int) -> Refusal | None:
        """M6 sticky zones and M8 Provoke, for any move from u to j (a step or a jump)."""
        for zone, foe in self.zones:
            if u in zone and j not in zone:
                return sticky_refusal(foe)
        if self.provoke:
            assert self.mover.target is not None
            sq_u, sq_j = self.gr.sq(u), self.gr.sq(j)
            t, d = self.mover.target, self.gr.diagonals
            if geometry.distance(self.gr.board, sq_j, t, d) < geometry.distance(self.gr.board, sq_u, t, d):
                return Refusal("M8", f"Provoke may not move toward {self.mover.target_name} (M8)")
        return None

    def step(self, u: int, k: int) -> tuple[int, Refusal | None, int, int]:
        """(neighbour, refusal, priority, ends): the rules of stepping from u through slot k."""
        gr = self.gr
        j = gr.nbr[u][k]
        bad = self.terrain(j)
        if bad:
            return j, bad, _PRIO_TERRAIN, 0
        o = self.occ.get(j)
        if o is not None and not o.friend:
            return j, Refusal("M10", f"occupied by {o.name} (M10)"), _PRIO_TERRAIN, 0
        ends = 1 if gr.hard[u][k] else 0
        dl = gr.level[j] - gr.level[u]
        if dl:
            if abs(dl) == 1 and (gr.stairs[j] or gr.stairs[u]):
                pass  # stairs: directional difficulty does the rest (M4)
            elif abs(dl) == 1 and self.mover.use == "Climb":
                ends = 2
            else:
                return j, (_LEVEL_CLIMB if self.mover.use == "Climb" else _LEVEL), _PRIO_RULE, 0
        bad = self.leave(u, j)
        if bad:
            return j, bad, _PRIO_RULE, 0
        return j, None, 0, ends

    def jumpable(self, u: int, k: int, j: int, level: int) -> bool:
        """M5: a square that may be jumped over in direction k: a pit or difficult to enter."""
        gr = self.gr
        return not gr.blocked[j] and gr.level[j] == level and (gr.pit[j] or gr.hard[u][k])

    def jumps(self, u: int, k: int, lastk: int) -> list[tuple[int, tuple[int, ...], Refusal | None]]:
        """Straight jumps from u in direction k: (landing, squares crossed, refusal if too long)."""
        gr = self.gr
        out: list[tuple[int, tuple[int, ...], Refusal | None]] = []
        crossed: list[int] = []
        cur, level = u, gr.level[u]
        running = lastk == k
        while True:
            nxt = gr.nbr[cur][k]
            if nxt < 0 or not self.jumpable(cur, k, nxt, level):
                break
            crossed.append(nxt)
            land = gr.nbr[nxt][k]
            if land < 0:
                break
            cur = nxt
            if gr.blocked[land] or gr.pit[land] or gr.level[land] != level or land in self.occ:
                continue
            n = len(crossed)
            gap = n * (2.83 if gr.diag[u][k] else 2.0)
            if gap <= (self.run_m if running else self.stand_m):
                out.append((land, tuple(crossed), self.leave(u, land)))
            elif not running and gap <= self.run_m:
                s = "s" if n != 1 else ""
                out.append((land, tuple(crossed), Refusal("M5", f"needs a running start to jump {n} square{s} (M5)")))
            else:
                break
        return out


def _grid_for(board: Board, rules: Rules) -> Grid:
    return grid(board, str(rules.switch("diagonals")))


_ALONE = Context()
# Answers kept per board, about 5 KB each (40 MB in all): a batch of combats asks its first turns'
# questions again and again. Kept 8192, with a second chance for those asked for again
# (_make_room), bench_sim's encounter searches 16.5 times a combat; with the first 2048 in, first
# out, it searched 25.8 times.
MEMO_SIZE = 8192


def reach(board: Board, rules: Rules, mover: Mover, ctx: Context | None = None) -> Reach:
    """Every square `mover` can end on this turn, and why not for the rest within allowance + 2.

    Results are values, so MEMO_SIZE of them are remembered per board: the AI's plan, the
    resolver's check of the same intent and the UI's preview ask the same question about the same
    turn, and movers the rules move alike share an answer. The question is:
    - what of the mover decides its reach: the skill used matters only as far as the rules tell
      skills apart (M5 jumps, M6 sticky zones, M7 Press, M8 Provoke, M12 Climb); who moves does
      not, so Block and Dodge from the same square have one reach, and neither minds sticky zones;
    - who stands within reach of the move: an occupant or a sticky foe farther than allowance + 2
      squares in x or y cannot change the answer (a step moves at most one square each way, on hex
      maps too), and the mover's own square never counts (M10).
    (Called for every intent the AI weighs: the look-up is written out here, without helper calls.)"""
    diagonals = rules.switches["diagonals"].value
    per_board = _GRIDS.by_id.get(id(board))
    gr = per_board.get(diagonals) if per_board is not None else None
    if gr is None:
        gr = grid(board, str(diagonals))
    occupants, sticky = ctx or _ALONE
    use, here, A = mover.use, mover.at, mover.allowance
    x0, y0 = here
    r = A + 2 + (1 if mover.jump_rating else 0)
    # Who stands near: the same few squares for every question about this mover's square this turn,
    # looked up by the occupants' identity when they are read-only (side_context's), as values.
    looked = gr.near.get((id(occupants), here, r))
    if looked is not None and looked[0] is occupants:
        near = looked[1]
    else:
        found = [(sq, o) for sq, o in occupants.items()
                 if -r <= sq[0] - x0 <= r and -r <= sq[1] - y0 <= r and sq != here]
        if len(found) > 1:
            found.sort()
        near = tuple(found)
        if type(occupants) is MappingProxyType:  # (a plain dict may change under the same id)
            if len(gr.near) >= 256:
                gr.near.clear()
            gr.near[id(occupants), here, r] = (occupants, near)  # (holding it keeps its id from being reused)
    held: tuple[StickyFoe, ...] = ()
    if use in STICKY_EXEMPT:
        like: tuple[Any, ...] = ("free", here, A)  # M6: sticky zones do not hold them
    else:
        held = tuple([f for f in sticky if -r <= f.at[0] - x0 <= r and -r <= f.at[1] - y0 <= r])
        if use == "Acrobatics" and mover.jump_rating > 0:
            like = (use, here, A, mover.jump_rating, rules.switch("jump_running_m_per_rating"),
                    rules.switch("jump_standing_m_per_rating"))
        elif (use == "Press" or use == "Provoke") and mover.target is not None:
            like = (use, here, A, mover.target, mover.target_name)
        else:
            like = ("Climb" if use == "Climb" else "", here, A)
    key = (like, near, held)
    memo = gr.memo
    hit = memo.get(key)
    if hit is not None:
        gr.asked.add(id(hit))  # asked for again: kept a while longer (below)
        # the same answer, for this mover (built as _search_reach builds it: _replace parses in Python)
        return hit if hit.mover == mover else _new_reach(Reach, (mover, *hit[1:]))
    result = _search_reach(gr, rules, mover, key[1], held)
    if len(memo) >= MEMO_SIZE:
        _make_room(memo, gr.asked)
    memo[key] = result
    return result


def _make_room(memo: OrderedDict[tuple[Any, ...], Reach], asked: set[int]) -> None:
    """Drop the oldest answer nobody asked for again since it was last looked at; an answer asked
    for again goes to the back of the queue instead, once ("second chance": nearly what dropping
    the least recently used does, without moving an answer on every look-up, which would work out
    its key's hash again)."""
    while True:
        key, old = memo.popitem(last=False)  # (O(1), unlike a dict's pop)
        if id(old) not in asked:
            return
        asked.discard(id(old))
        memo[key] = old


def prepare(rules: Rules) -> None:
    """Get the compiled search ready now rather than at the first search (the first use after an
    install compiles it: a few seconds; later a fraction of a second to load): the play window calls
    this before it opens, so no hover ever waits for it."""
    if kernel.ready():
        rc = _reach(Board(3, 3), rules, Mover("", "", "Exit", (1, 1), 1), Context())
        rc.route_to((2, 2))  # the walk back along a route is compiled too (kernel.route_back)


def forget(board: Board) -> None:
    """Drop the remembered answers for `board` (benchmarks measure the search itself)."""
    for gr in (_GRIDS.get(board) or {}).values():
        gr.memo.clear()
        gr.asked.clear()


def _reach(board: Board, rules: Rules, mover: Mover, ctx: Context) -> Reach:
    """The answer searched afresh (reach() remembers it)."""
    return _search_reach(_grid_for(board, rules), rules, mover, tuple(ctx.occupants.items()), ctx.sticky)


_Occupants = Sequence[tuple[XY, Occupant]]  # (square, occupant) pairs


def _search_reach(gr: Grid, rules: Rules, mover: Mover, occupants: _Occupants, sticky: tuple[StickyFoe, ...]) -> Reach:
    A, use = mover.allowance, mover.use
    zones = () if use in STICKY_EXEMPT else sticky
    # The compiled search (kernel) when it covers the move; jumps (M5) and Provoke (M8) use the reference.
    jumper = use == "Acrobatics" and mover.jump_rating > 0
    provoke = use == "Provoke" and mover.target is not None
    compiled = not jumper and not provoke and A < 128 and (kernel.bucket_search is not None or kernel.ready())
    if compiled and zones:
        inside = gr.board.inside
        compiled = all(inside(f.at) for f in zones)
    found: _Found
    if compiled:
        found = _Compiled(gr, mover, occupants, zones)  # (A < 128: a link keeps a cost in 7 bits)
    else:
        found = _Reference(gr, _Search(gr, rules, mover, Context(dict(occupants), sticky)), mover, A)
    nodes, sqs = found.nodes, gr.sqs
    costs = dict(zip(map(sqs.__getitem__, nodes), found.costs, strict=True))  # (in C, unlike a comprehension)
    routes: Mapping[XY, tuple[Step, ...]] = _Routes(costs, found, gr.board.width)
    charge = None
    if use == "Press" and mover.target is not None:
        keep, off_line = _charge(gr, mover, nodes, found.costs, found.devs())
        end = gr.sq(keep)
        costs, routes, charge = {end: costs[end]}, {end: routes[end]}, (keep, off_line)
    hazards = _NO_HAZARDS
    board = gr.board
    if board.hazards:
        spots = {}
        for sq in costs:
            h = board.hazard[sq[1], sq[0]]
            if h >= 0:
                spots[sq] = board.hazards[int(h)]
        hazards = MappingProxyType(spots)
    refused = _Refusals(gr, mover, costs, occupants, found, charge)
    return _new_reach(Reach, (mover, A, MappingProxyType(costs), routes, refused, hazards))  # (Reach(...), faster)


class _Found:
    """What a search found: the squares a move can end on in the order found (nodes, with their
    costs), and, worked out only when asked for, their deviations from a charge's line (M7), the
    route to the i-th of them, and the refusal log."""

    __slots__ = ()
    nodes: list[int]
    costs: list[int]

    def devs(self) -> list[float]:
        raise NotImplementedError

    def route(self, i: int) -> tuple[Step, ...]:
        raise NotImplementedError

    def log(self) -> _Log:
        raise NotImplementedError


class _Reference(_Found):
    """The search in Python (`_search`): every mover, jumps and Provoke included."""

    __slots__ = ("gr", "nodes", "costs", "_ended", "_cost", "_parent", "_rlog", "_ended_log")

    def __init__(self, gr: Grid, s: _Search, mover: Mover, A: int) -> None:
        # Refusals are logged cheaply during the search and sorted out only if someone asks why.
        self._rlog: list[tuple[int, int, Refusal]] = []
        self._ended_log: list[tuple[int, int]] = []  # (node, ends code): its neighbours are refused by M4/M12
        self._cost, _dev, self._parent, ended = _search(gr, s, mover, A, self._rlog, self._ended_log)
        self.gr, self._ended = gr, list(ended.values())
        self.nodes, self.costs = list(ended), [c for c, _, _ in self._ended]

    def devs(self) -> list[float]:
        return [d for _, d, _ in self._ended]

    def route(self, i: int) -> tuple[Step, ...]:
        st = self._ended[i][2]
        out: list[Step] = []
        sq, parent = self.gr.sq, self._parent
        while st in parent:
            prev, crossed, diag = parent[st]
            out.append(Step(sq(st >> 7), self._cost[st], tuple(sq(x) for x in crossed), diag))
            st = prev
        return tuple(reversed(out))

    def log(self) -> _Log:
        return self._rlog, self._ended_log


_NO_LINE = np.array((0.0, 0.0, 0.0, 0.0, 1.0))


class _Compiled(_Found):
    """The same search compiled (`kernel.bucket_search`) in a window of radius A + 1 around the mover.
    Only the squares found are read out of the kernel's answer at once: the logs and links stay in
    it until someone asks for a route or a refusal."""

    __slots__ = ("nodes", "costs", "_found", "_zones", "_mover", "_sizes")

    def __init__(self, gr: Grid, mover: Mover, occupants: _Occupants, zones: tuple[StickyFoe, ...]) -> None:
        A = mover.allowance
        here = mover.at
        x0, y0 = here
        w, h = gr.board.width, gr.board.height
        press = mover.use == "Press" and mover.target is not None
        work = gr.work.get(A)
        if work is None:
            size, mid, end = kernel.scratch_layout(A, gr.slots)
            work = gr.work[A] = (np.empty(size, np.int64), mid, end)
        scratch, mid, end = work
        ip = [w, x0, y0, A, mover.use == "Climb", gr.diagonals == "alternating", press, gr.hexmap, 0, len(zones),
              mid, end]
        for (x, y), o in occupants:  # by node, on the board, not the mover's own square (M10)
            if 0 <= x < w and 0 <= y < h and (x, y) != here:
                ip += (y * w + x, 1 if o.friend else 2)
                ip[8] += 1
        for foe in zones:
            ip.append(foe.at[1] * w + foe.at[0])
        fp = np.array(_charge_line(gr.board, mover), np.float64) if press else _NO_LINE
        flags, centre = gr._arrays or gr.arrays()
        found = self._found = kernel.bucket_search(flags, centre, np.array(ip, np.int64), fp, scratch)
        # (squares found, refusals logged, ended states logged, states reached): where each part starts
        ne, nr, nl, nre = self._sizes = found[:4].tolist()
        rec = found[4:4 + 2 * ne].tolist()
        self.nodes, self.costs = rec[:ne], rec[ne:]
        self._zones, self._mover = zones, mover

    def devs(self) -> list[float]:
        ne = self._sizes[0]
        return self._found[4 + 3 * ne:4 + 4 * ne].view(np.float64).tolist()

    def route(self, i: int) -> tuple[Step, ...]:
        ne, nr, nl, nre = self._sizes
        found = self._found
        st = int(found[4 + 2 * ne + i])  # the search state that ended on the i-th square
        packed = kernel.route_back(found, 4 + 4 * ne + 2 * nr + 2 * nl, nre, st).tolist()
        (x0, y0), R = self._mover.at, self._mover.allowance + 1
        ox, oy, W = x0 - R, y0 - R, 2 * R + 1  # the window's corner and width
        new = _new_reach  # (tuple.__new__: Step(...) would parse its arguments in Python)
        return tuple([new(Step, ((ox + (p >> 8) % W, oy + (p >> 8) // W), (p >> 1) & 127, (), (p & 1) == 1))
                      for p in reversed(packed)])

    def log(self) -> _Log:
        ne, nr, nl, _ = self._sizes
        p = 4 + 4 * ne
        why = [_LEVEL, _LEVEL_CLIMB] + [sticky_refusal(foe) for foe in self._zones]
        rec = self._found[p:p + 2 * nr + 2 * nl].tolist()
        rlog = [(j, _PRIO_RULE, why[code]) for j, code in zip(rec[:nr], rec[nr:2 * nr], strict=True)]
        return rlog, list(zip(rec[2 * nr:2 * nr + nl], rec[2 * nr + nl:], strict=True))


_Parents = dict[int, tuple[int, tuple[int, ...], bool]]  # state -> (previous state, squares jumped, diagonal)


def _search(
    gr: Grid, s: _Search, mover: Mover, A: int, rlog: list, ended_log: list
) -> tuple[dict[int, int], dict[int, float], _Parents, dict[int, tuple[int, float, int]]]:
    """The bounded search. Step costs are small whole numbers, so a bucket per cost serves as the
    priority queue, and a state is one int: node << 7 | (last direction + 1) << 3 | diagonal
    parity << 2 | ends code (the last direction only for jumpers: a running jump, M5). Every step
    costs at least 1, so when bucket c is walked every way into its states is known: a Press charge
    (M7) keeps, among the cheapest ways, the straightest (least summed deviation), and walks the
    bucket straightest first. Ties go to the first found (STYLE 5). Returns cost and deviation by
    state, parent links, and the first state that ends on each node."""
    edges, level_edges, stairs, occ, forbid = gr.edges, gr.level_edges, gr.stairs, s.occ, s.forbid()
    foes = {j for j, o in occ.items() if not o.friend}
    climb, jumper = mover.use == "Climb", s.jumper
    provoke, alternating, press, deviation, devs = s.provoke, s.alternating, s.press, s.deviation, s._dev
    st0 = gr.node(mover.at) << 7
    cost: dict[int, int] = {st0: 0}
    dev: dict[int, float] = {st0: 0.0}
    parent: _Parents = {}
    ended: dict[int, tuple[int, float, int]] = {}
    buckets: list[list[int]] = [[] for _ in range(A + 1)]
    buckets[0].append(st0)
    add = rlog.append

    def reach_state(st: int, ns: int, nc: int, via: tuple[int, ...], diag: bool, d: float) -> None:
        old = cost.get(ns, A + 1)
        if nc < old:
            cost[ns], dev[ns], parent[ns] = nc, d, (st, via, diag)
            buckets[nc].append(ns)
        elif nc == old and d < dev[ns]:  # as cheap and straighter (M7)
            dev[ns], parent[ns] = d, (st, via, diag)

    for c in range(A + 1):
        bucket = buckets[c]
        if press:
            bucket.sort(key=dev.__getitem__)  # stable: first found first among equals
        for st in bucket:
            if cost[st] < c:
                continue  # reached more cheaply since it was queued
            u, lastk, par, ends = st >> 7, ((st >> 3) & 15) - 1, (st >> 2) & 1, st & 3
            if u not in occ and u not in ended:
                ended[u] = (c, dev[st], st)
            if ends:
                ended_log.append((u, ends))
                continue
            fu = forbid.get(u)
            if c == A and fu is None and not provoke:
                # No step fits any more: only a refused level change is left to log (as below).
                for _k, j, _diag, _hard, _free, dl in level_edges[u]:
                    if j not in foes and not ((dl == 1 or dl == -1) and (stairs[j] or stairs[u] or climb)):
                        add((j, _PRIO_RULE, _LEVEL_CLIMB if climb else _LEVEL))
                continue
            for k, j, diag, hard, free, dl in edges[u]:
                # the rules of one step, as in _Search.step (terrain and occupants are reported by _finish)
                if not free or j in foes:
                    continue
                nends = 1 if hard else 0
                if dl:
                    if (dl == 1 or dl == -1) and (stairs[j] or stairs[u]):
                        pass  # stairs: directional difficulty does the rest (M4)
                    elif (dl == 1 or dl == -1) and climb:
                        nends = 2
                    else:
                        add((j, _PRIO_RULE, _LEVEL_CLIMB if climb else _LEVEL))
                        continue
                if fu is not None:  # M6: no step out of a sticky foe's reach
                    bad = fu.get(j)
                    if bad is not None:
                        add((j, _PRIO_RULE, bad))
                        continue
                if provoke:
                    bad = s.leave(u, j)
                    if bad is not None:
                        add((j, _PRIO_RULE, bad))
                        continue
                if diag and alternating:
                    sc, npar = (1, 1) if par == 0 else (2, 0)
                else:
                    sc, npar = 1, par
                nc = c + sc
                if nc > A:
                    continue
                ns = (j << 7) | ((k + 1 if jumper else 0) << 3) | (npar << 2) | nends
                if press:
                    d = devs.get(j)
                    reach_state(st, ns, nc, (), diag, dev[st] + (deviation(j) if d is None else d))
                elif nc < cost.get(ns, A + 1) and not (npar and nc >= cost.get(ns ^ 4, A + 1)):
                    # (the hot path of reach_state, inlined) A square reached with the next diagonal
                    # costing 2 is no better than the same square as cheaply with it costing 1 (M11).
                    cost[ns], dev[ns], parent[ns] = nc, 0.0, (st, (), diag)
                    buckets[nc].append(ns)
            if not jumper:
                continue
            for k in range(gr.slots):  # M5: straight jumps over pits and difficult squares
                if gr.nbr[u][k] < 0:
                    continue
                for land, crossed, why in s.jumps(u, k, lastk):
                    if why is not None:
                        add((land, _PRIO_RULE, why))
                        continue
                    nc, npar = c, par
                    for _ in range(len(crossed) + 1):
                        sc, npar = s.step_cost(gr.diag[u][k], npar)
                        nc += sc
                    if nc <= A:
                        nends = 1 if gr.hard[crossed[-1]][k] else 0
                        ns = (land << 7) | ((k + 1) << 3) | (npar << 2) | nends
                        reach_state(st, ns, nc, crossed, gr.diag[u][k], 0.0)
    return cost, dev, parent, ended


_Log = tuple[list[tuple[int, int, Refusal]], list[tuple[int, int]]]


def _settle(gr: Grid, log: _Log) -> dict[int, tuple[int, Refusal]]:
    """The strongest reason logged for each square (lower priority number wins, first one on ties)."""
    rlog, ended_log = log
    refused: dict[int, tuple[int, Refusal]] = {}
    nbr = gr.nbr
    for u, ends in ended_log:
        rlog.extend((j, _PRIO_ENDS, _ENDS[ends]) for j in nbr[u] if j >= 0)
    for j, prio, why in rlog:
        old = refused.get(j)
        if old is None or prio < old[0]:
            refused[j] = (prio, why)
    return refused


class _Routes(Mapping[XY, tuple[Step, ...]]):
    """Routes of a Reach, rebuilt from the search's parent links when first asked for."""

    __slots__ = ("_squares", "_found", "_width", "_done")

    def __init__(self, squares: Mapping[XY, int], found: _Found, width: int) -> None:
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

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._squares)

    def __len__(self) -> int:
        return len(self._squares)

    def __contains__(self, sq: object) -> bool:
        return sq in self._squares


def _charge(gr: Grid, mover: Mover, nodes: list[int], costs: list[int], devs: list[float]) -> tuple[int, Refusal]:
    """M7: Press takes the shortest path to a square next to its target, the one closest to the
    straight line between centres; failing that, the reachable square nearest the target.
    `nodes` are the squares the search found, with their costs and deviations from the line.
    Returns the square's node, and the refusal of every other square the search found."""
    assert mover.target is not None
    t = mover.target
    beside = gr.zone(t)  # the squares next to the target
    start = gr.node(mover.at)
    near = [(c, dv, u) for u, c, dv in zip(nodes, costs, devs, strict=True) if u in beside]
    if start in beside and start in nodes:
        end = start
    elif near:
        end = min(near)[2]
    else:
        board, d, sqs = gr.board, gr.diagonals, gr.sqs
        end = min((geometry.distance(board, sqs[u], t, d), c, dv, u)
                  for u, c, dv in zip(nodes, costs, devs, strict=True))[3]
    return end, Refusal("M7", f"Press charges {mover.target_name}: straight line only (M7)")


class _Refusals(Mapping[XY, Refusal]):
    """Why each square within allowance + 2 cannot be reached, worked out when first asked for:
    the resolver and the AI only need the reachable squares, the UI and `battlemat reach` the rest.
    `charge` is a Press charge's square and the refusal of the others it found (M7)."""

    __slots__ = ("_args", "_out")

    def __init__(self, gr: Grid, mover: Mover, costs: Mapping, occupants: _Occupants, found: _Found,
                 charge: tuple[int, Refusal] | None) -> None:
        self._args: tuple[Any, ...] | None = (gr, mover, costs, occupants, found, charge)
        self._out: dict[XY, Refusal] = {}

    def _all(self) -> dict[XY, Refusal]:
        if self._args is not None:
            gr, mover, costs, occupied, found, charge = self._args
            self._args = None
            rlog, ended_log = found.log()
            if charge is not None:  # M7: every other square the search found is off the charge's line
                keep, off_line = charge
                rlog = rlog + [(j, -1, off_line) for j in found.nodes if j != keep]
            refused = _settle(gr, (rlog, ended_log))
            board = gr.board
            A = mover.allowance
            far = Refusal("M1", f"beyond the allowance of {A} squares (M1)")
            here = mover.at
            x0, y0 = here
            w, h = board.width, board.height
            occupants, blocked, pit = dict(occupied), gr.blocked, gr.pit
            out = self._out
            for dx, dy in gr.ring(mover.at, A + 2):
                x, y = x0 + dx, y0 + dy
                if not (0 <= x < w and 0 <= y < h) or (x, y) in costs:
                    continue
                j = y * w + x
                if blocked[j]:
                    why = BLOCKED
                elif pit[j]:
                    why = PIT
                elif (x, y) in occupants and (x, y) != here:
                    why = Refusal("M10", f"occupied by {occupants[x, y].name} (M10)")
                elif j in refused:
                    why = refused[j][1]
                else:
                    why = far
                out[(x, y)] = why
        return self._out

    def __getitem__(self, sq: XY) -> Refusal:
        return self._all()[sq]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __contains__(self, sq: object) -> bool:
        return sq in self._all()

    def get(self, sq: XY, default: Any = None) -> Any:  # type: ignore[override]
        return self._all().get(sq, default)


def follow(board: Board, rules: Rules, mover: Mover, ctx: Context, plan: Sequence[XY]) -> Route:
    """Walk a planned list of squares step by step under the rules and this turn's facts; stop at
    the first step that breaks a rule and say why (M4, M5, M6, M8, M10, M12). A plan never ends on
    an occupied square: it backs up to the last free one (M10)."""
    gr = _grid_for(board, rules)
    s = _Search(gr, rules, mover, ctx)
    u, par, lastk, c = gr.node(mover.at), 0, -1, 0
    steps: list[Step] = []
    stop: Refusal | None = None
    for index, target in enumerate(plan):
        if target == gr.sq(u):
            continue
        if not board.inside(target):
            stop = Refusal("M1", f"{target} is off the map")
            break
        j, k, crossed = _locate(s, gr, u, gr.node(target), lastk)
        if k < 0:
            stop = Refusal("M5", f"{target} is neither a step nor a straight jump from {gr.sq(u)} (M5)")
            break
        if crossed:
            bad = next((w for land, cr, w in s.jumps(u, k, lastk) if land == j), None)
            nends = 1 if gr.hard[crossed[-1]][k] else 0
            n = len(crossed) + 1
        else:
            _, bad, _, nends = s.step(u, k)
            n = 1
        if bad is not None:
            stop = bad
            break
        nc, npar = c, par
        for _ in range(n):
            sc, npar = s.step_cost(gr.diag[u][k], npar)
            nc += sc
        if nc > mover.allowance:
            stop = Refusal("M1", f"beyond the allowance of {mover.allowance} squares (M1)")
            break
        steps.append(Step(gr.sq(j), nc, tuple(gr.sq(x) for x in crossed), gr.diag[u][k]))
        u, par, lastk, c = j, npar, k, nc
        if nends and index != len(plan) - 1:
            stop = _ENDS[nends]
            break
    while steps and gr.node(steps[-1].to) in s.occ:  # M10: never end on an occupied square
        o = s.occ[gr.node(steps[-1].to)]
        stop = Refusal("M10", f"occupied by {o.name} (M10)")
        steps.pop()
    at = steps[-1].to if steps else mover.at
    return Route(mover.at, tuple(steps), stop, at if stop else None)


def _locate(s: _Search, gr: Grid, u: int, j: int, lastk: int) -> tuple[int, int, tuple[int, ...]]:
    """(square, slot, crossed): j as a neighbour of u, or as the landing of a straight jump."""
    for k in range(gr.slots):
        if gr.nbr[u][k] == j:
            return j, k, ()
    if s.jumper:
        for k in range(gr.slots):
            for land, crossed, _ in s.jumps(u, k, lastk):
                if land == j:
                    return j, k, crossed
    return j, -1, ()


def plan_route(board: Board, rules: Rules, mover: Mover, ctx: Context, to: XY | None,
               path: Sequence[XY] = (), plan_ctx: Context | None = None) -> Route:
    """The route the resolver takes for an intent: Press charges (M7); a `to` reachable under this
    turn's facts goes by the best route; otherwise the plan (the route seen when declaring, or the
    explicit path) is followed and cut short where a rule stops it."""
    if mover.use == "Press" and mover.target is not None:
        rc = reach(board, rules, mover, ctx)
        return rc.route_to(next(iter(rc.costs)))
    if path:
        return follow(board, rules, mover, ctx, path)
    if to is None or to == mover.at:
        return Route(mover.at, ())
    now = reach(board, rules, mover, ctx)
    if now.can_end(to):
        return now.route_to(to)
    declared = reach(board, rules, mover, plan_ctx or Context())
    if not declared.can_end(to):
        return Route(mover.at, (), now.why_not(to), mover.at)
    planned = declared.route_to(to)
    return follow(board, rules, mover, ctx, planned.squares)


# -- from an encounter and a state to a Mover and a Context ---------------------------------------
def mover_for(enc: Any, chars: Mapping[CharId, Any], who: CharId, use: str, target: CharId | None = None,
              item: str = "simple", moving: bool = True) -> Mover:
    """The Mover for `who` using `use` (a canonical half) at its current square (M1-M3, M5)."""
    char = enc.by_id[who]
    st = chars[who]
    pair = "Acrobatics/Climb"
    jump = char.base(pair) + char.equipment_bonus(pair)[0] if use == "Acrobatics" else 0
    t_at = chars[target].at if target is not None and target in chars else None
    t_name = enc.by_id[target].name if target is not None and target in enc.by_id else ""
    allowed = match_allowance(enc, char, use, st.major, item, moving)
    if getattr(st, "held_by", None) is not None and use != "Escape":
        allowed = 0  # C8: held in a grip (M13) nobody moves away but by Escape
    return _new_reach(Mover, (who, char.name, use, st.at, allowed, jump,  # (Mover(...), faster)
                              t_at if use in ("Press", "Provoke") else None, t_name))


def context_for(enc: Any, chars: Mapping[CharId, Any], who: CharId,
                sticky_uses: Mapping[CharId, str] | None = None) -> Context:
    """Everyone else's square (friend or foe of `who`) and the sticky enemies among them (M6, M10)."""
    return side_context(enc, chars, enc.by_id[who].side, sticky_uses, who)


@functools.lru_cache(maxsize=1024)
def _occupant(name: str, friend: bool) -> Occupant:
    return Occupant(name, friend)  # values: one object per (name, side) serves every context


def side_context(enc: Any, chars: Mapping[CharId, Any], side: str, sticky_uses: Mapping[CharId, str] | None = None,
                 who: CharId | None = None) -> Context:
    """The same for any mover of `side` (but `who`): a mover's own square never counts (M10), so
    one context serves a whole side."""
    occ: dict[XY, Occupant] = {}
    sticky: list[StickyFoe] = []
    uses = sticky_uses or _NO_USES
    for c in enc.characters:
        st = chars.get(c.id)
        if c.id == who or st is None or st.at is None or not st.active:
            continue
        at = tuple(st.at)
        friend = c.side == side
        occ.setdefault(at, _occupant(c.name, friend))
        use = None if friend else uses.get(c.id)
        if use is not None:
            sticky.append(StickyFoe(at, c.name, use))
    return Context(MappingProxyType(occ), tuple(sticky))


_NO_USES: Mapping[CharId, str] = MappingProxyType({})


def with_sticky(base: Context, enc: Any, chars: Mapping[CharId, Any], side: str,
                sticky_uses: Mapping[CharId, str]) -> Context:
    """side_context(enc, chars, side, sticky_uses) for a `base` context of `side` whose occupants
    still stand where they stood: its occupants, and the sticky enemies among them (M6)."""
    sticky = []
    for c in enc.characters:
        use = sticky_uses.get(c.id)
        if use is None or c.side == side:
            continue
        st = chars.get(c.id)
        if st is not None and st.at is not None and st.active:
            sticky.append(StickyFoe(tuple(st.at), c.name, use))
    return Context(base.occupants, tuple(sticky))
