"""Universal VTT maps (.dd2vtt, .uvtt, .df2vtt) to a `Board` and its picture, read headless and safely.

The format (Megasploot's, written by Dungeondraft as .dd2vtt, DungeonFog as .df2vtt, Arkenforge and
others as .uvtt) is one JSON document; all coordinates are in grid squares:
- `format` (0.2, 0.3, ...), `resolution` {`map_origin` {x, y}, `map_size` {x, y}, `pixels_per_grid`}:
  the picture shows the squares from map_origin, map_size of them, pixels_per_grid pixels each;
  every coordinate in the file is absolute (a cropped Dungeondraft export has an origin like (2, 1)),
  so map_origin is subtracted: board unit (0, 0) is the picture's top-left corner.
- `line_of_sight`: walls, as polylines [[{x, y}, ...], ...], cut where portals sit;
  `objects_line_of_sight`: outlines of objects that block light (a pillar, a table);
  both become wall segments, one per pair of consecutive points.
- `portals` [{position, bounds [2 points], rotation, closed, freestanding}]: doors, between their two
  bounds, "portal1", "portal2", ... in file order, closed unless `closed` is false (Dungeondraft writes
  a window as a portal with closed false: battlemat has no windows, so it is an open door).
- `lights` [{position, range, intensity, color "aarrggbb", shadows}]: kept for the picture.
- `environment` {baked_lighting, ambient_light "aarrggbb"}: kept, for `check` to say.
- `image`: base64 PNG or WebP of the whole map (see `picture`).
Exporters differ (field lists in the README, "Universal VTT maps"): Dungeondraft writes every field
above; DungeonFog's walls are two-point segments and its origin is (0, 0); Arkenforge writes no
portals. Every field but `resolution` is optional.

Bounds (battlemat.io.limits): the file is at most MAX_UVTT_BYTES, read through the one bounded
reader (io.userfile); its braces and commas are counted before parsing; the picture's size is read
from its header before it is decoded (MAX_UVTT_PIXELS); walls and portals at most MAX_UVTT_WALLS.
Every problem is a Problem naming the file, the place (`line_of_sight[3][1].x`) and the fix.
A Universal VTT map has no blocked squares (its walls are lines between squares) and no terrain: every
square is open ground, and characters are placed with `at` in the encounter (no tokens).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from battlemat.core.board import Board
from battlemat.io.errors import LoadError, Problem
from battlemat.io.limits import (
    MAX_CELLS,
    MAX_UVTT_BYTES,
    MAX_UVTT_JSON_OBJECTS,
    MAX_UVTT_JSON_VALUES,
    MAX_UVTT_PIXELS_PER_GRID,
)
from battlemat.io.userfile import read_user_file
from battlemat.io.uvtt.fields import TOO_MANY_PROBLEMS, Fields
from battlemat.io.uvtt.picture import RE_EXPORT, Picture, image_bytes, read_header

UVTT_SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")
EXPORTERS = {".dd2vtt": "Dungeondraft", ".df2vtt": "DungeonFog", ".uvtt": "Universal VTT"}
KNOWN_FORMATS = (0.1, 0.2, 0.3, 1.0)  # what exporters write; another number is read, with a note


def is_uvtt(path: str | Path) -> bool:
    """Whether a map file is a Universal VTT file, by its suffix (the one test every reader asks)."""
    return Path(path).suffix.lower() in UVTT_SUFFIXES


@dataclass(frozen=True)
class UvttMap:
    """A Universal VTT map as battlemat reads it: its board, its picture (header read, pixels decoded
    on demand) and what else the file says."""

    board: Board
    picture: Picture | None
    format: float | None = None
    walls_from_objects: int = 0  # of board.walls, those from objects_line_of_sight
    ambient: str | None = None  # environment.ambient_light as #rrggbb
    baked_lighting: bool | None = None
    notes: list[Problem] = field(default_factory=list)

    @property
    def source(self) -> str:
        return self.board.source

    def summary(self) -> str:
        """What `battlemat check` says it understood, in one sentence."""
        b = self.board
        kind = EXPORTERS.get(Path(b.source).suffix.lower(), "Universal VTT")
        fmt = f", format {self.format:g}" if self.format is not None else ""
        walls = f"{len(b.walls)} wall{'s' * (len(b.walls) != 1)}"
        if self.walls_from_objects:
            walls += f" ({self.walls_from_objects} around objects)"
        doors = ", ".join(f"{d.id} {d.state}" for d in b.doors)
        doors = f"{len(b.doors)} door{'s' * (len(b.doors) != 1)}" + (f" ({doors})" if doors else "")
        lights = f"{len(b.lights)} light{'s' * (len(b.lights) != 1)}"
        pic = f"picture {self.picture.words}" if self.picture else "no picture"
        ambient = f"; ambient light {self.ambient}" if self.ambient else ""
        baked = "; lighting baked into the picture" if self.baked_lighting else ""
        return (f"read as Universal VTT ({kind}{fmt}): grid {b.width}x{b.height} squares of {b.tile_width} px; "
                f"{walls}, {doors}, {lights}; {pic}{ambient}{baked}")


def read_uvtt(path: str | Path) -> UvttMap:
    """Read a Universal VTT file. Raises LoadError listing its problems (at most TOO_MANY_PROBLEMS)."""
    file = str(path)
    data = read_user_file(path, MAX_UVTT_BYTES, "map",
                          "export it with fewer pixels per grid square, or split the map")
    doc = _parse(data, file)
    del data
    fields = Fields(file, RE_EXPORT)
    top = fields.table(doc, "the document")
    if top is None:
        raise LoadError(fields.problems)
    uvtt = _read(top, fields, file)
    if fields.problems:
        problems = fields.problems
        if len(problems) > TOO_MANY_PROBLEMS:
            more = len(problems) - TOO_MANY_PROBLEMS
            problems = [*problems[:TOO_MANY_PROBLEMS],
                        Problem(file, "", f"and {more} more problem{'s' * (more != 1)}", RE_EXPORT)]
        raise LoadError(problems)
    assert uvtt is not None
    return uvtt


def load_uvtt_board(path: str | Path) -> Board:
    return read_uvtt(path).board


def survey_uvtt(path: str | Path, *, decode: bool = True) -> tuple[Board | None, list[Problem]]:
    """`battlemat check` of a Universal VTT map: (its board or None, its problems then notes saying
    what was understood). With `decode`, the picture is decoded too (a header can be sound over
    pixels that are not)."""
    try:
        uvtt = read_uvtt(path)
    except LoadError as exc:
        return None, exc.problems
    problems: list[Problem] = []
    if decode and uvtt.picture is not None:
        try:
            uvtt.picture.decode()
        except ValueError as exc:
            problems.append(Problem(str(path), "image", str(exc), RE_EXPORT))
    notes = [Problem(str(path), "map", uvtt.summary(), note=True), *uvtt.notes]
    return (None if problems else uvtt.board), problems + notes


def _parse(data: bytes, file: str) -> Any:
    """The JSON document, its size in objects and values bounded in the bytes before parsing."""
    braces, commas = data.count(b"{"), data.count(b",")
    if braces > MAX_UVTT_JSON_OBJECTS or commas > MAX_UVTT_JSON_VALUES:
        what = f"{braces:,} objects" if braces > MAX_UVTT_JSON_OBJECTS else f"{commas:,} values"
        raise LoadError.one(file, "", f"the JSON holds {what}, more than a Universal VTT map battlemat reads "
                            f"({MAX_UVTT_JSON_OBJECTS:,} objects, {MAX_UVTT_JSON_VALUES:,} values)",
                            "simplify the map's walls (caves and round objects make many points), or split the map")
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise LoadError.one(file, f"line {line}", "not UTF-8 text", RE_EXPORT) from None
    except json.JSONDecodeError as exc:
        raise LoadError.one(file, f"line {exc.lineno}, column {exc.colno}", f"not valid JSON: {exc.msg}",
                            RE_EXPORT) from None
    except (ValueError, RecursionError) as exc:
        raise LoadError.one(file, "", f"not JSON battlemat can read ({type(exc).__name__})", RE_EXPORT) from None


def _read(top: dict[str, Any], f: Fields, file: str) -> UvttMap | None:
    """The board and picture of a parsed document; None (with f.problems) when it cannot be built."""
    fmt = None
    notes: list[Problem] = []
    if "format" in top:
        fmt = f.number(top["format"], "format", minimum=0)
        if fmt is not None and fmt not in KNOWN_FORMATS:
            notes.append(Problem(file, "format", f"format {fmt:g} is newer or older than the 0.2-1.0 battlemat "
                                 "knows; read as the fields it knows", note=True))
    found, res = f.required(top, "resolution", "")
    res = f.table(res, "resolution") if found else None
    size = ppg = None
    if res is not None:
        if "map_origin" in res:
            f.origin = f.point(res["map_origin"], "resolution.map_origin", shift=False) or (0.0, 0.0)
        found, size_value = f.required(res, "map_size", "resolution")
        size = f.point(size_value, "resolution.map_size", shift=False) if found else None
        found, ppg_value = f.required(res, "pixels_per_grid", "resolution")
        ppg = f.number(ppg_value, "resolution.pixels_per_grid", minimum=1) if found else None
    board_size = _board_size(f, size, ppg)
    walls = f.walls(top.get("line_of_sight", []), "line_of_sight")
    objects = f.walls(top.get("objects_line_of_sight", []), "objects_line_of_sight")
    doors = f.doors(top.get("portals", []))
    lights = f.lights(top.get("lights", []))
    ambient, baked = _environment(f, top.get("environment"))
    picture = _picture(f, top.get("image"), size, ppg if board_size else None, notes)  # bad sizes: said once
    notes += [Problem(file, f"portals[{int(d.id[6:]) - 1}]", f"{d.id} is open (closed: false): Dungeondraft writes "
                      "windows so; battlemat reads it as an open door", "close it in the window in GM mode if it "
                      "is a window", note=True) for d in doors if d.state == "open"]
    if not walls and not objects and not doors:
        notes.append(Problem(file, "line_of_sight", "this map has no walls: every square is open ground, and sight "
                             "and reach run through whatever its picture shows", "draw walls in the map editor and "
                             "export again, if it has any", note=True))
    if f.problems or board_size is None:
        return None
    width, height, tile = board_size
    board = Board(width, height, "square", tile_width=tile, tile_height=tile, source=file,
                  walls=tuple(walls + objects), doors=tuple(doors), lights=tuple(lights))
    return UvttMap(board, picture, fmt, len(objects), ambient, baked, notes)


def _board_size(f: Fields, size: tuple[float, float] | None, ppg: float | None) -> tuple[int, int, int] | None:
    """(width, height, pixels a square): whole squares (a part square at the edge counts as one)."""
    if size is None or ppg is None:
        return None
    if ppg != int(ppg) or ppg > MAX_UVTT_PIXELS_PER_GRID:
        f.bad("resolution.pixels_per_grid", f"expected a whole number of pixels up to {MAX_UVTT_PIXELS_PER_GRID}, "
              f"found {ppg:g}")
        return None
    if size[0] < 1 or size[1] < 1:
        f.bad("resolution.map_size", f"the map is {size[0]:g}x{size[1]:g} squares: it needs at least one")
        return None
    width, height = math.ceil(size[0] - 1e-6), math.ceil(size[1] - 1e-6)
    if width * height > MAX_CELLS:
        f.bad("resolution.map_size", f"{width}x{height} squares, more than the {MAX_CELLS:,} battlemat plays",
              "split the map")
        return None
    return width, height, int(ppg)


def _environment(f: Fields, env: Any) -> tuple[str | None, bool | None]:
    if env is None:
        return None, None
    obj = f.table(env, "environment")
    if obj is None:
        return None, None
    baked = obj.get("baked_lighting")
    if baked is not None and not isinstance(baked, bool):
        f.bad("environment.baked_lighting", "expected true or false")
        baked = None
    ambient = f.colour(obj["ambient_light"], "environment.ambient_light") if "ambient_light" in obj else None
    return ambient, baked


def _picture(f: Fields, image: Any, size: tuple[float, float] | None, ppg: float | None,
             notes: list[Problem]) -> Picture | None:
    """The picture's header, checked against the map's size; None (with a note) when there is none."""
    file = f.file
    if image is None or image == "":
        notes.append(Problem(file, "image", "the file holds no picture: the board is drawn plain",
                             "export it with its picture to see the map", note=True))
        return None
    if not isinstance(image, str):
        f.bad("image", "expected the picture as a base64 string")
        return None
    try:
        data = image_bytes(image)
    except ValueError as exc:
        f.bad("image", f"the picture cannot be read: {exc}")
        return None
    picture, problems = read_header(data, file, "image")
    f.problems.extend(problems)
    if picture is None or size is None or ppg is None:
        return picture
    want = (round(size[0] * ppg), round(size[1] * ppg))
    if abs(picture.width - want[0]) > 1 or abs(picture.height - want[1]) > 1:  # an exporter's rounding pixel
        f.bad("image", f"the picture is {picture.width}x{picture.height} px, but map_size {size[0]:g}x{size[1]:g} "
              f"squares at {ppg:g} pixels_per_grid make {want[0]}x{want[1]} px: the walls would not line up",
              "export the map again (its picture and walls together), or correct resolution.pixels_per_grid")
    return picture


__all__ = ["EXPORTERS", "UVTT_SUFFIXES", "Picture", "UvttMap", "is_uvtt", "load_uvtt_board", "read_uvtt", "survey_uvtt"]
