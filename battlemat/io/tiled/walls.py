"""Walls between squares and doors drawn in Tiled (issue 29 item 3; core.walls: M1, M4, R4).

What is read, from every object layer:
- **walls**: polylines (a line is a polyline of two points) on an object layer named for collision
  (`conventions.is_collision_name`: "Walls", "Collision", ...) or whose class is `wall`, and
  polylines of class `wall` on any object layer (`terrain` included): each segment of the line is a
  `Wall`. Filled shapes (rectangles, ellipses, polygons, tile objects) on such layers stay blocked
  squares (`conventions`), as tile collision shapes do: a wall drawn as an area is an area.
- **doors**: objects of class `door` (Tiled 1.9+ `class`, older `type`; a tile object of a tile of
  class `door` gets it when the map is prepared, `adapter`) on any object layer. A line
  is the door from its first point to its last; a rectangle or tile object is its long centre line,
  so a thin rectangle drawn over a grid line is a door on that grid line (a square rectangle: its
  horizontal centre line). Its id is its name when no other door has that name, else
  "door<object id>"; its state comes from bool properties `open` and `locked` (both false by
  default): locked wins over open (a door both open and locked is locked, and `check` says so).
- Objects are placed in map pixels, the frame Tiled writes positions in; the walls are in board
  units (core.walls): the affine map from the board's pixel centres (`Board.centers`) to
  `geometry.centres`, which on square grids is pixels / tile size, on isometric maps the tile-height
  grid Tiled places objects on, on staggered maps the picture (its diamonds) and on hex maps the
  hexes' units. `units_to_picture` is the way back to the map's picture (Tiled's drawing, diamonds
  included), for drawing walls over it (`check --picture`; the window may use it too).
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections import Counter
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

import numpy as np

from battlemat.core import geometry
from battlemat.core.board import Board
from battlemat.core.walls import Door, Wall
from battlemat.io.errors import Problem
from battlemat.io.tiled.conventions import Understood, is_collision_name, layer_paths
from battlemat.io.tiled.document import Doc
from battlemat.io.tiled.projection import square_board
from battlemat.io.tiled.shapes import centre_line, is_door, line_points, object_class
from battlemat.io.tiled.terrain import TerrainReader, _properties

DOOR_PROPERTIES = ("open", "locked")
_OWN_LAYERS = ("terrain", "tokens")  # battlemat's own layers: never collision layers by their name
Segment = tuple[float, float, float, float]  # in map pixels


@dataclass
class Lines:
    """The walls and doors of a map as drawn, in map pixels, before the board they land on is made."""

    walls: list[tuple[str, Segment]] = field(default_factory=list)  # (place, segment)
    doors: list[tuple[str, str, str, Segment]] = field(default_factory=list)  # (id, name, state, segment)


def _wall_layer(layer: Element, groups: tuple[str, ...]) -> str:
    """Why a layer's polylines are walls ('' when they are not): its name or a group's, or its class."""
    name = layer.get("name", "")
    if (layer.get("class") or "").strip().lower() == "wall":
        return "class wall"
    if name.strip().lower() in _OWN_LAYERS:
        return ""
    for label in (name, *reversed(groups)):
        if is_collision_name(label):
            return "collision layer name" if label == name else f"in group {label!r}, a collision layer name"
    return ""


def read_lines(doc: Doc, reader: TerrainReader) -> Lines:
    """The walls and doors of a map; what was read goes to `reader.understood`, likely mistakes to
    `reader.lint` (`check`) and values that cannot be read to `reader.errors` (the map is refused)."""
    lines = Lines()
    door_objects: list[tuple[Element, str, Segment]] = []
    for layer, groups in layer_paths(doc.root):
        if layer.tag != "objectgroup":
            continue
        why = _wall_layer(layer, groups)
        walls = doors = 0
        for obj in layer.findall("object"):
            place = f"layer {layer.get('name', '')!r} object {obj.get('id', '?')}"
            if is_door(obj):
                segment = _door_segment(obj, place, reader)
                if segment is not None:
                    door_objects.append((obj, place, segment))
                    doors += 1
                continue
            if obj.find("polyline") is None or not (why or object_class(obj) == "wall"):
                continue
            pts = line_points(obj)
            found = [(ax, ay, bx, by) for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False)
                     if (ax, ay) != (bx, by) and all(map(math.isfinite, (ax, ay, bx, by)))]
            if not found:
                reader.lint.append(Problem(doc.file, place, "a wall line with fewer than two distinct points",
                                           "draw the wall as a line from one end to the other"))
            lines.walls += [(place, seg) for seg in found]
            walls += len(found)
        origin = f"object layer {layer.get('name', '')!r}"
        if walls:
            reader.understood.append(Understood("wall segments", walls,
                                                f"{origin} ({why or 'objects of class wall'})", unit="wall segment"))
        if doors:
            reader.understood.append(Understood("doors", doors, f"{origin} (class door)", unit="door"))
    names = [(obj.get("name") or "").strip() for obj, _, _ in door_objects]
    counts = Counter(names)
    taken: set[str] = set()
    for (obj, place, segment), name in zip(door_objects, names, strict=True):
        door_id = name if name and counts[name] == 1 else f"door{obj.get('id', len(taken))}"
        while door_id in taken:
            door_id += "'"
        taken.add(door_id)
        lines.doors.append((door_id, name, _door_state(obj, place, reader), segment))
    return lines


def _door_segment(obj: Element, place: str, reader: TerrainReader) -> Segment | None:
    file = reader.doc.file
    pts = line_points(obj)
    if pts:
        if len(pts) > 2:
            reader.lint.append(Problem(file, place, f"a door is one straight line; this one has {len(pts)} points, "
                                       "and battlemat uses its first and last",
                                       "draw the door as a line of two points"))
        ends = (pts[0], pts[-1])
    else:
        got = centre_line(obj)
        if got is None:
            reader.lint.append(Problem(file, place, "a door is a line or a rectangle; this one is neither, so it is "
                                       "no door", "draw the door as a line (or a thin rectangle) across the doorway"))
            return None
        ends = got
    (ax, ay), (bx, by) = ends
    if (ax, ay) == (bx, by) or not all(map(math.isfinite, (ax, ay, bx, by))):
        reader.lint.append(Problem(file, place, "a door of no length is no door",
                                   "draw the door as a line across the doorway"))
        return None
    return ax, ay, bx, by


def _door_state(obj: Element, place: str, reader: TerrainReader) -> str:
    """'open', 'closed' or 'locked' from the door's `open` and `locked` properties (locked wins)."""
    file = reader.doc.file
    values = {"open": False, "locked": False}
    for name, kind, text in _properties(obj):
        where = f"{place}.{name}"
        if name not in DOOR_PROPERTIES:
            close = difflib.get_close_matches(name.lower(), DOOR_PROPERTIES, n=1, cutoff=0.6)
            if close:
                reader.lint.append(Problem(file, where, f"unknown door property {name!r}",
                                           f"did you mean {close[0]!r}? A door's properties are open and locked "
                                           "(bool)"))
            continue
        low = text.strip().lower()
        if low not in ("true", "false"):
            reader.errors.append(Problem(file, where, f"a door's {name} is true or false, found {text!r}",
                                         f"make {name} a bool property (a checkbox in Tiled; the door class of "
                                         "maps/battlemat.tiled-project has it)"))
            continue
        if kind != "bool":
            reader.lint.append(Problem(file, where, f"{name} is a {kind} property; it should be a bool",
                                       f"in Tiled remove {name} and add it again with type bool"))
        values[name] = low == "true"
    if values["open"] and values["locked"]:
        reader.lint.append(Problem(file, place, "this door is both open and locked: it is read as locked",
                                   "untick open or locked"))
    return "locked" if values["locked"] else "open" if values["open"] else "closed"


# -- from map pixels to board units and back ------------------------------------------------------------
def _probe(board: Board) -> Board:
    """A 3 x 3 board of the same geometry (grid, stagger, tile sizes, projection): enough squares to fix
    an affine map whatever the board's own size (both parities of a hex stagger, three non-collinear
    centres)."""
    probe = Board.empty(3, 3, board.grid, stagger_axis=board.stagger_axis, stagger_index=board.stagger_index,
                        tile_width=board.tile_width, tile_height=board.tile_height,
                        hex_side_length=board.hex_side_length)
    return probe.projected(board.projection, board.origin) if board.projection else probe


def _affine(src: tuple[np.ndarray, np.ndarray], dst: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The 3 x 2 matrix M with [x, y, 1] @ M = the destination point, fitted by least squares (exact
    here: every layout Tiled draws is affine in its centres)."""
    a = np.column_stack([src[0].ravel(), src[1].ravel(), np.ones(src[0].size)])
    b = np.column_stack([dst[0].ravel(), dst[1].ravel()])
    return np.linalg.lstsq(a, b, rcond=None)[0]


def pixels_to_units(board: Board) -> np.ndarray:
    """The map from map pixels (where Tiled writes object positions) to board units."""
    probe = _probe(board)
    return _affine(probe.centers(), geometry.centres(probe))


def units_to_picture(board: Board) -> np.ndarray:
    """The map from board units to the map's picture (Tiled's drawing, `Board.screen_centers`)."""
    probe = _probe(board)
    return _affine(geometry.centres(probe), probe.screen_centers())


def apply(matrix: np.ndarray, x: float, y: float) -> tuple[float, float]:
    out = np.array([x, y, 1.0]) @ matrix
    return _tidy(float(out[0])), _tidy(float(out[1]))


def _tidy(v: float) -> float:
    """Round off what the fit leaves behind (1e-15), so a wall on a grid line is on it exactly."""
    r = round(v, 9)
    return r + 0.0


def clip(seg: tuple[float, float, float, float], box: tuple[float, float, float, float]) -> Wall | None:
    """The part of a segment inside a box (x0, y0, x1, y1), or None (Liang-Barsky): what lies off the
    map never matters, and a wall's cost to the board (`geometry.barrier_between`) is its box's."""
    ax, ay, bx, by = seg
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - box[0]), (dx, box[2] - ax), (-dy, ay - box[1]), (dy, box[3] - ay)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return Wall(_tidy(ax + t0 * dx), _tidy(ay + t0 * dy), _tidy(ax + t1 * dx), _tidy(ay + t1 * dy))


def place_lines(board: Board, lines: Lines, lint: list[Problem] | None = None) -> Board:
    """The board with the map's walls and doors, in board units; the parts of walls off the map (a
    square beyond its edge) are cut off, and a wall or door wholly off it is left out (said in `lint`)."""
    if not lines.walls and not lines.doors:
        return board
    m = pixels_to_units(board)
    ux, uy = geometry.centres(board)
    box = (float(ux.min()) - 1.5, float(uy.min()) - 1.5, float(ux.max()) + 1.5, float(uy.max()) + 1.5)

    def units(seg: Segment) -> Segment:
        return (*apply(m, seg[0], seg[1]), *apply(m, seg[2], seg[3]))

    walls: list[Wall] = []
    if lines.walls:  # all at once: a map may draw thousands
        px = np.array([seg for _, seg in lines.walls], float).reshape(-1, 4)
        ones = np.ones(len(px))
        ends = [np.column_stack([px[:, i], px[:, i + 1], ones]) @ m for i in (0, 2)]
        got = np.round(np.column_stack(ends), 9) + 0.0
        xs, ys = got[:, 0::2], got[:, 1::2]
        inside: np.ndarray = np.all((xs >= box[0]) & (xs <= box[2]) & (ys >= box[1]) & (ys <= box[3]), axis=1)
        flags = [bool(v) for v in inside.tolist()]
        for (place, _), row, whole in zip(lines.walls, got.tolist(), flags, strict=True):
            wall = Wall(*row) if whole else clip((row[0], row[1], row[2], row[3]), box)
            if wall is None:
                if lint is not None:
                    lint.append(Problem(board.source, place, "this wall line lies off the map",
                                        "move it onto the map, or delete it"))
                continue
            walls.append(wall)
    doors = []
    for door_id, name, state, seg in lines.doors:
        if clip(units(seg), box) is None:
            if lint is not None:
                lint.append(Problem(board.source, f"door {door_id!r}", "this door lies off the map",
                                    "move it onto the map, or delete it"))
            continue
        doors.append(Door(door_id, Wall(*units(seg)), state, name))
    placed = dataclasses.replace(board, walls=(*board.walls, *walls), doors=(*board.doors, *doors))
    return placed.projected(board.projection, board.origin) if board.projection else placed


def play_board(reader: TerrainReader, doc: Doc) -> Board:
    """The board the rules play on: the terrain reader's board of cells as squares (`square_board`),
    with the map's walls and doors."""
    cells = reader.board()
    return place_lines(square_board(cells, doc), read_lines(doc, reader), reader.lint)
