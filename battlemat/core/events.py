"""Events: the record of a turn. Log, animation, explanations, statistics and tests read them.

Every event has a type, the turn and phase it happened in, plain words (`text`), the rule IDs
behind it and JSON-ready data (ratings carry their full breakdown, see Rating.to_dict).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from battlemat.core.rating import Rating
from battlemat.core.types import XY, CharId

# The event types of a match's record (the resolver's, and the game master's door and gm_change), for
# readers that switch on them.
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
    "gm_change",  # the game master's change of a rating or losses between turns (io/gm_changes.py)
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
_NO_DATA: Mapping[str, Any] = MappingProxyType({})


class Event:
    """One outcome: its type, the turn and phase it happened in, plain words (`text`), the rule IDs
    behind it and its JSON-ready `data`.

    A turn makes a score of them and a search resolves thousands of turns whose words nobody reads,
    so the words and the data are written when first read, and then kept: the resolver hands over
    `text` as a string or as a function of the event's own values (`words(fn, *args)`), and `data`
    as a mapping, a function that makes one, or, for the typed payloads (Moved, Contest, Losses), the
    payload itself (`payload`), whose `data()` makes the JSON-ready view (ratings with their
    breakdowns) when it is asked for. Events compare and hash by their values, words and data
    included, as the record reads them."""

    __slots__ = ("type", "turn", "phase", "rules", "payload", "_text", "_data")

    type: str
    turn: int
    phase: str
    rules: tuple[str, ...]
    # the typed payload this event was made from (Moved, Contest, Losses), or None
    payload: Payload | None

    def __init__(self, type: str, turn: int, phase: str, text: str | Callable[[], str],
                 rules: tuple[str, ...] = (),
                 data: Mapping[str, Any] | Payload | Callable[[], Mapping[str, Any]] = _NO_DATA) -> None:
        self.type = type
        self.turn = turn
        self.phase = phase
        self.rules = rules
        self._text = text
        if isinstance(data, _PAYLOADS):
            self.payload, self._data = data, None
        else:
            self.payload, self._data = None, data

    @property
    def text(self) -> str:
        """The event in plain words, written from its values the first time it is read."""
        t = self._text
        if not isinstance(t, str):
            t = self._text = t()
        return t

    @property
    def data(self) -> Mapping[str, Any]:
        """JSON-ready values, of a different shape for each type (Any: readers outside core index it
        freely); the types read most have typed views (Moved, Contest, Losses: `Contest.of(event)`)."""
        d = self._data
        if d is None:
            d = self._data = MappingProxyType(self.payload.data())  # type: ignore[union-attr]
        elif callable(d):
            d = self._data = MappingProxyType(d())
        return d

    def _key(self) -> tuple[object, ...]:
        return (self.type, self.turn, self.phase, self.text, self.rules, self.data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.type, self.turn, self.phase, self.text, self.rules))

    def __repr__(self) -> str:
        return (f"Event(type={self.type!r}, turn={self.turn!r}, phase={self.phase!r}, text={self.text!r}, "
                f"rules={self.rules!r}, data={self.data!r})")

    def __reduce__(self) -> tuple[object, ...]:
        return (Event, (self.type, self.turn, self.phase, self.text, self.rules, dict(self.data)))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"turn": self.turn, "phase": self.phase, "type": self.type, "text": self.text}
        if self.rules:
            out["rules"] = list(self.rules)
        out.update(self.data)
        return out


# An event's words to be written when read: `words(fn, *args)` is `fn(*args)` later, the values bound
# now (a search never reads them; the log, `--json`, the window and the lessons do). functools.partial
# itself, not a function that makes one: a turn makes a score of them.
words = partial


# -- typed payloads of the events read most: the resolver builds them, readers read them back by name ---
# Each writes its event's `data` (`data()`, key for key and in the order `--json` has always printed)
# and reads it back from an event (`of`); the house rules that decided the event, when any, stay as
# the record wrote them (`house`: {"house": True, "house_rules": [...]}, or empty).
_NO_HOUSE: Mapping[str, object] = MappingProxyType({})


def _house(data: Mapping[str, Any]) -> Mapping[str, object]:
    return {k: data[k] for k in ("house", "house_rules") if k in data} or _NO_HOUSE


if TYPE_CHECKING:  # names for mypy only
    # A payload's house record: as it is, or a function that looks it up in the rules data when the
    # event's data is read (nothing in a turn reads it: the log, `--json` and the window do)
    House = Mapping[str, object] | Callable[[], Mapping[str, object]]


def _house_now(house: House) -> Mapping[str, object]:
    return house() if callable(house) else house


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
    house: House = field(default_factory=lambda: _NO_HOUSE)

    def data(self) -> dict[str, object]:
        out: dict[str, object] = {"who": self.who, "to": list(self.to)}
        if self.route is not None:
            out["route"] = [list(sq) for sq in self.route]
            out["cost"] = self.cost
        out["sub_phase"] = self.sub_phase
        out.update(_house_now(self.house))
        return out

    @staticmethod
    def of(ev: Event) -> Moved:
        if isinstance(ev.payload, Moved):
            return ev.payload
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
    house: House = field(default_factory=lambda: _NO_HOUSE)

    def data(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind, "attackers": list(self.attackers), "defenders": list(self.defenders),
            "attack": self.attack.to_dict(), "defense": self.defense.to_dict(), "how": self.how,
            "winner": self.winner, "margin": self.margin, "totals": list(self.totals), "dice": self.dice,
        }
        out.update(_house_now(self.house))
        return out

    @staticmethod
    def of(ev: Event) -> Contest:
        if isinstance(ev.payload, Contest):
            return ev.payload
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
        if isinstance(ev.payload, Losses):
            return ev.payload
        d = ev.data
        return Losses(d["who"], d["n"], tuple(d["by"]), d["minor"], d["major"], d["new_minor"], d["new_major"])


_PAYLOADS = (Moved, Contest, Losses)  # the typed payloads (Payload)
if TYPE_CHECKING:  # a name for mypy only
    Payload = Moved | Contest | Losses


def _xy(v: Sequence[int]) -> XY:
    return (v[0], v[1])
