"""Intents through one door (STYLE 7): every intent is checked here before anything happens.

The UI and the AI call `validate_intent` before a turn is resolved; the resolver calls it again for
every declared intent. The answer depends on nothing but the encounter, the state and the intent
(all values), so the match's memory (core.memory) remembers the intents found legal against the
state being declared: the resolver's check of what the AI or the UI just checked is a look-up, by
identity first (an intent's hash is worked out in Python, field by field), then by value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from battlemat.core import movement, uses
from battlemat.core.encounter import Encounter
from battlemat.core.errors import IllegalIntent, RulesError
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.rating import standing
from battlemat.core.resolver.enter import throw_refusal
from battlemat.core.rules import Half
from battlemat.core.state import MatchState
from battlemat.core.types import XY


def validate_intent(enc: Encounter, state: MatchState, intent: Intent, *, fresh: bool = False,
                    memory: MatchMemory | None = None) -> Intent:
    """Check one intent against the rules; return it with canonical skill spelling.

    The intents found legal against a state are remembered in the match's `memory` (a question
    asked without one is worked out afresh). `fresh`: the intent was just made and is checked once
    (the AI's), so it is remembered by identity only.
    """
    if memory is None:
        memory = MatchMemory(enc)
    mem = memory.of_state(state)
    seen = mem.by_id.get(id(intent))
    if seen is not None and seen[0] is intent:
        return seen[1]
    if fresh:
        hit = _validate(enc, state, intent, memory)
    else:
        try:
            known = mem.valid.get(intent)
        except TypeError:  # an intent built with lists instead of tuples: checked, not remembered
            return _validate(enc, state, intent, memory)
        hit = known if known is not None else mem.valid.setdefault(intent, _validate(enc, state, intent, memory))
    mem.by_id[id(intent)] = (intent, hit)  # (holding the intent keeps its id from being reused)
    return hit


def _validate(enc: Encounter, state: MatchState, intent: Intent, memory: MatchMemory) -> Intent:
    enc = enc.fitted(state)  # the board as the state has its doors (core.walls)
    who = intent.who
    _check_actor(enc, state, intent)
    use, half = _canonical(enc, intent)
    _check_target(enc, state, intent, use, half)
    if intent.also:
        _check_secondary(enc, state, intent, half)
    for m in intent.modifiers:
        if m.value not in (-2, -1, 1, 2):
            raise IllegalIntent(who, f"a situational modifier is +-1 or +-2, not {m.value}", "S6", "modifiers")
    held_by = state[who].held_by
    if held_by is not None and state[held_by].active and intent.moves and not half.breaks_grip:
        name = enc.by_id[held_by].name
        raise IllegalIntent(who, f"is held by {name}: only Escape can break the grip before moving", "C8", "to")
    if intent.throw is not None:
        _validate_throw(enc, state, intent, use)
    if enc.board is not None and intent.moves:
        _validate_move(enc, state, intent, use, memory)
    if use == intent.use:
        return intent
    return dataclasses.replace(intent, use=use)


def _check_actor(enc: Encounter, state: MatchState, intent: Intent) -> None:
    """Only a character of the encounter still in the fight acts (L3, C5)."""
    who = intent.who
    if who not in enc.by_id:
        raise IllegalIntent(who, f"no character with id {who!r} in this encounter", field="who")
    st = state[who]
    if st.defeated:
        raise IllegalIntent(who, "is defeated and cannot act", "L3", "who")
    if st.fled:
        raise IllegalIntent(who, "has left the conflict and cannot act", "C5", "who")


def _canonical(enc: Encounter, intent: Intent) -> tuple[str, Half]:
    """The half used, spelt as the rules spell it (S1), and its rules data; an item use names its kind (M1)."""
    rules, who, use = enc.rules, intent.who, intent.use
    half = rules.halves.get(use)  # spelt as the rules spell it (the AI's and the UI's intents): no look-up by case
    if half is not None and use != "item":
        return use, half
    if use.strip().lower() == "item":
        if intent.item not in rules.item_move:
            raise IllegalIntent(
                who, f"item use must be one of {', '.join(rules.item_move)}, not {intent.item!r}", "M1", "item"
            )
        return "item", rules.halves["item"]
    try:
        use = rules.half(use).name
    except RulesError as exc:
        raise IllegalIntent(who, str(exc), "S1", "use") from None
    return use, rules.halves[use]


def _check_target(enc: Encounter, state: MatchState, intent: Intent, use: str, half: Half) -> None:
    """A target is another character still in the fight; attacks and most observations need one."""
    who, target = intent.who, intent.target
    if target is not None:
        if target not in enc.by_id:
            raise IllegalIntent(who, f"target {target!r} is not a character in this encounter", field="target")
        if target == who:
            raise IllegalIntent(who, "cannot target itself", field="target")
        if not state[target].active:
            raise IllegalIntent(who, f"target {target} is already out of the fight", "L3", "target")
    needs_target = half.act in ("observe", "hide") and not half.searches
    needs_target |= half.act == "attack" and not half.untargeted
    if needs_target and target is None:
        raise IllegalIntent(who, f"{use} needs a target", half.phase, "target")
    if target is not None and not uses.takes_target(enc.rules, use):
        raise IllegalIntent(who, f"{use} takes no target: it acts on nobody in its phase ({half.phase}); leave the "
                            "target out", half.phase, "target")
    if target is not None and half.stops_flight and enc.by_id[target].side == enc.by_id[who].side:
        raise IllegalIntent(who, f"an {use} with a target stops an enemy's {use} (C5, text line 75), not an ally's",
                            "C5", "target")



def _check_secondary(enc: Encounter, state: MatchState, intent: Intent, half: Half) -> None:
    """C7: a Melee talent strikes up to talent-rating extra foes."""
    who = intent.who
    if not half.sweeps:
        raise IllegalIntent(who, "only Melee may strike secondary targets", "C7", "also")
    talent = enc.by_id[who].talent(half.pair)
    if len(intent.also) > talent:
        raise IllegalIntent(
            who, f"Melee talent {talent} allows {talent} secondary target(s), not {len(intent.also)}", "C7", "also"
        )
    for extra in intent.also:
        if extra not in enc.by_id or extra in (who, intent.target) or not state[extra].active:
            raise IllegalIntent(who, f"secondary target {extra!r} is not a fresh foe in the fight", "C7", "also")
    if len(set(intent.also)) != len(intent.also):
        raise IllegalIntent(who, "a secondary target is listed twice", "C7", "also")


def _validate_throw(enc: Encounter, state: MatchState, intent: Intent, use: str) -> None:
    """M13: Wrestle throws a foe it grabbed on an earlier turn, up to 1 square per Wrestle rating."""
    who, target = intent.who, intent.target
    if not uses.grips(enc.rules, use) or target is None:
        raise IllegalIntent(who, "only Wrestle on a held foe can throw it", "M13", "throw")
    if state[target].held_by != who:
        raise IllegalIntent(who, f"does not hold {enc.by_id[target].name}: grab it with Wrestle first", "M13", "throw")
    start, to = state[target].at, _xy(intent.throw)  # type: ignore[arg-type]
    board = enc.board
    if board is not None and start is not None:
        # "one map square per Wrestle skill rating" names no base rating: the effective one (text line 15)
        strength = standing(enc.rules, enc.by_id[who], use, state[who].major)
        why = throw_refusal(board, enc.rules.switch_str("diagonals"), start, to, strength)
        if why is not None:
            raise IllegalIntent(who, f"cannot throw onto {to}: {why.why}", "M13", "throw")


def _xy(v: Sequence[int]) -> XY:
    return (int(v[0]), int(v[1]))


def _bare(why: str, rule: str) -> str:
    """Words without their trailing '(rule)': IllegalIntent adds the rule itself."""
    tag = f" ({rule})"
    return why[: -len(tag)] if why.endswith(tag) else why


def _validate_move(enc: Encounter, state: MatchState, intent: Intent, use: str, memory: MatchMemory) -> None:
    """With a board, a declared `to` or `path` must be reachable as the board stands at the start
    of the turn (terrain, allowance, everyone's square); sticky zones and collisions only cut
    plans short while resolving (M6, M10). The UI preview calls the same `movement.reach`."""
    who = intent.who
    board = enc.map_board
    if state[who].at is None:
        raise IllegalIntent(who, "has no square on the map, so it cannot move", "M1", "to")
    for sq in ((intent.to,) if intent.to is not None else ()) + tuple(intent.path):
        if not board.inside(sq):
            raise IllegalIntent(who, f"square {tuple(sq)} is off the map", "M1", "path" if intent.path else "to")
    mover = movement.mover_for(memory, state.chars, who, use, intent.target, intent.item)
    ctx = start_context(enc, state, enc.by_id[who].side, memory)
    if intent.path:
        route = movement.follow(board, enc.rules, mover, ctx, [_xy(p) for p in intent.path])
        if route.stopped is not None and route.end != _xy(intent.path[-1]):
            why = _bare(route.stopped.why, route.stopped.rule)
            raise IllegalIntent(who, f"path stops at {route.end}: {why}", route.stopped.rule, "path")
        return
    assert intent.to is not None
    rc = movement.reach(board, enc.rules, mover, ctx)
    to = _xy(intent.to)
    if not rc.can_end(to):
        refusal = rc.why_not(to)
        raise IllegalIntent(who, f"cannot end on {to}: {_bare(refusal.why, refusal.rule)}", refusal.rule, "to")


def start_context(enc: Encounter, state: MatchState, side: str, memory: MatchMemory) -> movement.Context:
    """Who stands where as the turn starts, for any mover of `side` (M10): the same for every intent
    declared against this state (the AI's plans, the checks of intents, the plans that P2 follows),
    so it is worked out once per state (MatchMemory.of_state)."""
    contexts = memory.of_state(state).contexts
    ctx = contexts.get(side)
    if ctx is None:
        ctx = contexts[side] = movement.context(enc, state.chars, side)
    return ctx


