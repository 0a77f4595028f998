"""The move preview: the same Reach/Route queries the resolver uses (battlemat.core.movement).

Imported lazily so the window still opens (without reach shading) if the movement module is
missing or broken; `movement_available()` tells the panels to say so. Never imports pygame.
Which skills are sticky (M6) and how far a character moves (M1-M3) are the rules data's and the
movement module's answers; nothing here restates a rule.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from battlemat.core.encounter import Encounter
from battlemat.core.intents import Intent
from battlemat.types import XY, CharId


def _movement() -> ModuleType | None:
    try:
        return importlib.import_module("battlemat.core.movement")
    except Exception:  # noqa: BLE001 - a half-written module must not take the window down
        return None


def movement_available() -> bool:
    mod = _movement()
    return mod is not None and hasattr(mod, "reach") and hasattr(mod, "mover_for")


def sticky_uses(enc: Encounter, declared: Mapping[CharId, Intent]) -> dict[CharId, str]:
    """M6: who among `declared` makes its neighbours stick (the rules data's `sticky` halves)."""
    halves = enc.rules.halves
    return {c: it.use for c, it in declared.items() if (h := halves.get(it.use)) is not None and h.sticky}


def reach_for(
    enc: Encounter,
    board: Any,
    chars: Mapping[CharId, Any],
    draft: Intent,
    declared: Mapping[CharId, Intent] | None = None,
) -> Any | None:
    """The Reach of `draft.who` using `draft.use` (on `draft.target`, with `draft.item`) this turn,
    or None when movement is unavailable.

    Sticky enemies (M6) are those whose declared intent is a sticky half; positions are the ones at
    the start of the turn, which is what the declaring player knows."""
    mod = _movement()
    if mod is None or board is None or chars[draft.who].at is None:
        return None
    try:
        mover = mod.mover_for(enc, chars, draft.who, draft.use, draft.target, draft.item)
        ctx = mod.context_for(enc, chars, draft.who, sticky_uses(enc, declared or {}))
        return mod.reach(board, enc.rules, mover, ctx)
    except Exception:  # noqa: BLE001 - preview only: the resolver stays the judge
        return None


def refusal_text(refusal: Any) -> tuple[str, str]:
    """(rule ID, words) of a movement Refusal."""
    return str(getattr(refusal, "rule", "")), str(getattr(refusal, "why", refusal))


def allowance_of(
    enc: Encounter, who: CharId, use: str, major: int = 0, item: str = "simple", moving_shot: bool = False
) -> int | None:
    """M1 with M2 and M3 as `battlemat.core.movement.allowance` counts them (the one source of
    truth), or None when the movement module is unavailable: the window then says so instead of
    guessing."""
    mod = _movement()
    if mod is None or not hasattr(mod, "allowance"):
        return None
    try:
        return int(mod.allowance(enc.rules, enc.by_id[who], use, major, item, moving_shot))
    except Exception:  # noqa: BLE001 - a label must not take the window down
        return None


def route_squares(rc: Any, sq: XY) -> tuple[tuple[XY, ...], Any | None]:
    """(squares of the route to sq, refusal or None) from a Reach."""
    if rc is None:
        return (), None
    if rc.can_end(sq):
        return tuple(rc.route_to(sq).squares), None
    return (), rc.why_not(sq)
