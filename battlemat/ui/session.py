"""One game on the play screen: the match, this turn's declarations, undo, NPCs, saves.

Pure (no pygame), so tests drive it directly and the screens stay thin. The window never changes
the match except through `declare` (validate_intent: the one door) and `resolve` (Match.play).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from battlemat.core.board import Board
from battlemat.core.encounter import Encounter, Outcome
from battlemat.core.errors import BattlematError
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.resolver import validate_intent
from battlemat.core.state import CharacterState, MatchState
from battlemat.io.encounter import load_encounter
from battlemat.io.errors import LoadError
from battlemat.io.saves import Save, encounter_problem, replay_problem, write_save
from battlemat.types import XY, CharId
from battlemat.ui.npc import Policy, npc_brain

ARENA_TILE = 48  # pixels of one arena square (encounters without a map)


@dataclass(frozen=True)
class Arena:
    """Where characters stand when an encounter has no map: their `at`, or two lines by side."""

    board: Board
    home: Mapping[CharId, XY]


def arena_for(enc: Encounter) -> Arena:
    """A plain grid big enough for everyone. Characters without `at` stand in one column per
    side, facing each other across the middle (the first side on the left)."""
    sides = enc.sides
    per_side = {s: [c for c in enc.characters if c.side == s and c.at is None] for s in sides}
    tallest = max((len(v) for v in per_side.values()), default=0)
    xs = [c.at[0] for c in enc.characters if c.at] + [0]
    ys = [c.at[1] for c in enc.characters if c.at] + [0]
    width = max(12, max(xs) + 3, 4 * len(sides) + 4)
    height = max(8, max(ys) + 3, 2 * tallest + 2)
    home: dict[CharId, XY] = {c.id: c.at for c in enc.characters if c.at is not None}
    taken = set(home.values())
    for i, side in enumerate(sides):
        col = 2 + i * (width - 5) // max(1, len(sides) - 1) if len(sides) > 1 else width // 2
        chars = per_side[side]
        top = max(1, (height - 2 * len(chars)) // 2)
        for j, c in enumerate(chars):
            sq = (col, top + 2 * j)
            while sq in taken:
                sq = (sq[0], sq[1] + 1)
            home[c.id] = sq
            taken.add(sq)
    board = Board.empty(width, height, tile_width=ARENA_TILE, tile_height=ARENA_TILE, source="<arena>")
    return Arena(board, MappingProxyType(home))


class Session:
    """A match being played in the window."""

    def __init__(
        self,
        encounter_path: str | Path,
        seed: int | None = None,
        dice: str | None = None,
        pc_sides: tuple[str, ...] = (),
        autosave: Path | None = None,
        enc: Encounter | None = None,
    ) -> None:
        self.path = Path(encounter_path)
        self.enc: Encounter = enc or load_encounter(self.path)
        self.match = Match(self.enc, seed=seed, dice=dice)
        self.dice_override = dice
        self.has_map = self.enc.board is not None
        self.arena = None if self.has_map else arena_for(self.enc)
        self.board: Board = self.enc.board if self.has_map else self.arena.board  # type: ignore[union-attr]
        unknown = [side for side in pc_sides if side not in self.enc.sides]
        if unknown:
            raise BattlematError(f"no side {unknown[0]!r} in {self.path}; its sides are {', '.join(self.enc.sides)}")
        self.pc_sides = pc_sides or self.enc.sides[:1]
        self.declared: dict[CharId, Intent] = {}
        self.undo_stack: list[dict[CharId, Intent]] = []
        self.turns: list[tuple[Intent, ...]] = []
        self.autosave_path = autosave
        self.brain: Policy = npc_brain(self.enc, self.match.memory)
        self.last_events: tuple[Event, ...] = ()
        self.declare_npcs()

    # -- views ---------------------------------------------------------------------------------
    @property
    def state(self) -> MatchState:
        return self.match.state

    @property
    def turn(self) -> int:
        return self.state.turn

    def position(self, cid: CharId, state: MatchState | None = None) -> XY | None:
        st = (state or self.state)[cid]
        if st.at is not None:
            return tuple(st.at)  # type: ignore[return-value]
        return self.arena.home.get(cid) if self.arena else None

    def chars_view(self, state: MatchState | None = None) -> dict[CharId, CharacterState]:
        """Every character's state with arena squares filled in, for previews and the NPC policy."""
        state = state or self.state
        return {cid: (st if st.at is not None else st.with_(at=self.position(cid, state)))
                for cid, st in state.chars.items()}

    def state_view(self) -> MatchState:
        return MatchState(self.state.turn, MappingProxyType(self.chars_view()))

    def is_pc(self, cid: CharId) -> bool:
        return self.enc.by_id[cid].side in self.pc_sides

    def active(self) -> list[CharId]:
        return [c.id for c in self.enc.characters if self.state[c.id].active]

    def outcome(self) -> Outcome:
        return self.match.outcome()

    # -- declaring (one door: validate_intent) --------------------------------------------------
    def declare(self, intent: Intent) -> Intent:
        """Validate and record (replacing the character's earlier intent). Raises IllegalIntent."""
        ok = validate_intent(self.enc, self.state, intent, memory=self.match.memory)
        self.undo_stack.append(dict(self.declared))
        self.declared[ok.who] = ok
        return ok

    def clear(self, cid: CharId) -> None:
        if cid in self.declared:
            self.undo_stack.append(dict(self.declared))
            del self.declared[cid]

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.declared = self.undo_stack.pop()
        return True

    def declare_npcs(self, rng: random.Random | None = None) -> None:
        """NPCs declare secretly at the start of a turn, knowing nothing of the PCs' plans (P)."""
        npcs = [cid for cid in self.active() if not self.is_pc(cid) and cid not in self.declared]
        if not npcs or self.outcome().over:
            return
        rng = rng or random.Random(self.match.seed * 1009 + self.turn)
        for it in self.brain.decide(self.state_view(), rng, npcs):
            self.declared[it.who] = it

    def turn_intents(self) -> tuple[Intent, ...]:
        order = [c.id for c in self.enc.characters]
        return tuple(self.declared[c] for c in order if c in self.declared and self.state[c].active)

    # -- resolving -----------------------------------------------------------------------------
    def resolve(self, intents: tuple[Intent, ...] | None = None) -> tuple[Event, ...]:
        """Play one turn; on success the turn is recorded, autosaved and the NPCs declare anew."""
        intents = self.turn_intents() if intents is None else intents
        events = self.match.play(intents)
        self.turns.append(intents)
        self.declared = {}
        self.undo_stack = []
        self.last_events = events
        try:
            if self.autosave_path is not None:
                write_save(self.to_save(), self.autosave_path)
        finally:  # the turn is played either way: the NPCs declare for the next one
            self.declare_npcs()
        return events

    # -- saves ---------------------------------------------------------------------------------
    def to_save(self) -> Save:
        return Save(str(self.path.resolve()), self.match.seed, self.dice_override, tuple(self.turns), self.pc_sides,
                    meta={"title": self.enc.title, "turn": self.turn})

    @staticmethod
    def from_save(save: Save, save_file: str | Path | None = None, replay: bool = False,
                  autosave: Path | None = None) -> tuple[Session, list[tuple[Intent, ...]]]:
        """A session for a save. Resumed: every turn is played at once. Replay: nothing is played
        and the saved turns come back to be played one by one. A saved turn the encounter refuses is a
        LoadError naming the save and the turn."""
        file = str(save_file or "<save>")
        problem = encounter_problem(save, file)
        if problem is not None:
            raise problem
        enc = load_encounter(save.encounter_path(save_file))
        unknown = [side for side in save.pc_sides if side not in enc.sides]
        if unknown:
            raise LoadError.one(file, "pc_sides", f"no side {unknown[0]!r} in {save.encounter}",
                                f"use sides of the encounter: {', '.join(enc.sides)}")
        s = Session(save.encounter_path(save_file), seed=save.seed, dice=save.dice, pc_sides=save.pc_sides,
                    enc=enc)
        if not s.has_map:
            _check_arena_squares(save, s.board, file)
        pending = list(save.turns)
        if not replay:
            for index, intents in enumerate(pending):
                s.declared = {}
                try:
                    s.resolve(intents)
                except BattlematError as exc:
                    raise replay_problem(file, index, intents, exc) from None
            pending = []
        s.autosave_path = autosave  # written once, below, not after every replayed turn
        if autosave is not None and not replay:
            try:
                write_save(s.to_save(), autosave)
            except OSError:  # the game is loaded; the window reports a failing autosave after the next turn
                pass
        else:
            s.declared = {}
        return s, pending


def _check_arena_squares(save: Save, arena: Board, file: str) -> None:
    """Without a map nothing checks the squares of a move against a board (characters stand where
    they declared), but the window draws them on its arena: a saved square off it is refused here."""
    for ti, turn in enumerate(save.turns):
        for ii, it in enumerate(turn):
            squares = [("to", it.to), ("throw", it.throw), *((f"path[{k}]", p) for k, p in enumerate(it.path))]
            for name, sq in squares:
                if sq is not None and not arena.inside(sq):
                    raise LoadError.one(file, f"turns[{ti}][{ii}].{name}",
                                        f"square {list(sq)} is off the {arena.width}x{arena.height} arena of this "
                                        "encounter without a map",
                                        f"squares run from [0, 0] to [{arena.width - 1}, {arena.height - 1}]: "
                                        "restore a good copy of the save")


def describe_intent(enc: Encounter, it: Intent) -> str:
    """'Garran: Press -> Ogre leader, to (4, 5)' for the intents list."""
    words = f"{enc.by_id[it.who].name}: {it.use}"
    if enc.rules.halves[it.use].act == "item":
        words += f" ({it.item})"
    if it.target:
        words += f" -> {enc.by_id[it.target].name}"
    if it.also:
        words += " + " + ", ".join(enc.by_id[a].name for a in it.also)
    if it.to is not None:
        words += f", to {tuple(it.to)}"
    if it.modifiers:
        words += f", GM {sum(m.value for m in it.modifiers):+d}"
    if it.share:
        words += ", shouts"
    return words

