"""An encounter as a value: who fights, under which rules, and the scripted turns if any."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from battlemat.core.board import Board
from battlemat.core.character import Character
from battlemat.core.intents import Intent
from battlemat.core.rules import Rules
from battlemat.core.state import CharacterState, MatchState
from battlemat.core.types import CharId


@dataclass(frozen=True)
class Encounter:
    title: str
    rules: Rules
    characters: tuple[Character, ...]
    seed: int = 0
    dice: str = "none"
    map: str | None = None  # path as written in the file, relative to it
    turns: tuple[tuple[Intent, ...], ...] = ()
    board: Board | None = None  # once a map is loaded
    by_id: Mapping[CharId, Character] = field(default_factory=lambda: MappingProxyType({}), repr=False)
    ids: tuple[CharId, ...] = field(default=(), init=False, repr=False, compare=False)  # in declaration order
    sides: tuple[str, ...] = field(default=(), init=False, repr=False, compare=False)  # in order of first mention
    # this encounter at other door states (`fitted`), shared by an encounter and those it fitted
    variants: dict[tuple[tuple[str, str], ...], Encounter] = field(default_factory=dict, init=False, repr=False,
                                                                    compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", MappingProxyType({c.id: c for c in self.characters}))
        object.__setattr__(self, "ids", tuple(c.id for c in self.characters))
        object.__setattr__(self, "sides", tuple(dict.fromkeys(c.side for c in self.characters)))

    @property
    def map_board(self) -> Board:
        """The board, for the code that runs only on a map (the caller has asked `board is not None`)."""
        if self.board is None:
            raise ValueError(f"{self.title!r} has no map")
        return self.board

    def fitted(self, state: MatchState) -> Encounter:
        """The encounter as `state` has its doors (core.walls): itself when its board has no doors or
        they stand as its board has them, else the same encounter on `Board.with_doors`. Everything
        that reads the board for a state (the resolver, validation, the AI, the window's previews)
        reads this one, so one door state is one board with its own sight and movement tables."""
        return self.at_doors(state.doors)

    def at_doors(self, doors: Mapping[str, str]) -> Encounter:
        """`fitted` for door states given by id (doors not named keep their state on this board)."""
        board = self.board
        if board is None or not board.doors or not doors:
            return self
        fit = board.with_doors(doors)
        if fit is board:
            return self
        key = tuple(sorted(fit.door_states.items()))
        got = self.variants.get(key)
        if got is None:
            got = dataclasses.replace(self, board=fit)
            object.__setattr__(got, "variants", self.variants)
            self.variants[tuple(sorted(board.door_states.items()))] = self
            self.variants[key] = got
        return got

    def character(self, cid: CharId) -> Character:
        return self.by_id[cid]

    def initial_state(self) -> MatchState:
        doors = self.board.door_states if self.board is not None else {}
        return MatchState(1, MappingProxyType({c.id: CharacterState(at=c.at, minor=c.start_minor, major=c.start_major)
                                               for c in self.characters}), MappingProxyType(doors))


@dataclass(frozen=True)
class Outcome:
    over: bool
    winner: str | None  # the side left standing, if exactly one
    reason: str


def outcome(enc: Encounter, state: MatchState) -> Outcome:
    """A combat ends when at most one side has characters still in the fight (defeated or fled)."""
    chars = state.chars
    fighting = {c.side for c in enc.characters if chars[c.id].active}
    standing = [s for s in enc.sides if s in fighting]
    if len(standing) > 1:
        return Outcome(False, None, "")
    if not standing:
        return Outcome(True, None, "every side is defeated or fled")
    gone = [s for s in enc.sides if s != standing[0]]
    fled = all(
        state[c.id].fled or state[c.id].defeated for c in enc.characters if c.side in gone
    ) and any(state[c.id].fled for c in enc.characters if c.side in gone)
    how = "fled or were defeated" if fled else "were defeated"
    return Outcome(True, standing[0], f"{standing[0]} hold the field: {', '.join(gone)} {how}")
