"""Movement on the board (rules M1-M12): who may move how far, where to, and why not.

The front of the package: `reach` (every square a mover can end on this turn, and why not the
others), `follow` (a planned list of squares walked under the rules, cut short where one refuses),
`plan_route` (the route the resolver takes for an intent), the one builder of a mover (`mover_for`)
and of its context (`context`), and the named results (`Reach`, `Route`, `Step`, `Refusal`...).
The UI preview, the `reach` command, the AI and the resolver all call these.

Inside: `grid` (a board's movement tables, numpy arrays built once and kept in `Board.cache`, and the
networkx graph they are tested against, built when asked for), `step` (the one
definition of a step and a jump), `search` (the bounded search built on it), `kernel` (the same
search compiled, behind a typed query and answer), `memo` (the reach memo and its key), `answers`
(a search as a Reach) and `walks` (walking distances over several turns, for planning).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple, Protocol, cast

from battlemat.core import geometry, uses
from battlemat.core.board import Board
from battlemat.core.character import Character
from battlemat.core.encounter import Encounter
from battlemat.core.movement.answers import answer
from battlemat.core.movement.grid import Grid, build_graph, grid
from battlemat.core.movement.memo import MEMO_SIZE, ReachMemo
from battlemat.core.movement.results import (
    BLOCKED,
    PIT,
    Context,
    Mover,
    Occupant,
    Reach,
    Refusal,
    Route,
    Step,
    StickyFoe,
    beyond,
    occupied,
    sticky_refusal,
)
from battlemat.core.movement.search import WARMING, warming
from battlemat.core.movement.step import ENDS, OFF_MAP, StepRules
from battlemat.core.movement.walks import FAR, level_changes_near, walk_field
from battlemat.core.rating import standing
from battlemat.core.rules import Rules
from battlemat.core.state import CharacterState
from battlemat.core.types import XY, CharId

__all__ = [
    "BLOCKED", "FAR", "MEMO_SIZE", "PIT", "WARMING", "Context", "Grid", "Mover", "Occupant", "Plan", "Reach",
    "ReachMemo",
    "Refusal", "Route", "Step", "StickyFoe", "allowance", "build_graph", "context", "follow", "forget", "grid",
    "level_changes_near", "mover_for", "plan_route", "prepare", "reach", "step_off", "sticky_refusal", "walk_field",
    "warming",
]


# -- who moves: allowance (M1, M2, M3) and the mover ----------------------------------------------------
def allowance(rules: Rules, char: Character, use: str, major: int = 0, item: str = "simple",
              moving_shot: bool = False) -> int:
    """M1 by the skill used (a skill that may move a little instead of standing, as Shoot may, moves
    that much when it moves, at -1 to its use); M2 adds ceil(Acrobatics talent / 2) to any allowance
    above 0; M3 takes 1 per major loss when the major-loss penalty is movement."""
    base = rules.allowance(use, item)
    if moving_shot and base == 0:
        base = rules.halves[use].moving_allowance
    if base > 0:
        base += math.ceil(char.talent(rules.talent_pair("nimbleness")) / 2)
    if rules.switch_str("major_loss_penalty") == "movement":
        base = max(0, base - major)
    return base


class Known(Protocol):
    """What `mover_for` asks of the match's memory (core.memory.MatchMemory, which imports this package):
    the encounter, and each character's allowance, worked out once (M1-M3)."""

    @property
    def enc(self) -> Encounter: ...

    def allowance(self, char: Character, use: str, major: int, item: str = "simple",
                  moving_shot: bool = False) -> int: ...


def mover_for(known: Known, chars: Mapping[CharId, CharacterState], who: CharId, use: str,
              target: CharId | None = None, item: str = "simple") -> Mover:
    """The Mover for `who` using `use` (a canonical half) from its current square (M1-M3, M5, M7, M8).
    `known` is the match's memory (core.memory): it knows the encounter and remembers allowances."""
    enc = known.enc
    char, st = enc.by_id[who], chars[who]
    half = enc.rules.halves[use]
    jump = 0
    if half.jumps:  # M5: a jump's length comes from the effective Acrobatics rating (text line 15)
        jump = standing(enc.rules, char, use, st.major)
    allowed = known.allowance(char, use, st.major, item, moving_shot=True)
    if st.held_by is not None and not half.breaks_grip:
        allowed = 0  # C8: held in a grip (M13) nobody moves away but by Escape
    aims = uses.aims_at_target(enc.rules, use)  # M7, M8: its moves depend on where its target stands
    t_at = chars[target].at if aims and target is not None and target in chars else None
    t_name = enc.by_id[target].name if target is not None and target in enc.by_id else ""
    at = cast(XY, st.at)  # (None only off the map, where nobody asks)
    return Mover(who, char.name, use, at, allowed, jump, t_at, t_name)


# -- what stands around it: the one context builder (M6, M10) -----------------------------------------
_NO_USES: Mapping[CharId, str] = MappingProxyType({})


def context(enc: Encounter, chars: Mapping[CharId, CharacterState], side: str,
            sticky_uses: Mapping[CharId, str] | None = None, *, who: CharId | None = None,
            standing: Mapping[XY, Occupant] | None = None) -> Context:
    """Who stands where, friend or foe of `side` (M10), and the enemies among them whose use this turn
    is sticky (M6: `sticky_uses`, by character). A mover's own square never counts, so one context
    serves every mover of a side; `who` leaves that one character out. `standing`: the occupants of an
    earlier context of this side, when nobody has moved since (P2 before the first move): kept as
    they are, and only the sticky foes are looked up."""
    uses = sticky_uses or _NO_USES
    occ: dict[XY, Occupant] = {}
    sticky: list[StickyFoe] = []
    for c in enc.characters:
        st = chars.get(c.id)
        if c.id == who or st is None or st.at is None or not st.active:
            continue
        at = cast(XY, tuple(st.at))  # (the same tuple when it is one)
        friend = c.side == side
        if standing is None and at not in occ:
            occ[at] = Occupant(c.name, friend)
        if not friend:
            use = uses.get(c.id)
            if use is not None:
                sticky.append(StickyFoe(at, c.name, use))
    return Context(standing if standing is not None else MappingProxyType(occ), tuple(sticky))


# -- the queries --------------------------------------------------------------------------------------
def reach(board: Board, rules: Rules, mover: Mover, ctx: Context | None = None) -> Reach:
    """Every square `mover` can end on this turn, and why not for the rest within allowance + 2.
    Answers are values, remembered per grid (`memo.ReachMemo`): the same question gets the same
    answer back, naming the mover that asked."""
    diagonals = rules.switch_str("diagonals")
    gr = grid(board, diagonals)
    key, hit = gr.memo.lookup(rules, mover, ctx)
    if hit is not None:
        return hit if hit.mover == mover else Reach(mover, *hit[1:])
    result = answer(gr, rules, mover, key.near, key.held)  # (who stands farther away cannot change it)
    gr.memo.put(key, result)
    return result


def step_off(board: Board, rules: Rules, mover: Mover, ctx: Context) -> Refusal | None:
    """C5: what holds `mover` when it steps off the map from its square (a runner on the edge leaving the
    conflict): the one definition of leaving a square (`StepRules.leave`), as for any step, so a sticky
    foe next to it holds it (M6) unless its half may leave one anyway. None: it may go."""
    gr = grid(board, rules.switch_str("diagonals"))
    return StepRules(gr, rules, mover, ctx).leave(gr.node(mover.at), OFF_MAP)


def follow(board: Board, rules: Rules, mover: Mover, ctx: Context, plan: Sequence[XY]) -> Route:
    """Walk a planned list of squares step by step under the rules and this turn's facts; stop at
    the first step that breaks a rule and say why (M4, M5, M6, M8, M10, M12). A plan never ends on
    an occupied square: it backs up to the last free one (M10)."""
    gr = grid(board, rules.switch_str("diagonals"))
    s = StepRules(gr, rules, mover, ctx)
    u, par, lastk, c = gr.node(mover.at), 0, -1, 0
    steps: list[Step] = []
    stop: Refusal | None = None
    for index, target in enumerate(plan):
        if target == gr.sq(u):
            continue
        if not board.inside(target):
            stop = Refusal("M1", f"{target} is off the map")
            break
        move = _move_to(s, u, gr.node(target), lastk)
        if move is None:
            stop = Refusal("M5", f"{target} is neither a step nor a straight jump from {gr.sq(u)} (M5)")
            break
        k, crossed, bad, ends = move
        if bad is not None:
            stop = bad
            break
        nc, npar = c, par
        for _ in range(len(crossed) + 1):  # a jump's crossed squares count toward the allowance (M5)
            sc, npar = s.cost(gr.diag[u * gr.slots + k], npar)
            nc += sc
        if nc > mover.allowance:
            stop = beyond(mover.allowance)
            break
        j = gr.node(target)
        steps.append(Step(gr.sq(j), nc, tuple(gr.sq(x) for x in crossed), gr.diag[u * gr.slots + k]))
        u, par, lastk, c = j, npar, k, nc
        if ends and index != len(plan) - 1:
            stop = ENDS[ends]
            break
    while steps and gr.node(steps[-1].to) in s.occ:  # M10: never end on an occupied square
        stop = occupied(s.occ[gr.node(steps[-1].to)].name)
        steps.pop()
    at = steps[-1].to if steps else mover.at
    return Route(mover.at, tuple(steps), stop, at if stop else None)


def _move_to(s: StepRules, u: int, j: int, lastk: int) -> tuple[int, tuple[int, ...], Refusal | None, int] | None:
    """(slot, squares crossed, refusal, ends) of the move from u to j: a step, or a straight jump (M5)."""
    gr = s.gr
    for k in range(gr.slots):
        if gr.nbr[u * gr.slots + k] == j:
            v = s.step(u, k)
            return k, (), v.refusal, v.ends
    if s.jumper:
        for k in range(gr.slots):
            if gr.nbr[u * gr.slots + k] < 0:
                continue
            for jump in s.jumps(u, k, lastk):
                if jump.land == j:
                    return k, jump.crossed, jump.refusal, s.jump_ends(jump, k)
    return None


class Plan(NamedTuple):
    """What an intent asks of the move: a square to end on, or the squares of a path (`to` is then
    its end), and the context it was declared in (who stood where as the turn began)."""

    to: XY | None = None
    path: tuple[XY, ...] = ()
    declared: Context | None = None


def plan_route(board: Board, rules: Rules, mover: Mover, ctx: Context, plan: Plan) -> Route:
    """The route the resolver takes for an intent: a Press charge goes where it must (M7); a square
    reachable under this turn's facts is reached by the best route; otherwise the plan (the route seen
    when declaring, or the explicit path) is followed and cut short where a rule stops it."""
    if uses.charges(rules, mover.use) and mover.target is not None:  # M7
        rc = reach(board, rules, mover, ctx)
        route = rc.route_to(next(iter(rc.costs)))
        if route.steps or geometry.adjacent(board, mover.at, mover.target):
            return route
        return Route(mover.at, (), _first_refusal(board, rc, mover.at, mover.target), mover.at)
    if plan.path:
        return follow(board, rules, mover, ctx, plan.path)
    to = plan.to
    if to is None or to == mover.at:
        return Route(mover.at, ())
    now = reach(board, rules, mover, ctx)
    if now.can_end(to):
        return now.route_to(to)
    declared = reach(board, rules, mover, plan.declared or Context())
    if not declared.can_end(to):
        return Route(mover.at, (), now.why_not(to), mover.at)
    return follow(board, rules, mover, ctx, declared.route_to(to).squares)


def _first_refusal(board: Board, rc: Reach, at: XY, toward: XY) -> Refusal | None:
    """Why a charge that goes nowhere could not set out (M7: the log says why a plan stops): the
    refusal of its neighbouring square nearest the target, as `reach` gave it (M6, M10, M4...)."""
    near = [sq for sq in rc.refused if geometry.adjacent(board, at, sq)]
    if not near:
        return None
    best = min(near, key=lambda sq: (geometry.distance(board, sq, toward, "chebyshev"), sq))
    return rc.refused[best]


def prepare() -> None:
    """Get the compiled search ready now rather than at the first search (the first use after an
    install compiles it: a few seconds; later a fraction of a second to load it): `battlemat
    prepare` calls it, and the play window in a background thread named WARMING, during which
    every search is the reference's (`warming`), so the board is usable at once."""
    from battlemat.core.movement import kernel  # noqa: PLC0415 - start-up time: numba is imported here only when the window asks

    if kernel.AVAILABLE:
        kernel.warm_up()


def forget(board: Board) -> None:
    """Drop the remembered reach answers for `board` (benchmarks measure the search itself)."""
    for gr in board.cache.grids.values():
        if isinstance(gr, Grid):
            gr.memo.clear()
