"""Paint battlemat's own tiles, and write the tilesets and Tiled project that describe them.

    python assets/make_tiles.py          # rewrites the files below; the output is deterministic

Writes:
- assets/tiles/battlemat.png      square tiles, 32x32, 8 columns
- assets/tiles/battlemat_hex.png  pointy-topped hex tiles, 32x36 (hexsidelength 18), 6 columns
- maps/battlemat.tsx, maps/battlemat_hex.tsx   the tilesets: each tile's terrain class and properties
- maps/battlemat.tiled-project   custom types for Tiled: a class per terrain preset (checkboxes and
  fields for every terrain property) and the Direction enum (multi-choice) for difficult_dirs

All art is painted here from numbers (numpy), so it is original to this project. Each tile is
painted at 4x and averaged down, which smooths every edge. Square ground textures use periodic noise,
so a tile repeats without seams.
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battlemat.core.board import DIRECTIONS  # noqa: E402
from battlemat.io.tiled import PRESETS, TERRAIN_NAMES  # noqa: E402

SS = 4  # supersampling
Color = tuple[float, float, float]


# -- painting primitives -----------------------------------------------------------------------------
class Canvas:
    """An RGBA image painted at SS x resolution, colour premultiplied by alpha; coordinates are in
    final pixels. Ground tiles start with `fill`; overlay tiles (statues, trees) start transparent,
    so one tile layer can lay them over any ground."""

    def __init__(self, w: int, h: int, seed: int) -> None:
        self.w, self.h = w, h
        self.rgb = np.zeros((h * SS, w * SS, 3))
        self.alpha = np.zeros((h * SS, w * SS))
        ys, xs = np.mgrid[0 : h * SS, 0 : w * SS]
        self.x = (xs + 0.5) / SS
        self.y = (ys + 0.5) / SS
        self.rng = np.random.default_rng(seed)

    def fill(self, color: Color) -> None:
        self.rgb[:] = color
        self.alpha[:] = 1.0

    def paint(self, mask: np.ndarray, color: Color | np.ndarray, opacity: float | np.ndarray = 1.0) -> None:
        a = np.clip(np.asarray(mask, float) * opacity, 0, 1)
        col = np.asarray(color, float)
        self.rgb = self.rgb * (1 - a[..., None]) + col * a[..., None]
        self.alpha = self.alpha * (1 - a) + a

    def shade(self, amount: np.ndarray) -> None:
        """Multiply brightness by (1 + amount) where something is painted."""
        self.rgb = np.clip(self.rgb * (1 + amount[..., None]), 0, self.alpha[..., None])

    def noise(self, cells: int, octaves: int = 3, periodic: bool = True) -> np.ndarray:
        """Smooth value noise in [-1, 1], periodic over the tile when `periodic`."""
        total = np.zeros_like(self.x)
        amp, norm = 1.0, 0.0
        for o in range(octaves):
            n = cells * 2**o
            total += amp * _value_noise(self.rng, self.x / self.w * n, self.y / self.h * n, n, periodic)
            norm += amp
            amp *= 0.5
        return total / norm

    def image(self) -> np.ndarray:
        """Averaged down to final size, as uint8 RGBA (straight alpha, as PNG wants)."""
        rgba = np.concatenate([self.rgb, self.alpha[..., None]], axis=2)
        small = rgba.reshape(self.h, SS, self.w, SS, 4).mean(axis=(1, 3))
        a = small[..., 3:4]
        rgb = np.where(a > 1e-6, small[..., :3] / np.maximum(a, 1e-6), 0)
        return (np.concatenate([rgb, a], axis=2) * 255 + 0.5).clip(0, 255).astype(np.uint8)


def _value_noise(rng: np.random.Generator, u: np.ndarray, v: np.ndarray, n: int, periodic: bool) -> np.ndarray:
    lattice = rng.uniform(-1, 1, (n + 1, n + 1))
    if periodic:
        lattice[n, :] = lattice[0, :]
        lattice[:, n] = lattice[:, 0]
    u = np.clip(u, 0, n - 1e-9)
    v = np.clip(v, 0, n - 1e-9)
    i, j = u.astype(int), v.astype(int)
    fu, fv = u - i, v - j
    fu, fv = fu * fu * (3 - 2 * fu), fv * fv * (3 - 2 * fv)
    a, b = lattice[j, i], lattice[j, i + 1]
    c, d = lattice[j + 1, i], lattice[j + 1, i + 1]
    return (a * (1 - fu) + b * fu) * (1 - fv) + (c * (1 - fu) + d * fu) * fv


def smoothstep(e0: float, e1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - e0) / (e1 - e0), 0, 1)
    return t * t * (3 - 2 * t)


def disc(c: Canvas, cx: float, cy: float, r: float | np.ndarray, soft: float = 0.6) -> np.ndarray:
    d = np.hypot(c.x - cx, c.y - cy)
    return 1 - smoothstep(r - soft, r + soft, d)


def box(c: Canvas, x0: float, y0: float, x1: float, y1: float, soft: float = 0.4) -> np.ndarray:
    return (smoothstep(x0 - soft, x0 + soft, c.x) * (1 - smoothstep(x1 - soft, x1 + soft, c.x))
            * smoothstep(y0 - soft, y0 + soft, c.y) * (1 - smoothstep(y1 - soft, y1 + soft, c.y)))


def lit_sphere(c: Canvas, cx: float, cy: float, r: float) -> np.ndarray:
    """Shading of a dome lit from the top left: -0.45 (shadow side) .. +0.35 (highlight)."""
    dx, dy = (c.x - cx) / r, (c.y - cy) / r
    return np.clip(-(dx + dy) * 0.3, -0.45, 0.35) - np.clip(np.hypot(dx, dy) - 0.7, 0, 1) * 0.3


def jitter(c: Canvas, color: Color, amount: float) -> Color:
    k = 1 + c.rng.uniform(-amount, amount)
    return tuple(float(np.clip(v * k, 0, 1)) for v in color)  # type: ignore[return-value]


# -- ground textures ----------------------------------------------------------------------------------
def flagstones(c: Canvas, base: Color = (0.56, 0.53, 0.49)) -> None:
    c.fill(base)
    rows = [(0, 11), (11, 21), (21, 32)]
    offsets = [0, 9, 4]
    widths = [(0, 14, 32), (0, 12, 22, 32), (0, 18, 32)]
    for (y0, y1), off, xs in zip(rows, offsets, widths, strict=True):
        for k in range(len(xs) - 1):
            x0, x1 = xs[k] + off, xs[k + 1] + off
            for shift in (-32, 0, 32):  # wrap so the pattern repeats across tiles
                m = box(c, x0 + shift + 0.6, y0 + 0.6, x1 + shift - 0.6, y1 - 0.6, 0.5)
                c.paint(m, jitter(c, base, 0.10))
    grout = np.ones_like(c.x)
    for (y0, y1), off, xs in zip(rows, offsets, widths, strict=True):
        band = box(c, -1, y0, 33, y1, 0.01)
        for x in xs:
            for shift in (-32, 0, 32):
                grout -= band * (1 - smoothstep(0.3, 0.9, np.abs(c.x - (x + off + shift))))
        grout -= 1 - smoothstep(0.3, 0.9, np.abs(c.y - y0))
    c.shade(c.noise(4, 3) * 0.08)
    c.paint(1 - np.clip(grout, 0, 1), (0.30, 0.28, 0.26), 0.8)


def marble(c: Canvas, light: bool = True) -> None:
    base = (0.86, 0.84, 0.79) if light else (0.74, 0.72, 0.70)
    c.fill(base)
    n = c.noise(3, 4)
    veins = np.abs(np.sin(c.x * 0.35 + c.y * 0.22 + n * 4.0))
    c.paint(1 - smoothstep(0.0, 0.12, veins), (0.50, 0.51, 0.56), 0.6)
    c.shade(c.noise(2, 2) * 0.05)
    seam = 1 - smoothstep(0.2, 0.8, np.minimum(c.x, c.y))  # one slab seam between neighbouring tiles
    c.paint(seam, (0.60, 0.58, 0.55), 0.6)


def planks(c: Canvas, base: Color = (0.55, 0.38, 0.22), horizontal: bool = True, width: float = 8.0) -> None:
    c.fill(base)
    u, v = (c.x, c.y) if horizontal else (c.y, c.x)
    plank = np.floor(v / width)
    grain_noise = _value_noise(c.rng, u / 32 * 2, v / 32 * 16, 16, True)
    for k in range(int(32 / width) + 1):
        sel = plank == k
        c.paint(sel, jitter(c, base, 0.12))
    grain = np.sin(v * 2.2 + grain_noise * 3.0 + plank * 1.7)
    c.shade(grain * 0.06)
    seam = 1 - smoothstep(0.25, 0.8, np.abs(v - np.round(v / width) * width))
    c.paint(seam, (0.22, 0.14, 0.08), 0.85)
    # butt joints, staggered per plank
    for k in range(int(32 / width) + 1):
        jx = (k * 13 + 5) % 32
        m = (plank == k) * (1 - smoothstep(0.25, 0.8, np.abs(u - jx)))
        c.paint(m, (0.25, 0.16, 0.09), 0.7)


def grass(c: Canvas, base: Color = (0.36, 0.55, 0.25)) -> None:
    c.fill(base)
    c.shade(c.noise(3, 3) * 0.16)
    for _ in range(55):
        x, y = c.rng.uniform(0, 32, 2)
        ang = c.rng.uniform(-0.5, 0.5)
        length = c.rng.uniform(1.5, 3.0)
        t = np.clip(((c.x - x) * np.sin(ang) + (c.y - y) * -np.cos(ang)) / length, 0, 1)
        px, py = x + np.sin(ang) * length * t, y - np.cos(ang) * length * t
        d = np.hypot(c.x - px, c.y - py)
        shade = c.rng.uniform(-0.25, 0.25)
        col = tuple(float(np.clip(v * (1 + shade), 0, 1)) for v in base)
        c.paint(1 - smoothstep(0.25, 0.6, d), col, 0.8)


def dirt(c: Canvas) -> None:
    base = (0.55, 0.44, 0.30)
    c.fill(base)
    c.shade(c.noise(4, 3) * 0.14)
    for _ in range(14):
        x, y = c.rng.uniform(2, 30, 2)
        r = c.rng.uniform(0.6, 1.4)
        c.paint(disc(c, x, y, r, 0.4), jitter(c, (0.45, 0.40, 0.34), 0.2))
        c.paint(disc(c, x - r * 0.3, y - r * 0.3, r * 0.45, 0.3), (0.70, 0.64, 0.55), 0.5)


def water(c: Canvas, deep: bool = True) -> None:
    base = (0.16, 0.36, 0.58) if deep else (0.36, 0.58, 0.62)
    c.fill(base)
    n = c.noise(2, 3)
    c.shade(n * 0.12)
    if not deep:
        for _ in range(9):
            x, y = c.rng.uniform(3, 29, 2)
            r = c.rng.uniform(1.0, 2.2)
            c.paint(disc(c, x, y, r, 0.6), (0.55, 0.58, 0.50), 0.45)
    ripple = np.sin(c.y * 2 * np.pi / 8 + n * 5.0 + c.x * 0.2 * np.pi / 3.2)
    c.paint(smoothstep(0.82, 0.98, ripple), (0.85, 0.93, 1.0), 0.45)
    c.paint(smoothstep(0.90, 1.0, -ripple), base, 0.0)


def chasm(c: Canvas) -> None:
    """Looking down into a rift: dark rock ledges fading into a blue-black depth."""
    c.fill((0.05, 0.05, 0.08))
    n = c.noise(3, 4)
    streak = _value_noise(c.rng, c.x / c.w * 12, c.y / c.h * 2, 12, True)
    rock = smoothstep(-0.1, 0.5, n + streak * 0.5)
    c.paint(rock, (0.17, 0.15, 0.16), 0.9)
    c.paint(smoothstep(0.35, 0.7, n + streak * 0.4), (0.27, 0.24, 0.24), 0.8)
    c.paint(1 - smoothstep(-0.6, 0.0, n), (0.08, 0.10, 0.20), 0.7)  # the deep, bluish
    c.shade(c.noise(8, 2) * 0.12)


# -- features -----------------------------------------------------------------------------------------
def shadow(c: Canvas, mask: np.ndarray, dx: float = 1.8, dy: float = 1.8, strength: float = 0.45) -> None:
    """A soft drop shadow of `mask` towards the bottom right (light from the top left)."""
    sy, sx = int(dy * SS), int(dx * SS)
    shift = np.roll(np.roll(mask, sy, axis=0), sx, axis=1)
    if sy > 0:
        shift[:sy] = 0
    if sx > 0:
        shift[:, :sx] = 0
    c.paint(shift, (0.0, 0.0, 0.0), strength)


def wall(c: Canvas) -> None:
    base = (0.38, 0.37, 0.42)
    c.fill((0.20, 0.19, 0.22))
    blocks = [(0, 0, 20, 10), (20, 0, 32, 10), (0, 10, 9, 21), (9, 10, 27, 21), (27, 10, 32, 21),
              (0, 21, 16, 32), (16, 21, 32, 32)]
    for x0, y0, x1, y1 in blocks:
        col = jitter(c, base, 0.10)
        m = box(c, x0 + 0.7, y0 + 0.7, x1 - 0.7, y1 - 0.7, 0.3)
        c.paint(m, col)
        c.paint(m * box(c, x0 + 0.7, y0 + 0.7, x1 - 0.7, y0 + 2.0, 0.3), (0.62, 0.61, 0.66), 0.55)
        c.paint(m * box(c, x0 + 0.7, y0 + 0.7, x0 + 2.0, y1 - 0.7, 0.3), (0.58, 0.57, 0.62), 0.45)
        c.paint(m * box(c, x0 + 0.7, y1 - 2.0, x1 - 0.7, y1 - 0.7, 0.3), (0.16, 0.15, 0.18), 0.55)
        c.paint(m * box(c, x1 - 2.0, y0 + 0.7, x1 - 0.7, y1 - 0.7, 0.3), (0.18, 0.17, 0.20), 0.45)
    c.shade(c.noise(5, 2) * 0.10)


def pillar(c: Canvas) -> None:
    shadow(c, disc(c, 16, 16, 12.5, 1.5), 2.5, 2.5, 0.35)
    c.paint(disc(c, 16, 16, 12.5), (0.80, 0.78, 0.74))
    c.paint(disc(c, 16, 16, 11.0), (0.88, 0.86, 0.82))
    ring = disc(c, 16, 16, 11.0) - disc(c, 16, 16, 10.2)
    c.paint(ring, (0.62, 0.60, 0.57), 0.7)
    ang = np.arctan2(c.y - 16, c.x - 16)
    flutes = 0.5 + 0.5 * np.cos(ang * 16)
    c.paint(disc(c, 16, 16, 10.0) * smoothstep(0.75, 1.0, flutes), (0.72, 0.70, 0.67), 0.5)
    c.shade(disc(c, 16, 16, 12.5) * lit_sphere(c, 16, 16, 12.5) * 0.8)


def figure(c: Canvas, cx: float, cy: float, k: float, stone: Color = (0.80, 0.79, 0.74)) -> None:
    """A standing figure seen from above at scale k (1 = one square): shoulders, arms, head."""
    outline = (0.22, 0.21, 0.22)
    body = np.clip(((c.x - cx) / (11.5 * k)) ** 2 + ((c.y - cy - 1 * k) / (6.0 * k)) ** 2, 0, 9)
    bmask = 1 - smoothstep(0.9, 1.1, body)
    ax = (cx - 10.2 * k, cx + 10.2 * k)
    arms = [disc(c, x, cy + 2.5 * k, 3.0 * k) for x in ax]
    whole = np.clip(bmask + arms[0] + arms[1], 0, 1)
    shadow(c, whole, 2.0 * k, 2.5 * k, 0.5)
    grown = np.clip(1 - smoothstep(0.9, 1.35, body) + sum(disc(c, x, cy + 2.5 * k, 3.8 * k) for x in ax), 0, 1)
    c.paint(grown, outline)
    c.paint(whole, stone)
    c.shade(bmask * lit_sphere(c, cx, cy + k, 11.5 * k) * 0.8)
    for a, x in zip(arms, ax, strict=True):
        c.shade(a * lit_sphere(c, x, cy + 2.5 * k, 3.0 * k) * 0.8)
    c.paint(bmask * (np.abs(c.x - cx) < 0.5 * k) * (c.y > cy + 3 * k), (0.55, 0.54, 0.50), 0.6)
    head = disc(c, cx, cy - 1.5 * k, 5.0 * k)
    c.paint(disc(c, cx, cy - 1.5 * k, 5.8 * k), outline)
    c.paint(head, tuple(min(1.0, v * 1.08) for v in stone))
    c.shade(head * lit_sphere(c, cx, cy - 1.5 * k, 5.0 * k) * 1.2)
    c.paint(disc(c, cx, cy - 4 * k, 1.6 * k) * head, (0.95, 0.95, 0.90), 0.5)


def plinth(c: Canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    m = box(c, x0, y0, x1, y1, 0.4)
    shadow(c, m, 2.0, 2.0, 0.45)
    c.paint(m, (0.36, 0.35, 0.38))
    c.paint(box(c, x0 + 1.5, y0 + 1.5, x1 - 1.5, y1 - 1.5, 0.4), (0.48, 0.47, 0.50))
    c.paint(box(c, x0, y0, x1, y0 + 1.1), (0.66, 0.65, 0.68), 0.7)
    c.paint(box(c, x0, y0, x0 + 1.1, y1), (0.60, 0.59, 0.62), 0.6)


def statue(c: Canvas) -> None:
    """A statue on a square plinth, filling its square."""
    plinth(c, 1.5, 1.5, 30.5, 30.5)
    figure(c, 16, 16, 1.0)


def great_statue(c: Canvas) -> None:
    """A huge statue over 2x2 squares (painted on a 64-px canvas and cut in four)."""
    plinth(c, 2, 2, 62, 62)
    c.paint(box(c, 6, 6, 58, 58, 0.4) - box(c, 7.2, 7.2, 56.8, 56.8, 0.4), (0.30, 0.29, 0.31), 0.6)
    figure(c, 32, 32, 2.05, (0.74, 0.76, 0.70))


def pedestal(c: Canvas) -> None:
    plinth(c, 7, 7, 25, 25)
    bust = disc(c, 16, 17, 6.0)
    c.paint(bust, (0.72, 0.58, 0.34))  # bronze
    c.shade(bust * lit_sphere(c, 16, 17, 6.0))
    head = disc(c, 16, 15.5, 3.4)
    c.paint(head, (0.80, 0.66, 0.40))
    c.shade(head * lit_sphere(c, 16, 15.5, 3.4) * 1.2)


def railing(c: Canvas, vertical: bool = True) -> None:
    """A stone balustrade running through the middle of the square."""
    u = c.y if vertical else c.x  # along the railing
    v = c.x if vertical else c.y  # across it
    band = 1 - smoothstep(4.5, 5.5, np.abs(v - 16))
    c.paint(1 - smoothstep(5.0, 8.5, np.abs(v - 17.5)), (0, 0, 0), 0.35)
    c.paint(band, (0.70, 0.68, 0.66))
    phase = (u % 8) - 4
    knob = 1 - smoothstep(2.2, 3.0, np.hypot(phase, v - 16))
    c.paint(knob, (0.86, 0.84, 0.80))
    c.shade(knob * np.clip(-(phase + (v - 16)) * 0.1, -0.3, 0.3))
    c.paint(band * (1 - smoothstep(0.3, 0.8, np.abs(v - 11.3))), (0.45, 0.43, 0.42), 0.8)
    c.paint(band * (1 - smoothstep(0.3, 0.8, np.abs(v - 20.7))), (0.38, 0.36, 0.35), 0.8)


def stairs_north(c: Canvas) -> None:
    """Steps rising northward: each step up (north) is lighter; a chevron points up the stairs."""
    c.fill((0.5, 0.48, 0.45))
    steps = 4
    step = np.floor(c.y / (32 / steps))
    for k in range(steps):
        light = 0.78 - 0.09 * k
        c.paint(step == k, jitter(c, (light, light * 0.97, light * 0.92), 0.03))
    pos = c.y % (32 / steps)
    c.paint(1 - smoothstep(0.0, 1.4, pos), (0.95, 0.94, 0.90), 0.5)  # nosing of each step
    c.paint(smoothstep(6.0, 8.0, pos), (0.25, 0.23, 0.21), 0.45)  # shadow under the step above
    c.shade(c.noise(4, 2) * 0.05)
    side = (1 - smoothstep(1.2, 2.0, c.x)) + (1 - smoothstep(1.2, 2.0, 32 - c.x))
    c.paint(side, (0.35, 0.33, 0.31))
    d = np.abs(c.y - 13 - np.abs(c.x - 16) * 0.8)
    chev = (1 - smoothstep(0.9, 1.5, d)) * (np.abs(c.x - 16) < 6.5)
    c.paint(chev, (0.30, 0.26, 0.22), 0.75)


def rubble(c: Canvas) -> None:
    """Broken stone strewn over the ground: angular blocks and grit (an overlay)."""
    spots = [(x + c.rng.uniform(-2.5, 2.5), y + c.rng.uniform(-2.5, 2.5))
             for x in (7, 16, 25) for y in (7, 16, 25)]
    spots += [tuple(c.rng.uniform(5, 27, 2)) for _ in range(4)]
    for x, y in spots:
        r = c.rng.uniform(2.0, 3.8)
        ang = c.rng.uniform(0, np.pi)
        u = (c.x - x) * np.cos(ang) + (c.y - y) * np.sin(ang)
        v = -(c.x - x) * np.sin(ang) + (c.y - y) * np.cos(ang)
        m = (1 - smoothstep(r - 0.4, r + 0.4, np.abs(u))) * (1 - smoothstep(r * 0.7 - 0.4, r * 0.7 + 0.4, np.abs(v)))
        shadow(c, m, 1.0, 1.2, 0.5)
        c.paint(m, jitter(c, (0.60, 0.57, 0.52), 0.18))
        edge = 1 - smoothstep(0.0, 0.9, np.minimum(r - np.abs(u), r * 0.7 - np.abs(v)))
        c.paint(m * edge, (0.25, 0.23, 0.21), 0.7)
        c.shade(m * np.clip(-(u + v) / (2 * r), -0.3, 0.3))
    for _ in range(26):
        x, y = c.rng.uniform(2, 30, 2)
        c.paint(disc(c, x, y, c.rng.uniform(0.4, 0.8), 0.3), (0.36, 0.33, 0.30), 0.8)


def pit(c: Canvas) -> None:
    """A hole broken through the floor: a ragged rim falling away into darkness."""
    flagstones(c)
    ang = np.arctan2(c.y - 16, c.x - 16)
    d = np.hypot(c.x - 16, c.y - 16)
    r = 12.5 + 1.2 * np.sin(ang * 5 + 0.7) + 0.7 * np.sin(ang * 11)
    rim = 1 - smoothstep(r + 0.8, r + 2.2, d)
    c.paint(rim, (0.32, 0.30, 0.28))
    c.paint(rim * smoothstep(0.0, 1.0, -np.sin(ang + 0.8)), (0.62, 0.60, 0.56), 0.4)  # lit far edge
    hole = 1 - smoothstep(r - 0.5, r + 0.5, d)
    depth = np.clip(1 - d / r, 0, 1)
    c.paint(hole, (0.20, 0.18, 0.17))
    c.paint(hole * depth, (0.02, 0.02, 0.03), 0.95)
    wall_lit = hole * smoothstep(0.2, 0.9, np.sin(ang + 0.8)) * smoothstep(0.55, 0.95, d / r)
    c.paint(wall_lit, (0.42, 0.38, 0.34), 0.5)


def trap(c: Canvas) -> None:
    flagstones(c)
    plate = box(c, 6, 6, 26, 26, 0.4)
    c.paint(plate, (0.47, 0.44, 0.40))
    c.paint(plate * (1 - box(c, 7, 7, 25, 25, 0.4)), (0.28, 0.25, 0.22), 0.9)
    for i in range(3):
        for j in range(3):
            x, y = 10 + i * 6, 10 + j * 6
            c.paint(disc(c, x, y, 1.4, 0.3), (0.12, 0.10, 0.10))
            c.paint(disc(c, x - 0.3, y - 0.3, 0.6, 0.3), (0.75, 0.72, 0.70), 0.9)
    c.paint(plate, (0.55, 0.15, 0.10), 0.12)


def underbrush(c: Canvas) -> None:
    """Thick bushes (an overlay): many leafy clumps."""
    spots = [(8, 8), (22, 7), (15, 15), (6, 22), (24, 23), (15, 27), (27, 15), (4, 14)]
    for x, y in spots:
        x, y = x + c.rng.uniform(-1.5, 1.5), y + c.rng.uniform(-1.5, 1.5)
        r = c.rng.uniform(5.0, 6.5)
        lobes = r * (1 + 0.16 * np.sin(np.arctan2(c.y - y, c.x - x) * 7 + c.rng.uniform(0, 6)))
        m = disc(c, x, y, lobes, 0.6)
        shadow(c, m, 1.2, 1.5, 0.35)
        c.paint(m, jitter(c, (0.22, 0.40, 0.15), 0.2))
        c.shade(m * lit_sphere(c, x, y, r) * 0.9)
        for _ in range(7):
            lx, ly = x + c.rng.uniform(-r, r) * 0.7, y + c.rng.uniform(-r, r) * 0.7
            c.paint(m * disc(c, lx, ly, 0.8, 0.3), (0.46, 0.66, 0.28), 0.7)


def tree(c: Canvas) -> None:
    """A broadleaf crown seen from above (an overlay)."""
    ang = np.arctan2(c.y - 15, c.x - 15)
    r = 14.0 + 1.3 * np.sin(ang * 9) + 0.8 * np.sin(ang * 5 + 1.3)
    canopy = disc(c, 15, 15, r, 0.7)
    shadow(c, canopy, 2.5, 2.5, 0.45)
    c.paint(canopy, (0.13, 0.36, 0.15))
    c.shade(canopy * lit_sphere(c, 15, 15, 14) * 1.1)
    for _ in range(20):
        x, y = 15 + c.rng.uniform(-9, 9), 15 + c.rng.uniform(-9, 9)
        rr = c.rng.uniform(2.0, 3.6)
        m = disc(c, x, y, rr, 0.6) * canopy
        c.paint(m, jitter(c, (0.20, 0.46, 0.20), 0.2), 0.6)
        c.shade(m * lit_sphere(c, x, y, rr) * 0.6)


def pine(c: Canvas) -> None:
    """A conifer seen from above: a dark star of branches around the trunk (an overlay)."""
    ang = np.arctan2(c.y - 16, c.x - 16)
    d = np.hypot(c.x - 16, c.y - 16)
    r = 12.5 + 2.5 * np.abs(np.cos(ang * 4.5))
    crown = 1 - smoothstep(r - 0.8, r + 0.8, d)
    shadow(c, crown, 2.5, 2.5, 0.45)
    c.paint(crown, (0.10, 0.28, 0.20))
    rays = 0.5 + 0.5 * np.cos(ang * 18 + d * 0.3)
    c.paint(crown * smoothstep(0.6, 1.0, rays), (0.18, 0.40, 0.28), 0.7)
    for ring in (9.0, 5.0):
        c.paint(crown * (1 - smoothstep(0.4, 1.0, np.abs(d - ring))), (0.06, 0.20, 0.14), 0.5)
    c.shade(crown * lit_sphere(c, 16, 16, 15) * 0.9)
    c.paint(disc(c, 16, 16, 1.6), (0.35, 0.24, 0.14))


def boulder(c: Canvas) -> None:
    """A great rock, one level up (an overlay)."""
    ang = np.arctan2(c.y - 16, c.x - 16)
    r = 13.8 + 1.2 * np.sin(ang * 3 + 0.5) + 0.6 * np.sin(ang * 7)
    rock = disc(c, 16, 16, r, 0.6)
    shadow(c, rock, 2.0, 2.0, 0.5)
    c.paint(rock, (0.55, 0.54, 0.52))
    c.shade(rock * (lit_sphere(c, 16, 16, 15) * 1.0 + c.noise(4, 3) * 0.12))
    crack = np.abs(c.y - 16 - 0.5 * (c.x - 16) - 2.5 * np.sin(c.x * 0.5))
    c.paint(rock * (1 - smoothstep(0.2, 0.7, crack)) * (np.abs(c.x - 18) < 8), (0.30, 0.29, 0.28), 0.7)
    c.paint(rock * disc(c, 11, 11, 3.0, 2.0), (0.85, 0.85, 0.82), 0.35)
    moss = smoothstep(0.3, 0.6, c.noise(3, 2)) * rock * (c.y > 18)
    c.paint(moss, (0.36, 0.46, 0.22), 0.55)


def ridge(c: Canvas) -> None:
    """Raised ground: drier, paler grass over stony soil, easy to tell from the lowland."""
    grass(c, (0.60, 0.60, 0.32))
    c.shade(c.noise(4, 2) * 0.08)
    for _ in range(7):
        x, y = c.rng.uniform(3, 29, 2)
        r = c.rng.uniform(0.8, 1.5)
        m = disc(c, x, y, r, 0.4)
        c.paint(m, (0.66, 0.62, 0.54))
        c.shade(m * lit_sphere(c, x, y, r) * 0.8)


def ridge_edge(c: Canvas) -> None:
    """The southern lip of raised ground (an overlay): a rocky drop with its shadow."""
    lip = smoothstep(24.0, 26.0, c.y + 1.2 * np.sin(c.x * 0.7) + 0.8 * np.sin(c.x * 1.9))
    c.paint(lip, (0.48, 0.43, 0.34))
    for _ in range(7):
        x = c.rng.uniform(1, 31)
        m = disc(c, x, c.rng.uniform(26.5, 29.5), c.rng.uniform(1.2, 2.2), 0.4)
        c.paint(m, (0.60, 0.56, 0.48))
        c.shade(m * lit_sphere(c, x, 28, 2.0) * 0.8)
    c.paint(smoothstep(29.5, 32.0, c.y), (0.0, 0.0, 0.0), 0.35)
    c.paint((1 - smoothstep(0.0, 1.5, np.abs(c.y - 24.5 - 1.2 * np.sin(c.x * 0.7)))), (0.78, 0.76, 0.50), 0.5)


def slope_north(c: Canvas) -> None:
    """Hachures and a chevron over the ground: the land rises northward (an overlay)."""
    for i in range(5):
        x = 3.5 + i * 6.25
        for y0 in (2.0, 18.0):
            t = np.clip((c.y - y0) / 12, 0, 1)
            w = 0.9 - 0.5 * t
            m = (1 - smoothstep(w - 0.3, w + 0.3, np.abs(c.x - x))) * (c.y > y0) * (c.y < y0 + 12)
            c.paint(m, (0.25, 0.30, 0.12), 0.7)
    d = np.abs(c.y - 12 - np.abs(c.x - 16) * 0.8)
    c.paint((1 - smoothstep(0.8, 1.4, d)) * (np.abs(c.x - 16) < 5.5), (0.92, 0.92, 0.70), 0.8)


def log(c: Canvas) -> None:
    """A fallen trunk lying east-west (an overlay)."""
    v = c.y - 16
    body = 1 - smoothstep(5.5, 6.3, np.abs(v))
    shadow(c, body, 1.0, 2.0, 0.45)
    c.paint(body, (0.40, 0.28, 0.17))
    bark = np.sin(c.y * 2.6 + 2.0 * np.sin(c.x * 0.4))
    c.paint(body * smoothstep(0.5, 0.9, bark), (0.26, 0.18, 0.11), 0.8)
    c.shade(body * np.clip(-v / 6.0, -0.4, 0.3))
    c.paint(body * smoothstep(0.55, 0.8, c.noise(3, 2)), (0.34, 0.46, 0.20), 0.6)  # moss


def carpet(c: Canvas) -> None:
    """A red runner with a gold border along its northern edge (flip it for the southern one)."""
    c.fill((0.55, 0.10, 0.12))
    c.shade(c.noise(6, 2) * 0.06)
    c.paint(box(c, -1, 2.0, 33, 4.2, 0.3), (0.84, 0.66, 0.24))
    c.paint(box(c, -1, 0.0, 33, 1.2, 0.3), (0.30, 0.05, 0.06))
    motif = np.abs(((c.x + 8) % 16) - 8) + np.abs(c.y - 18)
    c.paint((1 - smoothstep(4.5, 5.3, motif)) - (1 - smoothstep(3.0, 3.8, motif)), (0.80, 0.60, 0.22), 0.8)


def dais(c: Canvas) -> None:
    """Dark green serpentine inlaid with a lighter border: the centrepiece's floor."""
    c.fill((0.16, 0.24, 0.20))
    n = c.noise(3, 4)
    veins = np.abs(np.sin(c.x * 0.3 - c.y * 0.25 + n * 4.5))
    c.paint(1 - smoothstep(0.0, 0.12, veins), (0.45, 0.55, 0.48), 0.6)
    c.shade(c.noise(2, 2) * 0.08)
    c.paint(1 - smoothstep(0.2, 0.8, np.minimum(c.x, c.y)), (0.70, 0.62, 0.40), 0.7)


def bridge(c: Canvas, east_west: bool = True) -> None:
    chasm(c)
    v = c.y if east_west else c.x  # across the bridge
    deck = box(c, -1, 3, 33, 29, 0.3) if east_west else box(c, 3, -1, 29, 33, 0.3)
    inner = Canvas(c.w, c.h, int(c.rng.integers(1 << 30)))
    inner.x, inner.y = c.x, c.y
    planks(inner, (0.58, 0.42, 0.24), horizontal=not east_west, width=5.3)
    if east_west:
        shadow(c, deck, 0, 2.0, 0.45)
    else:
        shadow(c, deck, 2.0, 0, 0.45)
    c.paint(deck, inner.rgb)
    for edge in (4.2, 27.8):  # ropes
        rope = 1 - smoothstep(0.7, 1.2, np.abs(v - edge))
        c.paint(rope, (0.80, 0.68, 0.44))
        along = c.x if east_west else c.y
        c.paint(rope * (0.5 + 0.5 * np.sin(along * 2.4 + v)), (0.55, 0.44, 0.26), 0.5)


def meadow(c: Canvas) -> None:
    """Grass with clover and small flowers, to break up long stretches of grass."""
    grass(c, (0.38, 0.57, 0.26))
    for _ in range(9):
        x, y = c.rng.uniform(2, 30, 2)
        col = [(0.95, 0.92, 0.55), (0.96, 0.96, 0.96), (0.80, 0.55, 0.85)][int(c.rng.integers(3))]
        for dx, dy in ((-0.7, 0), (0.7, 0), (0, -0.7), (0, 0.7)):
            c.paint(disc(c, x + dx, y + dy, 0.55, 0.3), col, 0.9)
        c.paint(disc(c, x, y, 0.4, 0.2), (0.90, 0.70, 0.20))


def scrub(c: Canvas) -> None:
    """Bare earth with tufts of grass: where a field or a road frays into the grass."""
    dirt(c)
    tufts = smoothstep(0.05, 0.4, c.noise(3, 3))
    c.paint(tufts, (0.38, 0.55, 0.26), 0.85)
    for _ in range(30):
        x, y = c.rng.uniform(0, 32, 2)
        c.paint(disc(c, x, y, 0.5, 0.3) * tufts, (0.48, 0.66, 0.30), 0.8)


def great_boulder(c: Canvas) -> None:
    """A great rock over 2x2 squares (an overlay, painted on a 64-px canvas and cut in four)."""
    ang = np.arctan2(c.y - 32, c.x - 32)
    r = 28.5 + 2.0 * np.sin(ang * 3 + 0.5) + 1.0 * np.sin(ang * 7 + 2.0)
    rock = disc(c, 32, 32, r, 0.8)
    shadow(c, rock, 3.0, 3.0, 0.5)
    c.paint(rock, (0.56, 0.55, 0.52))
    c.shade(rock * (lit_sphere(c, 32, 32, 30) * 1.0 + c.noise(4, 3) * 0.14))
    ledge = np.abs(np.hypot(c.x - 30, c.y - 30) - 14 - 2 * np.sin(ang * 5))
    c.paint(rock * (1 - smoothstep(0.3, 1.0, ledge)) * (c.y > 26), (0.32, 0.31, 0.30), 0.6)
    crack = np.abs(c.y - 36 - 0.4 * (c.x - 32) - 3 * np.sin(c.x * 0.3))
    c.paint(rock * (1 - smoothstep(0.2, 0.8, crack)) * (np.abs(c.x - 40) < 12), (0.28, 0.27, 0.26), 0.7)
    c.paint(rock * disc(c, 22, 22, 7.0, 4.0), (0.88, 0.88, 0.85), 0.3)
    moss = smoothstep(0.25, 0.55, c.noise(4, 2)) * rock * (c.y > 38)
    c.paint(moss, (0.36, 0.46, 0.22), 0.55)


# -- hex --------------------------------------------------------------------------------------------
HEX_W, HEX_H, HEX_SIDE = 32, 36, 18


def hex_mask(c: Canvas, inset: float = 0.0) -> np.ndarray:
    """Pointy-topped hexagon filling a HEX_W x HEX_H tile (Tiled's hexagonal, stagger axis y)."""
    cx, cy = HEX_W / 2, HEX_H / 2
    half_w = HEX_W / 2 - inset
    half_side = HEX_SIDE / 2
    top = HEX_H / 2 - inset
    dx, dy = np.abs(c.x - cx), np.abs(c.y - cy)
    slope = (top - half_side) / half_w
    d = np.minimum(half_w - dx, (top - dy - slope * dx) / np.hypot(1, slope))
    return smoothstep(-0.5, 0.5, d)


def hexify(painter: Callable[[Canvas], None], ground: bool = True) -> Callable[[Canvas], None]:
    """A square design painted over a hex tile: ground fills the hex and gets a faint rim, so the
    grid shows; overlays keep their own shape."""

    def paint(c: Canvas) -> None:
        square = Canvas(36, 36, int(c.rng.integers(1 << 30)))
        square.x, square.y = square.x * 32 / 36, square.y * 32 / 36
        painter(square)
        c.rgb = square.rgb[: HEX_H * SS, 2 * SS : (2 + HEX_W) * SS].copy()
        c.alpha = square.alpha[: HEX_H * SS, 2 * SS : (2 + HEX_W) * SS].copy()
        inside = hex_mask(c)
        c.rgb *= inside[..., None]
        c.alpha *= inside
        if ground:
            c.shade(-np.clip(inside - hex_mask(c, 1.2), 0, 1) * 0.28)

    return paint


# -- the tile lists ---------------------------------------------------------------------------------
@dataclass
class Tile:
    key: str  # name used by assets/make_maps.py
    cls: str  # Tiled class: a terrain preset
    painter: Callable[[Canvas], None]
    properties: dict[str, object] = field(default_factory=dict)


def rotated(painter: Callable[[Canvas], None], quarter_turns_cw: int) -> Callable[[Canvas], None]:
    def paint(c: Canvas) -> None:
        painter(c)
        c.rgb = np.rot90(c.rgb, k=-quarter_turns_cw, axes=(0, 1)).copy()
        c.alpha = np.rot90(c.alpha, k=-quarter_turns_cw, axes=(0, 1)).copy()

    return paint


def quarter(painter: Callable[[Canvas], None], qx: int, qy: int, seed: int) -> Callable[[Canvas], None]:
    """One square of a 2x2 design."""

    def paint(c: Canvas) -> None:
        big = Canvas(64, 64, seed)
        painter(big)
        rows = slice(qy * 32 * SS, (qy + 1) * 32 * SS)
        cols = slice(qx * 32 * SS, (qx + 1) * 32 * SS)
        c.rgb, c.alpha = big.rgb[rows, cols].copy(), big.alpha[rows, cols].copy()

    return paint


SQUARE_TILES = [
    # ground
    Tile("floor", "floor", flagstones),
    Tile("marble", "marble", marble),
    Tile("dais", "marble", dais),
    Tile("balcony", "balcony", lambda c: planks(c, (0.56, 0.37, 0.20))),
    Tile("carpet", "floor", carpet),
    Tile("grass", "grass", grass),
    Tile("meadow", "grass", meadow),
    Tile("dirt", "dirt", dirt),
    Tile("scrub", "dirt", scrub),
    Tile("scrub_b", "dirt", scrub),
    Tile("ridge", "ridge", ridge),
    Tile("water", "water", water),
    Tile("shallows", "shallows", lambda c: water(c, deep=False)),
    Tile("chasm", "chasm", chasm),
    Tile("wall", "wall", wall),
    Tile("pit", "pit", pit),
    Tile("trap", "trap", trap),
    Tile("bridge_ew", "bridge", bridge),
    Tile("bridge_ns", "bridge", lambda c: bridge(c, east_west=False)),
    Tile("stairs_n", "stairs", stairs_north),
    Tile("stairs_e", "stairs", rotated(stairs_north, 1), {"difficult_dirs": "E"}),
    Tile("stairs_s", "stairs", rotated(stairs_north, 2), {"difficult_dirs": "S"}),
    Tile("stairs_w", "stairs", rotated(stairs_north, 3), {"difficult_dirs": "W"}),
    # overlays: drawn over a ground tile in a higher layer
    Tile("pillar", "pillar", pillar),
    Tile("statue", "statue", statue),
    Tile("pedestal", "pedestal", pedestal),
    Tile("railing_ns", "railing", railing),
    Tile("railing_ew", "railing", lambda c: railing(c, vertical=False)),
    Tile("great_statue_nw", "statue", quarter(great_statue, 0, 0, 77)),
    Tile("great_statue_ne", "statue", quarter(great_statue, 1, 0, 77)),
    Tile("great_statue_sw", "statue", quarter(great_statue, 0, 1, 77)),
    Tile("great_statue_se", "statue", quarter(great_statue, 1, 1, 77)),
    Tile("rubble", "rubble", rubble),
    Tile("underbrush", "underbrush", underbrush),
    Tile("tree", "tree", tree),
    Tile("pine", "tree", pine),
    Tile("boulder", "boulder", boulder),
    Tile("great_boulder_nw", "boulder", quarter(great_boulder, 0, 0, 91)),
    Tile("great_boulder_ne", "boulder", quarter(great_boulder, 1, 0, 91)),
    Tile("great_boulder_sw", "boulder", quarter(great_boulder, 0, 1, 91)),
    Tile("great_boulder_se", "boulder", quarter(great_boulder, 1, 1, 91)),
    Tile("log", "log", log),
    Tile("ridge_edge", "ridge", ridge_edge),
    Tile("slope_n", "slope", slope_north),
    Tile("slope_e", "slope", rotated(slope_north, 1), {"difficult_dirs": "E"}),
    Tile("slope_s", "slope", rotated(slope_north, 2), {"difficult_dirs": "S"}),
    Tile("slope_w", "slope", rotated(slope_north, 3), {"difficult_dirs": "W"}),
]
SQUARE_COLUMNS = 8

HEX_TILES = [
    Tile("grass", "grass", hexify(grass)),
    Tile("meadow", "grass", hexify(meadow)),
    Tile("dirt", "dirt", hexify(dirt)),
    Tile("floor", "floor", hexify(flagstones)),
    Tile("ridge", "ridge", hexify(ridge)),
    Tile("water", "water", hexify(water)),
    Tile("chasm", "chasm", hexify(chasm)),
    Tile("bridge", "bridge", hexify(bridge)),
    Tile("wall", "wall", hexify(wall)),
    Tile("rubble", "rubble", hexify(rubble, ground=False)),
    Tile("underbrush", "underbrush", hexify(underbrush, ground=False)),
    Tile("tree", "tree", hexify(tree, ground=False)),
    Tile("pine", "tree", hexify(pine, ground=False)),
    Tile("boulder", "boulder", hexify(boulder, ground=False)),
    Tile("log", "log", hexify(log, ground=False)),
]
HEX_COLUMNS = 7


# -- output -----------------------------------------------------------------------------------------
def write_png(path: Path, rgba: np.ndarray) -> None:
    """A plain RGBA PNG (no library needed)."""
    h, w, _ = rgba.shape
    raw = b"".join(b"\x00" + rgba[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)


@dataclass(frozen=True)
class TilesetLayout:
    """One tileset: its tiles in order, `columns` to a row of the sheet, each tile_w x tile_h pixels."""

    name: str
    image: str  # the sheet's path as the .tsx names it (relative to maps/)
    tiles: list[Tile]
    columns: int
    tile_w: int
    tile_h: int
    hexagonal: bool = False


SQUARE_LAYOUT = TilesetLayout("battlemat", "../assets/tiles/battlemat.png", SQUARE_TILES, SQUARE_COLUMNS, 32, 32)
HEX_LAYOUT = TilesetLayout("battlemat_hex", "../assets/tiles/battlemat_hex.png", HEX_TILES, HEX_COLUMNS, HEX_W, HEX_H,
                           hexagonal=True)


def sheet(layout: TilesetLayout, seed: int) -> np.ndarray:
    tiles, columns, tw, th = layout.tiles, layout.columns, layout.tile_w, layout.tile_h
    rows = -(-len(tiles) // columns)
    out = np.zeros((rows * th, columns * tw, 4), np.uint8)
    for i, tile in enumerate(tiles):
        c = Canvas(tw, th, seed + i)
        tile.painter(c)
        r, q = divmod(i, columns)
        out[r * th : (r + 1) * th, q * tw : (q + 1) * tw] = c.image()
    return out


def property_xml(name: str, value: object) -> str:
    """One Tiled <property>, typed so the editor shows a checkbox, a number or the Direction enum."""
    if isinstance(value, bool):
        return f'<property name="{name}" type="bool" value="{str(value).lower()}"/>'
    if isinstance(value, int):
        return f'<property name="{name}" type="int" value="{value}"/>'
    extra = ' propertytype="Direction"' if name == "difficult_dirs" else ""
    return f'<property name="{name}"{extra} value={quoteattr(str(value))}/>'


def tileset_xml(layout: TilesetLayout, img_w: int, img_h: int) -> str:
    name, image, tiles, columns = layout.name, layout.image, layout.tiles, layout.columns
    tw, th, hexagonal = layout.tile_w, layout.tile_h, layout.hexagonal
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.8" tiledversion="1.8.2" name="{name}" tilewidth="{tw}" tileheight="{th}" '
        f'tilecount="{(img_w // tw) * (img_h // th)}" columns="{columns}">',
    ]
    if hexagonal:
        lines.append(' <grid orientation="orthogonal" width="1" height="1"/>')
    lines.append(f' <image source="{image}" width="{img_w}" height="{img_h}"/>')
    for i, tile in enumerate(tiles):
        if tile.properties:
            lines.append(f' <tile id="{i}" type="{tile.cls}">')
            lines.append("  <properties>")
            for key, value in tile.properties.items():
                lines.append("   " + property_xml(key, value))
            lines.append("  </properties>")
            lines.append(" </tile>")
        else:
            lines.append(f' <tile id="{i}" type="{tile.cls}"/>')
    lines.append("</tileset>")
    return "\n".join(lines) + "\n"


MEMBER_TYPES = {"blocked": "bool", "difficult": "bool", "difficult_dirs": "string", "level": "int",
                "opaque": "bool", "cover": "int", "pit": "bool", "hazard": "string", "harm": "int",
                "mechanical": "bool"}
MEMBER_DEFAULTS = {"bool": False, "int": 0, "string": ""}
CLASS_COLORS = {"blocked": "#ff8c3b2f", "pit": "#ff1d1030", "difficult": "#ffc9a227", "level": "#ff5c8f3a"}


def project_json() -> str:
    """Tiled project: the Direction enum (flags, stored as "N,NE") and one class per terrain preset,
    usable as a tile's or an object's class (`wall` also a layer's: its polylines are thin walls);
    its members are the terrain properties with the preset's values as defaults, so Tiled shows
    checkboxes, number fields and a direction picker. Then the `door` class (bools open, locked)."""
    types: list[dict[str, object]] = [{
        "id": 1, "name": "Direction", "type": "enum", "storageType": "string",
        "values": list(DIRECTIONS), "valuesAsFlags": True,
    }]
    for i, (name, preset) in enumerate(PRESETS.items(), start=2):
        members = []
        for member in TERRAIN_NAMES:
            kind = MEMBER_TYPES[member]
            value = preset.get(member, 1 if member == "harm" else MEMBER_DEFAULTS[kind])
            entry: dict[str, object] = {"name": member, "type": kind, "value": value}
            if member == "difficult_dirs":
                entry["propertyType"] = "Direction"
            members.append(entry)
        color = next((CLASS_COLORS[k] for k in CLASS_COLORS if preset.get(k)), "#ffa0a0a4")
        use = ["layer", "object", "tile"] if name == "wall" else ["object", "tile"]  # a layer of class wall: its lines
        types.append({"id": i, "name": name, "type": "class", "color": color, "drawFill": True,
                      "members": members, "useAs": use})
    # Doors (issue 29): an object of class door is a door, closed unless `open`, locked by `locked`
    # (battlemat.io.tiled.walls); not a terrain preset.
    types.append({"id": len(types) + 1, "name": "door", "type": "class", "color": "#ffff8c00", "drawFill": False,
                  "members": [{"name": "locked", "type": "bool", "value": False},
                              {"name": "open", "type": "bool", "value": False}],
                  "useAs": ["object"]})
    project = {
        "automappingRulesFile": "",
        "commands": [],
        "extensionsPath": "extensions",
        "folders": ["."],
        "propertyTypes": types,
    }
    return json.dumps(project, indent=4) + "\n"


def main() -> None:
    tiles_dir = ROOT / "assets" / "tiles"
    maps_dir = ROOT / "maps"
    square = sheet(SQUARE_LAYOUT, 1000)
    write_png(tiles_dir / "battlemat.png", square)
    hexes = sheet(HEX_LAYOUT, 2000)
    write_png(tiles_dir / "battlemat_hex.png", hexes)
    (maps_dir / "battlemat.tsx").write_text(tileset_xml(SQUARE_LAYOUT, square.shape[1], square.shape[0]))
    (maps_dir / "battlemat_hex.tsx").write_text(tileset_xml(HEX_LAYOUT, hexes.shape[1], hexes.shape[0]))
    (maps_dir / "battlemat.tiled-project").write_text(project_json())
    print(f"wrote {tiles_dir}/battlemat.png ({len(SQUARE_TILES)} tiles), battlemat_hex.png ({len(HEX_TILES)} tiles), "
          "maps/battlemat.tsx, maps/battlemat_hex.tsx, maps/battlemat.tiled-project")


if __name__ == "__main__":
    main()
