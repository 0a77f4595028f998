"""Tiled's JSON formats (.tmj maps, .tsj tilesets, .tj templates, or .json) as the XML tree of TMX.

Why convert instead of reading JSON on its own path: pytmx has no JSON reader (its `parse_json` only
reads a project's custom types), and everything after parsing works on one XML document: the
checks (sizes, layer formats, bounded inflation, the attributes pytmx would choke on), the embedding
of tilesets and templates, the terrain reader, pytmx itself and the window through `read_tiled`. A
JSON map turned into the tree Tiled would have written as TMX goes through every one of those steps
unchanged, so the same checks apply and the same map gives the same Board in either format (tested
on the bundled maps). The JSON fields are those of Tiled's JSON map format reference (and the older
forms before Tiled 1.2: properties as an object, tiles keyed by id, `tileproperties`).

The bytes are bounded before parsing (MAX_FILE_BYTES by the caller, MAX_JSON_OBJECTS by counting
braces, MAX_JSON_VALUES by counting commas), the nesting after parsing without recursion
(MAX_NESTING), and a value of the wrong JSON type is a LoadError naming the field, never a Python
exception.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any
from xml.etree.ElementTree import Element, SubElement

from battlemat.io.errors import LoadError
from battlemat.io.limits import MAX_JSON_OBJECTS, MAX_JSON_VALUES, MAX_MAP_OBJECTS, MAX_NESTING

_FIX = "re-export the file from Tiled (File > Export As...), or save it as .tmx"

# JSON fields copied as XML attributes of the same name, per element.
_MAP_ATTRS = ("version", "tiledversion", "class", "orientation", "renderorder", "compressionlevel", "width",
              "height", "tilewidth", "tileheight", "hexsidelength", "staggeraxis", "staggerindex",
              "parallaxoriginx", "parallaxoriginy", "backgroundcolor", "nextlayerid", "nextobjectid", "infinite")
_TILESET_ATTRS = ("version", "tiledversion", "name", "class", "tilewidth", "tileheight", "spacing", "margin",
                  "tilecount", "columns", "objectalignment", "tilerendersize", "fillmode", "backgroundcolor")
_LAYER_ATTRS = ("id", "name", "class", "x", "y", "width", "height", "opacity", "visible", "locked", "tintcolor",
                "offsetx", "offsety", "parallaxx", "parallaxy")
_OBJECT_ATTRS = ("id", "name", "type", "class", "x", "y", "width", "height", "rotation", "gid", "visible",
                 "template")
_TEXT_ATTRS = ("fontfamily", "pixelsize", "wrap", "color", "bold", "italic", "underline", "strikeout", "kerning",
               "halign", "valign")


def json_document(data: bytes, file: str, what: str) -> Element:
    """The XML root (<map>, <tileset> or <template>) of a Tiled JSON file."""
    braces = data.count(b"{")
    if braces > MAX_JSON_OBJECTS:
        raise LoadError.one(file, "", f"the JSON holds {braces:,} objects ({{...}}), more than the "
                            f"{MAX_JSON_OBJECTS:,} battlemat reads", "split the map, or save it as .tmx")
    values = data.count(b",")
    if values > MAX_JSON_VALUES:
        raise LoadError.one(file, "", f"the JSON holds {values:,} values, more than the {MAX_JSON_VALUES:,} "
                            "battlemat reads", "use Base64 (zlib compressed) layer data in Tiled, or split the map")
    try:
        value = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise LoadError.one(file, "", "the file is not valid UTF-8 text", "save it as UTF-8 (Tiled does)") from None
    except json.JSONDecodeError as exc:
        raise LoadError.one(file, f"line {exc.lineno}, column {exc.colno}", f"not valid JSON ({exc.msg})",
                            "fix the file at that place, or re-export it from Tiled") from None
    except RecursionError:
        raise LoadError.one(file, "", f"arrays and objects nest more than {MAX_NESTING} deep",
                            "flatten the group layers in Tiled") from None
    _check_nesting(value, file)
    if not isinstance(value, dict):
        raise LoadError.one(file, "", f"the JSON is {_kind(value)}, not a Tiled {what}", _FIX)
    return _Converter(file).document(value, what)


def _check_nesting(value: Any, file: str) -> None:
    """Refuse values nested deeper than MAX_NESTING, walking with a stack (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_NESTING:
            raise LoadError.one(file, "", f"arrays and objects nest more than {MAX_NESTING} deep (a Tiled map "
                                "nests group layers a few deep)", "flatten the group layers in Tiled")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, dict | list))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item if isinstance(v, dict | list))


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a true/false value"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if value is None:
        return "null"
    return "an object"


def _number(value: float) -> str:
    """A JSON number as Tiled writes it in XML: whole numbers without a decimal point."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


class _Converter:
    """One file's conversion; `place` strings name the field in messages."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.objects = 0

    def fail(self, place: str, message: str) -> LoadError:
        return LoadError.one(self.file, place, message, _FIX)

    # -- values ----------------------------------------------------------------------------------
    def scalar(self, value: Any, place: str) -> str:
        if isinstance(value, bool):
            return "1" if value else "0"
        if isinstance(value, int | float):
            return _number(value)
        if isinstance(value, str):
            return value
        raise self.fail(place, f"this field is {_kind(value)}; Tiled writes a number, text or true/false there")

    def obj(self, value: Any, place: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(place, f"expected an object {{...}}, found {_kind(value)}")
        return value

    def array(self, value: Any, place: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(place, f"expected an array [...], found {_kind(value)}")
        return value

    def attrs(self, el: Element, src: dict[str, Any], names: tuple[str, ...], place: str) -> None:
        for name in names:
            if name in src and src[name] is not None:
                el.set(name, self.scalar(src[name], f"{place}.{name}"))

    # -- documents -------------------------------------------------------------------------------
    def document(self, doc: dict[str, Any], what: str) -> Element:
        kind = doc.get("type")
        if kind not in ("map", "tileset", "template"):  # files before Tiled 1.0 have no "type"
            kind = "map" if "layers" in doc else "template" if "object" in doc else "tileset" if "tilewidth" in doc \
                else what
        if kind == "map":
            return self.map(doc)
        if kind == "tileset":
            return self.tileset(doc, "tileset")
        return self.template(doc)

    def map(self, doc: dict[str, Any]) -> Element:
        root = Element("map")
        self.attrs(root, doc, _MAP_ATTRS, "map")
        self.properties(root, doc, "map")
        for i, ts in enumerate(self.array(doc.get("tilesets", []), "map.tilesets")):
            ts = self.obj(ts, f"tilesets[{i}]")
            if "source" in ts:
                ref = SubElement(root, "tileset")
                self.attrs(ref, ts, ("firstgid", "source"), f"tilesets[{i}]")
            else:
                root.append(self.tileset(ts, f"tilesets[{i}]"))
        self.layers(root, doc.get("layers", []), "map.layers")
        return root

    def template(self, doc: dict[str, Any]) -> Element:
        root = Element("template")
        if "tileset" in doc:
            ts = self.obj(doc["tileset"], "template.tileset")
            self.attrs(SubElement(root, "tileset"), ts, ("firstgid", "source"), "template.tileset")
        root.append(self.object(self.obj(doc.get("object"), "template.object"), "template.object"))
        return root

    # -- properties ------------------------------------------------------------------------------
    def properties(self, el: Element, src: dict[str, Any], place: str) -> None:
        props = src.get("properties")
        if props is None:
            return
        out = Element("properties")
        if isinstance(props, dict):  # before Tiled 1.2: name -> value, types in "propertytypes"
            found = src.get("propertytypes")
            types: dict[str, Any] = found if isinstance(found, dict) else {}
            for name, value in props.items():
                self.property(out, {"name": name, "type": types.get(name, _type_of(value)), "value": value},
                              f"{place}.properties")
        else:
            for i, prop in enumerate(self.array(props, f"{place}.properties")):
                self.property(out, self.obj(prop, f"{place}.properties[{i}]"), f"{place}.properties[{i}]")
        el.append(out)

    def property(self, out: Element, prop: dict[str, Any], place: str) -> None:
        name = prop.get("name", "")
        el = SubElement(out, "property", {"name": self.scalar(name, f"{place}.name")})
        kind = prop.get("type", "string")
        if kind != "string":
            el.set("type", self.scalar(kind, f"{place}.type"))
        if "propertytype" in prop:
            el.set("propertytype", self.scalar(prop["propertytype"], f"{place}.propertytype"))
        value = prop.get("value")
        if kind == "class":
            members = Element("properties")
            for key, member in (value or {}).items() if isinstance(value, dict) else ():
                self.property(members, {"name": key, "type": _type_of(member), "value": member}, f"{place}.{key}")
            if len(members):
                el.append(members)
            return
        if value is None:
            return
        if isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = self.scalar(value, f"{place}.value")
        if "\n" in text:
            el.text = text  # Tiled writes multi-line strings as the element's text
        else:
            el.set("value", text)

    # -- tilesets --------------------------------------------------------------------------------
    def tileset(self, ts: dict[str, Any], place: str) -> Element:
        el = Element("tileset")
        self.attrs(el, ts, ("firstgid",), place)
        self.attrs(el, ts, _TILESET_ATTRS, place)
        if isinstance(ts.get("tileoffset"), dict):
            self.attrs(SubElement(el, "tileoffset"), ts["tileoffset"], ("x", "y"), f"{place}.tileoffset")
        if isinstance(ts.get("grid"), dict):
            self.attrs(SubElement(el, "grid"), ts["grid"], ("orientation", "width", "height"), f"{place}.grid")
        self.properties(el, ts, place)
        if ts.get("image"):
            self.image(el, ts, place)
        tiles: dict[int, dict[str, Any]] = {}
        raw_tiles = ts.get("tiles", [])
        if isinstance(raw_tiles, dict):  # before Tiled 1.2: keyed by id
            raw_tiles = [{**self.obj(t, f"{place}.tiles.{k}"), "id": k} for k, t in raw_tiles.items()]
        for i, tile in enumerate(self.array(raw_tiles, f"{place}.tiles")):
            tile = self.obj(tile, f"{place}.tiles[{i}]")
            tiles[self.tile_id(tile.get("id"), f"{place}.tiles[{i}].id")] = dict(tile)
        old_props = ts.get("tileproperties")  # before Tiled 1.2
        if isinstance(old_props, dict):
            found = ts.get("tilepropertytypes")
            old_types: dict[str, Any] = found if isinstance(found, dict) else {}
            for key, props in old_props.items():
                tile = tiles.setdefault(self.tile_id(key, f"{place}.tileproperties"), {})
                tile["properties"] = props
                tile["propertytypes"] = old_types.get(key, {})
        for tid in sorted(tiles):
            self.tile(el, tid, tiles[tid], f"{place} tile {tid}")
        return el

    def tile_id(self, value: Any, place: str) -> int:
        try:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise ValueError
            return int(value)
        except ValueError:
            raise self.fail(place, f"a tile id is a whole number, found {value!r}") from None

    def image(self, el: Element, src: dict[str, Any], place: str) -> None:
        img = SubElement(el, "image", {"source": self.scalar(src["image"], f"{place}.image")})
        if "transparentcolor" in src:
            img.set("trans", self.scalar(src["transparentcolor"], f"{place}.transparentcolor").lstrip("#"))
        if "imagewidth" in src:
            img.set("width", self.scalar(src["imagewidth"], f"{place}.imagewidth"))
        if "imageheight" in src:
            img.set("height", self.scalar(src["imageheight"], f"{place}.imageheight"))

    def tile(self, ts_el: Element, tid: int, tile: dict[str, Any], place: str) -> None:
        el = SubElement(ts_el, "tile", {"id": str(tid)})
        self.attrs(el, tile, ("type", "class", "probability"), place)
        self.properties(el, tile, place)
        if tile.get("image"):
            self.image(el, tile, place)
        if "animation" in tile:
            anim = SubElement(el, "animation")
            for i, frame in enumerate(self.array(tile["animation"], f"{place}.animation")):
                self.attrs(SubElement(anim, "frame"), self.obj(frame, f"{place}.animation[{i}]"),
                           ("tileid", "duration"), f"{place}.animation[{i}]")
        if isinstance(tile.get("objectgroup"), dict):  # collision shapes
            el.append(self.layer(tile["objectgroup"], f"{place}.objectgroup"))

    # -- layers ----------------------------------------------------------------------------------
    def layers(self, parent: Element, layers: Any, place: str) -> None:
        for i, layer in enumerate(self.array(layers, place)):
            parent.append(self.layer(self.obj(layer, f"{place}[{i}]"), f"{place}[{i}]"))

    def layer(self, layer: dict[str, Any], place: str) -> Element:
        kind = layer.get("type", "objectgroup" if "objects" in layer else "tilelayer")
        if "name" in layer and isinstance(layer["name"], str):
            place = f"layer {layer['name']!r}"
        builders: dict[Any, Callable[[dict[str, Any], str], Element]] = {
            "tilelayer": self.tile_layer, "objectgroup": self.object_layer,
            "imagelayer": self.image_layer, "group": self.group_layer,
        }
        build = builders.get(kind) if isinstance(kind, str) else None
        if build is None:
            raise self.fail(place, f"unknown layer type {kind!r} (Tiled writes tilelayer, objectgroup, imagelayer "
                            "or group)")
        return build(layer, place)

    def _layer_element(self, tag: str, layer: dict[str, Any], place: str, extra: tuple[str, ...] = ()) -> Element:
        el = Element(tag)
        names = tuple(n for n in _LAYER_ATTRS if tag != "layer" or n not in ("x", "y")) + extra
        if tag != "layer":
            names = tuple(n for n in names if n not in ("x", "y", "width", "height"))
        self.attrs(el, layer, names, place)
        if layer.get("visible") is True:
            del el.attrib["visible"]  # Tiled writes visible only when hidden
        self.properties(el, layer, place)
        return el

    def tile_layer(self, layer: dict[str, Any], place: str) -> Element:
        el = self._layer_element("layer", layer, place)
        data = SubElement(el, "data")
        encoding = layer.get("encoding", "csv")
        data.set("encoding", self.scalar(encoding, f"{place}.encoding"))
        if layer.get("compression"):
            data.set("compression", self.scalar(layer["compression"], f"{place}.compression"))
        if "chunks" in layer:
            for i, chunk in enumerate(self.array(layer["chunks"], f"{place}.chunks")):
                chunk = self.obj(chunk, f"{place}.chunks[{i}]")
                ch = SubElement(data, "chunk")
                self.attrs(ch, chunk, ("x", "y", "width", "height"), f"{place}.chunks[{i}]")
                ch.text = self.gids(chunk.get("data"), f"{place}.chunks[{i}].data")
        else:
            data.text = self.gids(layer.get("data"), f"{place}.data")
        return el

    def gids(self, data: Any, place: str) -> str:
        """Layer data as the text of TMX <data>: CSV for an array of gids, the Base64 text as is."""
        if isinstance(data, str):
            return data
        for i, gid in enumerate(self.array(data, place)):
            if isinstance(gid, bool) or not isinstance(gid, int):
                raise self.fail(f"{place}[{i}]", f"a tile is a whole number (its gid), found {gid!r}")
        return ",".join(map(str, data))

    def object_layer(self, layer: dict[str, Any], place: str) -> Element:
        el = self._layer_element("objectgroup", layer, place, ("color", "draworder"))
        for i, obj in enumerate(self.array(layer.get("objects", []), f"{place}.objects")):
            el.append(self.object(self.obj(obj, f"{place}.objects[{i}]"), f"{place} object {i}"))
        return el

    def image_layer(self, layer: dict[str, Any], place: str) -> Element:
        el = self._layer_element("imagelayer", layer, place, ("repeatx", "repeaty"))
        if layer.get("image"):
            self.image(el, layer, place)
        return el

    def group_layer(self, layer: dict[str, Any], place: str) -> Element:
        el = self._layer_element("group", layer, place)
        self.layers(el, layer.get("layers", []), f"{place}.layers")
        return el

    # -- objects ---------------------------------------------------------------------------------
    def object(self, obj: dict[str, Any], place: str) -> Element:
        self.objects += 1
        if self.objects > MAX_MAP_OBJECTS:
            raise LoadError.one(self.file, "", f"the file holds more than {MAX_MAP_OBJECTS:,} objects",
                                "delete unused objects, or move them to another map")
        el = Element("object")
        self.attrs(el, obj, _OBJECT_ATTRS, place)
        if obj.get("visible") is True:
            del el.attrib["visible"]
        self.properties(el, obj, place)
        if obj.get("ellipse"):
            SubElement(el, "ellipse")
        if obj.get("point"):
            SubElement(el, "point")
        for shape in ("polygon", "polyline"):
            if shape in obj:
                SubElement(el, shape, {"points": self.points(obj[shape], f"{place}.{shape}")})
        if isinstance(obj.get("text"), dict):
            text = SubElement(el, "text")
            self.attrs(text, obj["text"], _TEXT_ATTRS, f"{place}.text")
            text.text = self.scalar(obj["text"].get("text", ""), f"{place}.text.text")
        return el

    def points(self, points: Any, place: str) -> str:
        out = []
        for i, p in enumerate(self.array(points, place)):
            p = self.obj(p, f"{place}[{i}]")
            x = self.scalar(p.get("x", 0), f"{place}[{i}].x")
            out.append(f"{x},{self.scalar(p.get('y', 0), f'{place}[{i}].y')}")
        return " ".join(out)


def _type_of(value: Any) -> str:
    """A property's Tiled type from its JSON value (old files and class members carry no type)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, dict):
        return "class"
    return "string"
