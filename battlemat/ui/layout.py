"""Where each square is on the drawn map, in Tiled's map pixel space (square and hex grids, and
square grids drawn as diamonds: isometric and staggered maps).

Centres come from Board.screen_centers(), the same formula Tiled's renderers use, so tokens sit on the
tiles Tiled drew; every square-to-pixel question of the window (tokens, overlays, the grid, picking)
is asked here, so the projection is in this one place. A staggered map's cells are not its squares:
`cell_centers` says where a tile layer's cells are drawn. Picking a square under the mouse takes the
nearest centre among the candidates around a rough guess: for regular hexes the nearest centre is the
hex that contains the point; a diamond is found by undoing the projection.
"""

from __future__ import annotations

import math

import numpy as np

from battlemat.core.board import OUTSIDE, Board
from battlemat.core.geometry import centres
from battlemat.core.types import XY

Point = tuple[float, float]


class Layout:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.hex = board.grid == "hex"
        self.tw = board.tile_width & ~1 if self.hex else board.tile_width
        self.th = board.tile_height & ~1 if self.hex else board.tile_height
        self.diamond = bool(board.projection)
        self.cx, self.cy = board.screen_centers()
        # the squares that are cells of the map (a staggered board's box holds squares outside it)
        self._cell = np.ones((board.height, board.width), bool)
        if OUTSIDE in board.features:
            self._cell = board.feature != board.features.index(OUTSIDE)
        self._cell_cache: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        self.side = board.hex_side_length
        self.width_px, self.height_px = self._size()
        # the scale of one "square" on screen, for token sizes and line widths
        self.cell = float(min(self.tw, self.th))
        self._units: np.ndarray | None = None  # board units -> map pixels (`point`), made when first asked


    def _size(self) -> tuple[int, int]:
        """Map size in pixels, as Tiled computes it (hex maps overhang by half a tile)."""
        b = self.board
        if b.projection == "isometric":
            return (b.width + b.height) * self.tw // 2, (b.width + b.height) * self.th // 2
        if b.projection == "staggered":  # the cells' box, as Tiled sizes a staggered map
            cx, cy = self.cx[self._cell], self.cy[self._cell]
            return int(cx.max() + self.tw / 2), int(cy.max() + self.th / 2)
        if not self.hex:
            return b.width * self.tw, b.height * self.th
        if b.stagger_axis == "x":
            col = (self.tw - self.side) // 2 + self.side
            return col * b.width + (self.tw - col), self.th * b.height + (self.th // 2 if b.width > 1 else 0)
        row = (self.th - self.side) // 2 + self.side
        return self.tw * b.width + (self.tw // 2 if b.height > 1 else 0), row * b.height + (self.th - row)

    def cell_centers(self, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
        """Where the cells of a tile layer (`width` x `height`, the map's) are drawn: on a staggered map
        Tiled's staggered renderer (hexes without sides) places them; elsewhere a cell is a square."""
        b = self.board
        if b.projection != "staggered":
            return self.cx, self.cy
        key = (width, height)
        if key not in self._cell_cache:
            self._cell_cache[key] = Board.empty(width, height, "hex", stagger_axis=b.stagger_axis,
                                                stagger_index=b.stagger_index, tile_width=b.tile_width,
                                                tile_height=b.tile_height, hex_side_length=0).centers()
        return self._cell_cache[key]

    def outside(self, x: int, y: int) -> bool:
        """Whether a square of the board is outside the drawn map (a staggered board's corners)."""
        return not self._cell[y, x]

    def center(self, sq: XY) -> Point:
        x, y = sq
        return float(self.cx[y, x]), float(self.cy[y, x])

    def point(self, u: float, v: float) -> Point:
        """A point in board units (a wall's end, a light: `geometry.centre`'s units, in which square
        (x, y) of a square grid spans x..x+1) in map pixels. Board units and drawn centres are both
        a regular lattice, so one affine map takes each square's `centre` to its drawn centre on
        every grid and projection; it is fitted once to a few squares' centres (exact)."""
        m = self._units
        if m is None:
            m = self._units = self._fit_units()
        return float(m[0, 0] * u + m[0, 1] * v + m[0, 2]), float(m[1, 0] * u + m[1, 1] * v + m[1, 2])

    def pixels_per_unit(self) -> float:
        """Map pixels per board unit along x (a light's range, a click's reach in units)."""
        (x0, y0), (x1, y1) = self.point(0.0, 0.0), self.point(1.0, 0.0)
        return math.hypot(x1 - x0, y1 - y0)

    def _fit_units(self) -> np.ndarray:
        b = self.board
        h, w = min(3, b.height), min(3, b.width)
        ux, uy = centres(b)
        src = np.column_stack([ux[:h, :w].ravel(), uy[:h, :w].ravel(), np.ones(h * w)])
        dst = np.column_stack([self.cx[:h, :w].ravel(), self.cy[:h, :w].ravel()])
        if h * w < 3 or np.linalg.matrix_rank(src) < 3:  # a single row or column: scale by the tile
            tw, th = (self.tw, self.th)
            ox, oy = float(self.cx[0, 0]) - 0.5 * tw, float(self.cy[0, 0]) - 0.5 * th
            return np.array([[tw, 0.0, ox], [0.0, th, oy]])
        sol, *_ = np.linalg.lstsq(src, dst, rcond=None)
        return np.asarray(sol.T, dtype=np.float64)

    def polygon(self, sq: XY) -> list[Point]:
        """The outline of one square (or hex) in map pixels."""
        cx, cy = self.center(sq)
        left, top = cx - self.tw / 2, cy - self.th / 2
        tw, th = self.tw, self.th
        if self.diamond:
            return [(cx, top), (cx + tw / 2, cy), (cx, top + th), (cx - tw / 2, cy)]
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
        if self.diamond:  # the diamond holding the point: undo the projection
            ox, oy = b.origin
            a, d = (px - ox) / (self.tw / 2), (py - oy + self.th / 2) / (self.th / 2)
            gx, gy = math.floor((a + d) / 2), math.floor((d - a) / 2)
            return (gx, gy) if b.inside((gx, gy)) and not self.outside(gx, gy) else None
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
        if self.diamond:  # diamonds do not line up with the picture's rows: look at every square
            ys, xs = np.nonzero((self.cx >= x0) & (self.cx <= x1) & (self.cy >= y0) & (self.cy <= y1) & self._cell)
            return list(zip(xs.tolist(), ys.tolist(), strict=True))
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
