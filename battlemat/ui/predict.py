"""Predicted contest breakdowns for the hover card, computed by the resolver's own code.

`battlemat.core.resolver.forecast` declares the other intents plus the one being considered and
returns both sides' ratings (groups S7, opposition C5, matchups S8, advantages O1-O5). An intent
the rules refuse degrades to a plain attacker-only breakdown instead of breaking the window.
Never imports pygame.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from battlemat.core.encounter import Encounter
from battlemat.core.intents import Intent
from battlemat.core.rating import Rating
from battlemat.core.state import MatchState
from battlemat.types import CharId


@dataclass(frozen=True)
class Prediction:
    attack: Rating
    defense: Rating | None
    how: str  # how the defender opposes (C5 words)
    margin: int  # attack - defense (diceless)

    def verdict(self) -> str:
        if self.defense is None:
            return ""
        if self.margin > 0:
            return f"expected: {self.margin} loss{'es' if self.margin != 1 else ''} to the target (C2)"
        if self.margin == 0:
            return "expected: a tie, no losses"
        return "expected: the attack fails"


def predict(enc: Encounter, state: MatchState, declared: Mapping[CharId, Intent], intent: Intent) -> Prediction | None:
    """Both sides' ratings if `intent` is played alongside the other declared intents."""
    half = enc.rules.halves.get(intent.use)
    if half is None or intent.target is None or half.act != "attack":
        return None
    intents = [it for cid, it in declared.items() if cid != intent.who and state[cid].active]
    intents.append(intent)
    try:
        from battlemat.core.resolver import forecast

        f = forecast(enc, state, intents, intent.who)
        if f is None:
            return None
        return Prediction(f.attack, f.defense, f.how, f.margin)
    except Exception:  # noqa: BLE001 - a preview must never take the window down
        c = enc.by_id[intent.who]
        pair = half.pair
        att = Rating(intent.use, base=c.base(pair), equipment=c.equipment_bonus(pair)[0],
                     situational=intent.modifiers)
        return Prediction(att, None, "", 0)
