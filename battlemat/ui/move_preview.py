"""The move preview while declaring (where the selected character can end, the route, why not):
the same Reach/Route queries the resolver uses (battlemat.core.movement).

Which skills are sticky (M6) and how far a character moves (M1-M3) are the rules data's and the
movement module's answers; nothing here restates a rule. Never imports pygame.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battlemat.core import movement, uses
from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.types import CharId


def reach_for(
    enc: Encounter,
    board: Any,
    chars: Mapping[CharId, Any],
    draft: Intent,
    declared: Mapping[CharId, Intent] | None = None,
    memory: MatchMemory | None = None,
) -> movement.Reach | None:
    """The Reach of `draft.who` using `draft.use` (on `draft.target`, with `draft.item`) this turn,
    or None without a board or a square to start from.

    Sticky enemies (M6) are those whose declared intent is a sticky half; positions are the ones at
    the start of the turn, which is what the declaring player knows."""
    if board is None or chars[draft.who].at is None:
        return None
    try:
        known = memory if memory is not None else MatchMemory(enc)
        mover = movement.mover_for(known, chars, draft.who, draft.use, draft.target, draft.item)
    except (BattlematError, KeyError):  # a draft the rules refuse: the resolver's check will say why
        return None
    sticky = uses.sticky_uses(enc.rules, declared or {})
    ctx = movement.context(enc, chars, enc.by_id[draft.who].side, sticky, who=draft.who)
    return movement.reach(board, enc.rules, mover, ctx)


def refusal_text(refusal: Any) -> tuple[str, str]:
    """(rule ID, words) of a movement Refusal."""
    return str(getattr(refusal, "rule", "")), str(getattr(refusal, "why", refusal))


def allowance_of(
    enc: Encounter, who: CharId, use: str, major: int = 0, item: str = "simple", moving_shot: bool = False
) -> int:
    """M1 with M2 and M3 as `battlemat.core.movement.allowance` counts them (the one source of truth)."""
    return movement.allowance(enc.rules, enc.by_id[who], use, major, item, moving_shot)
