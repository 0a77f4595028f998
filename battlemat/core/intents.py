"""Intents: what a character declares, secretly, for one turn (DESIGN: intents through one door)."""

from __future__ import annotations

from dataclasses import dataclass

from battlemat.core.rating import Modifier
from battlemat.core.types import XY, CharId


@dataclass(frozen=True)
class Intent:
    who: CharId
    use: str  # a skill half ("Press") or "item"
    target: CharId | None = None
    also: tuple[CharId, ...] = ()  # C7 secondary targets
    modifiers: tuple[Modifier, ...] = ()  # GM-granted situational modifiers (S6)
    to: XY | None = None
    path: tuple[XY, ...] = ()
    share: bool = False  # O6
    item: str = "simple"  # M1: simple | dexterity | concentration
    throw: XY | None = None  # M13: where a Wrestle user throws the foe it holds

    @property
    def moves(self) -> bool:
        return self.to is not None or bool(self.path)

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"who": self.who, "use": self.use}
        if self.target:
            d["target"] = self.target
        if self.also:
            d["also"] = list(self.also)
        if self.modifiers:
            d["modifiers"] = [{"value": m.value, "reason": m.reason} for m in self.modifiers]
        if self.to is not None:
            d["to"] = list(self.to)
        if self.path:
            d["path"] = [list(p) for p in self.path]
        if self.share:
            d["share"] = True
        if self.use == "item":
            d["item"] = self.item
        if self.throw is not None:
            d["throw"] = list(self.throw)
        return d
