"""One phase step of attacks (rules C2-C7, M13): contests, their events, and what they grab or throw.

Mutual reach attacks interfere (C3: one contest, only the higher succeeds); every other group meets
its target's opposition (C5) in a contest of its own (C2, C4). A Melee talent's sweep at an extra
adjacent foe (C7) is one more group, its sweeper alone at -1, through the same door. Losses land
together at the end of the step (losses.land), then grips (M13).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from battlemat.core import uses
from battlemat.core.dice import Roll
from battlemat.core.events import Contest, words
from battlemat.core.rating import Rating, standing
from battlemat.core.resolver.defense import opposition
from battlemat.core.resolver.enter import enter, throw_refusal
from battlemat.core.resolver.losses import land
from battlemat.core.resolver.ratings import group_rating
from battlemat.core.resolver.record import contest_house, house, target_gone
from battlemat.core.resolver.turn import Group, Hit, ThreatKey, Turn
from battlemat.core.types import XY, CharId


class Sides(NamedTuple):
    """Who meets whom in a contest, with the ratings each side brings."""

    attack: Rating
    attackers: list[CharId]
    defense: Rating
    defenders: list[CharId]


def contest_event(t: Turn, kind: str, sides: Sides, how: str, roll: Roll, rules: Sequence[str]) -> None:
    """The record of a contest: both ratings with their breakdowns, how the defender opposed, the verdict."""
    a_rating, att_who, d_rating, dfn_who = sides
    c = Contest(kind, tuple(att_who), tuple(dfn_who), a_rating, d_rating, how, roll.winner, roll.margin,
                (roll.attack_total, roll.defense_total), roll.detail, contest_house(t, kind, sides, roll))
    t.emit_payload(c, words(_contest_words, c, tuple(map(t.name, att_who)), tuple(map(t.name, dfn_who))),
                   tuple(rules) + (roll.rule,))


def _contest_words(c: Contest, attackers: tuple[str, ...], defenders: tuple[str, ...]) -> str:
    """A contest in plain words, from its payload and the names of its sides."""
    a_names, d_names = ", ".join(attackers), ", ".join(defenders)
    if c.winner == "attack":
        verdict = f"{a_names} win{'s' if len(attackers) == 1 else ''} by {c.margin}"
    elif c.winner == "defense":
        held = "holds" if c.kind != "interfere" else ("wins" if len(defenders) == 1 else "win")
        verdict = f"{d_names} {held} by {c.margin}"
    else:
        verdict = "a tie"
    return (
        f"{a_names}: {c.attack.explain()}  vs  {d_names}: {c.defense.explain()} [{c.how}] -> {verdict}"
        + (f" ({c.dice})" if c.dice else "")
    )


def run_attacks(t: Turn, groups: list[Group], interfere: bool) -> None:
    """One phase step of attacks: pair up interfering reach groups (C3), then every other group
    against its target's opposition (C2, C4, C5). A Melee talent's sweep at a secondary target (C7)
    is one of these groups, through the same door. Losses land at the end."""
    hits: list[Hit] = []
    done: set[ThreatKey] = set()
    groups_of: dict[CharId, list[Group]] = {}  # each character's groups: its attack, then its sweeps
    for g in groups:
        for m in g.members:
            groups_of.setdefault(m, []).append(g)
    for g in groups:
        if g.key in done:
            continue
        done.add(g.key)
        if not t.active(g.target):
            target_gone(t, g.members, g.use, g.target, secondary=g.secondary)
            continue
        for m in g.members:
            t.attacked_by.setdefault(g.target, set()).add(m)
        # C3: the target attacks this group back (with its own attack or a sweep)
        partner = next((p for p in groups_of.get(g.target, ()) if interfere and p.target in g.members
                        and p.key not in done), None)
        if partner is not None:
            done.add(partner.key)
            hits += _interfere(t, g, partner)
        else:
            hits += _attack(t, g)
    land(t, hits)
    _land_grips(t)


def _interfere(t: Turn, g: Group, partner: Group) -> list[Hit]:
    """C3: two groups attacking each other: one contest, only the higher succeeds."""
    for m in partner.members:
        t.attacked_by.setdefault(partner.target, set()).add(m)
    ra, lead_a = group_rating(t, g, partner.use)
    rb, lead_b = group_rating(t, partner, g.use)
    roll = t.dice.contest(ra, rb, t.rng)
    sweep = ("C7",) if g.secondary or partner.secondary else ()
    contest_event(t, "interfere", Sides(ra, g.members, rb, partner.members),
                  "attacking each other: one contest, only the higher succeeds (C3)", roll, ("C3", "C2") + sweep)
    if roll.winner == "attack":
        _grip(t, g, lead_a, ra)
        return [Hit(g.target, roll.margin, tuple(g.members))]
    if roll.winner == "defense":
        _grip(t, partner, lead_b, rb)
        return [Hit(partner.target, roll.margin, tuple(partner.members))]
    sides = {"attackers": list(g.members), "defenders": list(partner.members),
             **house(t, "switch.mutual_tie_both_succeed")}
    if t.rules.switch_bool("mutual_tie_both_succeed"):
        t.emit("no_effect", "equal ratings: both attacks succeed, with no losses (C3)", ("C3",), **sides)
    else:
        t.emit("no_effect", "equal ratings: nobody suffers losses (C3)", ("C3",), **sides)
    return []


def _attack(t: Turn, g: Group) -> list[Hit]:
    """C2, C5: a group against its target's opposition; the loser of the difference takes it."""
    dfn, how, dskill = opposition(t, g.target, g)
    att, leader = group_rating(t, g, dskill)
    roll = t.dice.contest(att, dfn, t.rng)
    rules = (["C7"] if g.secondary else []) + ["C2", "C5"] + (["S7"] if len(g.members) > 1 else []) \
        + (["C4"] if g.half.ranged else [])
    contest_event(t, "secondary" if g.secondary else "attack", Sides(att, g.members, dfn, [g.target]), how, roll,
                  rules)
    if roll.winner == "attack":
        _grip(t, g, leader, att)
        return [Hit(g.target, roll.margin, tuple(g.members))]
    if roll.winner == "defense" and t.rules.switch_bool("defense_inflicts_losses"):
        it = t.intents.get(g.target)
        if it and t.rules.halves[it.use].act == "attack" and dskill:
            return [Hit(g.members[0], roll.margin, (g.target,))]
    return []


def _grip(t: Turn, g: Group, leader: CharId, r: Rating) -> None:
    """M13: a successful Wrestle grabs its target (or throws a foe already held), with the strength of
    the leader's Wrestle as the step began (the reach of a throw: its effective rating, L5 included)."""
    if uses.grips(t.rules, g.use):
        strength = standing(t.rules, t.char(leader), g.use, t.st[leader].major)
        t.grips.append((g.target, leader, r.value, strength))


def _land_grips(t: Turn) -> None:
    for held, wrestler, value, strength in t.grips:
        if not (t.active(held) and t.active(wrestler)):
            continue
        it = t.intents[wrestler]
        if it.throw is not None and t.state[held].held_by == wrestler and it.target == held:
            _throw(t, held, wrestler, (int(it.throw[0]), int(it.throw[1])), strength)
            continue
        t.st[held] = t.st[held].with_(held_by=wrestler, hold=value)
        t.emit("grabbed", f"{t.name(wrestler)} grabs {t.name(held)} (grip {value}): it cannot move "
               f"away unless its Escape beats {value} (C8); next turn it can be thrown (M13)", ("M13", "C8"),
               who=held, by=wrestler, hold=value)
    t.grips.clear()


def _throw(t: Turn, held: CharId, wrestler: CharId, to: XY, strength: int) -> None:
    """M13: a held foe thrown, landing through the one door of every change of square (`enter`: not on
    a wall, in a pit or on someone, M1, M5, M10; its hazard strikes, E1). Where the throw may reach is
    asked again as it happens: the wrestler may have lost a major loss since it declared (L5)."""
    board, start = t.enc.board, t.st[held].at

    def say() -> None:
        t.emit("thrown", f"{t.name(wrestler)} throws {t.name(held)} to {to} (M13)", ("M13",),
               who=held, by=wrestler, to=list(to))

    why = None
    if board is not None and start is not None:
        why = throw_refusal(board, t.rules.switch_str("diagonals"), start, to, strength)
    if why is None:
        why = enter(t, held, to, (to,), say, held_by=None, hold=0)
    if why is not None:
        t.emit("no_effect", f"{t.name(wrestler)} cannot throw {t.name(held)} onto {to}: {why.why}",
               tuple(dict.fromkeys(("M13", why.rule))), who=wrestler, use=t.intents[wrestler].use, target=held,
               reason=why.why, rule="M13", **house(t, "M13"))  # where a throw may land: M13's house part
