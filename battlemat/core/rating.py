"""Effective ratings with their breakdown (rules S2, S3, S5, S6, S7, S8, L5, C5).

A `Rating` is never a bare int: every number that enters a contest carries the parts that
made it, with the rule behind each, so the log and the UI can explain any outcome.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from battlemat.core.character import Character
    from battlemat.core.rules import Rules


class Modifier(NamedTuple):
    """One situational advantage (+) or disadvantage (-) with its reason (rule S6). A named tuple:
    contests make several a turn, and intents that carry them are hashed and compared."""

    value: int
    reason: str
    rule: str = "S6"

    def describe(self) -> str:
        return f"{self.value:+d} {self.reason} ({self.rule})"


SITUATIONAL_LIMIT = 2  # rule S6: the net situational modifier of one skill use is clamped to -2..+2


@dataclass(frozen=True)
class Rating:
    """An effective rating and how it was reached.

    value = max(0, base + equipment + clamp(situational) + group + talent + matchup - losses),
    halved (round down) when the character opposes while doing something else (C5).
    Built with keywords from this one field list; the numbers are worked out once, when it is made.
    """

    skill: str  # the half being used, e.g. "Press", or "item"
    _: KW_ONLY
    base: int = 0
    equipment: int = 0
    situational: tuple[Modifier, ...] = ()
    group: int = 0
    group_size: int = 1
    talent: int = 0
    matchup: int = 0
    losses: int = 0  # L5 major-loss penalty, a positive number subtracted
    adjustments: tuple[Modifier, ...] = ()  # unclamped changes from other rules (R6, C7...)
    halved: bool = False
    fixed: int | None = None  # an undefended opposition (C5: item use, Technology) is fixed at 0
    notes: tuple[str, ...] = ()  # rule-tagged words for anything else that shaped this rating
    rules: tuple[str, ...] = ()
    _numbers: tuple[int, int, int, int] = field(init=False, repr=False, compare=False)  # raw, net, full, value

    def __post_init__(self) -> None:
        raw = 0
        for m in self.situational:
            raw += m.value
        net = max(-SITUATIONAL_LIMIT, min(SITUATIONAL_LIMIT, raw))  # S6
        full = self.base + self.equipment + net + self.group + self.talent + self.matchup - self.losses
        for m in self.adjustments:
            full += m.value
        full = max(0, full)
        value = self.fixed if self.fixed is not None else (full // 2 if self.halved else full)  # C5
        object.__setattr__(self, "_numbers", (raw, net, full, value))

    @property
    def situational_raw(self) -> int:
        return self._numbers[0]

    @property
    def situational_net(self) -> int:
        """The situational modifiers summed, clamped to -2..+2 (S6)."""
        return self._numbers[1]

    @property
    def full(self) -> int:
        """The effective rating before any halving, never below 0."""
        return self._numbers[2]

    @property
    def value(self) -> int:
        return self._numbers[3]

    def with_(self, **changes: Any) -> Rating:  # (Any: each field its own type, checked by replace)
        """A copy with some parts changed (and its numbers worked out again)."""
        return dataclasses.replace(self, **changes)

    def parts(self) -> list[tuple[str, int, str]]:
        """(label, value, rule) for every non-zero part, in the order the rules add them."""
        if self.fixed is not None:
            return [("undefended", self.fixed, "C5")]
        out: list[tuple[str, int, str]] = [("base", self.base, "S2")]
        if self.equipment:
            out.append(("equipment", self.equipment, "S5"))
        for m in self.situational:
            out.append((m.reason, m.value, m.rule))
        if self.situational_raw != self.situational_net:
            out.append(("situational clamp", self.situational_net - self.situational_raw, "S6"))
        if self.group:
            out.append((f"group of {self.group_size}", self.group, "S7"))
        if self.talent:
            out.append(("talent", self.talent, "S3"))
        if self.matchup:
            out.append(("matchup", self.matchup, "S8"))
        if self.losses:
            out.append(("major losses", -self.losses, "L5"))
        for m in self.adjustments:
            out.append((m.reason, m.value, m.rule))
        return out

    def explain(self) -> str:
        """'Press 4 = base 2 +1 higher ground (S6) +1 matchup (S8)'. The parts in the order and words
        of parts(), written out here: every contest explains both its ratings."""
        if self.fixed is not None:
            return f"{self.skill} {self.value} (undefended, C5)"
        raw, net, full, value = self._numbers
        bits = [f"base {self.base}"]
        if self.equipment:
            bits.append(f"{self.equipment:+d} equipment (S5)")
        for m in self.situational:
            bits.append(f"{m.value:+d} {m.reason} ({m.rule})")
        if raw != net:
            bits.append(f"{net - raw:+d} situational clamp (S6)")
        if self.group:
            bits.append(f"{self.group:+d} group of {self.group_size} (S7)")
        if self.talent:
            bits.append(f"{self.talent:+d} talent (S3)")
        if self.matchup:
            bits.append(f"{self.matchup:+d} matchup (S8)")
        if self.losses:
            bits.append(f"{-self.losses:+d} major losses (L5)")
        for m in self.adjustments:
            bits.append(f"{m.value:+d} {m.reason} ({m.rule})")
        text = f"{self.skill} {value} = " + " ".join(bits)
        if self.halved:
            text += f", halved from {full}"
        for note in self.notes:
            text += f"; {note}"
        return text

    def to_dict(self) -> dict[str, object]:
        return {
            "skill": self.skill,
            "value": self.value,
            "base": self.base,
            "equipment": self.equipment,
            "situational": [{"value": m.value, "reason": m.reason, "rule": m.rule} for m in self.situational]
            if self.situational else [],
            "situational_net": self.situational_net,
            "group": self.group,
            "group_size": self.group_size,
            "talent": self.talent,
            "matchup": self.matchup,
            "losses": -self.losses,
            "adjustments": [{"value": m.value, "reason": m.reason, "rule": m.rule} for m in self.adjustments]
            if self.adjustments else [],
            "halved": self.halved,
            "undefended": self.fixed is not None,
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rating:  # (Any: an event's JSON-ready data)
        """The rating an event recorded (`to_dict`), parts and all: what a forecast reads back from the
        resolved turn's contest (its `value` is worked out again and equals the recorded one)."""
        def mods(key: str) -> tuple[Modifier, ...]:
            return tuple(Modifier(m["value"], m["reason"], m["rule"]) for m in d.get(key) or ())

        return cls(str(d["skill"]), base=d["base"], equipment=d["equipment"], situational=mods("situational"),
                   group=d["group"], group_size=d["group_size"], talent=d["talent"], matchup=d["matchup"],
                   losses=-d["losses"], adjustments=mods("adjustments"), halved=d["halved"],
                   fixed=d["value"] if d["undefended"] else None, notes=tuple(d["notes"]))


def talent_bonus(talent: int) -> int:
    """Rule S3: +1 for a talent of 1-4, +2 for 5-8, 0 without talent."""
    if talent <= 0:
        return 0
    return 1 if talent <= 4 else 2


def talent_part(rules: Rules, char: Character, use: str) -> tuple[int, str]:
    """S3: the talent bonus that applies to `char` using the half `use` (0 for a pair or where no talent
    applies), with the words that explain it."""
    src = rules.talent_source(use)
    if src is None or not char.talent(src.pair):
        return 0, ""
    return talent_bonus(char.talent(src.pair)), f"talent bonus from {src.pair} talent {char.talent(src.pair)} (S3)"


def standing(rules: Rules, char: Character, use: str, major: int = 0) -> int:
    """The effective rating of `char`'s `use` (a half or a pair) as it stands, outside any one skill use.

    Text line 15: a rule that names neither base nor effective rating means the effective one. So the
    lengths and thresholds a rating sets outside a contest (R1 range, M5 jump, M13 throw, E1 elusion,
    the AI's figures) read base (S2) + equipment in use (S5) + the talent bonus that applies (S3) - the
    major-loss penalty (L5, when the `major_loss_penalty` switch takes it from skills). Situational
    modifiers, group and matchup belong to one skill use against one foe, so they stay out [house R1]
    (the range penalty is itself situational: a range read through it would go round in a circle)."""
    half = rules.halves.get(use)
    pair, named = (half.pair, use) if half is not None else (use, "")
    penalty = major if rules.switch_str("major_loss_penalty") == "skills" else 0
    return max(0, char.base(pair) + char.equipment_bonus(pair, named)[0] + talent_part(rules, char, use)[0] - penalty)
