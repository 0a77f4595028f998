"""One game on the play screen: the match, this turn's declarations, undo, NPCs, saves, and the
line of turns it can rewind along.

Pure (no pygame), so tests drive it directly and the screens stay thin. The window never changes
the match except through `declare` (validate_intent: the one door), `resolve` (Match.play) and
`go_to`, which rebuilds the match by replaying the recorded intents through a fresh Match with the
same seed (DESIGN: determinism; no state is snapshotted, so a rewind shows exactly what a replay of
the save would). The line is the played turns plus, after a rewind, the recorded turns ahead
(`future`): Enter at a past turn plays the recorded one and stays on the line; a turn declared
differently branches (the turns ahead are dropped, and the branch autosaves to a file of its own, so
the original line stays where it was saved).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
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
from battlemat.core.types import XY, CharId
from battlemat.io.errors import LoadError
from battlemat.io.gm_changes import GmChange, change_problem, check_changes, gm_changes
from battlemat.io.lessons import read_lesson_encounter
from battlemat.io.saves import (
    DoorChange,
    Save,
    encounter_problem,
    encounter_ref,
    gm_doors,
    replay_problem,
    write_save,
)
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


@dataclass(frozen=True)
class Where:
    """Where on its line of turns a session is: turn `turn` of `last` (the turn after the last
    recorded one), `rewound` when recorded turns lie ahead, `branched_at` the turn a branch left its
    original line (0: none), `replay` when opened to replay a save."""

    turn: int
    last: int
    rewound: bool
    over: bool
    branched_at: int = 0
    replay: bool = False

    def words(self) -> str:
        """'turn 2 of 5 - rewound; declaring here branches' for the title bar and the timeline."""
        if self.rewound:
            doing = "replay: Enter plays the saved turn" if self.replay else "rewound"
            return f"turn {self.turn} of {self.last} - {doing}; declaring here branches"
        out = f"turn {self.turn}" + (f" of {self.last}" if self.last > 1 else "")
        if self.over:
            out += " - combat over"
        if self.branched_at:
            out += f" - a branch from turn {self.branched_at}"
        return out

    def title(self) -> str:
        """The short form for the title bar: 'turn 2 of 5 - rewound', 'turn 5 - a branch'."""
        if self.rewound:
            return f"turn {self.turn} of {self.last} - {'replay' if self.replay else 'rewound'}"
        return (f"turn {self.turn}" + (" - combat over" if self.over else "")
                + (" - a branch" if self.branched_at else ""))


def same_turn(a: Sequence[Intent], b: Sequence[Intent]) -> bool:
    """The same intents, whatever their order."""
    return {it.who: it for it in a} == {it.who: it for it in b}


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
        self.enc: Encounter = enc or read_lesson_encounter(self.path)  # a Tiled map or an inline [map]
        self.match = Match(self.enc, seed=seed, dice=dice)
        self.dice_override = dice
        self.has_map = self.enc.board is not None
        arena = None if self.has_map else arena_for(self.enc)
        self.arena = arena
        unknown = [side for side in pc_sides if side not in self.enc.sides]
        if unknown:
            raise BattlematError(f"no side {unknown[0]!r} in {self.path}; its sides are {', '.join(self.enc.sides)}")
        self.pc_sides = pc_sides or self.enc.sides[:1]
        self.declared: dict[CharId, Intent] = {}
        self.undo_stack: list[dict[CharId, Intent]] = []
        self.turns: list[tuple[Intent, ...]] = []  # played, in order: the match is these replayed
        self.door_changes: list[DoorChange] = []  # the game master's, in the order made, on the whole line
        self.gm_edits: list[GmChange] = []  # the game master's ratings and losses (io.gm_changes), as doors
        self.base = self.enc  # the encounter as read: a rating the game master changes makes a new one
        self.future: list[tuple[Intent, ...]] = []  # recorded turns ahead of this one (rewound, replay)
        self.autosave_path = autosave
        self.origin: Path | None = None  # the save this game was opened from, to name its branches
        self.branched_at = 0
        self.branch_of = ""  # the file of the line this branch left
        self.replay = False
        self.note = ""  # something to tell the player about how the game was opened
        self.ref = encounter_ref(self.path, self.enc.title)
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

    @property
    def live(self) -> Encounter:
        """The encounter as this turn has its doors (`Encounter.fitted`): what every preview reads, so
        the preview is the outcome."""
        return self.enc.fitted(self.state)

    @property
    def board(self) -> Board:
        """The board as this turn has its doors (the arena without a map)."""
        return self.board_at(self.state)

    def board_at(self, state: MatchState) -> Board:
        """The board as `state` has its doors (a forecast's end of turn: doors opened on the way)."""
        return self.arena.board if self.arena is not None else self.enc.fitted(state).map_board

    def position(self, cid: CharId, state: MatchState | None = None) -> XY | None:
        st = (state or self.state)[cid]
        if st.at is not None:
            x, y = st.at
            return (x, y)
        return self.arena.home.get(cid) if self.arena else None

    def chars_view(self, state: MatchState | None = None) -> dict[CharId, CharacterState]:
        """Every character's state with arena squares filled in, for previews and the NPC policy."""
        state = state or self.state
        return {cid: (st if st.at is not None else st.with_(at=self.position(cid, state)))
                for cid, st in state.chars.items()}

    def state_view(self) -> MatchState:
        return MatchState(self.state.turn, MappingProxyType(self.chars_view()), self.state.doors)

    def is_pc(self, cid: CharId) -> bool:
        return self.enc.by_id[cid].side in self.pc_sides

    def asks_if_idle(self, cid: CharId) -> bool:
        """Whether Resolve asks before leaving `cid` without an intent (ui/idle.py): every player
        character in a game (a lesson's step waits for its own characters instead)."""
        return self.is_pc(cid)

    def active(self) -> list[CharId]:
        return [c.id for c in self.enc.characters if self.state[c.id].active]

    def outcome(self) -> Outcome:
        return self.match.outcome()

    @property
    def line(self) -> tuple[tuple[Intent, ...], ...]:
        """Every turn of the line being shown: played, then recorded ahead."""
        return (*self.turns, *self.future)

    def where(self) -> Where:
        return Where(self.turn, len(self.line) + 1, bool(self.future), self.outcome().over, self.branched_at,
                     self.replay)

    def recorded(self) -> tuple[Intent, ...] | None:
        """The recorded intents of this turn, when it lies in the past of the line."""
        return self.future[0] if self.future else None

    def following_record(self) -> bool:
        """Whether this turn's declarations are the recorded ones (Enter stays on the line)."""
        rec = self.recorded()
        return rec is not None and same_turn(self.turn_intents(), rec)

    # -- declaring (one door: validate_intent) --------------------------------------------------
    def declare(self, intent: Intent) -> Intent:
        """Validate and record (replacing the character's earlier intent). Raises IllegalIntent."""
        ok = validate_intent(self.live, self.state, intent, memory=self.match.memory)
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

    # -- the line of turns ---------------------------------------------------------------------
    def go_to(self, turn: int) -> tuple[Event, ...]:
        """Show the start of `turn` (1 .. len(line)+1): a fresh Match with the same seed and dice
        replays the line's intents up to it, so the state is the one a replay of the save shows.
        The turns after it stay recorded ahead; the recorded intents of `turn` are declared, ready
        to play again or to change (which branches). Returns the events of every turn replayed."""
        line = self.line
        turn = max(1, min(turn, len(line) + 1))
        memory = self.match.memory if self.match.encounter is self.base else None  # (a memory is its encounter's)
        match = Match(self.base, seed=self.match.seed, dice=self.dice_override, memory=memory)
        for t, intents in enumerate(line[: turn - 1], start=1):
            gm_doors(match, self.door_changes, t)
            gm_changes(match, self.gm_edits, t)
            match.play(intents)
        gm_doors(match, self.door_changes, turn)  # the start of `turn`: as the game master left its doors
        gm_changes(match, self.gm_edits, turn)
        self.match = match
        self._follow()
        self.turns, self.future = list(line[: turn - 1]), list(line[turn - 1:])
        self.undo_stack = []
        self.last_events = tuple(e for e in match.log if e.turn == turn - 1)
        self.declared = {}
        rec = self.recorded()
        if rec is not None:
            self.declared = {it.who: it for it in rec}
        else:
            self.declare_npcs()
        return tuple(match.log)

    def branch_file(self, turn: int) -> Path | None:
        """Where a branch from `turn` autosaves: beside the autosave, named after the save it left."""
        if self.autosave_path is None:
            return None
        stem = (self.origin or self.path).stem
        return self.autosave_path.parent / f"{stem}-branch-turn{turn}-{time.strftime('%Y%m%d-%H%M%S')}.json"

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
        """Play one turn; on success the turn is recorded, autosaved and the NPCs declare anew.
        At a past turn of the line, the recorded intents play as recorded and the line goes on;
        other intents branch: the turns ahead are dropped and the game autosaves to a new file
        (`branch_file`), leaving the save of the original line as it was."""
        intents = self.turn_intents() if intents is None else tuple(intents)
        rec = self.recorded()
        follows = rec is not None and same_turn(intents, rec)
        events = self.match.play(rec if follows and rec is not None else intents)
        if rec is not None and not follows:
            self._branch(self.turn - 1)
        self.turns.append(rec if follows and rec is not None else intents)
        if follows:
            self.future.pop(0)
        events += tuple(gm_doors(self.match, self.door_changes, self.turn))  # recorded ahead, before the next turn
        events += tuple(gm_changes(self.match, self.gm_edits, self.turn))
        self._follow()
        self.declared = {}
        self.undo_stack = []
        self.last_events = events
        try:
            if self.autosave_path is not None:
                write_save(self.to_save(), self.autosave_path)
        finally:  # the turn is played either way: the next turn's intents are declared
            rec = self.recorded()
            if rec is not None:
                self.declared = {it.who: it for it in rec}
            else:
                self.declare_npcs()
        return events

    def _branch(self, at: int) -> None:
        """Leave the recorded line at turn `at`: the turns ahead and the door changes after `at` are
        dropped, and the branch autosaves to a file of its own (`branch_file`)."""
        self.branched_at = at
        self.branch_of = (self.origin or self.autosave_path or self.path).name
        self.future = []
        self.door_changes = [c for c in self.door_changes if c.turn <= at]
        self.gm_edits = [c for c in self.gm_edits if c.turn <= at]
        self.autosave_path = self.branch_file(at) or self.autosave_path
        self.replay = False

    # -- the game master's doors ---------------------------------------------------------------
    def set_door(self, door_id: str, state: str) -> tuple[Event, list[CharId]]:
        """The game master sets a door between turns (open, closed or locked): the match state's doors
        change (`MatchState.with_doors`), the change is recorded for the save and the replay, and the
        log gets a line marked as the game master's. At a rewound turn the line branches here (the
        turns ahead were played with the doors as they were). The NPCs declare again, knowing the
        door; a player's intent the door now refuses is dropped. Returns the log's event and the
        characters whose intent was dropped."""
        door = self.board.door(door_id)
        if door is None:
            raise BattlematError(f"no door {door_id!r} on this map")
        if self.future:
            self._branch(self.turn)
        change = DoorChange(self.turn, door_id, state)
        self.door_changes.append(change)
        event = gm_doors(self.match, [change], self.turn)[0]
        return event, self._declare_again()

    def _declare_again(self) -> list[CharId]:
        """After a game master's change: the NPCs decide again, and a player's intent the match now
        refuses is dropped (returned)."""
        dropped = []
        for cid, it in list(self.declared.items()):
            if not self.is_pc(cid) or not self.state[cid].active:
                del self.declared[cid]  # the NPCs decide again, below
                continue
            try:
                validate_intent(self.live, self.state, it, memory=self.match.memory)
            except BattlematError:
                del self.declared[cid]
                dropped.append(cid)
        self.undo_stack = []
        self.declare_npcs()
        return dropped

    # -- the game master's ratings and losses --------------------------------------------------
    def _follow(self) -> None:
        """The session reads the match's encounter (a rating changed by the game master makes a new one)."""
        if self.match.encounter is not self.enc:
            self.enc = self.match.encounter
            self.brain = npc_brain(self.enc, self.match.memory)

    def set_gm(self, change: GmChange) -> tuple[Event, list[CharId]]:
        """The game master changes a rating or losses between turns (io.gm_changes), as a door
        (`set_door`): recorded for the save and the replay, logged as the GM's, a rewound line
        branches here, NPCs decide again and a player's intent now refused is dropped."""
        problem = change_problem(self.enc, self.state, change)
        if problem is not None:
            raise BattlematError(problem)
        if self.future:
            self._branch(self.turn)
        self.gm_edits.append(change)
        event = gm_changes(self.match, [change], self.turn)[0]
        self._follow()
        return event, self._declare_again()

    # -- saves ---------------------------------------------------------------------------------
    def to_save(self) -> Save:
        """The whole line, also when rewound (saving never loses the turns ahead)."""
        meta: dict[str, object] = {"title": self.enc.title, "turn": self.turn}
        if self.branched_at:
            meta["branch_of"] = self.branch_of
            meta["branched_at"] = self.branched_at
        return Save(str(self.path.resolve()), self.match.seed, self.dice_override, self.line, self.pc_sides,
                    meta=meta, ref=self.ref, doors=tuple(self.door_changes), gm=tuple(self.gm_edits))

    @staticmethod
    def from_save(save: Save, save_file: str | Path | None = None, replay: bool = False,
                  autosave: Path | None = None) -> tuple[Session, list[tuple[Intent, ...]]]:
        """A session for a save. Resumed: every turn is played at once. Replay: nothing is played
        and the saved turns lie ahead, to be played one by one (returned too). The save is checked
        against its encounter first: a missing encounter, an unknown side, a square off the arena, or a
        saved turn the encounter refuses is a LoadError naming the save and the place."""
        file = str(save_file or "<save>")
        problem = encounter_problem(save, file)
        if problem is not None:
            raise problem
        path = save.find_encounter(save_file)
        enc = read_lesson_encounter(path)
        unknown = [side for side in save.pc_sides if side not in enc.sides]
        if unknown:
            raise LoadError.one(file, "pc_sides", f"no side {unknown[0]!r} in {save.encounter}",
                                f"use sides of the encounter: {', '.join(enc.sides)}")
        s = Session(path, seed=save.seed, dice=save.dice, pc_sides=save.pc_sides, autosave=autosave, enc=enc)
        if not s.has_map:
            _check_arena_squares(save, s.board, file)
        _check_doors(save, s.board, file)
        check_changes(save.gm, enc, file)
        s.door_changes = list(save.doors)
        s.gm_edits = list(save.gm)
        s.origin = Path(save_file) if save_file is not None else None
        if save.encounter_changed(path):
            s.note = (f"{path.name} changed since this game was saved: its turns may be refused or play out "
                      "differently")
        s.future = list(save.turns)
        s.replay = replay
        try:
            s.go_to(1 if replay else len(save.turns) + 1)
        except BattlematError:
            raise _refused_turn(save, enc, file) from None
        return s, list(s.future)


def _check_doors(save: Save, board: Board, file: str) -> None:
    """Every door a save's game master changed is on the encounter's map."""
    ids = [d.id for d in board.doors]
    for i, change in enumerate(save.doors):
        if change.door not in ids:
            known = f"its doors are {', '.join(ids[:20])}" if ids else "its map has no doors"
            raise LoadError.one(file, f"doors[{i}].door", f"no door {change.door!r} on the encounter's map ({known})",
                                "restore a good copy of the save, or the encounter the game was played with")


def _refused_turn(save: Save, enc: Encounter, file: str) -> LoadError:
    """The first saved turn the encounter refuses, as a LoadError naming the save and the turn (worked
    out only when replaying the save failed)."""
    match = Match(enc, seed=save.seed, dice=save.dice)
    for index, intents in enumerate(save.turns):
        gm_doors(match, save.doors, index + 1)
        gm_changes(match, save.gm, index + 1)
        try:
            match.play(intents)
        except BattlematError as exc:
            return replay_problem(file, index, intents, exc)
    return LoadError.one(file, "turns", "the saved turns cannot be replayed", "restore a good copy")


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

