"""Where each square is on the drawn map, in Tiled's map pixel space (square and hex grids).

Centres come from Board.centers(), the same formula Tiled's renderers use, so tokens sit on the
tiles Tiled drew. Picking a square under the mouse takes the nearest centre among the candidates
around a rough guess: for regular hexes the nearest centre is the hex that contains the point.
"""

from __future__ import annotations

import math

import numpy as np

from battlemat.core.board import Board
from battlemat.core.types import XY

Point = tuple[float, float]


class Layout:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.hex = board.grid == "hex"
        self.tw = board.tile_width & ~1 if self.hex else board.tile_width
        self.th = board.tile_height & ~1 if self.hex else board.tile_height
        self.cx, self.cy = board.centers()
        self.side = board.hex_side_length
        self.width_px, self.height_px = self._size()
        # the scale of one "square" on screen, for token sizes and line widths
        self.cell = float(min(self.tw, self.th))

    def _size(self) -> tuple[int, int]:
        """Map size in pixels, as Tiled computes it (hex maps overhang by half a tile)."""
        b = self.board
        if not self.hex:
            return b.width * self.tw, b.height * self.th
        if b.stagger_axis == "x":
            col = (self.tw - self.side) // 2 + self.side
            return col * b.width + (self.tw - col), self.th * b.height + (self.th // 2 if b.width > 1 else 0)
        row = (self.th - self.side) // 2 + self.side
        return self.tw * b.width + (self.tw // 2 if b.height > 1 else 0), row * b.height + (self.th - row)

    def center(self, sq: XY) -> Point:
        x, y = sq
        return float(self.cx[y, x]), float(self.cy[y, x])

    def polygon(self, sq: XY) -> list[Point]:
        """The outline of one square (or hex) in map pixels."""
        cx, cy = self.center(sq)
        left, top = cx - self.tw / 2, cy - self.th / 2
        tw, th = self.tw, self.th
        if not self.hex:
            return [(left, top), (left + tw, top), (left + tw, top + th), (left, top + th)]
        if self.board.stagger_axis == "x":
            so = (tw - self.side) / 2
            pts = [(0, th / 2), (so, 0), (so + self.side, 0), (tw, th / 2), (so + self.side, th), (so, th)]
        else:
            so = (th - self.side) / 2
            pts = [(tw / 2, 0), (tw, so), (tw, so + self.side), (tw / 2, th), (0, so + self.side), (0, so)]
        return [(left + px, top + py) for px, py in pts]

    def pick(self, px: float, py: float) -> XY | None:
        """The square under a map pixel, or None outside the board."""
        b = self.board
        if self.hex and b.stagger_axis == "x":
            col = (self.tw - self.side) // 2 + self.side
            gx, gy = int(px // col), int(py // self.th)
        elif self.hex:
            row = (self.th - self.side) // 2 + self.side
            gx, gy = int(px // self.tw), int(py // row)
        else:
            gx, gy = math.floor(px / self.tw), math.floor(py / self.th)
            return (gx, gy) if b.inside((gx, gy)) else None
        best: tuple[float, XY] | None = None
        for y in range(gy - 1, gy + 2):
            for x in range(gx - 1, gx + 2):
                if not b.inside((x, y)):
                    continue
                d = (self.cx[y, x] - px) ** 2 + (self.cy[y, x] - py) ** 2
                if best is None or d < best[0]:
                    best = (float(d), (x, y))
        if best is None or best[0] > (self.tw * 0.6) ** 2 + (self.th * 0.6) ** 2:
            return None
        return best[1]

    def squares_in(self, x0: float, y0: float, x1: float, y1: float) -> list[XY]:
        """Squares whose centre lies within a map-pixel rectangle grown by one tile (for culling)."""
        m = max(self.tw, self.th)
        return self.centred_in(x0 - m, y0 - m, x1 + m, y1 + m)

    def centred_in(self, x0: float, y0: float, x1: float, y1: float) -> list[XY]:
        """Squares whose centre lies within a map-pixel rectangle (edges included), row by row. Only
        the rows and columns that can hold such a centre are looked at (a centre is within a tile
        of x * column width, y * row height), so the cost follows the rectangle, not the map."""
        b = self.board
        col, row = self._pitch()
        gx0, gx1 = max(0, math.floor(x0 / col) - 2), min(b.width, math.ceil(x1 / col) + 2)
        gy0, gy1 = max(0, math.floor(y0 / row) - 2), min(b.height, math.ceil(y1 / row) + 2)
        if gx0 >= gx1 or gy0 >= gy1:
            return []
        cx, cy = self.cx[gy0:gy1, gx0:gx1], self.cy[gy0:gy1, gx0:gx1]
        ys, xs = np.nonzero((cx >= x0) & (cx <= x1) & (cy >= y0) & (cy <= y1))
        return list(zip((xs + gx0).tolist(), (ys + gy0).tolist(), strict=True))

    def _pitch(self) -> tuple[int, int]:
        """Pixels from one column's centres to the next, and from one row's to the next."""
        if self.hex and self.board.stagger_axis == "x":
            return max(1, (self.tw - self.side) // 2 + self.side), max(1, self.th)
        if self.hex:
            return max(1, self.tw), max(1, (self.th - self.side) // 2 + self.side)
        return max(1, self.tw), max(1, self.th)
