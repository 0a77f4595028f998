"""What one side knows of the board, worked out from what the match recorded: the squares its
characters see now (R4, through the core's own `geometry.sight`: opaque squares, walls and closed
doors block it), every square they have seen, where they last saw each foe, and the foes hidden from
them by Stealth (O4: P1's `hidden` and `found` events). The players' window draws it (`fog.py`,
`players_window.py`). Pure: no pygame.

Secrets stay secret. Nothing here takes an intent, and a foe's square is read only while that foe
is not hidden from the side (tests/test_ui_fog.py hands in poisoned squares and intents).
What the walk reads, in the order the match recorded it: the squares everyone starts on, each
`moved` step by step (and `thrown`), `fled`, `defeated`, `door`, P1's `hidden`/`found`, and each
`turn_end`'s state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from battlemat.core import geometry
from battlemat.core.board import Board
from battlemat.core.encounter import Encounter
from battlemat.core.events import Event, Moved
from battlemat.core.types import XY, CharId
from battlemat.ui.knowledge import Fog, Knowledge

Squares = frozenset[XY]
MEMO_LIMIT = 4096  # observer squares remembered per board (each a few hundred squares)


class Sight:
    """The squares seen from a square (R4, `geometry.sight` from its centre to each square's), with
    the doors as they stand, worked out once per square and door states."""

    def __init__(self, board: Board) -> None:
        self.board = board  # as the encounter drew its doors: `with_doors` gives the variant of a turn
        self._memo: dict[tuple[tuple[tuple[str, str], ...], XY], Squares] = {}
        self._doors: dict[str, Squares] | None = None

    def from_square(self, sq: XY, doors: Mapping[str, str]) -> Squares:
        key = (tuple(sorted(doors.items())) if self.board.doors else (), sq)
        hit = self._memo.get(key)
        if hit is None:
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
            b = self.board.with_doors(doors)
            hit = self._memo[key] = frozenset(
                (x, y) for y in range(b.height) for x in range(b.width) if geometry.sight(b, sq, (x, y))[0])
        return hit

    def door_squares(self) -> Mapping[str, Squares]:
        """The squares on either side of each door (its neighbour pairs, `geometry.sealed_pairs`, with
        every door closed): a door is seen when one of them is."""
        if self._doors is None:
            shut = self.board.with_doors({d.id: "closed" for d in self.board.doors})
            out: dict[str, set[XY]] = {}
            for (a, b), i in geometry.sealed_pairs(shut).items():
                door = shut.barriers[i][1]
                if door is not None:
                    out.setdefault(door.id, set()).update((a, b))
            self._doors = {k: frozenset(v) for k, v in out.items()}
        return self._doors

    def seen_from(self, squares: Iterable[XY], doors: Mapping[str, str]) -> Squares:
        out: frozenset[XY] = frozenset()
        for sq in set(squares):
            out |= self.from_square(sq, doors)
        return out


@dataclass(frozen=True)
class Memory:
    """What a side remembers: every square it has seen, each foe's last seen square and the turn it
    was seen there, the foes hidden from it by Stealth as the last P1 left them (O4), and each door's
    state when last seen (those never seen: as the map drew them)."""

    seen: Squares = frozenset()
    last: Mapping[CharId, tuple[XY, int]] = field(default_factory=lambda: MappingProxyType({}))
    hidden: frozenset[CharId] = frozenset()
    doors: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # as last seen


@dataclass
class _Walk:
    """The walk's own record of the match (the referee's): where each character stands, who is out
    of the fight, the doors, and what the side has seen so far."""

    enc: Encounter
    side: str
    sight: Sight
    at: dict[CharId, XY]
    out: set[CharId]
    doors: dict[str, str]
    turn: int = 1
    seen: set[XY] = field(default_factory=set)
    last: dict[CharId, tuple[XY, int]] = field(default_factory=dict)
    hidden: set[CharId] = field(default_factory=set)  # hidden from the side, as the last P1 left them
    hiding: set[CharId] = field(default_factory=set)  # hidden in this turn's P1 so far
    in_p1: bool = False
    seen_doors: dict[str, str] = field(default_factory=dict)  # each door as last seen

    @property
    def hide_phases(self) -> set[str]:
        """The phases hiding happens in (the rules data's, P1): once past them the turn's hiders are known."""
        return {h.phase for h in self.enc.rules.halves.values() if h.act == "hide"}

    def ours(self, cid: CharId) -> bool:
        return self.enc.by_id[cid].side == self.side

    def look(self) -> None:
        """One moment: what the side's characters in the fight see, and the foes in it (never the
        square of a foe hidden from them)."""
        eyes = [sq for cid, sq in self.at.items() if cid not in self.out and self.ours(cid)]
        now = self.sight.seen_from(eyes, self.doors)
        self.seen |= now
        for door, squares in self.sight.door_squares().items():
            if squares & now:
                self.seen_doors[door] = self.doors.get(door, "")
        for cid in self.enc.by_id:
            if self.ours(cid) or cid in self.hidden or cid not in self.at:
                continue
            if self.at[cid] in now:
                self.last[cid] = (self.at[cid], self.turn)

    def step(self, ev: Event) -> None:
        d = ev.data
        kind = ev.type
        if kind == "turn_start":
            self.turn, self.hiding, self.in_p1 = ev.turn, set(), True
        elif kind == "phase" and self.in_p1 and ev.phase not in self.hide_phases:
            self._p1_over()
        elif kind == "hidden" and self._from_us(d.get("searchers", ())):
            self.hiding.add(str(d["who"]))
        elif kind == "found":
            self.hiding.discard(str(d["who"]))
            self.hidden.discard(str(d["who"]))
        elif kind == "moved":
            mv = Moved.of(ev)
            for sq in mv.route or (mv.to,):
                self._move(mv.who, sq)
        elif kind == "thrown":
            self._move(str(d["who"]), _xy(d["to"]))
        elif kind == "fled":
            self.out.add(str(d["who"]))
            self.at.pop(str(d["who"]), None)
            self.last.pop(str(d["who"]), None)  # seen leaving: no ghost
        elif kind == "defeated":
            self.out.add(str(d["who"]))
        elif kind == "door" and isinstance(d.get("door"), str):
            self.doors[d["door"]] = str(d["state"])
            self.look()
        elif kind == "turn_end":
            self._turn_end(d.get("state") or {})

    def _from_us(self, searchers: Sequence[object]) -> bool:
        """A hide against this side (O4): its searchers, or the foe it hid from, are ours."""
        return any(str(s) in self.enc.by_id and self.ours(str(s)) for s in searchers)

    def _p1_over(self) -> None:
        """P1 is over: the hiders that stayed hidden from the side this turn are hidden; the others
        show again wherever the side can see them (O4)."""
        self.hidden, self.in_p1 = set(self.hiding), False
        self.look()

    def _move(self, who: CharId, sq: XY) -> None:
        self.at[who] = sq
        self.look()

    def _turn_end(self, state: Mapping[str, Mapping[str, object]]) -> None:
        if self.in_p1:
            self._p1_over()
        for cid, st in state.items():
            where = st.get("at")
            if cid in self.at and isinstance(where, list | tuple):
                self.at[cid] = _xy(where)
            if st.get("defeated") or st.get("fled"):
                self.out.add(cid)
        self.look()


@dataclass(frozen=True)
class Moment:
    """Where everyone on the board stands (`at`), who is out of the fight and the doors' states."""

    at: Mapping[CharId, XY]
    out: frozenset[CharId] = frozenset()
    doors: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Eyes:
    """One side's eyes on an encounter's board."""

    enc: Encounter
    side: str
    sight: Sight

    def remember(self, start: Moment, events: Iterable[Event]) -> Memory:
        """The side's memory after `events`, from the match's first moment (`start`)."""
        walk = _Walk(self.enc, self.side, self.sight, dict(start.at), set(start.out), dict(start.doors))
        walk.look()
        for ev in events:
            walk.step(ev)
        return Memory(frozenset(walk.seen), MappingProxyType(dict(walk.last)), frozenset(walk.hidden),
                      MappingProxyType({d: st for d, st in walk.seen_doors.items() if st}))

    def knowledge(self, memory: Memory, now: Moment) -> Knowledge:
        """The side's knowledge as things stand (`now`: the playback's squares while a turn plays): its
        squares in sight now, the squares it has seen, the foes in sight (the rest are not drawn;
        those seen before show as ghosts where last seen), no NPC intents, no overlays, no sheets. A
        foe hidden by Stealth (O4) is neither drawn nor ghosted, and its square is not even read."""
        enc, at = self.enc, now.at
        ours = [c.id for c in enc.characters if c.side == self.side]
        sees = self.sight.seen_from([at[c] for c in ours if c in at and c not in now.out], now.doors)
        shown = {c.id for c in enc.characters
                 if c.side == self.side or (c.id not in memory.hidden and c.id in at and at[c.id] in sees)}
        ghosts = {cid: sq for cid, (sq, _) in memory.last.items() if cid not in shown and cid not in memory.hidden}
        turns = {cid: t for cid, (_, t) in memory.last.items() if cid in ghosts}
        fog = Fog(sees, memory.seen | sees, MappingProxyType(turns))
        doors = {d.id: (now.doors.get(d.id, d.state) if self.sight.door_squares().get(d.id, frozenset()) & sees
                        else memory.doors.get(d.id, d.state)) for d in self.sight.board.doors}
        return Knowledge(hidden=frozenset(c.id for c in enc.characters if c.id not in shown),
                         seen_at=MappingProxyType(ghosts), npc_intents=False, overlays=False, sheets=False, fog=fog,
                         doors=MappingProxyType(doors) if doors else None)


def _xy(square: object) -> XY:
    """A square as an event's data holds it (a list or a tuple of two ints)."""
    assert isinstance(square, list | tuple)
    return (int(square[0]), int(square[1]))
