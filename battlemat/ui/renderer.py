"""The board picture: Tiled layers in document order plus terrain marks, pre-rendered in chunks.

Static art never changes during a match, so it is composed once into CHUNK x CHUNK pixel tiles
(lazily, when first seen) and each frame only blits the visible chunks, scaled once per zoom step.
Frame cost thus depends on the window size, not on the map size or the number of layers. Memory
does not grow with the map either: a tile layer keeps its cells as one array of gids and makes draw
ops only for the chunk being composed (`TileLayer`: a 1000 x 1000 layer is a million cells), and
the chunks far from the view are let go (at most CHUNKS_KEPT beyond those in view).
Only this module gives pytmx a pygame image loader (STYLE.md 1: the core reads maps headless), and
it reads the map through `battlemat.io.tiled.read_tiled` like every other reader.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pygame
from pytmx.util_pygame import pygame_image_loader

from battlemat.core.board import DIRECTION_STEPS, Board, directions_text
from battlemat.core.geometry import steps
from battlemat.core.types import XY
from battlemat.io.tiled import GID_MASK, HEX_120, gid_variants, pytmx, read_tiled
from battlemat.ui import theme
from battlemat.ui.camera import Camera
from battlemat.ui.cover_mark import cover_marks
from battlemat.ui.layout import Layout
from battlemat.ui.uvtt_art import is_uvtt, uvtt_surface

CHUNK = 512
CHUNKS_KEPT = 64  # composed chunks kept beyond those in view (about 1 MB each), least recently seen go first
DATA_LAYERS = ("terrain", "tokens")  # object layers that carry data, not pictures


@dataclass(frozen=True)
class DrawOp:
    """One image at a map-pixel position (top-left), in document order. An animated tile also has
    its frames as (picture, milliseconds); `image` is the first."""

    image: pygame.Surface
    x: int
    y: int
    frames: tuple[tuple[pygame.Surface, int], ...] = ()

    def image_at(self, ms: int) -> pygame.Surface:
        """The picture shown `ms` milliseconds after the map appeared (Tiled's tile animation)."""
        if not self.frames:
            return self.image
        return self.frames[self.frame_at(ms)][0]

    def frame_at(self, ms: int) -> int:
        total = sum(d for _, d in self.frames)
        if total <= 0:
            return 0
        t = ms % total
        for i, (_, d) in enumerate(self.frames):
            if t < d:
                return i
            t -= d
        return len(self.frames) - 1

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(self.x, self.y, self.image.get_width(), self.image.get_height())


def _visible(layer: Any) -> bool:
    v = getattr(layer, "visible", True)
    return bool(int(v)) if isinstance(v, (int, str)) else bool(v)


def _with_opacity(image: pygame.Surface, opacity: float) -> pygame.Surface:
    if opacity >= 0.999:
        return image
    out = image.convert_alpha() if image.get_alpha() is None else image.copy()
    out.set_alpha(round(255 * opacity))
    return out


def _hex_turns(tmx: Any, pytmx: Any) -> dict[int, tuple[int, int]]:
    """On hex maps Tiled reads a tile's diagonal flag as a 60-degree turn and a flag of its own as a
    120-degree one (clockwise, after mirroring); pytmx knows neither (it transposes the picture, or
    finds none). For each such tile: the gid of the same picture only mirrored, and the turn in
    sixths of a circle. The mirrored pictures are registered with pytmx (load them after)."""
    out: dict[int, tuple[int, int]] = {}
    for gid, tiled_gid, flags in gid_variants(tmx):
        sixths = (1 if flags and flags.flipped_diagonally else 0) + (2 if tiled_gid & HEX_120 else 0)
        if sixths:
            mirror = pytmx.TileFlags(bool(flags and flags.flipped_horizontally),
                                     bool(flags and flags.flipped_vertically), False)
            out[gid] = (tmx.register_gid(tiled_gid & GID_MASK, mirror), sixths)
    return out


def _flagged_frames(tmx: Any, pytmx: Any) -> dict[int, list[tuple[int, int]]]:
    """pytmx gives a flipped or turned animated tile the frames of the plain tile, where Tiled
    flips or turns every frame like the cell. For each such cell: its frames as (gid with the
    cell's flags, milliseconds). The flagged frames are registered with pytmx (load them after)."""
    out: dict[int, list[tuple[int, int]]] = {}
    for gid, tiled_gid, flags in gid_variants(tmx):
        turned = tiled_gid & HEX_120
        if not ((flags and any(flags)) or turned):
            continue
        frames = (tmx.get_tile_properties_by_gid(gid) or {}).get("frames") or ()
        if frames:
            cell_flags = flags or pytmx.TileFlags(False, False, False)
            out[gid] = [(tmx.register_gid(tmx.tiledgidmap[f.gid] | turned, cell_flags), int(f.duration))
                        for f in frames]
    return out


class _TilePictures:
    """The pictures of one loaded map's tiles, each made once per gid and opacity: turned as Tiled
    turns them on hex maps, with the tileset's offset; and an animated tile's frames."""

    def __init__(self, tmx: Any, pytmx: Any) -> None:
        self.tmx = tmx
        before = tmx.maxgid
        self.flagged = _flagged_frames(tmx, pytmx)
        self.turns = _hex_turns(tmx, pytmx) if tmx.orientation == "hexagonal" else {}
        if tmx.maxgid != before:
            tmx.reload_images()  # the pictures pytmx did not know it needed
        self.cache: dict[int, tuple[pygame.Surface, int, int] | None] = {}
        self.animations: dict[tuple[int, float], tuple[tuple[pygame.Surface, int], ...]] = {}

    def tile(self, gid: int, opacity: float) -> tuple[pygame.Surface, int, int] | None:
        """(picture, x offset, y offset) of a tile, or None when it has no picture."""
        key = gid if opacity >= 0.999 else -gid - 1_000_000 * round(opacity * 100)
        if key not in self.cache:
            base, sixths = self.turns.get(gid, (gid, 0))
            img = self.tmx.get_tile_image_by_gid(base)
            if img is None:
                self.cache[key] = None
            else:
                ts = self.tmx.get_tileset_from_gid(base)
                ox, oy = (int(v) for v in getattr(ts, "offset", (0, 0)))
                if sixths:  # turned about its centre, clockwise (Tiled's hex rotations)
                    w, h = img.get_size()
                    clear = pygame.Surface((w, h), pygame.SRCALPHA)  # so the corners it uncovers stay clear
                    clear.blit(img, (0, 0))
                    img = pygame.transform.rotate(clear, -60 * sixths)
                    ox -= (img.get_width() - w) // 2
                    oy += (img.get_height() - h) // 2
                self.cache[key] = (_with_opacity(img, opacity), ox, oy)
        return self.cache[key]

    def animation(self, gid: int, opacity: float) -> tuple[tuple[pygame.Surface, int], ...]:
        """A tile's animation frames from its tileset (pictures of the same tileset, same size), one
        tuple per tile: the cells that show it change frame together."""
        if (gid, opacity) not in self.animations:
            props = self.tmx.get_tile_properties_by_gid(gid) or {}
            listed = self.flagged.get(gid) or [(f.gid, int(f.duration)) for f in props.get("frames") or ()]
            frames = []
            for frame_gid, ms in listed:
                t = self.tile(frame_gid, opacity)
                if t is not None:
                    frames.append((t[0], max(1, ms)))
            self.animations[(gid, opacity)] = tuple(frames) if len(frames) > 1 else ()
        return self.animations[(gid, opacity)]


def load_tmx_ops(path: Path, layout: Layout, only: tuple[str, ...] | None = None) -> tuple[list[Drawn], Any]:
    """Every visible picture of a Tiled map in document order: tile layers (`TileLayer`: tiles
    bottom-left aligned in their cell, as Tiled's renderers do, plus tileset offsets), and image
    layers and tile objects as draw ops. `only` restricts to layers with those names (used to
    compare with tmxrasterizer)."""
    tmx = _read_map(path)
    pictures = _TilePictures(tmx, pytmx)
    ops: list[Drawn] = []
    for layer in tmx.layers:
        if not _visible(layer) or (only is not None and layer.name not in only):
            continue
        offset = (int(getattr(layer, "offsetx", 0) or 0), int(getattr(layer, "offsety", 0) or 0))
        opacity = float(getattr(layer, "opacity", 1.0) or 0.0)
        if isinstance(layer, pytmx.TiledTileLayer):
            ops.append(TileLayer(layer, layout, pictures, opacity, offset))
        elif isinstance(layer, pytmx.TiledImageLayer):
            if layer.image is not None:
                ops.append(DrawOp(_with_opacity(layer.image, opacity), *offset))
        elif isinstance(layer, pytmx.TiledObjectGroup) and (layer.name or "").lower() not in DATA_LAYERS:
            ops += _object_ops(layer, opacity, offset)
    return ops, tmx


def _read_map(path: Path) -> Any:
    """The map with its pictures, through the one door every map read takes (`read_tiled`: safe XML
    or JSON, bounded, tilesets embedded, infinite maps made finite, embedded images), so the window
    refuses exactly what `battlemat check` explains, with its message (a LoadError), never a crash
    inside pytmx or pygame."""
    return read_tiled(path, pygame_image_loader)


class TileLayer:
    """A tile layer's cells (one array of gids) and the draw ops of those a region of the map shows,
    made when asked for: each tile bottom-left aligned in its cell, as Tiled draws them, in Tiled's
    painting order (iterating gives every op, for small maps and tests)."""

    def __init__(self, layer: Any, layout: Layout, pictures: _TilePictures, opacity: float,
                 offset: tuple[int, int]) -> None:
        h, w = layout.board.height, layout.board.width
        if layout.board.projection == "staggered":  # its cells are not its squares (Layout.cell_centers)
            h, w = int(layer.height), int(layer.width)
        self.cx, self.cy = layout.cell_centers(w, h)
        data = np.zeros((h, w), np.int64)  # cells off the board are never drawn
        rows = np.asarray(layer.data, np.int64) if len(layer.data) else np.zeros((0, 0), np.int64)
        ch, cw = min(h, rows.shape[0]), min(w, rows.shape[1] if rows.ndim == 2 else 0)
        data[:ch, :cw] = rows[:ch, :cw]
        self.gids, self.layout, self.pictures = data, layout, pictures
        self.opacity, self.offset = opacity, offset
        # how far a cell's picture reaches from the cell's left and bottom edges, over the tiles used
        left = right = up = down = 0
        for gid in np.unique(data).tolist():
            t = pictures.tile(gid, opacity) if gid else None
            if t is not None:
                img, ox, oy = t
                left, right = min(left, ox + offset[0]), max(right, ox + offset[0] + img.get_width())
                up, down = min(up, oy + offset[1] - img.get_height()), max(down, oy + offset[1])
        self.reach = (left - 1, right + 1, up - 1, down + 1)  # (rounding the cell's corner moves it by 1)

    def op(self, x: int, y: int) -> DrawOp | None:
        """The draw op of one cell, None without a picture."""
        gid = int(self.gids[y, x])
        t = self.pictures.tile(gid, self.opacity) if gid else None
        if t is None:
            return None
        img, ox, oy = t
        lay = self.layout
        cx, cy = float(self.cx[y, x]), float(self.cy[y, x])
        left, bottom = cx - lay.tw / 2, cy + lay.th / 2
        return DrawOp(img, round(left) + ox + self.offset[0], round(bottom) - img.get_height() + oy + self.offset[1],
                      self.pictures.animation(gid, self.opacity))

    def ops_in(self, r: pygame.Rect) -> list[DrawOp]:
        """The draw ops whose picture overlaps `r` (map pixels), in Tiled's painting order: top to
        bottom by drawn position (on hex maps staggered along x the raised columns of a row come
        before the lowered ones: overlapping tiles layer so)."""
        lay = self.layout
        left, right, up, down = self.reach
        half_w, half_h = lay.tw / 2, lay.th / 2
        x0, y0, x1, y1 = r.left - right + half_w, r.top - down - half_h, r.right - left + half_w, r.bottom - up - half_h
        if lay.board.projection == "staggered":
            ys, xs = np.nonzero((self.cx >= x0) & (self.cx <= x1) & (self.cy >= y0) & (self.cy <= y1))
            cells = list(zip(xs.tolist(), ys.tolist(), strict=True))
        else:
            cells = lay.centred_in(x0, y0, x1, y1)
        cells.sort(key=lambda c: (float(self.cy[c[1], c[0]]), float(self.cx[c[1], c[0]])))
        out = []
        for x, y in cells:
            op = self.op(x, y)
            if op is not None and op.rect.colliderect(r):
                out.append(op)
        return out

    def __iter__(self) -> Iterator[DrawOp]:
        lay = self.layout
        return iter(self.ops_in(pygame.Rect(-lay.width_px, -lay.height_px, 3 * lay.width_px, 3 * lay.height_px)))


Drawn = DrawOp | TileLayer  # what a map shows, in document order


def _object_ops(layer: Any, opacity: float, offset: tuple[int, int]) -> list[DrawOp]:
    """An object layer's tile objects, scaled to the object's size as Tiled shows them."""
    lox, loy = offset
    ops: list[DrawOp] = []
    for obj in layer:
        pic: pygame.Surface | None = getattr(obj, "image", None)
        if pic is None or not _visible(obj):
            continue
        img = pic
        w, h = round(obj.width or img.get_width()), round(obj.height or img.get_height())
        if (w, h) != img.get_size():
            img = pygame.transform.smoothscale(img, (max(1, w), max(1, h)))
        ops.append(DrawOp(_with_opacity(img, opacity), round(obj.x) + lox, round(obj.y) + loy))
    return ops


class _Ops:
    """Draw ops given one by one (image layers, tile objects), found by the chunks they overlap."""

    def __init__(self, art: MapArt) -> None:
        self.art = art
        self.ops: list[DrawOp] = []
        self.buckets: dict[tuple[int, int], list[int]] = {}

    def add(self, op: DrawOp) -> None:
        for key in self.art.chunks_of(op.rect):
            self.buckets.setdefault(key, []).append(len(self.ops))
        self.ops.append(op)

    def ops_in(self, r: pygame.Rect) -> list[DrawOp]:
        """The ops overlapping `r`, in their order: those of the chunks `r` touches."""
        keys = list(self.art.chunks_of(r))
        found = self.buckets.get(keys[0], []) if len(keys) == 1 else sorted(
            {i for key in keys for i in self.buckets.get(key, ())})
        return [op for i in found if (op := self.ops[i]).rect.colliderect(r)]


class MapArt:
    """The chunked, pre-rendered board and its per-zoom scaled copies."""

    def __init__(self, layout: Layout, ops: Sequence[Drawn], background: tuple[int, int, int] = theme.BG,
                 arena: bool = False) -> None:
        self.layout = layout
        self.board: Board = layout.board
        self.background = background
        self.arena = arena
        self.show_grid = True
        self.show_marks = True
        self.width, self.height = layout.width_px, layout.height_px
        self.cols = max(1, math.ceil(self.width / CHUNK))
        self.rows = max(1, math.ceil(self.height / CHUNK))
        self.layers: list[_Ops | TileLayer] = []  # in document order
        for op in ops:
            if isinstance(op, TileLayer):
                self.layers.append(op)
                continue
            if not self.layers or not isinstance(self.layers[-1], _Ops):
                self.layers.append(_Ops(self))
            last = self.layers[-1]
            assert isinstance(last, _Ops)
            last.add(op)
        self._chunks: OrderedDict[tuple[int, int], pygame.Surface] = OrderedDict()  # least recently seen first
        self._scaled: dict[tuple[int, int], pygame.Surface] = {}
        self._scaled_zoom = -1.0
        self._overlays: dict[tuple[int, int], pygame.Surface | None] = {}  # of chunks showing animated cells
        self.clock = 0  # milliseconds since the map appeared: tile animations play on it
        self._animated: dict[tuple[int, int], list[DrawOp]] = {}  # per chunk built: its animated cells
        self._shown: dict[int, tuple[DrawOp, int]] = {}  # per animation (its frames): a cell, the frame shown

    # -- building ------------------------------------------------------------------------------
    def invalidate(self) -> None:
        self._chunks.clear()
        self._scaled.clear()
        self._overlays.clear()
        self._animated.clear()

    def ops_in(self, r: pygame.Rect) -> Iterator[DrawOp]:
        """Every draw op whose picture overlaps `r` (map pixels), in document order."""
        for layer in self.layers:
            yield from layer.ops_in(r)

    def advance(self, ms: float) -> bool:
        """Let `ms` milliseconds of tile animation pass. Only the cells whose frame changed are drawn
        again, in the chunks already built; True if any did."""
        if not self._shown:
            self.clock += int(round(ms))
            return False
        self.clock += int(round(ms))
        changed = set()
        for frames, (first, shown) in self._shown.items():
            now = first.frame_at(self.clock)
            if now != shown:
                self._shown[frames] = (first, now)
                changed.add(frames)
        dirty: dict[tuple[int, int], list[pygame.Rect]] = {}
        if changed:
            for key, cells in self._animated.items():
                rects = [op.rect for op in cells if id(op.frames) in changed]
                if rects:
                    dirty[key] = rects
        for key, rects in dirty.items():
            self._redraw(key, rects)
            self._scaled.pop(key, None)
        return bool(dirty)

    def chunks_of(self, r: pygame.Rect) -> Iterator[tuple[int, int]]:
        for cy in range(max(0, r.top // CHUNK), min(self.rows - 1, (r.bottom - 1) // CHUNK) + 1):
            for cx in range(max(0, r.left // CHUNK), min(self.cols - 1, (r.right - 1) // CHUNK) + 1):
                yield cx, cy

    def _redraw(self, key: tuple[int, int], rects: list[pygame.Rect]) -> None:
        """Compose again, in place, the parts of a built chunk under `rects` (map pixels); the whole
        chunk when many cells changed (a sea of water tiles), in one pass over its pictures."""
        surf = self._chunks[key]
        ox, oy = key[0] * CHUNK, key[1] * CHUNK
        overlay = self._overlays.get(key)
        if len(rects) > 4:
            rects = [pygame.Rect(ox, oy, surf.get_width(), surf.get_height())]
        for r in rects:
            local = r.move(-ox, -oy).clip(surf.get_rect())
            surf.set_clip(local)
            surf.fill(self.background)
            for op in self.ops_in(r):
                surf.blit(op.image_at(self.clock), (op.x - ox, op.y - oy))
            if overlay is not None:
                surf.blit(overlay, (0, 0))
            surf.set_clip(None)

    def chunk(self, cx: int, cy: int) -> pygame.Surface:
        surf = self._chunks.get((cx, cy))
        if surf is None:
            surf, over, animated = self._build(cx, cy, marks=self.show_marks, grid=self.show_grid)
            self._chunks[(cx, cy)] = surf
            if animated:
                self._overlays[(cx, cy)], self._animated[(cx, cy)] = over, animated
                for op in animated:
                    if id(op.frames) not in self._shown:
                        self._shown[id(op.frames)] = (op, op.frame_at(self.clock))
        else:
            self._chunks.move_to_end((cx, cy))
        return surf

    def kept(self) -> int:
        """How many composed chunks are kept."""
        return len(self._chunks)

    def _let_go(self, keep: int) -> None:
        """Drop the chunks seen least recently, down to `keep` (and their scaled copies)."""
        while len(self._chunks) > keep:
            key, _ = self._chunks.popitem(last=False)
            self._scaled.pop(key, None)
            self._overlays.pop(key, None)
            self._animated.pop(key, None)

    def _build(self, cx: int, cy: int, marks: bool, grid: bool
               ) -> tuple[pygame.Surface, pygame.Surface | None, list[DrawOp]]:
        """A chunk's picture, its overlay of terrain marks and grid (kept to redraw animated cells),
        and its animated cells."""
        ox, oy = cx * CHUNK, cy * CHUNK
        w, h = min(CHUNK, self.width - ox), min(CHUNK, self.height - oy)
        surf = pygame.Surface((max(1, w), max(1, h))).convert()
        surf.fill(self.background)
        squares = self.layout.squares_in(ox, oy, ox + w, oy + h)
        if self.arena:
            for sq in squares:
                color = theme.ARENA_A if (sq[0] + sq[1]) % 2 == 0 else theme.ARENA_B
                pygame.draw.polygon(surf, color, _shift(self.layout.polygon(sq), ox, oy))
        animated = []
        for op in self.ops_in(pygame.Rect(ox, oy, w, h)):
            surf.blit(op.image_at(self.clock), (op.x - ox, op.y - oy))
            if op.frames:
                animated.append(op)
        over = None
        if marks or grid:
            over = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
            if marks:
                for sq in squares:
                    self._mark(over, sq, ox, oy)
            if grid:
                for sq in squares:
                    pygame.draw.polygon(over, theme.GRID, _shift(self.layout.polygon(sq), ox, oy), 1)
            surf.blit(over, (0, 0))
        return surf, over, animated

    def _mark(self, surf: pygame.Surface, sq: XY, ox: int, oy: int) -> None:
        """Terrain marks that teach the rules: hatching for difficult squares (M4), an arrow for
        one-way difficulty (stairs), pits (M5), cover pips (R4), level shading and contours (M12)."""
        b, lay = self.board, self.layout
        x, y = sq
        poly = _shift(lay.polygon(sq), ox, oy)
        cx, cy = lay.center(sq)
        cx, cy = cx - ox, cy - oy
        s = lay.cell
        level = int(b.level[y, x])
        if level:
            shade = (255, 255, 255, min(90, 22 * level)) if level > 0 else (0, 0, 0, min(110, 30 * -level))
            pygame.draw.polygon(surf, shade, poly)
            for n in _neighbours4(b, sq):
                if int(b.level[n[1], n[0]]) < level:
                    a, c = _shared_edge(lay, sq, n)
                    pygame.draw.line(surf, (255, 240, 200, 200), (a[0] - ox, a[1] - oy), (c[0] - ox, c[1] - oy), 2)
        if b.blocked[y, x] and self.arena:
            pygame.draw.polygon(surf, (30, 30, 34, 230), poly)
        if b.difficult[y, x]:
            _hatch(surf, poly, theme.HATCH, max(4, int(s / 5)))
        bits = int(b.difficult_dirs[y, x])
        if bits:
            for name in directions_text(bits).split(","):
                dx, dy = DIRECTION_STEPS[name]
                _chevron(surf, (cx, cy), (dx, dy), s * 0.28, (255, 236, 170, 210))
        if b.pit[y, x]:
            inner = _scale_poly(poly, (cx, cy), 0.8)
            pygame.draw.polygon(surf, theme.PIT, inner)
            pygame.draw.polygon(surf, (210, 90, 60, 170), inner, 1)
        cover_marks(surf, (cx, cy), s, int(b.cover[y, x]), self.arena)
        if int(b.hazard[y, x]) >= 0:
            t = s * 0.16
            x0, y0 = cx - s * 0.32, cy + s * 0.34
            tri = [(x0, y0), (x0 + 2 * t, y0), (x0 + t, y0 - 1.7 * t)]
            pygame.draw.polygon(surf, (250, 200, 40, 230), tri)
            pygame.draw.polygon(surf, (60, 40, 0, 230), tri, 1)

    # -- drawing -------------------------------------------------------------------------------
    def visible_chunks(self, cam: Camera) -> Iterator[tuple[int, int]]:
        x0, y0, x1, y1 = cam.visible_map_rect()
        for cy in range(max(0, int(y0 // CHUNK)), min(self.rows - 1, int(y1 // CHUNK)) + 1):
            for cx in range(max(0, int(x0 // CHUNK)), min(self.cols - 1, int(x1 // CHUNK)) + 1):
                yield cx, cy

    def draw(self, screen: pygame.Surface, cam: Camera) -> None:
        """Blit the visible chunks at the camera's zoom (scaled copies cached per zoom step)."""
        if cam.zoom != self._scaled_zoom:
            self._scaled.clear()
            self._scaled_zoom = cam.zoom
        z = cam.zoom
        clip = screen.get_clip()
        screen.set_clip(pygame.Rect(cam.view_x, cam.view_y, cam.view_w, cam.view_h))
        seen = list(self.visible_chunks(cam))
        for cx, cy in seen:
            x0 = round((cx * CHUNK - cam.x) * z) + cam.view_x
            y0 = round((cy * CHUNK - cam.y) * z) + cam.view_y
            img = self._scaled.get((cx, cy))
            if img is None:
                src = self.chunk(cx, cy)
                if z == 1.0:
                    img = src
                else:
                    w = round((cx * CHUNK + src.get_width()) * z) - round(cx * CHUNK * z)
                    h = round((cy * CHUNK + src.get_height()) * z) - round(cy * CHUNK * z)
                    scale = pygame.transform.smoothscale if z < 1 else pygame.transform.scale
                    img = scale(src, (max(1, w), max(1, h)))
                self._scaled[(cx, cy)] = img
            elif (cx, cy) in self._chunks:
                self._chunks.move_to_end((cx, cy))
            screen.blit(img, (x0, y0))
        screen.set_clip(clip)
        self._let_go(len(seen) + CHUNKS_KEPT)

    def render_full(self, marks: bool = False, grid: bool = False) -> pygame.Surface:
        """The whole map at scale 1 (for comparisons with Tiled's own renderer and benchmarks)."""
        out = pygame.Surface((self.width, self.height)).convert()
        for cy in range(self.rows):
            for cx in range(self.cols):
                out.blit(self._build(cx, cy, marks=marks, grid=grid)[0], (cx * CHUNK, cy * CHUNK))
        return out


# -- small drawing helpers ------------------------------------------------------------------------
def _shift(poly: list[tuple[float, float]], ox: int, oy: int) -> list[tuple[float, float]]:
    return [(px - ox, py - oy) for px, py in poly]


def _scale_poly(poly: list[tuple[float, float]], c: tuple[float, float], f: float) -> list[tuple[float, float]]:
    return [(c[0] + (px - c[0]) * f, c[1] + (py - c[1]) * f) for px, py in poly]


def _hatch(surf: pygame.Surface, poly: list[tuple[float, float]], color: theme.Color, gap: int) -> None:
    """Diagonal hatching clipped to the polygon's bounding box (exact for squares, close for hexes)."""
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    inner = _scale_poly(poly, (sum(xs) / len(xs), sum(ys) / len(ys)), 0.86)
    xs, ys = [p[0] for p in inner], [p[1] for p in inner]
    rect = pygame.Rect(round(min(xs)), round(min(ys)), round(max(xs) - min(xs)), round(max(ys) - min(ys)))
    old = surf.get_clip()
    surf.set_clip(rect.clip(old) if old else rect)
    for k in range(-rect.height, rect.width, gap):
        pygame.draw.line(surf, color, (rect.left + k, rect.bottom), (rect.left + k + rect.height, rect.top), 2)
    surf.set_clip(old)
    pygame.draw.polygon(surf, (40, 30, 20, 110), inner, 1)


def _chevron(surf: pygame.Surface, c: tuple[float, float], d: tuple[int, int], size: float, color: theme.Color) -> None:
    length = math.hypot(*d) or 1.0
    ux, uy = d[0] / length, d[1] / length
    px, py = -uy, ux
    tip = (c[0] + ux * size, c[1] + uy * size)
    left = (c[0] - ux * size * 0.2 + px * size * 0.7, c[1] - uy * size * 0.2 + py * size * 0.7)
    right = (c[0] - ux * size * 0.2 - px * size * 0.7, c[1] - uy * size * 0.2 - py * size * 0.7)
    pygame.draw.lines(surf, color, False, [left, tip, right], 3)


def _neighbours4(b: Board, sq: XY) -> list[XY]:
    return [n for n, diag, _ in steps(b, sq, "manhattan") if not diag]


def _shared_edge(lay: Layout, a: XY, b: XY) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of `a` closest to the centre of `b`: the edge they share."""
    pa = lay.polygon(a)
    bc = lay.center(b)
    two = sorted(pa, key=lambda p: (p[0] - bc[0]) ** 2 + (p[1] - bc[1]) ** 2)[:2]
    return two[0], two[1]


def build_art(board: Board, map_file: Path | None) -> MapArt:
    """The MapArt of a board: its map's pictures (Tiled, or Universal VTT), or a plain checkered arena."""
    layout = Layout(board)
    if map_file is None:
        return MapArt(layout, [], arena=True)
    if is_uvtt(map_file):  # a Universal VTT map: its embedded picture scaled to the board (none: plain)
        pic = uvtt_surface(map_file, layout.width_px, layout.height_px)
        return MapArt(layout, [] if pic is None else [DrawOp(pic, 0, 0)], arena=pic is None)
    ops, tmx = load_tmx_ops(map_file, layout)
    bg = getattr(tmx, "background_color", None)
    color = theme.BG
    if isinstance(bg, str) and bg.startswith("#") and len(bg) >= 7:
        r, g, b = (int(bg[i : i + 2], 16) for i in (len(bg) - 6, len(bg) - 4, len(bg) - 2))
        color = (r, g, b)
    return MapArt(layout, ops, background=color)
