"""The move preview: the same Reach/Route queries the resolver uses (battlemat.core.movement).

Imported lazily so the window still opens (without reach shading) if the movement module is
missing or broken; `movement_available()` tells the panels to say so. Never imports pygame.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from battlemat.core.encounter import Encounter
from battlemat.core.intents import Intent
from battlemat.types import XY, CharId

STICKY_USES = ("Melee", "Wrestle")  # M6


def _movement() -> ModuleType | None:
    try:
        return importlib.import_module("battlemat.core.movement")
    except Exception:  # noqa: BLE001 - a half-written module must not take the window down
        return None


def movement_available() -> bool:
    mod = _movement()
    return mod is not None and hasattr(mod, "reach") and hasattr(mod, "mover_for")


def reach_for(
    enc: Encounter,
    board: Any,
    chars: Mapping[CharId, Any],
    who: CharId,
    use: str,
    target: CharId | None = None,
    item: str = "simple",
    declared: Mapping[CharId, Intent] | None = None,
) -> Any | None:
    """The Reach of `who` using `use` this turn, or None when movement is unavailable.

    Sticky enemies (M6) are those whose declared intent is Melee or Wrestle; positions are the
    ones at the start of the turn, which is what the declaring player knows."""
    mod = _movement()
    if mod is None or board is None or chars[who].at is None:
        return None
    try:
        mover = mod.mover_for(enc, chars, who, use, target, item)
        sticky = {c: it.use for c, it in (declared or {}).items() if it.use in STICKY_USES}
        ctx = mod.context(enc, chars, enc.by_id[who].side, sticky, who=who)
        return mod.reach(board, enc.rules, mover, ctx)
    except Exception:  # noqa: BLE001 - preview only: the resolver stays the judge
        return None


def refusal_text(refusal: Any) -> tuple[str, str]:
    """(rule ID, words) of a movement Refusal."""
    return str(getattr(refusal, "rule", "")), str(getattr(refusal, "why", refusal))


def range_bands(enc: Encounter, who: CharId, use: str) -> list[tuple[str, int, str]]:
    """Unpenalized range bands of Shoot/Throw in squares: (label, radius, rule). R1: Shoot 5 squares
    per rating, Throw 2; R3: talent point blank, 3 squares per talent point."""
    if use not in ("Shoot", "Throw"):
        return []
    c = enc.by_id[who]
    rating = c.base("Shoot/Throw") + c.equipment_bonus("Shoot/Throw")[0]
    per = 5 if use == "Shoot" else 2
    bands = [(f"{use} unpenalized ({per} x {rating})", per * rating, "R1")]
    talent = c.talent("Shoot/Throw")
    if talent:
        bands.insert(0, (f"point blank (3 x talent {talent})", 3 * talent, "R3"))
    return bands


def allowance_of(enc: Encounter, who: CharId, use: str, major: int = 0, item: str = "simple") -> int:
    """M1 with M2 and M3, from the movement module when present (one source of truth)."""
    mod = _movement()
    c = enc.by_id[who]
    if mod is not None and hasattr(mod, "allowance"):
        try:
            return int(mod.allowance(enc.rules, c, use, major, item))
        except Exception:  # noqa: BLE001
            pass
    base = enc.rules.allowance(use, item)
    return base + math.ceil(c.talent("Acrobatics/Climb") / 2) if base > 0 else base


def route_squares(rc: Any, sq: XY) -> tuple[tuple[XY, ...], Any | None]:
    """(squares of the route to sq, refusal or None) from a Reach."""
    if rc is None:
        return (), None
    if rc.can_end(sq):
        return tuple(rc.route_to(sq).squares), None
    return (), rc.why_not(sq)
