"""The conventions maps by others already use, read where battlemat's own terrain says nothing.

DESIGN: "A map is what its author drew": battlemat's own properties first, then the conventions
game engines read (STYLE 16), then a mapping the game master writes (`mapping`), which corrects
the conventions. Each reading is kept with where it came from (`Understood`), so `check` can say
what it found. The conventions:
- layers named for collision (tile or object layers, or a group around them): `collision`,
  `walls`, `blocked`, `obstacles`, `solid` and their kin in several languages, any case, with only
  filler words besides ("Walls level 2", "CollisionLayer"), and layers of class `wall`: their tiles
  and shapes are walls;
- tile properties `collides`, `collision`, `solid`, `block`, `wall`, `obstacle` (true) and
  `walkable`/`passable` (false); tile classes `solid`, `collision`, `obstacle` (battlemat's own
  `blocked` property and `wall` class are read by the terrain reader first): walls;
- a tile's collision shapes (Tiled's collision editor): walls where they cover a square, by the
  house switch `map_shape_cover` (its centre, or most of it);
- shapes on collision layers (rectangles, ellipses, polygons, tile objects) likewise; polylines (and
  lines) there are thin walls between squares, not squares (`walls`, issue 29), and objects of class
  `door` are doors on any layer;
- layer names and tile classes that name terrain (`map_terrain_names`: deep water, lava -> pit;
  mud -> difficult);
- void: on a map drawn in tiles (at least half its squares tiled, no image layer underneath),
  squares with no tile on any tile layer are outside the playable map: blocked and opaque, named
  "void" (never entered, never seen through).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from xml.etree.ElementTree import Element

import numpy as np

from battlemat.core.rules import Rules
from battlemat.io.rules_file import load_rules
from battlemat.io.tiled.document import Doc
from battlemat.io.tiled.shapes import ObjectSquares, is_door, points_inside

# Words that make a layer a collision layer (lowercase), English first, then other languages.
COLLISION_WORDS = frozenset({
    "collision", "collisions", "collide", "collider", "colliders", "collides", "wall", "walls", "blocked",
    "block", "blocks", "blocking", "blocker", "blockers", "obstacle", "obstacles", "solid", "solids",
    "impassable", "barrier", "barriers", "hitbox", "hitboxes",
    # German, French, Spanish, Italian, Portuguese, Dutch, Polish, Swedish, Russian
    "kollision", "kollisionen", "wand", "wände", "waende", "mauer", "mauern", "hindernis", "hindernisse",
    "mur", "murs", "bloqué", "bloque", "colision", "colisión", "colisiones", "pared", "paredes",
    "muro", "muros", "obstáculo", "obstáculos", "obstaculos", "sólido", "collisione", "collisioni", "muri",
    "pareti", "ostacoli", "ostacolo", "colisão", "colisões", "colisao", "colisoes", "parede",
    "muur", "muren", "botsing", "kolizja", "kolizje", "ściana", "ściany", "przeszkody", "vägg", "väggar",
    "стена", "стены", "коллизия", "коллизии", "препятствия", "столкновения",
})
# Names without spaces between words (Chinese, Japanese, Korean): found inside the name.
COLLISION_SUBSTRINGS = ("碰撞", "墙", "牆", "障碍", "壁", "当たり判定", "衝突", "충돌", "벽")
# Words that may stand beside a convention's word without changing what the layer is.
FILLER = frozenset({"layer", "layers", "level", "lvl", "lv", "tile", "tiles", "object", "objects", "shape",
                    "shapes", "map", "the", "of", "main", "area", "areas", "ebene", "calque", "capa", "livello"})
# Tile properties that make a tile a wall when true, and those that do when false.
WALL_WHEN_TRUE = ("collides", "collide", "collision", "collisions", "solid", "block", "wall", "obstacle",
                  "impassable")
WALL_WHEN_FALSE = ("walkable", "passable")
WALL_CLASSES = ("solid", "collision", "collider", "obstacle", "impassable")
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")
# A map is drawn in tiles (so its untiled squares are void) when at least this share is tiled.
VOID_TILED_SHARE = 0.5
OWN_TERRAIN = "battlemat's own terrain (tile classes and properties, layer 'terrain')"


@dataclass(frozen=True)
class Understood:
    """One reading of a map's terrain: what (walls, pits, difficult, void, or a class), how many
    squares it gave the board, and where it came from. With a `unit`, the count is of that instead
    of squares: thin walls and doors ("12 wall segments on object layer 'Walls'")."""

    terrain: str
    squares: int
    origin: str
    unit: str = ""

    def __str__(self) -> str:
        if self.unit:
            return f"{self.squares} {self.unit}{'s' * (self.squares != 1)} on {self.origin}"
        return f"{self.terrain}: {self.squares} square{'s' * (self.squares != 1)}, {self.origin}"


def words(name: str) -> list[str]:
    """A layer or class name as lowercase words: 'CollisionLayer' and 'walls_level_2' both split."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)
    return [w.lower() for w in re.findall(r"[^\W\d_]+", spaced)]


def is_collision_name(name: str) -> bool:
    """Whether a layer's name says it holds collision: its words are collision words and filler,
    with at least one collision word ("Walls level 2", "Collisions"; not "Wall decor")."""
    if any(s in name for s in COLLISION_SUBSTRINGS):
        return True
    ws = [w for w in words(name) if w not in FILLER]
    return bool(ws) and all(w in COLLISION_WORDS for w in ws)


def terrain_table(rules: Rules) -> dict[str, str]:
    """The house switch `map_terrain_names` as phrase -> 'pit' | 'difficult'."""
    table: dict[str, str] = {}
    for entry in rules.switch_strs("map_terrain_names"):
        phrase, _, kind = entry.partition("=")
        kind = kind.strip().lower()
        if kind in ("pit", "difficult"):
            table[" ".join(words(phrase))] = kind
    return table


def named_terrain(name: str, table: dict[str, str]) -> tuple[str, str] | None:
    """(phrase, 'pit' | 'difficult') when a name is one of the terrain phrases (filler aside)."""
    phrase = " ".join(w for w in words(name) if w not in FILLER)
    kind = table.get(phrase)
    return (phrase, kind) if kind else None


def _truth(text: str) -> bool | None:
    low = text.strip().lower()
    return True if low in _TRUE else False if low in _FALSE else None


def layer_paths(root: Element) -> Iterator[tuple[Element, tuple[str, ...]]]:
    """Every tile and object layer in document order with the names of its enclosing groups."""
    stack: list[tuple[Element, tuple[str, ...]]] = [(root, ())]
    out: list[tuple[Element, tuple[str, ...]]] = []
    while stack:
        el, groups = stack.pop()
        for child in reversed(list(el)):
            if child.tag == "group":
                stack.append((child, (*groups, child.get("name", ""))))
            elif child.tag in ("layer", "objectgroup"):
                out.append((child, groups))
    # the stack visits groups last-first; sort back into document order
    order = {id(el): i for i, el in enumerate(root.iter())}
    yield from sorted(out, key=lambda item: order[id(item[0])])


@dataclass
class Reading:
    """One convention's squares before they are painted: a mask and what it means."""

    kind: str  # "walls" | "pit" | "difficult" | "void" (or a class's name, from a mapping)
    feature: str
    origin: str
    mask: np.ndarray
    values: dict[str, Any] | None = None  # a mapping's class: its terrain values, set exactly


class Conventions:
    """Reads the conventions of one map into masks and paints them where battlemat's own terrain
    says nothing."""

    def __init__(self, doc: Doc, squares: ObjectSquares, feature_index: Callable[[str], int],
                 rules: Rules | None = None) -> None:
        """`rules`: the encounter's, whose [rules] may set the map switches; the rules data's by default."""
        rules = rules or load_rules()
        self.doc = doc
        self.squares = squares
        self.geometry = squares.geometry
        self.feature_index = feature_index
        self.table = terrain_table(rules)
        self.samples = 5 if rules.switch_str("map_shape_cover") == "most" else 1
        self.shape = (self.geometry.height, self.geometry.width)

    # -- tiles -----------------------------------------------------------------------------------
    def tile_reading(self, el: Element, ts_name: str, local: int) -> tuple[str, str, str] | None:
        """(kind, feature, origin) a tile's own data gives by convention, or None."""
        cls = (el.get("class") or el.get("type") or "").strip()
        props = el.find("properties")
        for p in props.findall("property") if props is not None else []:
            name = (p.get("name") or "").strip().lower()
            value = p.get("value")
            truth = _truth(value if value is not None else (p.text or ""))
            if (name in WALL_WHEN_TRUE and truth) or (name in WALL_WHEN_FALSE and truth is False):
                return "walls", "wall", f"tile property {p.get('name')!r} (tileset {ts_name!r})"
        if cls.lower() in WALL_CLASSES:
            return "walls", "wall", f"tile class {cls!r} (tileset {ts_name!r})"
        named = named_terrain(cls, self.table) if cls else None
        if named:
            return named[1], named[0], f"tile class {cls!r} -> {named[1]}"
        return None

    def tile_shape_mask(self, shapes: Element, tile_w: int, tile_h: int, flags: tuple[bool, bool, bool]) -> np.ndarray:
        """The squares a tile's collision shapes make walls, as a mask of the cells the tile covers,
        bottom-left aligned as Tiled draws a tile larger than the grid, flips included."""
        geo = self.geometry
        mw, mh = max(1, geo.tile_width), max(1, geo.tile_height)
        cols, rows = max(1, -(-tile_w // mw)), max(1, -(-tile_h // mh))
        n = self.samples
        out = np.zeros((rows, cols), bool)
        fx, fy, fd = flags
        for r in range(rows):
            for c in range(cols):
                # the cell's sample points in the drawn tile's pixels (its top-left is the origin)
                top = tile_h - (rows - r) * mh
                us = np.array([c * mw + (i + 0.5) / n * mw for i in range(n) for _ in range(n)])
                vs = np.array([top + (j + 0.5) / n * mh for _ in range(n) for j in range(n)])
                if fd:
                    us, vs = vs, us
                if fx:
                    us = tile_w - us
                if fy:
                    vs = tile_h - vs
                hit = np.zeros(us.shape, bool)
                for obj in shapes.findall("object"):
                    try:
                        if _has_area(obj):
                            hit |= points_inside(obj, us, vs)
                    except ValueError:  # a shape with unreadable numbers covers nothing
                        continue
                out[r, c] = hit.mean() > 0.5 if n > 1 else bool(hit[0])
        return out

    # -- the whole map ---------------------------------------------------------------------------
    def readings(self, grids: list[np.ndarray], raw_of: np.ndarray,
                 flip_of: dict[int, tuple[bool, bool, bool, bool]]) -> list[Reading]:
        """Every convention's squares (grids: the tile layers' pytmx gids, in document order)."""
        doc = self.doc
        out: list[Reading] = []
        layers = list(layer_paths(doc.root))
        tile_layers = [(el, groups) for el, groups in layers if el.tag == "layer"]
        out += self._void(grids)  # first: any other reading of a square wins over it
        per_origin = self._tile_readings(grids, raw_of, flip_of)
        out += [Reading(kind, feature, origin, mask) for (kind, feature, origin), mask in per_origin.items()]
        # layers by their names
        for (el, groups), g in zip(tile_layers, grids, strict=False):
            reading = self._layer_reading(el, groups, "tile layer")
            if reading is not None:
                out.append(Reading(*reading, g != 0))
        for el, groups in layers:
            if el.tag != "objectgroup":
                continue
            reading = self._layer_reading(el, groups, "object layer")
            if reading is not None:
                out.append(Reading(*reading, self.object_layer_mask(el)))
        return out

    def _void(self, grids: list[np.ndarray]) -> list[Reading]:
        """Untiled squares of a map drawn in tiles (no image layer beneath): outside the map."""
        if not grids:
            return []
        tiled = np.zeros(self.shape, bool)
        for g in grids:
            tiled |= g != 0
        share = float(tiled.mean()) if tiled.size else 0.0
        if share < VOID_TILED_SHARE or tiled.all() or self.doc.root.find(".//imagelayer") is not None:
            return []
        return [Reading("void", "void", "squares with no tile on any tile layer (void: outside the map)", ~tiled)]

    def _tile_readings(self, grids: list[np.ndarray], raw_of: np.ndarray,
                       flip_of: dict[int, tuple[bool, bool, bool, bool]]) -> dict[tuple[str, str, str], np.ndarray]:
        """Tiles by their own data (properties, classes, collision shapes): squares by reading."""
        by_tile = self._tile_elements()
        pgids = sorted({int(v) for g in grids for v in np.unique(g) if v})
        per_origin: dict[tuple[str, str, str], np.ndarray] = {}
        for pgid in pgids:
            raw = int(raw_of[pgid]) if pgid < len(raw_of) else 0
            found = by_tile.get(raw)
            if found is None:
                continue
            el, ts, local = found
            reading = self.tile_reading(el, ts.name, local)
            shapes = self.doc.tile_shapes.get((ts.firstgid, local))
            if reading is None and shapes is None:
                continue
            if reading is not None:
                local_mask = np.ones((1, 1), bool)
            else:
                assert shapes is not None
                reading = ("walls", "wall", f"tile collision shapes (tileset {ts.name!r})")
                fx, fy, fd, _ = flip_of.get(pgid, (False, False, False, False))
                local_mask = self.tile_shape_mask(shapes, *_tile_size(el, ts.element), (fx, fy, fd))
            acc = per_origin.setdefault(reading, np.zeros(self.shape, bool))
            rows = local_mask.shape[0]
            for g in grids:
                cells = g == pgid
                if cells.any():
                    for r, c in zip(*np.nonzero(local_mask), strict=True):
                        acc |= _shift(cells, int(r) - (rows - 1), int(c))  # the cell's offset from the tile's own
        return per_origin

    def _layer_reading(self, el: Element, groups: tuple[str, ...], what: str) -> tuple[str, str, str] | None:
        name = el.get("name", "")
        if name.strip().lower() in ("terrain", "tokens"):
            return None  # battlemat's own layers
        if (el.get("class") or "").strip().lower() == "wall":  # a layer of battlemat's class wall: a collision layer
            return "walls", "wall", f"{what} {name!r} (class wall)"
        for label in (name, *reversed(groups)):
            via = "" if label == name else f" (in group {label!r})"
            if is_collision_name(label):
                return "walls", "wall", f"{what} {name!r}{via} (collision layer name)"
            named = named_terrain(label, self.table)
            if named:
                return named[1], named[0], f"{what} {name!r}{via} (layer name {named[0]!r} -> {named[1]})"
        return None

    def object_layer_mask(self, layer: Element) -> np.ndarray:
        """The squares a layer's shapes cover (by `map_shape_cover`). Polylines are thin walls and
        doors are doors (battlemat.io.tiled.walls): neither covers squares."""
        squares = self.squares
        out = np.zeros(self.shape, bool)
        for obj in layer.findall("object"):
            if not _has_area(obj) or is_door(obj):
                continue
            area = squares.coverage(obj, self.samples)
            if area is None:
                continue
            window, share = area
            out[window] |= share > 0.5 if self.samples > 1 else share > 0
        return out

    def _tile_elements(self) -> dict[int, tuple[Element, Any, int]]:
        """Each tileset tile element by its raw gid, with its tileset and local id."""
        out: dict[int, tuple[Element, Any, int]] = {}
        for ts in self.doc.tilesets:
            for tile in ts.element.findall("tile"):
                try:
                    local = int(tile.get("id", "-1"))
                except ValueError:
                    continue
                out[ts.firstgid + local] = (tile, ts, local)
        for (firstgid, local) in self.doc.tile_shapes:
            if firstgid + local not in out:
                ts = next(t for t in self.doc.tilesets if t.firstgid == firstgid)
                out[firstgid + local] = (Element("tile", id=str(local)), ts, local)
        return out

    # -- painting ---------------------------------------------------------------------------------
    def paint(self, readings: list[Reading], arrays: dict[str, np.ndarray], own: np.ndarray) -> list[Understood]:
        """Paint the readings where battlemat's own terrain says nothing (`own` False), in order
        (later readings win on a square); each Understood counts the squares it gave the board."""
        found: list[Understood] = []
        free = ~own
        for reading in readings:
            mask = reading.mask & free
            count = int(mask.sum())
            if not count:
                continue
            v = reading.values
            if v is None:
                blocked = reading.kind in ("walls", "void")
                v = {"blocked": blocked, "opaque": blocked, "pit": reading.kind == "pit",
                     "difficult": reading.kind == "difficult"}
            for name in ("blocked", "opaque", "pit", "difficult"):
                arrays[name][mask] = bool(v.get(name, False))
            if reading.values is not None:
                arrays["difficult_dirs"][mask] = int(v.get("difficult_dirs", 0))
                arrays["cover"][mask] = int(v.get("cover", 0))
                arrays["hazard"][mask] = int(v.get("hazard_index", -1))
                if "level" in v:
                    arrays["level"][mask] = int(v["level"])
            arrays["feature"][mask] = self.feature_index(reading.feature)
            found.append(Understood(reading.kind, count, reading.origin))
        return found


def _has_area(obj: Element) -> bool:
    if obj.find("point") is not None or obj.find("text") is not None or obj.find("polyline") is not None:
        return False
    if obj.find("polygon") is not None:
        return True
    return float(obj.get("width", "0") or 0) > 0 and float(obj.get("height", "0") or 0) > 0


def _tile_size(el: Element, ts: Element) -> tuple[int, int]:
    """A tile's size in pixels: its own image's (a collection of images), else its tileset's."""
    img = el.find("image")
    try:
        if img is not None and img.get("width") and img.get("height"):
            return int(float(img.get("width", "0"))), int(float(img.get("height", "0")))
        return int(float(ts.get("tilewidth", "0"))), int(float(ts.get("tileheight", "0")))
    except ValueError:
        return 0, 0


def _shift(mask: np.ndarray, dy: int, dx: int) -> np.ndarray:
    """`mask` moved by (dy, dx) squares, what falls off dropped."""
    out = np.zeros_like(mask)
    h, w = mask.shape
    ys, yd = (slice(0, h - dy), slice(dy, h)) if dy >= 0 else (slice(-dy, h), slice(0, h + dy))
    xs, xd = (slice(0, w - dx), slice(dx, w)) if dx >= 0 else (slice(-dx, w), slice(0, w + dx))
    out[yd, xd] = mask[ys, xs]
    return out
