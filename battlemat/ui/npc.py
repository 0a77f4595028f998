"""NPC declarations for the play screen: the window asks `npc_brain` for a policy and gets the same
tactics the simulator uses (battlemat.ai.Brain), so what a GM sees in play is what the lab measures.
This module never imports pygame.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from battlemat.ai import Brain
from battlemat.core.encounter import Encounter
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.state import MatchState
from battlemat.core.types import CharId


class Policy(Protocol):
    def decide(self, state: MatchState, rng: random.Random, who: Iterable[CharId] | None = None) -> list[Intent]:
        ...


def npc_brain(enc: Encounter, memory: MatchMemory | None = None) -> Policy:
    """The NPC policy of the window: each character's `ai =` tactics (battlemat.ai), sharing the
    match's memory (core.memory) with the checks of what it declares."""
    return Brain(enc, memory)
