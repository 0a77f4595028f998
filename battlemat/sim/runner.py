"""Play one combat to the end with AI on every side, and boil its events down to a RunResult.

Each run has its own seed, derived from the batch seed and the run's index, so a batch gives the
same numbers however it is split between workers. The run's one random.Random drives both the
tactics and the dice (DESIGN: one seeded random.Random per match).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from battlemat.ai import Brain
from battlemat.core.encounter import Encounter
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.memory import MatchMemory
from battlemat.core.state import MatchState
from battlemat.types import XY, CharId

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


# One turn of a traced run: the intents the AI declared, why some characters held back (Brain.notes),
# the turn's events and the state after it.
Traced = tuple[tuple[Intent, ...], dict[CharId, str], tuple[Event, ...], MatchState]


def play_one(enc: Encounter, index: int, batch_seed: int, dice: str | None, max_turns: int,  # noqa: PLR0913
             memory: MatchMemory | None = None, trace: list[Traced] | None = None) -> RunResult:
    """Run `index` of a batch. `memory`: one the batch's matches share (core.memory: a rating's fixed
    parts, allowances, the AI's figures are the encounter's, whichever match asks). `trace`: a list
    that gets every turn (Traced), for `simulate --log-run`; it changes nothing in the run."""
    seed = run_seed(batch_seed, index)
    match = Match(enc, seed=seed, dice=dice, memory=memory)
    brain = Brain(enc, match.memory)
    result = RunResult(index, seed, None, 0, False)
    while not match.outcome().over and match.state.turn <= max_turns:
        intents = brain.decide(match.state, match.rng)
        events = match.play(intents)
        if trace is not None:
            trace.append((tuple(intents), dict(brain.notes), events, match.state))
        _digest(result, events, match)
        match.log.clear()  # digested: a turn's events go while they are fresh in the caches
    out = match.outcome()
    result.turns = match.state.turn - 1
    result.capped = not out.over
    result.winner = out.winner if out.over else None
    result.chars = {
        cid: CharResult(s.minor, s.major, s.defeated, s.fled) for cid, s in match.state.chars.items()
    }
    return result


def _digest(result: RunResult, events: tuple[Event, ...], match: Match) -> None:
    for ev in events:
        if ev.type == "losses":
            who = ev.data["who"]
            result.losses_taken[who] = result.losses_taken.get(who, 0) + int(ev.data["n"])
        elif ev.type == "defeated":
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
