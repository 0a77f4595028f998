"""R4 cover drawn on a map without art (inline maps, lessons, arenas): a low stone wall across the
square, so a one-square wall reads as a wall at any zoom instead of a pip a few pixels wide. The
renderer draws it among its terrain marks (renderer.Renderer._mark); maps with art keep their pips.
"""

from __future__ import annotations

import pygame

from battlemat.ui import theme

LOW_WALL = (168, 158, 140)  # the stones of a cover square drawn without art (R4)


def cover_marks(surf: pygame.Surface, centre: tuple[float, float], s: float, cover: int, arena: bool) -> None:
    """A square's R4 cover: a low wall on a map without art (`arena`), else a pip per point of cover
    in its top right corner (the art shows what gives it)."""
    if cover and arena:
        low_wall(surf, centre, s, cover)
        return
    cx, cy = centre
    for k in range(cover):
        r = max(3, int(s * 0.09))
        px, py = cx + s * 0.32 - k * (2.4 * r), cy - s * 0.32
        pygame.draw.circle(surf, theme.COVER, (round(px), round(py)), r)
        pygame.draw.circle(surf, (20, 40, 60, 220), (round(px), round(py)), r, 1)


def low_wall(surf: pygame.Surface, centre: tuple[float, float], s: float, cover: int) -> None:
    """R4 cover on a map without art: a low stone wall across the square (its height grows with the
    cover), outlined in the cover colour, so a one-square wall reads as a wall at any zoom."""
    cx, cy = centre
    w, h = s * 0.86, s * (0.34 + 0.12 * (min(cover, 3) - 1))
    rect = pygame.Rect(round(cx - w / 2), round(cy + s * 0.08 - h / 2), round(w), round(h))
    pygame.draw.rect(surf, (*LOW_WALL, 255), rect, border_radius=max(1, round(s * 0.04)))
    joint = (90, 84, 74, 255)
    rows = max(1, round(h / (s * 0.11)))
    for r in range(1, rows):
        yy = rect.top + r * rect.height // rows
        pygame.draw.line(surf, joint, (rect.left + 1, yy), (rect.right - 2, yy), 1)
    for r in range(rows):
        y0, y1 = rect.top + r * rect.height // rows, rect.top + (r + 1) * rect.height // rows
        for k in range(1, 4):
            xx = rect.left + round((k - (0.5 if r % 2 else 0)) * rect.width / 3.5)
            pygame.draw.line(surf, joint, (xx, y0), (xx, y1 - 1), 1)
    pygame.draw.rect(surf, theme.COVER, rect, max(2, round(s * 0.05)), border_radius=max(1, round(s * 0.04)))
