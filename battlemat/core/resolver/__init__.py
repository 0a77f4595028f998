"""The resolver: every intent of a turn, declared secretly, resolved at once in phase order P1..P4.

`resolve_turn(encounter, state, intents, rng, dice, memory)` validates the intents (IllegalIntent
says why), walks the declared phases (STYLE.md 8) and returns the events and the new state. It
keeps no globals: the world comes in as arguments, with one seeded `random.Random` per match and
the match's memory (core.memory).

Within one phase step everything is simultaneous: contests read the state at the start of the
step and their losses land together at its end. Between steps and phases the order is the rules'
(P3 before P4, Wonder intimidation before Shoot/Throw), so a character defeated by an arrow in P3
no longer strikes in P4.

The modules, around the turn's state (`turn.Turn`): `validate` (intents through one door),
`ratings` (effective ratings and groups), `defense` (C5), `contests` (C2-C7), `losses` (L1-L4),
and one per phase: `observe` (P1), `moves` (P2), `attacks` (P3, P4), `endturn`; `resolve` walks them.
`forecast` reads one attack's outcome from a turn resolved here (the window's hover card).
"""

from __future__ import annotations

from battlemat.core.resolver.forecast import Forecast, forecast
from battlemat.core.resolver.resolve import PHASES, TurnResult, resolve_turn
from battlemat.core.resolver.validate import start_context, validate_intent

__all__ = ["PHASES", "Forecast", "TurnResult", "forecast", "resolve_turn", "start_context", "validate_intent"]
