"""A mapping a game master writes once: how battlemat reads a map whose terrain is only in its art.

Written beside the map as `MAP.terrain.toml` (sewers.tmx -> sewers.terrain.toml), or as the
`[terrain]` table of an encounter. Each entry names a battlemat terrain class (the presets: wall,
water, pit, rubble, ...), which the squares it names take exactly (a mapping to `floor` clears a
convention's wall):

    [tiles.sewer_tiles]          # by tileset name: tile ids or ranges of ids
    "17-23" = "wall"
    "40" = "water"
    [layers]                     # every tile or shape of a layer
    Top = "wall"
    [classes]                    # tiles of a Tiled class (type)
    lava = "pit"
    [properties]                 # tiles whose property is true
    solid = "wall"

It is checked like every file battlemat reads: bounded size and nesting, and each unknown table,
tileset, layer, class name or bad range gets the file, the place and the fix. It wins over the
conventions (it is the game master's correction) and yields to battlemat's own terrain.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from battlemat.io.errors import LoadError, Problem
from battlemat.io.tiled.conventions import Reading, layer_paths
from battlemat.io.userfile import read_user_data

MAX_MAPPING_BYTES = 64 * 1024  # a mapping is a few lines; this leaves room for hundreds of entries
_TABLES = ("tiles", "layers", "classes", "properties")
_TRUE = ("true", "1", "yes", "on")


def mapping_path(map_path: Path) -> Path:
    """Where a map's mapping lives: beside it, `NAME.terrain.toml`."""
    return map_path.with_name(map_path.stem + ".terrain.toml")


@dataclass
class Mapping:
    """The checked entries of one mapping: each target -> a battlemat terrain class."""

    file: str
    tiles: dict[str, dict[int, tuple[str, str]]] = field(default_factory=dict)  # tileset -> id -> (class, key)
    layers: dict[str, str] = field(default_factory=dict)
    classes: dict[str, str] = field(default_factory=dict)
    properties: dict[str, str] = field(default_factory=dict)

    def _unknown_names(self, doc: Any, layer_names: set[str]) -> list[Problem]:
        """Tilesets and layers the mapping names that the map does not have."""
        problems: list[Problem] = []
        names = {ts.name for ts in doc.tilesets}
        for ts_name in self.tiles:
            if ts_name not in names:
                problems.append(Problem(self.file, f"tiles.{ts_name}", f"the map has no tileset {ts_name!r}",
                                        f"{_hint(ts_name, names)}use one of: {', '.join(sorted(names)) or '(none)'}"))
        for name in self.layers:
            if name not in layer_names:
                problems.append(Problem(self.file, f"layers.{name}", f"the map has no layer {name!r}",
                                        f"{_hint(name, layer_names)}use one of: {', '.join(sorted(layer_names))}"))
        return problems

    def _tile_targets(self, doc: Any) -> dict[int, tuple[str, str]]:
        """Raw gid -> (class, origin) for the tiles the mapping names by id, class or property."""
        by_raw: dict[int, tuple[str, str]] = {}
        for ts in doc.tilesets:
            for local, entry in self.tiles.get(ts.name, {}).items():
                by_raw[ts.firstgid + local] = (entry[0], f"tiles {entry[1]} of {ts.name!r}")
            for tile in ts.element.findall("tile"):
                try:
                    raw = ts.firstgid + int(tile.get("id", "-1"))
                except ValueError:
                    continue
                cls = (tile.get("class") or tile.get("type") or "").strip()
                if cls in self.classes:
                    by_raw.setdefault(raw, (self.classes[cls], f"tile class {cls!r}"))
                props = tile.find("properties")
                for p in props.findall("property") if props is not None else []:
                    name = p.get("name", "")
                    value = (p.get("value") if p.get("value") is not None else p.text) or ""
                    if name in self.properties and value.strip().lower() in _TRUE:
                        by_raw.setdefault(raw, (self.properties[name], f"tile property {name!r}"))
        return by_raw

    def readings(self, reader: Any, grids: list[np.ndarray], raw_of: np.ndarray) -> list[Reading]:
        """The squares each entry names, as readings for the conventions painter (after the
        conventions, so they win). `reader` is the TerrainReader (its doc, its presets' specs)."""
        doc = reader.doc
        shape = (reader.height, reader.width)
        out: list[Reading] = []
        layer_list = list(layer_paths(doc.root))
        problems = self._unknown_names(doc, {el.get("name", "") for el, _ in layer_list})
        if problems:
            reader.errors.extend(problems)
            return out
        by_raw = self._tile_targets(doc)
        masks: dict[tuple[str, str], np.ndarray] = {}
        for g in grids:
            for pgid in (int(v) for v in np.unique(g) if v):
                hit = by_raw.get(int(raw_of[pgid]) if pgid < len(raw_of) else 0)
                if hit is not None:
                    acc = masks.setdefault(hit, np.zeros(shape, bool))
                    acc |= g == pgid
        conventions = reader.conventions
        tile_layers = [el for el, _ in layer_list if el.tag == "layer"]
        for el, g in zip(tile_layers, grids, strict=False):
            target = self.layers.get(el.get("name", ""))
            if target is not None:
                acc = masks.setdefault((target, f"tile layer {el.get('name')!r}"), np.zeros(shape, bool))
                acc |= g != 0
        for el, _ in layer_list:
            target = self.layers.get(el.get("name", ""))
            if el.tag == "objectgroup" and target is not None:
                acc = masks.setdefault((target, f"object layer {el.get('name')!r}"), np.zeros(shape, bool))
                acc |= conventions.object_layer_mask(el)
        for (target, origin), mask in masks.items():
            spec = reader.spec(target, [], self.file, origin)
            v = spec.values
            kind = ("walls" if v.get("blocked") else "pit" if v.get("pit") else
                    "difficult" if v.get("difficult") or v.get("difficult_dirs") else target)
            out.append(Reading(kind, target, f"{Path(self.file).name}: {origin} -> {target}", mask, v))
        return out


def _hint(name: str, known: Any) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}? " if close else ""


def read_mapping(data: Any, file: str, place: str, presets: Any) -> Mapping:
    """Check a mapping's tables (parsed TOML) and return it. Raises LoadError with every problem."""
    problems: list[Problem] = []
    out = Mapping(file)
    classes = ", ".join(presets)

    def target(value: Any, where: str) -> str | None:
        if not isinstance(value, str) or value.strip().lower() not in presets:
            hint = _hint(str(value).lower(), presets)
            problems.append(Problem(file, where, f"{value!r} is not a battlemat terrain class",
                                    f"{hint}use one of: {classes}"))
            return None
        return value.strip().lower()

    if not isinstance(data, dict):
        raise LoadError.one(file, place, "the terrain mapping must be a table", "write [terrain] tables")
    for key, table in data.items():
        where = f"{place}{key}"
        if key not in _TABLES:
            problems.append(Problem(file, where, f"unknown table {key!r}",
                                    f"{_hint(key, _TABLES)}use {', '.join(f'[{place}{t}]' for t in _TABLES)}"))
            continue
        if not isinstance(table, dict):
            problems.append(Problem(file, where, f"{key} must be a table",
                                    f"write [{place}{key}] with entries under it"))
            continue
        if key == "tiles":
            _read_tiles(out, table, where, place, target, problems)
        else:
            for name, value in table.items():
                cls = target(value, f"{where}.{name}")
                if cls is not None:
                    getattr(out, key)[str(name)] = cls
    if problems:
        raise LoadError(problems)
    return out


def _read_tiles(out: Mapping, table: dict[str, Any], where: str, place: str, target: Any,
                problems: list[Problem]) -> None:
    """[tiles.TILESET] tables: "17-23" = "wall" (ids as Tiled shows them)."""
    file = out.file
    for ts_name, ids in table.items():
        ts_where = f"{where}.{ts_name}"
        if not isinstance(ids, dict):
            problems.append(Problem(file, ts_where, "a tileset's tiles must be a table of ids",
                                    f'write [{place}tiles.{ts_name}] then "17-23" = "wall"'))
            continue
        entries = out.tiles.setdefault(ts_name, {})
        for ids_text, value in ids.items():
            cls = target(value, f"{ts_where}.{ids_text!r}")
            span = _id_range(ids_text)
            if span is None:
                problems.append(Problem(file, f"{ts_where}.{ids_text!r}", f"{ids_text!r} is not a tile id or range",
                                        'write a tile id ("40") or a range of ids ("17-23"), as Tiled shows '
                                        "them in the tileset's Properties (ID)"))
            elif cls is not None:
                for i in range(span[0], span[1] + 1):
                    entries[i] = (cls, ids_text)


def _id_range(text: str) -> tuple[int, int] | None:
    """'40' -> (40, 40); '17-23' -> (17, 23); None when it is neither (or a range over 100,000 ids)."""
    first, dash, last = text.strip().partition("-")
    if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
        return None
    lo, hi = int(first), int(last) if dash else int(first)
    return (lo, hi) if lo <= hi and hi - lo <= 100_000 else None


def load_mapping_file(path: Path, presets: Any) -> Mapping:
    data = read_user_data(path, MAX_MAPPING_BYTES, "terrain mapping",
                          "a terrain mapping needs a few lines: check that this is the right file", "toml")
    return read_mapping(data, str(path), "", presets)
