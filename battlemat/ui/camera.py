"""The camera: map pixels <-> screen pixels with pan and zoom inside a viewport rectangle.

Zoom is kept on a small ladder of steps so scaled map chunks can be cached per step instead of
rescaled for every wheel notch.
"""

from __future__ import annotations

from dataclasses import dataclass

ZOOMS = (0.25, 0.33, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0)


@dataclass
class Camera:
    view_x: int = 0  # viewport rectangle on screen
    view_y: int = 0
    view_w: int = 800
    view_h: int = 600
    x: float = 0.0  # map pixel at the viewport's top-left corner
    y: float = 0.0
    zoom: float = 1.0

    def set_view(self, x: int, y: int, w: int, h: int) -> None:
        self.view_x, self.view_y, self.view_w, self.view_h = x, y, max(1, w), max(1, h)

    def to_screen(self, mx: float, my: float) -> tuple[float, float]:
        return (mx - self.x) * self.zoom + self.view_x, (my - self.y) * self.zoom + self.view_y

    def to_map(self, sx: float, sy: float) -> tuple[float, float]:
        return (sx - self.view_x) / self.zoom + self.x, (sy - self.view_y) / self.zoom + self.y

    def contains(self, sx: float, sy: float) -> bool:
        return self.view_x <= sx < self.view_x + self.view_w and self.view_y <= sy < self.view_y + self.view_h

    def pan(self, dx_screen: float, dy_screen: float) -> None:
        self.x -= dx_screen / self.zoom
        self.y -= dy_screen / self.zoom

    def zoom_at(self, steps: int, sx: float | None = None, sy: float | None = None) -> None:
        """Step the zoom ladder keeping the map point under (sx, sy) fixed (the mouse, or the centre)."""
        sx = self.view_x + self.view_w / 2 if sx is None else sx
        sy = self.view_y + self.view_h / 2 if sy is None else sy
        mx, my = self.to_map(sx, sy)
        i = min(range(len(ZOOMS)), key=lambda k: abs(ZOOMS[k] - self.zoom))
        self.zoom = ZOOMS[max(0, min(len(ZOOMS) - 1, i + steps))]
        self.x = mx - (sx - self.view_x) / self.zoom
        self.y = my - (sy - self.view_y) / self.zoom

    def fit(self, map_w: int, map_h: int, margin: int = 16) -> None:
        """The largest zoom step that shows the whole map, centred."""
        want = min((self.view_w - 2 * margin) / max(1, map_w), (self.view_h - 2 * margin) / max(1, map_h))
        fitting = [z for z in ZOOMS if z <= want]
        self.zoom = fitting[-1] if fitting else ZOOMS[0]
        self.x = map_w / 2 - self.view_w / 2 / self.zoom
        self.y = map_h / 2 - self.view_h / 2 / self.zoom

    def visible_map_rect(self) -> tuple[float, float, float, float]:
        return self.x, self.y, self.x + self.view_w / self.zoom, self.y + self.view_h / self.zoom
