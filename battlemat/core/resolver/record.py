"""What the record says besides the outcomes themselves: which house rules decided an event (read
from the rules data: `Rules.house_rule`), and why a declared intent came to nothing (DESIGN: events
are the record; nothing a character declared disappears without a line).

The phase modules call these small helpers where they emit; every refusal made here is a `no_effect`
event with the character (`who`), the skill half it declared (`use`), its `target` when it has one,
plain words (`reason`) and the rule ID behind it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from battlemat.core import uses
from battlemat.core.character import Character
from battlemat.core.dice import Roll
from battlemat.core.events import Contest, words
from battlemat.core.intents import Intent
from battlemat.core.rating import Rating
from battlemat.core.resolver.turn import Attack, Turn
from battlemat.core.rules import Rules
from battlemat.core.types import CharId

if TYPE_CHECKING:  # a name for mypy only
    from battlemat.core.resolver.turn import Text


class House:
    """The house rules behind one event, gathered as it is made: `data()` is the event's
    `house: true` and `house_rules` (each rule ID with its switch and value, or its data)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.found: list[dict[str, object]] = []

    def add(self, *refs: str, size: int | None = None) -> House:
        for ref in refs:
            h = self.rules.house_rule(ref, size)
            if h is not None and h not in self.found:
                self.found.append(h)
        return self

    def rating(self, r: Rating, against: str | None, who: Iterable[Character] = ()) -> House:
        """The house parts of a rating (of one of `who`): an item's bonus by its quality (S5), a group
        bonus from the table (S7), a house matchup (S8), a house talent bonus (S3), major-loss
        penalties on skills (L5), cover on the line (R4)."""
        if r.fixed is not None:
            return self
        if r.equipment and r.skill in self.rules.halves:
            pair = self.rules.halves[r.skill].pair
            for c in who:
                for e in c.equipment:
                    if e.skill == pair and e.bonus == r.equipment and e.quality:
                        self.add(f"switch.equipment_{e.quality}")
        if r.group:
            self.add("switch.group_table", size=r.group_size)
        if r.matchup and against:
            self.add(f"matchup.{r.skill}.{against}")
        if r.talent:
            self.add(f"talent.{r.skill}")
        if r.losses:
            self.add("switch.major_loss_penalty")
        if any(m.rule == "R4" for m in r.situational):
            self.add("R4")
        return self

    def data(self) -> dict[str, object]:
        return {"house": True, "house_rules": list(self.found)} if self.found else {}


def house(t: Turn, *refs: str, size: int | None = None) -> dict[str, object]:
    """The event data marking the house rules among `refs` (empty when all are core)."""
    return house_of(t.rules, *refs, size=size)


def house_of(rules: Rules, *refs: str, size: int | None = None) -> dict[str, object]:
    return House(rules).add(*refs, size=size).data()


def contest_house(t: Turn, kind: str, sides: tuple[Rating, Sequence[CharId], Rating, Sequence[CharId]],
                  roll: Roll) -> Callable[[], dict[str, object]]:
    """The house rules that decided a contest between `sides` (attack rating, attackers, defence rating,
    defenders), looked up when the record is read (`_contest_house`), from what the turn knows now."""
    attack, attackers, defense, defenders = sides
    mine = t.intents.get(defenders[0]) if defenders else None
    used = t.intents.get(attackers[0]) if attackers else None
    pinned = bool(defenders) and defenders[0] in t.pinned
    return partial(_contest_house, t.rules, kind, (attack, tuple(map(t.char, attackers)), defense,
                                                   tuple(map(t.char, defenders))), (mine, used, pinned), roll)


def _contest_house(rules: Rules, kind: str, sides: tuple[Rating, tuple[Character, ...], Rating, tuple[Character, ...]],
                   declared: tuple[Intent | None, Intent | None, bool], roll: Roll) -> dict[str, object]:
    """Both ratings' house parts, the dice engine (D3), and how the defender opposed it (C5: a skill the
    text does not name, a Technology skill, a Block meeting a whole group, a defender out-rating an
    attacker it is not attacking). `declared`: the first defender's intent and the first attacker's, and
    whether the defender is held (C8)."""
    attack, attackers, defense, defenders = sides
    h = House(rules).rating(attack, defense.skill, attackers).rating(defense, attack.skill, defenders).add(roll.rule)
    it, used, pinned = declared
    if kind in ("attack", "secondary") and defenders and attackers:
        if it is not None and used is not None and not rules.halves[used.use].opposed_by:
            half = rules.halves[it.use]
            if half.defense == "half" and half.act != "attack":
                h.add("switch.other_skill_defense")
            elif half.defense == "undefended" and half.act != "item":
                h.add("C5")
            elif half.defense == "full_vs_chosen" and not defense.halved and len(attackers) > 1:
                h.add("switch.group_is_one_threat")
            elif half.defense == "full" and pinned:
                h.add("switch.held_exit_opposes")  # C8: a held character's Exit
            if kind == "secondary" and half.defense == "full_vs_chosen":
                h.add("C7")  # a sweep is a threat of its own for a Block or Dodge to choose
            if roll.winner == "defense" and half.act == "attack":
                h.add("switch.defense_inflicts_losses")
    return h.data()


def refuse(t: Turn, about: tuple[CharId, str, CharId | None], text: Text, reason: str, rule: str,
           **more: object) -> None:
    """A declared intent (or part of one: `about` is who, the half it uses, its target) that does not
    happen, with its reason and rule."""
    who, use, target = about
    t.emit("no_effect", text, (rule,), who=who, use=use, target=target, reason=reason, rule=rule, **more)


def out_of_fight(t: Turn, cid: CharId) -> tuple[str, str]:
    """(words, rule) for a character no longer in the fight: defeated (L3) or fled (C5)."""
    s = t.st[cid]
    if s.fled:
        return f"{t.name(cid)} has left the conflict", "C5"
    when = "earlier this turn" if t.state[cid].active else "in an earlier turn"
    return f"{t.name(cid)} was defeated {when}", "L3"


def target_gone(t: Turn, attackers: Iterable[CharId], use: str, target: CharId, secondary: bool = False) -> None:
    """An attack whose target is already out of the fight (defeated or fled) has no effect."""
    said, rule = _fell(t, target)
    what = "sweep" if secondary else use
    for who in attackers:
        refuse(t, (who, use, target), words("{}: {} on {} has no effect: {}".format, t.name(who), what, t.name(target),
                                            said), said, rule)


def fallen(t: Turn, attacks: Iterable[Attack]) -> None:
    """Attackers out of the fight before their step comes (felled in P3 before a P4 attack, or by
    intimidation before a shot): their attacks do not happen, and the record says so."""
    for a in attacks:
        if t.active(a.who) or a.secondary or (a.who, a.target) in t.failed:
            continue  # (a sweep is said with its primary attack: sweeps_lost)
        t.failed.add((a.who, a.target))
        said, rule = _fell(t, a.who)
        refuse(t, (a.who, a.use, a.target),
               f"{said}, before its {a.half.phase} {a.use} on {t.name(a.target)}: the attack does not happen",
               f"{said}, before its {a.half.phase} {a.use}", rule)
        sweeps_lost(t, a)


def sweeps_lost(t: Turn, a: Attack) -> None:
    """C7: the extra targets of an attack that does not happen are not struck either."""
    it = t.intents.get(a.who)
    for extra in it.also if it is not None else ():
        if (a.who, extra) in t.failed:
            continue
        t.failed.add((a.who, extra))
        refuse(t, (a.who, a.use, extra), f"{t.name(a.who)}: its sweep at {t.name(extra)} does not happen either (C7)",
               f"its {a.use} on {t.name(a.target)} does not happen", "C7")


def items_of_the_fallen(t: Turn) -> None:
    """P4: an item user out of the fight before P4 does not use its item."""
    for cid in t.order():
        it = t.intents.get(cid)
        if it is None or t.rules.halves[it.use].act != "item" or t.active(cid):
            continue
        said, rule = _fell(t, cid)
        refuse(t, (cid, it.use, it.target), f"{said}, before its item use in P4: the item is not used",
               said, rule)


def _fell(t: Turn, cid: CharId) -> tuple[str, str]:
    """('Garran was defeated in P3', 'L3'): how and when `cid` left the fight this turn."""
    words, rule = out_of_fight(t, cid)
    for ev in t.events:
        if ev.type in ("defeated", "fled") and ev.data.get("who") == cid:
            return words.replace(" earlier this turn", "") + f" in {ev.phase}", ev.rules[0] if ev.rules else rule
    return words, rule


def untested_defences(t: Turn) -> None:
    """End of P4: a Block or Dodge that no attack met this turn says so (C5)."""
    met = {d for ev in t.events if isinstance(ev.payload, Contest) for d in ev.payload.defenders}
    for cid in t.order():
        it = t.intents.get(cid)
        if it is None or t.rules.halves[it.use].act != "defend" or cid in met or not t.active(cid):
            continue
        refuse(t, (cid, it.use, it.target), words(_unmet_words, t.name(cid), it.use, t.name(it.target) if it.target
                                                  else ""), "no attack came against it", "C5")


def _unmet_words(name: str, use: str, watched: str) -> str:
    named = f" (it watched {watched})" if watched else ""
    return f"{name}'s {use} meets no attack this turn{named} (C5)"


def idle_searches(t: Turn, searched: set[CharId]) -> None:
    """P1: an active search (Perception without a target) that found nobody hiding says so (O4)."""
    for cid in t.order():
        it = t.intents.get(cid)
        if it is None or not uses.searches(t.rules, it.use) or it.target is not None or cid in searched:
            continue
        refuse(t, (cid, it.use, None), f"{t.name(cid)} searches actively, but nobody hides from it (O4)",
               "nobody hides from it", "O4")


def still_here(t: Turn) -> None:
    """End of turn: an Exit user still in the fight says why it has not left (C5)."""
    for cid in t.order():
        it = t.intents.get(cid)
        if it is None or not uses.flees(t.rules, it) or not t.active(cid) or cid in t.pinned or cid in t.caught \
                or cid in t.held_on_edge:
            continue  # (a held Exit said why in P2, C8, and a pursued one lost its pursuit there, C5)
        if not t.rules.switch_bool("exit_leaves_conflict"):
            refuse(t, (cid, it.use, it.target), f"{t.name(cid)} uses Exit but stays in the conflict: "
                   "Exit does not leave it under this encounter's rules (C5)", "exit_leaves_conflict is off",
                   "C5", **house(t, "switch.exit_leaves_conflict"))
        elif t.enc.board is not None:
            refuse(t, (cid, it.use, it.target), f"{t.name(cid)} is still on the map: Exit leaves the conflict "
                   "only at the map's edge (C5)", "has not reached the map's edge", "C5",
                   **house(t, "switch.exit_leaves_conflict"))
