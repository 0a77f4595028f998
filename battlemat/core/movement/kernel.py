"""The compiled reach search (a speed device) behind a typed boundary: `Query` in, `Answer` out.

This module is the boundary: nothing outside it packs the kernel's integer lists or reads offsets
into its answer. `Tables.search(Query(...))` runs the same bucket search as `search.Reference`, step for
step and in the same order, over flat numpy arrays, for the movers without jumps or Provoke (M5
and M8 stay in Python): the same costs, routes, tie-breaks and refusals. `tests/test_kernel.py`
compares the two on random boards. The step rules here mirror `step.StepRules.step`; a change to
one is a change to both, and that test fails until they agree.

The search works in a window of radius allowance + 1 around the mover (a step moves at most one
square each way, on hex maps too), so its arrays are sized by the allowance, never by the map.
A state is one int: local square << 3 | diagonal parity << 2 | ends code (1 difficult, 2 Climb step).

Two more compiled loops serve the grid's other users: `pack_flags` packs the kernel's step flags
from the grid's tables (one pass, no temporary arrays of a huge map's size), and `walk_lengths` is
the search of the AI's walking distances (`walks.walk_field`). Where numba is missing each name is
the plain Python function (`_compiled`), and only the search is not used (`AVAILABLE`).

Importing this module imports numba. numba keeps what it compiled (cache=True) in the folder that
NUMBA_CACHE_DIR names, read when numba is imported and again at each compile: unless the user set it,
this module sets it, just before it imports numba, to the user's cache folder (`user_cache`:
$XDG_CACHE_HOME/battlemat/numba, ~/.cache/battlemat/numba, or the platform's own), so nothing is ever
written into the source tree (tests/test_kernel.py checks it). That default in the process's
environment is the one thing importing this module changes; nothing here reads or writes a file.
Without numba, `AVAILABLE` is False and the reference serves.
What it saves (bench/bench_reach.py): a query in the open takes about 20 us, against about 100 us
for networkx's plain Dijkstra without any rule and about ten times as long in the reference search;
a batch of art-gallery combats takes 2.6 times as long without it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple, TypeVar, cast

import numpy as np

from battlemat.core import geometry
from battlemat.core.board import Board
from battlemat.core.movement.dijkstra import walk_lengths as _walk_lengths
from battlemat.core.movement.found import EndedLog, Found, Query, RefusalLog
from battlemat.core.movement.grid import Grid, grid
from battlemat.core.movement.results import LEVEL as LEVEL_REFUSAL
from battlemat.core.movement.results import LEVEL_CLIMB as LEVEL_CLIMB_REFUSAL
from battlemat.core.movement.results import Mover, Refusal, Step, sticky_refusal
from battlemat.core.movement.step import DOOR_MODES, PRIO_RULE, PRIO_TERRAIN, Kind, charge_line, wall_refusal

if TYPE_CHECKING:  # names for mypy only: the core keeps no module-level values that could change
    import numpy.typing as npt

    Ints = npt.NDArray[np.int64]
    Int32s = npt.NDArray[np.int32]
    Shorts = npt.NDArray[np.int16]
    Bytes = npt.NDArray[np.int8]
    Floats = npt.NDArray[np.float64]
    Bools = npt.NDArray[np.bool_]

_F = TypeVar("_F", bound=Callable[..., object])


def user_cache(environ: Mapping[str, str], platform: str) -> str:
    """The folder numba's compiled code is kept in: battlemat/numba in the user's cache folder
    ($XDG_CACHE_HOME, or ~/.cache; %LOCALAPPDATA% on Windows, ~/Library/Caches on macOS)."""
    home = os.path.expanduser("~")
    if platform == "win32":
        base = environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
    elif platform == "darwin":
        base = os.path.join(home, "Library", "Caches")
    else:
        xdg = environ.get("XDG_CACHE_HOME", "")
        base = xdg if os.path.isabs(xdg) else os.path.join(home, ".cache")  # (XDG: a relative path is ignored)
    return os.path.join(base, "battlemat", "numba")


os.environ.setdefault("NUMBA_CACHE_DIR", user_cache(os.environ, sys.platform))  # before numba's import (see top)
numba: ModuleType | None
try:
    import numba
except ImportError:  # pragma: no cover - only where numba cannot be installed
    numba = None
if numba is not None and not numba.config.CACHE_DIR:  # (numba was imported before this module: read it again)
    numba.core.config.reload_config()

AVAILABLE = numba is not None
MAX_ALLOWANCE = 127  # a link keeps a cost in 7 bits

# Refusal codes in the answer's log: needs stairs or Climb (M12), one level at a time (M12), and
# STICKY + f for the f-th sticky foe (M6); -1 - k for a step through slot k that a wall or a door that
# will not open refuses (M1, M4 house `door_opening`), -1 - slots - k for a closed door (core.walls).
LEVEL, LEVEL_CLIMB, STICKY = 0, 1, 2
# Places in the query's integers (the kernel reads them by these names).
IP_WIDTH, IP_X0, IP_Y0, IP_ALLOWANCE, IP_CLIMB, IP_ALTERNATING, IP_PRESS, IP_HEX = 0, 1, 2, 3, 4, 5, 6, 7
IP_OCCUPANTS, IP_STICKY, IP_MID, IP_END, IP_DOORS, IP_HEAD = 8, 9, 10, 11, 12, 13
_NO_LINE = (0.0, 0.0, 0.0, 0.0, 1.0)
# The answer's first words: squares found (ne), refusals logged (nr), ended states logged (nl), states reached (nre).
HEAD = 4


class Layout(NamedTuple):
    """Where each part of the kernel's answer starts, one int64 array: the HEAD sizes, then the parts in
    this order. `_layout` is the one place that knows the order and the sizes: the kernel writes its
    answer by it (compiled, `layout`) and `Answer` reads the answer by it."""

    nodes: int  # the ne squares that can end a move, in the order found
    costs: int  # their costs
    states: int  # the search state that ended on each
    devs: int  # each one's deviation from a charge's line (float64 bits)
    refused: int  # the nr refused squares (nodes), in the order logged
    codes: int  # their refusal codes (LEVEL, LEVEL_CLIMB, STICKY + f)
    ended: int  # the nl squares where a move ended (nodes)
    ends: int  # their ends codes (1 difficult, 2 Climb step)
    reached: int  # the nre states reached
    links: int  # each one's link: (parent state + 1) << 8 | cost << 1 | diagonal
    size: int  # the whole answer's length


def _layout(ne: int, nr: int, nl: int, nre: int) -> Layout:
    """The answer's `Layout` for its four sizes (compiled too: the kernel calls it as it writes)."""
    nodes = HEAD
    refused = nodes + 4 * ne
    ended = refused + 2 * nr
    reached = ended + 2 * nl
    return Layout(nodes, nodes + ne, nodes + 2 * ne, nodes + 3 * ne, refused, refused + nr, ended, ended + nl,
                  reached, reached + nre, reached + 2 * nre)


class Answer(Found):
    """The kernel's answer, read by part: the squares found (in the order found) with their costs at
    once; their deviations from a charge's line, the route to each, and the refusal and ended logs
    when asked for."""

    __slots__ = ("nodes", "costs", "_found", "_layout", "_head", "_reached", "_query")

    def __init__(self, found: Ints, query: Query) -> None:
        self._found, self._query = found, query
        ne = int(found[0])
        head: list[int] = found[:HEAD + 2 * ne].tolist()
        self._head = head[:HEAD]
        self._layout: Layout | None = None  # (the layout of the rest: worked out when a route or log is read)
        self._reached = head[HEAD - 1]  # nre, the states reached (the walk back along a route reads them)
        self.nodes, self.costs = head[HEAD:HEAD + ne], head[HEAD + ne:HEAD + 2 * ne]  # the squares found, in order

    @property
    def _at(self) -> Layout:
        """Where each part of the answer starts (`_layout`, from its four sizes)."""
        at = self._layout
        if at is None:
            at = self._layout = _layout(*self._head)  # (squares found, refusals logged, ended logged, reached)
        return at

    def devs(self) -> list[float]:
        at = self._at
        devs: list[float] = self._found[at.devs:at.refused].view(np.float64).tolist()
        return devs

    def route(self, i: int) -> tuple[Step, ...]:
        """The steps to the i-th square found."""
        st = int(self._found[self._at.states + i])  # the search state that ended on the i-th square
        packed: list[int] = route_back(self._found, self._at.reached, self._reached, st).tolist()
        R = self._query.mover.allowance + 1  # the search's window: its corner and width
        ox, oy, W = self._query.mover.at[0] - R, self._query.mover.at[1] - R, 2 * R + 1
        # each step: local square << 8 | cost << 1 | diagonal
        return tuple([Step((ox + (p >> 8) % W, oy + (p >> 8) // W), (p >> 1) & 127, (), (p & 1) == 1)
                      for p in reversed(packed)])

    def log(self) -> tuple[RefusalLog, EndedLog]:
        """The refusals in the order logged, from their codes; the moves that ended (M4, M12)."""
        at = self._at
        rec: list[int] = self._found[at.refused:at.reached].tolist()  # both logs, read at once
        o = at.refused
        why = [LEVEL_REFUSAL, LEVEL_CLIMB_REFUSAL] + [sticky_refusal(foe) for foe in self._query.sticky]
        refusals = [(j, PRIO_RULE, why[code]) if code >= 0 else self._walled(j, -1 - code)
                    for j, code in zip(rec[:at.codes - o], rec[at.codes - o:at.ended - o], strict=True)]
        return refusals, list(zip(rec[at.ended - o:at.ends - o], rec[at.ends - o:], strict=True))

    def _walled(self, j: int, code: int) -> tuple[int, int, Refusal]:
        """A refused step into j through a wall or a door (code: slot k, or slots + k for a door)."""
        gr = self._query.grid
        door, k = divmod(code, gr.slots)
        u = gr.nbr[j * gr.slots + (k + gr.slots // 2) % gr.slots]  # (slots run round the compass: back is opposite)
        return j, PRIO_TERRAIN, wall_refusal(gr, u, j, 2 if door else 1)


class Tables:
    """A grid's arrays for the kernel, built once per grid (kept in `Grid.fast`): the packed step flags
    by (node, slot), the centres by node, and scratch space by allowance. `search` runs a Query."""

    __slots__ = ("grid", "flags", "centre", "work", "no_line")

    def __init__(self, gr: Grid) -> None:
        a = gr.arrays
        self.grid = gr
        self.flags = np.zeros((gr.size, gr.slots + 1), np.int16)  # the last column: each node's `sealed` bits
        pack_flags(a.nbr, a.diag, a.hard, a.blocked, a.pit, a.level, a.stairs, a.walled, gr.board.width, self.flags)
        self.flags[:, gr.slots] = a.sealed

        self.centre = np.stack(geometry.centres(gr.board), axis=-1).reshape((gr.size, 2))
        self.work: dict[int, tuple[Ints, int, int]] = {}  # allowance -> (scratch, int16 start, float64 start)
        self.no_line = np.array(_NO_LINE, np.float64)  # the line of a search that is not a charge

    def scratch(self, allowance: int) -> tuple[Ints, int, int]:
        """The scratch space for an allowance, and where its int16 and float64 parts start."""
        work = self.work.get(allowance)
        if work is None:
            size, mid, end = _scratch_layout(allowance, self.grid.slots)
            work = self.work[allowance] = (np.empty(size, np.int64), mid, end)
        return work

    def search(self, q: Query) -> Answer | None:
        """Pack the query (the IP_* places, then the occupants and sticky foes), run the kernel, and
        wrap what it found; None when the kernel cannot run it (numba missing, an allowance too large
        for a link, a sticky foe off the board): the reference search then does."""
        gr, mover = self.grid, q.mover
        if not AVAILABLE or mover.allowance > MAX_ALLOWANCE:
            return None
        w, h = gr.board.width, gr.board.height
        zones: list[int] = []
        for foe in q.sticky:
            x, y = foe.at
            if not (0 <= x < w and 0 <= y < h):
                return None
            zones.append(y * w + x)
        scratch, mid, end = self.work.get(mover.allowance) or self.scratch(mover.allowance)
        x0, y0 = mover.at
        how = q.how
        ip = [w, x0, y0, mover.allowance, how.climb, gr.diagonals == "alternating", how.press, gr.hexmap, 0,
              len(zones), mid, end, DOOR_MODES.index(q.doors)]
        for (x, y), o in q.occupants:  # by node, on the board, not the mover's own square (M10)
            if 0 <= x < w and 0 <= y < h and (x != x0 or y != y0):
                ip += (y * w + x, 1 if o.friend else 2)
                ip[IP_OCCUPANTS] += 1
        ip += zones
        fp = np.array(charge_line(gr.board, mover), np.float64) if how.press else self.no_line
        return Answer(bucket_search(self.flags, self.centre, np.array(ip, np.int64), fp, scratch), q)


def tables(gr: Grid) -> Tables:
    """The kernel's tables of a grid, made on first use."""
    t = gr.fast
    if not isinstance(t, Tables):
        t = gr.fast = Tables(gr)
    return t


def _bucket_search(flags: Shorts, centre: Floats, ip: Ints, fp: Floats, scratch: Ints) -> Ints:  # noqa: C901 - mirrors search.Reference whole
    """The search of `search.Reference` over flat arrays (see step.StepRules for the rules of one step).
    Kept as one loop (ruff's complexity rule excused) so that it reads side by side with the two
    functions it mirrors, state for state.

    flags[node, slot] (int16) describes the step to the neighbour in that slot: diagonal (1),
    difficult to enter (2), enterable (4), stairs at either end (8), the step's dx + 1 (<< 4) and
    dy + 1 (<< 6), a neighbour is there (256), a wall or locked door between (512), a closed door
    between (1024), and the level change, clamped to -2..2 (<< 11); it is 0 where the slot has no
    neighbour. The neighbour is node + dy * width + dx. centre[node] is the square's centre (x, y)
    for a Press line. flags[node, slots], the last column, has bit d set when a wall or a door not
    open lies between the node and its neighbour in direction d (geometry.SQUARE_STEPS, or the hex
    slots): not next to it (M6). (One array, not two: numba checks each argument on every call.)
    ip = the query's integers (their places: the IP_* constants), followed by each occupant's node
    and kind (1 ally, 2 enemy: M10) and each sticky foe's node (M6, in order);
    fp = the Press line (ax, ay, bx, by, length); ip[IP_DOORS] how closed doors are crossed (DOOR_MODES:
    0 opening ends the move, 1 free, 2 never).
    scratch is int64 scratch space of `_scratch_layout(allowance, slots)`, reused between calls, with
    an int16 and a float64 part (one array: numba checks each argument's type on every call). Every
    result is copied out of it, and the GIL is held throughout. Only what a call writes is read
    back, so only the cost table is cleared: the search touches little memory besides the squares
    it visits.

    Returns one int64 array: [ne, nr, nl, nre], the squares that can end a move in the order found
    (ne nodes, costs, states, deviations as float64 bits), the refusal log (nr nodes, codes), the
    ended log (nl nodes, codes), and the nre states reached with their links ((parent state + 1)
    << 8 | cost << 1 | diagonal): where each part starts is `layout`'s."""
    width, x0, y0, A, climb = ip[IP_WIDTH], ip[IP_X0], ip[IP_Y0], ip[IP_ALLOWANCE], ip[IP_CLIMB]
    alternating, press, hexmap = ip[IP_ALTERNATING], ip[IP_PRESS], ip[IP_HEX]
    n_occ, F, mid, end, doors = ip[IP_OCCUPANTS], ip[IP_STICKY], ip[IP_MID], ip[IP_END], ip[IP_DOORS]
    work, small, fwork = scratch[:mid], scratch[mid:end].view(np.int16), scratch[end:].view(np.float64)
    ax, ay, bx, by, length = fp[0], fp[1], fp[2], fp[3], fp[4]
    R = A + 1
    W = 2 * R + 1
    WW = W * W
    S = WW * 8
    slots = flags.shape[1] - 1  # (the last column holds the `sealed` bits)
    ox, oy = x0 - R, y0 - R
    height = flags.shape[0] // width
    occ = small[S + WW:S + 2 * WW]  # per local square: 0 free, 1 ally, 2 enemy
    occ[:] = 0
    for i in range(n_occ):
        j, kind = ip[IP_HEAD + 2 * i], ip[IP_HEAD + 1 + 2 * i]
        x, y = j % width - ox, j // width - oy
        if 0 <= x < W and 0 <= y < W:
            occ[y * W + x] = kind
    zones = np.zeros((F, WW), np.bool_)  # zones[f, local]: next to the f-th sticky foe (M6)
    for f in range(F):
        at = ip[IP_HEAD + 2 * n_occ + f]
        fx, fy = at % width, at // width
        seal = flags[at, slots]
        if hexmap:
            for k in range(slots):
                fl = flags[at, k]
                if not fl & 256 or (seal >> k) & 1:
                    continue
                x, y = fx + ((fl >> 4) & 3) - 1 - ox, fy + ((fl >> 6) & 3) - 1 - oy
                if 0 <= x < W and 0 <= y < W:
                    zones[f, y * W + x] = True
        else:
            for dy in range(-1, 2):
                for dx in range(-1, 2):
                    x, y = fx + dx, fy + dy
                    d = (7, 0, 1, 6, 0, 2, 5, 4, 3)[(dy + 1) * 3 + dx + 1]  # geometry.SQUARE_STEPS' index of (dx, dy)
                    if (seal >> d) & 1:
                        continue  # a wall between: not next to the foe
                    if (dx or dy) and 0 <= x < width and 0 <= y < height and 0 <= x - ox < W and 0 <= y - oy < W:
                        zones[f, (y - oy) * W + x - ox] = True
    # Expanded states have ends 0, so at most 2 per square: that bounds both logs.
    cost, ended = small[:S], small[S:S + WW]
    link, work = work[:S], work[S:]
    reached, work = work[:S], work[S:]
    blen, work = work[:A + 1], work[A + 1:]
    buckets = work[:(A + 1) * S].reshape((A + 1, S))
    work = work[(A + 1) * S:]
    e_node, work = work[:WW], work[WW:]
    e_cost, work = work[:WW], work[WW:]
    e_state, work = work[:WW], work[WW:]
    gnode, work = work[:WW], work[WW:]  # gnode[local square] = its node on the map, written when first reached
    r_node, work = work[:2 * WW * slots], work[2 * WW * slots:]
    r_code, work = work[:2 * WW * slots], work[2 * WW * slots:]
    l_node, l_ends = work[:4 * WW], work[4 * WW:8 * WW]
    dev, e_dev = fwork[:S], fwork[S:S + WW]
    cost[:] = A + 1
    blen[:] = 0
    ended[:] = 0
    ne = nr = nl = nre = 0
    st0 = (R * W + R) << 3
    cost[st0] = 0
    dev[st0] = 0.0  # the scratch space holds the last call's numbers: every state read is written first
    buckets[0, 0] = st0
    blen[0] = 1
    gnode[R * W + R] = y0 * width + x0
    for c in range(A + 1):
        n = blen[c]
        if press:  # straightest first, a stable insertion sort (M7)
            for i in range(1, n):
                v = buckets[c, i]
                dv = dev[v]
                k = i - 1
                while k >= 0 and dev[buckets[c, k]] > dv:
                    buckets[c, k + 1] = buckets[c, k]
                    k -= 1
                buckets[c, k + 1] = v
        for i in range(n):
            st = buckets[c, i]
            if cost[st] < c:
                continue
            lu = st >> 3
            par = (st >> 2) & 1
            ends = st & 3
            u = gnode[lu]
            if occ[lu] == 0 and not ended[lu]:
                ended[lu] = 1
                e_node[ne] = u
                e_cost[ne] = c
                e_dev[ne] = dev[st] if press else 0.0
                e_state[ne] = st
                ne += 1
            if ends:
                l_node[nl] = u
                l_ends[nl] = ends
                nl += 1
                continue
            inzone = False
            for f in range(F):
                if zones[f, lu]:
                    inzone = True
                    break
            last = c == A and not inzone  # no step fits any more: only a refused level change is left to log
            for k in range(slots):
                fl = flags[u, k]
                if not fl & 4:
                    continue  # no neighbour there, or not one to enter
                dx, dy = ((fl >> 4) & 3) - 1, ((fl >> 6) & 3) - 1
                j = u + dy * width + dx
                if fl & 512 or (fl & 1024 and doors == 2):
                    r_node[nr] = j
                    r_code[nr] = -1 - k if fl & 512 else -1 - slots - k
                    nr += 1
                    continue
                dl = fl >> 11
                if last and dl == 0:
                    continue
                lj = lu + dy * W + dx
                if occ[lj] == 2:
                    continue
                nends = 1 if fl & 2 else 0
                if dl != 0:
                    if (dl == 1 or dl == -1) and fl & 8:
                        pass
                    elif (dl == 1 or dl == -1) and climb:
                        nends = 2
                    else:
                        r_node[nr] = j
                        r_code[nr] = LEVEL_CLIMB if climb else LEVEL
                        nr += 1
                        continue
                if fl & 1024 and doors == 0:
                    nends = 3  # M4 house: opening a closed door ends the move
                if inzone:
                    bad = -1
                    for f in range(F):
                        if zones[f, lu] and not zones[f, lj]:
                            bad = f
                            break
                    if bad >= 0:
                        r_node[nr] = j
                        r_code[nr] = STICKY + bad
                        nr += 1
                        continue
                diag = fl & 1
                if diag and alternating:
                    if par == 0:
                        sc, npar = 1, 1
                    else:
                        sc, npar = 2, 0
                else:
                    sc, npar = 1, par
                nc = c + sc
                if nc > A:
                    continue
                ns = (lj << 3) | (npar << 2) | nends
                if press:
                    d = dev[st] + abs((bx - ax) * (ay - centre[j, 1]) - (ax - centre[j, 0]) * (by - ay)) / length
                    old = cost[ns]
                    if nc < old:
                        if old > A:
                            reached[nre] = ns
                            nre += 1
                        cost[ns] = nc
                        dev[ns] = d
                        link[ns] = (st + 1) << 8 | nc << 1 | diag
                        gnode[lj] = j
                        buckets[nc, blen[nc]] = ns
                        blen[nc] += 1
                    elif nc == old and d < dev[ns]:
                        dev[ns] = d
                        link[ns] = (st + 1) << 8 | nc << 1 | diag
                elif nc < cost[ns] and not (npar == 1 and nc >= cost[ns ^ 4]):
                    if cost[ns] > A:
                        reached[nre] = ns
                        nre += 1
                    cost[ns] = nc
                    link[ns] = (st + 1) << 8 | nc << 1 | diag
                    gnode[lj] = j
                    buckets[nc, blen[nc]] = ns
                    blen[nc] += 1
    at = layout(ne, nr, nl, nre)
    out = np.empty(at.size, np.int64)
    out[0], out[1], out[2], out[3] = ne, nr, nl, nre
    out[at.nodes:at.costs] = e_node[:ne]
    out[at.costs:at.states] = e_cost[:ne]
    out[at.states:at.devs] = e_state[:ne]
    out[at.devs:at.refused] = e_dev[:ne].view(np.int64)
    out[at.refused:at.codes] = r_node[:nr]
    out[at.codes:at.ended] = r_code[:nr]
    out[at.ended:at.ends] = l_node[:nl]
    out[at.ends:at.reached] = l_ends[:nl]
    out[at.reached:at.links] = reached[:nre]
    for i in range(nre):
        out[at.links + i] = link[reached[i]]
    return out


def _pack_flags(nbr: Int32s, diag: Bools, hard: Bools, blocked: Bools, pit: Bools,  # noqa: PLR0913 - the grid's tables, as numba takes them
                level: Shorts, stairs: Bools, walled: Bytes, width: int, flags: Shorts) -> None:
    """Fill flags[node, slot] (int16, zeros) as `_bucket_search` reads them, from the grid's tables:
    diagonal (1), difficult to enter (2), enterable (4), stairs at either end (8), dx + 1 (<< 4),
    dy + 1 (<< 6), a neighbour is there (256), a wall or locked door between (512), a closed door
    between (1024), the level change clamped to -2..2 (<< 11)."""
    n, slots = nbr.shape
    for i in range(n):
        x, y = i % width, i // width
        for k in range(slots):
            j = nbr[i, k]
            if j < 0:
                continue
            dl = min(2, max(-2, level[j] - level[i]))  # (numba adds int16s as wider ints)
            flags[i, k] = ((dl << 11) + 512 * (walled[i, k] == 1) + 1024 * (walled[i, k] == 2)
                           + 256 + ((j // width - y + 1) << 6) + ((j % width - x + 1) << 4)
                           + 8 * (stairs[i] or stairs[j]) + 4 * (not (blocked[j] or pit[j])) + 2 * hard[i, k]
                           + diag[i, k])


def _route_back(found: Ints, q: int, nre: int, st: int) -> Ints:
    """The route to search state `st`, end first, from bucket_search's answer: the states reached
    are found[q:q + nre] and their links found[q + nre:q + 2 * nre]. Each step is packed as local
    square << 8 | cost << 1 | diagonal; the walk stops at the start (a link without a parent)."""
    out = np.empty(nre + 1, np.int64)
    n = 0
    while True:
        at = -1
        for i in range(nre):
            if found[q + i] == st:
                at = i
                break
        if at < 0:
            break
        ln = found[q + nre + at]
        if (ln >> 8) == 0:
            break
        out[n] = ((st >> 3) << 8) | (ln & 255)
        n += 1
        st = (ln >> 8) - 1
    return out[:n]


def _scratch_layout(A: int, slots: int) -> tuple[int, int, int]:
    """bucket_search's scratch space for allowance A: its length in int64 words, and where its int16
    part and its float64 part start (IP_MID and IP_END)."""
    WW = (2 * A + 3) ** 2
    S = 8 * WW
    words, shorts, floats = 2 * S + (A + 1) * (S + 1) + 4 * WW + 4 * WW * slots + 8 * WW, S + 2 * WW, S + WW
    end = words + (shorts + 3) // 4
    return end + floats, words, end


def _compiled(f: _F) -> _F:
    """`f` compiled by numba, with its own signature (numba compiles on the first call, or loads what it
    compiled before from its cache); `f` itself where numba is missing."""
    return cast(_F, numba.njit(cache=True)(f)) if numba is not None else f


# The compiled functions, called directly (no wrapper between).
layout = _compiled(_layout)
bucket_search = _compiled(_bucket_search)
route_back = _compiled(_route_back)
pack_flags = _compiled(_pack_flags)
walk_lengths = _compiled(_walk_lengths)


def warm_up() -> None:
    """Compile (or load) the functions now: on a tiny board, its tables packed, a search, the walk back
    of a route, and walking distances (with the types `walks.walk_field` gives them)."""
    mover = Mover("", "", "", (1, 1), 1)  # no use: the warm-up asks nothing of the rules data
    board = Board(3, 3)
    gr = grid(board)
    answer = tables(gr).search(Query(mover, (), (), Kind(False, False, False, False, False), gr))
    assert answer is not None
    answer.route(0)
    nbr = gr.arrays.nbr
    walk_lengths(nbr, (nbr >= 0).astype(np.int8), 4, 1 << 20)
