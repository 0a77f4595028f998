"""Walls, doors and lights on the board (core.walls), drawn each frame over the map; what the edges
of a square hold, in words; the door under the pointer, for the game master's click.

Walls and lights never change during a match: their map pixels are worked out once per layout
(`Layout.point` takes board units to map pixels on every grid and projection). Door states do change
(the resolver opens doors, the game master toggles them), so they are read from the match state's
board (`enc.fitted(state).board`) every frame, never from the encounter's initial board: a door the
game master opened is drawn open at once, and what the previews compute is what is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pygame

from battlemat.core import geometry
from battlemat.core.board import Board
from battlemat.core.types import XY
from battlemat.core.walls import Door
from battlemat.ui import overlays, theme
from battlemat.ui.camera import Camera
from battlemat.ui.layout import Layout, Point

WALL, WALL_EDGE, DOOR_COLOURS, LOCK = theme.WALL, theme.WALL_EDGE, theme.DOOR_COLOURS, theme.LOCK
PICK_PIXELS = 7  # how near a click falls to a door's line (screen pixels) to be a click on the door
GLOWS_KEPT = 32  # light pictures kept (one per radius and colour)
GLOW_CACHED_UP_TO = 1024  # screen pixels of radius: a larger glow is drawn for the view only, each frame
DIRECTION_WORDS = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east", "S": "south",
                   "SW": "south-west", "W": "west", "NW": "north-west"}


def _segments(lay: Layout, lines: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
    """Segments in board units as an (n, 4) array of map pixels (x1, y1, x2, y2)."""
    out = np.zeros((len(lines), 4))
    for i, (x1, y1, x2, y2) in enumerate(lines):
        out[i, :2], out[i, 2:] = lay.point(x1, y1), lay.point(x2, y2)
    return out


def _colour(text: str) -> tuple[int, int, int]:
    """'#rrggbb' (or 'rrggbb', or '#aarrggbb' as Universal VTT writes it) -> (r, g, b); white if unreadable."""
    h = text.strip().lstrip("#")
    if len(h) == 8:
        h = h[2:]
    try:
        return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)) if len(h) == 6 else (255, 255, 255)
    except ValueError:
        return (255, 255, 255)


class WallsView:
    """The walls, doors and lights of one layout's board, in map pixels (made once per layout)."""

    def __init__(self, lay: Layout) -> None:
        b = lay.board
        self.lay = lay
        self.walls = _segments(lay, list(b.walls))
        self.doors: tuple[Door, ...] = b.doors
        self.door_px = _segments(lay, [d.wall for d in b.doors])
        scale = lay.pixels_per_unit()
        self.lights = [(lay.point(li.x, li.y), li.range * scale, _colour(li.color), max(0.0, min(1.0, li.intensity)))
                       for li in b.lights]
        self._glows: dict[tuple[int, tuple[int, int, int], float], pygame.Surface] = {}

    @property
    def empty(self) -> bool:
        return not (len(self.walls) or self.doors or self.lights)

    # -- drawing -----------------------------------------------------------------------------------
    def _in_view(self, segs: np.ndarray, cam: Camera, pad: float) -> np.ndarray:
        x0, y0, x1, y1 = cam.visible_map_rect()
        if not len(segs):
            return np.zeros(0, bool)
        lo_x, hi_x = np.minimum(segs[:, 0], segs[:, 2]), np.maximum(segs[:, 0], segs[:, 2])
        lo_y, hi_y = np.minimum(segs[:, 1], segs[:, 3]), np.maximum(segs[:, 1], segs[:, 3])
        return (hi_x >= x0 - pad) & (lo_x <= x1 + pad) & (hi_y >= y0 - pad) & (lo_y <= y1 + pad)

    def width(self, cam: Camera) -> int:
        """A wall's line width on screen: about a tenth of a square, at least 3 pixels."""
        return max(3, round(self.lay.cell * 0.1 * cam.zoom))

    def draw(self, surface: pygame.Surface, cam: Camera, board: Board) -> None:
        """Every wall in view as a thick dark line, then every door as its symbol in the state `board`
        (the match state's) has it."""
        w = self.width(cam)
        pad = self.lay.cell
        for x1, y1, x2, y2 in self.walls[self._in_view(self.walls, cam, pad)]:
            a, b = cam.to_screen(x1, y1), cam.to_screen(x2, y2)
            _thick(surface, WALL_EDGE, a, b, w + 2)
            _thick(surface, WALL, a, b, w)
        states = board.door_states
        shown = self._in_view(self.door_px, cam, pad)
        for door, show, (x1, y1, x2, y2) in zip(self.doors, shown, self.door_px, strict=True):
            if show:
                draw_door(surface, cam.to_screen(x1, y1), cam.to_screen(x2, y2), states.get(door.id, door.state), w)

    def draw_lights(self, surface: pygame.Surface, cam: Camera) -> None:
        """Each light as a faint additive glow as wide as its range (no rule reads lights)."""
        x0, y0, x1, y1 = cam.visible_map_rect()
        view = pygame.Rect(cam.view_x, cam.view_y, cam.view_w, cam.view_h)
        for (lx, ly), reach, colour, strength in self.lights:
            if lx + reach < x0 or lx - reach > x1 or ly + reach < y0 or ly - reach > y1 or strength <= 0:
                continue
            r = max(1, round(reach * cam.zoom))
            cx, cy = cam.to_screen(lx, ly)
            box = pygame.Rect(round(cx) - r, round(cy) - r, 2 * r, 2 * r)
            if r <= GLOW_CACHED_UP_TO:
                surface.blit(self._glow(r, colour, strength), box, special_flags=pygame.BLEND_ADD)
                continue
            part = box.clip(view)
            if part.width and part.height:
                surface.blit(_glow_part(part, (cx, cy), r, colour, strength), part, special_flags=pygame.BLEND_ADD)

    def _glow(self, r: int, colour: tuple[int, int, int], strength: float) -> pygame.Surface:
        key = (r, colour, round(strength, 2))
        got = self._glows.get(key)
        if got is None:
            if len(self._glows) >= GLOWS_KEPT:
                self._glows.pop(next(iter(self._glows)))
            got = self._glows[key] = _glow_part(pygame.Rect(0, 0, 2 * r, 2 * r), (r, r), r, colour, strength)
        return got

    # -- the pointer -------------------------------------------------------------------------------
    def door_at(self, cam: Camera, pos: tuple[int, int]) -> Door | None:
        """The door whose line (or symbol) is within a few pixels of a screen point, the nearest."""
        if not self.doors:
            return None
        mx, my = cam.to_map(*pos)
        reach = max(PICK_PIXELS, self.width(cam)) / cam.zoom
        best: tuple[float, Door] | None = None
        for door, (x1, y1, x2, y2) in zip(self.doors, self.door_px, strict=True):
            d = _distance(mx, my, x1, y1, x2, y2)
            if d <= reach and (best is None or d < best[0]):
                best = (d, door)
        return best[1] if best else None


def draw_door(surface: pygame.Surface, a: Point, b: Point, state: str, w: int) -> None:
    """A door between screen points a and b: its two jambs, and a solid leaf along the line (closed),
    the same in red with a padlock (locked), or the doorway dashed, open, with the leaf swung square
    to the wall from `a` (open). Coloured by state (DOOR_COLOURS)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    half = max(3.0, w * 0.9)
    colour = DOOR_COLOURS.get(state, DOOR_COLOURS["closed"])
    jamb = max(3.0, w * 1.4)
    for p, s in ((a, 1), (b, -1)):  # the jambs: short dark posts at both ends
        _thick(surface, WALL, p, (p[0] + ux * jamb * s, p[1] + uy * jamb * s), w + 2)
    if state == "open":  # the doorway marked by a dashed line, the leaf swung open from `a`
        overlays.dashed_line(surface, colour, a, b, max(2, w // 3), dash=max(4.0, w * 0.9))
        leaf_end = (a[0] + nx * length * 0.8, a[1] + ny * length * 0.8)
        pts = [(a[0] + ux * half * 0.5, a[1] + uy * half * 0.5), (a[0] - ux * half * 0.5, a[1] - uy * half * 0.5),
               (leaf_end[0] - ux * half * 0.5, leaf_end[1] - uy * half * 0.5),
               (leaf_end[0] + ux * half * 0.5, leaf_end[1] + uy * half * 0.5)]
        pygame.draw.polygon(surface, colour, pts)
        pygame.draw.polygon(surface, WALL, pts, 1)
        return
    pts = [(a[0] + nx * half, a[1] + ny * half), (b[0] + nx * half, b[1] + ny * half),
           (b[0] - nx * half, b[1] - ny * half), (a[0] - nx * half, a[1] - ny * half)]
    pygame.draw.polygon(surface, colour, pts)
    pygame.draw.polygon(surface, WALL, pts, 2)
    if state == "locked":
        _padlock(surface, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), max(5.0, half * 1.3))


def _padlock(surface: pygame.Surface, c: Point, size: float) -> None:
    """A small padlock centred on c: a shackle over a body."""
    body = pygame.Rect(0, 0, round(size * 1.6), round(size * 1.2))
    body.center = (round(c[0]), round(c[1] + size * 0.3))
    shackle = pygame.Rect(0, 0, round(size * 1.1), round(size * 1.3))
    shackle.midbottom = (body.centerx, body.top + round(size * 0.4))
    pygame.draw.ellipse(surface, WALL, shackle.inflate(2, 2), max(2, round(size * 0.35)) + 2)
    pygame.draw.ellipse(surface, LOCK, shackle, max(2, round(size * 0.35)))
    pygame.draw.rect(surface, LOCK, body, border_radius=2)
    pygame.draw.rect(surface, WALL, body, 1, border_radius=2)


def _thick(surface: pygame.Surface, colour: theme.Color, a: Point, b: Point, w: int) -> None:
    """A line `w` pixels wide with round ends (so walls meeting at a corner join without a notch; thin
    lines need none, and a map seen whole draws its thousands of walls in a few milliseconds)."""
    pygame.draw.line(surface, colour, a, b, w)
    if w < 6:
        return
    r = w // 2
    pygame.draw.circle(surface, colour, (round(a[0]), round(a[1])), r)
    pygame.draw.circle(surface, colour, (round(b[0]), round(b[1])), r)


def _glow_part(part: pygame.Rect, c: Point, r: int, colour: tuple[int, int, int], strength: float) -> pygame.Surface:
    """The part `part` (screen pixels) of a glow of radius r centred on c: the light's colour, faint,
    fading to nothing at its edge, to be added to what is under it."""
    xs = np.arange(part.left, part.right, dtype=np.float32) + 0.5 - c[0]
    ys = np.arange(part.top, part.bottom, dtype=np.float32) + 0.5 - c[1]
    d = np.sqrt(xs[:, None] ** 2 + ys[None, :] ** 2) / max(1, r)
    fade = np.clip(1.0 - d, 0.0, 1.0) ** 1.5 * (0.28 * strength)
    rgb = (fade[:, :, None] * np.asarray(colour, np.float32)[None, None, :]).astype(np.uint8)
    return pygame.surfarray.make_surface(rgb)


def _distance(px: float, py: float, x1: float, y1: float, x2: float, y2: float) -> float:
    """From a point to a segment."""
    dx, dy = x2 - x1, y2 - y1
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / n))
    return math.hypot(px - (x1 + t * dx), py - (y1 + t * dy))


# -- in words --------------------------------------------------------------------------------------
def door_hint(door: Door, state: str) -> str:
    """What a game master's click does to a door in `state` (doors.py): the status line over it."""
    if state == "locked":
        return f"The {door.label} is locked: Shift+click unlocks it (GM)."
    return (f"The {door.label} is {state}: click {'closes' if state == 'open' else 'opens'} it, "
            "Shift+click locks it (GM).")


def edge_words(board: Board, sq: XY) -> list[str]:
    """What lies on the edges of a square, as the hover says it: 'wall to the east (M1)', 'closed door
    'cellar door' to the north (M4)', an open door too ('open door ... to the west (M4)'). `board` is
    the match state's (its doors in their states)."""
    if not (board.walls or board.doors) or not board.inside(sq):
        return []
    shut = board.with_doors({d.id: "closed" for d in board.doors if d.state == "open"})  # open doors found too
    live = board.door_states
    out = []
    for n, _, direction in geometry.steps(board, sq, "manhattan"):
        hit = geometry.barrier_between(shut, sq, n)
        if hit is None:
            continue
        where = f"to the {DIRECTION_WORDS.get(direction, direction)}"
        door = hit[1]
        state = live.get(door.id, door.state) if door is not None else ""
        out.append(f"wall {where} (M1)" if door is None else f"{state} {door.label} {where} (M4)")
    return list(dict.fromkeys(out))


def legend_rows(board: Board, gm_mode: bool) -> list[overlays.LegendRow]:
    """The legend's rows for the walls and doors a board has (how to toggle a door in GM mode)."""
    rows = []
    if board.walls:
        rows.append(overlays.LegendRow("wall", "wall: no step or sight across it", "M1"))
    if board.doors:
        words = "door: green open, brown closed, red locked" + (" - click: open/close, Shift: lock" if gm_mode else "")
        rows.append(overlays.LegendRow("door", words, "M4"))
    return rows


def count_rows(board: Board) -> list[overlays.LegendRow]:
    """The terrain view's rows (V): how many walls and doors in which states battlemat read."""
    rows = []
    if board.walls:
        rows.append(overlays.LegendRow("wall", f"walls: {len(board.walls)} segments", "M1"))
    if board.doors:
        states = [d.state for d in board.doors]
        counts = ", ".join(f"{states.count(s)} {s}" for s in ("open", "closed", "locked") if s in states)
        rows.append(overlays.LegendRow("door", f"doors: {counts}", "M4"))
    if board.lights:
        rows.append(overlays.LegendRow("light", f"lights: {len(board.lights)} (drawn only; no rule reads them)"))
    return rows
