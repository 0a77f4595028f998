"""What one character can see when it decides: foes, friends, ratings, distances, reach.

Pure helpers over the encounter and the state; tactics (battlemat.ai.tactics) read only this.
With a board, distances, adjacency and sight come from battlemat.core.geometry and destinations
from the same movement queries the resolver and the UI use; without one, everyone is in reach.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import accumulate
from typing import Any

from battlemat.core import geometry, movement
from battlemat.core.character import Character
from battlemat.core.memory import MatchMemory
from battlemat.core.resolver import start_context
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
    foes: dict[str, tuple[Character, ...]] = field(default_factory=dict)  # this turn's active foes, by side

    def new_turn(self, claimed: set[XY]) -> None:
        """Forget what held for the last decision: squares claimed, who is still in the fight."""
        self.claimed = claimed
        self.foes.clear()
        self.aimed.clear()
        self.aimed_with.clear()


def weighted_choice(rng: random.Random, population: Sequence[Any], weights: Sequence[int]) -> Any:
    """`rng.choices(population, weights)[0]`, drawn exactly as Random.choices draws it (one
    random() scaled to the running total, then a bisection), without its checks for other kinds of
    call: the AI draws with positive whole weights, several times a turn. tests/test_ai.py checks it
    against Random.choices."""
    cum = list(accumulate(weights))
    return population[bisect_right(cum, rng.random() * (cum[-1] + 0.0), 0, len(population) - 1)]


class View:
    """One character's view of one decision (a plain class with slots: nine are made a turn)."""

    __slots__ = ("enc", "state", "me", "rng", "memory", "known", "board", "walk_field", "note")

    def __init__(self, state: MatchState, me: Character, rng: random.Random, memory: Memory,
                 known: MatchMemory) -> None:
        self.enc = known.enc.fitted(state)  # its board as the state has the doors (core.walls)
        self.state, self.me, self.rng, self.memory, self.known = state, me, rng, memory, known
        self.board: Any = self.enc.board  # the encounter's board, or None
        # Squares of walking to a goal from every square, by node (y * width + x): movement.walk_field,
        # remembered for the match (MatchMemory.walk_field), on the board as the doors stand
        self.walk_field = known.walk_field if self.enc is known.enc else partial(known.walk_field, board=self.board)
        self.note = ""  # why the tactic holds back this turn (idle, or defending in place): the log shows it

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
        side = self.me.side
        foes = self.memory.foes.get(side)
        if foes is None:
            chars = self.state.chars
            foes = self.memory.foes[side] = tuple(
                c for c in self.enc.characters if c.side != side and chars[c.id].active)
        return list(foes)

    def allies(self) -> list[Character]:
        chars, me = self.state.chars, self.me
        return [c for c in self.enc.characters if c.side == me.side and c.id != me.id and chars[c.id].active]

    # -- numbers ---------------------------------------------------------------------------------
    def rating(self, c: Character, half: str) -> int:
        """Base + equipment, less major-loss penalties: what a planner can count on (S2, S5, L5)."""
        return self.known.figure(c.id, half, self.state.chars[c.id].major)

    def my(self, half: str) -> int:
        return self.known.figure(self.me.id, half, self.state.chars[self.me.id].major)

    def threat(self, c: Character) -> int:
        """How dangerous a foe looks: its best attack rating."""
        return self.strength(c)[2]

    def strength(self, c: Character) -> tuple[int, int, int]:
        """A character's best ranged attack (Shoot, Throw), best reach attack (Melee, Press,
        Wrestle) and best of all, as `rating` counts them."""
        def figure() -> tuple[int, int, int]:
            r = self.rating
            ranged = max(r(c, "Shoot"), r(c, "Throw"))
            reach = max(r(c, "Melee"), r(c, "Press"), r(c, "Wrestle"))
            return ranged, reach, max(ranged, reach)

        return self.known.strength(c.id, self.state.chars[c.id].major, figure)

    # -- space -----------------------------------------------------------------------------------
    def at(self, c: Character | CharId) -> XY | None:
        return self.state.chars[c if isinstance(c, str) else c.id].at

    def distance(self, a: Character, b: Character) -> int:
        """Squares of walking between two characters (levels and walls count); straight-line
        distance where no walk leads there."""
        chars, board = self.state.chars, self.board
        pa, pb = chars[a.id].at, chars[b.id].at
        if board is None or pa is None or pb is None:
            return 1
        steps = self.walk_field(pb)[pa[1] * board.width + pa[0]]
        if steps < movement.FAR:
            return steps
        return 100 + geometry.distance(board, pa, pb, self.enc.rules.switch_str("diagonals"))

    def walk_to(self, sq: XY, goal: XY) -> int:
        """Squares of walking from `sq` to `goal` (movement.FAR where no walk leads there)."""
        return self.walk_field(goal)[sq[1] * self.board.width + sq[0]]

    def adjacent(self, a: Character, b: Character) -> bool:
        chars = self.state.chars
        pa, pb = chars[a.id].at, chars[b.id].at
        if self.board is None or pa is None or pb is None:
            return True
        return geometry.adjacent(self.board, pa, pb)

    def sees(self, a: Character, b: Character) -> tuple[bool, int]:
        chars = self.state.chars
        pa, pb = chars[a.id].at, chars[b.id].at
        if self.board is None or pa is None or pb is None:
            return True, 0
        seen, cover, _ = geometry.sight(self.board, pa, pb)
        return seen, cover

    def nearest(self, foes: list[Character]) -> Character | None:
        """A foe to go for: among the closest (within one square of the closest), keep last turn's
        target three times in four, else pick at random, favouring the wounded. The match's rng makes
        simulated fights vary even in diceless play, and the same seed repeats them exactly."""
        if not foes:
            return None
        dist = {c.id: self.distance(self.me, c) for c in foes}
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
        if self.board is None or self.at(self.me) is None:
            return {}
        ctx = start_context(self.enc, self.state, self.me.side, self.known)
        mover = movement.mover_for(self.known, self.state.chars, self.me.id, use, target)
        return movement.reach(self.board, self.enc.rules, mover, ctx).costs

    def destinations(self, use: str, target: CharId | None = None) -> Mapping[XY, int]:
        """The same, less the squares allies have already chosen this turn."""
        claimed = self.memory.claimed
        return {sq: c for sq, c in self.reach(use, target).items() if sq not in claimed}

    def allowance(self, half: str) -> int:
        """M1-M3: squares `me` may move using `half` this turn."""
        return self.known.allowance(self.me, half, self.state.chars[self.me.id].major)

    def charge_reaches(self, target: Character) -> bool:
        """Whether a Press charge at `target` would end next to it this turn (M7). A charge goes
        as far as Block or Dodge would (same allowance, same terrain rules) and only picks the
        straightest of the cheapest ways, so their reach answers the question without a search
        of its own: the AI asks for it anyway to advance behind a guard."""
        goal = self.at(target)
        if self.board is None or goal is None or self.at(self.me) is None:
            return False
        if self.allowance("Press") != self.allowance("Dodge"):
            return False
        gr = movement.grid(self.board, self.enc.rules.switch_str("diagonals"))
        reach, claimed, sq = self.reach("Dodge"), self.memory.claimed, gr.sq
        return any(sq(j) in reach and sq(j) not in claimed for j in gr.zone(goal))  # the few squares next to it
