"""The archer's play (battlemat.ai.tactics.archer): shoot, and back off rather than trade the bow for
a weaker throw.

- Shoot what it sees (R1, R4), joining the foe allies already shoot at (one group, S7).
- When a foe could end next to it this turn with a half that makes it aggressive (R2: a Shoot fails
  next to it), and its Throw is weaker than its Shoot (S5: a bow helps Shoot alone): a Shoot from a
  square one step away where no foe can reach it (M1: Shoot moves 1 at -1), else a step back with
  Dodge or Block to such a square (kiting: it shoots again next turn). Only where no square is safe,
  or the Throw is as good as the Shoot, it throws from where it stands (R2 allows a Throw).
- Engaged (a foe next to it): with a Throw weaker than its Shoot it backs off to a safe square
  (Dodge or Block may leave a sticky foe, M6); else it throws at the most dangerous, or steps away.
- Nobody in sight: it steps (Throw moves 2, M1) to a square that sees a foe, else closes in.
"""

from __future__ import annotations

from battlemat.ai.ground import away, engagers, is_safe, safe_squares, toward
from battlemat.ai.view import View, weighted_choice
from battlemat.core.character import Character
from battlemat.core.geometry import sight
from battlemat.core.intents import Intent
from battlemat.core.types import XY


def archer_play(v: View, foes: list[Character]) -> Intent:
    """The archer's intent (it has Shoot or Throw, and foes)."""
    shoot, throw = v.my("Shoot"), v.my("Throw")
    weaker_throw = shoot > throw  # S5: the bow helps Shoot alone, or there is no Throw
    engaged = [f for f in foes if v.board is not None and v.adjacent(v.me, f)]
    if engaged:
        foe = max(engaged, key=v.threat)
        if weaker_throw:
            back = _back_off(v, foes, foe)
            if back is not None:
                return back
        if throw > 0:
            return Intent(v.me.id, "Throw", foe.id)  # R2: Throw is allowed when engaged
        dodge = "Dodge" if v.my("Dodge") >= v.my("Exit") or v.board is None else "Exit"
        dest = away(v, dodge, engaged)
        if dest is None:
            v.note = f"archer engaged by {foe.name}, nothing to throw and no square farther away: {dodge} in place"
        return Intent(v.me.id, dodge, foe.id if dodge == "Dodge" else None, to=dest)
    threatened = _may_engage(v, foes)
    if threatened and weaker_throw and shoot > 0:
        kite = _shoot_and_step(v, foes)
        if kite is not None:
            return kite
        back = _back_off(v, foes, v.nearest(foes))
        if back is not None:
            return back
    use = "Shoot" if shoot >= throw and not (throw > 0 and threatened) else "Throw"
    target = _target(v, use, [f for f in foes if v.sees(v.me, f)[0]])
    if target is not None:
        return Intent(v.me.id, use, target.id)
    # Nobody in sight: step (Throw moves 2, M1) to a square that sees a foe, else close in.
    if throw > 0 and v.board is not None:
        spot = _vantage(v, "Throw", foes)
        if spot is not None:
            sq, foe = spot
            return Intent(v.me.id, "Throw", foe.id, to=sq)
    closest = v.nearest(foes)
    assert closest is not None
    guard = "Dodge" if v.my("Dodge") >= v.my("Block") else "Block"
    walk = toward(v, guard, closest)
    if walk is None:
        v.note = f"archer: no foe in sight and no free square closer to {closest.name}: {guard} in place"
    return Intent(v.me.id, guard, closest.id, to=walk)


def _target(v: View, use: str, visible: list[Character]) -> Character | None:
    """The foe to shoot among `visible`: the one allies already aim at with `use` (one group, S7),
    else a random one favouring clear shots and wounded foes (the match's rng)."""
    if not visible:
        return None
    joined = [f for f in visible if v.memory.aimed_with.get((f.id, use), 0)]
    if joined and v.focus != "spread":
        return max(joined, key=lambda f: v.memory.aimed_with[f.id, use])
    weights = [(3 - min(2, v.sees(v.me, f)[1])) * (1 + v.state[f.id].losses) for f in visible]
    chosen: Character = weighted_choice(v.rng, visible, weights)
    return chosen


def _shoot_and_step(v: View, foes: list[Character]) -> Intent | None:
    """A Shoot from a square one step away (M1: at -1) where no foe can end next to me this turn (R2),
    at a foe seen from there; None where no such square sees a foe."""
    if v.board is None or v.allowance("Shoot") == 0:
        return None
    threats = engagers(v, foes)
    here = v.at(v.me)
    spots = []  # (square, foe, cover on the line) for each safe square and each foe seen from it
    for sq in v.destinations("Shoot"):
        if sq == here or not is_safe(v, sq, threats):
            continue
        for f in foes:
            at = v.at(f)
            if at is not None and (seen := sight(v.board, sq, at))[0]:
                spots.append((sq, f, seen[1]))
    if not spots:
        return None
    aimed = v.memory.aimed_with
    # join the allies' group where one is on offer (S7), then the clearest shot, then the square
    sq, foe, _ = min(spots, key=lambda p: (-aimed.get((p[1].id, "Shoot"), 0), p[2], p[0], p[1].id))
    v.note = f"archer: steps to {sq} where no foe can reach it this turn and shoots {foe.name} (R2, M1)"
    return Intent(v.me.id, "Shoot", foe.id, to=sq)


def _back_off(v: View, foes: list[Character], watch: Character | None) -> Intent | None:
    """A step back with Dodge or Block to a square no foe can reach this turn (R2), one that sees a foe
    for next turn's shot where it can; None where there is none."""
    guard = "Dodge" if v.my("Dodge") >= v.my("Block") else "Block"
    if v.my(guard) == 0 or watch is None:
        return None
    safe = safe_squares(v, guard, foes)
    if not safe:
        return None
    board = v.board
    seeing = [sq for sq in safe if any((at := v.at(f)) is not None and sight(board, sq, at)[0] for f in foes)]
    sq = (seeing or safe)[0]
    v.note = f"archer: backs off to {sq}, out of every foe's reach this turn, rather than throw (R2, S5)"
    return Intent(v.me.id, guard, watch.id, to=sq)


def _may_engage(v: View, foes: list[Character]) -> bool:
    """Whether a foe could end next to me this turn with a half that makes it aggressive (R2: the
    rules data's `aggressive_skills`): then a Shoot would fail against it where a Throw still flies."""
    if v.board is None:
        return False
    for f in foes:
        reach = v.engage_reach(f)
        if reach >= 0 and v.distance(f, v.me) <= reach + 1:
            return True
    return False


def _vantage(v: View, use: str, foes: list[Character]) -> tuple[XY, Character] | None:
    """A reachable square with sight of a foe (least cover, then nearest), and that foe (R4)."""
    best: tuple[tuple[int, int, int, XY, str], XY, Character] | None = None
    for sq, cost in v.destinations(use).items():
        for f in foes:
            at = v.at(f)
            if at is None:
                continue
            seen, cover, _ = sight(v.board, sq, at)
            if seen:
                key = (cover, cost, v.walk_to(sq, at), sq, f.id)
                if best is None or key < best[0]:
                    best = (key, sq, f)
    return None if best is None else (best[1], best[2])
