"""Isometric and staggered maps to the square grid they encode (DESIGN: grids; issue 26 item 5).

Tiled draws three square grids: orthogonal (squares), isometric (the same squares as diamonds) and
staggered (an isometric grid cut to a rectangle, its rows or columns shifted by half a diamond).
The rules play on squares, so:
- **isometric**: a cell (x, y) is square (x, y); only the drawing changes (`Board.projection`). Tiled
  places an isometric map's objects on a grid of tile-height squares, so terrain areas and tokens are
  read on that grid (`Board.centers`);
- **staggered**: each cell is the square of the isometric grid it is part of
  (`core.board.staggered_squares`): cells that share a diamond's edge are orthogonal neighbours, cells
  that share a corner (beside in a row, two rows apart in a column) diagonal ones, as Tiled's own
  staggered neighbours are. The board is the box of those squares; the squares of the box that are
  no cell of the map are outside it: blocked (never entered) and named "outside the map". Objects of
  a staggered map are placed in its picture, where Tiled's staggered renderer is its hexagonal one
  with sides of length 0, so they are read on that geometry and then moved with their cells.
The terrain reader reads the cells as always (`TerrainReader`), on the geometry given here; the
board of squares is made from its board of cells.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from battlemat.core.board import OUTSIDE, Board, staggered_squares
from battlemat.io.tiled.document import Doc
from battlemat.io.tiled.shapes import ObjectSquares
from battlemat.io.tiled.terrain import TerrainReader

_DEFAULTS = {"blocked": False, "difficult": False, "difficult_dirs": 0, "level": 0, "opaque": False, "cover": 0,
             "pit": False, "hazard": -1, "feature": -1}


def terrain_reader(doc: Doc, tmx: Any) -> TerrainReader:
    """The terrain reader of a map, reading objects on the geometry its orientation places them on."""
    reader = TerrainReader(doc, tmx)
    root = doc.root
    orientation = root.get("orientation", "orthogonal")
    w, h = reader.width, reader.height
    tw, th = int(root.get("tilewidth", "32")), int(root.get("tileheight", "32"))
    if orientation == "isometric":
        reader.geometry = Board.empty(w, h, tile_width=th, tile_height=th)
    elif orientation == "staggered":
        reader.geometry = Board.empty(w, h, "hex", stagger_axis=root.get("staggeraxis", "y"),
                                      stagger_index=root.get("staggerindex", "odd"), tile_width=tw,
                                      tile_height=th, hex_side_length=0)
    else:
        return reader
    reader.squares = ObjectSquares(reader.geometry)
    return reader


def square_board(cells: Board, doc: Doc) -> Board:
    """The board the rules play on, from the terrain reader's board of the map's cells."""
    root = doc.root
    orientation = root.get("orientation", "orthogonal")
    tw, th = int(root.get("tilewidth", "32")), int(root.get("tileheight", "32"))
    if orientation == "isometric":
        return dataclasses.replace(cells, tile_width=tw, tile_height=th).projected(
            "isometric", (cells.height * tw / 2, th / 2))
    if orientation != "staggered":
        return cells
    axis, index = cells.stagger_axis, cells.stagger_index
    ys, xs = np.mgrid[0 : cells.height, 0 : cells.width]
    big_u, big_v = staggered_squares(xs, ys, axis, index)
    umin, vmin = int(big_u.min()), int(big_v.min())
    u, v = big_u - umin, big_v - vmin
    width, height = int(u.max()) + 1, int(v.max()) + 1
    arrays: dict[str, Any] = {}  # (Any: Board's later fields are walls, doors, lights)
    for name, default in _DEFAULTS.items():
        cell = getattr(cells, name)
        out = np.full((height, width), default, cell.dtype)
        out[v, u] = cell
        arrays[name] = out
    outside = np.ones((height, width), bool)
    outside[v, u] = False
    features = cells.features
    if outside.any():
        arrays["blocked"] |= outside
        features = (*features, OUTSIDE)
        arrays["feature"][outside] = len(features) - 1
    tokens = {name: (int(u[y, x]), int(v[y, x])) for name, (x, y) in cells.tokens.items()}
    p = 0 if index == "odd" else 1
    origin = ((umin - vmin + 1) * tw / 2, (umin + vmin - p + 1) * th / 2)
    return Board(width, height, "square", axis, index, tw, th, hazards=cells.hazards, tokens=tokens,
                 source=cells.source, hex_side_length=0, features=features, **arrays).projected("staggered", origin)


def cell_centers(board: Board, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Where the map's cells (a tile layer's, `width` x `height`) are drawn: a staggered map's cells
    are not its squares (Tiled's staggered renderer: hexes without sides); other maps' are."""
    if board.projection != "staggered":
        return board.screen_centers()
    return Board.empty(width, height, "hex", stagger_axis=board.stagger_axis, stagger_index=board.stagger_index,
                       tile_width=board.tile_width, tile_height=board.tile_height, hex_side_length=0).centers()
