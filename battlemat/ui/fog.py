"""The fog of war drawn over a side's board (its `Knowledge.fog`, worked out in seen.py): squares never
seen are fogged, squares seen before but not in sight now are dimmed, and each foe seen before and
out of sight now is a ghost where it was last seen, with the turn. Drawn by `BoardView` over the map,
the walls and the plans, under the tokens.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping

import pygame

from battlemat.core.types import XY, CharId
from battlemat.labels import labels_by_id
from battlemat.ui import theme
from battlemat.ui.camera import Camera
from battlemat.ui.context import PlayContext
from battlemat.ui.knowledge import Knowledge
from battlemat.ui.layout import Layout
from battlemat.ui.tokens import radius

FOGGED = (14, 15, 20, 255)  # never seen: opaque, the map gives nothing away
DIMMED = (12, 14, 22, 150)  # seen before, out of sight now: the terrain stays, dimly
GHOST_ALPHA = 120
BASE_PX = 2048  # the fog's own picture at most this many pixels on a side (a huge map's is coarser)
class FogFill:
    """The fog of one side's squares on one surface with per-pixel alpha, fogged squares opaque,
    dimmed ones half, drawn once at map scale (at most BASE_PX on a side), and the part in view scaled
    to the camera's zoom when the camera moves. (Not `overlays.RegionFill`: under SDL 2.32 its
    colour-keyed RLE surface with a surface alpha drifts towards its key colour with every blit onto
    any surface but the display's, a second window's included.)"""

    def __init__(self, lay: Layout, fogged: frozenset[XY], dimmed: frozenset[XY]) -> None:
        self.scale = min(1.0, BASE_PX / max(1, lay.width_px, lay.height_px))
        k = self.scale
        self.base = pygame.Surface((max(1, round(lay.width_px * k)), max(1, round(lay.height_px * k))),
                                   pygame.SRCALPHA)
        for squares, colour in ((fogged, FOGGED), (dimmed, DIMMED)):
            for sq in squares:
                pygame.draw.polygon(self.base, colour, [(px * k, py * k) for px, py in lay.polygon(sq)])
        self._shown: tuple[tuple[float, ...], pygame.Surface, tuple[float, float]] | None = None

    def draw(self, screen: pygame.Surface, cam: Camera) -> None:
        k = self.scale
        x0, y0, x1, y1 = cam.visible_map_rect()
        area = pygame.Rect(int(x0 * k), int(y0 * k), int((x1 - x0) * k) + 2, int((y1 - y0) * k) + 2)
        area = area.clip(self.base.get_rect())
        if not area.width or not area.height:
            return
        key = (cam.zoom, area.x, area.y, area.w, area.h)
        if self._shown is None or self._shown[0] != key:
            size = (max(1, round(area.w * cam.zoom / k)), max(1, round(area.h * cam.zoom / k)))
            part = self.base.subsurface(area)
            self._shown = (key, pygame.transform.scale(part, size), (area.x / k, area.y / k))
        _, picture, (mx, my) = self._shown
        sx, sy = cam.to_screen(mx, my)
        screen.blit(picture, (round(sx), round(sy)))


# The last few fogs drawn, by layout (kept alive here, so its id is never another's) and squares.
_FILLS: OrderedDict[tuple[int, frozenset[XY], frozenset[XY]], FogFill] = OrderedDict()


def _fill(lay: Layout, now: frozenset[XY], seen: frozenset[XY]) -> FogFill:
    key = (id(lay), now, seen)
    hit = _FILLS.get(key)
    if hit is None:
        b = lay.board
        every = frozenset((x, y) for y in range(b.height) for x in range(b.width))
        hit = _FILLS[key] = FogFill(lay, every - seen, seen - now)
        while len(_FILLS) > 6:
            _FILLS.popitem(last=False)
    return hit


def draw(surface: pygame.Surface, ctx: PlayContext, k: Knowledge) -> None:
    """The fog of `k` over the board (nothing without one: the game master's), then its ghosts."""
    if k.fog is None:
        return
    _fill(ctx.layout, k.fog.now, k.fog.seen).draw(surface, ctx.cam)
    draw_ghosts(surface, ctx, k.seen_at, k.fog.ghost_turns)


def draw_ghosts(surface: pygame.Surface, ctx: PlayContext, where: Mapping[CharId, XY],
                turns: Mapping[CharId, int]) -> None:
    """Each foe out of sight where it was last seen: a faint token, its label and 'seen T<turn>'."""
    cam: Camera = ctx.cam
    r = radius(ctx.layout.cell, cam.zoom)
    labels = labels_by_id(ctx.enc.characters)
    for cid, sq in where.items():
        cx, cy = cam.to_screen(*ctx.layout.center(sq))
        color = ctx.color_of(cid)
        size = 2 * r + 8
        sprite = pygame.Surface((size, size), pygame.SRCALPHA)
        mid = (size // 2, size // 2)
        pygame.draw.circle(sprite, (*color, GHOST_ALPHA), mid, r)
        for i in range(12):  # a dashed rim: a memory, not a token
            if i % 2 == 0:
                pygame.draw.arc(sprite, (*theme.TEXT, 200), pygame.Rect(2, 2, size - 4, size - 4),
                                i * 0.5236, (i + 1) * 0.5236, 2)
        label = theme.text(labels[cid], max(10, round(r * 0.8)), (235, 235, 240), True)
        sprite.blit(label, label.get_rect(center=mid))
        surface.blit(sprite, (round(cx) - mid[0], round(cy) - mid[1]))
        if cid in turns:  # on a plate: legible on bright ground and in the fog alike
            note = theme.text(f"seen T{turns[cid]}", max(11, min(14, r // 2 + 4)), theme.TEXT)
            box = note.get_rect(midtop=(round(cx), round(cy) + r + 2))
            plate = pygame.Surface(box.inflate(6, 2).size, pygame.SRCALPHA)
            plate.fill((10, 12, 16, 170))
            surface.blit(plate, box.inflate(6, 2))
            surface.blit(note, box)
