"""Saves and replays as JSON: the encounter reference, the seed and the intents of each turn.

A save never pickles the engine (STYLE.md, what to avoid): replaying the intents through a fresh
`Match` with the same seed reproduces the same event log (DESIGN: determinism), so the file stays
small, readable and valid across code changes that keep the rules. Writes are atomic (a temporary
file in the same directory, then `os.replace`) so a crash mid-write never damages an older save, and
the next write removes a temporary file a killed one left. Reading is bounded (`io.userfile`) and
checks every field, naming its place (`turns[3][0].to`) and the fix, before anything is replayed.

The encounter is referenced relative to the save file (a campaign folder moved or copied whole
keeps its saves working), with where it was, its title and a hash of its bytes beside that
(`EncounterRef`): a save moved away from its folder still finds the encounter by its old place, and
when neither is there the error says which encounter the save wants. Saves written before the
reference existed hold one path, absolute or relative, and load as they always did.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from battlemat.core.errors import BattlematError, RulesError
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.rating import Modifier
from battlemat.core.walls import DOOR_STATES
from battlemat.io.errors import LoadError, Problem
from battlemat.io.gm_changes import GmChange
from battlemat.io.gm_changes import from_data as gm_from_data
from battlemat.io.limits import MAX_CELLS, MAX_CHARACTERS, MAX_DOOR_CHANGES, MAX_SAVE_BYTES, MAX_SEED, MAX_TURNS
from battlemat.io.names import dice_problem, shown, unknown_name
from battlemat.io.outfile import TEMP_SUFFIX, write_file
from battlemat.io.rules_file import load_rules
from battlemat.io.userfile import read_user_data, why_unreadable

FORMAT = "battlemat-save"
FORMAT_VERSION = 1
# Version 2 was a simulated run's replay with `ai_draws`: the 32-bit words its AI drew, turn by turn,
# from the dice's random stream. The AI now draws from its own stream (battlemat.ai.ai_stream), so
# battlemat writes version 1 only; a version 2 replay with dice cannot be replayed as it was played
# and is refused with the fix (a diceless one plays the same and is read).
DRAWS_VERSION = 2
READ_VERSION = DRAWS_VERSION


@dataclass(frozen=True)
class EncounterRef:
    """What a save knows of its encounter beyond the path: where it was when saved (absolute), its
    title and the SHA-256 of its file, so a save whose encounter moved can say which one it wants,
    and one whose encounter changed since can say so (the turns may then play out differently)."""

    absolute: str | None = None
    title: str | None = None
    sha256: str | None = None

    def to_dict(self) -> dict[str, str]:
        return {k: v for k, v in (("absolute", self.absolute), ("title", self.title), ("sha256", self.sha256))
                if v is not None}

    @staticmethod
    def from_dict(d: object) -> EncounterRef:
        """Lenient: a reference is a hint for finding the file, so a malformed one is ignored."""
        if not isinstance(d, dict):
            return EncounterRef()
        got = {k: d.get(k) for k in ("absolute", "title", "sha256")}
        return EncounterRef(**{k: v for k, v in got.items() if isinstance(v, str) and v})


def file_sha256(path: str | Path) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def encounter_ref(path: str | Path, title: str | None = None) -> EncounterRef:
    """The reference a save keeps of the encounter file at `path`."""
    return EncounterRef(str(Path(path).resolve()), title, file_sha256(path))


@dataclass(frozen=True)
class DoorChange:
    """A game master's change of a door between turns: before turn `turn` is resolved, the door `door`
    (its id on the map) is set to `state` (open, closed or locked). A door the resolver opens (a step
    through it, M4) follows from the intents and is never saved."""

    turn: int
    door: str
    state: str

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "door": self.door, "state": self.state}


@dataclass(frozen=True)
class Save:
    """What a replay needs: which encounter, which seed and dice, every resolved turn's intents, and
    the game master's door changes (`doors`, in the order made; applied before their turn)."""

    encounter: str  # path as given; resolved relative to the save file when not absolute
    seed: int
    dice: str | None = None
    turns: tuple[tuple[Intent, ...], ...] = ()
    pc_sides: tuple[str, ...] = ()
    version: int = FORMAT_VERSION
    meta: dict[str, Any] = field(default_factory=dict)
    ref: EncounterRef = field(default_factory=EncounterRef)
    doors: tuple[DoorChange, ...] = ()
    gm: tuple[GmChange, ...] = ()  # the game master's ratings and losses changes (io.gm_changes)

    def to_dict(self) -> dict[str, Any]:
        out = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "encounter": self.encounter,
            "seed": self.seed,
            "dice": self.dice,
            "pc_sides": list(self.pc_sides),
            "turns": [[it.to_dict() for it in turn] for turn in self.turns],
            "meta": self.meta,
        }
        if self.doors:  # (written only when there are any: saves without doors read as they always did)
            out["doors"] = [c.to_dict() for c in self.doors]
        if self.gm:
            out["gm"] = [c.to_dict() for c in self.gm]
        if self.ref.to_dict():
            out["encounter_ref"] = self.ref.to_dict()
        return out

    def with_turn(self, intents: Sequence[Intent]) -> Save:
        return replace(self, turns=self.turns + (tuple(intents),), meta=dict(self.meta))

    def placed_at(self, save_file: str | Path) -> Save:
        """This save as written to `save_file`: an absolute encounter path becomes relative to the
        save's folder (kept absolute where no relative path exists, as across Windows drives), and
        the absolute one is kept in the reference as the place to look when the save moves alone."""
        p = Path(self.encounter)
        if not p.is_absolute():
            return self
        try:
            rel = os.path.relpath(p, Path(save_file).resolve().parent)
        except ValueError:
            rel = str(p)
        return replace(self, encounter=Path(rel).as_posix(), ref=replace(self.ref, absolute=str(p)))

    def encounter_candidates(self, save_file: str | Path | None = None) -> list[Path]:
        """Where the encounter may be, in the order tried: relative to the save's own folder (saves
        travel with their maps), where it was when saved, then as written (an absolute path, or
        relative to the working directory, as saves before the reference were read)."""
        p = Path(self.encounter)
        out = []
        if not p.is_absolute() and save_file is not None:
            out.append(Path(os.path.normpath(Path(save_file).parent / p)))
        if self.ref.absolute:
            out.append(Path(self.ref.absolute))
        out.append(p)
        return list(dict.fromkeys(out))

    def encounter_path(self, save_file: str | Path | None = None) -> Path:
        """The first place of `encounter_candidates` that exists (or the first, for the error)."""
        places = self.encounter_candidates(save_file)
        return next((c for c in places if why_unreadable(c) is None), places[0])

    def find_encounter(self, save_file: str | Path | None = None) -> Path:
        """`encounter_path`, or a LoadError that says which encounter this save wants, where it
        looked and how to fix it."""
        found = self.encounter_path(save_file)
        if why_unreadable(found) is None:
            return found
        places = self.encounter_candidates(save_file)
        name = Path(self.encounter).name
        wants = f"{self.ref.title!r} ({name}" if self.ref.title else f"({name}"
        wants += f", SHA-256 {self.ref.sha256[:12]}...)" if self.ref.sha256 else ")"
        raise LoadError.one(
            str(save_file or "<save>"), "encounter",
            f"the encounter {wants} is not where the save looks: {', '.join(str(c) for c in places)}",
            "move the save back into its folder beside the encounter's folder, as it was saved, or set "
            '"encounter" in the save to the encounter file\'s path (relative to the save\'s folder)')

    def encounter_changed(self, path: str | Path) -> bool:
        """Whether the encounter file differs from the one saved (its hash): the saved turns may
        then be refused or play out differently."""
        return self.ref.sha256 is not None and file_sha256(path) not in (None, self.ref.sha256)


_SQUARE_FIELDS = ("to", "throw")  # Intent fields holding one square, written as [x, y]


def intent_from_dict(d: dict[str, Any]) -> Intent:
    """The inverse of Intent.to_dict (the same keys the encounter TOML uses for scripted turns).
    Fields are taken by name, so a field added to Intent round-trips once to_dict writes it."""
    names = {f.name for f in fields(Intent)}
    unknown = set(d) - names
    if unknown:
        raise ValueError(f"unknown intent field(s) {', '.join(sorted(unknown))}")
    kw: dict[str, Any] = {"who": str(d["who"]), "use": str(d["use"])}
    for key, value in d.items():
        if key in ("who", "use") or value is None:
            continue
        if key in _SQUARE_FIELDS:
            kw[key] = (int(value[0]), int(value[1]))
        elif key == "path":
            kw[key] = tuple((int(p[0]), int(p[1])) for p in value)
        elif key == "also":
            kw[key] = tuple(str(a) for a in value)
        elif key == "modifiers":
            kw[key] = tuple(Modifier(int(m["value"]), str(m.get("reason", "GM ruling"))) for m in value)
        else:
            kw[key] = value
    return Intent(**kw)


def save_to_json(save: Save) -> str:
    return json.dumps(save.to_dict(), indent=1)


def write_save(save: Save, path: str | Path) -> Path:
    """Write atomically: temp file beside the target, fsync, then os.replace (atomic on POSIX and Windows).
    The temp file never outlives a failed write; one left by a killed process (no `finally` runs then)
    is removed by the next write of the same save. An absolute encounter path is written relative to
    the save (`Save.placed_at`)."""
    path = Path(path)
    save = save.placed_at(path)
    if path.parent.is_dir():
        remove_stale_temps(path)
    return write_file(path, save_to_json(save), "the save", "choose another place to save")


# A write takes milliseconds; a temp file this old was left by a write that was killed. Younger ones
# may belong to a write in progress (another window saving to the same file) and are left alone.
STALE_TEMP_SECONDS = 60.0


def remove_stale_temps(path: Path) -> list[Path]:
    """Delete the temp files `write_save` left beside `path` when killed mid-write; returns them."""
    removed = []
    now = time.time()
    for tmp in path.parent.glob(f".{glob.escape(path.name)}.*{TEMP_SUFFIX}"):
        try:
            st = tmp.lstat()
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > STALE_TEMP_SECONDS:
                tmp.unlink()
                removed.append(tmp)
        except OSError:  # gone meanwhile, or not ours to delete: the save itself matters more
            continue
    return removed


def read_save(path: str | Path) -> Save:
    """Read a save; every problem raises LoadError naming the file, the place and the fix. The file is
    read within the bounds of `io.limits` (MAX_SAVE_BYTES, MAX_DATA_NESTING, MAX_TURNS) and checked whole:
    what comes back replays, or fails only where the save does not fit its encounter (`replay_problem`)."""
    data = read_user_data(path, MAX_SAVE_BYTES, "save",
                          "a save of a long combat is a few hundred KB: restore a good copy", "json")
    return save_from_data(data, str(path))


def save_from_data(data: Any, file: str) -> Save:
    """A Save from parsed JSON, every field checked; raises LoadError listing the problems."""
    r = _SaveReader(file)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LoadError.one(file, "format", "not a battlemat save", f'a save starts with "format": "{FORMAT}"')
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= READ_VERSION:
        raise LoadError.one(file, "version", f"save format version {shown(version)} is not supported",
                            f"this battlemat reads versions 1 to {READ_VERSION}; update battlemat")
    unknown = sorted(set(data) - _SAVE_KEYS)
    if unknown:
        r.bad(unknown[0], f"unknown field {shown(unknown[0])}", f"a save holds {', '.join(sorted(_SAVE_KEYS))}")
    enc = data.get("encounter")
    if not isinstance(enc, str) or not enc.strip():
        r.bad("encounter", f"the encounter path is text, found {shown(enc)}", 'write "encounter": "maps/x.toml"')
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED <= seed <= MAX_SEED:
        r.bad("seed", f"the seed is a 64-bit whole number, found {shown(seed)}", "restore the seed the game had")
    dice = data.get("dice")
    if dice is not None:
        problem = dice_problem(dice)
        if problem is not None:
            r.bad("dice", *problem)
    pcs = r.texts(data.get("pc_sides", []), "pc_sides", "side names")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        r.bad("meta", f"meta is an object, found {shown(meta)}", 'write "meta": {}')
    turns = r.turns(data.get("turns", []))
    doors = r.doors(data.get("doors", []), len(turns))
    gm = gm_from_data(data.get("gm", []), len(turns), r.bad)
    if data.get("ai_draws") and dice != "none":
        r.bad("ai_draws", "this replay was recorded by an older battlemat, whose simulated players drew from the "
              "dice's random stream: its dice cannot be replayed as they fell",
              "record it again with battlemat simulate ENCOUNTER --replays DIR (or set \"dice\": \"none\")")
    if r.problems:
        raise LoadError(r.problems[:MAX_PROBLEMS_SHOWN] + r.more())
    return Save(enc, seed, dice, turns, tuple(pcs), FORMAT_VERSION, meta,  # type: ignore[arg-type]
                EncounterRef.from_dict(data.get("encounter_ref")), doors, gm)


_SAVE_KEYS = {"format", "version", "encounter", "seed", "dice", "pc_sides", "turns", "meta", "encounter_ref",
              "ai_draws", "doors", "gm"}
_DOOR_KEYS = ("turn", "door", "state")
MAX_DOOR_ID = 200  # characters of a door's id (a map's object id or name)
_INTENT_KEYS = {f.name for f in fields(Intent)}
MAX_PROBLEMS_SHOWN = 20  # a damaged save may be wrong everywhere: the first ones say enough


class _SaveReader:
    """Checks the parts of a save, collecting every problem with its place."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []
        self.rules = load_rules()

    def bad(self, place: str, message: str, fix: str = "") -> None:
        self.problems.append(Problem(self.file, place, message, fix))

    def more(self) -> list[Problem]:
        extra = len(self.problems) - MAX_PROBLEMS_SHOWN
        return [Problem(self.file, "", f"and {extra} more problems")] if extra > 0 else []

    def texts(self, value: Any, place: str, what: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.bad(place, f"{what} are a list of non-empty texts, found {shown(value)}", 'write them like ["heroes"]')
            return []
        return value

    def turns(self, value: Any) -> tuple[tuple[Intent, ...], ...]:
        if not isinstance(value, list):
            self.bad("turns", f"turns are a list of lists of intents, found {shown(value)}",
                     'write "turns": [[...], ...]')
            return ()
        if len(value) > MAX_TURNS:
            self.bad("turns", f"{len(value)} turns; battlemat replays at most {MAX_TURNS}",
                     "restore a good copy (battlemat/io/limits.py gives the reason)")
            return ()
        out = []
        for ti, raw in enumerate(value):
            place = f"turns[{ti}]"
            if not isinstance(raw, list):
                self.bad(place, f"a turn is a list of intents, found {shown(raw)}", "write it as [ {...}, ... ]")
                continue
            if len(raw) > MAX_CHARACTERS:
                self.bad(place, f"{len(raw)} intents; a turn has at most one per character ({MAX_CHARACTERS})",
                         "restore a good copy")
                continue
            intents = (self.intent(d, f"{place}[{ii}]") for ii, d in enumerate(raw))
            out.append(tuple(it for it in intents if it is not None))
        return tuple(out)

    def doors(self, value: Any, turns: int) -> tuple[DoorChange, ...]:
        """The game master's door changes: [{"turn": 3, "door": "d1", "state": "open"}, ...], each before
        a saved turn or the turn after the last (the one being declared). Whether the doors are on the
        encounter's map is checked against the encounter when the save is opened."""
        example = '"doors": [{"turn": 3, "door": "d1", "state": "open"}]'
        if not isinstance(value, list):
            self.bad("doors", f"doors is a list of door changes, found {shown(value)}", f"write {example}")
            return ()
        if len(value) > MAX_DOOR_CHANGES:
            self.bad("doors", f"{len(value)} door changes; battlemat replays at most {MAX_DOOR_CHANGES}",
                     "restore a good copy (battlemat/io/limits.py gives the reason)")
            return ()
        out = []
        for i, d in enumerate(value):
            place = f"doors[{i}]"
            if not isinstance(d, dict) or set(d) != set(_DOOR_KEYS):
                self.bad(place, f"a door change is {{turn, door, state}}, found {shown(d)}", f"write {example}")
                continue
            turn, door, state = d["turn"], d["door"], d["state"]
            before = len(self.problems)
            if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= turns + 1:
                self.bad(f"{place}.turn", f"a door change is made before a turn from 1 to {turns + 1} (the save has "
                         f"{turns} turns), found {shown(turn)}", "restore a good copy, or remove the change")
            if not isinstance(door, str) or not door or len(door) > MAX_DOOR_ID:
                self.bad(f"{place}.door", f"a door is named by its id on the map (text), found {shown(door)}",
                         'write "door": "d1"')
            if state not in DOOR_STATES:
                self.bad(f"{place}.state", f"a door is {', '.join(DOOR_STATES)}, found {shown(state)}",
                         'write "state": "open"')
            if len(self.problems) == before:
                out.append(DoorChange(turn, door, state))
        return tuple(sorted(out, key=lambda c: c.turn))  # (stable: the changes of a turn keep their order)

    def intent(self, d: Any, place: str) -> Intent | None:  # noqa: C901 - one check per field, in order
        """One intent, the inverse of Intent.to_dict; None (with the problems) when it is wrong."""
        if not isinstance(d, dict):
            self.bad(place, f"an intent is an object, found {shown(d)}", '{"who": "kwirt", "use": "Melee"}')
            return None
        before = len(self.problems)
        for key in sorted(set(d) - _INTENT_KEYS):
            self.bad(f"{place}.{key}", f"unknown intent field {shown(key)}", f"use: {', '.join(sorted(_INTENT_KEYS))}")
        kw: dict[str, Any] = {}
        for key in ("who", "use"):
            value = d.get(key)
            if not isinstance(value, str) or not value:
                self.bad(f"{place}.{key}", f"every intent needs {key} (text), found {shown(value)}",
                         '{"who": "kwirt", "use": "Melee"}')
            kw[key] = value
        use = kw["use"]
        if isinstance(use, str) and use:
            try:
                self.rules.half(use)  # any case, as the resolver reads it; "item" is a half too
            except RulesError:
                self.bad(f"{place}.use", *unknown_name("skill half", use, self.rules.halves))
        for key, value in d.items():
            where = f"{place}.{key}"
            if key in ("who", "use") or key not in _INTENT_KEYS or value is None:
                continue
            if key in ("to", "throw"):
                kw[key] = self.square(value, where)
            elif key == "path":
                kw[key] = self.path(value, where)
            elif key == "target":
                if not isinstance(value, str):
                    self.bad(where, f"a target is a character id, found {shown(value)}", 'write "target": "kwirt"')
                kw[key] = value
            elif key == "also":
                kw[key] = tuple(self.texts(value, where, "secondary targets"))
            elif key == "modifiers":
                kw[key] = self.modifiers(value, where)
            elif key == "share":
                if not isinstance(value, bool):
                    self.bad(where, f"share is true or false, found {shown(value)}", 'write "share": true')
                kw[key] = value
            elif key == "item":
                if not isinstance(value, str) or value not in self.rules.item_move:
                    self.bad(where, *unknown_name("item use (M1)", value, self.rules.item_move))
                kw[key] = value
        if len(self.problems) > before:
            return None
        return Intent(**kw)

    def square(self, value: Any, place: str) -> tuple[int, int] | None:
        if (isinstance(value, list) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_CELLS for v in value)):
            return (value[0], value[1])
        self.bad(place, f"a square is [x, y], two whole numbers from 0 to the map's size, found {shown(value)}",
                 "write it like [2, 3]")
        return None

    def path(self, value: Any, place: str) -> tuple[tuple[int, int], ...]:
        if not isinstance(value, list):
            self.bad(place, f"a path is a list of squares, found {shown(value)}", "write it like [[2, 3], [3, 3]]")
            return ()
        squares = [self.square(p, f"{place}[{i}]") for i, p in enumerate(value)]
        return tuple(sq for sq in squares if sq is not None)

    def modifiers(self, value: Any, place: str) -> tuple[Modifier, ...]:
        if not isinstance(value, list):
            self.bad(place, f"modifiers are a list, found {shown(value)}", 'write [{"value": 1, "reason": "..."}]')
            return ()
        out = []
        for i, m in enumerate(value):
            where = f"{place}[{i}]"
            if not isinstance(m, dict) or set(m) - {"value", "reason"}:
                self.bad(where, f"a modifier is {{value, reason}}, found {shown(m)}", '{"value": 1, "reason": "..."}')
                continue
            v, reason = m.get("value"), m.get("reason", "GM ruling")
            if isinstance(v, bool) or v not in (-2, -1, 1, 2) or not isinstance(v, int):
                self.bad(f"{where}.value", f"a situational modifier is -2, -1, +1 or +2 (S6), found {shown(v)}",
                         "use +-1 or +-2")
            elif not isinstance(reason, str):
                self.bad(f"{where}.reason", f"a reason is text, found {shown(reason)}", '"reason": "higher ground"')
            else:
                out.append(Modifier(v, reason))
        return tuple(out)


def gm_doors(match: Match, changes: Sequence[DoorChange], turn: int) -> list[Event]:
    """Apply the game master's door changes made before `turn` to a match (between its turns): its
    state's doors change and each change is a line of its log (a "door" event marked `gm`, as the
    resolver's own door events are typed). Returns those events."""
    out = []
    board = match.encounter.board
    for change in changes:
        if change.turn != turn or board is None:
            continue
        door = board.door(change.door)
        if door is None:
            continue
        before = match.state.doors.get(change.door, door.state)
        match.state = match.state.with_doors({change.door: change.state})
        ev = Event("door", turn, "declare", f"GM {_door_verb(before, change.state)} the {door.label}", (),
                   MappingProxyType({"door": change.door, "state": change.state, "gm": True}))
        match.log.append(ev)
        out.append(ev)
    return out


def _door_verb(before: str, after: str) -> str:
    """'opens', 'closes', 'locks', 'unlocks'... for a door going from `before` to `after`."""
    verbs = {("locked", "open"): "unlocks and opens", ("locked", "closed"): "unlocks",
             ("open", "locked"): "closes and locks"}
    return verbs.get((before, after)) or {"open": "opens", "closed": "closes", "locked": "locks"}.get(after, "sets")


def replay_problem(file: str, turn: int, intents: Sequence[Intent], exc: BattlematError) -> LoadError:
    """A saved turn its encounter refuses (an unknown character, an illegal move): the save's place
    and the fix, for whoever replays it."""
    who = getattr(exc, "who", None)
    index = next((i for i, it in enumerate(intents) if it.who == who), None)
    field = getattr(exc, "field", "") or ""
    place = f"turns[{turn}]" + (f"[{index}]" if index is not None else "") + (f".{field}" if field else "")
    return LoadError.one(file, place, f"the encounter refuses this saved turn: {exc}",
                         "the save does not fit its encounter (edited by hand, or the encounter changed since): "
                         "restore a good copy of the save, or the encounter the game was played with")


def encounter_problem(save: Save, file: str) -> LoadError | None:
    """Why the save's encounter cannot be opened, with the save's place; None when it can. A missing
    one names the encounter the save wants and where it looked (`Save.find_encounter`)."""
    why = why_unreadable(save.encounter_path(file))
    if why is None:
        return None
    if why[0] == "file not found":
        try:
            save.find_encounter(file)
        except LoadError as exc:
            return exc
    return LoadError.one(file, "encounter", f"the encounter {shown(save.encounter)}: {why[0]}",
                         f"{why[1]}; a relative path is read beside the save first, then from the working directory")
