"""Events: the record of a turn. Log, animation, explanations, statistics and tests read them.

Every event has a type, the turn and phase it happened in, plain words (`text`), the rule IDs
behind it and JSON-ready data (ratings carry their full breakdown, see Rating.to_dict).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from battlemat.core.rating import Rating
from battlemat.core.types import XY, CharId

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
    "door",
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
    # JSON-ready values, of a different shape for each type (Any: readers outside core index it freely);
    # the types read most have typed views below (Moved, Contest, Losses: `Contest.of(event)`)
    data: Mapping[str, Any] = MappingProxyType({})

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"turn": self.turn, "phase": self.phase, "type": self.type, "text": self.text}
        if self.rules:
            out["rules"] = list(self.rules)
        out.update(self.data)
        return out


# -- typed payloads of the events read most: the resolver builds them, readers read them back by name ---
# Each writes its event's `data` (`data()`, key for key and in the order `--json` has always printed)
# and reads it back from an event (`of`); the house rules that decided the event, when any, stay as
# the record wrote them (`house`: {"house": True, "house_rules": [...]}, or empty).
_NO_HOUSE: Mapping[str, object] = MappingProxyType({})


def _house(data: Mapping[str, Any]) -> Mapping[str, object]:
    return {k: data[k] for k in ("house", "house_rules") if k in data} or _NO_HOUSE


@dataclass(frozen=True, slots=True)
class Moved:
    """`moved`: `who` moved to `to` in P2's sub-phase `sub_phase` (M9); on a map, along `route` (the
    squares entered) for `cost` squares of its allowance (M11); without one, straight there."""

    TYPE: ClassVar[str] = "moved"
    who: CharId
    to: XY
    sub_phase: int
    route: tuple[XY, ...] | None = None
    cost: int = 0
    house: Mapping[str, object] = field(default_factory=lambda: _NO_HOUSE)

    def data(self) -> dict[str, object]:
        out: dict[str, object] = {"who": self.who, "to": list(self.to)}
        if self.route is not None:
            out["route"] = [list(sq) for sq in self.route]
            out["cost"] = self.cost
        out["sub_phase"] = self.sub_phase
        out.update(self.house)
        return out

    @staticmethod
    def of(ev: Event) -> Moved:
        d = ev.data
        route = d.get("route")
        return Moved(d["who"], _xy(d["to"]), d["sub_phase"], None if route is None else tuple(map(_xy, route)),
                     d.get("cost", 0), _house(d))


@dataclass(frozen=True, slots=True)
class Contest:
    """`contest`: `attack` (of `attackers`) against `defense` (of `defenders`), both with their
    breakdowns; `kind` (attack, secondary, interfere...), how the defender opposed (`how`), the
    `winner` ("attack", "defense" or "tie") by `margin`, the totals and the dice's words."""

    TYPE: ClassVar[str] = "contest"
    kind: str
    attackers: tuple[CharId, ...]
    defenders: tuple[CharId, ...]
    attack: Rating
    defense: Rating
    how: str
    winner: str
    margin: int
    totals: tuple[int, int]
    dice: str
    house: Mapping[str, object] = field(default_factory=lambda: _NO_HOUSE)

    def data(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind, "attackers": list(self.attackers), "defenders": list(self.defenders),
            "attack": self.attack.to_dict(), "defense": self.defense.to_dict(), "how": self.how,
            "winner": self.winner, "margin": self.margin, "totals": list(self.totals), "dice": self.dice,
        }
        out.update(self.house)
        return out

    @staticmethod
    def of(ev: Event) -> Contest:
        d = ev.data
        a, b = d["totals"]
        return Contest(d["kind"], tuple(d["attackers"]), tuple(d["defenders"]), Rating.from_dict(d["attack"]),
                       Rating.from_dict(d["defense"]), d["how"], d["winner"], d["margin"], (a, b), d["dice"],
                       _house(d))


@dataclass(frozen=True, slots=True)
class Losses:
    """`losses`: `who` suffers `n` losses from `by` (nobody: a hazard), and has `minor` and `major` now,
    `new_minor` and `new_major` of them from this hit (L1)."""

    TYPE: ClassVar[str] = "losses"
    who: CharId
    n: int
    by: tuple[CharId, ...]
    minor: int
    major: int
    new_minor: int
    new_major: int

    def data(self) -> dict[str, object]:
        return {"who": self.who, "n": self.n, "by": list(self.by), "minor": self.minor, "major": self.major,
                "new_minor": self.new_minor, "new_major": self.new_major}

    @staticmethod
    def of(ev: Event) -> Losses:
        d = ev.data
        return Losses(d["who"], d["n"], tuple(d["by"]), d["minor"], d["major"], d["new_minor"], d["new_major"])


if TYPE_CHECKING:  # a name for mypy only
    Payload = Moved | Contest | Losses


def _xy(v: Sequence[int]) -> XY:
    return (v[0], v[1])
