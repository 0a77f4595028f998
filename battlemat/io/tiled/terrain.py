"""The terrain reader: tile, class and object properties of a map to the Board's terrain arrays.

Terrain comes from tile properties and tile classes (presets), combined over all tile layers, then
from the areas of object layers named `terrain`; tokens come from object layers named `tokens`.
Properties are read from the XML, where their declared Tiled types are visible, so a value of the
wrong type can load and still be reported. Wrong values are `errors` (the map is refused); likely
mistakes that load (misspelled names, wrong types, objects that cover nothing) are `lint`, which
only `battlemat check` lists.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any
from xml.etree.ElementTree import Element

import numpy as np

from battlemat.core.board import Board, Hazard, parse_directions, transform_directions, transform_hex_directions
from battlemat.core.errors import RulesError
from battlemat.io.errors import Problem
from battlemat.io.limits import MAX_OBJECTS
from battlemat.io.rules_file import load_rules
from battlemat.io.tiled.adapter import GID_MASK, HEX_120, gid_variants, pytmx
from battlemat.io.tiled.conventions import OWN_TERRAIN, Conventions, Understood
from battlemat.io.tiled.document import Doc, Tileset
from battlemat.io.tiled.shapes import ObjectSquares, is_door, object_class, reference_point

TERRAIN_NAMES = ("blocked", "difficult", "difficult_dirs", "level", "opaque", "cover", "pit", "hazard", "harm",
                 "mechanical")
IGNORED_NAMES = ("note", "description")  # free text a game master may keep on terrain; never read
_BOOL = ("blocked", "difficult", "opaque", "pit")  # each a board array
_HAZARD_BOOL = ("mechanical",)  # part of a hazard (O2), read with it
_INT = ("level", "cover", "harm")
# The range of each whole-number property, and what it means (for the message when it is out of range).
INT_LIMITS = {"level": (-99, 99), "cover": (0, 2), "harm": (1, 99)}
_INT_MEANING = {"level": "an elevation", "cover": "cover 1 or 2 (R4), 0 for none",
                "harm": "the losses a hazard inflicts (E1)"}

# Tile and object classes that name terrain (DESIGN: "A tile's Tiled class may name a terrain preset").
# Their values are defaults: properties on the tile or object override them. The Tiled project file
# (maps/battlemat.tiled-project, written by assets/make_tiles.py) declares the same classes and values.
PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "terrain": {},  # a plain class carrying only what its properties say
    "floor": {},
    "marble": {},
    "grass": {},
    "dirt": {},
    "bridge": {},
    "balcony": {"level": 1},  # M12
    "wall": {"blocked": True, "opaque": True},
    "pillar": {"blocked": True, "opaque": True},
    "tree": {"blocked": True, "opaque": True},
    "log": {"difficult": True, "cover": 1},  # a fallen trunk: climb over it, crouch behind it
    "statue": {"blocked": True, "opaque": True, "cover": 2},  # large: hides and shelters (R4)
    "pedestal": {"blocked": True, "cover": 1},  # a bust on a plinth: shelters, can be seen over
    "railing": {"blocked": True, "cover": 1},  # balustrade at a balcony's edge
    "rubble": {"difficult": True},  # M4
    "underbrush": {"difficult": True, "cover": 1},
    "shallows": {"difficult": True},
    "stairs": {"difficult_dirs": "N"},  # rising northward; rotate the tile in Tiled to turn it (M4, M12)
    "slope": {"difficult_dirs": "N"},
    "pit": {"pit": True},  # M5: never entered, may be jumped
    "chasm": {"pit": True},
    "water": {"pit": True},  # deep water such as a creek: jump it
    "boulder": {"level": 1},
    "ridge": {"level": 1},
    "trap": {"hazard": "Block/Dodge 4 or Perception 3", "harm": 2, "mechanical": True},  # E1; O2: a floor trap
})


@dataclass
class _Spec:
    """Terrain set by one tile or object: only the fields it names."""

    values: dict[str, Any] = field(default_factory=dict)
    feature: str = ""
    name: str = ""  # a terrain object's own name ("wasp nest"): its hazard's name on the map


def _is_layer(el: Element, wanted: str) -> bool:
    return (el.get("name") or "").strip().lower() == wanted


def _properties(el: Element) -> Iterator[tuple[str, str, str]]:
    """(name, declared type, value text) of an element's own <properties>."""
    props = el.find("properties")
    if props is None:
        return
    for p in props.findall("property"):
        value = p.get("value")
        if value is None:
            value = p.text or ""
        yield p.get("name", ""), p.get("type", "string"), value


class TerrainReader:
    """Builds the terrain arrays. `errors` stop loading; `lint` only matters to `battlemat check`."""

    def __init__(self, doc: Doc, tmx: Any) -> None:
        self.doc = doc
        self.tmx = tmx
        self.errors: list[Problem] = []
        self.lint: list[Problem] = []
        self.hazards: dict[tuple[str, int, bool, str], int] = {}
        self.hazard_list: list[Hazard] = []
        self.features: dict[str, int] = {}
        root = doc.root
        self.width, self.height = int(root.get("width", "0")), int(root.get("height", "0"))
        hexagonal = root.get("orientation") == "hexagonal"
        self.geometry = Board.empty(
            self.width, self.height, "hex" if hexagonal else "square",
            stagger_axis=root.get("staggeraxis", "") if hexagonal else "",
            stagger_index=root.get("staggerindex", "") if hexagonal else "",
            tile_width=int(root.get("tilewidth", "32")), tile_height=int(root.get("tileheight", "32")),
            hex_side_length=int(float(root.get("hexsidelength", "0") or 0)) if hexagonal else 0,
        )
        self.squares = ObjectSquares(self.geometry)
        self.understood: list[Understood] = []  # what the board's terrain came from, for `check`
        self.mapping: Any = None  # a game master's mapping (battlemat.io.tiled.mapping.Mapping), if any
        self.conventions: Conventions | None = None
        self.rules: Any = None  # the encounter's rules (its [rules] may set the map switches), else the data's

    # -- reading one set of properties ---------------------------------------------------------
    def spec(self, cls: str, props: list[tuple[str, str, str]], file: str, place: str, strict: bool = False,
             name: str = "") -> _Spec:
        """A tile's or object's terrain: its class's preset, overridden by its properties. With `strict`
        (terrain objects) every unknown property name is reported; on tiles, which may carry properties
        for other uses, only names close to a terrain name are (likely typos)."""
        spec = _Spec(name=name.strip())
        cls = (cls or "").strip()
        preset = PRESETS.get(cls.lower())
        if cls:
            spec.feature = cls.lower() if preset is not None else cls
            if preset is None:
                close = difflib.get_close_matches(cls.lower(), PRESETS, n=1, cutoff=0.75)
                if close:
                    self.lint.append(Problem(file, f"{place}.class", f"unknown terrain class {cls!r}",
                                             f"did you mean {close[0]!r}? Terrain classes: {', '.join(PRESETS)}"))
        if preset:
            spec.values.update(preset)
            if "difficult_dirs" in preset:
                spec.values["difficult_dirs"] = parse_directions(str(preset["difficult_dirs"]))
        for name, kind, text in props:
            where = f"{place}.{name}"
            if name not in TERRAIN_NAMES:
                if name not in IGNORED_NAMES:
                    self._unknown_name(name, file, where, strict)
                continue
            value = self._value(name, kind, text, file, where)
            if value is not None:
                spec.values[name] = value
        if "hazard" in spec.values or "harm" in spec.values or "mechanical" in spec.values:
            self._hazard(spec, file, place)
        return spec

    def _unknown_name(self, name: str, file: str, where: str, strict: bool = False) -> None:
        close = difflib.get_close_matches(name.lower(), TERRAIN_NAMES, n=1, cutoff=0.75)
        if close or strict:
            hint = f"did you mean {close[0]!r}? " if close else ""
            self.lint.append(Problem(file, where, f"unknown terrain property {name!r}",
                                     f"{hint}terrain properties are: {', '.join(TERRAIN_NAMES)}"))

    def _value(self, name: str, kind: str, text: str, file: str, where: str) -> Any:
        """Convert one terrain property. Wrong values are errors; right values in the wrong Tiled type
        (a string 'true' for a bool) load, and `check` asks for the proper type (checkboxes, dropdowns)."""
        raw = text.strip()
        if name in _BOOL or name in _HAZARD_BOOL:
            low = raw.lower()
            if low in ("true", "1", "yes"):
                value = True
            elif low in ("false", "0", "no", ""):
                value = False
            else:
                self.errors.append(Problem(file, where, f"{name} is true or false, found {text!r}",
                                           f"make {name} a bool property (a checkbox in Tiled)"))
                return None
            if kind != "bool":
                self.lint.append(Problem(file, where, f"{name} is a {kind} property; it should be a bool",
                                         f"in Tiled remove {name} and add it again with type bool"))
            return value
        if name in _INT:
            try:
                number = float(raw)
            except ValueError:
                number = float("nan")
            if not math.isfinite(number) or number != int(number):
                self.errors.append(Problem(file, where, f"{name} is a whole number, found {text!r}",
                                           f"make {name} an int property"))
                return None
            whole = int(number)
            limits = INT_LIMITS[name]
            if not limits[0] <= whole <= limits[1]:
                meaning = _INT_MEANING[name]
                self.errors.append(Problem(file, where, f"{name} is {meaning}, {limits[0]}..{limits[1]}, found {whole}",
                                           f"use a value from {limits[0]} to {limits[1]}"))
                return None
            if kind != "int":
                self.lint.append(Problem(file, where, f"{name} is a {kind} property; it should be an int",
                                         f"in Tiled remove {name} and add it again with type int"))
            return whole
        if kind not in ("string",):
            self.lint.append(Problem(file, where, f"{name} is a {kind} property; it should be a string",
                                     f"in Tiled remove {name} and add it again with type string"))
        if name == "difficult_dirs":
            try:
                return parse_directions(raw)
            except ValueError as exc:
                self.errors.append(Problem(file, where, f"bad direction in difficult_dirs: {exc}",
                                           'write directions of travel that are difficult, e.g. "N" or "N,NE"'))
                return None
        return raw  # hazard text, checked with harm below

    def _hazard(self, spec: _Spec, file: str, place: str) -> None:
        text = spec.values.pop("hazard", "")
        had_harm = "harm" in spec.values or "mechanical" in spec.values
        harm = spec.values.pop("harm", 1)
        mechanical = bool(spec.values.pop("mechanical", False))
        if not text:
            if had_harm:
                what = "harm" if "harm" in spec.values or harm != 1 else "mechanical"
                self.lint.append(Problem(file, f"{place}.{what}", f"{what} without a hazard has no effect",
                                         'add hazard = the skills that elude it, e.g. "Block/Dodge 4 or '
                                         'Perception 3" (E1)'))
            return
        try:
            hz = Hazard.parse(text, harm)
            rules = load_rules()
            reqs = []
            for skill, rating in hz.requirements:
                reqs.append((rules.canonical(skill), rating))
            hz = Hazard(hz.text, tuple(reqs), hz.harm, mechanical, spec.name or spec.feature)
        except (ValueError, RulesError) as exc:
            self.errors.append(Problem(file, f"{place}.hazard", f"cannot read the hazard {text!r}: {exc}",
                                       'write the skills that elude it, e.g. "Block/Dodge 4 or Perception 3" (E1)'))
            return
        key = (hz.text, hz.harm, hz.mechanical, hz.name)
        if key not in self.hazards:
            self.hazards[key] = len(self.hazard_list)
            self.hazard_list.append(hz)
        spec.values["hazard_index"] = self.hazards[key]

    def feature_index(self, name: str) -> int:
        if not name:
            return -1
        return self.features.setdefault(name, len(self.features))

    # -- tiles ---------------------------------------------------------------------------------
    def _tileset_of(self, tiled_gid: int) -> tuple[Tileset, int] | None:
        found = None
        for ts in self.doc.tilesets:
            if ts.firstgid <= tiled_gid:
                found = ts
            else:
                break
        return (found, tiled_gid - found.firstgid) if found else None

    def tile_specs(self, used_gids: set[int]) -> dict[int, _Spec]:
        """Terrain of each tile used in the map, by its raw Tiled gid (flags masked off)."""
        by_tile: dict[tuple[int, int], Element] = {}
        for ts in self.doc.tilesets:
            for tile in ts.element.findall("tile"):
                try:
                    by_tile[(ts.firstgid, int(tile.get("id", "-1")))] = tile
                except ValueError:
                    continue
        specs: dict[int, _Spec] = {}
        for gid in sorted(used_gids):
            owner = self._tileset_of(gid)
            if owner is None:
                continue
            ts, local = owner
            element = by_tile.get((ts.firstgid, local))
            if element is None:
                continue
            cls = element.get("class") or element.get("type") or ""
            spec = self.spec(cls, list(_properties(element)), ts.file, f"tileset {ts.name!r} tile {local}")
            if spec.values or spec.feature:
                specs[gid] = spec
        return specs

    # -- the board -----------------------------------------------------------------------------
    def board(self) -> Board:
        tmx = self.tmx
        h, w = self.height, self.width
        tile_layers = [layer for layer in tmx.layers if isinstance(layer, pytmx.TiledTileLayer)]
        grids = [np.asarray(layer.data, dtype=np.int64).reshape(h, w) for layer in tile_layers]

        # pytmx gid -> (raw Tiled gid, flags); flipped tiles get their own pytmx gid.
        n = tmx.maxgid
        raw_of = np.zeros(n, np.int64)
        flip_of: dict[int, tuple[bool, bool, bool, bool]] = {}  # x, y, diagonal (hex: 60 degrees), hex 120
        for gid, tiled_gid, flags in gid_variants(tmx):
            if tiled_gid and gid and gid < n:
                raw_of[gid] = tiled_gid & GID_MASK
                turned = bool(tiled_gid & HEX_120)
                if (flags and any(flags)) or turned:
                    fx, fy, fd = (bool(f) for f in flags) if flags else (False, False, False)
                    flip_of[gid] = (fx, fy, fd, turned)
        present = np.unique(np.concatenate([g.ravel() for g in grids])) if grids else np.zeros(0, np.int64)
        used = {int(g) for g in np.unique(raw_of[present])}
        used.discard(0)
        specs = self.tile_specs(used)

        lut = {
            "blocked": np.zeros(n, bool), "difficult": np.zeros(n, bool), "opaque": np.zeros(n, bool),
            "pit": np.zeros(n, bool), "difficult_dirs": np.zeros(n, np.uint8), "cover": np.zeros(n, np.uint8),
            "level": np.zeros(n, np.int16), "level_set": np.zeros(n, bool),
            "hazard": np.full(n, -1, np.int16), "feature": np.full(n, -1, np.int16), "own": np.zeros(n, bool),
        }
        for gid in range(1, n):
            spec = specs.get(int(raw_of[gid]))
            if spec is None:
                continue
            lut["own"][gid] = bool(spec.values) or spec.feature in PRESETS  # a class of its own is not battlemat's
            v = spec.values
            for name in _BOOL:
                lut[name][gid] = bool(v.get(name, False))
            dirs = int(v.get("difficult_dirs", 0))
            if dirs and gid in flip_of:
                fx, fy, fd, turned = flip_of[gid]
                if self.geometry.grid == "hex":  # M4 on hexes: turned by sixths of a circle
                    dirs = transform_hex_directions(dirs, fx, fy, int(fd) + 2 * int(turned), self.geometry.stagger_axis)
                else:
                    dirs = transform_directions(dirs, fx, fy, fd)
            lut["difficult_dirs"][gid] = dirs
            lut["cover"][gid] = int(v.get("cover", 0))
            if "level" in v:
                lut["level"][gid], lut["level_set"][gid] = int(v["level"]), True
            lut["hazard"][gid] = int(v.get("hazard_index", -1))
            lut["feature"][gid] = self.feature_index(spec.feature)

        shape = (h, w)
        arrays: dict[str, Any] = {  # (terrain arrays, passed to Board by name)
            "blocked": np.zeros(shape, bool), "difficult": np.zeros(shape, bool), "opaque": np.zeros(shape, bool),
            "pit": np.zeros(shape, bool), "difficult_dirs": np.zeros(shape, np.uint8),
            "cover": np.zeros(shape, np.uint8), "level": np.zeros(shape, np.int16),
            "hazard": np.full(shape, -1, np.int16), "feature": np.full(shape, -1, np.int16),
        }
        own = np.zeros(shape, bool)  # squares battlemat's own terrain speaks of: conventions never touch them
        for g in grids:  # bottom layer first: any layer's blocked/opaque/pit wins, the top layer's level wins
            own |= lut["own"][g]
            for name in _BOOL:
                arrays[name] |= lut[name][g]
            arrays["difficult_dirs"] |= lut["difficult_dirs"][g]
            np.maximum(arrays["cover"], lut["cover"][g], out=arrays["cover"])
            arrays["level"] = np.where(lut["level_set"][g], lut["level"][g], arrays["level"])
            hz, ft = lut["hazard"][g], lut["feature"][g]
            arrays["hazard"] = np.where(hz >= 0, hz, arrays["hazard"])
            arrays["feature"] = np.where(ft >= 0, ft, arrays["feature"])

        tokens: Mapping[str, tuple[int, int]] = MappingProxyType({})
        if not self._too_many_objects():
            self._terrain_objects(arrays, own)
            tokens = self._tokens()
        self._own_summary(arrays, own)
        conventions = self.conventions = Conventions(self.doc, self.squares, self.feature_index, self.rules)
        readings = conventions.readings(grids, raw_of, flip_of)
        if self.mapping is not None:
            readings += self.mapping.readings(self, grids, raw_of)
        self.understood += conventions.paint(readings, arrays, own)
        geo = self.geometry
        return Board(
            w, h, geo.grid, geo.stagger_axis, geo.stagger_index, geo.tile_width, geo.tile_height,
            hazards=tuple(self.hazard_list), tokens=tokens, source=self.doc.file,
            hex_side_length=geo.hex_side_length, features=tuple(self.features),
            **dict[str, Any](arrays),  # (typed Any: Board's later fields are walls, doors, lights)
        )

    # -- objects -------------------------------------------------------------------------------
    def _object_layers(self, wanted: str) -> list[Element]:
        return [g for g in self.doc.root.iter("objectgroup") if _is_layer(g, wanted)]

    def _too_many_objects(self) -> bool:
        count = sum(len(g.findall("object")) for name in ("terrain", "tokens") for g in self._object_layers(name))
        if count > MAX_OBJECTS:
            self.errors.append(Problem(self.doc.file, "layers 'terrain' and 'tokens'",
                                       f"{count:,} objects, more than the {MAX_OBJECTS:,} battlemat reads",
                                       "merge terrain areas into larger shapes"))
        return count > MAX_OBJECTS

    def _object_place(self, layer: Element, obj: Element) -> str:
        name = obj.get("name", "")
        label = f" {name!r}" if name else ""
        return f"layer {layer.get('name', '')!r} object {obj.get('id', '?')}{label}"

    def _object_spec(self, obj: Element, file: str, place: str) -> _Spec:
        cls = obj.get("class") or obj.get("type") or ""
        gid = obj.get("gid")
        props = list(_properties(obj))
        if gid:  # a tile object starts from its tile's class and properties, as Tiled shows it
            raw = int(gid) & GID_MASK
            owner = self._tileset_of(raw)
            if owner:
                ts, local = owner
                for tile in ts.element.findall("tile"):
                    if tile.get("id") == str(local):
                        cls = cls or tile.get("class") or tile.get("type") or ""
                        own = {p[0] for p in props}
                        props = [p for p in _properties(tile) if p[0] not in own] + props
                        break
        return self.spec(cls, props, file, place, strict=True, name=obj.get("name") or "")

    def _own_summary(self, arrays: dict[str, np.ndarray], own: np.ndarray) -> None:
        """What battlemat's own terrain (tile classes and properties, the `terrain` layer) marks."""
        where = OWN_TERRAIN
        for kind, mask in (("walls", arrays["blocked"]), ("pit", arrays["pit"]),
                           ("difficult", arrays["difficult"] | (arrays["difficult_dirs"] > 0))):
            count = int((mask & own).sum())
            if count:
                self.understood.append(Understood(kind, count, where))

    def _terrain_objects(self, arrays: dict[str, np.ndarray], own: np.ndarray) -> None:
        for layer in self._object_layers("terrain"):
            for obj in layer.findall("object"):
                if is_door(obj) or (obj.find("polyline") is not None and object_class(obj) == "wall"):
                    continue  # a door, or a wall drawn as a line: battlemat.io.tiled.walls reads them
                place = self._object_place(layer, obj)
                file = self.doc.file
                spec = self._object_spec(obj, file, place)
                area = self.squares.mask(obj)
                if area is None:
                    self.lint.append(Problem(file, place, "a terrain object must be an area (polylines and text "
                                             "cover no squares)",
                                             "draw a rectangle, ellipse or polygon over the squares; a wall "
                                             "between squares is a polyline of class 'wall'"))
                    continue
                window, mask = area
                if not mask.any():
                    self.lint.append(Problem(file, place, "this terrain object covers no square's centre",
                                             "move or enlarge it so it covers the centres of the squares it means"))
                    continue
                if not spec.values and not spec.feature:
                    self.lint.append(Problem(file, place, "this terrain object sets nothing",
                                             f"give it a terrain class ({', '.join(PRESETS)}) or terrain properties"))
                v = spec.values
                own[window] |= mask
                for name in _BOOL:
                    if name in v:
                        arrays[name][window][mask] = bool(v[name])
                if "difficult_dirs" in v:
                    arrays["difficult_dirs"][window][mask] = int(v["difficult_dirs"])
                for name in ("cover", "level"):
                    if name in v:
                        arrays[name][window][mask] = int(v[name])
                if "hazard_index" in v:
                    arrays["hazard"][window][mask] = int(v["hazard_index"])
                if spec.feature:
                    arrays["feature"][window][mask] = self.feature_index(spec.feature)

    def _tokens(self) -> Mapping[str, tuple[int, int]]:
        tokens: dict[str, tuple[int, int]] = {}
        for layer in self._object_layers("tokens"):
            for obj in layer.findall("object"):
                if is_door(obj):
                    continue  # a door on the tokens layer is a door (battlemat.io.tiled.walls)
                place = self._object_place(layer, obj)
                name = (obj.get("name") or "").strip()
                if not name:
                    self.lint.append(Problem(self.doc.file, place, "a token without a name places nobody",
                                             "name the object with the character's id"))
                    continue
                px, py = reference_point(obj)
                sq = self.squares.nearest_square(px, py)
                if sq is None:
                    self.errors.append(Problem(self.doc.file, place, f"token {name!r} is off the map",
                                               "move the object onto the map"))
                    continue
                if name in tokens:
                    self.errors.append(Problem(self.doc.file, place, f"a second token named {name!r}",
                                               "each character has one token: delete or rename one"))
                    continue
                tokens[name] = sq
        return MappingProxyType(tokens)

