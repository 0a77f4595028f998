"""What one character can see when it decides: foes, friends, ratings, distances, reach.

A thin view over its side's table of the turn (battlemat.ai.table: worked out once per decision and
side, read by every character of the side) and the Brain's notes (Memory: what allies declared this
turn, script progress); tactics (battlemat.ai.tactics) read only this. With a board, distances,
adjacency and sight come from battlemat.core.geometry and destinations from the same movement
queries the resolver and the UI use; without one, everyone is in reach.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from battlemat.ai.table import Ratings, Table
from battlemat.core.character import Character
from battlemat.core.encounter import Encounter
from battlemat.core.memory import MatchMemory
from battlemat.core.state import CharacterState, MatchState
from battlemat.core.types import XY, CharId


@dataclass
class Memory:
    """Per-match notes a character's tactics keep between turns (script progress, openings, the
    squares allies claimed this turn). The figures worked out for the match (ratings, strengths)
    live in the match's own memory (View.known)."""

    step: dict[CharId, int] = field(default_factory=dict)
    step_turns: dict[CharId, int] = field(default_factory=dict)
    opened: set[CharId] = field(default_factory=set)
    last_target: dict[CharId, CharId] = field(default_factory=dict)
    claimed: set[XY] = field(default_factory=set)  # squares allies chose to end on this turn
    aimed: dict[CharId, int] = field(default_factory=dict)  # attacks declared at each foe this turn (focus styles)
    aimed_with: dict[tuple[CharId, str], int] = field(default_factory=dict)  # ... by skill half (groups, S7)

    # each side's own (claimed, aimed, aimed_with) in the decision being made, and where everyone stood
    sides: dict[str, tuple[set[XY], dict[CharId, int], dict[tuple[CharId, str], int]]] = field(default_factory=dict)
    standing: set[XY] = field(default_factory=set)

    def new_turn(self, claimed: set[XY]) -> None:
        """Forget what held for the last decision: squares claimed, foes aimed at, for every side;
        `claimed` are the squares taken as the turn begins (everyone's)."""
        self.standing, self.sides = set(claimed), {}
        self.claimed, self.aimed, self.aimed_with = set(claimed), {}, {}

    def side(self, name: str) -> None:
        """From now on read and write what the characters of side `name` declared in this decision
        (squares claimed, foes aimed at and with which half): a side never learns another side's
        declarations, as players declare in secret (P1: secrets stay secret)."""
        got = self.sides.get(name)
        if got is None:
            got = self.sides[name] = (set(self.standing), {}, {})
        self.claimed, self.aimed, self.aimed_with = got


def weighted_choice(rng: random.Random, population: Sequence[Any], weights: Sequence[int]) -> Any:
    """`rng.choices(population, weights)[0]`, drawn exactly as Random.choices draws it (one
    random() scaled to the running total, then a bisection), without its checks for other kinds of
    call: the AI draws with positive whole weights, several times a turn. tests/test_ai.py checks it
    against Random.choices."""
    cum = list(accumulate(weights))
    return population[bisect_right(cum, rng.random() * (cum[-1] + 0.0), 0, len(population) - 1)]


class View:
    """One character's view of one decision (a plain class with slots: nine are made a turn): its
    side's `table` of the turn, the Brain's notes (`memory`) and the AI's random stream."""

    __slots__ = ("table", "enc", "state", "me", "rng", "memory", "known", "board", "walk_field", "note", "_mine")

    def __init__(self, table: Table, me: Character, rng: random.Random, memory: Memory) -> None:
        assert table.side == me.side, "a character reads its own side's table"
        self.table, self.me, self.rng, self.memory = table, me, rng, memory
        self.enc: Encounter = table.enc  # fitted to the state's doors (core.walls)
        self.state: MatchState = table.state
        self.known: MatchMemory = table.known
        self.board: Any = table.board  # the encounter's board, or None
        self.walk_field = table.walk_field  # squares of walking to a goal from every square (by node)
        self.note = ""  # why the tactic holds back this turn (idle, or defending in place): the log shows it
        self._mine: Ratings = table.ratings(me.id)

    @classmethod
    def of(cls, state: MatchState, me: Character, rng: random.Random, memory: Memory,
           known: MatchMemory) -> View:
        """A view with a table of its own (a question asked outside Brain.decide: a test)."""
        return cls(Table(state, me.side, known), me, rng, memory)

    # -- style (core.character.STYLES) -----------------------------------------------------------
    @property
    def focus(self) -> str:
        """'focus', 'spread' or '' (the tactic's own choice)."""
        return self.me.style.get("focus", "")

    @property
    def risk(self) -> str:
        """'cautious', 'reckless' or '' (the tactic's own choice)."""
        return self.me.style.get("risk", "")

    # -- who is who ------------------------------------------------------------------------------
    @property
    def st(self) -> CharacterState:
        return self.state[self.me.id]

    @property
    def turn(self) -> int:
        return self.state.turn

    def enemies(self) -> list[Character]:
        return list(self.table.foes)

    def allies(self) -> list[Character]:
        me = self.me.id
        return [c for c in self.table.friends if c.id != me]

    # -- numbers ---------------------------------------------------------------------------------
    def rating(self, c: Character, half: str) -> int:
        """Base + equipment, less major-loss penalties: what a planner can count on (S2, S5, L5)."""
        return self.table.ratings(c.id)[half]

    def my(self, half: str) -> int:
        return self._mine[half]

    def threat(self, c: Character) -> int:
        """How dangerous a foe looks: its best attack rating."""
        return self.table.strength(c.id)[2]

    def strength(self, c: Character) -> tuple[int, int, int]:
        """A character's best ranged attack (Shoot, Throw), best reach attack (Melee, Press,
        Wrestle) and best of all, as `rating` counts them."""
        return self.table.strength(c.id)

    # -- space -----------------------------------------------------------------------------------
    def at(self, c: Character | CharId) -> XY | None:
        return self.table.at[c if isinstance(c, str) else c.id]

    def distance(self, a: Character, b: Character) -> int:
        """Squares of walking between two characters (levels and walls count); straight-line
        distance where no walk leads there."""
        return self.table.distance(a.id, b.id)

    def walk_to(self, sq: XY, goal: XY) -> int:
        """Squares of walking from `sq` to `goal` (movement.FAR where no walk leads there)."""
        return self.table.walk(sq, goal)

    def adjacent(self, a: Character, b: Character) -> bool:
        return self.table.adjacent(a.id, b.id)

    def allies_next_to(self, c: Character) -> int:
        """How many of my allies stand next to `c` (a group's size, S7)."""
        me = self.me.id
        return sum(1 for a in self.table.friends_next_to(c.id) if a != me)

    def sees(self, a: Character, b: Character) -> tuple[bool, int]:
        return self.table.sees(a.id, b.id)

    def nearest(self, foes: list[Character]) -> Character | None:
        """A foe to go for: among the closest (within one square of the closest), keep last turn's
        target three times in four, else pick at random, favouring the wounded. The match's rng makes
        simulated fights vary even in diceless play, and the same seed repeats them exactly."""
        if not foes:
            return None
        distance, me = self.table.distance, self.me.id
        dist = {c.id: distance(me, c.id) for c in foes}
        closest = min(dist.values())
        close = [c for c in foes if dist[c.id] <= closest + 1]
        styled = self.styled(close)
        if styled is not None:
            return styled
        last = self.memory.last_target.get(self.me.id)
        keep = [c for c in close if c.id == last]
        if keep and self.rng.random() < 0.75:
            return keep[0]
        weights = [1 + self.state[c.id].losses for c in close]
        return weighted_choice(self.rng, close, weights)

    def styled(self, foes: list[Character]) -> Character | None:
        """The foe the focus style picks among `foes`, or None to choose as the tactic would: 'focus'
        takes the one allies aim at most this turn (then the most hurt), 'spread' one nobody aims at
        yet (then the least hurt). Ties go to the first declared: no draw, so styles change only
        the choice they name."""
        if not self.focus or not foes:
            return None
        aimed, chars = self.memory.aimed, self.state.chars
        if self.focus == "focus":
            return max(foes, key=lambda c: (aimed.get(c.id, 0), chars[c.id].losses))
        return min(foes, key=lambda c: (aimed.get(c.id, 0), chars[c.id].losses))

    def reach(self, use: str, target: CharId | None = None) -> Mapping[XY, int]:
        """Squares `me` may end on this turn using `use` (cost by square), as the resolver's check
        sees them: the same `reach`, from the same start-of-turn context; empty without a board."""
        return self.table.reach(self.me.id, use, target)

    def destinations(self, use: str, target: CharId | None = None) -> Mapping[XY, int]:
        """The same, less the squares allies have already chosen this turn."""
        claimed = self.memory.claimed
        return {sq: c for sq, c in self.reach(use, target).items() if sq not in claimed}

    def allowance(self, half: str) -> int:
        """M1-M3: squares `me` may move using `half` this turn."""
        return self.table.allowance(self.me.id, half)

    def shooters(self) -> tuple[tuple[Character, XY], ...]:
        """The foes that could shoot or throw at me (R1), with the squares they stand on (R4)."""
        return self.table.shooters()

    def engage_reach(self, c: Character) -> int:
        """How far `c` may come with a half that makes it aggressive (R2), -1 if it has none."""
        return self.table.engage_reach(c.id)

    def charge_reaches(self, target: Character) -> bool:
        """Whether a Press charge at `target` would end next to it this turn (M7) on a square no
        ally has claimed (Table.charge_squares: Dodge's reach answers it, asked once a turn)."""
        claimed = self.memory.claimed
        return any(sq not in claimed for sq in self.table.charge_squares(self.me.id, target.id))
