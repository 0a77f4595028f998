"""Encounter files (TOML) to core values, with a precise message for every mistake.

The accepted shape is the one in issue 2 / DESIGN.md ("Files people edit"). Every problem names
the file, the place (table, index, id, field) and what to do; all problems found are reported
together. Nothing is written.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from battlemat.core import uses
from battlemat.core.character import SCRIPT_CONDITIONS, Character, Equipment, ScriptStep
from battlemat.core.encounter import Encounter
from battlemat.core.errors import RulesError
from battlemat.core.intents import Intent
from battlemat.core.rating import Modifier
from battlemat.core.rules import Rules
from battlemat.io.errors import LoadError, Problem
from battlemat.io.limits import (
    MAX_ARENA_SQUARE,
    MAX_CELLS,
    MAX_CHARACTERS,
    MAX_ENCOUNTER_BYTES,
    MAX_RULES_LIST,
    MAX_RULES_NUMBER,
    MAX_SEED,
    MAX_TURNS,
)
from battlemat.io.names import AI_NAMES, ai_known, dice_problem, did_you_mean, shown, unknown_name
from battlemat.io.rules_file import load_rules
from battlemat.io.styles import side_styles as _side_styles
from battlemat.io.styles import style_of
from battlemat.io.userfile import read_user_data, why_unreadable

_ENCOUNTER_KEYS = {"title", "seed", "dice", "map"}
_CHAR_KEYS = {
    "id", "name", "side", "skills", "talents", "equipment", "kind", "fragile", "deadly", "observe_tn", "at", "ai",
    "script", "style", "minor", "major",
}
_INTENT_KEYS = {"who", "use", "target", "also", "modifiers", "to", "path", "share", "item", "throw"}


_KIND_WORDS = {str: "text", int: "a whole number", bool: "true or false", list: "a list", float: "a number"}


class _Reader:
    def __init__(self, file: str, rules: Rules) -> None:
        self.file = file
        self.rules = rules
        self.problems: list[Problem] = []
        # The largest coordinate a square may have: a map's side is at most MAX_CELLS squares; without a
        # map `play` builds an arena around the squares, so they stay within MAX_ARENA_SQUARE.
        self.max_square = MAX_CELLS

    def bad(self, place: str, message: str, fix: str = "") -> None:
        self.problems.append(Problem(self.file, place, message, fix))

    def table(self, obj: Any, place: str) -> Mapping[str, Any]:
        if not isinstance(obj, Mapping):
            self.bad(place, f"expected a table, found {shown(obj)}", "write it as [table] or { key = value }")
            return {}
        return obj

    def unknown(self, obj: Mapping[str, Any], allowed: set[str], place: str) -> None:
        for key in obj:
            if key not in allowed:
                self.bad(f"{place}.{key}", f"unknown field {key!r}", f"use one of: {', '.join(sorted(allowed))}")

    def typed(self, obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], place: str, default: Any) -> Any:
        if key not in obj:
            return default
        value = obj[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            ok = False
        else:
            ok = isinstance(value, kinds)
        if not ok:
            names = " or ".join(_KIND_WORDS.get(k, k.__name__) for k in kinds)
            self.bad(f"{place}.{key}", f"expected {names}, found {shown(value)}", f"write {key} as {names}")
            return default
        return value

    def entries(self, value: Any, place: str, allowed: set[str]) -> Iterator[tuple[str, Mapping[str, Any]]]:
        """(place, table) for each table of a list field, checking the list and each table's keys."""
        if not isinstance(value, list):
            self.bad(place, f"expected a list of tables, found {shown(value)}", "write it as [ { key = value }, ... ]")
            return
        for i, item in enumerate(value):
            where = f"{place}[{i}]"
            table = self.table(item, where)
            if table:
                self.unknown(table, allowed, where)
                yield where, table

    def square(self, value: Any, place: str) -> tuple[int, int] | None:
        if not (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            self.bad(place, f"a square is [x, y] with two whole numbers, found {shown(value)}", "write it like [2, 3]")
            return None
        top = self.max_square
        if not all(0 <= v <= top for v in value):
            if top == MAX_CELLS:
                self.bad(place, f"square {shown(value)} is off any map", "squares run from [0, 0] to the map's size")
            else:
                self.bad(place, f"square {shown(value)} is outside the arena of an encounter without a map",
                         f"use squares from [0, 0] to [{top}, {top}] (battlemat/io/limits.py), or add a map")
            return None
        return (value[0], value[1])

    def pair(self, name: Any, place: str) -> str | None:
        if not isinstance(name, str):
            self.bad(place, f"a skill name is text, found {shown(name)}", 'write it like "Melee/Press"')
            return None
        try:
            return self.rules.pair_of(name)
        except RulesError:
            pairs = ", ".join(self.rules.pairs)
            hint = did_you_mean(name, [*self.rules.pairs, *self.rules.halves])
            self.bad(place, f"unknown skill {shown(name)}", f"{hint}use a pair or either half of: {pairs}")
            return None

    def ratings(self, obj: Any, place: str, what: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for name, value in self.table(obj, place).items():
            where = f"{place}.{name!r}"
            pair = self.pair(name, where)
            if pair is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 8:
                self.bad(where, f"{what} must be a whole number 0..8 (S2), found {shown(value)}", "use 0 to 8")
                continue
            if pair in out:
                self.bad(where, f"{pair} is given twice (a pair and its half name the same rating)", "keep one")
            out[pair] = value
        return out


def load_encounter(path: str | Path, rules: Rules | None = None, with_map: bool = True) -> Encounter:
    """Read and check an encounter file, and its map unless `with_map` is False: the one reader of
    encounters (every command reads them here). The map is a Tiled file named in [encounter] or a board
    drawn inline in a [map] table (`io.inline_map`). Raises LoadError listing every problem found."""
    path = Path(path)
    file = str(path)
    if path.suffix.lower() not in (".toml", ".json"):  # a map passed for an encounter (`play MAP.dd2vtt`)
        from battlemat.io.maps import refuse_map  # noqa: PLC0415 - start-up time: the map reader only for a map's name

        refuse_map(path)
    data = read_encounter_data(path)
    enc = parse_encounter(data, file, base_dir=path.parent, rules=rules)
    if isinstance(data.get("map"), Mapping):  # a board drawn inline (as rule cases and lessons draw theirs)
        from battlemat.io.inline_map import attach_inline  # noqa: PLC0415 - start-up time: the map reader only for a map

        return attach_inline(enc, data["map"], file)
    if enc.map is not None and with_map:
        from battlemat.io.maps import attach_map  # noqa: PLC0415 - start-up time: the map reader (0.2 s) only for a map

        terrain = data.get("terrain")  # the game master's mapping of the map's terrain (io.tiled.mapping)
        enc = attach_map(enc, path.parent / enc.map, encounter_file=file,
                         terrain=None if terrain is None else (terrain, file))
    return enc


def read_encounter_data(path: Path) -> dict[str, Any]:
    """The TOML tables of an encounter file, read within the bounds of `io.limits`: at most
    MAX_ENCOUNTER_BYTES, nested at most MAX_DATA_NESTING deep. Raises LoadError."""
    return read_user_data(path, MAX_ENCOUNTER_BYTES, "encounter",
                          "an encounter needs a few KB: split it, or check that this is the right file", "toml")


def parse_encounter(
    data: Mapping[str, Any], file: str, base_dir: Path | None = None, rules: Rules | None = None
) -> Encounter:
    rules = rules or load_rules()
    r = _Reader(file, rules)
    for key in data:
        if key not in ("encounter", "rules", "character", "turn", "side", "terrain", "map"):
            r.bad(key, f"unknown table {key!r}",
                  "use [encounter], [rules], [map], [side.NAME], [[character]], [[turn]] and [terrain.*] "
                  "(a map's terrain)")
    if "map" in data and not isinstance(data["map"], Mapping):
        r.bad("map", "[map] is a table with rows of squares", 'write [map] with rows = ["....", ".#.."]')
    title, seed, dice, map_ref = _head(r, data, file, base_dir)
    inline = isinstance(data.get("map"), Mapping)
    if map_ref is not None and inline:
        r.bad("map", "the encounter has both a [map] table and a map file in [encounter]", "keep one")
    if map_ref is None and not inline:
        r.max_square = MAX_ARENA_SQUARE
    rules = _rules(r, data, rules)

    chars = _side_styles(r, data, _characters(r, data))
    too_many = isinstance(data.get("character"), list) and len(data["character"]) > MAX_CHARACTERS
    turns = [] if too_many else _turns(r, data, {c.id: c for c in chars})  # not one problem per intent

    if r.problems:
        raise LoadError(r.problems)
    return Encounter(
        title=title, rules=rules, characters=tuple(chars), seed=seed, dice=dice, map=map_ref, turns=tuple(turns)
    )


def _head(r: _Reader, data: Mapping[str, Any], file: str, base_dir: Path | None) -> tuple[str, int, str, str | None]:
    """The [encounter] table: title, seed, dice and map (checked to exist next to the file)."""
    head = r.table(data.get("encounter", {}), "encounter")
    if "encounter" not in data:
        r.bad("encounter", "missing the [encounter] table", 'add [encounter] with title = "..."')
    r.unknown(head, _ENCOUNTER_KEYS, "encounter")
    title = r.typed(head, "title", str, "encounter", Path(file).stem)
    seed = r.typed(head, "seed", int, "encounter", 0)
    if not -MAX_SEED <= seed <= MAX_SEED:
        r.bad("encounter.seed", f"the seed {shown(seed)} is not a 64-bit whole number", "use a seed of up to 18 digits")
        seed = 0
    dice = r.typed(head, "dice", str, "encounter", "none")
    problem = dice_problem(dice)
    if problem is not None:
        r.bad("encounter.dice", *problem)
    map_ref = r.typed(head, "map", str, "encounter", None)
    if map_ref is not None and base_dir is not None:
        why = why_unreadable(base_dir / map_ref) if map_ref.strip() else ("an empty path", "name a .tmx map")
        if why is not None and why[0] == "file not found":
            r.bad("encounter.map", f"map file {shown(map_ref)} not found next to the encounter",
                  "fix the path (relative to this file)")
        elif why is not None:
            r.bad("encounter.map", f"map file {shown(map_ref)}: {why[0]}", f"{why[1]} (relative to this file)")
    return title, seed, dice, map_ref


def _rules(r: _Reader, data: Mapping[str, Any], rules: Rules) -> Rules:
    """The rules with the encounter's [rules] overrides (house switches), each within its bounds."""
    overrides = r.table(data.get("rules", {}), "rules")
    for key, value in overrides.items():
        problem = _override_problem(rules, key, value)
        if problem is not None:
            r.bad(f"rules.{key}", *problem)
            return rules
    try:
        rules = rules.with_overrides(overrides)
        r.rules = rules
    except RulesError as exc:
        r.bad("rules", str(exc), "see `battlemat rules` for every key and its current value")
    return rules


def _override_problem(rules: Rules, key: str, value: Any) -> tuple[str, str] | None:
    """(message, fix) for a house-rule value out of bounds: a number no rule means, a list longer than
    any table, or a list of the wrong things (skill names that are no skill half). The rules check
    each key's kind and choices themselves."""
    fix = "see `battlemat rules` for every key and its current value"
    items = value if isinstance(value, list) else [value]
    if len(items) > MAX_RULES_LIST:
        return f"a list of {len(items)} values; the rules' lists hold at most {MAX_RULES_LIST}", fix
    for v in items:
        if isinstance(v, int | float) and not isinstance(v, bool) and not -MAX_RULES_NUMBER <= v <= MAX_RULES_NUMBER:
            return f"{shown(v)} is not a number the rules use (they stay within +-{MAX_RULES_NUMBER})", fix
    default = rules.switches[key].default if key in rules.switches else None
    if isinstance(default, list) and isinstance(value, list) and default:
        kind = type(default[0])
        wrong = next((v for v in value if isinstance(v, bool) or not isinstance(v, kind)), None)
        if wrong is not None:
            return f"{shown(wrong)} in a list of {_KIND_WORDS.get(kind, kind.__name__)}", fix
        if kind is str:
            unknown = next((v for v in value if v not in rules.halves), None)
            if unknown is not None:
                return (f"unknown skill half {shown(unknown)}",
                        f"{did_you_mean(unknown, rules.halves)}use halves such as Melee or Press")
    return None


def _characters(r: _Reader, data: Mapping[str, Any]) -> list[Character]:
    chars: list[Character] = []
    raw_chars = data.get("character", [])
    if not isinstance(raw_chars, list):
        r.bad("character", "characters are an array of tables", "write each one as [[character]]")
        raw_chars = []
    if len(raw_chars) > MAX_CHARACTERS:
        r.bad("character", f"{len(raw_chars)} characters; battlemat plays at most {MAX_CHARACTERS} "
              "(the AI's work per turn grows with the square of the count)",
              "split the encounter, or make a group one character (battlemat/io/limits.py has the figures)")
        return chars
    if not raw_chars:
        r.bad("character", "no characters", "add at least one [[character]] with id and side")
    seen: set[str] = set()
    names: dict[str, str] = {}  # display name, folded -> the place of the character that has it
    for i, rc in enumerate(raw_chars):
        c = _character(r, rc, f"character[{i}]", seen)
        if c is not None:
            chars.append(c)
            _display_name(r, c, f"character[{i}] {c.id!r}", names)
    return chars


def _display_name(r: _Reader, c: Character, place: str, names: dict[str, str]) -> None:
    """A display name is not empty and no other character has it: logs and the window name
    characters by it, and two alike (or none) make a log unreadable."""
    name = c.name.strip()
    if not name:
        r.bad(f"{place}.name", "the display name is empty",
              f'write a name (e.g. name = "{c.id}") or leave the field out to use the id')
        return
    key = name.casefold()
    if key in names:
        r.bad(f"{place}.name", f"display name {c.name!r} is already used by {names[key]}",
              "give each character a name of its own (logs tell characters apart by name)")
        return
    names[key] = place


def _turns(r: _Reader, data: Mapping[str, Any], by_id: Mapping[str, Character]) -> list[tuple[Intent, ...]]:
    raw_turns = data.get("turn", [])
    if not isinstance(raw_turns, list):
        r.bad("turn", "turns are an array of tables", "write each one as [[turn]] with [[turn.intent]] entries")
        raw_turns = []
    if len(raw_turns) > MAX_TURNS:
        r.bad("turn", f"{len(raw_turns)} scripted turns; battlemat plays at most {MAX_TURNS}",
              "keep the turns that matter, or split the encounter")
        return []
    return [_turn(r, rt, f"turn[{ti}]", by_id) for ti, rt in enumerate(raw_turns)]


def _turn(r: _Reader, rt: Any, place: str, by_id: Mapping[str, Character]) -> tuple[Intent, ...]:
    """One [[turn]]: its intents, at most one for each character (P1)."""
    tt = r.table(rt, place)
    r.unknown(tt, {"intent"}, place)
    intents: list[Intent] = []
    who_seen: set[str] = set()
    raw_intents = tt.get("intent", [])
    if not isinstance(raw_intents, list):
        r.bad(f"{place}.intent", "intents are an array of tables", "write each one as [[turn.intent]]")
        raw_intents = []
    for ii, ri in enumerate(raw_intents):
        it = _intent(r, ri, f"{place}.intent[{ii}]", by_id)
        if it is None:
            continue
        if it.who in who_seen:
            r.bad(f"{place}.intent[{ii}].who", f"{it.who!r} already has an intent this turn (P1)",
                  "give each character at most one intent per turn")
        who_seen.add(it.who)
        intents.append(it)
    return tuple(intents)


def _character(r: _Reader, rc: Any, place: str, seen: set[str]) -> Character | None:
    t = r.table(rc, place)
    if not t:
        return None
    cid = _character_id(r, t, place, seen)
    if cid is None:
        return None
    place = f"{place} {cid!r}"
    r.unknown(t, _CHAR_KEYS, place)
    side = r.typed(t, "side", str, place, "")
    if not side:
        r.bad(f"{place}.side", "every character needs a side", 'add side = "heroes" (any name)')
    skills = r.ratings(t.get("skills", {}), f"{place}.skills", "a rating")
    talents = _talents(r, t, place, skills)
    equipment = _equipment(r, t, place)
    tns = _observe_tns(r, t, place)
    at = r.square(t["at"], f"{place}.at") if "at" in t else None
    ai = r.typed(t, "ai", str, place, "")
    if ai and not ai_known(ai):
        r.bad(f"{place}.ai", *unknown_name("tactics", ai, AI_NAMES))
    script = _script(r, t, place)
    style = style_of(r, t.get("style"), f"{place}.style") if "style" in t else {}
    minor, major = _start_losses(r, t, place, talents)
    return Character(
        id=cid,
        name=r.typed(t, "name", str, place, cid),
        side=side,
        skills=skills,
        talents=talents,
        equipment=tuple(equipment),
        kind=r.typed(t, "kind", str, place, ""),
        fragile=r.typed(t, "fragile", bool, place, False),
        deadly=r.typed(t, "deadly", bool, place, False),
        observe_tn=tns,
        at=at,
        ai=ai,
        script=tuple(script),
        style=style,
        start_minor=minor,
        start_major=major,
    )


def _start_losses(r: _Reader, t: Mapping[str, Any], place: str, talents: Mapping[str, int]) -> tuple[int, int]:
    """Losses already taken as the encounter starts (L1: at most 2 minor; fewer major than defeat, L3)."""
    minor, major = r.typed(t, "minor", int, place, 0), r.typed(t, "major", int, place, 0)
    if not 0 <= minor <= 2:
        r.bad(f"{place}.minor", f"minor losses run 0..2 (L1), found {minor}", "use 0, 1 or 2")
        minor = 0
    limit = 2 + talents.get(r.rules.talent_pair("toughness"), 0)  # L3
    if not 0 <= major < limit:
        r.bad(f"{place}.major", f"{major} major losses: it would start defeated or below zero (L3: defeat at {limit})",
              f"use 0..{limit - 1}")
        major = 0
    return minor, major


def _character_id(r: _Reader, t: Mapping[str, Any], place: str, seen: set[str]) -> str | None:
    """A character's id, text and unique in the encounter (added to `seen`); None when it is not."""
    cid = t.get("id")
    if not isinstance(cid, str) or not cid.strip():
        r.bad(f"{place}.id", "every character needs an id (text)", 'add id = "kwirt"')
        return None
    if cid in seen:
        r.bad(f"{place} {cid!r}.id", f"duplicate id {cid!r}", "give every character its own id")
        return None
    seen.add(cid)
    return cid


def _talents(r: _Reader, t: Mapping[str, Any], place: str, skills: Mapping[str, int]) -> dict[str, int]:
    """Talent ratings, none above its pair's base rating (S3; text line 162 names the base rating)."""
    talents = r.ratings(t.get("talents", {}), f"{place}.talents", "a talent")
    for pair, value in talents.items():
        if value > skills.get(pair, 0):
            r.bad(f"{place}.talents.{pair!r}", f"talent {value} is above the base rating {skills.get(pair, 0)} (S3)",
                  f"lower the talent or raise {pair} in skills")
    return talents


def _equipment(r: _Reader, t: Mapping[str, Any], place: str) -> list[Equipment]:
    """Equipment with a bonus of 1 or 2, given as a number or as a quality (S5)."""
    equipment: list[Equipment] = []
    for where, e in r.entries(t.get("equipment", []), f"{place}.equipment", {"name", "skill", "bonus", "quality"}):
        eq_pair = r.pair(e.get("skill"), f"{where}.skill")  # S5: named for a half or for the whole pair
        named = r.rules.canonical(e["skill"]) if eq_pair else ""
        bonus = e.get("bonus")
        quality = e.get("quality")
        if bonus is None and quality is not None:
            key = f"equipment_{quality}" if isinstance(quality, str) else ""
            if key not in r.rules.switches:
                r.bad(f"{where}.quality", f"unknown quality {shown(quality)}", "use excellent or enchanted (S5)")
                continue
            bonus = r.rules.switch_int(key)
        if isinstance(bonus, bool) or bonus not in (1, 2):
            r.bad(f"{where}.bonus", f"an equipment bonus is 1 or 2 (S5), found {shown(bonus)}", "use bonus = 1 or 2")
            continue
        if eq_pair:
            equipment.append(Equipment(r.typed(e, "name", str, where, "item"), eq_pair, int(bonus),
                                       str(quality) if e.get("bonus") is None and quality is not None else "",
                                       named if named != eq_pair else ""))
    return equipment


def _observe_tns(r: _Reader, t: Mapping[str, Any], place: str) -> dict[str, int]:
    """Target numbers others must reach to observe the character, by skill half."""
    tns: dict[str, int] = {}
    for name, value in r.table(t.get("observe_tn", {}), f"{place}.observe_tn").items():
        try:
            half = r.rules.half(name).name
        except RulesError:
            r.bad(f"{place}.observe_tn.{name!r}", f"unknown skill half {shown(name)}",
                  "use Perception, Identify, Lore or Intuition")
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_RULES_NUMBER:
            r.bad(f"{place}.observe_tn.{name!r}",
                  f"a target number is a whole number 0..{MAX_RULES_NUMBER}, found {shown(value)}",
                  "ratings run 0..8: use a number like 4")
            continue
        tns[half] = value
    return tns


def _script(r: _Reader, t: Mapping[str, Any], place: str) -> list[ScriptStep]:
    """The steps a scripted character follows: a skill half, until a condition or for some turns."""
    script: list[ScriptStep] = []
    for where, st in r.entries(t.get("script", []), f"{place}.script", {"use", "until", "turns", "target"}):
        try:
            use = r.rules.half(r.typed(st, "use", str, where, "")).name
        except RulesError as exc:
            r.bad(f"{where}.use", str(exc), 'name a skill half, e.g. use = "Melee"')
            continue
        until = r.typed(st, "until", str, where, "")
        if until not in SCRIPT_CONDITIONS:
            r.bad(f"{where}.until", f"unknown condition {until!r}", f"use one of: {', '.join(SCRIPT_CONDITIONS[1:])}")
        turns = r.typed(st, "turns", int, where, 0)
        script.append(ScriptStep(use, until, max(0, turns), r.typed(st, "target", str, where, "")))
    return script


def _intent(r: _Reader, ri: Any, place: str, by_id: Mapping[str, Character]) -> Intent | None:
    t = r.table(ri, place)
    if not t:
        return None
    r.unknown(t, _INTENT_KEYS, place)
    who = t.get("who")
    if not isinstance(who, str) or who not in by_id:
        known = ", ".join(by_id) or "none"
        r.bad(f"{place}.who", f"unknown character {shown(who)}", f"use a character id: {known}")
        return None
    use = _intent_use(r, t, place)
    if use is None:
        return None
    target, also = _intent_targets(r, t, place, by_id)
    if target is not None and not uses.takes_target(r.rules, use):
        half = r.rules.halves[use]
        r.bad(f"{place}.target", f"{use} takes no target: it acts on nobody in its phase ({half.phase})",
              "remove target, or use a half that acts on someone")
    mods = _modifiers(r, t, place)
    to = r.square(t["to"], f"{place}.to") if "to" in t else None
    path = _path(r, t, place)
    throw = r.square(t["throw"], f"{place}.throw") if "throw" in t else None
    item = r.typed(t, "item", str, place, "simple")
    if item not in r.rules.item_move:
        r.bad(f"{place}.item", f"unknown item kind {item!r} (M1)", f"use one of: {', '.join(r.rules.item_move)}")
    return Intent(
        who=who,
        use=use,
        target=target,
        also=tuple(a for a in also if isinstance(a, str)),
        modifiers=tuple(mods),
        to=to,
        path=tuple(path),
        share=r.typed(t, "share", bool, place, False),
        item=item,
        throw=throw,
    )


def _intent_use(r: _Reader, t: Mapping[str, Any], place: str) -> str | None:
    """The skill half an intent uses, or "item"; None (reported) when it names neither."""
    use_raw = t.get("use")
    if not isinstance(use_raw, str):
        r.bad(f"{place}.use", "every intent needs use = a skill half or \"item\"", 'add use = "Melee"')
        return None
    if use_raw.strip().lower() == "item":
        return "item"
    try:
        return r.rules.half(use_raw).name
    except RulesError as exc:
        r.bad(f"{place}.use", str(exc), f"{did_you_mean(use_raw, r.rules.halves)}name one half, e.g. Melee or Press, "
              "or \"item\"")
        return None


def _intent_targets(
    r: _Reader, t: Mapping[str, Any], place: str, by_id: Mapping[str, Character]
) -> tuple[str | None, list[Any]]:
    """The intent's target and its secondary targets (`also`, as written), each checked to be a character."""
    targets: list[str] = []
    target = r.typed(t, "target", str, place, None)
    if target is not None:
        targets.append(target)
    also = r.typed(t, "also", list, place, [])
    for a in also:
        if not isinstance(a, str):
            r.bad(f"{place}.also", f"secondary targets are character ids, found {shown(a)}",
                  'write them like also = ["kwirt"]')
    targets += [a for a in also if isinstance(a, str)]
    for tg in targets:
        if tg not in by_id:
            r.bad(f"{place}.target", f"target {tg!r} is not a character in this encounter",
                  f"use one of: {', '.join(by_id)}")
    return target, also


def _modifiers(r: _Reader, t: Mapping[str, Any], place: str) -> list[Modifier]:
    """Situational modifiers of -2, -1, +1 or +2 with their reasons (S6)."""
    mods: list[Modifier] = []
    for where, mt in r.entries(t.get("modifiers", []), f"{place}.modifiers", {"value", "reason"}):
        v = mt.get("value")
        if isinstance(v, bool) or v not in (-2, -1, 1, 2):
            r.bad(f"{where}.value", f"a situational modifier is -2, -1, +1 or +2 (S6), found {shown(v)}",
                  "use +-1 or +-2")
            continue
        mods.append(Modifier(int(v), r.typed(mt, "reason", str, where, "GM ruling")))
    return mods


def _path(r: _Reader, t: Mapping[str, Any], place: str) -> list[tuple[int, int]]:
    """The squares of an intent's `path`, each [x, y]."""
    path: list[tuple[int, int]] = []
    for pi, p in enumerate(r.typed(t, "path", list, place, [])):
        sq = r.square(p, f"{place}.path[{pi}]")
        if sq is not None:
            path.append(sq)
    return path


def parse_intents(raw: Any, file: str, place: str, enc: Encounter) -> tuple[list[Intent], list[Problem]]:
    """A list of intent tables written as in a [[turn]] (`who`, `use`, `target`, `to`...), read the way
    an encounter's scripted turns are, for files that script turns of their own (lessons)."""
    r = _Reader(file, enc.rules)
    r.max_square = MAX_CELLS if enc.map is not None or enc.board is not None else MAX_ARENA_SQUARE
    if not isinstance(raw, list):
        r.bad(place, f"expected a list of intents, found {shown(raw)}",
              'write it like [ { who = "ogre", use = "Melee" } ]')
        return [], r.problems
    intents = [it for i, t in enumerate(raw) if (it := _intent(r, t, f"{place}[{i}]", enc.by_id)) is not None]
    return intents, r.problems
