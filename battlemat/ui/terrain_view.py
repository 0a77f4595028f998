"""The understood-terrain view on a key (V): the window's `battlemat check --picture` (issue 26).

Walls, pits, difficult ground and void are filled over the map (walls between squares and doors
are drawn by the board view over them, with their counts here) in the palette of the picture
(battlemat.sim.terrain_picture), with a legend row per kind and its squares, so a game master sees
in the window what battlemat plays on a map by others. Computed once per board.
"""

from __future__ import annotations

import numpy as np
import pygame

from battlemat.core.board import Board
from battlemat.sim.terrain_picture import TERRAIN_COLOURS, terrain_kinds
from battlemat.ui import overlays
from battlemat.ui.camera import Camera
from battlemat.ui.layout import Layout
from battlemat.ui.walls_view import count_rows


def _rgba(colour: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    r, g, b, a = colour
    return round(r * 255), round(g * 255), round(b * 255), round(a * 255)


class TerrainView:
    """Off until toggled; its fills and legend rows follow the board and layout they were made for."""

    def __init__(self) -> None:
        self.on = False
        self._made: tuple[object, object] | None = None
        self._fills: list[overlays.RegionFill] = []
        self._rows: list[overlays.LegendRow] = []

    def toggle(self) -> str:
        self.on = not self.on
        return ("Terrain view: what battlemat understood of the map (V hides it)." if self.on
                else "Terrain view off (V shows what battlemat understood of the map).")

    def _make(self, board: Board, lay: Layout) -> None:
        if self._made is not None and self._made[0] is board and self._made[1] is lay:
            return
        self._made = (board, lay)
        self._fills, self._rows = [], []
        for kind, mask in terrain_kinds(board).items():
            count = int(mask.sum())
            if not count:
                continue
            colour, words = TERRAIN_COLOURS[kind]
            squares = [(int(x), int(y)) for y, x in np.argwhere(mask)]
            self._fills.append(overlays.RegionFill(lay, squares, _rgba(colour)))
            self._rows.append(overlays.LegendRow("fill", f"{words}: {count} squares", "", _rgba(colour)))
        self._rows += count_rows(board)  # the walls and doors between squares, drawn over the fills
        if not self._rows:
            self._rows.append(overlays.LegendRow("fill", "every square is open floor", "", (255, 255, 255, 40)))

    def draw(self, surface: pygame.Surface, cam: Camera, board: Board, lay: Layout) -> None:
        if self.on:
            self._make(board, lay)
            for fill in self._fills:
                fill.draw(surface, cam)

    def legend_rows(self, board: Board, lay: Layout) -> list[overlays.LegendRow]:
        if not self.on:
            return []
        self._make(board, lay)
        return list(self._rows)
