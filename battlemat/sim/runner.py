"""Play one combat to the end with AI on every side, and boil its events down to a RunResult.

Each run has its own seed, derived from the batch seed and the run's index, so a batch gives the
same numbers however it is split between workers. The match's random.Random rolls the dice; the
tactics draw from their own stream derived from the same seed (`ai_stream`), so a change of tactics
never re-rolls a die, and a replay needs only the intents.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from battlemat.ai import Brain, ai_stream
from battlemat.core.encounter import Encounter
from battlemat.core.events import Contest, Event, Losses
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.memory import MatchMemory
from battlemat.core.state import MatchState
from battlemat.core.types import XY, CharId

# Event types that record a move cut short; their `rule` (or first rule ID) is the reason.
STOP_TYPES = ("stopped", "collided", "hazard")


def run_seed(batch_seed: int, index: int) -> int:
    """A per-run seed that depends only on (batch seed, run index): the same in any process."""
    return random.Random(f"battlemat/{batch_seed}/{index}").getrandbits(63)


@dataclass
class CharResult:
    minor: int
    major: int
    defeated: bool
    fled: bool


@dataclass
class RunResult:
    index: int
    seed: int
    winner: str | None  # side left standing; None for a draw or the turn cap
    turns: int
    capped: bool
    chars: dict[CharId, CharResult] = field(default_factory=dict)
    losses_taken: dict[CharId, int] = field(default_factory=dict)
    stop_reasons: Counter[str] = field(default_factory=Counter)
    defeat_squares: list[XY] = field(default_factory=list)
    stop_squares: list[XY] = field(default_factory=list)
    # The report's per-run aggregates (issue 18): small, so that workers ship them instead of logs.
    defeat_turn: dict[CharId, int] = field(default_factory=dict)  # the turn each defeated character fell
    side_losses: dict[str, list[int]] = field(default_factory=dict)  # side -> losses taken in turn 1, 2, ...
    uses: dict[CharId, Counter[str]] = field(default_factory=dict)  # character -> skill half declared (or "idle")
    decided_by: Counter[str] = field(default_factory=Counter)  # rule IDs of the events that caused defeating losses
    before_defeat: Counter[str] = field(default_factory=Counter)  # rule IDs of the defeat's turn before it (once each)
    presence: dict[str, Counter[XY]] = field(default_factory=dict)  # side -> squares its active characters held


@dataclass
class Recording:
    """One run's turns as a replay needs them: each turn's intents (the dice come from the seed)."""

    turns: list[tuple[Intent, ...]] = field(default_factory=list)


# One turn of a traced run: the intents the AI declared, why some characters held back (Brain.notes),
# the turn's events and the state after it.
Traced = tuple[tuple[Intent, ...], dict[CharId, str], tuple[Event, ...], MatchState]


def play_one(  # noqa: PLR0913 - the run's place in its batch, what it shares, and what to keep of it
    enc: Encounter, index: int, batch_seed: int, dice: str | None, max_turns: int,
    memory: MatchMemory | None = None, record: Recording | None = None,
    trace: list[Traced] | None = None,
) -> RunResult:
    """Run `index` of a batch. `memory`: one the batch's matches share (core.memory: a rating's fixed
    parts, allowances, the AI's figures are the encounter's, whichever match asks). `record`: filled
    with the run's intents and the AI's draws, for a replay (the run plays the same either way).
    `trace`: a list that gets every turn (Traced), for `simulate --log-run`; it changes nothing in the run."""
    seed = run_seed(batch_seed, index)
    match = Match(enc, seed=seed, dice=dice, memory=memory)
    rng = ai_stream(seed)
    brain = Brain(enc, match.memory, match.dice)
    result = RunResult(index, seed, None, 0, False)
    side_of = {c.id: c.side for c in enc.characters}
    result.side_losses = {side: [] for side in enc.sides}
    result.presence = {side: Counter() for side in enc.sides}
    while not match.outcome().over and match.state.turn <= max_turns:
        intents = brain.decide(match.state, rng)
        if record is not None:
            record.turns.append(tuple(intents))
        declared = {it.who: it.use for it in intents}
        for cid, st in match.state.chars.items():
            if st.active:
                result.uses.setdefault(cid, Counter())[declared.get(cid, "idle")] += 1
        for losses in result.side_losses.values():
            losses.append(0)
        events = match.play(intents)
        if trace is not None:
            trace.append((tuple(intents), dict(brain.notes), events, match.state))
        _digest(result, events, match, side_of)
        for cid, st in match.state.chars.items():
            if st.active and st.at is not None:
                result.presence[side_of[cid]][(int(st.at[0]), int(st.at[1]))] += 1
        match.log.clear()  # digested: a turn's events go while they are fresh in the caches
    out = match.outcome()
    result.turns = match.state.turn - 1
    result.capped = not out.over
    result.winner = out.winner if out.over else None
    result.chars = {
        cid: CharResult(s.minor, s.major, s.defeated, s.fled) for cid, s in match.state.chars.items()
    }
    return result


def _digest(result: RunResult, events: tuple[Event, ...], match: Match, side_of: dict[CharId, str]) -> None:
    for i, ev in enumerate(events):
        if ev.type == Losses.TYPE:
            lost = Losses.of(ev)
            who, n = lost.who, lost.n
            result.losses_taken[who] = result.losses_taken.get(who, 0) + n
            result.side_losses[side_of[who]][-1] += n
        elif ev.type == "defeated":
            result.defeat_turn[ev.data["who"]] = ev.turn
            _why_defeated(result, events, i)
            at = match.state[ev.data["who"]].at
            if at is not None:
                result.defeat_squares.append(tuple(at))  # type: ignore[arg-type]
        elif ev.type in STOP_TYPES:
            rule = str(ev.data.get("rule") or (ev.rules[0] if ev.rules else ev.type))
            entry = match.encounter.rules.entries.get(rule)
            result.stop_reasons[f"{rule}: {entry.title}" if entry else rule] += 1
            at = ev.data.get("at")
            if isinstance(at, (list, tuple)) and len(at) == 2:
                result.stop_squares.append((int(at[0]), int(at[1])))


# Events that only mark the turn's course; they precede every defeat and say nothing of its cause.
_FRAME = frozenset(("turn_start", "phase", "intent", "turn_end"))
# Events that deal losses: a `losses` event follows the one that caused it.
_CAUSES = frozenset(("contest", "check", "hazard", "collided", "thrown", "item_used"))


def _why_defeated(result: RunResult, events: tuple[Event, ...], at: int) -> None:
    """What decided the defeat at `events[at]`: the rule IDs of its losses events this turn and of
    the event that caused each (the nearest one before it that deals losses and names the
    character), into `decided_by`; every rule ID cited earlier in the turn, once, into
    `before_defeat`. Looked at only when someone falls, so it costs nothing on other turns."""
    who = events[at].data["who"]
    decided: set[str] = set()
    for j in range(at):
        ev = events[j]
        if ev.type != Losses.TYPE or Losses.of(ev).who != who:
            continue
        decided.update(ev.rules)
        for k in range(j - 1, -1, -1):
            cause = events[k]
            if cause.type in _CAUSES and _names(cause, who):
                decided.update(cause.rules)
                decided.update(_rating_rules(cause))
                break
    result.decided_by.update(decided)
    result.before_defeat.update({r for ev in events[:at] if ev.type not in _FRAME for r in ev.rules})


def _rating_rules(ev: Event) -> set[str]:
    """The rule IDs inside a contest's ratings: the situational modifiers and adjustments (flanking,
    losses, cover...) that tipped it."""
    if ev.type != Contest.TYPE:
        return set()
    c = Contest.of(ev)
    return {m.rule for r in (c.attack, c.defense) for m in (*r.situational, *r.adjustments) if m.rule}


def _names(ev: Event, who: CharId) -> bool:
    if ev.type == Contest.TYPE:
        c = Contest.of(ev)
        return who in c.attackers or who in c.defenders
    d = ev.data
    if d.get("who") == who or d.get("target") == who:
        return True
    return any(who in (d.get(key) or ()) for key in ("attackers", "defenders"))
