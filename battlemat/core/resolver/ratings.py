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
from battlemat.core.resolver.turn import Group, ThreatKey, Turn
from battlemat.core.rules import Half
from battlemat.core.types import CharId

_MOVED_WHILE_SHOOTING = Modifier(-1, "moved while shooting", "M1")
_HIGHER_GROUND = Modifier(1, "higher ground", "R5")
_SECONDARY = Modifier(-1, "secondary target", "C7")


def rating(t: Turn, cid: CharId, use: str, vs: CharId | None, against: str | None, halved: bool = False) -> Rating:
    """The effective rating of `cid` using `use`, facing `vs` who uses `against` (`halved`: C5)."""
    if use == "item":
        return Rating("item", fixed=0, rules=("C5",))
    base, equip, talent, notes = t.memory.parts(cid, use)
    penalty = t.st[cid].major if t.memory.skill_penalty else 0  # L5
    mods, why = situational(t, cid, vs)
    return Rating(use, base=base, equipment=equip, situational=mods, talent=talent,
                  matchup=t.rules.matchup(use, against) if against else 0, losses=penalty, halved=halved,
                  notes=notes + why)


def attack_rating(t: Turn, cid: CharId, use: str, target: CharId, against: str | None) -> Rating:
    """`rating` of an attack on `target`; R6: Block/Dodge talent takes its rating off a missile (not
    off a talented point-blank shot, R3, which says so)."""
    r = rating(t, cid, use, target, against)
    if not t.rules.halves[use].range_per_rating:  # not a missile
        return r
    dodge = t.char(target).talent(t.rules.talent_pair("missile_dodge"))
    if dodge:
        if not point_blank(t, cid, use, target):
            r = r.with_(adjustments=(Modifier(-dodge, f"{t.name(target)} dodges missiles", "R6"),))
        else:
            r = r.with_(notes=r.notes + (f"{t.name(target)}'s Block/Dodge talent {dodge} does not take its "
                                         "rating off a point-blank shot (R3, R6)",))
    return r


def member_rating(t: Turn, g: Group, m: CharId, against: str | None) -> Rating:
    """The rating member `m` brings to group `g`'s attack: `attack_rating`, and C7's -1 when `g` is a
    Melee talent's sweep at a secondary target (the one way a sweep differs from any attack)."""
    r = attack_rating(t, m, g.use, g.target, against)
    if g.secondary:
        r = r.with_(adjustments=r.adjustments + (_SECONDARY,))
    return r


def situational(t: Turn, cid: CharId, vs: CharId | None) -> tuple[tuple[Modifier, ...], tuple[str, ...]]:
    """S6: the GM's modifiers on the intent, the board's (R1-R5, M1) and the advantages held against `vs`
    (O), with notes on the board's penalties that do not apply (R3)."""
    it = t.intents.get(cid)
    mods = list(it.modifiers) if it else []
    notes: tuple[str, ...] = ()
    if it is not None and t.enc.board is not None:
        board_mods, notes = position_mods(t, cid, it, vs)
        mods += board_mods
    if vs is not None:
        for adv in t.st[cid].advantages:
            if adv.vs == vs and (adv.turn is None or adv.turn == t.n):
                mods.append(Modifier(adv.value, adv.reason, adv.rule))
    return tuple(mods), notes


def position_mods(t: Turn, cid: CharId, it: Intent, vs: CharId | None) -> tuple[list[Modifier], tuple[str, ...]]:
    """Situational modifiers from the board for an attack on `vs`, its target or a secondary target
    (R1, R3, R4, R5, M1), and a note naming the penalties a point-blank shot does without (R3)."""
    mods: list[Modifier] = []
    spared: list[str] = []  # R3: penalties that would apply but for point blank
    half = t.rules.halves[it.use]
    aimed = vs is not None and (vs == it.target or vs in it.also)
    blank = vs is not None and aimed and point_blank(t, cid, it.use, vs)  # R3: no penalties
    if half.moving_allowance and it.moves and half.move == 0:
        if blank:
            spared.append("moving while shooting (M1)")
        else:
            mods.append(_MOVED_WHILE_SHOOTING)  # M1: a shot that moves is at -1
    if vs is None or not aimed or half.act != "attack":
        return mods, ()
    a, b = t.st[cid].at, t.st[vs].at
    if a is None or b is None:
        return mods, ()
    board, level = t.enc.map_board, t.levels
    if level[a[1] * board.width + a[0]] > level[b[1] * board.width + b[0]]:
        mods.append(_HIGHER_GROUND)  # R5
    if half.ranged:
        band = ranges.unpenalized(t.rules, t.char(cid), it.use, t.st[cid].major)
        dist = geometry.distance(board, a, b, t.rules.switch_str("diagonals"))
        _, cover, _ = geometry.sight(board, a, b)
        if band and dist > band:
            if blank:
                spared.append(f"range beyond {band} squares (R1)")
            else:
                mods.append(Modifier(-1, f"beyond {band} squares", "R1"))
        if cover:
            if blank:
                spared.append(f"cover on the line ({cover}, R4)")
            else:
                mods.append(Modifier(-min(cover, 2), f"cover on the line ({cover})", "R4"))
    elif half.reach and flanked(t, cid, vs):
        mods.append(Modifier(1, f"flanking {t.name(vs)}", "R5"))
    if not spared:
        return mods, ()
    within = ranges.point_blank(t.rules, t.char(cid), it.use)
    return mods, (f"point blank within {within} squares (R3): no penalty for {', '.join(spared)}",)


def point_blank(t: Turn, cid: CharId, use: str, vs: CharId) -> bool:
    """R3: a talented shot or throw takes no penalties at all within its point-blank range."""
    if not t.rules.halves[use].point_blank_per_talent:
        return False
    a, b = t.st[cid].at, t.st[vs].at
    if t.enc.board is None or a is None or b is None:
        return False
    blank = ranges.point_blank(t.rules, t.char(cid), use)
    return bool(blank) and geometry.distance(t.enc.board, a, b, t.rules.switch_str("diagonals")) <= blank


def flanked(t: Turn, cid: CharId, vs: CharId) -> bool:
    """R5: an ally next to the target on the opposite side from `cid`."""
    board = t.enc.map_board
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
def group_bonus(t: Turn, rated: list[tuple[CharId, Rating]], shrink: int = 0,
                shrunk_by: CharId | None = None) -> tuple[int, int, tuple[str, ...]]:
    """S7: (counted members, group bonus, notes) of characters acting together with these ratings.
    A member whose effective rating is 0 does not count (the text names no base rating: text line 15);
    C6: the Exit/Escape talent of `shrunk_by` takes `shrink` members off first. When a group of two or
    more ends without a bonus, the notes say why."""
    zero = [t.name(m) for m, r in rated if r.value <= 0]
    size = max(0, len(rated) - len(zero) - shrink)
    bonus = t.rules.group_bonus(size)
    why: list[str] = []
    if zero:
        why.append(f"{', '.join(zero)}: effective {rated[0][1].skill} 0, not counted (S7)")
    if shrink and shrunk_by is not None:
        why.append(f"{t.name(shrunk_by)}'s Exit/Escape talent {shrink} shrinks it to {size} (C6)")
    if not bonus:
        return size, 0, (f"no group bonus: {'; '.join(why) if why else f'{size} counted (S7)'}",)
    return size, bonus, tuple(why)


def attack_groups(t: Turn, which: Callable[[Half], bool]) -> list[Group]:
    """Attackers still able to act with the same half on the same target form one group (S7 [house]:
    'doing the same thing' = same half, same target, same phase step). A Melee talent's sweep at a
    secondary target (C7) is a threat of its own, its sweeper alone [house C7]."""
    groups: dict[ThreatKey, Group] = {}
    st, failed = t.st, t.failed
    for cid, use, target, half, secondary in t.attacks:
        if not st[cid].active or (cid, target) in failed or not which(half):
            continue
        key = (use, target, cid if secondary else "")
        g = groups.get(key)
        if g is None:
            g = groups[key] = Group(use, target, [], half, secondary)
        g.members.append(cid)
    return list(groups.values())


def group_rating(t: Turn, g: Group, against: str | None) -> tuple[Rating, CharId]:
    """S7: the group acts once at its best member's rating plus the group bonus; C6: the target's
    Exit/Escape talent shrinks the group first. Returns the rating and the member it is of."""
    rated = [(m, member_rating(t, g, m, against)) for m in g.members]
    best = 0
    for i, (_, r) in enumerate(rated):
        if r.value > rated[best][1].value:
            best = i
    leader, r = rated[best]
    if len(g.members) > 1:
        shrink = t.char(g.target).talent(t.rules.talent_pair("evasion"))
        size, bonus, why = group_bonus(t, rated, shrink, g.target)
        notes = r.notes + (f"group: {', '.join(t.name(m) for m in g.members)}; leader {t.name(leader)}",) + why
        r = r.with_(group=bonus, group_size=max(size, 1), notes=notes)
    return r, leader
