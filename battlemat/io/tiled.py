"""Tiled maps (.tmx) to a `Board`, read headless and safely (DESIGN: files people edit).

How a map is read, and why each step is there:
1. The XML is parsed with defusedxml, so entity bombs and external entities are refused before
   anything else happens. The declared size is checked against MAX_CELLS before any layer data is
   decoded (a 332 KB zlib map declaring 8000x8000 costs pytmx 12 s and 1.3 GB).
2. What pytmx cannot read gets a LoadError that says how to fix it in Tiled: infinite maps, zstd,
   JSON maps and tilesets, isometric orientations, missing tilesets, images and templates.
   External tilesets and object templates are read here (again with defusedxml) and embedded in the
   tree pytmx receives, so pytmx never opens a file itself. Compressed data is inflated with a bound
   first, so a small file cannot expand into gigabytes.
3. pytmx decodes the layers and maps the gids (`TiledMap.parse_xml` on the prepared tree), with its
   default image loader: no graphics library. pytmx imports pygame when it can; `_pytmx()` keeps it
   out, so the headless layers stay headless (STYLE 1, 2).
4. Terrain comes from tile properties and tile classes (presets), combined over all tile layers,
   then from the areas of object layers named `terrain`. Tokens come from object layers named
   `tokens`. Terrain properties are read from the XML, where their declared types are visible.

pytmx regroups layers by kind (pytmx issue #106); `MapInfo.layers` keeps the document order, which
is the drawing order, with each layer's index in `TiledMap.layers`.
"""

from __future__ import annotations

import base64
import copy
import difflib
import gzip
import logging
import math
import os
import struct
import sys
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree as SafeET
import numpy as np

from battlemat.core.board import Board, Hazard, parse_directions, transform_directions, transform_hex_directions
from battlemat.core.errors import RulesError
from battlemat.io.errors import LoadError, Problem

MAX_CELLS = 1_000_000  # width x height x tile layers; a 100x100 map with 100 layers still fits
MAX_TILES = 1_000_000  # tiles cut from tileset images (pytmx walks every one)
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_OBJECTS = 10_000  # objects in the `terrain` and `tokens` layers together

TERRAIN_NAMES = ("blocked", "difficult", "difficult_dirs", "level", "opaque", "cover", "pit", "hazard", "harm")
IGNORED_NAMES = ("note", "description")  # free text a game master may keep on terrain; never read
_BOOL = ("blocked", "difficult", "opaque", "pit")
_INT = ("level", "cover", "harm")

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
    "trap": {"hazard": "Block/Dodge 4 or Perception 3", "harm": 2},  # E1
})

_ORIENTATIONS = ("orthogonal", "hexagonal")
GID_MASK = 0x0FFFFFFF  # a gid without Tiled's flip bits and its hex 120-degree rotation bit
HEX_120 = 0x10000000  # Tiled's hex 120-degree rotation bit (pytmx leaves it in the gid)


def gid_variants(tmx: Any) -> list[tuple[int, int, Any]]:
    """(pytmx gid, Tiled gid with its hex 120-degree bit, flip flags) for every tile variant pytmx
    registered: a flipped or turned tile gets a pytmx gid of its own. A list, so the caller may
    register more variants while walking it."""
    out = []
    for (tiled_gid, flags), entry in tmx.imagemap.items():
        out.append((entry[0] if isinstance(entry, tuple) else entry, tiled_gid, flags))
    return out

logging.getLogger("pytmx").addHandler(logging.NullHandler())  # pytmx logs its errors; we raise ours


def _pytmx() -> Any:
    """Import pytmx without letting it import pygame: pytmx imports pygame (and prints its banner)
    whenever it is installed, but this loader needs no images. A `None` entry in sys.modules makes
    `import pygame` fail inside pytmx only; it is removed again, so the UI still imports pygame and
    `pytmx.util_pygame` normally."""
    if "pytmx" in sys.modules:
        return sys.modules["pytmx"]
    blocked = "pygame" not in sys.modules
    if blocked:
        sys.modules["pygame"] = None  # type: ignore[assignment]
    try:
        import pytmx
    finally:
        if blocked and sys.modules.get("pygame", 0) is None:
            del sys.modules["pygame"]
    return pytmx


pytmx = _pytmx()


# -- values returned -------------------------------------------------------------------------------
@dataclass(frozen=True)
class LayerInfo:
    """One layer in document order (the order Tiled draws them, bottom first)."""

    name: str
    kind: str  # "tile" | "object" | "image" | "group"
    index: int  # index in pytmx's TiledMap.layers
    groups: tuple[str, ...] = ()  # names of the enclosing group layers, outermost first
    visible: bool = True
    opacity: float = 1.0


@dataclass(frozen=True)
class MapInfo:
    path: str
    orientation: str
    width: int
    height: int
    tile_width: int
    tile_height: int
    layers: tuple[LayerInfo, ...]
    tilesets: tuple[tuple[int, str, str], ...] = ()  # (firstgid, name, file)


# -- public API ------------------------------------------------------------------------------------
def load_map(path: str | Path, *, max_cells: int = MAX_CELLS, require_images: bool = False) -> tuple[Board, MapInfo]:
    """Read a .tmx into a Board and its MapInfo. Raises LoadError listing every problem found.
    Missing images are tolerated unless `require_images` (the board needs no pictures; Tiled itself
    opens such maps with placeholders); `battlemat check` and `read_tiled` report them."""
    doc = _prepare(Path(path), max_cells, require_images)
    tmx = _parse_pytmx(doc, None)
    reader = _TerrainReader(doc, tmx)
    board = reader.board()
    if reader.errors:
        raise LoadError(reader.errors)
    return board, _map_info(doc, tmx)


def load_board(path: str | Path, *, max_cells: int = MAX_CELLS) -> Board:
    return load_map(path, max_cells=max_cells)[0]


def read_tiled(path: str | Path, image_loader: Callable[..., Any] | None = None, *, max_cells: int = MAX_CELLS) -> Any:
    """The pytmx TiledMap of a map, prepared as `load_map` does (safe XML, bounded size, tilesets and
    templates embedded): for the UI, which passes pytmx.util_pygame.pygame_image_loader. Every image
    must exist here (a missing one is a LoadError), since the window draws them."""
    return _parse_pytmx(_prepare(Path(path), max_cells, require_images=True), image_loader)


def lint_map(path: str | Path, *, max_cells: int = MAX_CELLS) -> tuple[Board | None, list[Problem]]:
    """Every problem of a map, for `battlemat check`: what load_map refuses plus what it tolerates
    (unknown or misspelled property names, properties of the wrong Tiled type, nameless tokens)."""
    try:
        doc = _prepare(Path(path), max_cells)
        tmx = _parse_pytmx(doc, None)
    except LoadError as exc:
        return None, exc.problems
    reader = _TerrainReader(doc, tmx)
    board = reader.board()
    return (None if reader.errors else board), doc.lint + reader.errors + reader.lint


# -- step 1 and 2: the document --------------------------------------------------------------------
@dataclass
class _Tileset:
    firstgid: int
    name: str
    file: str  # where its tiles are written: the .tsx, or the map for an embedded tileset
    element: Element  # the <tileset> in the prepared tree


@dataclass
class _Doc:
    path: Path
    file: str
    root: Element
    tilesets: list[_Tileset] = field(default_factory=list)
    require_images: bool = False
    lint: list[Problem] = field(default_factory=list)  # tolerated while loading, reported by check

    def fail(self, place: str, message: str, fix: str = "", file: str | None = None) -> LoadError:
        return LoadError.one(file or self.file, place, message, fix)

    def missing_image(self, place: str, message: str, fix: str, file: str | None = None) -> None:
        """The board needs no pictures, so a missing image stops only the window (and `check`)."""
        problem = Problem(file or self.file, place, message, fix)
        if self.require_images:
            raise LoadError([problem])
        self.lint.append(problem)


def _read_xml(path: Path, file: str, what: str) -> Element:
    """Parse one file with defusedxml; every failure is a LoadError naming the file."""
    suffix = path.suffix.lower()
    if suffix in (".tmj", ".tsj", ".tj", ".json"):
        kind = "tileset" if suffix == ".tsj" or what == "tileset" else "map"
        raise LoadError.one(
            file, "", f"JSON {kind}s are not supported (battlemat reads Tiled's XML formats)",
            f"open it in Tiled and use File > Save As... (or Export As...) with the "
            f".{'tsx' if kind == 'tileset' else 'tmx'} format"
            + (", then Map > Replace Tileset... in the map" if kind == "tileset" else ""),
        )
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise LoadError.one(file, "", f"{what} file not found", "check the path") from None
    except OSError as exc:
        raise LoadError.one(file, "", f"cannot read the {what} file ({exc.strerror})") from None
    if size > MAX_FILE_BYTES:
        raise LoadError.one(file, "", f"the file is {size // 2**20} MB, more than {MAX_FILE_BYTES // 2**20} MB",
                            "split the map, or use Base64 (zlib compressed) layer data")
    try:
        return SafeET.parse(str(path)).getroot()
    except defusedxml.EntitiesForbidden:
        raise LoadError.one(file, "", "the XML declares entities, which can expand without bound (an XML bomb)",
                            "Tiled never writes entities: remove the <!DOCTYPE ...> block, or re-save the file "
                            "in Tiled") from None
    except defusedxml.DefusedXmlException as exc:
        raise LoadError.one(file, "", f"the XML refers to outside resources ({type(exc).__name__})",
                            "remove the <!DOCTYPE ...> block, or re-save the file in Tiled") from None
    except ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        what = str(exc).split(": line")[0]
        raise LoadError.one(file, f"line {line}, column {col}", f"not well-formed XML ({what})",
                            "fix the file at that place, or re-save it from Tiled") from None
    except OSError as exc:
        raise LoadError.one(file, "", f"cannot read the {what} file ({exc.strerror})") from None
    except UnicodeError:
        raise LoadError.one(file, "", "the file is not valid text", "save it as UTF-8 from Tiled") from None


def _int_attr(el: Element, name: str, doc: _Doc, place: str, default: int | None = None,
              file: str | None = None) -> int:
    """A whole-number attribute, or a LoadError naming it (`default` when it is absent and allowed)."""
    raw = el.get(name)
    if raw is None:
        if default is None:
            raise doc.fail(place, f"missing the {name!r} attribute", "re-save the file from Tiled", file)
        return default
    try:
        value = float(raw)
    except ValueError:
        raise doc.fail(place, f"{name}={raw!r} is not a number", "re-save the file from Tiled", file) from None
    if not math.isfinite(value) or value != int(value):
        raise doc.fail(place, f"{name}={raw!r} is not a whole number", "re-save the file from Tiled", file)
    return int(value)


def _prepare(path: Path, max_cells: int, require_images: bool = False) -> _Doc:
    file = str(path)
    root = _read_xml(path, file, "map")
    if root.tag != "map":
        hint = " (a tileset; open the map that uses it)" if root.tag == "tileset" else ""
        raise LoadError.one(file, "", f"not a Tiled map: the document is <{root.tag}>{hint}", "pass a .tmx map file")
    doc = _Doc(path, file, root, require_images=require_images)
    _check_map_header(doc, max_cells)
    _embed_tilesets(doc)
    _check_layers(doc)
    _resolve_templates(doc)
    return doc


def _check_map_header(doc: _Doc, max_cells: int) -> None:
    root = doc.root
    orientation = root.get("orientation", "orthogonal")
    if orientation not in _ORIENTATIONS:
        what = {"isometric": "isometric", "staggered": "staggered (isometric)"}.get(orientation, repr(orientation))
        raise doc.fail("map", f"{what} maps are not supported; battlemat plays orthogonal (square) and hexagonal maps",
                       "in Tiled, Map > Map Properties > Orientation: choose Orthogonal or Hexagonal "
                       "(or make a new map with that orientation)")
    if root.get("infinite", "0") not in ("0", "", "false"):
        raise doc.fail("map", "infinite maps are not supported (a battlemat has edges)",
                       "in Tiled, Map > Map Properties > uncheck Infinite")
    width = _int_attr(root, "width", doc, "map")
    height = _int_attr(root, "height", doc, "map")
    for name in ("tilewidth", "tileheight"):
        if _int_attr(root, name, doc, "map") <= 0:
            raise doc.fail("map", f"{name} must be above 0", "set the tile size in Map > Map Properties")
    if width <= 0 or height <= 0:
        raise doc.fail("map", f"the map is {width}x{height} squares; it needs at least one",
                       "set Width and Height in Map > Resize Map")
    n_layers = sum(1 for _ in root.iter("layer"))
    cells = width * height * max(1, n_layers)
    if cells > max_cells:
        raise doc.fail("map", f"the map is too big: {width}x{height} squares x {max(1, n_layers)} tile layers = "
                       f"{cells:,} cells, more than the {max_cells:,} battlemat reads",
                       "crop it with Map > Resize Map, or merge tile layers")
    if orientation == "hexagonal":
        if root.get("staggeraxis") not in ("x", "y") or root.get("staggerindex") not in ("odd", "even"):
            raise doc.fail("map", "a hexagonal map needs staggeraxis x or y and staggerindex odd or even",
                           "set Stagger Axis and Stagger Index in Map > Map Properties")
        _int_attr(root, "hexsidelength", doc, "map", 0)


def _image_size(path: Path) -> tuple[int, int] | None:
    """Width and height from a PNG, GIF, BMP or JPEG header (Tiled omits them in some tilesets)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(32)
            if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24:
                w, h = struct.unpack(">II", head[16:24])
                return int(w), int(h)
            if head[:6] in (b"GIF87a", b"GIF89a"):
                w, h = struct.unpack("<HH", head[6:10])
                return int(w), int(h)
            if head[:2] == b"BM" and len(head) >= 26:
                w, h = struct.unpack("<ii", head[18:26])
                return abs(int(w)), abs(int(h))
            if head[:2] == b"\xff\xd8":
                fh.seek(2)
                while True:
                    marker = fh.read(4)
                    if len(marker) < 4 or marker[0] != 0xFF:
                        return None
                    kind, length = marker[1], struct.unpack(">H", marker[2:])[0]
                    if 0xC0 <= kind <= 0xCF and kind not in (0xC4, 0xC8, 0xCC):
                        data = fh.read(5)
                        h, w = struct.unpack(">HH", data[1:5])
                        return int(w), int(h)
                    fh.seek(length - 2, os.SEEK_CUR)
    except (OSError, struct.error):
        return None
    return None


def _relink(src: str, from_dir: Path, to_dir: Path) -> str:
    """A path written relative to `from_dir`, rewritten relative to `to_dir` (URLs and absolute paths kept)."""
    if not src or "://" in src or os.path.isabs(src) or from_dir == to_dir:
        return src
    return os.path.relpath(os.path.normpath(from_dir / src), to_dir)


def _embed_tilesets(doc: _Doc) -> None:
    """Read each external tileset safely and put its content in the map, images relinked to the map's
    folder; check images exist and the tileset's tile count is bounded."""
    map_dir = doc.path.parent
    total_tiles = 0
    for index, ts in enumerate(list(doc.root.findall("tileset"))):
        firstgid = _int_attr(ts, "firstgid", doc, f"tileset[{index}]", 1)
        source = ts.get("source")
        file = doc.file
        el = ts
        if source:
            ts_path = map_dir / source
            place = f"tileset[{index}] {source!r}"
            if ts_path.suffix.lower() in (".tsj", ".json"):
                raise doc.fail(place, "JSON tilesets are not supported (battlemat reads Tiled's XML formats)",
                               "open the tileset in Tiled, File > Export As... a .tsx, then in the map "
                               "Map > Replace Tileset... with the .tsx")
            if not ts_path.is_file():
                raise doc.fail(place, f"tileset file not found (looked for {ts_path})",
                               "put the .tsx file there, or open the map in Tiled, locate the tileset when "
                               "asked, and save")
            file = str(ts_path)
            el = _read_xml(ts_path, file, "tileset")
            if el.tag != "tileset":
                raise doc.fail("", f"not a Tiled tileset: the document is <{el.tag}>",
                               "point the map at a .tsx tileset", file)
            el = copy.deepcopy(el)
            for img in el.iter("image"):
                if img.get("source"):
                    img.set("source", _relink(img.get("source", ""), ts_path.parent, map_dir))
            el.set("firstgid", str(firstgid))
            el.attrib.pop("source", None)
            # Swap in place so pytmx sees an embedded tileset; the map keeps its attribute order.
            pos = list(doc.root).index(ts)
            doc.root.remove(ts)
            doc.root.insert(pos, el)
        name = el.get("name") or Path(source or doc.file).stem
        tplace = f"tileset {name!r}"
        tile_w = _int_attr(el, "tilewidth", doc, tplace, 0, file)
        tile_h = _int_attr(el, "tileheight", doc, tplace, 0, file)
        image = el.find("image")
        if image is not None:
            src = image.get("source", "")
            if src:
                img_path = map_dir / src
                if not img_path.is_file():
                    doc.missing_image(tplace, f"tileset image not found (looked for {os.path.normpath(img_path)})",
                                      "put the image there, or in Tiled open the tileset and pick its image again "
                                      "(Tileset > Tileset Properties > Image)", file)
                    image.attrib.setdefault("width", "0")
                    image.attrib.setdefault("height", "0")
                elif image.get("width") is None or image.get("height") is None:
                    size = _image_size(img_path)
                    if size is None:
                        raise doc.fail(tplace, "the tileset image's size is not written and cannot be read from "
                                       "the file", "open the tileset in Tiled and save it (Tiled writes the image "
                                       "width and height)", file)
                    image.set("width", str(size[0]))
                    image.set("height", str(size[1]))
            if tile_w <= 0 or tile_h <= 0:
                raise doc.fail(tplace, "tile width and height must be above 0",
                               "set them in Tileset > Tileset Properties", file)
            iw = _int_attr(image, "width", doc, tplace, 0, file)
            ih = _int_attr(image, "height", doc, tplace, 0, file)
            margin = _int_attr(el, "margin", doc, tplace, 0, file)
            spacing = _int_attr(el, "spacing", doc, tplace, 0, file)
            cols = max(0, (iw - 2 * margin + spacing) // max(1, tile_w + spacing))
            rows = max(0, (ih - 2 * margin + spacing) // max(1, tile_h + spacing))
            total_tiles += cols * rows
        for tile in el.findall("tile"):
            timg = tile.find("image")
            if timg is not None and timg.get("source"):  # relinked to the map's folder above
                tile_path = os.path.normpath(map_dir / timg.get("source", ""))
                if not os.path.isfile(tile_path):
                    doc.missing_image(f"{tplace} tile {tile.get('id')}",
                                      f"tile image not found (looked for {tile_path})",
                                      "put the image there, or in Tiled open the tileset and replace the tile's "
                                      "image", file)
            # pytmx cannot read class-typed properties on tiles; they never carry terrain.
            for props in tile.findall("properties"):
                for prop in list(props):
                    if prop.get("type") == "class":
                        props.remove(prop)
        total_tiles += len(el.findall("tile"))
        if total_tiles > MAX_TILES:
            raise doc.fail(tplace, f"the tilesets cut more than {MAX_TILES:,} tiles", "use fewer or larger tiles", file)
        doc.tilesets.append(_Tileset(firstgid, name, file, el))
    doc.tilesets.sort(key=lambda t: t.firstgid)


def _bounded_inflate(data: bytes, compression: str, limit: int) -> bytes | None:
    """Inflate at most `limit` + 1 bytes, so a small layer cannot expand into gigabytes."""
    wbits = 31 if compression == "gzip" else 15
    d = zlib.decompressobj(wbits)
    out = d.decompress(data, limit + 1)
    return out if len(out) <= limit else None


def _check_layers(doc: _Doc) -> None:
    root = doc.root
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    want = width * height
    for layer in root.iter("layer"):
        place = f"layer {layer.get('name', '')!r}"
        data = layer.find("data")
        if data is None:
            raise doc.fail(place, "the layer has no <data>", "re-save the map from Tiled")
        if data.find("chunk") is not None:
            raise doc.fail(place, "infinite maps are not supported (this layer is stored in chunks)",
                           "in Tiled, Map > Map Properties > uncheck Infinite")
        lw = _int_attr(layer, "width", doc, place, width)
        lh = _int_attr(layer, "height", doc, place, height)
        if (lw, lh) != (width, height):
            raise doc.fail(place, f"the layer is {lw}x{lh} but the map is {width}x{height}",
                           "re-save the map from Tiled (Map > Resize Map keeps layers the map's size)")
        layer.set("width", str(width))
        layer.set("height", str(height))
        encoding = data.get("encoding")
        compression = data.get("compression") or ""
        if encoding is None:
            tiles = data.findall("tile")
            if len(tiles) != want:
                raise doc.fail(place, f"the layer holds {len(tiles)} tiles, expected {want}",
                               "re-save the map from Tiled")
            # Old XML layer format: pytmx dropped it, so write it as CSV.
            text = ",".join(t.get("gid", "0") for t in tiles)
            for t in tiles:
                data.remove(t)
            data.set("encoding", "csv")
            data.text = text
            continue
        text = (data.text or "").strip()
        if encoding == "csv":
            if compression:
                raise doc.fail(place, "CSV layer data cannot be compressed", "re-save the map from Tiled")
            count = text.count(",") + 1 if text else 0
        elif encoding == "base64":
            if compression == "zstd":
                raise doc.fail(place, "zstd-compressed layers are not supported",
                               "in Tiled, Map > Map Properties > Tile Layer Format: choose Base64 (zlib "
                               "compressed) or CSV, then save")
            if compression not in ("", "zlib", "gzip"):
                raise doc.fail(place, f"unknown layer compression {compression!r}",
                               "in Tiled, Map > Map Properties > Tile Layer Format: choose Base64 (zlib "
                               "compressed) or CSV")
            try:
                raw = base64.b64decode(text, validate=False)
                if compression:
                    inflated = _bounded_inflate(raw, compression, 4 * want)
                    if inflated is None:
                        raise doc.fail(place, f"the layer data inflates to more than the {want} tiles of the map",
                                       "re-save the map from Tiled")
                    raw = inflated
            except (zlib.error, ValueError, EOFError, gzip.BadGzipFile) as exc:
                raise doc.fail(place, f"the layer data cannot be decoded ({exc})",
                               "re-save the map from Tiled") from None
            count = len(raw) // 4
        else:
            raise doc.fail(place, f"unknown layer encoding {encoding!r}",
                           "in Tiled, Map > Map Properties > Tile Layer Format: choose CSV or Base64")
        if count != want:
            raise doc.fail(place, f"the layer holds {count} tiles, expected {width}x{height} = {want}",
                           "re-save the map from Tiled")
    for image_layer in root.iter("imagelayer"):
        place = f"image layer {image_layer.get('name', '')!r}"
        img = image_layer.find("image")
        if img is None:
            image_layer.append(Element("image", {"source": ""}))  # pytmx needs the element
        elif img.get("source") and not (doc.path.parent / img.get("source", "")).is_file():
            looked = os.path.normpath(doc.path.parent / img.get("source", ""))
            doc.missing_image(place, f"image not found (looked for {looked})",
                              "put the image there, or pick it again in the layer's properties in Tiled")


def _resolve_templates(doc: _Doc) -> None:
    """Merge object templates (.tx) into their instances, as Tiled's --detach-templates does: the
    instance's attributes and properties win. pytmx ignores templates; tokens and terrain may use them."""
    map_dir = doc.path.parent
    cache: dict[Path, tuple[Element, str | None, int]] = {}
    by_source = {}
    for ts in doc.tilesets:
        if ts.file != doc.file:
            by_source[os.path.normpath(ts.file)] = ts.firstgid
    for group in doc.root.iter("objectgroup"):
        for obj in group.findall("object"):
            src = obj.get("template")
            if not src:
                continue
            place = f"object {obj.get('id', '?')} {obj.get('name', '')!r}".rstrip()
            tpath = map_dir / src
            if tpath not in cache:
                if not tpath.is_file():
                    raise doc.fail(place, f"object template not found (looked for {os.path.normpath(tpath)})",
                                   "put the .tx file there, or in Tiled select the object and use Detach Template")
                troot = _read_xml(tpath, str(tpath), "template")
                tobj = troot.find("object")
                if troot.tag != "template" or tobj is None:
                    raise doc.fail("", "not a Tiled object template", "re-save the template from Tiled", str(tpath))
                tts = troot.find("tileset")
                ts_source = None
                ts_first = 1
                if tts is not None and tts.get("source"):
                    ts_source = os.path.normpath(tpath.parent / tts.get("source", ""))
                    ts_first = _int_attr(tts, "firstgid", doc, "tileset", 1, str(tpath))
                cache[tpath] = (tobj, ts_source, ts_first)
            tobj, ts_source, ts_first = cache[tpath]
            for key, value in tobj.attrib.items():
                if key == "gid":
                    gid = _int_attr(tobj, "gid", doc, "object", None, str(tpath))
                    flags, local = gid & ~GID_MASK, (gid & GID_MASK) - ts_first
                    map_first = by_source.get(ts_source or "")
                    if "gid" not in obj.attrib:
                        if map_first is not None:
                            obj.set("gid", str((map_first + local) | flags))
                        else:
                            # The map lacks the template's tileset: keep the area, drop the picture.
                            y = float(obj.get("y", tobj.get("y", "0")))
                            obj.set("y", str(y - float(obj.get("height", tobj.get("height", "0")))))
                    continue
                obj.attrib.setdefault(key, value)
            if not any(obj.find(s) is not None for s in ("ellipse", "point", "polygon", "polyline", "text")):
                for shape in ("ellipse", "point", "polygon", "polyline", "text"):
                    found = tobj.find(shape)
                    if found is not None:
                        obj.append(copy.deepcopy(found))
            tprops = tobj.find("properties")
            if tprops is not None:
                props = obj.find("properties")
                if props is None:
                    props = Element("properties")
                    obj.insert(0, props)
                have = {p.get("name") for p in props.findall("property")}
                for p in tprops.findall("property"):
                    if p.get("name") not in have:
                        props.append(copy.deepcopy(p))
            del obj.attrib["template"]


# -- step 3: pytmx ---------------------------------------------------------------------------------
def _parse_pytmx(doc: _Doc, image_loader: Callable[..., Any] | None) -> Any:
    kwargs: dict[str, Any] = {"allow_duplicate_names": True, "load_all": image_loader is not None}
    if image_loader is not None:
        kwargs["image_loader"] = image_loader
    tmx = pytmx.TiledMap(**kwargs)
    tmx.filename = doc.file
    # Class-typed properties on maps, layers and objects need their class known to pytmx.
    for prop in doc.root.iter("property"):
        if prop.get("type") == "class" and prop.get("propertytype"):
            tmx.custom_types.setdefault(prop.get("propertytype"), pytmx.TiledClassType(prop.get("propertytype"), []))
    try:
        tmx.parse_xml(doc.root)
    except Exception as exc:  # pytmx raises bare Exceptions, ValueErrors and TypeErrors
        detail = str(exc) or type(exc).__name__
        raise doc.fail("", f"pytmx cannot read this map ({type(exc).__name__}: {detail})",
                       "open the map in Tiled and save it again; if the problem stays, report it with the "
                       "map") from None
    return tmx


def _map_info(doc: _Doc, tmx: Any) -> MapInfo:
    root = doc.root
    index: dict[int, int] = {}
    offset = 0
    for tag in ("group", "layer", "imagelayer", "objectgroup"):  # pytmx's order of kinds (issue #106)
        for i, el in enumerate(root.findall(f".//{tag}")):
            index[id(el)] = offset + i
        offset += len(root.findall(f".//{tag}"))
    kinds = {"layer": "tile", "objectgroup": "object", "imagelayer": "image", "group": "group"}
    layers: list[LayerInfo] = []

    def walk(parent: Element, groups: tuple[str, ...]) -> None:
        for el in parent:
            if el.tag not in kinds:
                continue
            name = el.get("name", "")
            layers.append(LayerInfo(
                name=name, kind=kinds[el.tag], index=index.get(id(el), -1), groups=groups,
                visible=el.get("visible", "1") not in ("0", "false"),
                opacity=float(el.get("opacity", "1") or 1),
            ))
            if el.tag == "group":
                walk(el, (*groups, name))

    walk(root, ())
    return MapInfo(
        path=doc.file, orientation=root.get("orientation", "orthogonal"),
        width=int(root.get("width", "0")), height=int(root.get("height", "0")),
        tile_width=int(root.get("tilewidth", "0")), tile_height=int(root.get("tileheight", "0")),
        layers=tuple(layers), tilesets=tuple((t.firstgid, t.name, t.file) for t in doc.tilesets),
    )


# -- step 4: terrain -------------------------------------------------------------------------------
@dataclass
class _Spec:
    """Terrain set by one tile or object: only the fields it names."""

    values: dict[str, Any] = field(default_factory=dict)
    feature: str = ""


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


class _TerrainReader:
    """Builds the terrain arrays. `errors` stop loading; `lint` only matters to `battlemat check`."""

    def __init__(self, doc: _Doc, tmx: Any) -> None:
        self.doc = doc
        self.tmx = tmx
        self.errors: list[Problem] = []
        self.lint: list[Problem] = []
        self.hazards: dict[tuple[str, int], int] = {}
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
        self._centers: tuple[np.ndarray, np.ndarray] | None = None

    # -- reading one set of properties ---------------------------------------------------------
    def spec(self, cls: str, props: list[tuple[str, str, str]], file: str, place: str, strict: bool = False) -> _Spec:
        """A tile's or object's terrain: its class's preset, overridden by its properties. With `strict`
        (terrain objects) every unknown property name is reported; on tiles, which may carry properties
        for other uses, only names close to a terrain name are (likely typos)."""
        spec = _Spec()
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
        if "hazard" in spec.values or "harm" in spec.values:
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
        if name in _BOOL:
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
            limits = {"level": (-99, 99), "cover": (0, 2), "harm": (1, 99)}[name]
            if not limits[0] <= whole <= limits[1]:
                meaning = {"level": "an elevation", "cover": "cover 1 or 2 (R4), 0 for none",
                           "harm": "the losses a hazard inflicts (E1)"}[name]
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
        had_harm = "harm" in spec.values
        harm = spec.values.pop("harm", 1)
        if not text:
            if had_harm:
                self.lint.append(Problem(file, f"{place}.harm", "harm without a hazard has no effect",
                                         'add hazard = the skills that elude it, e.g. "Block/Dodge 4 or '
                                         'Perception 3" (E1)'))
            return
        try:
            hz = Hazard.parse(text, harm)
            from battlemat.io.rules_file import load_rules

            rules = load_rules()
            reqs = []
            for skill, rating in hz.requirements:
                reqs.append((rules.canonical(skill), rating))
            hz = Hazard(hz.text, tuple(reqs), hz.harm)
        except (ValueError, RulesError) as exc:
            self.errors.append(Problem(file, f"{place}.hazard", f"cannot read the hazard {text!r}: {exc}",
                                       'write the skills that elude it, e.g. "Block/Dodge 4 or Perception 3" (E1)'))
            return
        key = (hz.text, hz.harm)
        if key not in self.hazards:
            self.hazards[key] = len(self.hazard_list)
            self.hazard_list.append(hz)
        spec.values["hazard_index"] = self.hazards[key]

    def feature_index(self, name: str) -> int:
        if not name:
            return -1
        return self.features.setdefault(name, len(self.features))

    # -- tiles ---------------------------------------------------------------------------------
    def _tileset_of(self, tiled_gid: int) -> tuple[_Tileset, int] | None:
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
            "hazard": np.full(n, -1, np.int16), "feature": np.full(n, -1, np.int16),
        }
        for gid in range(1, n):
            spec = specs.get(int(raw_of[gid]))
            if spec is None:
                continue
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
        arrays: dict[str, np.ndarray] = {
            "blocked": np.zeros(shape, bool), "difficult": np.zeros(shape, bool), "opaque": np.zeros(shape, bool),
            "pit": np.zeros(shape, bool), "difficult_dirs": np.zeros(shape, np.uint8),
            "cover": np.zeros(shape, np.uint8), "level": np.zeros(shape, np.int16),
            "hazard": np.full(shape, -1, np.int16), "feature": np.full(shape, -1, np.int16),
        }
        for g in grids:  # bottom layer first: any layer's blocked/opaque/pit wins, the top layer's level wins
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
            self._terrain_objects(arrays)
            tokens = self._tokens()
        geo = self.geometry
        return Board(
            w, h, geo.grid, geo.stagger_axis, geo.stagger_index, geo.tile_width, geo.tile_height,
            hazards=tuple(self.hazard_list), tokens=tokens, source=self.doc.file,
            hex_side_length=geo.hex_side_length, features=tuple(self.features), **arrays,
        )

    # -- objects -------------------------------------------------------------------------------
    def centers(self) -> tuple[np.ndarray, np.ndarray]:
        if self._centers is None:
            self._centers = self.geometry.centers()
        return self._centers

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

    def _window(self, x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice]:
        """Rows and columns whose centres may lie in a pixel box, so an object costs its own area, not
        the map's (one cell of margin covers the hex stagger)."""
        geo = self.geometry
        pitch_x, pitch_y = float(geo.tile_width), float(geo.tile_height)
        if geo.grid == "hex":
            tw, th, side = geo.tile_width & ~1, geo.tile_height & ~1, geo.hex_side_length
            if geo.stagger_axis == "x":
                pitch_x = float((tw - side) // 2 + side)
            else:
                pitch_y = float((th - side) // 2 + side)
        pitch_x, pitch_y = max(pitch_x, 1.0), max(pitch_y, 1.0)

        def span(lo: float, hi: float, pitch: float, n: int) -> slice:
            first = max(0, math.floor(lo / pitch) - 1)
            last = min(n, math.ceil(hi / pitch) + 1)
            return slice(first, max(first, last))

        return span(y0, y1, pitch_y, geo.height), span(x0, x1, pitch_x, geo.width)

    def _mask(self, obj: Element) -> tuple[tuple[slice, slice], np.ndarray] | None:
        """Squares whose centres lie inside an object's area (rotation included), as a window of the
        board and the mask within it; None when the object has no area (polylines, text)."""
        if obj.find("polyline") is not None or obj.find("text") is not None:
            return None
        x, y = float(obj.get("x", "0")), float(obj.get("y", "0"))
        ow, oh = float(obj.get("width", "0")), float(obj.get("height", "0"))
        poly = obj.find("polygon")
        if obj.find("point") is not None or (ow <= 0 and oh <= 0 and poly is None):
            sq = self._nearest_square(x, y)
            if sq is None:
                return (slice(0, 0), slice(0, 0)), np.zeros((0, 0), bool)
            return (slice(sq[1], sq[1] + 1), slice(sq[0], sq[0] + 1)), np.ones((1, 1), bool)
        pts: list[tuple[float, ...]] = []
        if poly is not None:
            pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
            corners = pts or [(0.0, 0.0)]
        elif obj.get("gid"):  # tile objects hang from their bottom-left corner
            corners = [(0.0, -oh), (ow, -oh), (0.0, 0.0), (ow, 0.0)]
        else:
            corners = [(0.0, 0.0), (ow, 0.0), (0.0, oh), (ow, oh)]
        rot = math.radians(float(obj.get("rotation", "0")))
        cos, sin = math.cos(rot), math.sin(rot)
        world = [(x + px * cos - py * sin, y + px * sin + py * cos) for px, py, *_ in corners]
        window = self._window(min(p[0] for p in world), min(p[1] for p in world),
                              max(p[0] for p in world), max(p[1] for p in world))
        cx, cy = self.centers()
        lx, ly = cx[window] - x, cy[window] - y  # centres in the object's own frame, unrotated
        if rot:
            lx, ly = lx * cos + ly * sin, -lx * sin + ly * cos
        if poly is not None:
            return window, _inside_polygon(lx, ly, pts)
        if obj.get("gid"):
            ly = ly + oh
        if obj.find("ellipse") is not None:
            if ow <= 0 or oh <= 0:
                return window, np.zeros(lx.shape, bool)
            return window, ((lx - ow / 2) / (ow / 2)) ** 2 + ((ly - oh / 2) / (oh / 2)) ** 2 <= 1.0
        return window, (lx >= 0) & (lx < ow) & (ly >= 0) & (ly < oh)

    def _nearest_square(self, px: float, py: float) -> tuple[int, int] | None:
        """The square under a pixel position, or None when it is off the map."""
        geo = self.geometry
        if geo.grid == "square":
            if px < 0 or py < 0:
                return None
            sx, sy = int(px // geo.tile_width), int(py // geo.tile_height)
            return (sx, sy) if geo.inside((sx, sy)) else None
        reach = max(geo.tile_width, geo.tile_height)
        rows, cols = self._window(px - reach, py - reach, px + reach, py + reach)
        cx, cy = self.centers()
        d = (cx[rows, cols] - px) ** 2 + (cy[rows, cols] - py) ** 2
        if d.size == 0:
            return None
        iy, ix = np.unravel_index(int(np.argmin(d)), d.shape)
        if math.sqrt(float(d[iy, ix])) > reach * 0.75:
            return None
        return int(ix) + (cols.start or 0), int(iy) + (rows.start or 0)

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
        return self.spec(cls, props, file, place, strict=True)

    def _terrain_objects(self, arrays: dict[str, np.ndarray]) -> None:
        for layer in self._object_layers("terrain"):
            for obj in layer.findall("object"):
                place = self._object_place(layer, obj)
                file = self.doc.file
                spec = self._object_spec(obj, file, place)
                area = self._mask(obj)
                if area is None:
                    self.lint.append(Problem(file, place, "a terrain object must be an area (polylines and text "
                                             "cover no squares)",
                                             "draw a rectangle, ellipse or polygon over the squares"))
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
                place = self._object_place(layer, obj)
                name = (obj.get("name") or "").strip()
                if not name:
                    self.lint.append(Problem(self.doc.file, place, "a token without a name places nobody",
                                             "name the object with the character's id"))
                    continue
                px, py = _reference_point(obj)
                sq = self._nearest_square(px, py)
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


def _reference_point(obj: Element) -> tuple[float, float]:
    """Where a token stands: the centre of its shape (tile objects hang from their bottom-left corner)."""
    x, y = float(obj.get("x", "0")), float(obj.get("y", "0"))
    w, h = float(obj.get("width", "0")), float(obj.get("height", "0"))
    poly = obj.find("polygon")
    if poly is None:
        poly = obj.find("polyline")
    if poly is not None and poly.get("points"):
        pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
        return x + sum(p[0] for p in pts) / len(pts), y + sum(p[1] for p in pts) / len(pts)
    if obj.find("point") is not None:
        return x, y
    rot = math.radians(float(obj.get("rotation", "0")))
    ox, oy = (w / 2, -h / 2) if obj.get("gid") else (w / 2, h / 2)
    return x + ox * math.cos(rot) - oy * math.sin(rot), y + ox * math.sin(rot) + oy * math.cos(rot)


def _inside_polygon(px: np.ndarray, py: np.ndarray, pts: list[tuple[float, ...]]) -> np.ndarray:
    """Even-odd rule, vectorized over all square centres."""
    inside = np.zeros(px.shape, bool)
    if len(pts) < 3:
        return inside
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i][0], pts[i][1]
        xj, yj = pts[j][0], pts[j][1]
        crosses = (yi > py) != (yj > py)
        with np.errstate(divide="ignore", invalid="ignore"):
            x_at = (xj - xi) * (py - yi) / (yj - yi) + xi
        inside ^= crosses & (px < x_at)
        j = i
    return inside
