"""Lesson files (`NAME.lesson.toml`, beside the encounter `NAME.toml`) to `Lesson` values, and back.

The format (README, "Writing a lesson"):

    [lesson]
    title = "Sticky zones"
    goal = "One line: what the learner will know after it."
    encounter = "sticky.toml"   # optional: default NAME.toml beside this file
    side = "heroes"             # optional: the side the learner plays (default: the encounter's first)
    seed = 0                    # optional, with dice: override the encounter's (a lesson from a save)
    order = 1                   # optional: where `battlemat learn` lists it
    [[step]]
    text = "What to try, in a line or two."
    expect = [ { who = "kwirt", use = "Dodge", to = [5, 2] } ]   # one or more acceptable intents
    npc = [ { who = "ogre", use = "Melee", target = "kwirt" } ]  # the NPCs' intents, as in a [[turn]]
    point = [ { type = "stopped", who = "kwirt", rule = "M6" } ] # the events to point at on the map
    after = "Optional words once the turn has played."

`expect`: `who` and `use` (a half, or a list of halves) are required; `target` and `to` (a square, or
a list of squares) are checked only when given. Every problem names the file, the place and the fix;
`read_lesson` checks the file; battlemat.teach.tutor's `load_lesson` also plays it once as written
(each step with its first expected intents), so a lesson that the rules refuse, that ends the combat
early or points at nothing is caught before anyone plays it.

A lesson is data: per step the words of the lesson author, the intents the learner may declare
(`Want`: who, which skill halves, which target, which squares), the NPCs' scripted intents (so a
lesson plays the same every time) and the events to point at on the map (`Point`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from battlemat.core.encounter import Encounter
from battlemat.core.errors import RulesError
from battlemat.core.events import TYPES
from battlemat.core.intents import Intent
from battlemat.core.types import XY, CharId
from battlemat.io.cases import _CaseReader
from battlemat.io.encounter import load_encounter, parse_intents
from battlemat.io.errors import LoadError, Problem
from battlemat.io.limits import MAX_ENCOUNTER_BYTES, MAX_SEED, MAX_TURNS
from battlemat.io.names import dice_problem, did_you_mean, shown
from battlemat.io.userfile import read_user_data

SUFFIX = ".lesson.toml"
LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"
_HEAD_KEYS = ("title", "goal", "encounter", "side", "seed", "dice", "order")
_STEP_KEYS = ("text", "expect", "npc", "point", "after")
_WANT_KEYS = ("who", "use", "target", "to")
_POINT_KEYS = ("type", "who", "rule")
_FIX_BIG = "a lesson needs a few KB: split it into two lessons"


@dataclass(frozen=True)
class Want:
    """One acceptable intent: `use` any of these halves (at least one), `target` this character (None:
    any), `to` one of these squares (None: any square, or none)."""

    who: CharId
    use: tuple[str, ...] = ()
    target: CharId | None = None
    to: tuple[XY, ...] | None = None

    def example(self) -> Intent:
        """The intent this want names most plainly (the first half, the first square)."""
        return Intent(self.who, self.use[0], self.target, to=self.to[0] if self.to else None)


@dataclass(frozen=True)
class Point:
    """Events a step points at: of this `type`, about `who` (None: anyone), citing `rule` or played in
    that phase (None: any; the pointer then shows the event's first rule)."""

    type: str
    who: CharId | None = None
    rule: str | None = None


@dataclass(frozen=True)
class Step:
    text: str
    wants: tuple[Want, ...]
    npcs: tuple[Intent, ...] = ()
    points: tuple[Point, ...] = ()
    after: str = ""

    @property
    def whos(self) -> tuple[CharId, ...]:
        """The characters the learner must declare for, in the order the lesson names them."""
        return tuple(dict.fromkeys(w.who for w in self.wants))


@dataclass(frozen=True)
class Lesson:
    name: str
    title: str
    goal: str
    file: Path
    encounter_file: Path
    enc: Encounter
    sides: tuple[str, ...]
    steps: tuple[Step, ...]
    order: int = 0  # where `battlemat learn` lists it (then by name)


def lesson_name(path: Path) -> str:
    return path.name[: -len(SUFFIX)] if path.name.endswith(SUFFIX) else path.stem


def is_lesson_file(path: Path) -> bool:
    return path.name.lower().endswith(SUFFIX)


def read_lesson_encounter(path: str | Path) -> Encounter:
    """A lesson's encounter: the encounter format, with an inline `[map]` (as a rule case draws one)
    or a Tiled map. The window opens any encounter this way, so a lesson's encounter also plays on
    its own (`battlemat play lessons/NAME.toml`). Raises LoadError."""
    return load_encounter(path)  # the one reader of encounters, inline [map] and all


class _Reader(_CaseReader):
    """Collects every problem of one lesson file, as the case reader does."""

    def keyed(self, obj: Any, place: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
        """A table whose fields are among `keys` (each other one is reported)."""
        t = self.table(obj, place)
        self.unknown(t, keys, place)
        return t

    def tables(self, value: Any, place: str, keys: tuple[str, ...]) -> list[tuple[str, Mapping[str, Any]]]:
        if isinstance(value, Mapping):
            value = [value]
        if not isinstance(value, list):
            self.bad(place, f"expected a list of tables, found {shown(value)}", "write it as [ { key = value }, ... ]")
            return []
        return [(f"{place}[{i}]", self.keyed(t, f"{place}[{i}]", keys)) for i, t in enumerate(value)]


def read_lesson(path: str | Path) -> Lesson:
    """Read and check a lesson file, its encounter with the lesson's seed and dice (not yet played:
    battlemat.teach.tutor.load_lesson plays it through). Raises LoadError listing every problem found."""
    path = Path(path)
    file = str(path)
    data = read_user_data(path, MAX_ENCOUNTER_BYTES, "lesson", _FIX_BIG, "toml")
    r = _Reader(file)
    for key in data:
        if key not in ("lesson", "step"):
            r.bad(key, f"unknown table {key!r}", "use [lesson] and [[step]]")
    if "lesson" not in data:
        r.bad("lesson", "missing the [lesson] table", 'add [lesson] with title = "..." and goal = "..."')
    head = r.keyed(data.get("lesson", {}), "lesson", _HEAD_KEYS)
    title = r.text(head, "title", "lesson", required=True)
    goal = r.text(head, "goal", "lesson", required=True)
    enc_ref = r.text(head, "encounter", "lesson") or f"{lesson_name(path)}.toml"
    enc_path = path.parent / enc_ref
    try:
        enc = read_lesson_encounter(enc_path)
    except LoadError as exc:
        head_problem = Problem(file, "lesson.encounter", f"its encounter {enc_ref!r} cannot be read",
                               "fix the encounter (below) or the path, relative to this file")
        raise LoadError([head_problem, *exc.problems]) from None
    side = r.text(head, "side", "lesson") or enc.sides[0]
    if side not in enc.sides:
        r.bad("lesson.side", f"no side {side!r} in {enc_ref}", f"use one of: {', '.join(enc.sides)}")
        side = enc.sides[0]
    seed, dice = head.get("seed", enc.seed), head.get("dice", enc.dice)
    if isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED <= seed <= MAX_SEED:
        r.bad("lesson.seed", f"a seed is a 64-bit whole number, found {shown(seed)}", "write seed = 0")
        seed = enc.seed
    if (problem := dice_problem(dice)) is not None:
        r.bad("lesson.dice", *problem)
        dice = enc.dice
    raw_steps = data.get("step", [])
    if not isinstance(raw_steps, list) or not raw_steps:
        r.bad("step", "a lesson has at least one [[step]]", 'add [[step]] with text and expect')
        raw_steps = []
    if len(raw_steps) > MAX_TURNS:
        r.bad("step", f"{len(raw_steps)} steps; a lesson has at most {MAX_TURNS}", "split the lesson")
        raw_steps = []
    order = head.get("order", 0)
    if isinstance(order, bool) or not isinstance(order, int) or not 0 <= order <= 9999:
        r.bad("lesson.order", f"order is a whole number 0..9999, found {shown(order)}", "write order = 1")
        order = 0
    steps = [_step(r, raw, f"step[{i}]", enc, side) for i, raw in enumerate(raw_steps)]
    if r.problems:
        raise LoadError(r.problems)
    if seed != enc.seed or dice != enc.dice:
        enc = replace(enc, seed=seed, dice=dice)
    return Lesson(lesson_name(path), title, goal, path, enc_path, enc, (side,), tuple(steps), order)


def _step(r: _Reader, raw: Any, place: str, enc: Any, side: str) -> Step:
    t = r.keyed(raw, place, _STEP_KEYS)
    text = r.text(t, "text", place, required=True)
    wants = [w for where, wt in r.tables(t.get("expect", []), f"{place}.expect", _WANT_KEYS)
             if (w := _want(r, wt, where, enc, side)) is not None]
    if not wants and "expect" not in t:
        r.bad(f"{place}.expect", "a step expects at least one intent of the learner",
              'add expect = [ { who = "ID", use = "Melee", target = "ID" } ]')
    npcs, problems = parse_intents(t.get("npc", []), r.file, f"{place}.npc", enc)
    r.problems += problems
    for i, it in enumerate(npcs):
        if enc.by_id[it.who].side == side:
            r.bad(f"{place}.npc[{i}].who", f"{it.who!r} is on the learner's side {side!r}",
                  "the learner declares for it: put it in expect")
    if len({it.who for it in npcs}) < len(npcs):
        r.bad(f"{place}.npc", "a character has two intents in one step (P1)", "keep one intent per character")
    points = [p for where, pt in r.tables(t.get("point", []), f"{place}.point", _POINT_KEYS)
              if (p := _point(r, pt, where, enc)) is not None]
    return Step(text, tuple(wants), tuple(npcs), tuple(points), r.text(t, "after", place))


def _want(r: _Reader, t: Mapping[str, Any], place: str, enc: Any, side: str) -> Want | None:
    who = t.get("who")
    if not isinstance(who, str) or who not in enc.by_id:
        r.bad(f"{place}.who", f"unknown character {shown(who)}", f"use a character id: {', '.join(enc.ids)}")
        return None
    if enc.by_id[who].side != side:
        r.bad(f"{place}.who", f"{who!r} is not on the learner's side {side!r}",
              "script it in npc, or set [lesson] side")
    raw_use = t.get("use")
    uses = raw_use if isinstance(raw_use, list) else [raw_use]
    halves: list[str] = []
    for u in uses:
        try:
            halves.append("item" if isinstance(u, str) and u.lower() == "item" else enc.rules.half(u).name)
        except (RulesError, AttributeError, TypeError):
            r.bad(f"{place}.use", f"unknown skill half {shown(u)}",
                  f"{did_you_mean(u, enc.rules.halves)}name a half such as Melee or Dodge (or a list of them)")
    target = t.get("target")
    if target is not None and target not in enc.by_id:
        r.bad(f"{place}.target", f"unknown character {shown(target)}", f"use a character id: {', '.join(enc.ids)}")
    to = _squares(r, t["to"], f"{place}.to") if "to" in t else None
    return Want(who, tuple(halves), target, to)


def _squares(r: _Reader, value: Any, place: str) -> tuple[XY, ...]:
    def square(v: Any) -> bool:
        return isinstance(v, list) and len(v) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in v)

    items = [value] if square(value) else value if isinstance(value, list) and value else None
    if items is None or not all(square(v) for v in items):
        r.bad(place, f"a square is [x, y], or a list of them: found {shown(value)}",
              "write to = [2, 3] or [[2, 3], [3, 3]]")
        return ()
    return tuple((v[0], v[1]) for v in items)


def _point(r: _Reader, t: Mapping[str, Any], place: str, enc: Any) -> Point | None:
    kind = t.get("type")
    if kind not in TYPES:
        r.bad(f"{place}.type", f"unknown event type {shown(kind)}",
              f"{did_you_mean(kind, TYPES)}use one of: {', '.join(TYPES)}")
        return None
    who = t.get("who")
    if who is not None and who not in enc.by_id:
        r.bad(f"{place}.who", f"unknown character {shown(who)}", f"use a character id: {', '.join(enc.ids)}")
    rule = t.get("rule")
    if rule is not None and rule not in enc.rules.entries:
        r.bad(f"{place}.rule", f"no rule {shown(rule)}", "use an ID that `battlemat rules` lists")
    return Point(kind, who, rule)


def find_lesson(name: str) -> Path:
    """A lesson by its name among the bundled ones, or by its path. Raises LoadError with the names."""
    given = Path(name)
    if given.suffix == ".toml" or "/" in name:
        return given
    path = LESSONS_DIR / f"{name}{SUFFIX}"
    if path.is_file():
        return path
    names = [lesson_name(p) for p in bundled()]
    raise LoadError.one(name, "", "no such lesson", f"{did_you_mean(name, names)}use one of: {', '.join(names)}"
                        " (`battlemat learn` lists them), or a path to a .lesson.toml file")


def bundled() -> list[Path]:
    return sorted(LESSONS_DIR.glob(f"*{SUFFIX}"))
