"""An encounter's board drawn inline: a `[map]` table of text rows, one character a square (`LEGEND`,
extended by `legend`), with `grid = "hex"` and its stagger, and walls and doors between squares as
lines (`walls`, `doors`: core.walls). Rule cases, lessons and any encounter may draw their board this
way instead of naming a Tiled map (`io.encounter.load_encounter` reads both)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np

from battlemat.core.board import Board, Hazard, parse_directions
from battlemat.core.encounter import Encounter
from battlemat.core.errors import RulesError
from battlemat.core.rules import Rules
from battlemat.core.walls import DOOR_STATES, Door, Wall
from battlemat.io.errors import LoadError, Problem
from battlemat.io.limits import MAX_CELLS
from battlemat.io.maps import place_characters, placement_problems
from battlemat.io.tiled.terrain import INT_LIMITS, PRESETS, TERRAIN_NAMES


def attach_inline(enc: Encounter, m: Any, file: str) -> Encounter:
    """`enc` on the board its `[map]` table draws, its characters placed on it (as a map file's would be:
    nobody off the map, on a wall, in a pit or on someone). Raises LoadError listing every problem."""
    r = _Problems(file, enc.rules)
    board = read_board(r, r.table(m, "map"))
    if board is not None:
        r.problems += placement_problems(enc, board, file)
    if board is None or r.problems:
        raise LoadError(r.problems)
    return place_characters(enc, board)


class ProblemReader:
    """Collects every problem of one file, each with its place and its fix: the base of the readers of
    rule cases, lessons and inline maps (the encounter's reader has its own, with the rules' checks)."""

    table_fix = "write it as [table] or { key = value }"

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def bad(self, place: str, message: str, fix: str = "") -> None:
        self.problems.append(Problem(self.file, place, message, fix))

    def table(self, obj: Any, place: str) -> Mapping[str, Any]:
        if obj is None:
            return {}
        if not isinstance(obj, Mapping):
            self.bad(place, f"expected a table, found {obj!r}", self.table_fix)
            return {}
        return obj

    def unknown(self, obj: Mapping[str, Any], allowed: Sequence[str], place: str) -> None:
        for key in obj:
            if key not in allowed:
                self.bad(f"{place}.{key}", f"unknown field {key!r}", f"use one of: {', '.join(allowed)}")


class _Problems(ProblemReader):
    """A Reader that only collects problems (the encounter itself is read already)."""

    table_fix = "write it as [map] with rows = [...]"

    def __init__(self, file: str, rules: Rules) -> None:
        super().__init__(file)
        self.rules = rules


class Reader(Protocol):
    """What reads a file and collects its problems (the encounter's, a case's and a lesson's readers)."""

    file: str
    rules: Rules

    def bad(self, place: str, message: str, fix: str = "") -> None: ...

    def table(self, obj: Any, place: str) -> Mapping[str, Any]: ...

    def unknown(self, obj: Mapping[str, Any], allowed: Sequence[str], place: str) -> None: ...


# One character a square in a `[map]`: a terrain preset (io.tiled.terrain.PRESETS) or properties.
LEGEND: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    ".": {},
    "#": {"class": "wall"},
    "~": {"class": "rubble"},
    "%": {"class": "underbrush"},
    "O": {"class": "pit"},
    "T": {"class": "trap"},
    "^": {"difficult_dirs": "N"},
    ">": {"difficult_dirs": "E"},
    "v": {"difficult_dirs": "S"},
    "<": {"difficult_dirs": "W"},
    "+": {"cover": 1},
    "*": {"cover": 2},
    "=": {"opaque": True},
    **{str(n): {"level": n} for n in range(1, 10)},
})
_ARRAYS = ("blocked", "difficult", "opaque", "pit", "difficult_dirs", "level", "cover")  # Board's terrain arrays
_BOOLS = ("blocked", "difficult", "opaque", "pit", "mechanical")
_HEX_TILES = {"x": (64, 56), "y": (56, 64)}  # flat-topped columns, pointy-topped rows (Board.direction)


def read_board(r: Reader, m: Mapping[str, Any]) -> Board | None:
    """A board from text rows: each character is a square of the legend (LEGEND and `legend`)."""
    r.unknown(m, ("rows", "legend", "grid", "stagger_axis", "stagger_index", "walls", "doors"), "map")
    rows = m.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(s, str) and s for s in rows):
        r.bad("map.rows", "rows are a list of text lines, one character a square", 'write rows = ["....", ".#.."]')
        return None
    width, height = len(rows[0]), len(rows)
    if any(len(s) != width for s in rows) or width * height > MAX_CELLS:
        r.bad("map.rows", "every row has the same length, and the map stays small", "pad the rows to one width")
        return None
    legend = {k: dict(v) for k, v in LEGEND.items()}
    for key, spec in r.table(m.get("legend"), "map.legend").items():
        if not isinstance(key, str) or len(key) != 1:
            r.bad(f"map.legend.{key}", "a legend key is one character", 'write "H" = { level = 1 }')
            continue
        legend[key] = dict(r.table(spec, f"map.legend.{key}"))
    specs: dict[str, dict[str, Any]] = {}
    for ch in sorted({ch for row in rows for ch in row}):
        if ch not in legend:
            r.bad("map.rows", f"{ch!r} is not in the legend", f"add it: [map.legend] \"{ch}\" = {{ ... }}")
        elif (spec := _terrain(r, legend[ch], f"map.legend.{ch!r}")) is not None:
            specs[ch] = spec
    if any(ch not in specs for row in rows for ch in row):
        return None
    return _arrays(r, m, rows, specs)


def _terrain(r: Reader, spec: Mapping[str, Any], place: str) -> dict[str, Any] | None:
    """One legend entry as terrain values: its class's preset, then its own properties."""
    values: dict[str, Any] = {}
    cls = spec.get("class")
    if cls is not None:
        if cls not in PRESETS:
            r.bad(f"{place}.class", f"unknown terrain class {cls!r}", f"use one of: {', '.join(PRESETS)}")
            return None
        values.update(PRESETS[cls])
        values["feature"] = cls
    for key, value in spec.items():
        if key == "class":
            continue
        if key not in TERRAIN_NAMES:
            r.bad(f"{place}.{key}", f"unknown terrain property {key!r}", f"use class or: {', '.join(TERRAIN_NAMES)}")
            return None
        values[key] = value
    for key, value in values.items():
        low, high = INT_LIMITS.get(key, (0, 0))
        if key in _BOOLS and not isinstance(value, bool):
            r.bad(f"{place}.{key}", f"{key} is true or false, found {value!r}", f"write {key} = true")
            return None
        if key in INT_LIMITS and (isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high):
            r.bad(f"{place}.{key}", f"{key} is a whole number {low}..{high}, found {value!r}", f"write {key} = {low}")
            return None
    try:
        if "difficult_dirs" in values:
            values["difficult_dirs"] = parse_directions(str(values["difficult_dirs"]))
        if "hazard" in values:
            hz = Hazard.parse(str(values["hazard"]), values.get("harm", 1), bool(values.pop("mechanical", False)))
            values["hazard"] = Hazard(hz.text, tuple((r.rules.canonical(s), n) for s, n in hz.requirements), hz.harm,
                                      hz.mechanical, str(cls or ""))
    except (ValueError, RulesError) as exc:
        r.bad(place, str(exc), 'e.g. difficult_dirs = "N", hazard = "Block/Dodge 4 or Perception 3", harm = 2')
        return None
    return values


MAX_LINES = 10_000  # walls and doors an inline map may list


def _lines(r: Reader, m: Mapping[str, Any], w: int, h: int) -> dict[str, Any] | None:
    """The walls between squares and the doors of `[map]` (core.walls): `walls = [[x1, y1, x2, y2], ...]`
    in squares (square (x, y) spans x..x+1 and y..y+1, so [4, 0, 4, 3] runs between columns 3 and 4),
    and `doors = [{ id = "cellar", at = [4, 3, 4, 4], state = "closed", name = "cellar door" }]`."""
    fix = "write walls = [[4, 0, 4, 3]]: a line from (4, 0) to (4, 3), in squares"
    walls, doors = m.get("walls", []), m.get("doors", [])
    ok = True

    def segment(v: Any, place: str, what: str) -> Wall | None:
        if (not isinstance(v, list) or len(v) != 4
                or not all(isinstance(n, int | float) and not isinstance(n, bool) for n in v)):
            r.bad(place, f"{what} is four numbers [x1, y1, x2, y2], found {v!r}", fix)
            return None
        if not all(-1 <= v[i] <= (w, h)[i % 2] + 1 for i in range(4)):
            r.bad(place, f"{what} {v} lies off the {w}x{h} map", "keep its ends within the map's squares")
            return None
        return Wall(*(float(n) for n in v))

    if not isinstance(walls, list) or not isinstance(doors, list) or len(walls) + len(doors) > MAX_LINES:
        r.bad("map.walls", f"walls and doors are lists of at most {MAX_LINES} lines", fix)
        return None
    out_walls: list[Wall] = []
    for i, v in enumerate(walls):
        seg = segment(v, f"map.walls[{i}]", "a wall")
        ok = ok and seg is not None
        if seg is not None:
            out_walls.append(seg)
    out_doors: list[Door] = []
    for i, d in enumerate(doors):
        place = f"map.doors[{i}]"
        t = r.table(d, place)
        r.unknown(t, ("id", "at", "state", "name"), place)
        seg = segment(t.get("at"), f"{place}.at", "a door's line")
        state, did, name = t.get("state", "closed"), t.get("id", f"door{i + 1}"), t.get("name", "")
        if state not in DOOR_STATES or not isinstance(did, str) or not did or not isinstance(name, str):
            r.bad(place, f"a door has an id (text), a state ({', '.join(DOOR_STATES)}) and a name; found {dict(t)!r}",
                  'write { id = "cellar", at = [4, 3, 4, 4], state = "closed" }')
            ok = False
        elif did in {o.id for o in out_doors}:
            r.bad(f"{place}.id", f"two doors are called {did!r}", "give each door its own id")
            ok = False
        elif seg is not None:
            out_doors.append(Door(did, seg, state, name))
        ok = ok and seg is not None
    return {"walls": tuple(out_walls), "doors": tuple(out_doors)} if ok else None


def _arrays(r: Reader, m: Mapping[str, Any], rows: list[str], specs: Mapping[str, dict[str, Any]]) -> Board | None:
    h, w = len(rows), len(rows[0])
    arrays: dict[str, Any] = {  # Board's terrain fields, by name
        "blocked": np.zeros((h, w), bool), "difficult": np.zeros((h, w), bool), "opaque": np.zeros((h, w), bool),
        "pit": np.zeros((h, w), bool), "difficult_dirs": np.zeros((h, w), np.uint8),
        "level": np.zeros((h, w), np.int16), "cover": np.zeros((h, w), np.uint8),
        "hazard": np.full((h, w), -1, np.int16), "feature": np.full((h, w), -1, np.int16),
    }
    hazards: list[Hazard] = []
    features: list[str] = []
    lines = _lines(r, m, w, h)
    if lines is None:
        return None
    arrays.update(lines)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            for key, value in specs[ch].items():
                if key in _ARRAYS:
                    arrays[key][y, x] = value
                elif key == "hazard":
                    if value not in hazards:
                        hazards.append(value)
                    arrays["hazard"][y, x] = hazards.index(value)
                elif key == "feature":
                    if value not in features:
                        features.append(value)
                    arrays["feature"][y, x] = features.index(value)
    grid = m.get("grid", "square")
    axis, index = m.get("stagger_axis", "x"), m.get("stagger_index", "odd")
    try:
        if grid == "hex":
            tw, th = _HEX_TILES.get(axis, (64, 56))
            return Board(w, h, "hex", stagger_axis=axis, stagger_index=index, tile_width=tw, tile_height=th,
                         hex_side_length=32, hazards=tuple(hazards), features=tuple(features), source=r.file, **arrays)
        return Board(w, h, grid, hazards=tuple(hazards), features=tuple(features), source=r.file, **arrays)
    except (ValueError, TypeError) as exc:
        r.bad("map", str(exc), 'grid is "square" or "hex"; a hex map names stagger_axis ("x"/"y") and stagger_index')
        return None
