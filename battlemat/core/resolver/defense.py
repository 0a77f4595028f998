"""What a defender puts against an attack (rule C5), and whom a Block or Dodge meets at full rating."""

from __future__ import annotations

from battlemat.core import uses
from battlemat.core.rating import Rating
from battlemat.core.resolver.ratings import attack_groups, member_rating, rating
from battlemat.core.resolver.turn import Group, ThreatKey, Turn
from battlemat.core.types import CharId


def plan_blocks(t: Turn) -> None:
    """C5: Block/Dodge works at full rating against one chosen attacker (a group is one threat
    [house]) plus one more threat per point of Exit/Escape talent, strongest first. A Melee talent's
    sweep (C7) is a threat like any other: the defender may name its sweeper, or meet it by talent."""
    threats: dict[CharId, list[Group]] = {}
    halves = t.rules.halves
    guarding = {cid for cid, it in t.intents.items() if halves[it.use].defense == "full_vs_chosen"}
    for g in attack_groups(t, lambda h: True):
        if g.target in guarding:  # only those who Block or Dodge choose among their threats
            threats.setdefault(g.target, []).append(g)
    for cid in t.intents:
        if cid in guarding:
            t.blocks[cid] = _chosen(t, cid, threats.get(cid, []))


def _chosen(t: Turn, cid: CharId, groups: list[Group]) -> set[ThreatKey]:
    """The threats `cid` meets at full rating: the attacker it names (or, naming none, the strongest
    threat [house]), then as many more as its Exit/Escape talent, strongest first."""
    it = t.intents[cid]
    extra = t.char(cid).talent(t.rules.talent_pair("evasion"))
    # Strongest first, then the first declared; ranked only when it picks a threat (no attacker
    # named, or talent for more than one): a rating is worked out with all its parts.
    rank = len(groups) > 1 and (it.target is None or extra > 0)
    mine = sorted(
        (-max(member_rating(t, g, m, None).value for m in g.members) if rank else 0,
         t.order().index(g.members[0]), g.key, g.members)
        for g in groups
    )
    chosen: set[ThreatKey] = set()
    if it.target is not None:
        chosen |= {key for _, _, key, members in mine if it.target in members}
        if not t.rules.switch_bool("group_is_one_threat"):
            chosen = {key for _, _, key, members in mine if members == [it.target]}
    elif mine:
        chosen.add(mine[0][2])  # no attacker named: the strongest threat [house]
    for _, _, key, _ in mine:
        if extra <= 0:
            break
        if key not in chosen:
            chosen.add(key)
            extra -= 1
    return chosen


def opposition(t: Turn, defender: CharId, g: Group) -> tuple[Rating, str, str | None]:
    """C5: what `defender` puts against group `g`: (rating, how, the skill it opposes with)."""
    it = t.intents.get(defender)
    attacker = g.members[0]
    if g.half.opposed_by:  # O5: intimidation is contested by the target's own Wonder
        r = rating(t, defender, g.half.opposed_by, attacker, g.use)
        return r, f"contests with {g.half.opposed_by} (O5)", g.half.opposed_by
    if it is None:
        return Rating("idle", fixed=0, notes=("no intent: opposes with 0",)), "idle, opposes with 0", None
    half = t.rules.halves[it.use]
    if half.defense == "undefended" or (
        half.defense == "half" and t.rules.switch_str("other_skill_defense") == "zero" and half.act != "attack"
    ):
        why = "using an item" if half.act == "item" else f"using {it.use}"
        return Rating(it.use, fixed=0), f"undefended while {why} (C5)", None
    if half.defense == "full_vs_chosen":
        if g.key in t.blocks.get(defender, set()):
            return rating(t, defender, it.use, attacker, g.use), f"{it.use} at full rating (C5)", it.use
        r = rating(t, defender, it.use, attacker, g.use, halved=True)
        return r, f"{it.use} is turned on another attacker: half (C5)", it.use
    pinned = defender in t.pinned and t.rules.switch_str("held_exit_opposes") == "half"
    if half.defense == "full" and not pinned and not uses.pursues(t.rules, it):  # (a pursuer does not flee)
        return rating(t, defender, it.use, attacker, g.use), f"{it.use} at full rating while fleeing (C5)", it.use
    r = rating(t, defender, it.use, attacker, g.use, halved=True)
    if pinned:  # C8 [house]: a held character's Exit does not flee, so it opposes like any busy skill
        held = t.state[defender].held_by
        by = t.name(held) if held is not None else "a grip"
        return r, f"held by {by}, its {it.use} cannot flee: half its rating (C8, C5)", it.use
    if uses.pursues(t.rules, it):  # C5, text line 75: its Exit is busy stopping another's
        what = f"pursuing {t.name(it.target)}" if it.target is not None else f"busy with {it.use}"
    elif half.act != "attack":
        what = f"busy with {it.use}"
    elif it.target in g.members:  # C3 settled its attack in another contest (a group or a sweep)
        what = f"attacking {t.name(it.target)} in another contest"
    else:
        what = "attacking someone else"
    return r, f"{what}: half its rating (C5)", it.use
