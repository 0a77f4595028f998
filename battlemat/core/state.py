"""What changes during a match: losses, positions, lasting and next-turn advantages (L, O)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from battlemat.core.types import XY, CharId


@dataclass(frozen=True)
class Advantage:
    """A situational bonus one character holds against another (O1, O3, O4, O5).

    `turn` None lasts the rest of the combat; otherwise it applies only in that turn.
    """

    vs: CharId
    value: int
    reason: str
    rule: str
    turn: int | None = None


@dataclass(frozen=True)
class CharacterState:
    minor: int = 0
    major: int = 0
    defeated: bool = False
    fled: bool = False
    at: XY | None = None
    advantages: tuple[Advantage, ...] = ()
    deadly_losses: int = 0  # losses taken from deadly foes (L4)
    held_by: CharId | None = None  # grabbed by this wrestler (M13); only Escape breaks it (C8)
    hold: int = 0  # the Wrestle rating that made the grip (C8)
    # Every loss suffered in this combat, healed or not: a lasting fact, not the losses now (O5 "already
    # suffered a minor or major loss during that combat", text line 50; L4 "after suffering two losses",
    # line 430). Never fewer than the losses it has now: a state made with losses already taken has suffered them.
    suffered: int = 0
    # still in the fight: neither defeated nor fled. Kept, not worked out on each read: the rules and
    # the AI ask it about a hundred times a turn
    active: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "active", not (self.defeated or self.fled))
        if self.suffered < self.minor + self.major:
            object.__setattr__(self, "suffered", self.minor + self.major)

    @property
    def losses(self) -> int:
        return self.minor + self.major

    def to_dict(self) -> dict[str, object]:
        return {
            "minor": self.minor,
            "major": self.major,
            "defeated": self.defeated,
            "fled": self.fled,
            "at": list(self.at) if self.at is not None else None,
        }

    def with_(self, **changes: Any) -> CharacterState:  # (Any: each field its own type, checked by replace)
        """A copy with some fields changed (dataclasses.replace: every field, a field added later
        included, is carried over; `active` is worked out again)."""
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class MatchState:
    """The state between turns. `turn` is the number of the next turn to resolve (from 1). `doors`:
    each door's state by id (core.walls), empty on a board without doors."""

    turn: int = 1
    chars: Mapping[CharId, CharacterState] = field(default_factory=lambda: MappingProxyType({}))
    doors: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __getitem__(self, cid: CharId) -> CharacterState:
        return self.chars[cid]

    def replace_chars(self, chars: Mapping[CharId, CharacterState], turn: int | None = None,
                      doors: Mapping[str, str] | None = None) -> MatchState:
        return MatchState(self.turn if turn is None else turn, MappingProxyType(dict(chars)),
                          self.doors if doors is None else MappingProxyType(dict(doors)))

    def with_doors(self, doors: Mapping[str, str]) -> MatchState:
        """The same state with these door states (a game master's change between turns)."""
        return MatchState(self.turn, self.chars, MappingProxyType({**self.doors, **doors}))

    def to_dict(self) -> dict[str, dict[str, object]]:
        return {cid: st.to_dict() for cid, st in self.chars.items()}
