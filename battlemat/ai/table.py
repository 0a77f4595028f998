"""One side's table of a turn: what that side may know as the turn is declared, worked out once.

`Brain.decide` builds one `Table` per side that has a character to decide for, and every character
of that side reads it through its `View` (battlemat.ai.view); a search AI that weighs many candidate
turns from one state reads the same table (`Table(state, side, known)`). Everything in it comes from
the encounter, the state and the match's memory (core.memory) — never from the intents any side has
declared this turn (those stay in the Brain's `Memory`: squares claimed, foes aimed at), so a side's
table holds no secret of another side, and it is the same whichever order the characters decide in.

What it answers, worked out on the first question and kept for the turn:
- who: `foes` and `friends` (still in the fight, in the encounter's order), `at` (everyone's square),
  `shooters` (the foes that could shoot or throw, and where they stand: R1, R4);
- numbers, from the match's `Facts` (they change only with major losses): `ratings` as they stand
  (S2, S3, S5, L5), `strength` (best ranged, reach and overall attack), `allowance` (M1-M3) and
  `engage_reach` (how far a character may come with a half that makes it aggressive, R2);
- space: walking `distance` between characters and `walk` between squares (levels, stairs, walls
  and doors count: movement.walk_field), `adjacent` and `friends_next_to` (M6, P4), `sees` (R4);
- the side's reach answers (`reach`: M1-M12, from the side's start-of-turn context, M10: the same
  question the resolver's check asks) and the squares a charge may end on next to a foe
  (`charge_squares`, M7).
Without a board everyone is in reach (distance 1, adjacent, seen without cover, no reach squares).
A table answers for the state it was built from only: a new state, a new table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from battlemat.core import geometry, movement, uses
from battlemat.core.board import Board
from battlemat.core.character import Character
from battlemat.core.encounter import Encounter
from battlemat.core.memory import MatchMemory
from battlemat.core.resolver import start_context
from battlemat.core.rules import Rules
from battlemat.core.state import MatchState
from battlemat.core.types import XY, CharId

__all__ = ["Facts", "Ratings", "Table"]


class Ratings(dict[str, int]):
    """One character's ratings as they stand with some number of major losses, by skill half: base +
    equipment + talent, less major-loss penalties (S2, S3, S5, L5; MatchMemory.figure), filled as asked."""

    __slots__ = ("_ask",)

    def __init__(self, ask: Callable[[str], int]) -> None:
        super().__init__()
        self._ask = ask

    def __missing__(self, half: str) -> int:
        got = self[half] = self._ask(half)
        return got


class Facts:
    """What the AI counts on of each character for a whole match (the Brain keeps one): its ratings,
    its strength and how far it may come aggressively, by number of major losses (nothing else of a
    character changes in a match)."""

    __slots__ = ("known", "aggressive", "aims", "_ratings", "_strengths", "_engage")

    def __init__(self, known: MatchMemory) -> None:
        self.known = known
        rules = known.enc.rules
        self.aggressive = uses.aggressive_halves(rules)  # R2: in the rules data's order
        self.aims = frozenset(h for h in rules.halves if uses.aims_at_target(rules, h))  # M7, M8
        self._ratings: dict[tuple[CharId, int], Ratings] = {}
        self._strengths: dict[tuple[CharId, int], tuple[int, int, int]] = {}
        self._engage: dict[tuple[CharId, int], int] = {}

    def ratings(self, cid: CharId, major: int) -> Ratings:
        got = self._ratings.get((cid, major))
        if got is None:
            got = self._ratings[cid, major] = Ratings(partial(self.known.figure, cid, major=major))
        return got

    def strength(self, cid: CharId, major: int) -> tuple[int, int, int]:
        """Best ranged attack (Shoot, Throw), best reach attack (Melee, Press, Wrestle), best of all."""
        got = self._strengths.get((cid, major))
        if got is None:
            r = self.ratings(cid, major)

            def figure() -> tuple[int, int, int]:
                ranged = max(r["Shoot"], r["Throw"])
                reach = max(r["Melee"], r["Press"], r["Wrestle"])
                return ranged, reach, max(ranged, reach)

            got = self._strengths[cid, major] = self.known.strength(cid, major, figure)
        return got

    def engage_reach(self, cid: CharId, major: int) -> int:
        """The most squares `cid` may move with a half it has that makes it aggressive (R2: the rules
        data's `aggressive_skills`), or -1 when it has none."""
        got = self._engage.get((cid, major))
        if got is None:
            char, r, allowance = self.known.enc.by_id[cid], self.ratings(cid, major), self.known.allowance
            got = self._engage[cid, major] = max(
                (allowance(char, h, major) for h in self.aggressive if r[h] > 0), default=-1)
        return got


class Table:
    """What `side` may know of `state` (see the module's docstring). Characters are named by id."""

    __slots__ = ("state", "side", "known", "facts", "enc", "rules", "board", "diagonals", "walk_field", "foes",
                 "friends", "at", "major", "_ctx", "_shooters", "_fields", "_next", "_reach", "_charges")

    def __init__(self, state: MatchState, side: str, known: MatchMemory, facts: Facts | None = None) -> None:
        self.state, self.side, self.known = state, side, known
        self.facts = facts if facts is not None else Facts(known)
        self.enc: Encounter = known.enc.fitted(state)  # its board as the state has the doors (core.walls)
        self.rules: Rules = self.enc.rules
        self.board: Board | None = self.enc.board
        self.diagonals = self.rules.switch_str("diagonals")
        # Squares of walking to a goal from every square, by node (y * width + x), on the board as the
        # doors stand: remembered for the match (MatchMemory.walk_field)
        self.walk_field: Callable[[XY], Sequence[int]] = (
            known.walk_field if self.enc is known.enc else partial(known.walk_field, board=self.board))
        chars = state.chars
        active = [c for c in self.enc.characters if chars[c.id].active]
        self.foes: tuple[Character, ...] = tuple(c for c in active if c.side != side)
        self.friends: tuple[Character, ...] = tuple(c for c in active if c.side == side)
        self.at: Mapping[CharId, XY | None] = {cid: st.at for cid, st in chars.items()}
        self.major: Mapping[CharId, int] = {cid: st.major for cid, st in chars.items()}
        self._ctx: movement.Context | None = None
        self._shooters: tuple[tuple[Character, XY], ...] | None = None
        self._fields: dict[CharId, Sequence[int]] = {}  # walking distances to each character's square
        self._next: dict[CharId, tuple[CharId, ...]] = {}
        self._reach: dict[tuple[CharId, str, CharId | None], Mapping[XY, int]] = {}
        self._charges: dict[tuple[CharId, CharId], tuple[XY, ...]] = {}

    # -- numbers (the match's Facts, at each character's major losses now) -------------------------
    def ratings(self, cid: CharId) -> Ratings:
        """`cid`'s ratings as they stand, by half: what a planner can count on (S2, S3, S5, L5)."""
        return self.facts.ratings(cid, self.major[cid])

    def strength(self, cid: CharId) -> tuple[int, int, int]:
        """`cid`'s best ranged attack (Shoot, Throw), best reach attack (Melee, Press, Wrestle) and
        best of all, as `ratings` counts them."""
        return self.facts.strength(cid, self.major[cid])

    def allowance(self, cid: CharId, half: str) -> int:
        """M1-M3: squares `cid` may move using `half` this turn."""
        return self.known.allowance(self.enc.by_id[cid], half, self.major[cid])

    def engage_reach(self, cid: CharId) -> int:
        """How far `cid` may come with a half that makes it aggressive (R2), -1 if it has none."""
        return self.facts.engage_reach(cid, self.major[cid])

    def shooters(self) -> tuple[tuple[Character, XY], ...]:
        """The foes that could shoot or throw (R1) with the squares they stand on (R4)."""
        got = self._shooters
        if got is None:
            at, strength = self.at, self.strength
            got = self._shooters = tuple(
                (f, sq) for f in self.foes if (sq := at[f.id]) is not None and strength(f.id)[0] > 0)
        return got

    # -- space -----------------------------------------------------------------------------------
    def distance(self, a: CharId, b: CharId) -> int:
        """Squares of walking from `a` to `b` (levels and walls count); straight-line distance plus
        100 where no walk leads there; 1 without a board or a square."""
        pa, pb, board = self.at[a], self.at[b], self.board
        if board is None or pa is None or pb is None:
            return 1
        field = self._fields.get(b)
        if field is None:
            field = self._fields[b] = self.walk_field(pb)
        got = field[pa[1] * board.width + pa[0]]
        return got if got < movement.FAR else 100 + geometry.distance(board, pa, pb, self.diagonals)

    def walk(self, sq: XY, goal: XY) -> int:
        """Squares of walking from `sq` to `goal` (movement.FAR where no walk leads there)."""
        board = self.board
        assert board is not None
        return self.walk_field(goal)[sq[1] * board.width + sq[0]]

    def friends_next_to(self, cid: CharId) -> tuple[CharId, ...]:
        """The side's characters that stand next to `cid` (M6, P4: a group's size, S7)."""
        got = self._next.get(cid)
        if got is None:
            got = self._next[cid] = tuple(c.id for c in self.friends if c.id != cid and self.adjacent(c.id, cid))
        return got

    def adjacent(self, a: CharId, b: CharId) -> bool:
        """Next to each other (M6, P4); always without a board or a square."""
        pa, pb, board = self.at[a], self.at[b], self.board
        if board is None or pa is None or pb is None:
            return True
        return geometry.adjacent(board, pa, pb)

    def sees(self, a: CharId, b: CharId) -> tuple[bool, int]:
        """R4: whether `a` sees `b`, and the cover between them."""
        pa, pb, board = self.at[a], self.at[b], self.board
        if board is None or pa is None or pb is None:
            return True, 0
        seen, cover, _ = geometry.sight(board, pa, pb)
        return seen, cover

    # -- reach (the side's own movers only: the context is the side's, M10) ------------------------
    def reach(self, cid: CharId, use: str, target: CharId | None = None) -> Mapping[XY, int]:
        """Squares `cid` (of this side) may end on this turn using `use`, cost by square, as the
        resolver's check sees them (movement.reach from the side's start-of-turn context); empty
        without a board or a square. A half whose moves do not follow its target (uses.aims_at_target:
        all but a charge, M7, and Provoke, M8) has one answer whatever the target."""
        if target is not None and use not in self.facts.aims:
            target = None
        got = self._reach.get((cid, use, target))
        if got is None:
            board = self.board
            if board is None or self.at[cid] is None:
                got = {}
            else:
                ctx = self._ctx
                if ctx is None:
                    ctx = self._ctx = start_context(self.enc, self.state, self.side, self.known)
                mover = movement.mover_for(self.known, self.state.chars, cid, use, target)
                got = movement.reach(board, self.rules, mover, ctx).costs
            self._reach[cid, use, target] = got
        return got

    def charge_squares(self, cid: CharId, target: CharId) -> tuple[XY, ...]:
        """The squares next to `target` a Press charge by `cid` may end on this turn (M7), before any
        ally claims them. A charge goes as far as Block or Dodge would (same allowance, same terrain
        rules) and only picks the straightest of the cheapest ways, so Dodge's reach answers it
        without a search of its own; none where Press and Dodge allow different distances, and none
        without a search where the foe stands farther than the move could go (`_farthest`)."""
        got = self._charges.get((cid, target))
        if got is None:
            goal, here, board = self.at[target], self.at[cid], self.board
            if board is None or goal is None or here is None or (
                    self.allowance(cid, "Press") != self.allowance(cid, "Dodge")):
                got = ()
            elif max(abs(goal[0] - here[0]), abs(goal[1] - here[1])) > self._farthest(cid, "Dodge") + 1:
                got = ()  # every square next to the foe lies beyond the farthest the move may go
            else:
                gr, reach = movement.grid(board, self.diagonals), self.reach(cid, "Dodge")
                got = tuple(s for s in map(gr.sq, gr.zone(goal)) if s in reach)
            self._charges[cid, target] = got
        return got

    def _farthest(self, cid: CharId, use: str) -> int:
        """How many squares each way `cid`'s move with `use` may go at most: its mover's allowance
        (movement.mover_for), since every step costs at least 1 and moves at most one square each
        way, on hex maps too, and a jump pays for the squares it crosses (M1, M5, M11)."""
        return self.known.allowance(self.enc.by_id[cid], use, self.major[cid], moving_shot=True)
