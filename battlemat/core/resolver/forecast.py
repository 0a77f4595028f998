"""What one attack comes to, read from the turn itself (DESIGN: predictions are resolutions).

`forecast` resolves the whole turn with the intents it is given (`resolve_turn`: the same phases,
the same movement, the same contests) on a copy of the match's memory, diceless, and reads the
record for the attack of `who` on `target`: the contest it met (both ratings with their breakdowns,
the group that formed after movement, how the defender opposed) or the `no_effect` event that says
why it came to nothing (out of reach after movement, no sight, felled first...). So a forecast can
never disagree with the turn played with the same intents. Intents the caller does not know are
simply not given: those characters stay where they are and do nothing, and saying so is the
caller's part (battlemat.ui.forecast).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from battlemat.core.dice import Diceless
from battlemat.core.encounter import Encounter
from battlemat.core.events import Contest, Event
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.rating import Rating
from battlemat.core.resolver.resolve import resolve_turn
from battlemat.core.state import MatchState
from battlemat.core.types import CharId


@dataclass(frozen=True)
class Forecast:
    """`who`'s attack on `target` in the resolved turn, seen from `who`'s side: `attack` is the rating of
    the group `who` attacked with (`attackers`, S7), `defense` what met it (`defenders`, `how`: C3, C5).
    `winner` is "attack" when `who`'s side wins, "defense" when it loses, "tie", or "" when there was no
    contest: then `failed` is the event that says why. `events` and `state` are the whole turn."""

    attack: Rating | None
    defense: Rating | None
    how: str
    winner: str
    losses: int  # the contest's margin: losses the loser suffers (C2)
    kind: str  # the contest's kind: "attack", "interfere" (C3), "secondary" (C7); "" without one
    attackers: tuple[CharId, ...]
    defenders: tuple[CharId, ...]
    failed: Event | None
    events: tuple[Event, ...]
    state: MatchState

    @property
    def margin(self) -> int:
        """Attack minus defence (diceless: the losses, signed from `who`'s side)."""
        if self.attack is None or self.defense is None:
            return 0
        return self.attack.value - self.defense.value


def forecast(enc: Encounter, state: MatchState, intents: Sequence[Intent], who: CharId,
             target: CharId | None = None, memory: MatchMemory | None = None) -> Forecast | None:
    """The turn resolved with `intents` (diceless; `memory` is forked, never changed) and what `who`'s
    attack on `target` (default: its intent's target) came to. Raises IllegalIntent like the resolver;
    None if `who` declares no attack."""
    mine = next((it for it in intents if it.who == who), None)
    if mine is None or enc.rules.halves[mine.use].act != "attack":
        return None
    aim = target if target is not None else mine.target
    if aim is None:
        return None
    mem = memory.fork() if memory is not None else MatchMemory(enc)
    result = resolve_turn(enc, state, intents, random.Random(0), Diceless(), mem)
    return read_forecast(result.events, result.state, who, aim)


def read_forecast(events: tuple[Event, ...], state: MatchState, who: CharId, target: CharId) -> Forecast:
    """`who`'s attack on `target` as the record of a resolved turn tells it."""
    for ev in events:
        if ev.type == Contest.TYPE:
            c = Contest.of(ev)
            if who in c.attackers and target in c.defenders:
                return _contest(c, events, state, swap=False)
            if c.kind == "interfere" and who in c.defenders and target in c.attackers:
                return _contest(c, events, state, swap=True)  # C3: its attack met theirs
        elif ev.type == "no_effect" and ev.data.get("who") == who and ev.data.get("target") == target:
            return Forecast(None, None, "", "", 0, "", (who,), (target,), ev, events, state)
    return Forecast(None, None, "", "", 0, "", (who,), (target,), None, events, state)


def _contest(c: Contest, events: tuple[Event, ...], state: MatchState, swap: bool) -> Forecast:
    a, d, mine, theirs, winner = c.attack, c.defense, c.attackers, c.defenders, c.winner
    if swap:
        a, d, mine, theirs = d, a, theirs, mine
        winner = {"attack": "defense", "defense": "attack"}.get(winner, winner)
    return Forecast(a, d, c.how, winner, c.margin, c.kind, mine, theirs, None, events, state)
