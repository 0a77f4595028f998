"""Rule cases: play a case and compare with what it expects; write a case from a saved game's turn.

Rule cases as data are read and written by battlemat.io.cases; this module runs and records them.
`run_case` plays a case turn by turn through the one resolver and lists every
stated expectation the engine did not meet, with the events of that turn. The rule IDs a turn
"fires" are those its events cite (`cited_rules`): each event's own rule IDs and those inside its
rating breakdowns (the rule of every part of a rating, as `Rating.parts` names them, the rule tags
of its notes) and any `rule` field of its data. The `turn_start`, `phase` and `turn_end` markers
are left out: they cite every phase (and L2) in every turn, whatever happens.

`record_case` (`battlemat case SAVE --turn N [-o FILE]`) writes a case from a save: the state before
turn N as the start, the intents of turn N, and as the expected outcome what the engine made of them, marked as
recorded, to be checked by hand. A game master records a ruling this way, corrects what the rules
say otherwise, and shares the file.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlemat.core import movement
from battlemat.core.encounter import Encounter
from battlemat.core.errors import IllegalIntent
from battlemat.core.events import Event
from battlemat.core.match import Match
from battlemat.core.state import CharacterState, MatchState
from battlemat.io.cases import (
    Case,
    Expect,
    advantage_table,
    encounter_tables,
    intent_tables,
    load_case,
    parse_case,
    start_tables,
)
from battlemat.io.encounter import load_encounter
from battlemat.io.errors import LoadError
from battlemat.io.rules_file import load_rules
from battlemat.io.saves import gm_doors, read_save
from battlemat.io.toml_write import toml_key, toml_value

MARKERS = frozenset({"turn_start", "phase", "turn_end"})
_RULE_TAG = re.compile(r"\b([SPMRCOLED]\d{1,2})\b")


@dataclass(frozen=True)
class Mismatch:
    """One stated expectation the engine did not meet. `turn` 0 is the sheet, before any turn."""

    turn: int
    where: str
    expected: Any
    got: Any

    def __str__(self) -> str:
        when = "sheet" if self.turn == 0 else f"turn {self.turn}"
        return f"{when}: {self.where}: expected {self.expected!r}, got {self.got!r}"


@dataclass(frozen=True)
class CaseRun:
    case: Case
    events: tuple[tuple[Event, ...], ...]  # by turn played
    states: tuple[MatchState, ...]  # after each turn played
    mismatches: tuple[Mismatch, ...]

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def report(self) -> str:
        """The mismatches, each turn's followed by that turn's events (what the engine did instead)."""
        lines = [f"{self.case.file}: {self.case.about}"]
        shown: set[int] = set()
        for m in self.mismatches:
            lines.append(f"  {m}")
        for m in self.mismatches:
            if m.turn and m.turn not in shown and m.turn <= len(self.events):
                shown.add(m.turn)
                lines.append(f"  events of turn {m.turn}:")
                lines += [f"    {line}" for line in describe_events(self.events[m.turn - 1])] or ["    (none)"]
        return "\n".join(lines)


def describe_events(events: Iterable[Event]) -> list[str]:
    return [f"[{e.phase}] {e.type}: {e.text}" + (f"  ({', '.join(e.rules)})" if e.rules else "")
            for e in events if e.type not in MARKERS]


# -- which rules a turn's events cite ----------------------------------------------------------------
def cited_rules(events: Iterable[Event]) -> set[str]:
    known = load_rules().entries
    out: set[str] = set()
    for e in events:
        if e.type in MARKERS:
            continue
        out.update(e.rules)
        _rules_in(e.data, out)
    return {r for r in out if r in known}


def _rules_in(value: Any, out: set[str]) -> None:
    if isinstance(value, Mapping):
        if {"skill", "value", "base"} <= value.keys():
            out.update(rating_rules(value))
        rule = value.get("rule")
        if isinstance(rule, str):
            out.add(rule)
        for v in value.values():
            _rules_in(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _rules_in(v, out)


def rating_rules(d: Mapping[str, Any]) -> set[str]:
    """The rules of a rating's parts, from its `to_dict` form, as `Rating.parts` tags them."""
    if d.get("undefended"):
        return {"C5"}
    out = {"S2"}
    mods = list(d.get("situational") or ())
    if sum(m.get("value", 0) for m in mods) != d.get("situational_net", 0):
        out.add("S6")  # the clamp
    for key, rule in (("equipment", "S5"), ("group", "S7"), ("talent", "S3"), ("matchup", "S8"), ("losses", "L5")):
        if d.get(key):
            out.add(rule)
    if d.get("halved"):
        out.add("C5")
    for note in d.get("notes") or ():
        out.update(_RULE_TAG.findall(str(note)))
    return out


# -- playing a case ----------------------------------------------------------------------------------
def run_case(case: Case) -> CaseRun:
    """Play every turn of `case` from its start state and compare with what it expects."""
    match = Match(case.encounter)
    match.state = case.start
    found: list[Mismatch] = list(check_sheet(case))
    played: list[tuple[Event, ...]] = []
    states: list[MatchState] = []
    for n, turn in enumerate(case.turns, 1):
        refused: IllegalIntent | None = None
        try:
            events = match.play(turn.intents)
        except IllegalIntent as exc:
            refused, events = exc, ()
        played.append(events)
        states.append(match.state)
        found += compare_turn(n, turn.expect, match, events, refused)
    return CaseRun(case, tuple(played), tuple(states), tuple(found))


WRONG_OUTCOME, BAD_FILE = 1, 2  # `battlemat case --run`'s exit codes


def run_files(paths: Sequence[Path]) -> tuple[list[str], int]:
    """Every case file played (`run_case`): the lines to print and the exit code (0 all pass, 1 a wrong
    outcome, 2 a file that is no case). A case marked `xfail` passes while it still fails, and is a
    wrong outcome once it passes (remove its mark)."""
    lines: list[str] = []
    code = 0
    for path in paths:
        try:
            run = run_case(load_case(path))
        except LoadError as exc:
            lines += [str(p) for p in exc.problems]
            code = max(code, BAD_FILE)
            continue
        xfail = run.case.xfail
        if run.ok and not xfail:
            lines.append(f"ok: {path}")
        elif not run.ok and xfail:
            lines.append(f"ok: {path} (fails as marked: {xfail})")
        elif xfail:
            lines.append(f"{path}: passes, but is marked xfail ({xfail}): remove the mark")
            code = max(code, WRONG_OUTCOME)
        else:
            lines.append(run.report())
            code = max(code, WRONG_OUTCOME)
    wrong = sum(1 for line in lines if line.startswith(tuple(f"{p}:" for p in map(str, paths))))
    lines.append(f"{len(paths)} case file{'s' * (len(paths) != 1)}: "
                 + ("every outcome as expected" if not code else f"{wrong} not as expected"))
    return lines, code


def check_sheet(case: Case) -> list[Mismatch]:
    """The `[sheet]` checks: ratings by pair (S1), experience and new-PC limits (S4), allowances (M1-M3)."""
    enc, rules = case.encounter, case.encounter.rules
    out: list[Mismatch] = []
    fired: set[str] = set()
    for cid, want in case.sheet.chars.items():
        char = enc.by_id[cid]
        for skill, n in dict(want.get("ratings", {})).items():
            fired.add("S1")
            got = char.base(rules.pair_of(skill))
            if got != n:
                out.append(Mismatch(0, f"{cid}.ratings.{skill}", n, got))
        if "experience" in want:
            fired.add("S4")
            if char.experience() != want["experience"]:
                out.append(Mismatch(0, f"{cid}.experience", want["experience"], char.experience()))
        if "new_pc" in want:
            fired.add("S4")
            problems = char.new_pc_problems()
            if (not problems) != want["new_pc"]:
                out.append(Mismatch(0, f"{cid}.new_pc", want["new_pc"], "; ".join(problems) or True))
        for half, n in dict(want.get("allowance", {})).items():
            fired |= _allowance_rules(case, cid, half)
            got = movement.allowance(rules, char, rules.half(half).name, case.start[cid].major)
            if got != n:
                out.append(Mismatch(0, f"{cid}.allowance.{half}", n, got))
    missing = [r for r in case.sheet.rules if r not in fired]
    if missing:
        out.append(Mismatch(0, "rules", list(case.sheet.rules), sorted(fired)))
    return out


def _allowance_rules(case: Case, cid: str, half: str) -> set[str]:
    """M1 always; M2 when an Acrobatics talent lengthens an allowance above 0; M3 when major losses
    shorten it (the `major_loss_penalty` switch set to movement)."""
    rules, char = case.encounter.rules, case.encounter.by_id[cid]
    out = {"M1"}
    if char.talent(rules.talent_pair("nimbleness")) and rules.allowance(rules.half(half).name) > 0:
        out.add("M2")
    if rules.switch_str("major_loss_penalty") == "movement" and case.start[cid].major:
        out.add("M3")
    return out


def compare_turn(n: int, want: Expect, match: Match, events: Sequence[Event],
                 refused: IllegalIntent | None) -> list[Mismatch]:
    out: list[Mismatch] = []
    if want.refused is not None:
        if refused is None:
            out.append(Mismatch(n, "refused", dict(want.refused), "the intents were accepted"))
        elif any(getattr(refused, k) != v for k, v in want.refused.items()):
            out.append(Mismatch(n, "refused", dict(want.refused), f"{refused.rule}: {refused}"))
    elif refused is not None:
        out.append(Mismatch(n, "refused", None, f"{refused.rule}: {refused}"))
    fired = cited_rules(events) | ({refused.rule} if refused and refused.rule else set())
    missing = [r for r in want.rules if r not in fired]
    if missing:
        out.append(Mismatch(n, f"rules {missing} cited", list(want.rules), sorted(fired)))
    unwanted = [r for r in want.not_rules if r in fired]
    if unwanted:
        out.append(Mismatch(n, "not_rules", f"none of {list(want.not_rules)}", unwanted))
    for cid, fields in want.chars.items():
        out += _compare_char(n, cid, fields, match.state[cid])
    for i, pattern in enumerate(want.events):
        if not any(_matches(pattern, e.to_dict()) for e in events):
            out.append(Mismatch(n, f"events[{i}]", dict(pattern), "no event matches"))
    result = match.outcome()
    if want.over is not None and result.over != want.over:
        out.append(Mismatch(n, "over", want.over, result.over))
    if want.winner is not None and result.winner != want.winner:
        out.append(Mismatch(n, "winner", want.winner, result.winner))
    return out


def char_fields(s: CharacterState) -> dict[str, Any]:
    """A character's state in the terms a case states it."""
    return {
        "at": list(s.at) if s.at is not None else None,
        "minor": s.minor,
        "major": s.major,
        "losses": s.losses,
        "defeated": s.defeated,
        "fled": s.fled,
        "held_by": s.held_by or "",
    }


def _compare_char(n: int, cid: str, want: Mapping[str, Any], s: CharacterState) -> list[Mismatch]:
    got = char_fields(s)
    out = [Mismatch(n, f"{cid}.{key}", value, got[key])
           for key, value in want.items() if key != "advantages" and got[key] != value]
    if "advantages" in want:
        have = [advantage_table(a) for a in s.advantages]
        wanted = list(want["advantages"])
        if (not wanted and have) or any(not any(_matches(w, h) for h in have) for w in wanted):
            out.append(Mismatch(n, f"{cid}.advantages", wanted, have))
    return out


def _matches(pattern: Any, value: Any) -> bool:
    """Partial match: every key a pattern table states matches, recursively; other values are equal."""
    if isinstance(pattern, Mapping):
        return isinstance(value, Mapping) and all(k in value and _matches(v, value[k]) for k, v in pattern.items())
    return bool(pattern == value)


# -- recording a case from a saved game --------------------------------------------------------------
def record_case(save_file: str | Path, turn: int, out_dir: Path) -> str:
    """The text of a case for turn `turn` of a save: start = the state before it, intents = its
    intents, expected = what the engine made of them (marked as recorded, to check by hand)."""
    save = read_save(save_file)
    if not 1 <= turn <= len(save.turns):
        raise LoadError.one(str(save_file), "turns", f"the save has {len(save.turns)} turn(s), not a turn {turn}",
                            f"use --turn 1 to {len(save.turns)}" if save.turns else "play a turn first")
    enc = load_encounter(save.encounter_path(save_file))
    game = Match(enc, seed=save.seed, dice=save.dice)
    for n, intents in enumerate(save.turns[: turn - 1], 1):
        gm_doors(game, save.doors, n)  # the game master's door changes, as the game was played
        game.play(intents)
    gm_doors(game, save.doors, turn)
    before = game.state
    intents = save.turns[turn - 1]
    enc = _as_played(enc, game)
    head = [
        f"# Recorded by `battlemat case {Path(save_file).name} --turn {turn}`: the state before turn {turn} of",
        "# that game, its intents, and what the engine made of them. CHECK THE EXPECTED OUTCOME BY HAND",
        "# against the rules, correct it where the rules say otherwise, and say so in `about`.",
        "[case]",
        f"about = {toml_value(f'Turn {turn} of {Path(save_file).name}, recorded: check by hand')}",
        "",
    ]
    body = encounter_tables(enc, before, out_dir) + [""] + start_tables(enc, before)
    body += ["", "[[turn]]"] + intent_tables(intents)
    draft = "\n".join(head + body) + "\n"
    case = parse_case(_toml(draft), str(out_dir / "recorded.toml"), out_dir)
    run = run_case(case)
    events, after = run.events[0], run.states[0]
    expect = ["", "# Recorded, check by hand: the engine's outcome of this turn, not yet a ruling."]
    if enc.dice != "none":
        expect.append(f"# Dice ({enc.dice}): a case rolls afresh from its seed; the game's rolls may have differed.")
    expect += ["[turn.expect]", f"rules = {toml_value(_in_rules_order(cited_rules(events)))}"]
    for cid in enc.ids:
        fields = {k: v for k, v in char_fields(after[cid]).items() if k != "losses" and v is not None}
        if not (before[cid].held_by or after[cid].held_by):
            fields.pop("held_by")
        expect.append(f"{toml_key(cid)} = {toml_value(fields)}")
    return draft + "\n".join(expect) + "\n"


def _as_played(enc: Encounter, game: Match) -> Encounter:
    """The encounter with the seed and dice the game was played with."""
    return dataclasses.replace(enc, seed=game.seed, dice=game.dice.name)


def _toml(text: str) -> dict[str, Any]:
    return tomllib.loads(text)


def _in_rules_order(ids: Iterable[str]) -> list[str]:
    order = list(load_rules().entries)
    return sorted(ids, key=order.index)
