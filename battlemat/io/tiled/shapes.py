"""Which squares a Tiled object covers: terrain areas and token positions, on square and hex grids.

Terrain objects are rectangles, ellipses, polygons or tile objects, possibly rotated; a square
belongs to one when its centre lies inside. Each object is tested only against the squares in its
own bounding box (`window`), so an object costs its own area, not the map's. Tokens stand on the
square nearest to the centre of their shape.
"""

from __future__ import annotations

import math
from xml.etree.ElementTree import Element

import numpy as np

from battlemat.core.board import Board


class ObjectSquares:
    """The squares under objects on one board's geometry (its size, grid and tile size)."""

    def __init__(self, geometry: Board) -> None:
        self.geometry = geometry
        self._centers: tuple[np.ndarray, np.ndarray] | None = None

    def centers(self) -> tuple[np.ndarray, np.ndarray]:
        if self._centers is None:
            self._centers = self.geometry.centers()
        return self._centers

    def window(self, x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice]:
        """Rows and columns whose centres may lie in a pixel box, so an object costs its own area, not
        the map's (one cell of margin covers the hex stagger)."""
        geo = self.geometry
        pitch_x, pitch_y = float(geo.tile_width), float(geo.tile_height)
        if geo.grid == "hex":
            tw, th, side = geo.tile_width & ~1, geo.tile_height & ~1, geo.hex_side_length
            if geo.stagger_axis == "x":
                pitch_x = float((tw - side) // 2 + side)
            else:
                pitch_y = float((th - side) // 2 + side)
        pitch_x, pitch_y = max(pitch_x, 1.0), max(pitch_y, 1.0)

        def span(lo: float, hi: float, pitch: float, n: int) -> slice:
            first = max(0, math.floor(lo / pitch) - 1)
            last = min(n, math.ceil(hi / pitch) + 1)
            return slice(first, max(first, last))

        return span(y0, y1, pitch_y, geo.height), span(x0, x1, pitch_x, geo.width)

    def mask(self, obj: Element) -> tuple[tuple[slice, slice], np.ndarray] | None:
        """Squares whose centres lie inside an object's area (rotation included), as a window of the
        board and the mask within it; None when the object has no area (polylines, text)."""
        if obj.find("polyline") is not None or obj.find("text") is not None:
            return None
        x, y = float(obj.get("x", "0")), float(obj.get("y", "0"))
        ow, oh = float(obj.get("width", "0")), float(obj.get("height", "0"))
        poly = obj.find("polygon")
        if obj.find("point") is not None or (ow <= 0 and oh <= 0 and poly is None):
            sq = self.nearest_square(x, y)
            if sq is None:
                return (slice(0, 0), slice(0, 0)), np.zeros((0, 0), bool)
            return (slice(sq[1], sq[1] + 1), slice(sq[0], sq[0] + 1)), np.ones((1, 1), bool)
        pts: list[tuple[float, ...]] = []
        if poly is not None:
            pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
            corners = pts or [(0.0, 0.0)]
        elif obj.get("gid"):  # tile objects hang from their bottom-left corner
            corners = [(0.0, -oh), (ow, -oh), (0.0, 0.0), (ow, 0.0)]
        else:
            corners = [(0.0, 0.0), (ow, 0.0), (0.0, oh), (ow, oh)]
        rot = math.radians(float(obj.get("rotation", "0")))
        cos, sin = math.cos(rot), math.sin(rot)
        world = [(x + px * cos - py * sin, y + px * sin + py * cos) for px, py, *_ in corners]
        window = self.window(min(p[0] for p in world), min(p[1] for p in world),
                              max(p[0] for p in world), max(p[1] for p in world))
        cx, cy = self.centers()
        return window, points_inside(obj, cx[window], cy[window])

    def coverage(self, obj: Element, samples: int) -> tuple[tuple[slice, slice], np.ndarray] | None:
        """The share of each square an object's area covers, as a window and fractions in it, from
        `samples` x `samples` points spread evenly over each square (square grids; on hexes the
        centre alone); None when the object has no area. With samples=1 this is `mask`."""
        area = self.mask(obj)
        if area is None or samples <= 1 or self.geometry.grid != "square":
            return None if area is None else (area[0], area[1].astype(float))
        window = area[0]
        if obj.find("point") is not None or area[1].size == 0 or (
                float(obj.get("width", "0")) <= 0 and float(obj.get("height", "0")) <= 0
                and obj.find("polygon") is None):
            return window, area[1].astype(float)
        cx, cy = self.centers()
        px, py = cx[window], cy[window]
        tw, th = float(self.geometry.tile_width), float(self.geometry.tile_height)
        total = np.zeros(px.shape, float)
        for i in range(samples):
            for j in range(samples):
                dx, dy = ((i + 0.5) / samples - 0.5) * tw, ((j + 0.5) / samples - 0.5) * th
                total += points_inside(obj, px + dx, py + dy)
        return window, total / (samples * samples)

    def nearest_square(self, px: float, py: float) -> tuple[int, int] | None:
        """The square under a pixel position, or None when it is off the map."""
        geo = self.geometry
        if geo.grid == "square":
            if px < 0 or py < 0:
                return None
            sx, sy = int(px // geo.tile_width), int(py // geo.tile_height)
            return (sx, sy) if geo.inside((sx, sy)) else None
        reach = max(geo.tile_width, geo.tile_height)
        rows, cols = self.window(px - reach, py - reach, px + reach, py + reach)
        cx, cy = self.centers()
        d = (cx[rows, cols] - px) ** 2 + (cy[rows, cols] - py) ** 2
        if d.size == 0:
            return None
        iy, ix = np.unravel_index(int(np.argmin(d)), d.shape)
        if math.sqrt(float(d[iy, ix])) > reach * 0.75:
            return None
        return int(ix) + (cols.start or 0), int(iy) + (rows.start or 0)


def points_inside(obj: Element, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Whether points (pixels, in the frame the object's x and y are written in) lie inside an
    object's area: a rectangle, ellipse, polygon or tile object, rotation included. Callers have
    set aside objects without an area (points, polylines, text)."""
    x, y = float(obj.get("x", "0")), float(obj.get("y", "0"))
    ow, oh = float(obj.get("width", "0")), float(obj.get("height", "0"))
    poly = obj.find("polygon")
    rot = math.radians(float(obj.get("rotation", "0")))
    lx, ly = px - x, py - y  # the points in the object's own frame, unrotated
    if rot:
        cos, sin = math.cos(rot), math.sin(rot)
        lx, ly = lx * cos + ly * sin, -lx * sin + ly * cos
    if poly is not None:
        pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
        return inside_polygon(lx, ly, pts)
    if obj.get("gid"):
        ly = ly + oh
    if obj.find("ellipse") is not None:
        if ow <= 0 or oh <= 0:
            return np.zeros(np.shape(lx), bool)
        return ((lx - ow / 2) / (ow / 2)) ** 2 + ((ly - oh / 2) / (oh / 2)) ** 2 <= 1.0
    return (lx >= 0) & (lx < ow) & (ly >= 0) & (ly < oh)


def reference_point(obj: Element) -> tuple[float, float]:
    """Where a token stands: the centre of its shape (tile objects hang from their bottom-left corner)."""
    x, y = float(obj.get("x", "0")), float(obj.get("y", "0"))
    w, h = float(obj.get("width", "0")), float(obj.get("height", "0"))
    poly = obj.find("polygon")
    if poly is None:
        poly = obj.find("polyline")
    if poly is not None and poly.get("points"):
        pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
        return x + sum(p[0] for p in pts) / len(pts), y + sum(p[1] for p in pts) / len(pts)
    if obj.find("point") is not None:
        return x, y
    rot = math.radians(float(obj.get("rotation", "0")))
    ox, oy = (w / 2, -h / 2) if obj.get("gid") else (w / 2, h / 2)
    return x + ox * math.cos(rot) - oy * math.sin(rot), y + ox * math.sin(rot) + oy * math.cos(rot)


def inside_polygon(px: np.ndarray, py: np.ndarray, pts: list[tuple[float, ...]]) -> np.ndarray:
    """Even-odd rule, vectorized over all square centres."""
    inside = np.zeros(px.shape, bool)
    if len(pts) < 3:
        return inside
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i][0], pts[i][1]
        xj, yj = pts[j][0], pts[j][1]
        crosses = (yi > py) != (yj > py)
        with np.errstate(divide="ignore", invalid="ignore"):
            x_at = (xj - xi) * (py - yi) / (yj - yi) + xi
        inside ^= crosses & (px < x_at)
        j = i
    return inside


# -- lines: walls and doors (issue 29) ---------------------------------------------------------------
def object_class(obj: Element) -> str:
    """An object's class in lowercase: Tiled 1.9+ writes `class`, older versions `type`."""
    return (obj.get("class") or obj.get("type") or "").strip().lower()


def is_door(obj: Element) -> bool:
    """An object of class `door` (on any object layer): a door, never terrain, a token or a wall."""
    return object_class(obj) == "door"


def line_points(obj: Element) -> list[tuple[float, float]]:
    """A polyline's points in map pixels (the frame object positions are written in), rotation
    included; [] when the object is no polyline."""
    line = obj.find("polyline")
    if line is None:
        return []
    x, y = float(obj.get("x", "0")), float(obj.get("y", "0"))
    rot = math.radians(float(obj.get("rotation", "0")))
    cos, sin = math.cos(rot), math.sin(rot)
    pts = [tuple(map(float, p.split(","))) for p in (line.get("points") or "").split()]
    return [(x + px * cos - py * sin, y + px * sin + py * cos) for px, py, *_ in pts]


def centre_line(obj: Element) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The long centre line of a rectangle or tile object (a door drawn as a thin rectangle over a grid
    line gives that grid line), in map pixels, rotation included; None for other shapes."""
    if any(obj.find(tag) is not None for tag in ("polyline", "polygon", "ellipse", "point", "text")):
        return None
    w, h = float(obj.get("width", "0") or 0), float(obj.get("height", "0") or 0)
    if w <= 0 and h <= 0:
        return None
    top = -h if obj.get("gid") else 0.0  # tile objects hang from their bottom-left corner
    ends = [(0.0, top + h / 2), (w, top + h / 2)] if w >= h else [(w / 2, top), (w / 2, top + h)]
    x, y = float(obj.get("x", "0")), float(obj.get("y", "0"))
    rot = math.radians(float(obj.get("rotation", "0")))
    cos, sin = math.cos(rot), math.sin(rot)
    (ax, ay), (bx, by) = ((x + px * cos - py * sin, y + px * sin + py * cos) for px, py in ends)
    return (ax, ay), (bx, by)
