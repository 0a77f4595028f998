"""Characters as declared by an encounter: ratings never change during a match (rules S1-S5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from battlemat.core.rules import Rules
from battlemat.core.types import XY, CharId, SideName

RATING_NAMES: Mapping[int, str] = MappingProxyType({
    0: "None",
    1: "Fumbling",
    2: "Clumsy",
    3: "Rough",
    4: "Polished",
    5: "Notable",
    6: "Superior",
    7: "Heroic",
    8: "Legendary",
})  # rule S2


# Style knobs the AI's tactics honour (battlemat.ai.tactics), per character or per side in an encounter:
# focus = concentrate attacks on the foe allies already attack, spread = prefer foes nobody attacks yet;
# cautious = close in behind Block/Dodge and keep away from several foes, reckless = charge and strike.
STYLES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "focus": ("focus", "spread"),
    "risk": ("cautious", "reckless"),
})


@dataclass(frozen=True)
class ScriptStep:
    """One step of a scripted NPC (ai = "scripted"): use a skill half until a condition holds
    (target_major, target_defeated, own_major) or for a number of turns; the last step repeats."""

    use: str
    until: str = ""
    turns: int = 0
    target: str = ""


SCRIPT_CONDITIONS = ("", "target_major", "target_defeated", "own_major")


@dataclass(frozen=True)
class Equipment:
    """A notable item boosting a skill while in use (rule S5). An item keeps the half it is named for
    (a bow for Shoot helps Shoot, not Throw; a shield for Block helps Block, not Dodge: text lines 34,
    70-71, 158, "lost when the item is not in use"); an item named for the pair helps both halves."""

    name: str
    skill: str  # pair
    bonus: int
    quality: str = ""  # "excellent" or "enchanted" when the bonus came from that house switch (S5)
    half: str = ""  # the half it is named for; "" = named for the whole pair

    @property
    def named_for(self) -> str:
        """The half or the pair the item helps, for the breakdown (S5)."""
        return self.half or self.skill


_NO_ITEM = (0, "")


def _frozen(m: Mapping[str, int] | None) -> Mapping[str, int]:
    return MappingProxyType(dict(m or {}))


@dataclass(frozen=True)
class Character:
    id: CharId
    name: str
    side: SideName
    skills: Mapping[str, int] = field(default_factory=lambda: _frozen(None))  # pair -> base 0..8
    # pair -> 0..base: text line 162, "a talent's rating may never be increased beyond the base skill
    # rating" (checked by io.encounter)
    talents: Mapping[str, int] = field(default_factory=lambda: _frozen(None))
    equipment: tuple[Equipment, ...] = ()
    kind: str = ""
    fragile: bool = False  # L4
    deadly: bool = False  # L4
    observe_tn: Mapping[str, int] = field(default_factory=lambda: _frozen(None))  # half -> TN (O1)
    at: XY | None = None
    ai: str = ""
    script: tuple[ScriptStep, ...] = ()
    # losses already taken when the encounter starts (L1: minor 0..2, then major), e.g. a fight picked up
    # in its middle: the start state has them, and they count as suffered in this combat (O5, L4)
    start_minor: int = 0
    start_major: int = 0
    # how its tactics fight (STYLES): {"focus": "focus" | "spread", "risk": "cautious" | "reckless"}
    style: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # (pair, half) -> (bonus, words) of its best item for that half, "" for the pair's own items (S5):
    # ratings are worked out many times a turn
    _best_items: Mapping[tuple[str, str], tuple[int, str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        best: dict[tuple[str, str], Equipment] = {}
        for e in self.equipment:  # the first of equal bonuses, as max() picks
            key = (e.skill, e.half)
            if key not in best or e.bonus > best[key].bonus:
                best[key] = e
        object.__setattr__(self, "_best_items", MappingProxyType(
            {k: (e.bonus, f"{e.name}, for {e.half}" if e.half else e.name) for k, e in best.items()}))

    def base(self, pair: str) -> int:
        """S2: the base rating of `pair`. A rule that names no rating means the effective one (text line
        15: rating.standing, or a contest's Rating); read this alone only where the text says base."""
        return self.skills.get(pair, 0)

    def talent(self, pair: str) -> int:
        return self.talents.get(pair, 0)

    def equipment_bonus(self, pair: str, half: str = "") -> tuple[int, str]:
        """The best item in use for the half `half` of `pair` and what it is ("bow, for Shoot" when it is
        named for a half; its name alone when it is named for the pair): an item
        named for that half or for the whole pair, never one named for the other half (S5: an item not
        in use gives nothing). `half` "": the pair as a whole (an elusion's requirement, the sheet),
        helped by items named for the pair only. One item at a time: S5 [house]."""
        whole = self._best_items.get((pair, ""), _NO_ITEM)
        if not half:
            return whole
        own = self._best_items.get((pair, half), _NO_ITEM)
        return own if own[0] > whole[0] else whole

    def items_of(self, pair: str) -> tuple[Equipment, ...]:
        """Every item for `pair` or one of its halves (the sheet shows each with what it helps)."""
        return tuple(e for e in self.equipment if e.skill == pair)

    def experience(self) -> int:
        """Rule S4: the sum of all skill and talent ratings, minus the 40 points of a new PC. Base
        ratings: text line 109 counts the points of text line 105, which distributes base ratings."""
        return sum(self.skills.values()) + sum(self.talents.values()) - 40

    def new_pc_problems(self) -> list[str]:
        """Rule S4: what keeps this sheet from being a legal new PC (empty when it is one). Base
        ratings: text line 105, "at most one base skill rating of 5 and no base skill rating above of 5"."""
        problems = []
        if sum(self.skills.values()) != 40:
            problems.append(f"spends {sum(self.skills.values())} points, a new PC spends 40")
        fives = [p for p, v in self.skills.items() if v == 5]
        if len(fives) > 1:
            problems.append(f"has {len(fives)} ratings of 5 ({', '.join(fives)}), at most one is allowed")
        high = [p for p, v in self.skills.items() if v > 5]
        if high:
            problems.append(f"rates {', '.join(high)} above 5")
        if any(self.talents.values()):
            problems.append("has talents; a new PC has none")
        return problems

    def defeat_threshold(self, rules: Rules) -> int:
        """Rule L3: major losses at which the character is defeated (2, plus its toughness talent)."""
        return 2 + self.talent(rules.talent_pair("toughness"))
