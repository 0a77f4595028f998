"""Write the bundled Universal VTT map (maps/cellar_door.dd2vtt), its picture drawn here with Pillow.

    python assets/make_uvtt_map.py      # rewrites maps/cellar_door.dd2vtt

Original art and data, in the shape Dungeondraft exports (format 0.3, README "Universal VTT maps"):
a cellar (squares x 1-7, y 1-8) with a round stone pillar on square (4, 4) (its outline in
`objects_line_of_sight`, along the square's edges, so nobody enters it), a corridor exactly one square
wide (row y = 4, x 8-11) east from the cellar's door to a guard room (x 12-14, y 2-7). The door is a
portal in the cellar's east wall between (8, 4) and (8, 5), closed; the walls are cut where it sits,
as Dungeondraft cuts them. Two lights: a brazier in the cellar, a lantern in the guard room. Coordinates
are grid squares from the picture's top-left corner (map_origin (0, 0)). The encounter on it is
maps/cellar_door.toml.
"""

from __future__ import annotations

import base64
import io
import json
import math
import random
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "maps" / "cellar_door.dd2vtt"
PPG = 48  # pixels per square
W, H = 16, 10  # squares

# Walls as Dungeondraft writes them: polylines, cut at the door (x = 8, y 4..5).
CELLAR = [(8, 5), (8, 9), (1, 9), (1, 1), (8, 1), (8, 4)]
CORRIDOR = [[(8, 4), (12, 4)], [(8, 5), (12, 5)]]
GUARD_ROOM = [(12, 4), (12, 2), (15, 2), (15, 8), (12, 8), (12, 5)]
PILLAR = [(4, 4), (5, 4), (5, 5), (4, 5), (4, 4)]
DOOR = ((8, 4), (8, 5))
LIGHTS = [((1.6, 1.6), 5, 0.9, "ffffb060"), ((14.4, 2.6), 3, 0.7, "ffffe0a0")]

ROCK = (58, 52, 48)
FLOOR = (150, 138, 118)
CORRIDOR_FLOOR = (128, 118, 100)
WALL = (40, 34, 30)
WOOD = (110, 72, 38)


def _floor(draw: ImageDraw.ImageDraw, rng: random.Random, box: tuple[int, int, int, int],
           base: tuple[int, int, int]) -> None:
    """Flagstones: one per square of `box` (x0, y0, x1, y1), each a shade of `base`, mortar between."""
    x0, y0, x1, y1 = box
    for y in range(y0, y1):
        for x in range(x0, x1):
            shade = rng.randint(-12, 12)
            colour = tuple(max(0, min(255, c + shade)) for c in base)
            draw.rectangle((x * PPG + 2, y * PPG + 2, (x + 1) * PPG - 3, (y + 1) * PPG - 3), fill=colour)
            for _ in range(3):  # a crack or two
                cx, cy = x * PPG + rng.randint(6, PPG - 6), y * PPG + rng.randint(6, PPG - 6)
                draw.line((cx, cy, cx + rng.randint(-8, 8), cy + rng.randint(-8, 8)),
                          fill=tuple(c - 25 for c in colour), width=1)


def picture() -> Image.Image:
    rng = random.Random(29)
    img = Image.new("RGB", (W * PPG, H * PPG), ROCK)
    draw = ImageDraw.Draw(img)
    for _ in range(900):  # rough rock
        x, y, r = rng.randrange(W * PPG), rng.randrange(H * PPG), rng.randint(2, 7)
        shade = rng.randint(-14, 14)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(c + shade for c in ROCK))
    draw.rectangle((1 * PPG, 1 * PPG, 8 * PPG, 9 * PPG), fill=(90, 84, 76))  # mortar
    draw.rectangle((12 * PPG, 2 * PPG, 15 * PPG, 8 * PPG), fill=(90, 84, 76))
    draw.rectangle((8 * PPG, 4 * PPG, 12 * PPG, 5 * PPG), fill=(80, 74, 66))
    _floor(draw, rng, (1, 1, 8, 9), FLOOR)
    _floor(draw, rng, (12, 2, 15, 8), FLOOR)
    _floor(draw, rng, (8, 4, 12, 5), CORRIDOR_FLOOR)
    # the pillar: a round column filling its square, lit from the brazier (north-west)
    cx, cy = 4.5 * PPG, 4.5 * PPG
    draw.ellipse((cx - 24, cy - 22, cx + 26, cy + 28), fill=(30, 26, 24))  # shadow
    draw.ellipse((cx - 23, cy - 23, cx + 23, cy + 23), fill=(120, 116, 110), outline=WALL, width=3)
    draw.ellipse((cx - 15, cy - 15, cx + 9, cy + 9), fill=(150, 146, 138))
    # walls: thick dark lines, as Dungeondraft paints them over the floor
    for line in [CELLAR, *CORRIDOR, GUARD_ROOM]:
        draw.line([(x * PPG, y * PPG) for x, y in line], fill=WALL, width=10, joint="curve")
    # the door: planks across the gap, a frame at each end
    (dx, dy0), (_, dy1) = DOOR
    draw.rectangle((dx * PPG - 5, dy0 * PPG, dx * PPG + 5, dy1 * PPG), fill=WOOD, outline=(60, 38, 20), width=2)
    for k in (1, 2, 3):
        y = dy0 * PPG + k * PPG / 4
        draw.line((dx * PPG - 5, y, dx * PPG + 5, y), fill=(70, 45, 22), width=1)
    draw.ellipse((dx * PPG - 8, dy0 * PPG + PPG * 0.55, dx * PPG - 4, dy0 * PPG + PPG * 0.55 + 4), fill=(200, 180, 60))
    # the lights: a brazier and a lantern, with a warm glow on the floor
    glow = Image.new("RGB", img.size, (0, 0, 0))
    gd = ImageDraw.Draw(glow)
    for (lx, ly), reach, intensity, colour in LIGHTS:
        rgb = tuple(int(colour[i:i + 2], 16) for i in (2, 4, 6))
        for step in range(12, 0, -1):
            r = reach * PPG * step / 12
            k = intensity * (1 - step / 13) * 0.35
            gd.ellipse((lx * PPG - r, ly * PPG - r, lx * PPG + r, ly * PPG + r), fill=tuple(round(c * k) for c in rgb))
    lit = np.asarray(img, np.int16) + np.asarray(glow.filter(ImageFilter.GaussianBlur(PPG // 2)), np.int16)
    img = Image.fromarray(np.clip(lit, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(img)
    for (lx, ly), *_ in LIGHTS:
        x, y = lx * PPG, ly * PPG
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=(70, 60, 50), outline=WALL, width=2)
        draw.polygon([(x - 5, y + 3), (x, y - 9), (x + 5, y + 3)], fill=(255, 190, 70))
        draw.polygon([(x - 2, y + 2), (x, y - 4), (x + 2, y + 2)], fill=(255, 240, 180))
    return img


def point(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def document(img: Image.Image) -> dict[str, object]:
    buf = io.BytesIO()
    img.quantize(colors=96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(buf, "PNG", optimize=True)
    (x0, y0), (x1, y1) = DOOR
    return {
        "format": 0.3,
        "resolution": {"map_origin": point(0, 0), "map_size": point(W, H), "pixels_per_grid": PPG},
        "line_of_sight": [[point(x, y) for x, y in line] for line in [CELLAR, *CORRIDOR, GUARD_ROOM]],
        "objects_line_of_sight": [[point(x, y) for x, y in PILLAR]],
        "portals": [{"position": point((x0 + x1) / 2, (y0 + y1) / 2), "bounds": [point(x0, y0), point(x1, y1)],
                     "rotation": round(math.pi / 2, 6), "closed": True, "freestanding": False}],
        "environment": {"baked_lighting": True, "ambient_light": "ff404040"},
        "lights": [{"position": point(*at), "range": reach, "intensity": intensity, "color": colour, "shadows": True}
                   for at, reach, intensity, colour in LIGHTS],
        "image": base64.b64encode(buf.getvalue()).decode("ascii"),
    }


def main() -> None:
    OUT.write_text(json.dumps(document(picture()), indent="\t") + "\n")
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
