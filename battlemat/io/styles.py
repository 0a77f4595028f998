"""Style knobs of the AI's tactics in an encounter (core.character.STYLES): a character's `style` table
and a side's `[side.NAME] style`, read with every problem reported (io.encounter's reader)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Protocol

from battlemat.core.character import STYLES, Character
from battlemat.io.names import AI_NAMES, ai_known


class Reader(Protocol):
    def bad(self, place: str, message: str, fix: str = "") -> None: ...

    def table(self, obj: Any, place: str) -> Mapping[str, Any]: ...

    def unknown(self, obj: Mapping[str, Any], allowed: set[str], place: str) -> None: ...


def style_of(r: Reader, raw: Any, place: str) -> dict[str, str]:
    """A style table, e.g. { focus = "spread", risk = "cautious" } (core.character.STYLES)."""
    t = r.table(raw, place)
    out: dict[str, str] = {}
    for key, value in t.items():
        if key not in STYLES:
            r.bad(f"{place}.{key}", f"unknown style knob {key!r}", f"use one of: {', '.join(STYLES)}")
        elif value not in STYLES[key]:
            r.bad(f"{place}.{key}", f"unknown {key} style {value!r}", f"use one of: {', '.join(STYLES[key])}")
        else:
            out[key] = value
    return out


def _side_ai(ai: str, own: str) -> str:
    """A character's `ai` under its side's: "search" searches on its own tactic, another fills a gap."""
    if ai != "search":
        return own or ai
    return own if own.startswith("search") else f"search:{own}" if own else "search"


def side_styles(r: Reader, data: Mapping[str, Any], chars: list[Character]) -> list[Character]:
    """[side.NAME] style = {...}: the side's style knobs, for its characters that set none of their own;
    [side.NAME] ai = "TACTIC": the side's tactic for its characters that name none, and ai = "search"
    the search AI for all of them, each on its own tactic (ai.search: "search:archer")."""
    sides = r.table(data.get("side", {}), "side")
    known = {c.side for c in chars}
    for name, raw in sides.items():
        t = r.table(raw, f"side.{name}")
        r.unknown(t, {"style", "ai"}, f"side.{name}")
        if name not in known:
            r.bad(f"side.{name}", f"no character is on side {name!r}", f"use one of: {', '.join(sorted(known))}")
            continue
        style = style_of(r, t.get("style", {}), f"side.{name}.style")
        chars = [replace(c, style={**style, **c.style}) if c.side == name else c for c in chars]
        ai = t.get("ai", "")
        if ai and (not isinstance(ai, str) or not ai_known(ai)):
            r.bad(f"side.{name}.ai", f"unknown tactics {str(ai)[:40]!r}", f"use one of: {', '.join(AI_NAMES)}")
        elif ai:
            chars = [replace(c, ai=_side_ai(ai, c.ai)) if c.side == name else c for c in chars]
    return chars
