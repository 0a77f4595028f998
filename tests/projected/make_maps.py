"""Write the small isometric and staggered test maps and their encounters (issue 26 item 5).

Original art: the bundled tileset (maps/battlemat.tsx). Each map is 6x5 cells of grass with a wall,
a water pit (the marker the screenshot tests find) and two marble cells where the tokens stand,
placed by the `tokens` layer in the map's object coordinates (Tiled's: an isometric map's objects on
a grid of tile-height squares, a staggered map's in its picture). `write(folder)` returns the paths;
`python tests/projected/make_maps.py FOLDER` writes them there to look at in Tiled.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TSX = ROOT / "maps" / "battlemat.tsx"
GRASS, WALL, WATER, MARBLE = 6, 15, 12, 2  # gids of tiles 5, 14, 11 and 1 of the bundled tileset
W, H, TW, TH = 6, 5, 32, 32  # diamonds as tall as the tiles: no tile hides the upper half of another
ENCOUNTER = """[encounter]
title = "{title}"
map = "{map}"
seed = 1
dice = "none"

[[character]]
id = "hero"
name = "Hero"
side = "heroes"
skills = {{ "Melee/Press" = 3, "Block/Dodge" = 3 }}

[[character]]
id = "foe"
name = "Foe"
side = "monsters"
skills = {{ Melee = 3 }}

[[turn]]
[[turn.intent]]
who = "hero"
use = "Press"
target = "foe"
[[turn.intent]]
who = "foe"
use = "Melee"
target = "hero"
"""
# cells: hero on marble at (1, 1), foe at (4, 3); a wall at (2, 2), water at (3, 1)
CELLS = {(1, 1): MARBLE, (2, 2): WALL, (3, 1): WATER, (4, 3): MARBLE}
HERO, FOE = (1, 1), (4, 3)


def object_point(orientation: str, x: int, y: int) -> tuple[float, float]:
    """Where Tiled puts an object standing on cell (x, y)."""
    if orientation == "isometric":
        return (x + 0.5) * TH, (y + 0.5) * TH
    shift = TW / 2 if y % 2 == 1 else 0.0  # staggered, axis y, odd rows shifted right
    return x * TW + shift + TW / 2, y * TH / 2 + TH / 2


def map_text(orientation: str) -> str:
    data = ",".join(str(CELLS.get((x, y), GRASS)) for y in range(H) for x in range(W))
    stagger = ' staggeraxis="y" staggerindex="odd"' if orientation == "staggered" else ""
    tokens = "".join(f'  <object id="{i + 1}" name="{name}" x="{px}" y="{py}"><point/></object>\n'
                     for i, (name, (px, py)) in enumerate(
                         (n, object_point(orientation, *c)) for n, c in (("hero", HERO), ("foe", FOE))))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="{orientation}" '
            f'renderorder="right-down" width="{W}" height="{H}" tilewidth="{TW}" tileheight="{TH}" infinite="0"'
            f'{stagger} nextlayerid="3" nextobjectid="3">\n'
            f' <tileset firstgid="1" source="{TSX.as_posix()}"/>\n'
            f' <layer id="1" name="ground" width="{W}" height="{H}"><data encoding="csv">{data}</data></layer>\n'
            f' <objectgroup id="2" name="tokens">\n{tokens} </objectgroup>\n</map>\n')


def write(folder: Path) -> dict[str, tuple[Path, Path]]:
    out = {}
    for orientation in ("isometric", "staggered"):
        tmx, toml = folder / f"{orientation}.tmx", folder / f"{orientation}.toml"
        tmx.write_text(map_text(orientation))
        toml.write_text(ENCOUNTER.format(title=f"A small {orientation} map", map=tmx.name))
        out[orientation] = (tmx, toml)
    return out


if __name__ == "__main__":
    import sys

    print(write(Path(sys.argv[1] if len(sys.argv) > 1 else ".")))
