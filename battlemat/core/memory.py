"""What a match remembers between questions, in one object owned by the match (`Match.memory`).

The rules ask the same questions many times a turn: the AI weighs an intent, the resolver checks
it again, the UI previews it. Every answer here is worked out from values (the encounter, a state,
an intent), so a memory only saves work: a fresh one gives the same answers, and what one match
remembers never reaches another (tests/test_core_state.py plays matches interleaved). It is passed
in explicitly to `resolve_turn`, `validate_intent`, `movement.mover_for` and the AI's `Brain`; the
core keeps no module-level tables. A batch may hand one memory to its matches of one encounter in
turn (sim.pool does): what lasts a match is the encounter's, and what lasts a state is found by the
state's identity. Lifetimes:
- for the whole match: a rating's fixed parts (S2, S3, S5), allowances (M1-M3), the AI's figures
  (ratings a planner counts on and each character's strength: they change only with major losses,
  which are part of their key; walking distances on the board);
- for one state (the turn being declared): the intents found legal against it, and who stood where
  as the turn began, by side (M10). A new state starts these afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from battlemat.core import movement
from battlemat.core.intents import Intent
from battlemat.core.rating import standing, talent_part
from battlemat.core.state import MatchState
from battlemat.core.types import XY, CharId

if TYPE_CHECKING:
    from battlemat.core.board import Board
    from battlemat.core.character import Character
    from battlemat.core.encounter import Encounter


class SkillParts(NamedTuple):
    """What of a character's rating with one skill half never changes in a match."""

    base: int  # S2
    equipment: int  # S5
    talent: int  # S3: the talent bonus that applies to this half, if any
    notes: tuple[str, ...]  # words for the log: which talent and which item


def skill_parts(enc: Encounter, cid: CharId, use: str) -> SkillParts:
    """Base (S2), equipment (S5), talent bonus (S3) of `cid` using `use`, and the notes that explain them.
    The base rating here is the first part of the effective rating's breakdown (Rating adds the rest);
    no rule reads it alone."""
    char, rules = enc.by_id[cid], enc.rules
    pair = rules.halves[use].pair
    equip, item = char.equipment_bonus(pair, use)  # S5: an item keeps the half it is named for
    talent, why = talent_part(rules, char, use)
    notes = [why] if why else []
    if item:
        notes.append(f"equipment: {item} (S5)")
    return SkillParts(char.base(pair), equip, talent, tuple(notes))


class StateMemory:
    """What was worked out against one state: the intents found legal (by value, and by identity:
    an intent's hash is worked out field by field), and each side's start-of-turn context."""

    __slots__ = ("state", "valid", "by_id", "contexts")

    def __init__(self, state: MatchState) -> None:
        self.state = state
        self.valid: dict[Intent, Intent] = {}
        self.by_id: dict[int, tuple[Intent, Intent]] = {}  # (holding the intent keeps its id from being reused)
        self.contexts: dict[str, movement.Context] = {}


class MatchMemory:
    """The memory of one match of `enc` (see the module's docstring)."""

    __slots__ = ("enc", "_parts", "_allowances", "_figures", "_strengths", "_walks", "_state", "skill_penalty")

    def __init__(self, enc: Encounter) -> None:
        self.enc = enc
        self._parts: dict[tuple[CharId, str], SkillParts] = {}
        self._allowances: dict[tuple[CharId, str, int, str, bool], int] = {}
        self._figures: dict[tuple[CharId, str, int], int] = {}
        self._strengths: dict[tuple[CharId, int], tuple[int, int, int]] = {}
        self._walks: dict[tuple[tuple[tuple[str, str], ...], XY], Sequence[int]] = {}
        self._state: StateMemory | None = None
        self.skill_penalty = enc.rules.switch_str("major_loss_penalty") == "skills"  # L5: major losses take from skills

    def parts(self, cid: CharId, use: str) -> SkillParts:
        """skill_parts, once per character and half."""
        got = self._parts.get((cid, use))
        if got is None:
            got = self._parts[cid, use] = skill_parts(self.enc, cid, use)
        return got

    def allowance(self, char: Character, use: str, major: int, item: str = "simple", moving_shot: bool = False) -> int:
        """movement.allowance for a character of this match (M1-M3), once per question."""
        key = (char.id, use, major, item, moving_shot)
        got = self._allowances.get(key)
        if got is None:
            got = self._allowances[key] = movement.allowance(self.enc.rules, char, use, major, item, moving_shot)
        return got

    def figure(self, cid: CharId, half: str, major: int) -> int:
        """What a planner (the AI) can count on of a rating: the effective rating as it stands (base,
        equipment and talent bonus, less major-loss penalties: S2, S3, S5, L5; rating.standing), once
        per character, half and number of major losses."""
        got = self._figures.get((cid, half, major))
        if got is None:
            got = self._figures[cid, half, major] = standing(self.enc.rules, self.enc.by_id[cid], half, major)
        return got

    def walk_field(self, goal: XY, board: Board | None = None) -> Sequence[int]:
        """Walking distances to `goal` on the encounter's board (movement.walk_field), or on `board`,
        the same map at other door states (Encounter.fitted), by door states and goal; as many as the
        board's own table keeps (a huge map's answers are 4 MB each)."""
        board = board or self.enc.map_board
        key = (board.door_key, goal)
        got = self._walks.get(key)
        if got is None:
            if len(self._walks) >= movement.walks.kept(board):
                self._walks.clear()
            rules = self.enc.rules
            got = self._walks[key] = movement.walk_field(board, rules.switch_str("diagonals"), goal,
                                                         rules.switch_str("door_opening"))
        return got

    def strength(self, cid: CharId, major: int, figure: Callable[[], tuple[int, int, int]]) -> tuple[int, int, int]:
        """An AI figure of a character's strength, worked out by `figure` once per number of major
        losses (nothing else of a character changes in a match)."""
        got = self._strengths.get((cid, major))
        if got is None:
            got = self._strengths[cid, major] = figure()
        return got

    def fork(self) -> MatchMemory:
        """A copy that answers the same and remembers on its own: a prediction (battlemat.predict, the
        resolver's forecast) works on it, so what it asks never changes what the match remembers."""
        other = MatchMemory(self.enc)
        other._parts, other._allowances = dict(self._parts), dict(self._allowances)
        other._figures, other._strengths, other._walks = dict(self._figures), dict(self._strengths), dict(self._walks)
        last = self._state
        if last is not None:
            other._state = StateMemory(last.state)
            other._state.valid, other._state.by_id = dict(last.valid), dict(last.by_id)
            other._state.contexts = dict(last.contexts)
        return other

    def of_state(self, state: MatchState) -> StateMemory:
        """What was worked out against `state` (states are values, compared by identity): the memory
        of the last state asked about, or a new one."""
        last = self._state
        if last is None or last.state is not state:
            last = self._state = StateMemory(state)
        return last


def remember(memory: MatchMemory | None, enc: Encounter) -> MatchMemory:
    """The match's memory, or a fresh one for a question asked outside a match (a test, a forecast)."""
    if memory is not None:
        # (one encounter, or the same at other door states: Encounter.fitted shares `variants`)
        same = memory.enc is enc or memory.enc.variants is enc.variants
        assert same, "a match's memory answers for its own encounter only"
        return memory
    return MatchMemory(enc)

