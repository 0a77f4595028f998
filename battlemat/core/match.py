"""A match: an encounter, its state, its one seeded random.Random, its dice engine and its memory.

Same encounter + seed + intents -> same event log (DESIGN: determinism). The match's random.Random
rolls the dice and nothing else: whoever declares the intents (the window, a script, the AI, which
draws from a stream of its own, `battlemat.ai.ai_stream`) never draws from it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from battlemat.core.dice import DiceEngine, engine
from battlemat.core.encounter import Encounter, Outcome, outcome
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory, remember
from battlemat.core.resolver import resolve_turn
from battlemat.core.state import MatchState


class Match:
    def __init__(self, enc: Encounter, seed: int | None = None, dice: str | None = None,
                 memory: MatchMemory | None = None) -> None:
        self.encounter = enc
        self.seed = enc.seed if seed is None else seed
        self.rng = random.Random(self.seed)
        self.dice: DiceEngine = engine(dice or enc.dice)
        self.state: MatchState = enc.initial_state()
        self.log: list[Event] = []
        # What the rules worked out for this match (core.memory). Everything in it is keyed by values,
        # so a batch of matches of one encounter may pass one memory to all of them (sim.pool does).
        self.memory = remember(memory, enc)

    def play(self, intents: Sequence[Intent]) -> tuple[Event, ...]:
        """Resolve one turn; the state advances only if every intent is legal."""
        result = resolve_turn(self.encounter, self.state, intents, self.rng, self.dice, self.memory)
        self.state = result.state
        self.log.extend(result.events)
        return result.events

    def play_scripted(self) -> Iterator[tuple[int, tuple[Event, ...]]]:
        """Play the encounter's scripted turns in order, stopping early when the combat is over."""
        for index, intents in enumerate(self.encounter.turns):
            if self.outcome().over:
                return
            yield index, self.play(intents)

    def outcome(self) -> Outcome:
        return outcome(self.encounter, self.state)
