"""P3 and P4, the attack phases: ranged effects (Wonder intimidation, then Shoot/Throw, then other ranged
effects; C4: each its own contest) and reach effects (Melee/Press, Wrestle/Disarm, Provoke, items by
touch; C3: mutual attacks interfere). On a map each first checks what movement left possible (R2,
R4, P4); an attack that cannot happen says why in a `no_effect` event.
"""

from __future__ import annotations

from types import MappingProxyType

from battlemat.core import geometry, uses
from battlemat.core.events import words
from battlemat.core.resolver.contests import run_attacks
from battlemat.core.resolver.ratings import attack_groups
from battlemat.core.resolver.record import fallen, house, items_of_the_fallen, refuse, untested_defences
from battlemat.core.resolver.turn import Attack, Turn
from battlemat.core.rules import Half
from battlemat.core.types import XY, CharId

P3_STEPS = (1, 2, 3)  # P3: Wonder intimidation, Shoot/Throw, other ranged effects (`phase_order`)
# The house part behind a failed attack's rule, as the rules data names it: R2's list of aggressive
# skills is a switch; R4's sight line between square centres is R4's own house part.
_HOUSE_PART = MappingProxyType({"R2": "switch.aggressive_skills"})


def ranged_phase(t: Turn) -> None:
    """P3: each step's groups in turn, so that an archer felled by intimidation shoots no more."""
    _board_checks(t, ranged=True)
    steps = {a.half.phase_order for a in t.attacks if _ranged(a.half)}
    for step in P3_STEPS:
        if step not in steps:
            continue  # nobody attacks in this step

        def in_step(h: Half, s: int = step) -> bool:
            return h.ranged and h.phase == "P3" and h.phase_order == s

        fallen(t, [a for a in t.attacks if in_step(a.half)])
        groups = attack_groups(t, in_step)
        if groups:
            run_attacks(t, groups, interfere=False)


def reach_phase(t: Turn) -> None:
    """P4: items used (C5: undefended while doing so), then every reach attack in one step; a Block or
    Dodge that met no attack says so."""
    fallen(t, [a for a in t.attacks if _reach(a.half)])
    items_of_the_fallen(t)
    _board_checks(t, ranged=False)
    for cid in t.order():
        it = t.intents.get(cid)
        if it and t.rules.halves[it.use].act == "item" and t.active(cid):
            on = f" on {t.name(it.target)}" if it.target else ""
            t.emit("item_used", f"{t.name(cid)} uses an item{on}: undefended while doing so (C5)", ("C5", "P4"),
                   who=cid, target=it.target)
    groups = attack_groups(t, _reach)
    if groups:
        run_attacks(t, groups, interfere=True)
    untested_defences(t)


def _ranged(h: Half) -> bool:
    return h.ranged and h.phase == "P3"


def _reach(h: Half) -> bool:
    return h.reach and h.phase == "P4"


def _board_checks(t: Turn, ranged: bool) -> None:
    """After movement: a ranged attack needs sight (R4) and no aggressive foe next to a Shoot (R2);
    a reach attack needs its target next to it (P4; a sweep its secondary target, C7). Failures are
    `no_effect` events, and only the attack that failed comes to nothing."""
    if t.enc.board is None:
        return
    engaging: list[tuple[CharId, str, XY]] | None = None  # R2: who is aggressive, and where (as the check began)
    for attack in t.attacks:
        h = attack.half
        if not (h.ranged and h.phase == "P3" if ranged else h.reach and h.phase == "P4"):
            continue
        if not t.active(attack.who) or (attack.who, attack.target) in t.failed or not t.active(attack.target):
            continue  # (a target already out of the fight is said when the attack comes: contests)
        if ranged and engaging is None and h.engaged_forbids:
            engaging = _aggressive(t)
        why, rule = _why_not(t, attack, ranged, engaging or [])
        if why:
            t.failed.add((attack.who, attack.target))
            what = "sweep" if attack.secondary else attack.use
            refuse(t, (attack.who, attack.use, attack.target),
                   words("{}: {} on {} fails: {}".format, t.name(attack.who), what, t.name(attack.target), why), why,
                   rule,
                   **house(t, _HOUSE_PART.get(rule, rule)))
            # C7: a sweep is an attack of its own, differing only by its -1 and by needing its target
            # next to the sweeper, so a primary target out of reach does not cancel it.


def _aggressive(t: Turn) -> list[tuple[CharId, str, XY]]:
    """R2: the characters in the fight using a half that makes them aggressive, with that half and their
    square, in declaration order (a refusal moves nobody, so one look serves a phase's checks)."""
    out: list[tuple[CharId, str, XY]] = []
    for c in t.order():
        o, s = t.intents.get(c), t.st[c]
        if o is not None and s.at is not None and s.active and uses.is_aggressive(t.rules, o.use):
            out.append((c, o.use, s.at))
    return out


def _why_not(t: Turn, attack: Attack, ranged: bool, engaging: list[tuple[CharId, str, XY]]) -> tuple[str, str]:
    """(words, rule) of why `attack` cannot happen from where everyone stands now; ("", "") if it can.
    `engaging`: who is aggressive, and where (R2, `_aggressive`)."""
    board = t.enc.map_board
    a, b = t.st[attack.who].at, t.st[attack.target].at
    if a is None or b is None:
        return "", ""
    if not ranged:
        if not geometry.adjacent(board, a, b):
            if attack.secondary:  # C7: a sweep strikes only foes next to the sweeper
                return f"{t.name(attack.target)} is not next to it after movement (C7)", "C7"
            return f"{t.name(attack.target)} is out of reach after movement (P4)", "P4"
        return "", ""
    seen, _, words = geometry.sight(board, a, b)
    if not seen:
        return words, "R4"
    if uses.engaged_forbids(t.rules, attack.use):
        for c, use, at in engaging:
            if t.enemies(c, attack.who) and geometry.adjacent(board, a, at):
                return f"cannot {attack.use} next to {t.name(c)}, who uses {use} (R2)", "R2"
    return "", ""
