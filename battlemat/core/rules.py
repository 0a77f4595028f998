"""The rules table as a value: skills, allowances, phases, defenses, matchups, switches.

Built from the parsed rules data (battlemat/data/rules.toml, read by `battlemat.io.rules_file`);
this module never touches files. An encounter's [rules] table overrides house switches through
`Rules.with_overrides`, which type-checks every value against the default.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from battlemat.core.errors import RulesError

if TYPE_CHECKING:  # names for mypy only
    # A house switch's value as the rules data gives it (TOML): read it typed with Rules.switch_bool and its kin.
    SwitchValue = bool | int | float | str | list[int] | list[str]

PHASES: tuple[str, ...] = ("P1", "P2", "P3", "P4")  # rule P: the fixed order of a turn
_T = TypeVar("_T")


@dataclass(frozen=True)
class Half:
    """One usable half of a skill pair ("Press" of "Melee/Press"), with its rules numbers."""

    name: str
    pair: str
    move: int  # M1
    move_tag: str
    phase: str  # P1..P4
    act: str  # attack | defend | flee | observe | advance | hide | item | none
    defense: str  # C5: full_vs_chosen | full | half | undefended
    sub_phase: int = 3  # P2: 1 Exit, 2 Acrobatics/Climb, 3 everyone else (M9)
    phase_order: int = 2  # P3: 1 Wonder intimidation, 2 Shoot/Throw, 3 other ranged
    reach: bool = False
    ranged: bool = False
    sticky: bool = False  # M6: an adjacent opponent cannot move away
    unstuck: bool = False  # M6: may move away from a sticky opponent anyway (Block, Dodge, Escape)
    breaks_grip: bool = False  # C8: may break a Wrestle grip and move (Escape)
    charges: bool = False  # M7: moves in as straight a line as possible toward its target (Press)
    holds_ground: bool = False  # M8: may not move toward its target (Provoke)
    jumps: bool = False  # M5: may jump over pits and difficult squares (Acrobatics)
    climbs: bool = False  # M12: may step one level up or down, which ends the move (Climb)
    sweeps: bool = False  # C7: its talent strikes extra adjacent foes (Melee)
    moving_allowance: int = 0  # M1: squares it may move instead of none, at -1 to the skill (Shoot)
    range_per_rating: int = 0  # R1: unpenalized range, squares per rating point (Shoot, Throw)
    point_blank_per_talent: int = 0  # R3: squares per talent point with no penalty at all
    opposed_by: str = ""  # O5: Wonder intimidation is contested by the target's Wonder
    untargeted: str = ""  # O5: Wonder without a target is an intimidating advance
    untargeted_phase: str = ""  # O5: ... which moves, so it happens in P2
    passive_halved: bool = False  # O2: halved when not actively searching (Perception)
    mechanical_talent: str = ""  # O2: this skill's talent adds, unhalved, against mechanical traps (Machinery)
    engaged_forbids: bool = False  # R2: impossible next to an aggressive opponent (Shoot)
    grips: bool = False  # M13: a success grabs its target; a foe it holds may be thrown (Wrestle)
    searches: bool = False  # O4: needs no target; it is what finds hiders (Perception)
    studies_kind: bool = False  # O1: a success also teaches every foe of the target's kind (Identify, Lore)
    reads_intentions: bool = False  # O3: a success gives +2 against the target next turn (Intuition)
    stops_flight: bool = False  # C5 (text line 75): with a target, it stops that enemy's own flight (Exit)
    may_target: bool = False  # a half that does nothing to anyone in its phase may still name someone (racial magic)

    def phase_of(self, target: str | None) -> str:
        """The phase this half acts in, with or without a target (O5: Wonder's advance is a P2 move)."""
        return self.untargeted_phase if target is None and self.untargeted_phase else self.phase


@dataclass(frozen=True)
class Switch:
    key: str
    rule: str
    value: SwitchValue
    doc: str
    default: SwitchValue
    options: tuple[SwitchValue, ...] | str = ()  # the values it may take, or words for an open range
    gap: str = ""  # the gap in the rules text its default fills (docs/RULINGS.md)
    text_sizes: tuple[int, ...] = ()  # group_table: the sizes whose value the text itself states
    default_is_text: bool = False  # its default is the text's own value: house only when changed

    def house(self, size: int | None = None) -> bool:
        """Whether this switch, as set, is a house choice (for a group of `size` when the text fixes
        some sizes): always, unless its default is the text's own value and it is unchanged."""
        if self.value != self.default:
            return True
        if self.default_is_text:
            return False
        if self.text_sizes and size is not None:
            return min(size, max(self.text_sizes)) not in self.text_sizes
        return True


@dataclass(frozen=True)
class RuleEntry:
    id: str
    tag: str  # core | house
    title: str
    text: str
    values: tuple[str, ...] = ()
    house: str = ""  # a core rule's house part, in our words (the whole rule when tag is house)
    gap: str = ""  # the gap in the rules text that the house part fills


@dataclass(frozen=True)
class Matchup:
    skill: str
    against: str
    bonus: int
    tag: str
    switch: str


@dataclass(frozen=True)
class TalentBonus:
    skill: str  # the half that gains the bonus
    pair: str  # whose talent gives it
    tag: str
    why: str
    switch: str = ""  # a house switch that must be on for the bonus to apply
    fleeing_only: bool = False  # S3: the bonus helps only while the half flees (Acrobatics talent: "attempts to flee")


@dataclass(frozen=True)
class Rules:
    """Everything numeric about the rules, read-only. Look-ups are case-insensitive."""

    groups: Mapping[str, tuple[str, ...]]
    halves: Mapping[str, Half]
    entries: Mapping[str, RuleEntry]
    switches: Mapping[str, Switch]
    matchups: tuple[Matchup, ...]
    talent_bonuses: Mapping[str, TalentBonus]
    item_move: Mapping[str, int]
    talent_effects: Mapping[str, str]  # effect -> the pair whose talent has it (L3, M2, C5, C6, R6)
    _by_lower: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), repr=False)
    # (skill, against) -> S8 bonus with the switches as set: looked up for every rating of a contest
    _matchup_bonus: Mapping[tuple[str, str], int] = field(init=False, repr=False, compare=False)
    # the switches' values by kind, checked and converted once (switch_bool and its kin read them)
    _typed: TypedSwitches = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        bonus: dict[tuple[str, str], int] = {}
        for m in self.matchups:
            if not m.switch or self.switches[m.switch].value:
                bonus[m.skill, m.against] = bonus.get((m.skill, m.against), 0) + m.bonus
        object.__setattr__(self, "_matchup_bonus", MappingProxyType(bonus))
        object.__setattr__(self, "_typed", _typed_switches(self.switches))

    # -- construction --------------------------------------------------------------------------
    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Rules:  # (Any: parsed TOML, checked by battlemat.io.rules_file)
        groups = {g: tuple(pairs) for g, pairs in data["groups"].items()}
        pair_of_half: dict[str, str] = {}
        for pairs in groups.values():
            for pair in pairs:
                for half in pair.split("/"):
                    pair_of_half[half] = pair
        pair_of_half["item"] = "item"
        halves: dict[str, Half] = {}
        for name, h in data["half"].items():
            halves[name] = Half(name=name, pair=pair_of_half[name], **h)
        entries = {
            rid: RuleEntry(rid, e["tag"], e["title"], e["text"], tuple(e.get("values", ())), e.get("house", ""),
                           e.get("gap", ""))
            for rid, e in data["rule"].items()
        }
        switches = {
            k: Switch(k, s["rule"], s["value"], s["doc"], s["value"],
                      tuple(s["options"]) if isinstance(s.get("options"), list) else s.get("options", ()),
                      s.get("gap", ""), tuple(s.get("text_sizes", ())), bool(s.get("default_is_text", False)))
            for k, s in data["switch"].items()
        }
        matchups = tuple(Matchup(**m) for m in data.get("matchup", ()))
        talents = {k: TalentBonus(k, v["pair"], v["tag"], v["why"], v.get("switch", ""), bool(v.get("fleeing_only")))
                   for k, v in data["talent_bonus"].items()}
        lower: dict[str, str] = {}
        for pairs in groups.values():
            for pair in pairs:
                lower[pair.lower()] = pair
        for half in halves:
            lower.setdefault(half.lower(), half)
        return Rules(
            MappingProxyType(groups),
            MappingProxyType(halves),
            MappingProxyType(entries),
            MappingProxyType(switches),
            matchups,
            MappingProxyType(talents),
            MappingProxyType(dict(data["item_move"])),
            MappingProxyType(dict(data["talent_effect"])),
            MappingProxyType(lower),
        )

    def with_overrides(self, overrides: Mapping[str, Any]) -> Rules:  # (Any: TOML values, checked here)
        """A copy with house switches changed. Raises RulesError naming the bad key and the fix."""
        if not overrides:
            return self
        new = dict(self.switches)
        for key, value in overrides.items():
            if key not in new:
                known = ", ".join(sorted(new))
                raise RulesError(f"unknown rules key {key!r}; known keys: {known}")
            old = new[key]
            if not _same_kind(old.default, value):
                raise RulesError(
                    f"rules key {key!r} needs a {type(old.default).__name__} like {old.default!r}, "
                    f"got {value!r}"
                )
            new[key] = dataclasses.replace(old, value=value)
        _check_switch_values(new)
        return Rules(
            self.groups,
            self.halves,
            self.entries,
            MappingProxyType(new),
            self.matchups,
            self.talent_bonuses,
            self.item_move,
            self.talent_effects,
            self._by_lower,
        )

    # -- look-ups ------------------------------------------------------------------------------
    @property
    def pairs(self) -> tuple[str, ...]:
        return tuple(p for pairs in self.groups.values() for p in pairs)

    def switch(self, key: str) -> SwitchValue:
        """A switch's value as the data gives it, for display (`rules ID`, an event's house record); the
        rules read it typed: switch_bool, switch_int, switch_float, switch_str, switch_ints, switch_strs."""
        return self.switches[key].value

    def switch_bool(self, key: str) -> bool:
        return _typed(self._typed.bools, key, "true or false")

    def switch_int(self, key: str) -> int:
        return _typed(self._typed.ints, key, "a whole number")

    def switch_float(self, key: str) -> float:
        """A number (a whole number in the data reads as the same float)."""
        return _typed(self._typed.floats, key, "a number")

    def switch_str(self, key: str) -> str:
        return _typed(self._typed.strs, key, "a word")

    def switch_ints(self, key: str) -> tuple[int, ...]:
        return _typed(self._typed.int_lists, key, "a list of whole numbers")

    def switch_strs(self, key: str) -> tuple[str, ...]:
        return _typed(self._typed.str_lists, key, "a list of words")

    def canonical(self, name: str) -> str:
        """The exact spelling of a pair or half, from any case. Raises RulesError if unknown."""
        try:
            return self._by_lower[name.strip().lower()]
        except KeyError:
            raise RulesError(f"unknown skill {name!r}") from None

    def pair_of(self, name: str) -> str:
        """'press' -> 'Melee/Press'; 'Melee/Press' -> 'Melee/Press'."""
        canon = self.canonical(name)
        return self.halves[canon].pair if canon in self.halves else canon

    def half(self, name: str) -> Half:
        canon = self.canonical(name)
        if canon not in self.halves:
            halves = " or ".join(canon.split("/"))
            raise RulesError(f"{canon!r} is a skill pair; a character uses one half: {halves}")
        return self.halves[canon]

    def is_technology(self, pair: str) -> bool:
        return pair in self.groups.get("Technology", ())

    def group_bonus(self, size: int) -> int:
        """Rule S7: bonus for a group of `size` counted members."""
        table = self.switch_ints("group_table")
        if size <= 0:
            return 0
        return table[min(size, len(table) - 1)]

    def matchup(self, skill: str, against: str) -> int:
        """Rule S8: the bonus `skill` gains when opposed by `against` (switches respected)."""
        return self._matchup_bonus.get((skill, against), 0)

    def talent_pair(self, effect: str) -> str:
        """The pair whose talent has `effect` (the rules data's `talent_effect`): 'toughness' (L3),
        'nimbleness' (M2), 'evasion' (C5, C6), 'missile_dodge' (R6)."""
        return self.talent_effects[effect]

    def talent_source(self, skill: str) -> TalentBonus | None:
        """Rule S3: which pair's talent gives `skill` a talent bonus, if any applies in combat."""
        tb = self.talent_bonuses.get(skill)
        if tb is None:
            return None
        if tb.switch and not self.switch_bool(tb.switch):
            return None
        return tb

    def allowance(self, half: str, item: str = "simple") -> int:
        """Rule M1: squares of movement for a skill use (before M2 and M3)."""
        if half == "item":
            return int(self.item_move[item])
        return self.halves[half].move

    def house_rule(self, ref: str, size: int | None = None) -> dict[str, object] | None:
        """The house choice behind `ref` as the rules data tags it, for an event's record; None when
        what `ref` names is core. `ref` is `switch.KEY` (a switch as set; `size`: of a group, S7),
        a rule ID (a house-tagged rule, or a core rule's house part), `matchup.SKILL.AGAINST` (S8),
        `talent.SKILL` (S3) or `move.HALF` (M1)."""
        kind, _, rest = ref.partition(".")
        if kind == "switch":
            sw = self.switches[rest]
            return {"rule": sw.rule, "switch": sw.key, "value": sw.value} if sw.house(size) else None
        if kind == "matchup":
            skill, _, against = rest.partition(".")
            for m in self.matchups:
                if m.skill == skill and m.against == against and m.tag == "house":
                    return ({"rule": "S8", "switch": m.switch, "value": self.switch(m.switch)} if m.switch
                            else {"rule": "S8", "data": f"matchup.{skill}.{against}", "value": m.bonus})
            return None
        if kind == "talent":
            tb = self.talent_bonuses.get(rest)
            return {"rule": "S3", "data": f"talent_bonus.{rest}"} if tb is not None and tb.tag == "house" else None
        if kind == "move":
            h = self.halves.get(rest)
            return {"rule": "M1", "data": f"half.{rest}.move", "value": h.move} if h and h.move_tag == "house" else None
        e = self.entries.get(ref)
        return {"rule": ref} if e is not None and (e.tag == "house" or e.house) else None

    def value_of(self, rule_id: str) -> list[tuple[str, object]]:
        """The current values behind a rule ID, as (label, value) pairs for `battlemat rules ID`."""
        entry = self.entries[rule_id]
        out: list[tuple[str, object]] = []
        for ref in entry.values:
            if ref.startswith("switch."):
                sw = self.switches[ref[len("switch.") :]]
                out.append((f"{sw.key} [house]", sw.value))
            elif ref.startswith("half.*."):
                attr = ref.split(".")[-1]
                for h in self.halves.values():
                    label = f"{h.name}"
                    if attr == "move":
                        label += f" [{h.move_tag}]"
                    out.append((label, getattr(h, attr)))
            elif ref == "groups":
                out.extend((g, ", ".join(p)) for g, p in self.groups.items())
            elif ref == "talent_bonus":
                out.extend(
                    (f"{tb.skill} [{tb.tag}]", f"+talent bonus from {tb.pair} talent: {tb.why}")
                    for tb in self.talent_bonuses.values()
                )
            elif ref == "matchup":
                out.extend(
                    (
                        f"{m.skill} vs {m.against} [{m.tag}]",
                        f"+{m.bonus}" + ("" if not m.switch else f" (on: {self.switch(m.switch)})"),
                    )
                    for m in self.matchups
                )
            elif ref == "item_move":
                out.extend((f"item ({k})", v) for k, v in self.item_move.items())
        return out


class TypedSwitches(NamedTuple):
    """Every switch's value in the table of its kind (the kind of its default in the rules data)."""

    bools: Mapping[str, bool]
    ints: Mapping[str, int]
    floats: Mapping[str, float]
    strs: Mapping[str, str]
    int_lists: Mapping[str, tuple[int, ...]]
    str_lists: Mapping[str, tuple[str, ...]]


def _typed_switches(switches: Mapping[str, Switch]) -> TypedSwitches:
    """The switches by kind, each value checked against its default's kind (with_overrides has checked
    the kind of a scalar; here the items of a list) and converted: a whole number where the default is
    a float reads as a float. Raises RulesError naming a list with an item of the wrong kind."""
    bools: dict[str, bool] = {}
    ints: dict[str, int] = {}
    floats: dict[str, float] = {}
    strs: dict[str, str] = {}
    int_lists: dict[str, tuple[int, ...]] = {}
    str_lists: dict[str, tuple[str, ...]] = {}
    for key, sw in switches.items():
        v = sw.value
        if isinstance(v, bool):
            bools[key] = v
        elif isinstance(v, int | float) and isinstance(sw.default, float):
            floats[key] = float(v)
        elif isinstance(v, int):
            ints[key] = v
        elif isinstance(v, float):
            floats[key] = v
        elif isinstance(v, str):
            strs[key] = v
        elif isinstance(sw.default, list) and sw.default and all(isinstance(d, str) for d in sw.default):
            words = tuple(x for x in v if isinstance(x, str))
            if len(words) != len(v):
                raise RulesError(f"rules key {key!r} must be a list of words like {sw.default!r}; got {v!r}")
            str_lists[key] = words
        else:
            numbers = tuple(x for x in v if isinstance(x, int) and not isinstance(x, bool))
            if len(numbers) != len(v):
                raise RulesError(f"rules key {key!r} must be a list of whole numbers like {sw.default!r}; got {v!r}")
            int_lists[key] = numbers
    return TypedSwitches(MappingProxyType(bools), MappingProxyType(ints), MappingProxyType(floats),
                         MappingProxyType(strs), MappingProxyType(int_lists), MappingProxyType(str_lists))


def _typed(table: Mapping[str, _T], key: str, kind: str) -> _T:
    """A switch's value from the table of its kind; RulesError if it has another kind or no such switch."""
    try:
        return table[key]
    except KeyError:
        raise RulesError(f"rules key {key!r} is not {kind}, or no such key") from None


def _same_kind(default: object, value: object) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    return isinstance(value, type(default))


def _check_switch_values(switches: Mapping[str, Switch]) -> None:
    """A text switch takes one of the options the rules data lists for it."""
    for key, sw in switches.items():
        if isinstance(sw.value, str) and isinstance(sw.options, tuple) and sw.options and sw.value not in sw.options:
            raise RulesError(f"rules key {key!r} must be one of {', '.join(map(str, sw.options))}; got {sw.value!r}")
    table = switches["group_table"].value
    if not isinstance(table, list) or not table or not all(isinstance(v, int) and v >= 0 for v in table):
        raise RulesError("rules key 'group_table' must be a list of non-negative whole numbers")
