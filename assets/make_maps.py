"""Write the bundled maps (maps/*.tmx) from the character plans below.

    python assets/make_maps.py          # after assets/make_tiles.py; rewrites the four maps

This is how the bundled maps began; edit them in Tiled from here on (running this again overwrites
those edits). Each plan is a grid of characters per tile layer, a legend naming tiles of
assets/make_tiles.py, areas for the `terrain` object layer and the squares of the `tokens` layer.
Layers are written as CSV, so a diff of a map shows which squares changed.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_tiles import HEX_H, HEX_SIDE, HEX_TILES, HEX_W, SQUARE_TILES, property_xml  # noqa: E402

FLIP_X, FLIP_Y, FLIP_D = 0x80000000, 0x40000000, 0x20000000


@dataclass
class Area:
    """A rectangle (in squares) or an ellipse in the `terrain` object layer."""

    name: str
    x: float
    y: float
    w: float
    h: float
    cls: str = ""
    props: dict[str, object] = field(default_factory=dict)
    ellipse: bool = False


@dataclass
class Plan:
    file: str
    layers: list[tuple[str, list[str]]]  # (layer name, rows of legend characters), bottom first
    legend: dict[str, str]  # character -> tile key ('' = empty); a key may end in '@cw' for rotated 90°
    areas: list[Area] = field(default_factory=list)
    tokens: dict[str, tuple[int, int]] = field(default_factory=dict)
    hexagonal: bool = False
    properties: dict[str, str] = field(default_factory=dict)


def gid_of(key: str, hexagonal: bool) -> int:
    if not key:
        return 0
    base, _, turn = key.partition("@")
    tiles = HEX_TILES if hexagonal else SQUARE_TILES
    index = next(i for i, t in enumerate(tiles) if t.key == base)
    flags = {"": 0, "cw": FLIP_D | FLIP_X, "ccw": FLIP_D | FLIP_Y, "180": FLIP_X | FLIP_Y}[turn]
    return (index + 1) | flags


def square_center(plan: Plan, x: int, y: int) -> tuple[float, float]:
    if not plan.hexagonal:
        return x * 32 + 16.0, y * 32 + 16.0
    row_height = (HEX_H - HEX_SIDE) // 2 + HEX_SIDE
    px = x * HEX_W + (HEX_W // 2 if y % 2 == 1 else 0)  # stagger index odd
    return px + HEX_W / 2, y * row_height + HEX_H / 2


def write(plan: Plan) -> None:
    rows0 = plan.layers[0][1]
    height, width = len(rows0), len(rows0[0])
    for name, rows in plan.layers:
        assert len(rows) == height and all(len(r) == width for r in rows), f"{plan.file}: {name} not {width}x{height}"
    tw, th = (HEX_W, HEX_H) if plan.hexagonal else (32, 32)
    tileset = "battlemat_hex.tsx" if plan.hexagonal else "battlemat.tsx"
    orient = (f'orientation="hexagonal" renderorder="right-down" width="{width}" height="{height}" tilewidth="{tw}" '
              f'tileheight="{th}" infinite="0" hexsidelength="{HEX_SIDE}" staggeraxis="y" staggerindex="odd"'
              if plan.hexagonal else
              f'orientation="orthogonal" renderorder="right-down" width="{width}" height="{height}" tilewidth="32" '
              f'tileheight="32" infinite="0"')
    next_layer = len(plan.layers) + (1 if plan.areas else 0) + (1 if plan.tokens else 0) + 1
    next_object = len(plan.areas) + len(plan.tokens) + 1
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<map version="1.8" tiledversion="1.8.2" {orient} nextlayerid="{next_layer}" nextobjectid="{next_object}">']
    if plan.properties:
        out.append(" <properties>")
        out += [f"  {property_xml(k, v)}" for k, v in plan.properties.items()]
        out.append(" </properties>")
    out.append(f' <tileset firstgid="1" source="{tileset}"/>')
    layer_id = 1
    for name, rows in plan.layers:
        out.append(f' <layer id="{layer_id}" name="{name}" width="{width}" height="{height}">')
        out.append('  <data encoding="csv">')
        csv_rows = []
        for row in rows:
            csv_rows.append(",".join(str(gid_of(plan.legend[ch], plan.hexagonal)) for ch in row))
        out.append(",\n".join(csv_rows))
        out.append("</data>")
        out.append(" </layer>")
        layer_id += 1
    object_id = 1
    if plan.areas:
        out.append(f' <objectgroup id="{layer_id}" name="terrain" color="#d4a017">')
        layer_id += 1
        for a in plan.areas:
            cls = f' type="{a.cls}"' if a.cls else ""
            px, py, pw, ph = a.x * tw, a.y * th, a.w * tw, a.h * th
            if plan.hexagonal:  # hex areas are given by pixel centres of their corner hexes
                x0, y0 = square_center(plan, int(a.x), int(a.y))
                x1, y1 = square_center(plan, int(a.x + a.w - 1), int(a.y + a.h - 1))
                px, py, pw, ph = x0 - tw * 0.4, y0 - th * 0.3, x1 - x0 + tw * 0.8, y1 - y0 + th * 0.6
            out.append(f'  <object id="{object_id}" name={quoteattr(a.name)}{cls} x="{px:g}" y="{py:g}" '
                       f'width="{pw:g}" height="{ph:g}">')
            object_id += 1
            if a.props:
                out.append("   <properties>")
                out += [f"    {property_xml(k, v)}" for k, v in a.props.items()]
                out.append("   </properties>")
            if a.ellipse:
                out.append("   <ellipse/>")
            out.append("  </object>")
        out.append(" </objectgroup>")
    if plan.tokens:
        out.append(f' <objectgroup id="{layer_id}" name="tokens" color="#e02020">')
        layer_id += 1
        for name, (x, y) in plan.tokens.items():
            cx, cy = square_center(plan, x, y)
            out.append(f'  <object id="{object_id}" name="{name}" x="{cx - 12:g}" y="{cy - 12:g}" '
                       'width="24" height="24">')
            out.append("   <ellipse/>")
            out.append("  </object>")
            object_id += 1
        out.append(" </objectgroup>")
    out.append("</map>")
    (ROOT / "maps" / plan.file).write_text("\n".join(out) + "\n")
    print(f"wrote maps/{plan.file} ({width}x{height})")


@dataclass(frozen=True)
class Scatter:
    """How `scatter` fills a layer: characters of `choices` on empty squares whose ground is in
    `allowed`, each with about `density` chance, never on `keep_free` squares nor within `distance`
    squares of ground in `away_from`."""

    allowed: str
    choices: str
    density: float
    keep_free: set[tuple[int, int]] = field(default_factory=set)
    away_from: str = ""
    distance: int = 0


def scatter(ground: list[str], layer: list[str], rng: random.Random, how: Scatter) -> list[str]:
    """Add overlay characters at random to empty squares whose ground is in `how.allowed`, away from
    squares whose ground is in `how.away_from`; clustered (a square next to a filled one is likelier)."""
    grid = [list(r) for r in layer]
    h, w = len(grid), len(grid[0])

    def near(x: int, y: int, chars: str, d: int) -> bool:
        return any(0 <= x + i < w and 0 <= y + j < h and ground[y + j][x + i] in chars
                   for i in range(-d, d + 1) for j in range(-d, d + 1))

    for _ in range(2):
        for y in range(h):
            for x in range(w):
                if grid[y][x] != "." or ground[y][x] not in how.allowed or (x, y) in how.keep_free:
                    continue
                if how.away_from and near(x, y, how.away_from, how.distance):
                    continue
                filled = sum(1 for i in (-1, 0, 1) for j in (-1, 0, 1)
                             if 0 <= x + i < w and 0 <= y + j < h and grid[y + j][x + i] in how.choices)
                if rng.random() < how.density * (0.6 + 0.35 * filled):
                    grid[y][x] = rng.choice(how.choices)
    return ["".join(r) for r in grid]


def sprinkle(ground: list[str], rng: random.Random, source: str, target: str, share: float) -> list[str]:
    """Swap a share of one ground tile for a variant, so large areas don't repeat one picture."""
    return ["".join(target if ch == source and rng.random() < share else ch for ch in row) for row in ground]


def fray(ground: list[str], inner: str, outer: str, edges: str, rng: random.Random, share: float = 1.0) -> list[str]:
    """Squares of `inner` next to `outer` become one of `edges` (a softer border between two grounds)."""
    h, w = len(ground), len(ground[0])
    out = []
    for y in range(h):
        row = ""
        for x in range(w):
            ch = ground[y][x]
            if ch == inner and any(0 <= x + i < w and 0 <= y + j < h and ground[y + j][x + i] == outer
                                   for i, j in ((1, 0), (-1, 0), (0, 1), (0, -1))) and rng.random() < share:
                ch = rng.choice(edges)
            row += ch
        out.append(row)
    return out


# -- The art gallery ------------------------------------------------------------------------------
# The statuary hall of the rules text: balconies (level 1) west and east, reached by stairs that
# are difficult going up (M4, M12); four great statues that block sight (R4) and give cover; the
# huge Bergtroll statue on the dais in the middle (a character: it wakes); busts along the walls.
# The lower step of each stair is on the hall floor (level 0); the upper step stands on the balcony
# floor (level 1), so the stairs climb one level in two difficult steps.
def _gallery_layers() -> list[tuple[str, list[str]]]:
    hall = [  # x 6..19 of the overlay layer, rows 1..16
        "P....b..b....P",
        "..............",
        "..12......12..",
        "..34......34..",
        "..............",
        "..............",
        ".P..........P.",
        None,  # stairs rows
        None,
        ".P..........P.",
        "..............",
        "..............",
        "..12......12..",
        "..34......34..",
        "..............",
        "P....b..b....P",
    ]
    floor, features = ["#" * 26], ["#" * 26]
    for y in range(1, 17):
        row = ""
        for x in range(6, 20):
            if 11 <= x <= 14 and 7 <= y <= 10:
                row += "d"
            elif y in (8, 9) and (7 <= x <= 10 or 15 <= x <= 18):
                row += "c" if y == 8 else "C"
            else:
                row += "m"
        floor.append("#" + "=====" + row + "=====" + "#")
        balcony = {1: "b...", 16: "b...", 4: ".S..", 13: ".S.."}.get(y, "....")
        hall_row = hall[y - 1]
        if hall_row is None:
            features.append("#....<<" + "." * 12 + ">>....#")
        else:
            features.append("#" + balcony + "|" + hall_row + "|" + balcony[::-1] + "#")
    floor.append("#" * 26)
    features.append("#" * 26)
    return [("floor", floor), ("statuary", features)]


GALLERY = Plan(
    file="art_gallery.tmx",
    layers=_gallery_layers(),
    legend={"#": "wall", "=": "balcony", "m": "marble", "d": "dais", "c": "carpet", "C": "carpet@180", ".": "",
            "|": "railing_ns", "P": "pillar", "S": "statue", "b": "pedestal", "<": "stairs_w", ">": "stairs_e",
            "1": "great_statue_nw", "2": "great_statue_ne", "3": "great_statue_sw", "4": "great_statue_se"},
    tokens={
        # the watch: three on the western balcony, two on the floor approaching the stairs
        "parwanna": (2, 8), "billin": (4, 7), "cullin": (4, 10), "farran": (9, 8), "garran": (8, 10),
        # the Ogres: the leader beside the centrepiece, two crossbowmen behind the eastern statues
        "statue": (12, 9), "ogre_boss": (13, 8), "ogre_bolt1": (18, 4), "ogre_bolt2": (18, 12),
    },
)


# -- Forest ambush --------------------------------------------------------------------------------
# A road through the woods. Bandits lie in the underbrush (difficult, M4; cover, R4) south of the
# road, and archers hold a ridge one level up (M12, R5) north of it, reached by slopes that are
# difficult going up. A creek (deep water: a pit, jumped with Acrobatics, M5) cuts the road where
# its ford washed away; shallows upstream are wadeable but slow.
FOREST_CAST = {  # squares of forest_ambush.toml's characters: no tree grows there
    (5, 8), (3, 9), (6, 9), (2, 8), (14, 3), (20, 2), (15, 10), (17, 11), (25, 10), (26, 11),
}


def _forest_layers() -> list[tuple[str, list[str]]]:
    rng = random.Random(20240611)
    ground = [
        "gggggggggwggggRRRRRRRRgggggggggg",
        "gggggggggwggRRRRRRRRRRRRgggggggg",
        "gggggggggwggRRRRRRRRRRRRgggggggg",
        "ggggggggwwggRRRRRRRRRRRRgggggggg",
        "ggggggggwgggRRRRRRRRRRRRgggggggg",
        "ggggggggwggggRRRRRRRRRRggggggggg",
        "gggggggwwggggggggggggggggggggggg",
        "gggggggwgggggggggggggggggggggggg",
        "DDDDDDDwDDDDDDDDDDDDDDDDDDDDDDDD",
        "DDDDDDDwDDDDDDDDDDDDDDDDDDDDDDDD",
        "gggggggwgggggggggggggggggggggggg",
        "ggggggwwgggggggggggggggggggggggg",
        "ggggggwggggggggggggggggggggggggg",
        "gggggsssgggggggggggggggggggggggg",
        "ggggggwggggggggggggggggggggggggg",
        "ggggggwwgggggggggggggggggggggggg",
        "gggggggwgggggggggggggggggggggggg",
        "gggggggwwggggggggggggggggggggggg",
        "ggggggggwggggggggggggggggggggggg",
        "ggggggggwggggggggggggggggggggggg",
    ]
    woods = [
        "................................",
        "....................o...........",
        "............<..........>........",
        "............<..........>........",
        "............<..........>........",
        "............__^^^^^^^^_.........",
        "................................",
        "................................",
        "................................",
        "................................",
        "..............uuuu.......uuu....",
        "...LLL.......uuuuuu.....uuuuu...",
        "..............uuuu....uuuuuu....",
        "...............uu.......uuu.....",
        "................................",
        "......................uu........",
        ".....................uuuu.......",
        "................................",
        "................................",
        "................................",
    ]
    trees = Scatter(allowed="g", choices="TpT", density=0.30, keep_free=FOREST_CAST, away_from="DRw", distance=1)
    woods = scatter(ground, woods, rng, trees)
    ground = sprinkle(ground, rng, "g", "m", 0.18)
    ground = fray(ground, "D", "g", "SZ", rng, 0.45)
    return [("ground", ground), ("woods", woods)]


FOREST = Plan(
    file="forest_ambush.tmx",
    layers=_forest_layers(),
    legend={"g": "grass", "m": "meadow", "R": "ridge", "D": "dirt", "S": "scrub", "Z": "scrub_b", "w": "water",
            "s": "shallows",
            ".": "", "T": "tree", "p": "pine", "u": "underbrush", "L": "log", "o": "boulder", "^": "slope_n",
            "_": "ridge_edge", "<": "slope_e", ">": "slope_w"},
    areas=[
        Area("wasp nest", 28, 14, 2, 2, "", {"hazard": "Stealth 3 or Animals 3", "harm": 1,
                                             "note": "disturb it and the wasps sting (E1)"}, ellipse=True),
    ],
)


# -- The boulder field --------------------------------------------------------------------------------
# Kwirt and the giant lizard: a field of stones where great boulders stand one level up (M12).
# Kwirt leaps atop one with his jumping boots and dives down for the higher-ground bonus (R5).
def _boulder_layers() -> list[tuple[str, list[str]]]:
    rng = random.Random(7)
    ground = [
        "gggggggggggggggggg",
        "ggggggDDDDgggggggg",
        "gggggDDDDDDggggggg",
        "ggggDDDDDDDDgggggg",
        "gggDDDDDDDDDDggggg",
        "gggDDDDDDDDDDDgggg",
        "ggDDDDDDDDDDDDgggg",
        "ggDDDDDDDDDDDggggg",
        "gggDDDDDDDDDgggggg",
        "ggggDDDDDDDggggggg",
        "gggggDDDDggggggggg",
        "gggggggggggggggggg",
        "gggggggggggggggggg",
    ]
    stones = [
        "T.........o....p.T",
        "..o.............p.",
        "....r.......r.....",
        "......rr..........",
        ".o.........r...o..",
        "........12........",
        "...r....34....r...",
        "..........r.......",
        ".o...............u",
        "......r.....o...uu",
        "..r..............u",
        "p......u........Tp",
        "TT....uuu.o....pTT",
    ]
    ground = fray(ground, "g", "D", "Ss", rng, 0.8)
    ground = sprinkle(ground, rng, "g", "m", 0.2)
    return [("ground", ground), ("stones", stones)]


BOULDERS = Plan(
    file="boulder_field.tmx",
    layers=_boulder_layers(),
    legend={"g": "grass", "m": "meadow", "D": "dirt", "S": "scrub", "s": "scrub_b", ".": "", "o": "boulder",
            "r": "rubble",
            "T": "tree", "p": "pine", "u": "underbrush", "1": "great_boulder_nw", "2": "great_boulder_ne",
            "3": "great_boulder_sw", "4": "great_boulder_se"},
    tokens={"kwirt": (7, 6), "lizard": (7, 7)},
)


# -- Bridge over the chasm (hex) ----------------------------------------------------------------------
# Pointy-topped hexes (stagger axis y). A rope bridge, the only way over a chasm (pits: M5), sways
# underfoot (difficult, M4: a terrain area). Goblins hold the eastern ruins, archers on the rise.
BRIDGE = Plan(
    file="bridge_hex.tmx",
    hexagonal=True,
    layers=[
        ("ground", [
            "gggggggCCCCFFFFF#ggg",
            "ggggggggCCCCFFFF#ggg",
            "gggggggCCCCFFFFF#Fgg",
            "ggggggggCCCCFFFRRRgg",
            "ggDDDgggCCCCF#RRRRgg",
            "gggDDDgCCCCFFFFRRRgg",
            "ggggDDDDCCCCFFFFFFDg",
            "ggggggDDBBBBFFFFFDDD",
            "gggggggCCCCFFFFFFggg",
            "ggggggggCCCCFFFFFggg",
            "gggggggCCCCFF#FF#ggg",
            "ggggggggCCCCFFFFFggg",
            "gggggggCCCCFFFFFgggg",
            "ggggggggCCCCFF##gggg",
        ]),
        ("overlays", [
            "T.p..T..........r.Tp",
            ".T..p.......r......T",
            "p..u................",
            "..uu.........r......",
            ".T..................",
            "p....p..............",
            "..T..u........r.....",
            "....u...............",
            ".p............ro....",
            "T..T........r.....T.",
            "..u................p",
            ".p..T.......r..o...T",
            "T..uu.............T.",
            ".T.p..T..........Tp.",
        ]),
    ],
    legend={"g": "grass", "m": "meadow", "D": "dirt", "C": "chasm", "F": "floor", "R": "ridge", "B": "bridge",
            ".": "", " ": "",
            "T": "tree", "p": "pine", "u": "underbrush", "r": "rubble", "#": "wall", "o": "boulder"},
    areas=[Area("swaying rope bridge", 8, 7, 4, 1, "", {"difficult": True, "note": "every step sways (M4)"})],
    tokens={
        "brunna": (4, 6), "odo": (5, 8), "tamsin": (3, 7), "wick": (2, 5),
        "gob_chief": (13, 7), "gob_spear1": (13, 6), "gob_spear2": (13, 8), "gob_archer1": (16, 4),
        "gob_archer2": (16, 5),
    },
)


BRIDGE.layers[0] = ("ground", sprinkle(BRIDGE.layers[0][1], random.Random(3), "g", "m", 0.2))


def main() -> None:
    for plan in (GALLERY, FOREST, BOULDERS, BRIDGE):
        write(plan)


if __name__ == "__main__":
    main()
