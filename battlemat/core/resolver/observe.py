"""P1, observations: checks against a foe's target number, each observer alone (O1, O3), and hiding
from searchers, who may search as a group (O4, O2, S7)."""

from __future__ import annotations

from functools import partial

from battlemat.core import uses
from battlemat.core.dice import Roll
from battlemat.core.events import words
from battlemat.core.rating import Rating
from battlemat.core.resolver.ratings import group_bonus, rating
from battlemat.core.resolver.record import House, idle_searches
from battlemat.core.resolver.turn import Turn
from battlemat.core.state import Advantage
from battlemat.core.types import CharId


def observations(t: Turn) -> None:
    """P1: Perception, Identify, Lore and Intuition against target numbers, each observer alone (O1, O3);
    then Stealth against searchers (O4)."""
    observers: dict[tuple[str, CharId], list[CharId]] = {}
    for cid in t.order():
        it = t.intents.get(cid)
        if it and it.target and t.rules.halves[it.use].act == "observe":
            observers.setdefault((it.use, it.target), []).append(cid)
    for (use, target), members in observers.items():
        for cid in members:
            _observe(t, use, target, cid, len(members) > 1)
    searched: set[CharId] = set()
    for hider in t.order():
        it = t.intents.get(hider)
        if it is not None and t.rules.halves[it.use].act == "hide" and it.target is not None:
            searched.update(_hide(t, hider, it.target))
    idle_searches(t, searched)


def _grouped(t: Turn, members: list[CharId], use: str, vs: CharId) -> Rating:
    """S7: characters searching together act once, at the best rating (the first of equals) plus the
    group bonus (members rated 0 do not count, and the rating says why when there is no bonus)."""
    rated = [(m, rating(t, m, use, vs, None)) for m in members]
    best = max((r for _, r in rated), key=lambda r: r.value)
    if len(members) > 1:
        n, bonus, why = group_bonus(t, rated)
        best = best.with_(group=bonus, group_size=max(n, 1), notes=best.notes + why)
    return best


def _observe(t: Turn, use: str, target: CharId, cid: CharId, others: bool) -> None:
    """O1: a check against the foe's target number; success gives +1 against it for the rest of the
    combat (Identify/Lore: against every foe of its kind); O3: Intuition gives +2 next turn. Observations
    never conflict, and each observer succeeds or fails on its own skill: no group bonus (P1, O1)."""
    foe = t.char(target)
    other = t.rules.halves[use].pair.replace(use, "").strip("/")
    tn = foe.observe_tn.get(use, foe.observe_tn.get(other, t.rules.switch_int("default_observe_tn")))
    r = rating(t, cid, use, target, None)
    if others:
        r = r.with_(notes=r.notes + ("others observe too, but each observer succeeds or fails on its own "
                                     "skill: no group bonus (P1, O1)",))
    marks = House(t.rules).rating(r, None, [t.char(cid)])
    if use not in foe.observe_tn and other not in foe.observe_tn:
        marks.add("switch.default_observe_tn")
    roll = t.dice.check(r, tn, t.rng)
    t.emit_data("check", words(_check_words, t.name(cid), r, foe.name, tn, roll), ("O1", "C1", roll.rule),
                partial(_check_data, (cid, use, target, tn), r, roll, marks.add(roll.rule)))
    if not roll.success:
        return
    half = t.rules.halves[use]
    if half.reads_intentions:
        advs = [Advantage(target, 2, f"read {foe.name}'s intentions", "O3", t.n + 1)]
    else:
        foes = [target]
        if half.studies_kind and foe.kind:
            foes += [
                c.id for c in t.enc.characters
                if c.kind == foe.kind and c.id != target and t.enemies(c.id, cid) and t.active(c.id)
            ]
        advs = [Advantage(f, 1, f"studied with {use}", "O1") for f in foes]
    for adv in advs:
        t.grant(cid, adv, share=t.intents[cid].share)
    t.emit("observed", f"{t.name(cid)} learns how to fight {foe.name}", ("O1",), who=[cid], target=target)


def _hide(t: Turn, hider: CharId, foe: CharId) -> list[CharId]:
    """O4: a hider is found by a higher Perception (active searchers grouped, S7; else the foe's
    passive Perception, halved by O2); a tie keeps a motionless hider hidden [house]."""
    it = t.intents[hider]
    stealth = rating(t, hider, it.use, foe, None)
    search = uses.searching_half(t.rules).name
    searchers = [
        c for c in t.order()
        if t.enemies(c, hider) and (s := t.intents.get(c)) is not None
        and s.use == search and s.target in (None, hider)
    ]
    if searchers:
        found_by = searchers
        det = _grouped(t, searchers, search, hider)
        how = "searching actively"
    else:
        found_by = [foe]
        det = rating(t, foe, search, hider, None, halved=True)
        how = "not searching: Perception halved (O2)"
    roll = t.dice.contest(det, stealth, t.rng)
    tie_hides = t.rules.switch_bool("stealth_tie_hidden") and not it.moves
    found = roll.winner == "attack" or (roll.winner == "tie" and not tie_hides)
    names = ", ".join(t.name(c) for c in found_by)
    marks = (House(t.rules).rating(det, None, map(t.char, found_by)).rating(stealth, None, [t.char(hider)])
             .add(roll.rule))
    if roll.winner == "tie":
        marks.add("switch.stealth_tie_hidden")
    t.emit(
        "found" if found else "hidden",
        f"{names} ({det.explain()}, {how}) vs {t.name(hider)} ({stealth.explain()}): "
        + (f"{t.name(hider)} is found" if found else f"{t.name(hider)} stays hidden")
        + (" (tie; motionless hider stays hidden)" if roll.winner == "tie" and not found else ""),
        ("O4", "O2", "S7", "C2", roll.rule),
        who=hider,
        searchers=found_by,
        perception=det.to_dict(),
        stealth=stealth.to_dict(),
        **marks.data(),
    )
    if not found:
        t.hidden.append((hider, foe))
    return searchers


def _check_words(who: str, r: Rating, foe: str, tn: int, roll: Roll) -> str:
    ok = "succeeds" if roll.success else "fails"
    return f"{who}: {r.explain()} vs {foe}'s target number {tn} -> {ok}" + (f" ({roll.detail})" if roll.detail else "")


def _check_data(what: tuple[CharId, str, CharId, int], r: Rating, roll: Roll, marks: House) -> dict[str, object]:
    """A check's data (O1, C1): who observed whom with what against which target number, the rating's
    breakdown, the outcome; made when the record is read."""
    cid, use, target, tn = what
    return {"who": [cid], "use": use, "target": target, "tn": tn, "rating": r.to_dict(), "success": roll.success,
            "excess": roll.margin if roll.success else 0, **marks.data()}
