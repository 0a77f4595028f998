"""Rule cases as data (issue 16 item 12), read from and written to TOML.

A case is a small encounter in the encounter format (`io.encounter` reads it), a start state, the
intents of one or more turns and what each turn should lead to, as Diplomacy adjudicator test
cases (DATC) pin down a rulebook. Only what a case states is checked, so a case keeps passing
through changes that do not touch what it is about. The tables a case adds to an encounter:

- `[case]`: `about` (one line: what the case shows, citing the rule) and optionally `xfail` (why
  today's engine disagrees: the runner expects the case to fail until that is fixed).
- `[map]` (optional, instead of the encounter's `map`): a small board written as text rows, one
  character a square (`io.inline_map.LEGEND`, extended by `legend`), with `grid = "hex"` and its stagger.
- `[start]`: `turn` (the number of the first turn played, for next-turn advantages) and, by
  character id, what differs from a fresh encounter: `minor`, `major`, `defeated`, `fled`,
  `held_by` with `hold`, `deadly_losses`, `suffered` (every loss taken in the combat so far, healed
  or not: O5, L4; left out, the losses it starts with), `advantages`.
- `[sheet]`: facts of the character sheets, before any turn: by character id `ratings` (a half or
  a pair and its base rating, S1), `experience` and `new_pc` (S4), `allowance` (a half and the
  squares it lets the character move, M1-M3); `rules` lists the IDs these checks exercise.
- `[turn.expect]` in each `[[turn]]`: `rules` (IDs the turn's events must cite), `not_rules`,
  `refused` (the turn's intents are illegal: `{ who, rule }`), `over` and `winner`, `events`
  (tables each matching part of one event), and by character id its state after the turn: `at`,
  `minor`, `major`, `losses`, `defeated`, `fled`, `held_by` ("" for nobody), `advantages`.
Every mistake is reported with the file, the place and the fix (`LoadError`), as for encounters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from battlemat.core.board import Board
from battlemat.core.encounter import Encounter
from battlemat.core.errors import RulesError
from battlemat.core.intents import Intent
from battlemat.core.state import Advantage, CharacterState, MatchState
from battlemat.core.types import CharId
from battlemat.io.encounter import parse_encounter
from battlemat.io.errors import LoadError
from battlemat.io.inline_map import ProblemReader, read_board
from battlemat.io.limits import MAX_ENCOUNTER_BYTES
from battlemat.io.maps import attach_map, place_characters, placement_problems
from battlemat.io.rules_file import load_rules
from battlemat.io.toml_write import relative_path, toml_key, toml_value
from battlemat.io.userfile import read_user_data

CASE_TABLES = ("case", "map", "start", "sheet")  # the tables a case adds to the encounter format
CHAR_FIELDS = ("at", "minor", "major", "losses", "defeated", "fled", "held_by", "advantages")
TURN_KEYS = ("rules", "not_rules", "refused", "over", "winner", "events")
SHEET_FIELDS = ("ratings", "experience", "new_pc", "allowance")
START_FIELDS = ("minor", "major", "defeated", "fled", "held_by", "hold", "deadly_losses", "suffered", "advantages")
ADVANTAGE_KEYS = ("vs", "value", "reason", "rule", "turn")



@dataclass(frozen=True)
class Expect:
    """What one turn should lead to; every field left empty is not checked."""

    rules: tuple[str, ...] = ()
    not_rules: tuple[str, ...] = ()
    chars: Mapping[CharId, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    events: tuple[Mapping[str, Any], ...] = ()
    refused: Mapping[str, str] | None = None
    over: bool | None = None
    winner: str | None = None


@dataclass(frozen=True)
class CaseTurn:
    intents: tuple[Intent, ...]
    expect: Expect


@dataclass(frozen=True)
class Sheet:
    """Checks of the character sheets before any turn (S1, S4, M1-M3) and the IDs they exercise."""

    rules: tuple[str, ...] = ()
    chars: Mapping[CharId, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Case:
    name: str
    file: str
    about: str
    encounter: Encounter
    start: MatchState
    turns: tuple[CaseTurn, ...]
    sheet: Sheet = Sheet()
    xfail: str = ""

    @property
    def rules(self) -> frozenset[str]:
        """Every rule ID the case expects to fire, on its sheet or in any turn."""
        out = set(self.sheet.rules)
        for turn in self.turns:
            out.update(turn.expect.rules)
        return frozenset(out)


# -- reading ---------------------------------------------------------------------------------------
def load_case(path: str | Path) -> Case:
    """Read and check a case file (and its map). Raises LoadError listing every problem found."""
    path = Path(path)
    data = read_user_data(path, MAX_ENCOUNTER_BYTES, "rule case",  # bounded as an encounter is (io.userfile)
                          "a rule case needs a few KB: split it, or check that this is the right file", "toml")
    return parse_case(data, str(path), path.parent, path.stem)


def is_case_data(data: Mapping[str, Any]) -> bool:
    """Whether parsed TOML is a rule case: an encounter with a `[case]` table."""
    return isinstance(data.get("case"), dict)


def parse_case(data: Mapping[str, Any], file: str, base_dir: Path, name: str = "") -> Case:
    """A case from its parsed TOML; `base_dir` is where a map path is read from."""
    r = _CaseReader(file)
    head = r.table(data.get("case"), "case")
    if "case" not in data:
        r.bad("case", "missing the [case] table", 'add [case] with about = "what this case shows (rule ID)"')
    r.unknown(head, ("about", "xfail"), "case")
    about = r.text(head, "about", "case", required=True)
    xfail = r.text(head, "xfail", "case")
    enc = _encounter(r, data, file, base_dir, name)
    if enc is None:
        raise LoadError(r.problems)
    r.enc = enc
    start = _start(r, data.get("start", {}), enc)
    sheet = _sheet(r, data.get("sheet", {}))
    raw_turns = data.get("turn", [])
    turns = tuple(
        CaseTurn(intents, _expect(r, raw.get("expect", {}) if isinstance(raw, Mapping) else {}, f"turn[{i}].expect"))
        for i, (raw, intents) in enumerate(zip(raw_turns, enc.turns, strict=True))
    )
    if not turns and not sheet.chars:
        r.bad("turn", "a case plays at least one turn or checks a [sheet]",
              "add [[turn]] with its [[turn.intent]] and [turn.expect]")
    if r.problems:
        raise LoadError(r.problems)
    return Case(name or Path(file).stem, file, about, enc, start, turns, sheet, xfail)


class _CaseReader(ProblemReader):
    """Collects every problem of one case file (as the encounter reader does)."""

    def __init__(self, file: str) -> None:
        super().__init__(file)
        self.rules = load_rules()
        self.enc: Encounter | None = None

    def text(self, obj: Mapping[str, Any], key: str, place: str, required: bool = False) -> str:
        value = obj.get(key, "")
        if not isinstance(value, str) or (required and not value.strip()):
            self.bad(f"{place}.{key}", f"{key} is text" + (" and may not be empty" if required else ""),
                     f'write {key} = "..."')
            return ""
        return value

    def rule_ids(self, value: Any, place: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.bad(place, f"expected a list of rule IDs, found {value!r}", 'write it like ["C2", "L1"]')
            return ()
        for rid in value:
            if rid not in self.rules.entries:
                self.bad(place, f"no rule {rid!r}", "use an ID of RULES.md (`battlemat rules` lists them)")
        return tuple(value)

    def char_id(self, cid: str, place: str, fields: Sequence[str] = ()) -> bool:
        """Is `cid` a character of the case? If not, say so (naming the fields a key could also be)."""
        assert self.enc is not None
        if cid in self.enc.by_id:
            return True
        also = f", or a field: {', '.join(fields)}" if fields else ""
        self.bad(place, f"{cid!r} is no character of this case", f"use a character id: {', '.join(self.enc.ids)}{also}")
        return False

    def number(self, value: Any, place: str, low: int = 0) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            self.bad(place, f"expected a whole number >= {low}, found {value!r}", f"write a number from {low} up")
            return None
        return value


def _encounter(r: _CaseReader, data: Mapping[str, Any], file: str, base_dir: Path, name: str) -> Encounter | None:
    """The case's encounter, read by the encounter reader (its own tables and each turn's intents),
    on the inline `[map]` or on the encounter's own map."""
    enc_data: dict[str, Any] = {k: v for k, v in data.items() if k not in CASE_TABLES}
    enc_data.setdefault("encounter", {"title": name or Path(file).stem})
    turns = enc_data.get("turn", [])
    if isinstance(turns, list):
        enc_data["turn"] = [
            {k: v for k, v in t.items() if k != "expect"} if isinstance(t, Mapping) else t for t in turns
        ]
    try:
        enc = parse_encounter(enc_data, file, base_dir=base_dir)
    except LoadError as exc:
        r.problems += exc.problems
        return None
    if "map" in data:
        if enc.map is not None:
            r.bad("map", "a case has either a [map] table or a map file in [encounter], not both", "keep one")
            return None
        board = read_board(r, r.table(data["map"], "map"))
        return None if board is None else _placed(r, enc, board, file)
    if enc.map is not None:
        try:
            return attach_map(enc, base_dir / enc.map, encounter_file=file)
        except LoadError as exc:
            r.problems += exc.problems
            return None
    return enc


def _placed(r: _CaseReader, enc: Encounter, board: Board, file: str) -> Encounter | None:
    problems = placement_problems(enc, board, file)
    if problems:
        r.problems += problems
        return None
    return place_characters(enc, board)


# -- the start state -------------------------------------------------------------------------------
def _start(r: _CaseReader, raw: Any, enc: Encounter) -> MatchState:
    """The state before the first turn: a fresh encounter's, changed where `[start]` says."""
    start = r.table(raw, "start")
    state = enc.initial_state()
    turn = r.number(start.get("turn", 1), "start.turn", 1) or 1
    chars = dict(state.chars)
    for cid, fields in start.items():
        if cid == "turn":
            continue
        place = f"start.{cid}"
        if not r.char_id(cid, place, ("turn",)):
            continue
        t = r.table(fields, place)
        r.unknown(t, START_FIELDS, place)
        changes: dict[str, Any] = {}
        for key in ("minor", "major", "hold", "deadly_losses", "suffered"):
            if key in t and (n := r.number(t[key], f"{place}.{key}")) is not None:
                changes[key] = n
        if changes.get("minor", 0) > 2:
            r.bad(f"{place}.minor", "a character has at most 2 minor losses (L1)", "count the rest as major")
        for key in ("defeated", "fled"):
            if key in t:
                changes[key] = _flag(r, t[key], f"{place}.{key}")
        if "held_by" in t and isinstance(t["held_by"], str) and r.char_id(t["held_by"], f"{place}.held_by"):
            changes["held_by"] = t["held_by"]
        if "advantages" in t:
            changes["advantages"] = _advantages(r, t["advantages"], f"{place}.advantages")
        chars[cid] = chars[cid].with_(**changes)
    return MatchState(turn, MappingProxyType(chars))


def _flag(r: _CaseReader, value: Any, place: str) -> bool:
    if not isinstance(value, bool):
        r.bad(place, f"expected true or false, found {value!r}", "write true or false")
        return False
    return value


def _advantages(r: _CaseReader, value: Any, place: str) -> tuple[Advantage, ...]:
    out: list[Advantage] = []
    if not isinstance(value, list):
        r.bad(place, "advantages are a list of tables", 'write [ { vs = "id", value = 1, rule = "O1" } ]')
        return ()
    for i, raw in enumerate(value):
        t = r.table(raw, f"{place}[{i}]")
        r.unknown(t, ADVANTAGE_KEYS, f"{place}[{i}]")
        vs, amount = t.get("vs"), t.get("value")
        if not isinstance(vs, str) or not r.char_id(vs, f"{place}[{i}].vs") or not isinstance(amount, int):
            r.bad(f"{place}[{i}]", "an advantage needs vs (a character id) and value (a number)")
            continue
        turn = t.get("turn")
        out.append(Advantage(vs, amount, str(t.get("reason", "earlier turn")), str(t.get("rule", "O1")),
                             turn if isinstance(turn, int) else None))
    return tuple(out)


def _advantage_patterns(r: _CaseReader, value: Any, place: str) -> None:
    """Expected advantages: tables naming some of vs, value, reason, rule and turn ([] for none)."""
    if not isinstance(value, list):
        r.bad(place, "advantages are a list of tables", 'write [ { vs = "id", value = 1 } ], or [] for none')
        return
    for i, raw in enumerate(value):
        t = r.table(raw, f"{place}[{i}]")
        r.unknown(t, ADVANTAGE_KEYS, f"{place}[{i}]")
        if isinstance(t.get("vs"), str):
            r.char_id(t["vs"], f"{place}[{i}].vs")


# -- expectations ----------------------------------------------------------------------------------
def _sheet(r: _CaseReader, raw: Any) -> Sheet:
    t = r.table(raw, "sheet")
    rules = r.rule_ids(t.get("rules", []), "sheet.rules")
    chars: dict[CharId, Mapping[str, Any]] = {}
    for cid, fields in t.items():
        if cid == "rules" or not r.char_id(cid, f"sheet.{cid}", ("rules",)):
            continue
        f = r.table(fields, f"sheet.{cid}")
        r.unknown(f, SHEET_FIELDS, f"sheet.{cid}")
        for key in ("ratings", "allowance"):
            for skill in r.table(f.get(key), f"sheet.{cid}.{key}"):
                try:
                    (r.rules.pair_of if key == "ratings" else r.rules.half)(skill)
                except RulesError as exc:
                    r.bad(f"sheet.{cid}.{key}.{skill}", str(exc), "name a skill pair or half")
        chars[cid] = MappingProxyType(dict(f))
    if chars and not rules:
        r.bad("sheet.rules", "the sheet checks exercise rules: list them", 'e.g. rules = ["S1", "S4"]')
    return Sheet(rules, MappingProxyType(chars))


def _expect(r: _CaseReader, raw: Any, place: str) -> Expect:
    t = r.table(raw, place)
    chars: dict[CharId, Mapping[str, Any]] = {}
    for key, value in t.items():
        if key in TURN_KEYS:
            continue
        if not r.char_id(key, f"{place}.{key}", TURN_KEYS):
            continue
        fields = r.table(value, f"{place}.{key}")
        r.unknown(fields, CHAR_FIELDS, f"{place}.{key}")
        if "advantages" in fields:
            _advantage_patterns(r, fields["advantages"], f"{place}.{key}.advantages")
        chars[key] = MappingProxyType(dict(fields))
    refused = t.get("refused")
    if refused is not None:
        refused = r.table(refused, f"{place}.refused")
        r.unknown(refused, ("who", "rule"), f"{place}.refused")
        if "rule" in refused:
            r.rule_ids([refused["rule"]], f"{place}.refused.rule")
    events = t.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, Mapping) for e in events):
        r.bad(f"{place}.events", "events are a list of tables", 'write [ { type = "contest", margin = 2 } ]')
        events = []
    over = t.get("over")
    if over is not None:
        over = _flag(r, over, f"{place}.over")
    return Expect(
        rules=r.rule_ids(t.get("rules", []), f"{place}.rules"),
        not_rules=r.rule_ids(t.get("not_rules", []), f"{place}.not_rules"),
        chars=MappingProxyType(chars),
        events=tuple(MappingProxyType(dict(e)) for e in events),
        refused=MappingProxyType(dict(refused)) if refused is not None else None,
        over=over,
        winner=r.text(t, "winner", place) or None,
    )


# -- writing ---------------------------------------------------------------------------------------
def encounter_tables(enc: Encounter, state: MatchState, out_dir: Path) -> list[str]:
    """The `[encounter]`, `[rules]` and `[[character]]` tables of a case starting from `state`: each
    character as declared, standing where `state` has it; the map path relative to `out_dir`."""
    head: dict[str, Any] = {"title": enc.title, "seed": enc.seed, "dice": enc.dice}
    if enc.map is not None and enc.board is not None and enc.board.source:
        head["map"] = relative_path(Path(enc.board.source), out_dir)
    lines = ["[encounter]"] + [f"{k} = {toml_value(v)}" for k, v in head.items()]
    changed = {k: s.value for k, s in enc.rules.switches.items() if s.value != s.default}
    if changed:
        lines += ["", "[rules]"] + [f"{k} = {toml_value(v)}" for k, v in changed.items()]
    for c in enc.characters:
        d: dict[str, Any] = {"id": c.id, "name": c.name, "side": c.side, "skills": dict(c.skills)}
        if c.talents:
            d["talents"] = dict(c.talents)
        if c.equipment:
            d["equipment"] = [{"name": e.name, "skill": e.named_for, "bonus": e.bonus} for e in c.equipment]
        for key in ("kind", "fragile", "deadly"):
            if getattr(c, key):
                d[key] = getattr(c, key)
        if c.observe_tn:
            d["observe_tn"] = dict(c.observe_tn)
        at = state[c.id].at
        if at is not None:
            d["at"] = list(at)
        lines += ["", "[[character]]"] + [f"{toml_key(k)} = {toml_value(v)}" for k, v in d.items()]
    return lines


def start_tables(enc: Encounter, state: MatchState) -> list[str]:
    """`[start]`: the turn number and what each character carries into it (losses, grips, advantages)."""
    lines = ["[start]", f"turn = {state.turn}"]
    fresh = CharacterState()
    for cid in enc.ids:
        s = state[cid]
        d: dict[str, Any] = {}
        for key in ("minor", "major", "defeated", "fled", "held_by", "hold", "deadly_losses", "suffered"):
            if getattr(s, key) != getattr(fresh, key) and (key != "suffered" or s.suffered != s.losses):
                d[key] = getattr(s, key)
        if s.advantages:
            d["advantages"] = [advantage_table(a) for a in s.advantages]
        if d:
            lines.append(f"{toml_key(cid)} = {toml_value(d)}")
    return lines


def advantage_table(a: Advantage) -> dict[str, Any]:
    d: dict[str, Any] = {"vs": a.vs, "value": a.value, "reason": a.reason, "rule": a.rule}
    if a.turn is not None:
        d["turn"] = a.turn
    return d


def intent_tables(intents: Sequence[Intent]) -> list[str]:
    lines: list[str] = []
    for it in intents:
        lines += ["[[turn.intent]]"] + [f"{toml_key(k)} = {toml_value(v)}" for k, v in it.to_dict().items()]
    return lines
