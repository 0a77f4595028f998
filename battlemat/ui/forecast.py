"""The hover card's forecast: what an attack comes to, read from the turn resolved with what is known.

`battlemat.core.resolver.forecast` resolves the whole turn (the same movement, groups and contests as
the real one) with the intents this side may know: its own declared intents, and the NPCs' in GM mode.
A character whose intent is secret is given none: it stays where it is and does nothing, and the
forecast says so ("if Ogre leader stays where it is"). A secret target's defence is not predicted
(the card describes it by rule, C5); a target out of reach after movement is flagged, with no losses
promised. An intent the rules refuse gives no forecast instead of breaking the window.
Never imports pygame.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from battlemat.core import uses
from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.rating import Rating
from battlemat.core.resolver import Forecast, forecast
from battlemat.core.state import MatchState
from battlemat.core.types import CharId


@dataclass(frozen=True)
class AttackForecast:
    """A hovered attack as the resolved turn tells it, and what it had to assume: `secret` when the
    target's intent is unknown, `assumed` every character whose intent is unknown (each stays where it
    is and does nothing)."""

    who: CharId
    target: CharId
    found: Forecast
    secret: bool = False
    assumed: tuple[CharId, ...] = ()

    @property
    def attack(self) -> Rating | None:
        return self.found.attack

    @property
    def defense(self) -> Rating | None:
        return self.found.defense

    @property
    def how(self) -> str:
        return self.found.how

    @property
    def margin(self) -> int:
        return self.found.margin

    @property
    def failed(self) -> Event | None:
        """The event that says why the attack comes to nothing (out of reach after movement, ...)."""
        return self.found.failed

    @property
    def conditional(self) -> bool:
        return bool(self.assumed)

    def losses_to(self, cid: CharId) -> int:
        """Losses `cid` suffers this turn from the other side of this attack (the contest's step)."""
        other = self.target if cid == self.who else self.who
        return sum(int(ev.data["n"]) for ev in self.found.events
                   if ev.type == "losses" and ev.data["who"] == cid and other in ev.data.get("by", ()))

    def verdict(self) -> str:
        """What the card promises: losses to one side, a tie, or nothing (and why)."""
        f = self.found
        if f.failed is not None:
            return "expected: no losses"
        if f.attack is None or self.secret:
            return ""
        n = f.losses
        if f.winner == "attack":
            rule = "C3" if f.kind == "interfere" else "C2"
            return f"expected: {n} loss{'es' if n != 1 else ''} to the target ({rule})"
        if f.winner == "tie":
            return "expected: a tie, no losses"
        back = self.losses_to(self.who)
        if back:
            return f"expected: the attack fails, and its attacker suffers {back} loss{'es' if back != 1 else ''}"
        return "expected: the attack fails"


def forecast_attack(enc: Encounter, state: MatchState, declared: Mapping[CharId, Intent], intent: Intent,
            unknown: Collection[CharId] = (), memory: MatchMemory | None = None) -> AttackForecast | None:
    """`intent` played alongside the `declared` intents this side knows; the characters in `unknown`
    (whose intents are secret) stay where they are and do nothing. None if `intent` is no attack or
    the rules refuse the turn."""
    half = enc.rules.halves.get(intent.use)
    if half is None or intent.target is None or half.act != "attack":
        return None
    intents = [it for cid, it in declared.items() if cid != intent.who and cid not in unknown and state[cid].active]
    intents.append(intent)
    try:
        f = forecast(enc, state, intents, intent.who, memory=memory)
    except BattlematError:  # an intent the rules refuse: no forecast (the status line says why on declaring)
        return None
    if f is None:
        return None
    assumed = tuple(c for c in enc.ids if c in unknown and c != intent.who and state[c].active)
    return AttackForecast(intent.who, intent.target, f, intent.target in unknown, assumed)


def aimed_at(enc: Encounter, draft: Intent, target: CharId) -> Intent:
    """The draft intent aimed at `target` as clicking it would declare it: a half whose squares follow
    from its target (a charge, M7; holding ground, M8) lets the resolver choose them again."""
    if uses.aims_at_target(enc.rules, draft.use):
        return replace(draft, target=target, to=None, path=())
    return replace(draft, target=target)


class Forecasts:
    """The last few hover forecasts by their question: a frame asks the one it asked last frame. A
    state is a value compared by identity (it is never changed), so it is kept with its answers."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._by_key: dict[tuple[object, ...], AttackForecast | None] = {}
        self._state: MatchState | None = None

    def get(self, enc: Encounter, state: MatchState, declared: Mapping[CharId, Intent], intent: Intent,
            unknown: Collection[CharId] = (), memory: MatchMemory | None = None) -> AttackForecast | None:
        if state is not self._state:
            self._by_key.clear()
            self._state = state
        key = (tuple(declared.items()), intent, tuple(sorted(unknown)))
        if key not in self._by_key:
            if len(self._by_key) >= self.size:
                self._by_key.pop(next(iter(self._by_key)))
            self._by_key[key] = forecast_attack(enc, state, declared, intent, unknown, memory)
        return self._by_key[key]
