"""What the declaring player sees on the board: reach, the route, range bands, sight, intents.

Everything here reads the same values the resolver uses (Reach/Route from battlemat.core.movement,
sight from battlemat.core.geometry) and only turns them into pixels. Shapes are computed once per
selection in map pixels; per frame they are transformed by the camera, and the translucent reach
fill is cached as one small surface per zoom step, so a selection costs a few blits per frame.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from battlemat.core import geometry
from battlemat.core.board import Board
from battlemat.types import XY
from battlemat.ui import theme
from battlemat.ui.camera import Camera
from battlemat.ui.layout import Layout

Segment = tuple[tuple[float, float], tuple[float, float]]
_KEY = (255, 0, 255)  # colour key of cached overlay surfaces (never drawn)


def _edge_neighbours(board: Board, sq: XY) -> list[XY]:
    return [n for n, diag, _ in geometry.steps(board, sq, "manhattan") if not diag]


def shared_edge(lay: Layout, a: XY, b: XY) -> Segment:
    pa = lay.polygon(a)
    bc = lay.center(b)
    two = sorted(pa, key=lambda p: (p[0] - bc[0]) ** 2 + (p[1] - bc[1]) ** 2)[:2]
    return two[0], two[1]


def outline(lay: Layout, squares: set[XY]) -> list[Segment]:
    """Edges between a set of squares and the rest: the border of a region (map pixels)."""
    out: list[Segment] = []
    for sq in squares:
        for n in _edge_neighbours(lay.board, sq):
            if n not in squares:
                out.append(shared_edge(lay, sq, n))
    return out


class RegionFill:
    """A translucent fill of many squares, cached as one surface per zoom step."""

    def __init__(self, lay: Layout, squares: Iterable[XY], color: theme.Color, edge: theme.Color | None = None) -> None:
        self.lay = lay
        self.squares = set(squares)
        self.color = color
        self.edge = edge
        self.edges = outline(lay, self.squares) if edge else []
        pts = [p for sq in self.squares for p in lay.polygon(sq)]
        self.bounds = (
            (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))
            if pts else (0.0, 0.0, 0.0, 0.0)
        )
        self._cache: tuple[float, pygame.Surface] | None = None
        self._edges = pygame.Surface((1, 1))

    def _surface(self, zoom: float) -> pygame.Surface:
        """Opaque colour on a colour-keyed, RLE-accelerated surface with one surface alpha: blitting
        it skips the empty runs and blends at a fixed alpha, far cheaper than per-pixel alpha."""
        if self._cache and self._cache[0] == zoom:
            return self._cache[1]
        x0, y0, x1, y1 = self.bounds
        size = (max(1, math.ceil((x1 - x0) * zoom) + 2), max(1, math.ceil((y1 - y0) * zoom) + 2))
        surf = pygame.Surface(size).convert()
        surf.fill(_KEY)
        for sq in self.squares:
            poly = [((px - x0) * zoom, (py - y0) * zoom) for px, py in self.lay.polygon(sq)]
            pygame.draw.polygon(surf, self.color[:3], poly)
        surf.set_alpha(self.color[3] if len(self.color) > 3 else 255)  # type: ignore[misc]
        surf.set_colorkey(_KEY, pygame.RLEACCEL)  # after set_alpha: the other order blits 15x slower
        if self.edge:
            edges = pygame.Surface(size).convert()
            edges.fill(_KEY)
            for a, b in self.edges:
                pygame.draw.line(edges, self.edge[:3], ((a[0] - x0) * zoom, (a[1] - y0) * zoom),
                                 ((b[0] - x0) * zoom, (b[1] - y0) * zoom), 2)
            edges.set_colorkey(_KEY, pygame.RLEACCEL)
            self._edges = edges
        self._cache = (zoom, surf)
        return surf

    def draw(self, screen: pygame.Surface, cam: Camera) -> None:
        if not self.squares:
            return
        sx, sy = cam.to_screen(self.bounds[0], self.bounds[1])
        screen.blit(self._surface(cam.zoom), (round(sx), round(sy)))
        if self.edge:
            screen.blit(self._edges, (round(sx), round(sy)))


def draw_segments(screen: pygame.Surface, cam: Camera, segs: list[Segment], color: theme.Color, width: int = 2) -> None:
    for a, b in segs:
        pygame.draw.line(screen, color, cam.to_screen(*a), cam.to_screen(*b), width)


@dataclass(frozen=True)
class RouteShape:
    """A route to draw: where it starts, the squares it steps through, the squares it jumps (M5)."""

    start: XY
    squares: tuple[XY, ...]
    jumps: tuple[XY, ...] = ()


@dataclass(frozen=True)
class Pen:
    """How an arrow is drawn: its colour, line width, head size, how far it stops short of both
    ends (to clear the tokens) and whether it is dashed (a guess rather than a declaration)."""

    color: theme.Color
    width: int = 3
    head: float = 12.0
    shorten: float = 0.0
    dashed: bool = False


def draw_route(screen: pygame.Surface, cam: Camera, lay: Layout, route: RouteShape,
               color: theme.Color = theme.ROUTE) -> None:
    """The planned route: a line through square centres, a dot per step, a ring at the end."""
    if not route.squares:
        return
    pts = [cam.to_screen(*lay.center(s)) for s in (route.start, *route.squares)]
    w = max(2, round(3 * cam.zoom))
    pygame.draw.lines(screen, (20, 20, 20), False, pts, w + 2)
    pygame.draw.lines(screen, color, False, pts, w)
    r = max(3, round(lay.cell * 0.1 * cam.zoom))
    for p in pts[1:-1]:
        pygame.draw.circle(screen, color, p, r)
    pygame.draw.circle(screen, color, pts[-1], max(6, round(lay.cell * 0.3 * cam.zoom)), w)
    for sq in route.jumps:
        c = cam.to_screen(*lay.center(sq))
        pygame.draw.circle(screen, (255, 150, 60), c, r + 2, 2)


def arrow(screen: pygame.Surface, a: tuple[float, float], b: tuple[float, float], pen: Pen) -> None:
    """An arrow from a to b (screen pixels) drawn with `pen`."""
    color, width, head, shorten = pen.color, pen.width, pen.head, pen.shorten
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    ux, uy = dx / length, dy / length
    a = (a[0] + ux * shorten, a[1] + uy * shorten)
    b = (b[0] - ux * shorten, b[1] - uy * shorten)
    if pen.dashed:
        n = max(1, int((length - 2 * shorten) // 12))
        for i in range(0, n, 2):
            p = (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)
            q = (a[0] + (b[0] - a[0]) * (i + 1) / n, a[1] + (b[1] - a[1]) * (i + 1) / n)
            pygame.draw.line(screen, color, p, q, width)
    else:
        pygame.draw.line(screen, color, a, b, width)
    px, py = -uy, ux
    tip = b
    left = (b[0] - ux * head + px * head * 0.5, b[1] - uy * head + py * head * 0.5)
    right = (b[0] - ux * head - px * head * 0.5, b[1] - uy * head - py * head * 0.5)
    pygame.draw.polygon(screen, color, [tip, left, right])


class RangeBands:
    """R1/R3: the unpenalized range of Shoot/Throw drawn as outlines from where the shot is taken.
    The outlines are cached as one surface per zoom step, like the reach fill."""

    def __init__(self, lay: Layout, origin: XY, bands: Sequence[tuple[str, int, str]], diagonals: str) -> None:
        self.origin = origin
        self.bands: list[tuple[str, list[Segment], theme.Color]] = []
        b = lay.board
        pts: list[tuple[float, float]] = []
        for i, (label, radius, _rule) in enumerate(bands):
            sqs = {
                (x, y)
                for y in range(max(0, origin[1] - radius - 1), min(b.height, origin[1] + radius + 2))
                for x in range(max(0, origin[0] - radius - 1), min(b.width, origin[0] + radius + 2))
                if geometry.distance(b, origin, (x, y), diagonals) <= radius
            }
            color = theme.BAND_COLORS[(i + (len(bands) == 1)) % len(theme.BAND_COLORS)]
            segs = outline(lay, sqs)
            pts += [p for seg in segs for p in seg]
            self.bands.append((label, segs, color))
        self.bounds = ((min(p[0] for p in pts), min(p[1] for p in pts)) if pts else (0.0, 0.0),
                       (max(p[0] for p in pts), max(p[1] for p in pts)) if pts else (0.0, 0.0))
        self._cache: tuple[float, pygame.Surface] | None = None

    def _surface(self, zoom: float) -> pygame.Surface:
        if self._cache and self._cache[0] == zoom:
            return self._cache[1]
        (x0, y0), (x1, y1) = self.bounds
        surf = pygame.Surface((math.ceil((x1 - x0) * zoom) + 4, math.ceil((y1 - y0) * zoom) + 4)).convert()
        surf.fill(_KEY)
        for _, segs, color in self.bands:
            for a, b in segs:
                pygame.draw.line(surf, color[:3], ((a[0] - x0) * zoom + 1, (a[1] - y0) * zoom + 1),
                                 ((b[0] - x0) * zoom + 1, (b[1] - y0) * zoom + 1), 2)
        surf.set_colorkey(_KEY, pygame.RLEACCEL)
        self._cache = (zoom, surf)
        return surf

    def draw(self, screen: pygame.Surface, cam: Camera) -> None:
        if not any(segs for _, segs, _ in self.bands):
            return
        sx, sy = cam.to_screen(*self.bounds[0])
        screen.blit(self._surface(cam.zoom), (round(sx) - 1, round(sy) - 1))


def draw_sight(screen: pygame.Surface, cam: Camera, lay: Layout, a: XY, b: XY) -> tuple[bool, int, str]:
    """R4: the line between centres, green when clear, amber with cover, red when blocked."""
    seen, cover, why = geometry.sight(lay.board, a, b)
    color = theme.BAD if not seen else ((250, 200, 60) if cover else theme.GOOD)
    pa, pb = cam.to_screen(*lay.center(a)), cam.to_screen(*lay.center(b))
    pygame.draw.line(screen, (10, 10, 10), pa, pb, 5)
    pygame.draw.line(screen, color, pa, pb, 3)
    if not seen:
        for sq in geometry.line(lay.board, a, b)[1:-1]:
            if lay.board.inside(sq) and lay.board.opaque[sq[1], sq[0]]:
                c = cam.to_screen(*lay.center(sq))
                r = lay.cell * 0.3 * cam.zoom
                pygame.draw.line(screen, theme.BAD, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), 3)
                pygame.draw.line(screen, theme.BAD, (c[0] - r, c[1] + r), (c[0] + r, c[1] - r), 3)
                break
    return seen, cover, why


def square_outline(screen: pygame.Surface, cam: Camera, lay: Layout, sq: XY, color: theme.Color,
                   width: int = 2) -> None:
    pygame.draw.polygon(screen, color, [cam.to_screen(*p) for p in lay.polygon(sq)], width)


def reach_regions(lay: Layout, rc: Any) -> tuple[RegionFill, RegionFill]:
    """(reachable fill, refused-but-near fill) from a movement Reach."""
    ok = RegionFill(lay, rc.costs.keys(), theme.REACH, theme.REACH_EDGE)
    blocked = {sq for sq, why in rc.refused.items() if getattr(why, "rule", "") not in ("M1", "M7")}
    return ok, RegionFill(lay, blocked, theme.REFUSED)
