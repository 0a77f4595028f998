"""The end of a turn: grips released (M13), hiders' advantages (O4), healing (L2), runners leaving the
conflict (C5), who keeps minor losses and why (L2), and next-turn advantages that have run their course."""

from __future__ import annotations

from battlemat.core import geometry
from battlemat.core.resolver.enter import fleeing
from battlemat.core.resolver.losses import heal, leave_conflict, not_healed
from battlemat.core.resolver.ratings import flanked
from battlemat.core.resolver.record import still_here
from battlemat.core.resolver.turn import Turn
from battlemat.core.state import Advantage


def end_of_turn(t: Turn) -> None:
    _release(t)
    _unseen(t)
    healed = heal(t)
    _leave(t)
    still_here(t)
    not_healed(t, healed)
    for cid, s in t.st.items():
        if not s.advantages:
            continue
        keep = tuple(a for a in s.advantages if a.turn is None or a.turn > t.n)
        if keep != s.advantages:
            t.st[cid] = s.with_(advantages=keep)


def _leave(t: Turn) -> None:
    """C5 (switch `exit_leaves_conflict`): a runner still in the fight leaves the conflict now, at the
    end of the turn: without a map wherever it is, on a map if it reached the edge (enter.enter). Until
    now it was there to be shot at (P3) and struck (P4). One grabbed this turn stays: only Escape
    breaks a hold (C8)."""
    on_map = t.enc.board is not None
    for cid in t.order():
        if (on_map and cid not in t.leaving) or not fleeing(t, cid):
            continue
        holder = t.st[cid].held_by
        if holder is not None:
            t.emit("stopped", f"{t.name(cid)} cannot leave the conflict: {t.name(holder)} holds it, and only "
                   "Escape breaks a hold (C8)", ("C8", "C5"), who=cid, at=_at(t, cid), rule="C8",
                   reason=f"held by {t.name(holder)} (C8)")
            continue
        how = "reached the edge of the map" if on_map else "got away"
        leave_conflict(t, cid, f"{how} and leaves the conflict at the end of the turn")


def _at(t: Turn, cid: str) -> list[int] | None:
    at = t.st[cid].at
    return list(at) if at is not None else None


def _release(t: Turn) -> None:
    """M13: a grip ends when its wrestler is out of the fight or no longer next to the one it holds."""
    for cid in t.order():
        s = t.st[cid]
        holder = s.held_by
        if holder is None or not s.active:
            continue
        gone = not t.active(holder)
        here, there = t.st[cid].at, t.st[holder].at
        apart = (t.enc.board is not None and here is not None and there is not None
                 and not geometry.adjacent(t.enc.board, here, there))
        if gone or apart:
            t.st[cid] = s.with_(held_by=None, hold=0)
            why = "is out of the fight" if gone else "is no longer next to it"
            t.emit("released", f"{t.name(cid)} is free: {t.name(holder)} {why} (M13)", ("M13",), who=cid, by=holder)


def _unseen(t: Turn) -> None:
    """O4: a hider still hidden gains +1 against the foe it hid from next turn, +2 if that foe "is
    being flanked or distracted by an ally" (text line 66): an ally attacked it this turn (distracted),
    or two of the hider's side stand next to it on opposite sides as the turn ends (flanked, R5)."""
    for hider, foe in t.hidden:
        if not t.active(hider):
            continue
        distracted = any(not t.enemies(a, hider) for a in t.attacked_by.get(foe, ()) if a != hider)
        flanks = not distracted and t.active(foe) and _flanked_by_side(t, hider, foe)
        value = 2 if distracted or flanks else 1
        why = f"unseen by {t.name(foe)}" + (" while an ally distracts it" if distracted else
                                            " while its side flanks it (R5)" if flanks else "")
        t.grant(hider, Advantage(foe, value, why, "O4", t.n + 1), share=False)


def _flanked_by_side(t: Turn, hider: str, foe: str) -> bool:
    """O4, R5: whether two characters of `hider`'s side still in the fight (the hider may be one) stand
    next to `foe` on opposite sides."""
    if t.enc.board is None or t.st[foe].at is None:
        return False
    return any(not t.enemies(a, hider) and t.active(a) and flanked(t, a, foe) for a in t.order())
