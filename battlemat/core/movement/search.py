"""The bounded reach search: every square a mover can end on, the cheapest way there, and why not.

Step costs are small whole numbers, so a bucket per cost serves as the priority queue (STYLE 5: no
heap, ties go to the first found, no time limit), and it visits only squares within the allowance,
so its cost never grows with the map. A search state is one int: node << 7 | (last slot + 1) << 3 |
diagonal parity << 2 | ends code (the last slot is kept for jumpers only: a running jump, M5).
Every step costs at least 1, so when bucket c is walked every way into its states is known: a Press
charge (M7) keeps, among the cheapest ways, the straightest (least summed deviation), and walks the
bucket straightest first.

`Reference` is this search in Python, built on the step rules (`step.StepRules`); the compiled kernel
(`kernel.py`, behind its typed query and answer) runs the same search for every mover but jumpers
(M5) and Provoke (M8). Both answer as a `found.Found`.
"""

from __future__ import annotations

import threading
from typing import NamedTuple, cast

from battlemat.core.movement.found import EndedLog, FastSearch, Found, Occupants, Query, RefusalLog
from battlemat.core.movement.grid import Grid
from battlemat.core.movement.results import Context, Mover, Step, StickyFoe
from battlemat.core.movement.step import DOOR_MODES, PRIO_RULE, Kind, StepRules
from battlemat.core.rules import Rules


class _Link(NamedTuple):
    prev: int  # the state before
    over: tuple[int, ...]  # nodes jumped over (M5)
    diagonal: bool


class Reference(Found):
    """The search in Python, for every mover (jumps and Provoke included)."""

    __slots__ = ("gr", "nodes", "costs", "_ended", "_cost", "_dev", "_parent", "_rlog", "_elog", "_buckets",
                 "_rules", "_A")

    def __init__(self, rules: StepRules, allowance: int) -> None:
        gr = self.gr = rules.gr
        self._rules, self._A = rules, allowance
        self._rlog: RefusalLog = []  # refusals are logged cheaply here and sorted out only if someone asks why
        self._elog: EndedLog = []
        st0 = gr.node(rules.mover.at) << 7
        self._cost: dict[int, int] = {st0: 0}
        self._dev: dict[int, float] = {st0: 0.0}
        self._parent: dict[int, _Link] = {}
        self._buckets: list[list[int]] = [[] for _ in range(allowance + 1)]
        self._buckets[0].append(st0)
        ended: dict[int, tuple[int, float, int]] = {}  # node -> (cost, deviation, state): the first state ending there
        for c in range(allowance + 1):
            self._walk(c, ended)
        self._ended = list(ended.values())
        self.nodes, self.costs = list(ended), [c for c, _, _ in self._ended]

    def _walk(self, c: int, ended: dict[int, tuple[int, float, int]]) -> None:
        """Expand every state of bucket c (cost c), straightest first for a charge (M7)."""
        rules, cost, dev = self._rules, self._cost, self._dev
        bucket = self._buckets[c]
        if rules.press:
            bucket.sort(key=dev.__getitem__)  # stable: first found first among equals
        for st in bucket:
            if cost[st] < c:
                continue  # reached more cheaply since it was queued
            u, ends = st >> 7, st & 3
            if u not in rules.occ and u not in ended:
                ended[u] = (c, dev[st], st)
            if ends:
                self._elog.append((u, ends))
                continue
            self._steps(st, c)
            # With the allowance spent and nothing holding the mover here, no jump can fit and none
            # is worth explaining; the compiled search does the same, and the two must agree.
            if rules.jumper and (c < self._A or any(u in zone for zone, _ in rules.zones)):
                self._jumps(st, c)

    def _steps(self, st: int, c: int) -> None:
        rules, gr, A = self._rules, self.gr, self._A
        u, par = st >> 7, (st >> 2) & 1
        nbr, diags, row = gr.nbr, gr.diag, u * gr.slots
        for k in range(gr.slots):
            if nbr[row + k] < 0:
                continue
            v = rules.step(u, k)
            if v.refusal is not None:
                self._rlog.append((v.to, v.prio, v.refusal))
                continue
            diag = diags[row + k]
            sc, npar = rules.cost(diag, par)
            nc = c + sc
            if nc > A:
                continue
            ns = (v.to << 7) | ((k + 1 if rules.jumper else 0) << 3) | (npar << 2) | v.ends
            if rules.press:
                self._relax(st, ns, nc, _Link(st, (), diag), self._dev[st] + rules.deviation(v.to))
            elif nc < self._cost.get(ns, A + 1) and not (npar and nc >= self._cost.get(ns ^ 4, A + 1)):
                # A square reached with the next diagonal costing 2 is no better than the same square
                # as cheaply with it costing 1 (M11): that state is not searched.
                self._cost[ns], self._dev[ns], self._parent[ns] = nc, 0.0, _Link(st, (), diag)
                self._buckets[nc].append(ns)

    def _jumps(self, st: int, c: int) -> None:
        rules, gr, A = self._rules, self.gr, self._A
        u, lastk, par = st >> 7, ((st >> 3) & 15) - 1, (st >> 2) & 1
        nbr, row = gr.nbr, u * gr.slots
        for k in range(gr.slots):
            if nbr[row + k] < 0:
                continue
            diag = gr.diag[row + k]
            for jump in rules.jumps(u, k, lastk):
                if jump.refusal is not None:
                    self._rlog.append((jump.land, PRIO_RULE, jump.refusal))
                    continue
                nc, npar = c, par
                for _ in range(len(jump.crossed) + 1):  # the squares crossed count toward the allowance (M5)
                    sc, npar = rules.cost(diag, npar)
                    nc += sc
                if nc <= A:
                    ns = (jump.land << 7) | ((k + 1) << 3) | (npar << 2) | rules.jump_ends(jump, k)
                    self._relax(st, ns, nc, _Link(st, jump.crossed, diag), 0.0)

    def _relax(self, st: int, ns: int, nc: int, link: _Link, d: float) -> None:
        old = self._cost.get(ns, self._A + 1)
        if nc < old:
            self._cost[ns], self._dev[ns], self._parent[ns] = nc, d, link
            self._buckets[nc].append(ns)
        elif nc == old and d < self._dev[ns]:  # as cheap and straighter (M7)
            self._dev[ns], self._parent[ns] = d, link

    def devs(self) -> list[float]:
        return [d for _, d, _ in self._ended]

    def route(self, i: int) -> tuple[Step, ...]:
        st = self._ended[i][2]
        out: list[Step] = []
        sq, parent = self.gr.sq, self._parent
        while st in parent:
            link = parent[st]
            out.append(Step(sq(st >> 7), self._cost[st], tuple(sq(x) for x in link.over), link.diagonal))
            st = link.prev
        return tuple(reversed(out))

    def log(self) -> tuple[RefusalLog, EndedLog]:
        return self._rlog, self._elog


def find(gr: Grid, rules: Rules, mover: Mover, occupants: Occupants, sticky: tuple[StickyFoe, ...], how: Kind) -> Found:
    """Search with the compiled kernel when it covers the move, else in Python (jumps, Provoke, or
    without numba). `occupants` stand around the mover, `sticky` are the sticky foes among them."""
    zones = () if how.unstuck else sticky  # M6
    if not how.jumper and not how.provoke:
        fast = cast("FastSearch | None", gr.fast) or _tables(gr)  # (gr.fast: the kernel's Tables, once made)
        if fast is not None:
            doors = rules.switch_str("door_opening") if gr.board.doors else DOOR_MODES[0]  # (a map without doors)
            found: Found | None = fast.search(Query(mover, occupants, zones, how, gr, doors))
            if found is not None:
                return found
    return Reference(StepRules(gr, rules, mover, Context(dict(occupants), sticky)), mover.allowance)


WARMING = "battlemat-warming-the-search"  # the name of the thread that prepares the compiled search


def warming() -> bool:
    """Whether the compiled search is being prepared in the background right now (a thread named
    WARMING is alive: the window starts one, `ui.app`): until it is done every search is the
    reference's and every walk the plain loop's, answering the same (tests/test_kernel.py), and no
    search waits for numba to import or compile."""
    return any(t.name == WARMING and t.is_alive() for t in threading.enumerate())


def _tables(gr: Grid) -> FastSearch | None:
    """The compiled kernel's tables of `gr` (kernel.Tables), or None without numba or while it is being
    prepared (`warming`): the kernel module is imported on the first search, so commands that never
    search never import numba."""
    if warming():
        return None
    from battlemat.core.movement import kernel  # noqa: PLC0415 - start-up time: numba is imported on the first search

    return kernel.tables(gr) if kernel.AVAILABLE else None
