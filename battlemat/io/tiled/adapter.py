"""The pytmx adapter: a prepared tree in, pytmx's TiledMap out, with what pytmx cannot do done here.

pytmx opens tilesets and templates itself, with the standard XML parser, and cannot read external
tileset images' sizes, object templates, JSON, infinite maps, embedded images or class-typed tile
properties. So the map's tree is prepared first (`prepare`): an infinite map is made finite (`chunks`);
external tilesets (.tsx or .tsj) are read safely (xmlsafe) and embedded, their images relinked to the
map's folder, their embedded images kept as bytes (`images`), and their tiles' collision shapes set
aside (pytmx would list each as a nameless object layer; the conventions reader reads them from
`Doc.tile_shapes`); object templates are merged into their instances as Tiled's --detach-templates does;
the checks run, the values pytmx casts last (`attributes`). pytmx then only decodes the layers and maps
the gids (`parse_pytmx`), with its default image loader, so no graphics library is needed. pytmx imports
pygame whenever it can; `_pytmx()` keeps it out, so the headless layers stay headless (STYLE 1, 2).

pytmx gives flipped and turned tiles gids of their own; `gid_variants` maps them back to Tiled's gid
and flags (GID_MASK, HEX_120), for the terrain reader and the renderer. pytmx regroups layers by kind
(pytmx issue #106); `MapInfo.layers` keeps the document order, which is the drawing order, with each
layer's index in `TiledMap.layers`.
"""

from __future__ import annotations

import copy
import importlib
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element

from battlemat.io.errors import LoadError, Problem
from battlemat.io.limits import MAX_TILES
from battlemat.io.tiled.attributes import AttributeChecks
from battlemat.io.tiled.checks import check_layers, check_map_header
from battlemat.io.tiled.chunks import make_finite
from battlemat.io.tiled.document import Doc, Tileset, int_attr
from battlemat.io.tiled.images import embed_images, image_size
from battlemat.io.tiled.xmlsafe import read_document

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
        return importlib.import_module("pytmx")  # (by name: this module imports it at once, through this guard)
    finally:
        if blocked and sys.modules.get("pygame", 0) is None:
            del sys.modules["pygame"]


pytmx = _pytmx()


# -- gids ----------------------------------------------------------------------------------------
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


# -- steps 1 and 2: the document ------------------------------------------------------------------
def prepare(path: Path, max_cells: int, require_images: bool = False) -> Doc:
    file = str(path)
    root = read_document(path, file, "map")
    if root.tag != "map":
        hint = " (a tileset; open the map that uses it)" if root.tag == "tileset" else ""
        raise LoadError.one(file, "", f"not a Tiled map: the document is <{root.tag}>{hint}",
                            "pass a map file (.tmx or .tmj)")
    doc = Doc(path, file, root, require_images=require_images)
    make_finite(doc, max_cells)
    check_map_header(doc, max_cells)
    _embed_tilesets(doc)
    embed_images(doc, root, "map", file)  # image layers' embedded pictures (tilesets' are done)
    check_layers(doc)
    _resolve_templates(doc)
    AttributeChecks(doc, pytmx).check(root, "map", file, skip=("tileset",))
    _door_tiles(doc)
    return doc


def _door_tiles(doc: Doc) -> None:
    """A tile object without a class of its own whose tile has the class `door` is a door, as Tiled
    1.9+ shows it (an object takes its tile's class): the class is written on the object, so every
    reader sees one door (battlemat.io.tiled.walls; the terrain, convention and token readers skip it)."""
    doors: set[int] = set()
    for ts in doc.tilesets:
        for tile in ts.element.findall("tile"):
            if (tile.get("class") or tile.get("type") or "").strip().lower() == "door" and tile.get("id", "").isdigit():
                doors.add(ts.firstgid + int(tile.get("id", "0")))
    if not doors:
        return
    for obj in doc.root.iter("object"):
        gid = obj.get("gid", "")
        if gid.isdigit() and not (obj.get("class") or obj.get("type")) and int(gid) & GID_MASK in doors:
            obj.set("class", "door")


def _relink(src: str, from_dir: Path, to_dir: Path) -> str:
    """A path written relative to `from_dir`, rewritten relative to `to_dir` (URLs and absolute paths kept)."""
    if not src or "://" in src or os.path.isabs(src) or from_dir == to_dir:
        return src
    return os.path.relpath(os.path.normpath(from_dir / src), to_dir)


def _embed_tilesets(doc: Doc) -> None:
    """Read each external tileset safely and put its content in the map, images relinked to the map's
    folder; check images exist and the tileset's tile count is bounded."""
    total_tiles = 0
    for index, ts in enumerate(list(doc.root.findall("tileset"))):
        firstgid = int_attr(ts, "firstgid", doc, f"tileset[{index}]", 1)
        source = ts.get("source")
        file = doc.file
        el = ts
        if source:
            file, el = _embed_external_tileset(doc, ts, index, firstgid)
        name = el.get("name") or Path(source or doc.file).stem
        tplace = f"tileset {name!r}"
        for tile in el.findall("tile"):  # collision shapes: pytmx would list them as nameless layers
            for shapes in tile.findall("objectgroup"):
                tile.remove(shapes)
                if (tile.get("id") or "").isdigit():  # kept aside for the conventions (tile collision shapes)
                    doc.tile_shapes[(firstgid, int(tile.get("id", "0")))] = shapes
        embed_images(doc, el, tplace, file)
        AttributeChecks(doc, pytmx).check(el, tplace, file)
        total_tiles += _image_tile_count(doc, el, tplace, file)
        _check_tiles(doc, el, tplace, file)
        total_tiles += len(el.findall("tile"))
        if total_tiles > MAX_TILES:
            raise doc.fail(tplace, f"the tilesets cut more than {MAX_TILES:,} tiles", "use fewer or larger tiles", file)
        doc.tilesets.append(Tileset(firstgid, name, file, el))
    doc.tilesets.sort(key=lambda t: t.firstgid)


def _embed_external_tileset(doc: Doc, ts: Element, index: int, firstgid: int) -> tuple[str, Element]:
    """Read the .tsx that `<tileset source=...>` names and swap its content in for the reference:
    the tileset's file (for messages) and the embedded <tileset>, its images relinked to the map's folder."""
    source = ts.get("source", "")
    map_dir = doc.path.parent
    ts_path = map_dir / source
    place = f"tileset[{index}] {source!r}"
    if not ts_path.is_file():
        raise doc.fail(place, f"tileset file not found (looked for {ts_path})",
                       "put the .tsx file there, or open the map in Tiled, locate the tileset when "
                       "asked, and save")
    file = str(ts_path)
    el = read_document(ts_path, file, "tileset")
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
    return file, el


def _image_tile_count(doc: Doc, el: Element, tplace: str, file: str) -> int:
    """How many tiles pytmx cuts from a tileset's image (0 for a collection of images)."""
    tile_w = int_attr(el, "tilewidth", doc, tplace, 0, file)
    tile_h = int_attr(el, "tileheight", doc, tplace, 0, file)
    image = el.find("image")
    if image is None:
        return 0
    _image_attributes(doc, image, tplace, file)
    if tile_w <= 0 or tile_h <= 0:
        raise doc.fail(tplace, "tile width and height must be above 0",
                       "set them in Tileset > Tileset Properties", file)
    iw = int_attr(image, "width", doc, tplace, 0, file)
    ih = int_attr(image, "height", doc, tplace, 0, file)
    margin = int_attr(el, "margin", doc, tplace, 0, file)
    spacing = int_attr(el, "spacing", doc, tplace, 0, file)
    cols = max(0, (iw - 2 * margin + spacing) // max(1, tile_w + spacing))
    rows = max(0, (ih - 2 * margin + spacing) // max(1, tile_h + spacing))
    return cols * rows


def _image_attributes(doc: Doc, image: Element, tplace: str, file: str) -> None:
    """A tileset image's width and height, which pytmx needs: read from the file when Tiled did not
    write them; a missing image is reported (the board needs no pictures) and counts no tiles."""
    src = image.get("source", "")
    if not src:  # Tiled always writes a file or embedded data; without either there is no picture
        image.attrib.setdefault("width", "0")
        image.attrib.setdefault("height", "0")
        return
    img_path = doc.path.parent / src
    if not doc.image_exists(src):
        doc.missing_image(tplace, f"tileset image not found (looked for {os.path.normpath(img_path)})",
                          "put the image there, or in Tiled open the tileset and pick its image again "
                          "(Tileset > Tileset Properties > Image)", file)
        image.attrib.setdefault("width", "0")
        image.attrib.setdefault("height", "0")
    else:
        size = image_size(doc.embedded.get(src) or img_path)
        if image.get("width") is None or image.get("height") is None:
            if size is None:
                raise doc.fail(tplace, "the tileset image's size is not written and cannot be read from "
                               "the file", "open the tileset in Tiled and save it (Tiled writes the image "
                               "width and height)", file)
            image.set("width", str(size[0]))
            image.set("height", str(size[1]))
        elif size is not None and (size[0] < int(image.get("width", "0")) or size[1] < int(image.get("height", "0"))):
            doc.lint.append(Problem(file, tplace, f"the tileset image is {size[0]}x{size[1]} pixels but the tileset "
                                    f"says {image.get('width')}x{image.get('height')}: tiles outside the picture "
                                    "are drawn empty, as in Tiled", "open the tileset in Tiled and save it",
                                    note=True))


def _check_tiles(doc: Doc, el: Element, tplace: str, file: str) -> None:
    """Each tile's own image must exist (its path was relinked to the map's folder); class-typed tile
    properties are dropped, since pytmx cannot read them on tiles and they never carry terrain."""
    for tile in el.findall("tile"):
        timg = tile.find("image")
        if timg is not None and timg.get("source"):
            tile_path = os.path.normpath(doc.path.parent / timg.get("source", ""))
            if not doc.image_exists(timg.get("source", "")):
                doc.missing_image(f"{tplace} tile {tile.get('id')}",
                                  f"tile image not found (looked for {tile_path})",
                                  "put the image there, or in Tiled open the tileset and replace the tile's "
                                  "image", file)
        for props in tile.findall("properties"):
            for prop in list(props):
                if prop.get("type") == "class":
                    props.remove(prop)


@dataclass(frozen=True)
class _Template:
    """An object template (.tx) as read once for all its instances."""

    obj: Element  # the template's <object>
    path: Path
    ts_source: str | None  # the normalized path of the template's tileset, when it has one
    ts_first: int  # the firstgid the template gives that tileset


_SHAPES = ("ellipse", "point", "polygon", "polyline", "text")


def _resolve_templates(doc: Doc) -> None:
    """Merge object templates (.tx) into their instances, as Tiled's --detach-templates does: the
    instance's attributes and properties win. pytmx ignores templates; tokens and terrain may use them."""
    map_dir = doc.path.parent
    cache: dict[Path, _Template] = {}
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
                cache[tpath] = _read_template(doc, tpath, place)
            template = cache[tpath]
            _merge_attributes(doc, obj, template, by_source)
            _merge_shape(obj, template.obj)
            _merge_properties(obj, template.obj)
            del obj.attrib["template"]


def _read_template(doc: Doc, tpath: Path, place: str) -> _Template:
    if not tpath.is_file():
        raise doc.fail(place, f"object template not found (looked for {os.path.normpath(tpath)})",
                       "put the .tx file there, or in Tiled select the object and use Detach Template")
    troot = read_document(tpath, str(tpath), "template")
    tobj = troot.find("object")
    if troot.tag != "template" or tobj is None:
        raise doc.fail("", "not a Tiled object template", "re-save the template from Tiled", str(tpath))
    AttributeChecks(doc, pytmx).check(tobj, "template object", str(tpath))
    tts = troot.find("tileset")
    ts_source = None
    ts_first = 1
    if tts is not None and tts.get("source"):
        ts_source = os.path.normpath(tpath.parent / tts.get("source", ""))
        ts_first = int_attr(tts, "firstgid", doc, "tileset", 1, str(tpath))
    return _Template(tobj, tpath, ts_source, ts_first)


def _merge_attributes(doc: Doc, obj: Element, template: _Template, by_source: dict[str, int]) -> None:
    """The template's attributes where the instance has none; its tile (gid) renumbered into the
    map's gids through the tileset both use (`by_source`: the map's firstgid of each tileset file)."""
    tobj = template.obj
    for key, value in tobj.attrib.items():
        if key == "gid":
            gid = int_attr(tobj, "gid", doc, "object", None, str(template.path))
            flags, local = gid & ~GID_MASK, (gid & GID_MASK) - template.ts_first
            map_first = by_source.get(template.ts_source or "")
            if "gid" not in obj.attrib:
                if map_first is not None:
                    obj.set("gid", str((map_first + local) | flags))
                else:
                    # The map lacks the template's tileset: keep the area, drop the picture.
                    y = float(obj.get("y", tobj.get("y", "0")))
                    obj.set("y", str(y - float(obj.get("height", tobj.get("height", "0")))))
            continue
        obj.attrib.setdefault(key, value)


def _merge_shape(obj: Element, tobj: Element) -> None:
    """The template's shape (ellipse, point, polygon, ...) unless the instance has one of its own."""
    if not any(obj.find(s) is not None for s in _SHAPES):
        for shape in _SHAPES:
            found = tobj.find(shape)
            if found is not None:
                obj.append(copy.deepcopy(found))


def _merge_properties(obj: Element, tobj: Element) -> None:
    """The template's properties that the instance does not set itself."""
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


# -- step 3: pytmx ---------------------------------------------------------------------------------
def parse_pytmx(doc: Doc, image_loader: Callable[..., Any] | None, load_all: bool = False) -> Any:
    """pytmx's TiledMap of the prepared tree; `load_all` cuts every tile of every tileset (the window
    animates and flips tiles the layers do not name), not only those the layers use."""
    kwargs: dict[str, Any] = {"allow_duplicate_names": True, "load_all": load_all}
    if image_loader is not None:
        kwargs["image_loader"] = image_loader
    tmx = pytmx.TiledMap(**kwargs)
    tmx.filename = doc.file
    # Class-typed properties on maps, layers and objects need their class known to pytmx.
    for prop in doc.root.iter("property"):
        if prop.get("type") == "class":
            kind = prop.get("propertytype", "")
            tmx.custom_types.setdefault(kind, pytmx.TiledClassType(kind, []))
    try:
        tmx.parse_xml(doc.root)
    except LoadError:  # from the image loader (read_tiled), already in battlemat's words
        raise
    except Exception as exc:  # pytmx raises bare Exceptions, ValueErrors and TypeErrors: each one in our words
        detail = str(exc) or type(exc).__name__
        raise doc.fail("", f"pytmx cannot read this map ({type(exc).__name__}: {detail})",
                       "open the map in Tiled and save it again; if the problem stays, report it with the "
                       "map") from exc
    return tmx


def map_info(doc: Doc, tmx: Any) -> MapInfo:
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

