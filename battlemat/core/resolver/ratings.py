"""Effective ratings in a turn (S2-S8, L5) with the board's modifiers (R1-R6, M1), and groups (S7, C6).

Every number that enters a contest is a `Rating` carrying its parts; this module builds them from
the match's fixed parts (core.memory), the intent's situational modifiers, the board and the
advantages a character holds.
"""

from __future__ import annotations

from collections.abc import Callable

from battlemat.core import geometry, ranges
from battlemat.core.intents import Intent
from battlemat.core.rating import Modifier, Rating
from battlemat.core.resolver.turn import Group, Turn
from battlemat.core.rules import Half
from battlemat.types import CharId

_MOVED_WHILE_SHOOTING = Modifier(-1, "moved while shooting", "M1")
_HIGHER_GROUND = Modifier(1, "higher ground", "R5")


def rating(t: Turn, cid: CharId, use: str, vs: CharId | None, against: str | None, halved: bool = False) -> Rating:
    """The effective rating of `cid` using `use`, facing `vs` who uses `against` (`halved`: C5)."""
    if use == "item":
        return Rating("item", fixed=0, rules=("C5",))
    base, equip, talent, notes = t.memory.parts(cid, use)
    penalty = t.st[cid].major if t.memory.skill_penalty else 0  # L5
    return Rating(use, base=base, equipment=equip, situational=situational(t, cid, vs), talent=talent,
                  matchup=t.rules.matchup(use, against) if against else 0, losses=penalty, halved=halved,
                  notes=notes)


def attack_rating(t: Turn, cid: CharId, use: str, target: CharId, against: str | None) -> Rating:
    """`rating` of an attack on `target`; R6: Block/Dodge talent takes its rating off a missile (not
    off a talented point-blank shot)."""
    r = rating(t, cid, use, target, against)
    dodge = t.char(target).talent("Block/Dodge")
    if dodge and t.rules.halves[use].range_per_rating and not point_blank(t, cid, use, target):
        r = r.with_(adjustments=(Modifier(-dodge, f"{t.name(target)} dodges missiles", "R6"),))
    return r


def situational(t: Turn, cid: CharId, vs: CharId | None) -> tuple[Modifier, ...]:
    """S6: the GM's modifiers on the intent, the board's (R1-R5, M1) and the advantages held against `vs` (O)."""
    it = t.intents.get(cid)
    mods = list(it.modifiers) if it else []
    if it is not None and t.enc.board is not None:
        mods += position_mods(t, cid, it, vs)
    if vs is not None:
        for adv in t.st[cid].advantages:
            if adv.vs == vs and (adv.turn is None or adv.turn == t.n):
                mods.append(Modifier(adv.value, adv.reason, adv.rule))
    return tuple(mods)


def position_mods(t: Turn, cid: CharId, it: Intent, vs: CharId | None) -> list[Modifier]:
    """Situational modifiers from the board for an attack on `vs` (R1, R3, R4, R5, M1)."""
    mods: list[Modifier] = []
    half = t.rules.halves[it.use]
    blank = vs is not None and it.target == vs and point_blank(t, cid, it.use, vs)  # R3: no penalties
    if half.moving_allowance and it.moves and half.move == 0 and not blank:
        mods.append(_MOVED_WHILE_SHOOTING)  # M1: a shot that moves is at -1
    if vs is None or it.target != vs or half.act != "attack":
        return mods
    a, b = t.st[cid].at, t.st[vs].at
    if a is None or b is None:
        return mods
    board, level = t.enc.board, t.levels
    if level[a[1] * board.width + a[0]] > level[b[1] * board.width + b[0]]:
        mods.append(_HIGHER_GROUND)  # R5
    if half.ranged:
        if not blank:
            band = ranges.unpenalized(t.rules, t.char(cid), it.use)
            dist = geometry.distance(board, a, b, t.rules.switch("diagonals"))
            if band and dist > band:
                mods.append(Modifier(-1, f"beyond {band} squares", "R1"))
            _, cover, _ = geometry.sight(board, a, b)
            if cover:
                mods.append(Modifier(-min(cover, 2), f"cover on the line ({cover})", "R4"))
    elif half.reach and flanked(t, cid, vs):
        mods.append(Modifier(1, f"flanking {t.name(vs)}", "R5"))
    return mods


def point_blank(t: Turn, cid: CharId, use: str, vs: CharId) -> bool:
    """R3: a talented shot or throw takes no penalties at all within its point-blank range."""
    if not t.rules.halves[use].point_blank_per_talent:
        return False
    a, b = t.st[cid].at, t.st[vs].at
    if t.enc.board is None or a is None or b is None:
        return False
    blank = ranges.point_blank(t.rules, t.char(cid), use)
    return bool(blank) and geometry.distance(t.enc.board, a, b, t.rules.switch("diagonals")) <= blank


def flanked(t: Turn, cid: CharId, vs: CharId) -> bool:
    """R5: an ally next to the target on the opposite side from `cid`."""
    board = t.enc.board
    a, b = t.st[cid].at, t.st[vs].at
    if a is None or b is None or not geometry.adjacent(board, a, b):
        return False
    if geometry.is_hex(board):
        ca, cb = geometry.to_cube(board, a), geometry.to_cube(board, b)
        opp = geometry.from_cube(board, (2 * cb[0] - ca[0], 2 * cb[1] - ca[1], 2 * cb[2] - ca[2]))
    else:
        opp = (2 * b[0] - a[0], 2 * b[1] - a[1])
    side, by_id = t.char(cid).side, t.enc.by_id
    for c, s in t.st.items():
        if s.at is not None and tuple(s.at) == opp and c != cid and by_id[c].side == side and s.active:
            return True
    return False


# -- groups (S7, C6) -----------------------------------------------------------------------------------
def group_count(t: Turn, members: list[CharId], pair: str, shrink: int = 0) -> int:
    """S7: the members that count toward a group bonus (those rated 0 in the pair do not), less what
    the target's Exit/Escape talent takes away (C6)."""
    return max(0, sum(1 for m in members if t.char(m).base(pair) > 0) - shrink)


def attack_groups(t: Turn, which: Callable[[Half], bool]) -> list[Group]:
    """Attackers still able to act with the same half on the same target form one group (S7 [house]:
    'doing the same thing' = same half, same target, same phase step)."""
    groups: dict[tuple[str, CharId], Group] = {}
    st, failed = t.st, t.failed
    for cid, use, target, half in t.attacks:
        if not st[cid].active or cid in failed or not which(half):
            continue
        g = groups.get((use, target))
        if g is None:
            g = groups[use, target] = Group(use, target, [], half)
        g.members.append(cid)
    return list(groups.values())


def group_rating(t: Turn, g: Group, against: str | None, extra: tuple[Modifier, ...] = ()) -> tuple[Rating, CharId]:
    """S7: the group acts once at its best member's rating plus the group bonus; C6: the target's
    Exit/Escape talent shrinks the group first. Returns the rating and the member it is of."""
    best: tuple[int, int, Rating, CharId] | None = None
    for i, m in enumerate(g.members):
        r = attack_rating(t, m, g.use, g.target, against)
        if extra:
            r = r.with_(adjustments=r.adjustments + extra)
        if best is None or (r.value, -i) > (best[0], -best[1]):
            best = (r.value, i, r, m)
    assert best is not None
    _, _, r, leader = best
    if len(g.members) > 1:
        shrink = t.char(g.target).talent("Exit/Escape")
        size = group_count(t, g.members, g.half.pair, shrink)
        notes = r.notes + (f"group: {', '.join(t.name(m) for m in g.members)}; leader {t.name(leader)}",)
        if shrink:
            notes += (f"{t.name(g.target)}'s Exit/Escape talent {shrink} shrinks it to {size} (C6)",)
        r = r.with_(group=t.rules.group_bonus(size), group_size=max(size, 1), notes=notes)
    return r, leader
