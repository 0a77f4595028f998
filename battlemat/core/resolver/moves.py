"""P2, movement and communication: grips broken or held (C8), moves in three sub-phases (M9), same-square
conflicts (M10), shouts (O6) and intimidating advances (O5).

Without a map positions are taken as declared; with one every plan goes through `movement`
(M1-M12), cut short with the reason where a rule stops it. Either way the character arrives through
the one door of every change of square (`enter`: hazards entered, E1; a runner at the map's edge, C5).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import partial
from itertools import pairwise
from types import MappingProxyType

from battlemat.core import geometry, movement, uses
from battlemat.core.board import Board
from battlemat.core.events import Moved, words
from battlemat.core.intents import Intent
from battlemat.core.rating import Rating
from battlemat.core.resolver.enter import enter, fleeing, on_the_edge
from battlemat.core.resolver.ratings import rating
from battlemat.core.resolver.record import house, house_of, refuse
from battlemat.core.resolver.turn import Turn
from battlemat.core.resolver.validate import start_context
from battlemat.core.rules import Rules
from battlemat.core.state import Advantage, CharacterState
from battlemat.core.types import XY, CharId

SUB_PHASES = (1, 2, 3)  # M9: Exit users, then Acrobatics/Climb users, then everyone else


def movement_phase(t: Turn) -> None:
    """P2: escapes first (C8), then the moves of each sub-phase (M9); then shouts share what was learnt
    (O6), and Wonder's slow advance intimidates foes who already bleed (O5)."""
    _escapes(t)
    _pursuits(t)
    moving = _by_sub_phase(t)
    if t.enc.board is not None:
        _board_moves(t, moving)
    else:
        _declared_moves(t, moving)
    _shouts(t)
    _advances(t)


def _by_sub_phase(t: Turn) -> dict[int, list[tuple[CharId, Intent]]]:
    """Who moves in each sub-phase (M9, the rules data's `sub_phase`), in declaration order: those who
    declared a square or a path, and a Press charge on a map (M7: a charge always moves)."""
    out: dict[int, list[tuple[CharId, Intent]]] = {}
    for cid in t.order():
        it = t.intents.get(cid)
        if it is None:
            continue
        if cid in t.caught:  # C5: a pursuer's Exit stopped its Exit: it stays where it is
            continue
        if uses.moves(t.rules, it, t.enc.board is not None):
            out.setdefault(t.rules.halves[it.use].sub_phase, []).append((cid, it))
    return out


def _pursuits(t: Turn) -> None:
    """C5, text line 75: "the Exit skill is also used to prevent an enemy from using his or her own Exit
    skill". An Exit with a target pursues instead of fleeing: its Exit against the runner's Exit, and
    the loser stays (a runner stopped neither moves nor leaves the conflict this turn; a pursuer that
    loses just lets it go). Equal ratings: the switch `pursuit_tie_runner_escapes` [house]. The pursuer
    never leaves the conflict itself."""
    for cid in t.order():
        it = t.intents.get(cid)
        if it is None or it.target is None or not uses.pursues(t.rules, it) or not t.active(cid) or cid in t.pinned:
            continue  # (a held pursuer's Exit gets it nowhere either: C8, said in _escapes)
        runner, run = it.target, t.intents.get(it.target)
        if run is None or not uses.flees(t.rules, run) or not t.active(runner) or runner in t.caught:
            refuse(t, (cid, it.use, runner), f"{t.name(cid)} pursues {t.name(runner)}, but {t.name(runner)} "
                   f"is not fleeing: there is no {it.use} to stop (C5)", "the target is not fleeing", "C5")
            continue
        chase = _unfled(t, rating(t, cid, it.use, runner, run.use))
        flight = rating(t, runner, run.use, cid, it.use)
        tie_frees = t.rules.switch_bool("pursuit_tie_runner_escapes")
        stopped = chase.value > flight.value or (chase.value == flight.value and not tie_frees)
        if stopped:
            t.caught[runner] = cid
        words = (f"{t.name(cid)} stops {t.name(runner)}'s {run.use}" if stopped
                 else f"{t.name(runner)} gets away from {t.name(cid)}")
        t.emit("pursuit", f"{words}: {chase.explain()} vs {flight.explain()} (C5)", ("C5",), who=cid,
               target=runner, stopped=stopped, pursuer=chase.to_dict(), runner=flight.to_dict(),
               **house(t, *(("switch.pursuit_tie_runner_escapes",) if chase.value == flight.value else ())))


def _escapes(t: Turn) -> None:
    """C8: at the start of movement, a held character using Escape breaks the grip when its Escape
    beats the rating that made it; anyone else held stays where it is (M13), and an Exit gets it
    nowhere: it does not leave the conflict this turn (`Turn.pinned`)."""
    for cid in t.order():
        s, it = t.st[cid], t.intents.get(cid)
        if s.held_by is None or it is None or not t.active(cid):
            continue
        holder = t.name(s.held_by)
        at = list(s.at) if s.at is not None else None
        half = t.rules.halves[it.use]
        if half.breaks_grip:
            r = rating(t, cid, it.use, s.held_by, None)
            free = r.value > s.hold
            t.emit_data("escaped" if free else "stopped", words(_escape_words, t.name(cid), r, holder, s.hold),
                        ("C8",), partial(_escape_data, cid, at, holder, r, s.hold))
            if free:
                t.st[cid] = s.with_(held_by=None, hold=0)
        elif half.act == "flee":  # C8, M13: an Exit does not break a grip, so it gets nowhere
            t.pinned.add(cid)
            t.emit("stopped", f"{t.name(cid)} cannot Exit: held by {holder}, and only Escape breaks a hold "
                   "(C8, M13)", ("C8", "M13"), who=cid, at=at, rule="C8", reason=f"held by {holder} (C8)")
        elif uses.moves(t.rules, it, t.enc.board is not None):
            t.emit("stopped", f"{t.name(cid)} cannot move: held by {holder} (C8)", ("C8",), who=cid,
                   at=at, rule="C8", reason=f"held by {holder} (C8)")


def _escape_words(name: str, r: Rating, holder: str, hold: int) -> str:
    free = r.value > hold
    return (f"{name}: {r.explain()} vs {holder}'s grip {hold} -> "
            + ("breaks free (C8)" if free else "still held: Escape must beat the grip (C8)"))


def _escape_data(cid: CharId, at: list[int] | None, holder: str, r: Rating, hold: int) -> dict[str, object]:
    """An Escape against a grip (C8): the record's data, the rating with its breakdown, made when read."""
    return {"who": cid, "at": at, "rule": "C8", "reason": f"held by {holder} (C8)", "escape": r.to_dict(),
            "hold": hold}


def _unfled(t: Turn, r: Rating) -> Rating:
    """S3 (text line 166): a talent bonus the rules data gives a half only while it flees
    (`fleeing_only`: the Acrobatics talent helps "attempts to flee combat") is not a pursuer's."""
    src = t.rules.talent_source(r.skill)
    if src is None or not src.fleeing_only or not r.talent:
        return r
    notes = tuple(n for n in r.notes if "talent" not in n)
    return r.with_(talent=0, notes=notes + (f"{src.pair} talent helps flee, not pursue (S3)",))


def _declared_moves(t: Turn, moving: dict[int, list[tuple[CharId, Intent]]]) -> None:
    """Without a map: everyone who may still move stands where it declared, sub-phase by sub-phase."""
    for sub in SUB_PHASES:
        for cid, it in moving.get(sub, ()):
            if not t.active(cid) or t.st[cid].held_by is not None:
                continue
            dest = it.to if it.to is not None else (it.path[-1] if it.path else None)
            if dest is not None and dest != t.st[cid].at:
                def say(c: CharId = cid, to: XY = dest, n: int = sub) -> None:
                    t.emit_payload(Moved(c, to, n), f"{t.name(c)} moves to {to}", ("P2", "M9"))

                enter(t, cid, dest, (dest,), say)


def _board_moves(t: Turn, moving: dict[int, list[tuple[CharId, Intent]]]) -> None:
    """P2 on a map. Sticky zones and occupied squares are those at the start of each sub-phase (M6
    [house]); plans are cut short with the reason; same-square conflicts go to the higher rating,
    then the lower id (M10); hazards strike whoever enters their square without eluding them (E1)."""
    still = True  # nobody has moved yet this turn: the start-of-turn contexts still say who stands where
    # C5: who declared a fleeing half, by sub-phase (whether each still flees is asked as its sub-phase comes)
    runners: dict[int, list[CharId]] = {}
    for cid, it in t.intents.items():
        if uses.flees(t.rules, it):
            runners.setdefault(t.rules.halves[it.use].sub_phase, []).append(cid)
    for sub in SUB_PHASES:
        before = dict(t.st)
        routes, t.contexts = _routes(t, moving.get(sub, []), still)
        if routes:
            routes = _collisions(t, routes, sub)
        standing = _standing_runners(t, runners.get(sub, ()), routes, before) if sub in runners else ()
        if routes:
            for cid, route in routes.items():
                _apply_route(t, cid, route, sub, routes.keys())
            _doors_opened(t, routes, sub)
            still = False
        for cid, ctx in standing:  # C5: a runner already on the edge steps off it, as the sub-phase began
            at = t.st[cid].at
            if at is not None:
                on_the_edge(t, cid, at, "stands on", ctx)


def _doors_opened(t: Turn, routes: dict[CharId, movement.Route], sub: int) -> None:
    """M4 [house `door_opening`]: each closed door a route of this sub-phase went through is open from
    now on (for the next sub-phases, P3 and P4, and the turns after). The routes were planned on the
    board as the sub-phase began, so a locked door was never crossed, nor a closed one when only the
    game master opens doors."""
    board = t.enc.map_board
    if not board.doors:
        return
    opened: dict[str, CharId] = {}
    for cid, route in routes.items():
        squares = (route.origin, *route.squares) if t.st[cid].at == route.end else ()
        for a, b in pairwise(squares):
            hit = geometry.barrier_between(board, a, b)
            door = hit[1] if hit is not None else None
            if door is None or door.state != "closed" or door.id in opened:
                continue
            opened[door.id] = cid
            ends = t.rules.switch_str("door_opening") == "ends_move"
            t.emit("door", f"{t.name(cid)} opens the {door.label} between {a} and {b}"
                   + ("; opening it ends the move (M4)" if ends else " on the way (M4)"), ("M4",),
                   who=cid, door=door.id, state="open", at=[list(a), list(b)], sub_phase=sub,
                   **house(t, "switch.door_opening"))
    if opened:
        t.open_doors(opened)


def _standing_runners(t: Turn, declared: Collection[CharId], routes: dict[CharId, movement.Route],
                      before: dict[CharId, CharacterState]) -> list[tuple[CharId, movement.Context]]:
    """C5: the runners of one sub-phase (`declared`: who declared a fleeing half moving in it) that take
    no step this turn, each with who stands where as the sub-phase begins (`before`, M6 [house]):
    stepping off the edge is their move, held like any step."""
    out: list[tuple[CharId, movement.Context]] = []
    sticky: dict[CharId, str] | None = None
    for cid in t.order():
        if cid not in declared or not fleeing(t, cid):
            continue
        if cid in routes and routes[cid].steps:
            continue
        if sticky is None:
            sticky = t.sticky_now()
        out.append((cid, movement.context(t.enc, before, t.enc.by_id[cid].side, sticky, who=cid)))
    return out


def _routes(t: Turn, movers: list[tuple[CharId, Intent]],
            still: bool) -> tuple[dict[CharId, movement.Route], dict[str, movement.Context]]:
    """The route each mover of one sub-phase takes, from where everyone stands as it begins, and that
    context by side (M6, M10)."""
    if not movers:
        return {}, {}
    board = t.enc.map_board
    sticky = t.sticky_now()  # (one with no square sticks to nobody: movement.context skips it)
    snapshot = dict(t.st)
    ctxs: dict[str, movement.Context] = {}  # by side: who stands where as this sub-phase begins
    routes: dict[CharId, movement.Route] = {}
    declared: dict[str, movement.Context] = {}  # by side: who stood where as P2 began (as the turn began)
    for cid, it in movers:
        now = snapshot[cid]
        if not now.active or now.at is None or now.held_by is not None:  # C8: held fast (logged by _escapes)
            continue
        mover = movement.mover_for(t.memory, snapshot, cid, it.use, it.target, it.item)
        side = t.enc.by_id[cid].side
        plan_ctx = declared.get(side)
        if plan_ctx is None:
            plan_ctx = declared[side] = start_context(t.enc, t.state, side, t.memory)
            ctxs[side] = movement.context(t.enc, snapshot, side, sticky,
                                          standing=plan_ctx.occupants if still else None)
        plan = movement.Plan(it.to, tuple((p[0], p[1]) for p in it.path) if it.path else (), plan_ctx)
        routes[cid] = movement.plan_route(board, t.rules, mover, ctxs[side], plan)
    return routes, ctxs


def _collisions(t: Turn, routes: dict[CharId, movement.Route], sub: int) -> dict[CharId, movement.Route]:
    """M10 [house]: nobody ends on an occupied square; in a same-square conflict whoever already stands
    there keeps it, then the higher effective rating of the skill used, then the lower id; the others
    stop on their last free square."""
    standing: set[XY] | None = None  # squares of those who stay put, worked out on the first clash
    for _ in range(len(routes) + 1):
        ends: dict[XY, list[CharId]] = {}
        for cid, r in routes.items():
            ends.setdefault(r.end, []).append(cid)
        clash = [(sq, cids) for sq, cids in ends.items() if len(cids) > 1]
        if not clash:
            break
        for sq, cids in clash:
            ranked = sorted(
                cids, key=lambda c: (bool(routes[c].steps), -rating(t, c, t.intents[c].use, None, None).value, c)
            )
            if standing is None:
                standing = {(s.at[0], s.at[1]) for c, s in t.st.items()
                            if s.at is not None and s.active and c not in routes}
            for loser in ranked[1:]:
                routes[loser] = _stop_short(t, routes, loser, ranked[0], standing)
                t.emit("collided", words("{0} and {1} both head for {2}; {1} gets it, {0} stops short (M10)".format,
                                         t.name(loser), t.name(ranked[0]), sq), ("M10",),
                       who=loser, winner=ranked[0], at=list(sq), sub_phase=sub, **house(t, "switch.collision"))
    return routes


def _stop_short(t: Turn, routes: dict[CharId, movement.Route], loser: CharId, winner: CharId,
                standing: set[XY]) -> movement.Route:
    """M10: the loser's route, backed up to its last square nobody else ends on."""
    r = routes[loser]
    taken = standing | {routes[c].end for c in routes if c != loser}
    steps = list(r.steps)
    while steps and steps[-1].to in taken:
        steps.pop()
    why = movement.Refusal(
        "M10", f"{t.name(winner)} takes {r.end} first: higher {t.intents[winner].use} or lower id (M10)"
    )
    return movement.Route(r.origin, tuple(steps), why, steps[-1].to if steps else r.origin)


def _apply_route(t: Turn, cid: CharId, route: movement.Route, sub: int, alongside: Collection[CharId]) -> None:
    """A route walked, through the one door (`enter`): the move and its jumps, where and why it
    stopped; then what the squares entered do (E1) and a runner at the map's edge (C5). The sub-phase's
    movers (`alongside`) move at once: M10 (`_collisions`) settled their ends together."""
    if not route.steps:
        if route.stopped is not None:
            _stopped(t, cid, route, sub)
        return

    def say() -> None:
        cost = route.cost
        t.emit_payload(Moved(cid, route.end, sub, route.squares, cost, partial(
            _move_house, t.rules, t.enc.map_board, t.levels, t.intents[cid].use, route)),
                       words(_moved_words, t.name(cid), route.end, cost), ("P2", "M9", "M11"))
        for step in route.jumps:
            kind = "running" if _running(t, route, step) else "standing"
            t.emit("jumped", f"{t.name(cid)} jumps over {', '.join(str(o) for o in step.over)} to {step.to}, "
                   f"a {kind} jump (M5)", ("M5",), who=cid, over=[list(o) for o in step.over], to=list(step.to),
                   running=kind == "running", **house(t, "M5", f"switch.jump_{kind}_m_per_rating"))
        if route.stopped is not None:
            _stopped(t, cid, route, sub)

    why = enter(t, cid, route.end, route.squares, say, alongside=alongside)
    if why is not None:  # (the movement rules never plan an end where nobody may stand: M1, M5, M10)
        _stopped(t, cid, movement.Route(route.origin, (), why, route.origin), sub)


def _moved_words(name: str, to: XY, cost: int) -> str:
    return f"{name} moves to {to} ({cost} square{'s' if cost != 1 else ''})"


def _stopped(t: Turn, cid: CharId, route: movement.Route, sub: int) -> None:
    """Where and why a route stopped short."""
    why = route.stopped
    assert why is not None
    t.emit("stopped", words("{} stops at {}: {}".format, t.name(cid), route.end, why.why), (why.rule,), who=cid,
           at=list(route.end), rule=why.rule, reason=why.why, sub_phase=sub,
           **house(t, _stop_house(t, cid, why.rule)))


# The house part behind a stop's rule, as the rules data names it (M6's positions and M10's ruling are
# switches; M5's pits, M8's distance and M12's levels are house parts of those rules; an M1 stop is house
# when the allowance is).
STOP_HOUSE = MappingProxyType({"M6": "switch.sticky_positions", "M10": "switch.collision"})


def _stop_house(t: Turn, cid: CharId, rule: str) -> str:
    return STOP_HOUSE.get(rule) or (f"move.{t.intents[cid].use}" if rule == "M1" else rule)


def _move_house(rules: Rules, board: Board, levels: Sequence[int], use: str,
                route: movement.Route) -> dict[str, object]:
    """The house rules a walked route stands on, looked up when the record is read: diagonal steps
    counted by the `diagonals` switch (M11), an allowance the text does not give (M1), a change of
    level (M12)."""
    refs = [f"move.{use}"]
    squares = (route.origin,) + route.squares
    if not geometry.is_hex(board) and any(a[0] != b[0] and a[1] != b[1] for a, b in pairwise(squares)):
        refs.append("switch.diagonals")
    if levels and len({levels[y * board.width + x] for x, y in squares}) > 1:
        refs.append("M12")
    return house_of(rules, *refs)


def _running(t: Turn, route: movement.Route, jump: movement.Step) -> bool:
    """M5: a jump is running when the step before take-off went the same way (for the log's words
    and its house mark: running and standing jumps have a switch each)."""
    squares = (route.origin,) + route.squares
    i = route.steps.index(jump)  # squares[i] is the take-off square
    if i == 0:
        return False
    return _way(t, squares[i - 1], squares[i]) == _way(t, squares[i], jump.over[0])


def _way(t: Turn, a: XY, b: XY) -> tuple[int, ...]:
    """The direction of a step from a to b (cube coordinates on hex maps)."""
    board = t.enc.map_board
    if geometry.is_hex(board):
        ca, cb = geometry.to_cube(board, a), geometry.to_cube(board, b)
        return tuple(y - x for x, y in zip(ca, cb, strict=True))
    return (b[0] - a[0] > 0) - (b[0] - a[0] < 0), (b[1] - a[1] > 0) - (b[1] - a[1] < 0)


def _shouts(t: Turn) -> None:
    """O6: what an observation taught is shouted to every ally still in the fight."""
    for cid, adv in t.shares:
        allies = [c for c in t.order() if c != cid and not t.enemies(c, cid) and t.active(c)]
        if allies:
            t.emit("shared", f"{t.name(cid)} shouts what was learnt to {', '.join(t.name(a) for a in allies)}",
                   ("O6", "P2"), who=cid, to=allies)
        for a in allies:
            t.grant(a, adv, share=False)


def _advances(t: Turn) -> None:
    """O5: a slow intimidating advance (Wonder without a target) gives +1 for the rest of the combat
    against every nervous foe: one that has "already suffered a minor or major loss during that combat"
    (text line 50), healed or not (`CharacterState.suffered`, a lasting fact of the match)."""
    for cid in t.order():
        it = t.intents.get(cid)
        if it and t.rules.halves[it.use].untargeted and it.target is None and t.active(cid):
            bleeding = [c for c in t.order() if t.enemies(c, cid) and t.active(c) and t.st[c].suffered > 0]
            if not bleeding:
                refuse(t, (cid, it.use, None), f"{t.name(cid)} advances menacingly, but no foe has a loss yet (O5)",
                       "no foe has a loss yet", "O5")
            for foe in bleeding:
                t.grant(cid, Advantage(foe, 1, "intimidating advance", "O5"), share=False)
