"""Where a character goes: the squares tactics pick to close in, to stay out of a shot, to back away
from foes that could strike this turn, and to run off the map (battlemat.ai.tactics, .archery).

- `toward`: the reachable square that leaves the shortest walk to a foe, in cover under fire (R4).
- `away`: the reachable square farthest from the foes.
- `safe_squares`: reachable squares where no foe can end next to me this turn with a half that
  makes it aggressive (R2: a Shoot from there cannot be spoiled; M6: no blow lands there).
- `flee_square`: the Exit's destination: a square on the map's edge (C5: a runner leaves the conflict
  only from the edge, switch exit_leaves_conflict), the one farthest from the foes; else the reachable
  square nearest the edge.
"""

from __future__ import annotations

from battlemat.ai.view import View
from battlemat.core.character import Character
from battlemat.core.geometry import distance, sight
from battlemat.core.types import XY


def toward(v: View, use: str, target: Character) -> XY | None:
    """The reachable square, not claimed by an ally, that leaves the shortest walk to a square next
    to `target`; None to stay put. Walking distance counts levels, stairs and walls (movement.walk_field).
    Under fire from foes that shoot (R4), a square a step less far on that walks in cover or out of
    sight is taken instead (two steps for the cautious; the reckless take no cover)."""
    goal, here = v.at(target), v.at(v.me)
    if goal is None or here is None or v.board is None:
        return None
    field, w, claimed = v.walk_field(goal), v.board.width, v.memory.claimed
    # each free square as (gap left to a square next to the goal, cost, square): the least wins
    options = [(abs(field[sq[1] * w + sq[0]] - 1), c, sq)
               for sq, c in v.reach(use, target.id).items() if sq not in claimed]
    if not options:
        return None
    gap, _, best = min(options)
    now = abs(field[here[1] * w + here[0]] - 1)
    if best == here or gap >= now:
        return None  # no square gets closer than where it stands
    shooters = shooter_squares(v, target)
    if shooters and v.risk != "reckless":
        slack = 2 if v.risk == "cautious" else 1
        near = [o for o in options if o[0] <= gap + slack and o[0] < now]
        best = min(near, key=lambda o: (exposure(v, o[2], shooters), o[0], o[1], o[2]))[2]
    return best


def shooter_squares(v: View, but: Character | None = None) -> list[XY]:
    """Where the foes stand that could shoot or throw at me (R1, R4), except `but`."""
    return [at for f, at in v.shooters() if f is not but]


def exposure(v: View, sq: XY, shooters: list[XY]) -> int:
    """How open `sq` lies to the shooters: per shooter that sees it, 3 less the cover (R4)."""
    total = 0
    for at in shooters:
        seen, cover, _ = sight(v.board, at, sq)
        if seen:
            total += 3 - min(2, cover)
    return total


def away(v: View, use: str, foes: list[Character]) -> XY | None:
    dests = v.destinations(use)
    if not dests or v.board is None:
        return None
    diag = v.enc.rules.switch_str("diagonals")
    spots = [v.at(f) for f in foes if v.at(f) is not None]

    def score(sq: XY) -> tuple[int, int, XY]:
        near = min((distance(v.board, sq, s, diag) for s in spots), default=0)  # type: ignore[arg-type]
        return (-near, dests[sq], sq)

    best = min(dests, key=score)
    return None if best == v.at(v.me) else best


def _foe_spots(v: View, foes: list[Character]) -> list[XY]:
    return [sq for f in foes if (sq := v.at(f)) is not None]


def engagers(v: View, foes: list[Character]) -> list[tuple[XY, int]]:
    """Each foe that could turn aggressive this turn (R2), with its square and how far it may come."""
    out = []
    for f in foes:
        reach, at = v.engage_reach(f), v.at(f)
        if reach >= 0 and at is not None:
            out.append((at, reach))
    return out


def is_safe(v: View, sq: XY, threats: list[tuple[XY, int]]) -> bool:
    """Whether no foe of `threats` can end next to `sq` this turn: its walk to `sq` is longer than
    its move and a step (R2, M1). Walking distance counts walls, levels and stairs."""
    return all(v.walk_to(sq, at) > reach + 1 for at, reach in threats)


def safe_squares(v: View, use: str, foes: list[Character]) -> list[XY]:
    """The squares `use` may take me to this turn (not claimed by an ally) where no foe can end next
    to me (is_safe), farthest from the foes first."""
    if v.board is None:
        return []
    threats = engagers(v, foes)
    spots = _foe_spots(v, foes)
    free = [sq for sq in v.destinations(use) if is_safe(v, sq, threats)]
    return sorted(free, key=lambda sq: (-min((v.walk_to(sq, s) for s in spots), default=0), sq))


def on_edge(v: View, sq: XY) -> bool:
    b = v.board
    return sq[0] in (0, b.width - 1) or sq[1] in (0, b.height - 1)


def flee_square(v: View, foes: list[Character]) -> XY | None:
    """Where an Exit should end (C5: the runner leaves from the map's edge): a reachable edge square,
    the one farthest from the foes; else the reachable square nearest an edge. None: stay (or no map)."""
    dests = v.destinations("Exit")
    if not dests or v.board is None:
        return None
    b, spots = v.board, _foe_spots(v, foes)
    diag = v.enc.rules.switch_str("diagonals")

    def key(sq: XY) -> tuple[int, int, int, XY]:
        edge = min(sq[0], sq[1], b.width - 1 - sq[0], b.height - 1 - sq[1])
        near = min((distance(b, sq, s, diag) for s in spots), default=0)
        return (edge, -near, dests[sq], sq)

    best = min(dests, key=key)
    return None if best == v.at(v.me) else best
