"""Infinite maps made finite: the box of the used chunks becomes the board.

An infinite Tiled map has no edges; its tile layers are stored in chunks at tile coordinates that may
be negative, and its objects sit in pixels around the same origin. A battle needs edges, so the
board is the bounding box of the chunks that hold at least one tile, over all tile layers. Each
layer is rewritten as one finite layer of that box (plain Base64, as `checks` writes layers), the
map's width and height become the box's, and every object and image layer is moved by the box's
origin in pixels, so tokens and terrain areas stay on the squares they were drawn on. On hex maps the
stagger index is flipped when the box starts on a staggered column (x) or row (y), so each hex
keeps its place. `check` says so in a note. The box is bounded by MAX_CELLS like any map, and each
chunk's data like a layer's (bounded inflation).
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.etree.ElementTree import Element

import numpy as np

from battlemat.io.errors import Problem
from battlemat.io.tiled.checks import check_orientation, layer_gids, set_plain_data
from battlemat.io.tiled.document import Doc, int_attr

_LAYER_TAGS = ("layer", "objectgroup", "imagelayer", "group")


@dataclass(frozen=True)
class _Chunk:
    x: int
    y: int
    width: int
    height: int
    gids: np.ndarray


def is_infinite(root: Element) -> bool:
    return root.get("infinite", "0").strip().lower() not in ("0", "", "false")


def make_finite(doc: Doc, max_cells: int) -> None:
    """Rewrite an infinite map's tree as the finite map of its used chunks (a no-op for finite maps)."""
    root = doc.root
    if not is_infinite(root):
        return
    check_orientation(doc)
    tw, th = int_attr(root, "tilewidth", doc, "map"), int_attr(root, "tileheight", doc, "map")
    if tw <= 0 or th <= 0:
        raise doc.fail("map", "tilewidth and tileheight must be above 0", "set the tile size in Map > Map Properties")
    layers = list(root.iter("layer"))
    declared = 0
    for layer in layers:  # the chunks' cells, bounded before any is decoded
        for chunk in layer.iter("chunk"):
            declared += max(0, _size(chunk, "width")) * max(0, _size(chunk, "height"))
    if declared > max_cells:
        raise doc.fail("map", f"the chunks of this infinite map hold {declared:,} cells, more than the "
                       f"{max_cells:,} battlemat reads", "erase the tiles far from the battle, or uncheck Infinite "
                       "and crop the map")
    used = {id(layer): _used_chunks(doc, layer, max_cells) for layer in layers}
    chunks = [c for found in used.values() for c in found]
    if not chunks:
        raise doc.fail("map", "this infinite map has no tiles, so it has no edges to make a board of",
                       "draw the floor in a tile layer, or uncheck Infinite in Map > Map Properties and set its size")
    x0, y0 = min(c.x for c in chunks), min(c.y for c in chunks)
    x1, y1 = max(c.x + c.width for c in chunks), max(c.y + c.height for c in chunks)
    width, height = x1 - x0, y1 - y0
    cells = width * height * len(layers)
    if cells > max_cells:
        raise doc.fail("map", f"the used chunks of this infinite map span {width}x{height} squares x {len(layers)} "
                       f"tile layers = {cells:,} cells, more than the {max_cells:,} battlemat reads",
                       "erase the tiles far from the battle, or uncheck Infinite and crop the map")
    for layer in layers:
        grid = np.zeros((height, width), np.uint32)
        for c in used[id(layer)]:
            grid[c.y - y0 : c.y - y0 + c.height, c.x - x0 : c.x - x0 + c.width] = c.gids.reshape(c.height, c.width)
        data = layer.find("data")
        assert data is not None  # _used_chunks refused a layer without data
        set_plain_data(data, grid.ravel())
        layer.set("width", str(width))
        layer.set("height", str(height))
        for key in ("startx", "starty"):
            layer.attrib.pop(key, None)
    dx, dy = _pixel_origin(doc, x0, y0, tw, th)
    _shift_layers(root, dx, dy)
    root.set("width", str(width))
    root.set("height", str(height))
    root.set("infinite", "0")
    doc.lint.append(Problem(doc.file, "map", f"an infinite map: the board is the box of its used chunks, "
                            f"{width}x{height} squares from tile ({x0}, {y0}) (objects keep their squares)",
                            "to choose the edges yourself, uncheck Infinite in Map > Map Properties", note=True))


def _used_chunks(doc: Doc, layer: Element, max_cells: int) -> list[_Chunk]:
    """The chunks of one layer that hold at least one tile, decoded and checked."""
    place = f"layer {layer.get('name', '')!r}"
    data = layer.find("data")
    if data is None:
        raise doc.fail(place, "the layer has no <data>", "re-save the map from Tiled")
    found = data.findall("chunk")
    if not found and ((data.text or "").strip() or data.find("tile") is not None):
        raise doc.fail(place, "the map is infinite but this layer is not stored in chunks",
                       "re-save the map from Tiled")
    out = []
    for chunk in found:
        cx, cy = int_attr(chunk, "x", doc, place), int_attr(chunk, "y", doc, place)
        where = f"{place} chunk at ({cx}, {cy})"
        cw, ch = int_attr(chunk, "width", doc, where), int_attr(chunk, "height", doc, where)
        if cw <= 0 or ch <= 0 or cw * ch > max_cells:
            raise doc.fail(where, f"a chunk of {cw}x{ch} tiles", "re-save the map from Tiled")
        gids = layer_gids(doc, data, chunk, where, cw * ch, cw)
        if gids.size != cw * ch:
            raise doc.fail(where, f"the chunk holds {gids.size} tiles, expected {cw}x{ch} = {cw * ch}",
                           "re-save the map from Tiled")
        if gids.any():
            out.append(_Chunk(cx, cy, cw, ch, gids))
    return out


def _size(chunk: Element, name: str) -> int:
    try:
        return int(chunk.get(name, "0"))
    except ValueError:
        return 0  # reported when the chunk is read


def _pixel_origin(doc: Doc, x0: int, y0: int, tw: int, th: int) -> tuple[float, float]:
    """Where tile (x0, y0) sits in map pixels (as `Board.centers` places squares); on hex maps the
    stagger index is flipped when the box starts on an odd column (axis x) or row (axis y), so the
    same hexes stay staggered."""
    root = doc.root
    orientation = root.get("orientation")
    if orientation == "isometric":  # its objects sit on a grid of tile-height squares (Board.centers)
        return float(x0 * th), float(y0 * th)
    if orientation not in ("hexagonal", "staggered"):
        return float(x0 * tw), float(y0 * th)
    side = int_attr(root, "hexsidelength", doc, "map", 0) if orientation == "hexagonal" else 0  # staggered: hexes
    # without sides (Tiled's staggered renderer is its hexagonal one)
    tw, th = tw & ~1, th & ~1
    axis = root.get("staggeraxis")
    if (x0 if axis == "x" else y0) % 2:
        root.set("staggerindex", "even" if root.get("staggerindex") == "odd" else "odd")
    if axis == "x":
        return float(x0 * ((tw - side) // 2 + side)), float(y0 * th)
    return float(x0 * tw), float(y0 * ((th - side) // 2 + side))


def _shift_layers(root: Element, dx: float, dy: float) -> None:
    """Move every object of every object layer, and every image layer, by (-dx, -dy) pixels. Only
    layers are walked (group layers included): the collision shapes inside tilesets stay."""
    stack = [el for el in root if el.tag in _LAYER_TAGS]
    while stack:
        el = stack.pop()
        if el.tag == "group":
            stack.extend(child for child in el if child.tag in _LAYER_TAGS)
        elif el.tag == "objectgroup":
            for obj in el.findall("object"):
                _move(obj, "x", dx)
                _move(obj, "y", dy)
        elif el.tag == "imagelayer":
            _move(el, "offsetx", dx)
            _move(el, "offsety", dy)


def _move(el: Element, name: str, by: float) -> None:
    try:
        value = float(el.get(name, "0")) - by
    except ValueError:
        return  # a bad value is reported by the attribute checks
    el.set(name, str(int(value)) if value.is_integer() else repr(value))
