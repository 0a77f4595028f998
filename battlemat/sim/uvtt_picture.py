"""A Universal VTT map's picture, for `check --picture` and the report's heat maps (Pillow, no window).

`check MAP.dd2vtt --picture OUT.png` draws the map's own picture with the walls battlemat read over it
(red), its doors coloured by state (closed orange, open green, locked purple) and its lights as faint
glows, so a game master sees at a glance that the walls line up with the painted ones. The heat maps
of `simulate --report` draw on the same picture (`render_uvtt`, in render_map's shape).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from battlemat.core.board import Board
from battlemat.io.errors import LoadError, Problem
from battlemat.io.outfile import writing
from battlemat.io.uvtt import UvttMap, read_uvtt

WALL = (220, 30, 30)
DOOR = {"closed": (255, 150, 0), "open": (40, 200, 60), "locked": (150, 40, 200)}
PLAIN = (225, 220, 210)  # the board without a picture
LEGEND_LINE = 16  # pixels per legend line


def scaled_picture(uvtt: UvttMap, max_side: int) -> tuple[Image.Image, float]:
    """(the map's picture as RGBA, fitted to the board's pixels and shrunk to `max_side` at most, the
    scale from map pixels). A square stays a whole number of pixels, so walls and heat fall on it."""
    b = uvtt.board
    w, h = b.width * b.tile_width, b.height * b.tile_height
    scale = min(1.0, max_side / max(w, h))
    if scale < 1.0:
        scale = max(1, int(b.tile_width * scale)) / b.tile_width
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    if uvtt.picture is None:
        return Image.new("RGBA", size, (*PLAIN, 255)), scale
    try:
        img = uvtt.picture.decode()
    except ValueError as exc:
        raise LoadError.one(uvtt.source, "image", str(exc), "export the map again") from None
    return (img if img.size == size else img.resize(size, Image.Resampling.LANCZOS)), scale


def render_uvtt(path: str | Path, max_side: int) -> tuple[np.ndarray, Any, float]:
    """render_map's (RGBA float image, map stand-in, scale) of a Universal VTT map: the stand-in
    answers what the report asks of a pytmx map (orientation and tile sizes)."""
    uvtt = read_uvtt(path)
    img, scale = scaled_picture(uvtt, max_side)
    b = uvtt.board
    tmx = SimpleNamespace(orientation="orthogonal", tilewidth=b.tile_width, tileheight=b.tile_height,
                          width=b.width, height=b.height)
    return np.asarray(img, dtype=np.float32) / 255.0, tmx, scale


def draw_barriers(img: Image.Image, board: Board, unit: float) -> None:
    """Walls, doors and lights of `board` over `img`, `unit` pixels per board unit."""
    width = max(2, round(unit / 10))
    glow = Image.new("RGBA", img.size, (0, 0, 0, 0))
    gd = ImageDraw.Draw(glow)
    for light in board.lights:
        x, y, r = light.x * unit, light.y * unit, light.range * unit
        rgb = tuple(int(light.color[i:i + 2], 16) for i in (1, 3, 5))
        gd.ellipse((x - r, y - r, x + r, y + r), fill=(*rgb, round(30 * light.intensity)))
        gd.ellipse((x - width * 2, y - width * 2, x + width * 2, y + width * 2), fill=(*rgb, 255))
    img.alpha_composite(glow)
    draw = ImageDraw.Draw(img)
    for w in board.walls:
        draw.line((w.x1 * unit, w.y1 * unit, w.x2 * unit, w.y2 * unit), fill=WALL, width=width)
    for d in board.doors:
        w = d.wall
        draw.line((w.x1 * unit, w.y1 * unit, w.x2 * unit, w.y2 * unit), fill=DOOR[d.state], width=width + 2)


def draw_uvtt_picture(path: Path, out: Path, max_side: int) -> list[Problem]:
    """Write OUT.png: the picture with walls, doors and lights over it, and a legend. Problems (the map
    cannot be read, OUT cannot be written) are returned; a note says what was drawn."""
    try:
        uvtt = read_uvtt(path)
        img, scale = scaled_picture(uvtt, max_side)
    except LoadError as exc:
        return exc.problems
    b = uvtt.board
    draw_barriers(img, b, b.tile_width * scale)
    states = sorted({d.state for d in b.doors})
    lines = [f"{Path(path).name}: {b.width}x{b.height} squares, {uvtt.picture.words if uvtt.picture else 'no picture'}",
             f"walls (red): {len(b.walls)}",
             f"doors: {len(b.doors)}" + "".join(f", {s} {_colour_word(s)}" for s in states),
             f"lights (glow): {len(b.lights)}"]
    sheet = Image.new("RGBA", (img.width, img.height + LEGEND_LINE * len(lines) + 6), (255, 255, 255, 255))
    sheet.paste(img, (0, 0))
    text = ImageDraw.Draw(sheet)
    for i, line in enumerate(lines):
        text.text((4, img.height + 3 + i * LEGEND_LINE), line, fill=(20, 20, 20))
    try:
        with writing(out, "the picture", "pass a path in a folder you can write to") as tmp:
            sheet.convert("RGB").save(tmp, format="PNG")
    except LoadError as exc:
        return exc.problems
    return [Problem(str(out), "", f"wrote the map's picture with its walls ({len(b.walls)}), doors ({len(b.doors)}) "
                    f"and lights ({len(b.lights)}) over it", note=True)]


def _colour_word(state: str) -> str:
    return {"closed": "(orange)", "open": "(green)", "locked": "(purple)"}[state]
