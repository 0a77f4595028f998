"""Render a Tiled map to an RGBA numpy image without pygame, for the simulation report's heat maps.

Tiles are cut from their tileset images (read by matplotlib) and composited in document order with
their layer opacity; hex maps are placed as Tiled places staggered hexes. `square_centre` gives the
pixel centre of a board square in that image, so heat can be drawn exactly over the squares.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from battlemat.core.board import Board
from battlemat.core.types import XY
from battlemat.io.tiled import load_map, read_tiled
from battlemat.io.uvtt import is_uvtt


def _tile_origin(tmx: Any, x: int, y: int) -> tuple[int, int]:
    tw, th = tmx.tilewidth, tmx.tileheight
    if tmx.orientation == "isometric":  # the box of the diamond (Tiled's isometric renderer)
        return (x - y) * tw // 2 + (tmx.height - 1) * tw // 2, (x + y) * th // 2
    if tmx.orientation not in ("hexagonal", "staggered"):
        return x * tw, y * th
    side = int(getattr(tmx, "hexsidelength", 0) or 0) if tmx.orientation == "hexagonal" else 0  # staggered:
    # Tiled's hexagonal renderer with sides of length 0
    odd = (getattr(tmx, "staggerindex", "odd") or "odd") == "odd"
    if (getattr(tmx, "staggeraxis", "y") or "y") == "x":
        col = (tw + side) // 2
        shifted = (x % 2 == 1) == odd
        return x * col, y * th + (th // 2 if shifted else 0)
    row = (th + side) // 2
    shifted = (y % 2 == 1) == odd
    return x * tw + (tw // 2 if shifted else 0), y * row


def image_size(tmx: Any) -> tuple[int, int]:
    if tmx.orientation == "isometric":
        return (tmx.width + tmx.height) * tmx.tilewidth // 2, (tmx.width + tmx.height) * tmx.tileheight // 2
    w = max(_tile_origin(tmx, x, 0)[0] for x in range(tmx.width)) + tmx.tilewidth
    h = max(_tile_origin(tmx, x, y)[1] for x in range(min(2, tmx.width)) for y in range(tmx.height)) + tmx.tileheight
    return w, h


def square_centre(tmx: Any, sq: XY, board: Board | None = None, scale: float = 1.0) -> tuple[float, float]:
    """The pixel centre of square `sq` in the map's picture drawn at `scale` (render_map's); on
    isometric and staggered maps the board says where (a staggered map's squares are not its cells)."""
    if board is not None and board.projection:
        cx, cy = board.diamond_center(sq[0], sq[1])  # one square: not the whole board laid out per call
        return float(cx) * scale, float(cy) * scale
    ox, oy = _tile_origin(tmx, *sq)
    return (ox + tmx.tilewidth / 2) * scale, (oy + tmx.tileheight / 2) * scale


# The longest side of a rendered map, in pixels. A report figure is at most 12 x 10 inches at 110 dpi
# (1320 x 1100 pixels), so a picture larger than this would only be shrunk again by matplotlib: drawn
# at the map's full resolution, a 500 x 500 map of 32-pixel tiles is 16,000 pixels square, 4 GB of
# floats (the report of issue 27 reached 8.3 GB). Bounded, any accepted map's picture is at most
# 1600 x 1600 x 4 floats, 41 MB.
MAX_RENDER_SIDE = 1600


def render_map(path: str | Path, max_side: int | None = None) -> tuple[np.ndarray, Any, float]:
    """(RGBA float image, the pytmx map, scale) of a .tmx (of a Universal VTT map: its picture, and a
    stand-in for the pytmx map with its tile sizes); tile layers drawn bottom first. With
    `max_side`, the picture is drawn at the scale (at most 1) that fits its longest side in that many
    pixels, every tile shrunk once (nearest pixel) and placed at its scaled origin."""
    if is_uvtt(path):  # its own picture (sim.uvtt_picture), with a stand-in for the pytmx map
        from battlemat.sim.uvtt_picture import render_uvtt  # noqa: PLC0415 - start-up time: Pillow only for these maps

        return render_uvtt(path, max_side or MAX_RENDER_SIDE)
    import matplotlib.image as mpimg  # noqa: PLC0415 - start-up time of `battlemat simulate`: only --report draws

    tmx = read_tiled(path)
    _, info = load_map(path)
    w, h = image_size(tmx)
    scale = 1.0 if max_side is None else min(1.0, max_side / max(w, h))
    if scale < 1.0 and tmx.orientation == "orthogonal":  # whole pixels a square: drawn a layer at once (_draw_grid)
        scale = max(1, int(tmx.tilewidth * scale)) / tmx.tilewidth
    canvas = np.zeros((max(1, math.ceil(h * scale)), max(1, math.ceil(w * scale)), 4), dtype=np.float32)
    sheets: dict[str, np.ndarray] = {}
    shrunk: dict[tuple[Any, ...], np.ndarray] = {}
    for layer in info.layers:
        if layer.kind != "tile" or not layer.visible:
            continue
        tl = tmx.layers[layer.index]
        if scale < 1.0 and _draw_grid(canvas, tmx, tl, layer.opacity, sheets, mpimg):
            continue
        for x, y, img in tl.tiles():
            if not isinstance(img, tuple) or len(img) < 2:
                continue
            src, rect = img[0], img[1]
            flags = img[2] if len(img) > 2 else None
            key = (src, tuple(rect) if rect else None, tuple(flags) if isinstance(flags, tuple) else flags)
            tile = shrunk.get(key)
            if tile is None:
                tile = _tile(sheets, mpimg, src, rect, flags)
                if scale < 1.0:
                    rows = np.minimum((np.arange(max(1, round(tile.shape[0] * scale))) / scale).astype(int),
                                      tile.shape[0] - 1)
                    cols = np.minimum((np.arange(max(1, round(tile.shape[1] * scale))) / scale).astype(int),
                                      tile.shape[1] - 1)
                    tile = tile[rows][:, cols]
                shrunk[key] = tile
            ox, oy = _tile_origin(tmx, x, y)
            # Tiled aligns taller tiles to the bottom
            top = oy + tmx.tileheight - (tile.shape[0] if scale == 1.0 else round(tile.shape[0] / scale))
            _blit(canvas, tile, int(ox * scale), int(top * scale), layer.opacity)
    background = np.ones_like(canvas)
    background[..., :3] = 0.93
    alpha = canvas[..., 3:4]
    out = background
    out[..., :3] = canvas[..., :3] * alpha + background[..., :3] * (1 - alpha)
    return out, tmx, scale


def _draw_grid(canvas: np.ndarray, tmx: Any, tl: Any, opacity: float, sheets: dict[str, np.ndarray],
               mpimg: Any) -> bool:
    """A shrunk orthogonal layer whose tiles all fit their squares, drawn at once: every distinct
    tile shrunk to the whole pixels of a square, the layer laid out as one array and composited
    (a loop over a million tiles took minutes). False when the layer needs the tile-by-tile way
    (hexes, tiles taller or wider than a square)."""
    if tmx.orientation != "orthogonal":
        return False
    data = np.asarray(tl.data, dtype=np.int64)
    if data.ndim != 2 or data.shape != (tmx.height, tmx.width):
        return False
    pw = canvas.shape[1] // tmx.width
    ph = round(tmx.tileheight * pw / tmx.tilewidth)
    if ph < 1 or pw < 1 or ph * tmx.height > canvas.shape[0] or ph * tmx.tilewidth != pw * tmx.tileheight:
        return False
    gids, which = np.unique(data, return_inverse=True)
    stack = np.zeros((len(gids), ph, pw, 4), np.float32)
    for k, gid in enumerate(gids.tolist()):
        img = tmx.images[gid] if 0 < gid < len(tmx.images) else None
        if not isinstance(img, tuple) or len(img) < 2:
            continue
        tile = _tile(sheets, mpimg, img[0], img[1], img[2] if len(img) > 2 else None)
        if tile.shape[:2] != (tmx.tileheight, tmx.tilewidth):
            return False
        rows = (np.arange(ph) * tile.shape[0] // ph).clip(0, tile.shape[0] - 1)
        cols = (np.arange(pw) * tile.shape[1] // pw).clip(0, tile.shape[1] - 1)
        stack[k] = tile[rows][:, cols]
    laid = stack[which.reshape(data.shape)]  # height x width x ph x pw x RGBA
    picture = laid.transpose(0, 2, 1, 3, 4).reshape(data.shape[0] * ph, data.shape[1] * pw, 4)
    _blit(canvas, picture, 0, 0, opacity)
    return True


def _tile(sheets: dict[str, np.ndarray], mpimg: Any, src: str, rect: Any, flags: Any) -> np.ndarray:
    """One tile's picture, cut from its tileset image (read once) and flipped as Tiled's flags say."""
    sheet = sheets.get(src)
    if sheet is None:
        sheet = np.asarray(mpimg.imread(src), dtype=np.float32)
        if sheet.ndim == 2:
            sheet = np.dstack([sheet, sheet, sheet])
        if sheet.shape[2] == 3:
            sheet = np.dstack([sheet, np.ones(sheet.shape[:2], np.float32)])
        if sheet.max() > 1.0:
            sheet = sheet / 255.0
        sheets[src] = sheet
    if rect:
        rx, ry, rw, rh = rect
        tile = sheet[ry:ry + rh, rx:rx + rw]
    else:
        tile = sheet
    if flags is not None:
        if getattr(flags, "flipped_diagonally", 0):
            tile = tile.transpose(1, 0, 2)
        if getattr(flags, "flipped_horizontally", 0):
            tile = tile[:, ::-1]
        if getattr(flags, "flipped_vertically", 0):
            tile = tile[::-1]
    return tile


def _blit(canvas: np.ndarray, tile: np.ndarray, ox: int, oy: int, opacity: float) -> None:
    h, w = canvas.shape[:2]
    x0, y0 = max(0, ox), max(0, oy)
    x1, y1 = min(w, ox + tile.shape[1]), min(h, oy + tile.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    src = tile[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
    a = src[..., 3:4] * opacity
    dst = canvas[y0:y1, x0:x1]
    out_a = a + dst[..., 3:4] * (1 - a)
    safe = np.where(out_a > 0, out_a, 1)
    dst[..., :3] = (src[..., :3] * a + dst[..., :3] * dst[..., 3:4] * (1 - a)) / safe
    dst[..., 3:4] = out_a


def board_sketch(board: Board) -> np.ndarray:
    """A plain terrain picture from the board alone (one pixel per square), for maps whose tile
    images are not at hand: floor, walls, pits, difficult ground and levels in flat colours."""
    img = np.ones((board.height, board.width, 4), dtype=np.float32)
    img[..., :3] = 0.86
    img[..., :3] -= np.clip(board.level, 0, 4)[..., None] * 0.06
    img[board.difficult | (board.difficult_dirs > 0)] = (0.72, 0.66, 0.5, 1)
    img[board.blocked] = (0.3, 0.3, 0.32, 1)
    img[board.pit] = (0.1, 0.1, 0.12, 1)
    return img
