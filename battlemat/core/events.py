"""Events: the record of a turn. Log, animation, explanations, statistics and tests read them.

Every event has a type, the turn and phase it happened in, plain words (`text`), the rule IDs
behind it and JSON-ready data (ratings carry their full breakdown, see Rating.to_dict).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

# The event types the resolver emits, for readers that switch on them.
TYPES = (
    "turn_start",
    "phase",
    "intent",
    "observed",
    "hidden",
    "found",
    "advantage",
    "shared",
    "moved",
    "stopped",
    "jumped",
    "collided",
    "hazard",
    "grabbed",
    "thrown",
    "released",
    "escaped",
    "contest",
    "check",
    "losses",
    "healed",
    "not_healed",
    "defeated",
    "leaving",
    "fled",
    "item_used",
    "no_effect",
    "turn_end",
)


class Event(NamedTuple):
    """One outcome. A named tuple: a turn makes a score of them, and they are made, compared and
    hashed in C."""

    type: str
    turn: int
    phase: str
    text: str
    rules: tuple[str, ...] = ()
    data: Mapping[str, Any] = MappingProxyType({})

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"turn": self.turn, "phase": self.phase, "type": self.type, "text": self.text}
        if self.rules:
            out["rules"] = list(self.rules)
        out.update(self.data)
        return out
