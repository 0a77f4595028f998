"""What the declaring player sees on the board: reach, the route, range bands, sight, intents, and
what says what the map shows: level numbers, sticky zones, hazards on a route, the legend.

Everything here reads the same values the resolver uses (Reach/Route from battlemat.core.movement,
sight from battlemat.core.geometry) and only turns them into pixels. Shapes are computed once per
selection in map pixels; per frame they are transformed by the camera, and the translucent reach
fill is cached as one small surface per zoom step, so a selection costs a few blits per frame.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pygame

from battlemat.core import geometry
from battlemat.core.board import Board
from battlemat.core.types import XY
from battlemat.ui import theme
from battlemat.ui.camera import Camera
from battlemat.ui.cover_mark import low_wall
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
        surf.set_alpha(next(iter(self.color[3:]), 255))  # the colour's alpha, if it has one
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


def dashed_line(screen: pygame.Surface, color: theme.Color, a: tuple[float, float], b: tuple[float, float],
                width: int, dash: float = 12.0) -> None:
    """A line from a to b drawn as dashes about `dash` pixels long."""
    n = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) // dash))
    for i in range(0, n, 2):
        p = (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)
        q = (a[0] + (b[0] - a[0]) * (i + 1) / n, a[1] + (b[1] - a[1]) * (i + 1) / n)
        pygame.draw.line(screen, color, p, q, width)


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
        dashed_line(screen, color, a, b, width)
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
        self.rules = [rule for _, _, rule in bands]  # R1/R3 of each band, for the legend
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


def draw_sight(screen: pygame.Surface, cam: Camera, lay: Layout, a: XY, b: XY, board: Board) -> tuple[bool, int, str]:
    """R4: the line between centres, green when clear, amber with cover, red when blocked, on `board`
    (the match state's: a closed door blocks, an open one does not)."""
    seen, cover, why = geometry.sight(board, a, b)
    color = theme.BAD if not seen else (theme.SIGHT_COVER if cover else theme.GOOD)
    pa, pb = cam.to_screen(*lay.center(a)), cam.to_screen(*lay.center(b))
    pygame.draw.line(screen, (10, 10, 10), pa, pb, 5)
    pygame.draw.line(screen, color, pa, pb, 3)
    if not seen:
        for sq in geometry.line(board, a, b)[1:-1]:
            if board.inside(sq) and board.opaque[sq[1], sq[0]]:
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


# -- what the map shows: levels, sticky zones, hazards on a route, the legend ----------------------
LEVELS_FROM = 22  # screen pixels a square needs before its level number is drawn


def visible_window(lay: Layout, cam: Camera) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the column and row ranges of the squares in view, a little generous, found
    from the tile sizes alone (no pass over the whole map: its cost is the view's, not the map's)."""
    b = lay.board
    x0, y0, x1, y1 = cam.visible_map_rect()
    colw, rowh = float(lay.tw), float(lay.th)
    if lay.hex and b.stagger_axis == "x":
        colw = (lay.tw - lay.side) // 2 + lay.side
    elif lay.hex:
        rowh = (lay.th - lay.side) // 2 + lay.side
    gx0, gy0 = max(0, int(x0 // max(1.0, colw)) - 1), max(0, int(y0 // max(1.0, rowh)) - 1)
    gx1, gy1 = min(b.width, int(x1 // max(1.0, colw)) + 2), min(b.height, int(y1 // max(1.0, rowh)) + 2)
    return gx0, gy0, max(gx0, gx1), max(gy0, gy1)


LEVEL_STRIDE = 4  # inside a raised or sunken area, a level number every 4th square across and down


def level_spots(level: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> list[XY]:
    """The squares of a window that show their level (M12): each area's top-left corner (a square
    whose upper and left neighbours lie at another level, so every area has one) and, inside larger
    areas, every LEVEL_STRIDE-th square, like the labels along a contour line."""
    ya, xa = max(0, y0 - 1), max(0, x0 - 1)
    part = level[ya:y1, xa:x1].astype(np.int32)
    up = np.full_like(part, np.iinfo(np.int32).min)
    up[1:, :] = part[:-1, :]
    left = np.full_like(part, np.iinfo(np.int32).min)
    left[:, 1:] = part[:, :-1]
    if ya > 0:
        up[0, :] = level[ya - 1, xa:x1]
    if xa > 0:
        left[:, 0] = level[ya:y1, xa - 1]
    ys, xs = np.mgrid[ya:y1, xa:x1]
    corner = (up != part) & (left != part)
    periodic = (xs % LEVEL_STRIDE == 0) & (ys % LEVEL_STRIDE == 0)
    show = (part != 0) & (corner | periodic) & (ys >= y0) & (xs >= x0)
    py, px = np.nonzero(show)
    return list(zip((px + xa).tolist(), (py + ya).tolist(), strict=True))


class LevelNumbers:
    """M12: the level of raised or sunken ground as small numbers (`level_spots`), over the map's own
    shading and contour lines. Only squares in view, none when squares are too small to read; what
    to blit is kept until the camera moves, so a still view costs one batched blit."""

    def __init__(self, lay: Layout) -> None:
        self.lay = lay
        self._key: tuple[object, ...] = ()
        self._blits: list[tuple[pygame.Surface, tuple[int, int]]] = []

    def draw(self, screen: pygame.Surface, cam: Camera) -> int:
        """Draw the numbers in view; returns how many."""
        key = (cam.x, cam.y, cam.zoom, cam.view_x, cam.view_y, cam.view_w, cam.view_h)
        if key != self._key:
            self._key = key
            self._blits = self._place(cam)
        if self._blits:
            screen.blits(self._blits, doreturn=False)
        return len(self._blits)

    def _place(self, cam: Camera) -> list[tuple[pygame.Surface, tuple[int, int]]]:
        lay, b = self.lay, self.lay.board
        if lay.cell * cam.zoom < LEVELS_FROM or not b.level.any():
            return []
        x0, y0, x1, y1 = visible_window(lay, cam)
        spots = level_spots(b.level, x0, y0, x1, y1)
        if not spots:
            return []
        size = max(10, min(14, round(lay.cell * cam.zoom * 0.2)))
        xs = np.array([x for x, _ in spots])
        ys = np.array([y for _, y in spots])
        inset_x = lay.tw * (0.28 if lay.hex else 0.08) - lay.tw / 2
        inset_y = lay.th * (0.2 if lay.hex else 0.05) - lay.th / 2
        sx = (lay.cx[ys, xs] + inset_x - cam.x) * cam.zoom + cam.view_x
        sy = (lay.cy[ys, xs] + inset_y - cam.y) * cam.zoom + cam.view_y
        return [(_level_label(int(b.level[y, x]), size), (round(px), round(py)))
                for x, y, px, py in zip(xs.tolist(), ys.tolist(), sx.tolist(), sy.tolist(), strict=True)]


def forget_labels() -> None:
    """Drop the cached level labels (they die with pygame.quit; a new window makes new ones)."""
    _level_label.cache_clear()


@functools.lru_cache(maxsize=64)
def _level_label(level: int, size: int) -> pygame.Surface:
    """A level number with its shadow, in one surface."""
    text = theme.text(str(level), size, theme.LEVEL_TEXT, True)
    shadow = theme.text(str(level), size, (0, 0, 0), True)
    out = pygame.Surface((text.get_width() + 1, text.get_height() + 1), pygame.SRCALPHA)
    out.blit(shadow, (1, 1))
    out.blit(text, (0, 0))
    return out


def zone_squares(board: Board, foes: Iterable[XY]) -> set[XY]:
    """M6: the squares next to each sticky foe, by the geometry's own adjacency (as the movement
    grid's zones are made)."""
    out: set[XY] = set()
    for at in foes:
        out |= {s for s, _, _ in geometry.steps(board, at, "chebyshev") if geometry.adjacent(board, s, at)}
    return out


def sticky_fill(lay: Layout, foes: Iterable[XY], board: Board) -> RegionFill:
    """M6 on `board`, the match state's (no zone reaches across a wall or a closed door)."""
    return RegionFill(lay, zone_squares(board, foes), theme.STICKY, theme.STICKY_EDGE)


def requirement_words(text: str) -> str:
    """The elusion requirement of a hazard's text without its name: 'Floor Trap [Block/Dodge 4]' ->
    'Block/Dodge 4' (E1's own format: the name, then the requirement in brackets)."""
    inner = text.strip()
    if "[" in inner and inner.endswith("]"):
        inner = inner[inner.index("[") + 1:-1]
    return inner.strip()


def draw_tag(screen: pygame.Surface, at: tuple[float, float], words: str, color: theme.Color,
             bounds: pygame.Rect) -> pygame.Rect:
    """A small label on the map (a warning on a route), kept inside `bounds`."""
    label = theme.text(words, 13, color, True)
    rect = label.get_rect(midbottom=(round(at[0]), round(at[1]))).inflate(10, 4)
    rect.clamp_ip(bounds)
    bg = pygame.Surface(rect.size, pygame.SRCALPHA)
    bg.fill((16, 16, 20, 225))
    screen.blit(bg, rect)
    pygame.draw.rect(screen, color, rect, 1, border_radius=3)
    screen.blit(label, label.get_rect(center=rect.center))
    return rect


@dataclass(frozen=True)
class LegendRow:
    """One row of the legend: how its swatch is drawn, its words, the rule ID it names."""

    swatch: str  # fill | edge | route | declared | sight | band | zone | hatch | chevron | pit | cover | hazard | level
    # | low_wall | wall | door | light
    words: str
    rule: str = ""
    color: theme.Color = theme.TEXT


class Legend:
    """The legend in a box on the board: rendered once per set of rows, then one blit a frame."""

    def __init__(self, title: str = "Legend (L)") -> None:
        self.title = title
        self._key: tuple[tuple[LegendRow, ...], int] | None = None
        self._surface: pygame.Surface | None = None
        self._rects: list[pygame.Rect] = []

    def height_of(self, rows: Sequence[LegendRow], max_width: int = 10_000) -> int:
        """The legend's height with these rows (rendered now, kept for `draw`)."""
        if not rows:
            return 0
        if (tuple(rows), max_width) != self._key:
            self._key = (tuple(rows), max_width)
            self._surface, self._rects = _render_legend(rows, self.title, max_width)
        assert self._surface is not None
        return self._surface.get_height()

    def draw(self, screen: pygame.Surface, rows: Sequence[LegendRow],
             corner: tuple[int, int], max_width: int = 10_000) -> list[tuple[pygame.Rect, LegendRow]]:
        """Draw it with its bottom-left corner at `corner`, no wider than `max_width` (a row's words
        end in an ellipsis, its rule ID kept); returns each row's screen rectangle."""
        if not rows:
            return []
        if (tuple(rows), max_width) != self._key:
            self._key = (tuple(rows), max_width)
            self._surface, self._rects = _render_legend(rows, self.title, max_width)
        assert self._surface is not None
        top = corner[1] - self._surface.get_height()
        screen.blit(self._surface, (corner[0], top))
        return [(r.move(corner[0], top), row) for r, row in zip(self._rects, rows, strict=True)]


def _render_legend(rows: Sequence[LegendRow], title: str,
                   max_width: int = 10_000) -> tuple[pygame.Surface, list[pygame.Rect]]:
    heading = theme.text(title, 14, theme.ACCENT, True)
    sw = 26
    room = max_width - sw - 8 - 16
    face = theme.font(13)
    texts = []
    for r in rows:
        tail = f" ({r.rule})" if r.rule else ""
        words = theme.ellipsized(r.words, face, room - face.size(tail)[0])
        texts.append(theme.text(words + tail, 13, theme.TEXT))
    row_h = max(18, max(t.get_height() for t in texts) + 3)
    width = max(heading.get_width(), max(t.get_width() for t in texts) + sw + 8) + 16
    height = heading.get_height() + 8 + row_h * len(rows) + 8
    box = pygame.Surface((width, height), pygame.SRCALPHA)
    box.fill((18, 20, 26, 225))
    pygame.draw.rect(box, theme.PANEL_EDGE, box.get_rect(), 1, border_radius=4)
    box.blit(heading, (8, 5))
    y = heading.get_height() + 9
    rects = []
    for row, text in zip(rows, texts, strict=True):
        _swatch(box, pygame.Rect(8, y + (row_h - 14) // 2, sw - 4, 14), row)
        box.blit(text, (8 + sw + 4, y + (row_h - text.get_height()) // 2))
        rects.append(pygame.Rect(0, y, width, row_h))
        y += row_h
    return box, rects


def _swatch(screen: pygame.Surface, r: pygame.Rect, row: LegendRow) -> None:
    """A small picture of a legend row, drawn as the map draws it."""
    c = row.color
    kind = row.swatch
    if kind in ("fill", "zone"):
        s = pygame.Surface(r.size, pygame.SRCALPHA)
        s.fill(c)
        screen.blit(s, r)
        edge = theme.STICKY_EDGE if kind == "zone" else theme.REACH_EDGE if c == theme.REACH else None
        if edge:
            pygame.draw.rect(screen, edge[:3], r, 2)
    elif kind in ("route", "declared"):
        pygame.draw.line(screen, (20, 20, 20), r.midleft, r.midright, 5)
        pygame.draw.line(screen, c, r.midleft, r.midright, 3)
        pygame.draw.circle(screen, c, r.midright, 4, 2)
    elif kind == "sight":
        third = r.width // 3
        for i, colour in enumerate((theme.GOOD, theme.SIGHT_COVER, theme.BAD)):
            pygame.draw.line(screen, colour, (r.x + i * third, r.centery), (r.x + (i + 1) * third - 2, r.centery), 3)
    elif kind == "band":
        pygame.draw.rect(screen, c, r, 2)
    elif kind == "hatch":
        pygame.draw.rect(screen, (120, 110, 90), r)
        for k in range(-r.height, r.width, 5):
            pygame.draw.line(screen, theme.HATCH[:3], (r.left + k, r.bottom), (r.left + k + r.height, r.top), 2)
    elif kind == "chevron":
        cx, cy = r.center
        pygame.draw.lines(screen, (255, 236, 170), False, [(cx - 6, cy + 4), (cx, cy - 4), (cx + 6, cy + 4)], 3)
    elif kind == "pit":
        pygame.draw.rect(screen, (10, 8, 6), r)
        pygame.draw.rect(screen, (210, 90, 60), r, 1)
    elif kind == "cover":
        for k in range(2):
            pygame.draw.circle(screen, theme.COVER[:3], (r.x + 6 + k * 9, r.centery), 4)
    elif kind == "hazard":
        x0, y0 = r.centerx - 6, r.bottom
        pygame.draw.polygon(screen, (250, 200, 40), [(x0, y0), (x0 + 12, y0), (x0 + 6, y0 - 11)])
    else:
        drawn = _SWATCHES.get(kind)
        if drawn is not None:
            drawn(screen, r)


def _level_swatch(screen: pygame.Surface, r: pygame.Rect) -> None:
    pygame.draw.rect(screen, (200, 200, 200), r)
    pygame.draw.line(screen, (255, 240, 200), r.topleft, r.bottomleft, 2)
    label = theme.text("1", 12, (30, 30, 30), True)
    screen.blit(label, label.get_rect(center=r.center))


def _wall_swatch(screen: pygame.Surface, r: pygame.Rect) -> None:
    pygame.draw.line(screen, theme.WALL_EDGE, r.midleft, r.midright, 7)
    pygame.draw.line(screen, theme.WALL, r.midleft, r.midright, 5)


def _door_swatch(screen: pygame.Surface, r: pygame.Rect) -> None:
    third = r.width // 3
    for i, state in enumerate(("open", "closed", "locked")):
        pygame.draw.rect(screen, theme.DOOR_COLOURS[state], (r.x + i * third, r.centery - 3, third - 1, 7))


def _light_swatch(screen: pygame.Surface, r: pygame.Rect) -> None:
    pygame.draw.circle(screen, (120, 110, 70), r.center, 7)
    pygame.draw.circle(screen, (220, 200, 120), r.center, 3)


def _low_wall_swatch(screen: pygame.Surface, r: pygame.Rect) -> None:
    low_wall(screen, r.center, r.height * 1.5, 1)  # cover on a map without art (cover_mark.py)


_SWATCHES = {"level": _level_swatch, "low_wall": _low_wall_swatch, "wall": _wall_swatch, "door": _door_swatch,
             "light": _light_swatch}
