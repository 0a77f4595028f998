"""One turn, phase by phase: `resolve_turn` (the package's door, see its docstring) and the declared
phases it walks (`PHASES`, STYLE.md 8)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from battlemat.core.dice import DiceEngine
from battlemat.core.encounter import Encounter
from battlemat.core.errors import IllegalIntent
from battlemat.core.events import Event, words
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory, remember
from battlemat.core.resolver.attacks import ranged_phase, reach_phase
from battlemat.core.resolver.defense import plan_blocks
from battlemat.core.resolver.endturn import end_of_turn
from battlemat.core.resolver.moves import movement_phase
from battlemat.core.resolver.observe import observations
from battlemat.core.resolver.turn import Attack, Turn
from battlemat.core.resolver.validate import validate_intent
from battlemat.core.state import MatchState

PHASES: tuple[tuple[str, str, Callable[[Turn], None]], ...] = (
    ("P1", "observations", observations),
    ("P2", "movement and communication", movement_phase),
    ("P3", "ranged effects", ranged_phase),
    ("P4", "reach effects", reach_phase),
)


@dataclass(frozen=True)
class TurnResult:
    events: tuple[Event, ...]
    state: MatchState


def resolve_turn(
    enc: Encounter,
    state: MatchState,
    intents: Sequence[Intent],
    rng: random.Random,
    dice: DiceEngine,
    memory: MatchMemory | None = None,
) -> TurnResult:
    """Resolve one turn. Raises IllegalIntent before anything happens if an intent breaks a rule."""
    t = Turn(enc, state, rng, dice, remember(memory, enc))
    declare(t, intents)
    for phase, title, run in PHASES:
        t.phase = phase
        t.emit_data("phase", f"{phase}: {title}", (phase,), {})
        run(t)
    t.phase = "end"
    end_of_turn(t)
    after = state.replace_chars(t.st, turn=state.turn + 1, doors=t.doors or None)
    t.emit_data("turn_end", f"end of turn {state.turn}", ("L2",), partial(_states, after))
    return TurnResult(tuple(t.events), after)


def _states(after: MatchState) -> dict[str, object]:
    """turn_end's data: every character as the turn leaves it, and on a map with doors each door's
    state (core.walls)."""
    out: dict[str, object] = {"state": after.to_dict()}
    if after.doors:
        out["doors"] = [{"door": d, "state": st} for d, st in after.doors.items()]
    return out


def declare(t: Turn, intents: Sequence[Intent]) -> None:
    """Every intent checked (one door), recorded in declaration order, the attacks listed (a sweep at a
    secondary target among them, C7), and each Block/Dodge user's choice of threats made (C5)."""
    t.emit("turn_start", f"turn {t.n}", ("P1", "P2", "P3", "P4"))
    for raw in intents:
        intent = validate_intent(t.enc, t.state, raw, memory=t.memory)
        if intent.who in t.intents:
            raise IllegalIntent(intent.who, "declared two intents in one turn; pick one skill use", "P1", "who")
        t.intents[intent.who] = intent
    halves = t.rules.halves
    for cid in t.order():  # the declared attacks with a target, in declaration order
        it = t.intents.get(cid)
        if it is not None and it.target is not None and halves[it.use].act == "attack":
            t.attacks.append(Attack(cid, it.use, it.target, halves[it.use]))
    for cid in t.order():  # then each sweep at a secondary target (C7): an attack like any other
        it = t.intents.get(cid)
        if it is not None and it.also and halves[it.use].act == "attack":
            t.attacks.extend(Attack(cid, it.use, extra, halves[it.use], secondary=True) for extra in it.also)
    for cid in t.order():
        it = t.intents.get(cid)
        if it is None:
            if t.active(cid):
                t.emit("intent", f"{t.name(cid)} is idle", (), who=cid, use=None)
            continue
        half = halves[it.use]
        t.emit_data("intent", words(_intent_words, t.name(cid), it, t.name(it.target) if it.target else "",
                                    half.untargeted), (half.phase_of(it.target),), it.to_dict)
    plan_blocks(t)


def _intent_words(name: str, it: Intent, target: str, untargeted: str) -> str:
    out = f"{name} uses {it.use}" + (f" on {target}" if it.target else "")
    if it.target is None and untargeted:
        out += f": an intimidating {untargeted}"  # O5: Wonder without a target
    if it.to is not None or it.path:
        out += f", heading for {tuple(it.to) if it.to is not None else tuple(it.path[-1])}"
    if it.throw is not None:
        out += f", to throw it to {tuple(it.throw)}"
    return out
