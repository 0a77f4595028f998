"""Entering a square: the one door through which every character changes square (rules M1, M5, M10,
M12, M13, E1, C5). A walk, a charge, an escape and a jump's landing (P2, the routes of
`core.movement`), a foe thrown by a Wrestle grip (M13, P4) and, without a map, a declared move all
come through `enter`.

How a character gets somewhere is its own rule's business: a route's steps are the movement rules'
(M1-M12, one definition in `core.movement.step`), a throw's reach and flight are M13's
(`throw_refusal`, also asked when the throw is declared). What a square does to whoever enters it
is this door's, the same for every way in:
- nobody ends on a wall (M1), in a pit (M5: jumped, never entered) or on someone else (M10)
  (`stand_refusal`);
- a hazard strikes whoever enters its square without eluding it (E1, O2: `elusion.elude`), each
  square entered in turn (the squares a jump crosses are not entered, M5);
- a runner (C5, Exit) who ends on the map's edge steps off it, at the end of the turn (`endturn`:
  until then the turn's arrows and blows that can reach its square still find it). Stepping off the
  map is one more way through this door (`on_the_edge`, also for a runner already standing on the
  edge): held by the same rules as any step out of a square (`movement.step_off`: a sticky foe next
  to it, M6), a grip (C8) and a pursuer's Exit (C5).
Each way in keeps its own event (`moved`, `thrown`...), said as the character arrives and before
what the square does to it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from battlemat.core import geometry, movement, uses
from battlemat.core.board import Board, Hazard
from battlemat.core.elusion import elude
from battlemat.core.movement.results import Refusal, occupied
from battlemat.core.resolver.losses import land
from battlemat.core.resolver.record import house
from battlemat.core.resolver.turn import Hit, Turn
from battlemat.core.types import XY, CharId

NO_STANDING_ON_A_WALL = Refusal("M1", "a wall: nobody stands there (M1)")
NO_STANDING_IN_A_PIT = Refusal("M5", "a pit: it is jumped, never stood in (M5)")


def stand_refusal(board: Board, sq: XY, occupant: str | None = None) -> Refusal | None:
    """Why nobody may end on `sq` (None: one may): off the map or a wall (M1), a pit (M5), or
    `occupant` stands there (M10)."""
    if not board.inside(sq):
        return Refusal("M1", f"{sq} is off the map")
    x, y = sq
    if board.blocked[y, x]:
        return NO_STANDING_ON_A_WALL
    if board.pit[y, x]:
        return NO_STANDING_IN_A_PIT
    if occupant is not None:
        return occupied(occupant)
    return None


def throw_refusal(board: Board, diagonals: str, start: XY, to: XY, strength: int) -> Refusal | None:
    """M13: why a foe held at `start` cannot be thrown to `to` by a Wrestle of `strength` (the effective
    rating as it stands, text line 15); None: it can, someone standing there aside (M10, asked as it
    lands). A throw lands like any entry (`stand_refusal`), at most one square per point of Wrestle
    counted as moves count (M11), [house M13] never on higher ground than it left (M12: nobody
    rises a level but by stairs or Climb), and never through a wall or a closed door (core.walls)."""
    why = stand_refusal(board, to)
    if why is not None:
        return why
    far = geometry.distance(board, start, to, diagonals)
    if far > strength:
        return Refusal("M13", f"a throw of {far} squares is beyond Wrestle {strength} (1 per point)")
    hit = geometry.wall_across(board, start, to)
    if hit is not None:  # (as a jump never passes through a wall, M5, nor does a body thrown: core.walls)
        return Refusal("M13", f"{geometry.across_words(hit)} stands between {start} and {to}: a throw "
                              "never passes through a wall or a closed door (M13, M1)")
    if board.level[to[1], to[0]] > board.level[start[1], start[0]]:
        return Refusal("M12", f"{to} is higher than {start}: a throw lifts nobody to higher ground (M12)")
    return None


def occupant(t: Turn, sq: XY, but: Collection[CharId]) -> str | None:
    """The name of whoever still in the fight stands on `sq` (M10), those in `but` aside, or None."""
    for cid in t.order():
        s = t.st[cid]
        if cid not in but and s.active and s.at is not None and tuple(s.at) == tuple(sq):
            return t.name(cid)
    return None


def enter(t: Turn, cid: CharId, to: XY, entered: Sequence[XY], say: Callable[[], None], *,
          alongside: Collection[CharId] = (), **changes: object) -> Refusal | None:
    """`cid` comes to stand on `to`, having entered the squares `entered` on its way there, in order
    (`to` last). Refused, with nothing changed, when nobody may stand there (`stand_refusal`); else the
    character is placed (with any other `changes` to its state), `say` records how it came (its own
    event), and then each square entered does what it does (E1), and a runner ending on the map's edge
    is on its way out if it may step off (C5, `on_the_edge`). `alongside`: those moving at the same time
    (one movement sub-phase, whose ends M10 settled together): the squares they are leaving do not count
    as taken. The step off the edge reads who stood where as the sub-phase began (M6's sticky foes,
    [house] their positions then: `Turn.contexts`)."""
    board = t.enc.board
    if board is not None:
        why = stand_refusal(board, to, occupant(t, to, {cid, *alongside}))
        if why is not None:
            return why
    t.st[cid] = t.st[cid].with_(at=to, **changes)
    say()
    if board is None:
        return None
    if board.hazards:
        for sq in entered:
            hz = board.hazard_at(sq)
            if hz is not None and t.active(cid):
                _hazard(t, cid, sq, hz)
    on_the_edge(t, cid, to, "reaches", t.contexts.get(t.char(cid).side))
    return None


def on_the_edge(t: Turn, cid: CharId, at: XY, how: str, ctx: movement.Context | None = None) -> None:
    """C5: a runner that `how` ("reaches", "stands on") the map's edge at `at` steps off it, through the
    checks of any step out of a square (`step_off_refusal`): if none holds it, it is on its way out: it
    leaves at the end of the turn (`Turn.leaving`, endturn), and until then it is there to be hit.
    Held, it stays, and the log says by what."""
    board = t.enc.board
    if board is None or not fleeing(t, cid) or cid in t.leaving or not _on_edge(board, at):
        return
    why = step_off_refusal(t, cid, ctx)
    if why is not None:
        t.emit("stopped", f"{t.name(cid)} {how} the edge of the map at {at} but cannot step off it: {why.why}",
               (why.rule, "C5"), who=cid, at=list(at), rule=why.rule, reason=why.why,
               **house(t, *(("switch.sticky_positions",) if why.rule == "M6" else ())))
        t.held_on_edge.add(cid)
        return
    t.leaving.add(cid)
    t.emit("leaving", f"{t.name(cid)} {how} the edge of the map at {at}: it leaves the conflict at the end "
           "of the turn, and until then what can reach its square still can (C5)", ("C5",), who=cid,
           at=list(at), **house(t, "switch.exit_leaves_conflict"))


def step_off_refusal(t: Turn, cid: CharId, ctx: movement.Context | None = None) -> Refusal | None:
    """What holds `cid` when it steps off the map from its square, as any step out of a square is held:
    a grip (C8: only Escape breaks one), then the step's own rules (`movement.step_off`: a sticky foe
    next to it, M6, unless its half may leave one). `ctx`: who stood where as its sub-phase began (M6
    [house]); None: as they stand now. None: nothing holds it."""
    s, it = t.st[cid], t.intents.get(cid)
    if s.held_by is not None and t.active(s.held_by):
        return Refusal("C8", f"held by {t.name(s.held_by)}: only Escape breaks a hold (C8)")
    board = t.enc.board
    if board is None or it is None or s.at is None:
        return None
    if ctx is None:
        ctx = movement.context(t.enc, t.st, t.char(cid).side, t.sticky_now(), who=cid)
    mover = movement.mover_for(t.memory, t.st, cid, it.use, it.target, it.item)
    return movement.step_off(board, t.rules, mover, ctx)


def _on_edge(board: Board, sq: XY) -> bool:
    x, y = sq
    return x in (0, board.width - 1) or y in (0, board.height - 1)


def fleeing(t: Turn, cid: CharId) -> bool:
    """C5: `cid` uses a half that flees (Exit, without a target: with one it pursues, `uses.pursues`)
    and, with the `exit_leaves_conflict` switch, leaves the conflict when it gets away: at the end of
    the turn, having reached the map's edge if there is a map. A held character does not flee (C8: only
    Escape breaks a hold), nor one whose Exit a pursuer's Exit stopped (C5, text line 75)."""
    it = t.intents.get(cid)
    return (it is not None and uses.flees(t.rules, it) and t.active(cid) and cid not in t.pinned
            and cid not in t.caught and t.rules.switch_bool("exit_leaves_conflict"))


def _hazard(t: Turn, cid: CharId, sq: XY, hz: Hazard) -> None:
    """E1: entering a hazard's square; `elusion.elude` decides (any requirement met: no harm,
    or half with partial elusion; O2: Perception at half unless the character is searching with it)."""
    it = t.intents.get(cid)
    res = elude(t.char(cid), hz, t.rules, t.st[cid].major, it.use if it is not None else None)
    rules = ("E1",) + (("O2",) if res.halved or res.helped else ())
    t.emit("hazard", f"{t.name(cid)} enters {hz.text!r} at {sq}: {res.text}", rules,
           who=cid, at=list(sq), eluded=res.exempt or bool(res.by), harm=res.harm, by=res.by,
           **house(t, *(("E1",) if res.harm else ()), *(("switch.partial_elusion",) if res.by else ()),
                   *(("O2",) if res.halved else ())))
    if res.harm:
        land(t, [Hit(cid, res.harm, ())])
