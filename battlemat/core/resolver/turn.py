"""The state of one turn being resolved, shared by the phases: what came in, what was declared, what
has happened so far. Its interface, for the phase modules:

- the world as it came in (read only): `enc`, `rules`, `state` (as the turn began), `n` (the turn's
  number), `rng`, `dice`, `memory` (the match's, core.memory);
- what was declared: `intents` by character, `attacks` (each declared attack with a target, in
  declaration order, then each Melee talent's sweep at a secondary target, C7), `blocks` (C5: which
  threats each Block/Dodge user meets at full rating);
- the characters as they are now: `st` (written by the phases as losses, moves and advantages land);
- what happened, for later phases and the end of the turn: `caused` and `suffered` (L2),
  `attacked_by` (O4), `failed` (attacks that came to nothing), `shares` (O6), `hidden` (O4), `grips`
  (M13, landed at the end of each attack step), `pinned` (held characters whose Exit failed, C8),
  `leaving` (runners who reached the map's edge: they leave at the end of the turn, C5), `caught`
  (runners whose Exit a pursuer's Exit stopped, C5);
- the doors: `doors` by id as they stand now, and `enc` on the board that has them (`open_door`);
- `events`, the record, appended to by `emit` only; `phase` names the phase running.
Everything is simultaneous within one phase step: contests read `st` as the step began and their
losses land together at its end (losses.land).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from battlemat.core import movement, uses
from battlemat.core.character import Character
from battlemat.core.dice import DiceEngine
from battlemat.core.encounter import Encounter
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.rules import Half, Rules
from battlemat.core.state import Advantage, CharacterState, MatchState
from battlemat.core.types import CharId

if TYPE_CHECKING:  # names for mypy only
    from battlemat.core.events import Payload

    # an event's words: written now, or a function that writes them when read (events.words)
    Text = str | Callable[[], str]


class Attack(NamedTuple):
    """A declared attack with a target; `secondary`: a Melee talent's sweep at a secondary target (C7),
    an attack like any other but for its -1 and its need to be adjacent."""

    who: CharId
    use: str
    target: CharId
    half: Half
    secondary: bool = False


# A threat a Block/Dodge user may choose to meet (C5): (half, target, sweeper), the sweeper "" for a
# group of declared attacks, its id for a sweep (C7: a threat of its own).
ThreatKey = tuple[str, CharId, CharId]


@dataclass
class Group:
    """Characters doing the same thing to one target in one phase step: they act as one (S7). A sweep
    at a secondary target (C7) is a group of its sweeper alone."""

    use: str
    target: CharId
    members: list[CharId]
    half: Half
    secondary: bool = False

    @property
    def key(self) -> ThreatKey:
        return (self.use, self.target, self.members[0] if self.secondary else "")


class Hit(NamedTuple):
    """Losses for `victim`, caused by `sources` (none: a hazard)."""

    victim: CharId
    losses: int
    sources: tuple[CharId, ...]


@dataclass
class Turn:
    enc: Encounter
    state: MatchState
    rng: random.Random
    dice: DiceEngine
    memory: MatchMemory
    phase: str = "declare"
    events: list[Event] = field(default_factory=list)
    intents: dict[CharId, Intent] = field(default_factory=dict)
    attacks: list[Attack] = field(default_factory=list)
    blocks: dict[CharId, set[ThreatKey]] = field(default_factory=dict)
    st: dict[CharId, CharacterState] = field(default_factory=dict)
    caused: set[CharId] = field(default_factory=set)
    suffered: set[CharId] = field(default_factory=set)
    attacked_by: dict[CharId, set[CharId]] = field(default_factory=dict)
    # (attacker, target) of each attack that came to nothing (R2, R4, P4; a sweep out of reach, C7)
    failed: set[tuple[CharId, CharId]] = field(default_factory=set)
    shares: list[tuple[CharId, Advantage]] = field(default_factory=list)
    hidden: list[tuple[CharId, CharId]] = field(default_factory=list)  # (hider, the foe it hides from)
    # (held, wrestler, the grip's rating, the wrestler's effective Wrestle as the step began: a throw's reach, M13)
    grips: list[tuple[CharId, CharId, int, int]] = field(default_factory=list)
    pinned: set[CharId] = field(default_factory=set)  # C8: held, so an Exit does not flee this turn
    leaving: set[CharId] = field(default_factory=set)  # C5: reached the map's edge, gone at the end of the turn
    caught: dict[CharId, CharId] = field(default_factory=dict)  # C5: runner -> the pursuer whose Exit stopped its Exit
    held_on_edge: set[CharId] = field(default_factory=set)  # C5: runners on the edge that something held there (M6, C8)
    # M6 [house]: who stood where as the movement sub-phase being walked began, by side (P2 sets it)
    contexts: dict[str, movement.Context] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.enc = self.enc.fitted(self.state)  # the board as the state has its doors (core.walls)
        # each door's state by id, as the phases leave them (a door opened in P2 is open for P3 and P4)
        self.doors: dict[str, str] = dict(self.enc.board.door_states) if self.enc.board is not None else {}
        self.rules: Rules = self.enc.rules
        self.n = self.state.turn
        self.st = dict(self.state.chars)
        self.levels: Sequence[int] = ()  # the board's level by node (M12, R5), as the movement grid keeps them
        if self.enc.board is not None:
            self.levels = movement.grid(self.enc.board, self.rules.switch_str("diagonals")).level

    def open_doors(self, doors: Iterable[str]) -> None:
        """These doors are open from now on: `doors` and `enc` (its board) change together."""
        self.doors.update((d, "open") for d in doors)
        self.enc = self.enc.at_doors(self.doors)

    def emit(self, type_: str, text: Text, rules: Sequence[str] = (), **data: object) -> None:
        """Record an event. `text`: its words, or `events.words(fn, *args)` to write them when read."""
        self.events.append(Event(type_, self.n, self.phase, text, tuple(rules), MappingProxyType(data)))

    def emit_payload(self, payload: Payload, text: Text, rules: Sequence[str]) -> None:
        """emit() for the events with a typed payload (events.Moved, Contest, Losses): its type, and its
        data made from it when read."""
        self.events.append(Event(payload.TYPE, self.n, self.phase, text, tuple(rules), payload))

    def emit_data(self, type_: str, text: Text, rules: tuple[str, ...],
                  data: dict[str, object] | Callable[[], Mapping[str, object]]) -> None:
        """emit() for data already in a dict of its own (no keyword arguments to pack again), or made by
        a function when read (values that nothing in a turn reads: an intent's, the state's)."""
        self.events.append(Event(type_, self.n, self.phase, text, rules,
                                 data if callable(data) else MappingProxyType(data)))

    def char(self, cid: CharId) -> Character:
        return self.enc.by_id[cid]

    def name(self, cid: CharId) -> str:
        return self.enc.by_id[cid].name

    def active(self, cid: CharId) -> bool:
        return self.st[cid].active

    def sticky_now(self) -> dict[CharId, str]:
        """M6: who makes its neighbours stick as things stand now: a sticky half declared by someone
        still in the fight (a hazard may have felled it earlier in P2), with the half it uses."""
        return {c: u for c, u in uses.sticky_uses(self.rules, self.intents).items() if self.active(c)}

    def order(self) -> tuple[CharId, ...]:
        """Declaration order of the encounter: the deterministic order of every loop."""
        return self.enc.ids

    def enemies(self, a: CharId, b: CharId) -> bool:
        return self.char(a).side != self.char(b).side

    def grant(self, cid: CharId, adv: Advantage, share: bool) -> None:
        """A lasting or next-turn advantage (O1, O3, O4, O5), shouted to allies in P2 if `share` (O6)."""
        s = self.st[cid]
        if adv not in s.advantages:
            self.st[cid] = s.with_(advantages=s.advantages + (adv,))
        when = "for the rest of the combat" if adv.turn is None else f"in turn {adv.turn}"
        self.emit(
            "advantage",
            f"{self.name(cid)} gains {adv.value:+d} against {self.name(adv.vs)} {when}: {adv.reason} ({adv.rule})",
            (adv.rule,),
            who=cid,
            vs=adv.vs,
            value=adv.value,
            until=adv.turn,
        )
        if share:
            self.shares.append((cid, adv))
