"""Tactics and style knobs put on a side for one batch (`arena`, `simulate --sweep styles`).

An override is (side, tactic, style): `tactic` replaces the `ai` of every character of the side
('' keeps each one's own; "search" puts the search AI on each one's own tactic: ai.search.searching),
`style` ("focus=spread,risk=cautious"; '' keeps each one's own) replaces
their style knobs. Plain strings, so a batch stays hashable and cheap to ship to workers.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from battlemat.ai.search import SEARCH, searching
from battlemat.core.encounter import Encounter

AI = tuple[tuple[str, str, str], ...]


def style_text(style: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in style.items())


def parse_style(text: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in text.split(",") if part)


def with_ai(enc: Encounter, ai: AI) -> Encounter:
    """The encounter with each side's override applied (the same encounter when there is none)."""
    if not ai:
        return enc
    chars = list(enc.characters)
    for side, tactic, style in ai:
        chars = [
            replace(c, ai=searching(c.ai) if tactic == SEARCH else tactic or c.ai,
                    style=MappingProxyType(parse_style(style)) if style else c.style)
            if c.side == side else c
            for c in chars
        ]
    return replace(enc, characters=tuple(chars))
