"""Render a Tiled map to an RGBA numpy image without pygame, for the simulation report's heat maps.

Tiles are cut from their tileset images (read by matplotlib) and composited in document order with
their layer opacity; hex maps are placed as Tiled places staggered hexes. `square_centre` gives the
pixel centre of a board square in that image, so heat can be drawn exactly over the squares.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from battlemat.core.board import Board
from battlemat.core.types import XY
from battlemat.io.tiled import load_map, read_tiled


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


def square_centre(tmx: Any, sq: XY, board: Board | None = None) -> tuple[float, float]:
    """A square's centre in the picture; on isometric and staggered maps the board says where (a
    staggered map's squares are not its cells)."""
    if board is not None and board.projection:
        cx, cy = board.screen_centers()
        return float(cx[sq[1], sq[0]]), float(cy[sq[1], sq[0]])
    ox, oy = _tile_origin(tmx, *sq)
    return ox + tmx.tilewidth / 2, oy + tmx.tileheight / 2


def render_map(path: str | Path) -> tuple[np.ndarray, Any]:
    """(RGBA float image, the pytmx map) of a .tmx; tile layers drawn bottom first."""
    import matplotlib.image as mpimg  # noqa: PLC0415 - start-up time of `battlemat simulate`: only --report draws

    tmx = read_tiled(path)
    _, info = load_map(path)
    w, h = image_size(tmx)
    canvas = np.zeros((h, w, 4), dtype=np.float32)
    sheets: dict[str, np.ndarray] = {}
    for layer in info.layers:
        if layer.kind != "tile" or not layer.visible:
            continue
        tl = tmx.layers[layer.index]
        for x, y, img in tl.tiles():
            if not isinstance(img, tuple) or len(img) < 2:
                continue
            src, rect = img[0], img[1]
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
            flags = img[2] if len(img) > 2 else None
            if flags is not None:
                if getattr(flags, "flipped_diagonally", 0):
                    tile = tile.transpose(1, 0, 2)
                if getattr(flags, "flipped_horizontally", 0):
                    tile = tile[:, ::-1]
                if getattr(flags, "flipped_vertically", 0):
                    tile = tile[::-1]
            ox, oy = _tile_origin(tmx, x, y)
            oy += tmx.tileheight - tile.shape[0]  # Tiled aligns taller tiles to the bottom
            _blit(canvas, tile, ox, oy, layer.opacity)
    background = np.ones_like(canvas)
    background[..., :3] = 0.93
    alpha = canvas[..., 3:4]
    out = background.copy()
    out[..., :3] = canvas[..., :3] * alpha + background[..., :3] * (1 - alpha)
    return out, tmx


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
