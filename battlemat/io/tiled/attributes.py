"""The values pytmx converts, checked before pytmx sees them, so a bad one is named in battlemat's words.

pytmx casts attributes by their name alone (`pytmx.pytmx.types`: `width` is a float, `gid` an int,
`visible` a bool...) on maps, tilesets, tiles, layers and objects, reads polygon points as number
pairs and converts property values by their declared type; anything it cannot convert stops it with
a bare ValueError, TypeError or KeyError that names neither the file nor the place. So every such
value is checked here first, from the same table pytmx uses, and each bad one becomes a Problem with
the file, the place (tileset, tile, layer, object, property) and the fix:

- attributes that pytmx casts, plus finiteness (NaN or infinite coordinates cannot place anything) and
  the ranges battlemat relies on (gids fit 32 bits, opacity is 0 to 1): errors, the map is refused;
- layer offsets Tiled writes with decimals, which pytmx reads as whole numbers: rounded in the tree;
- property values that do not fit their declared type: the board needs no custom properties, so the
  property is kept as text for pytmx and `check` reports it (a terrain property with a bad value is
  also an error of the terrain reader); a class property without its class name gets an empty one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any
from xml.etree.ElementTree import Element

from battlemat.io.errors import LoadError, Problem
from battlemat.io.tiled.document import Doc

_MAX_LISTED = 20  # problems listed before "... and N more"
_LAYER_TAGS = ("layer", "objectgroup", "imagelayer", "group")
_CAST_TAGS = ("map", "tileset", "tile", *_LAYER_TAGS, "object")  # elements whose attributes pytmx casts
_PROPERTY_TYPES = ("string", "int", "float", "bool", "color", "file", "object", "class")
_FIX = "correct it in Tiled (or in a text editor), or re-save the file from Tiled"
_HINTS = {
    "x": "set the object's X and Y in Tiled's Properties panel",
    "y": "set the object's X and Y in Tiled's Properties panel",
    "width": "set the size in Tiled's Properties panel",
    "height": "set the size in Tiled's Properties panel",
    "rotation": "set the object's Rotation in Tiled's Properties panel",
    "opacity": "set the layer's Opacity (0 to 1) in Tiled's Properties panel",
    "visible": "toggle the visibility in Tiled and save",
    "gid": "delete the tile object and place the tile again in Tiled",
}


def _kinds(pytmx_module: Any) -> dict[str, str]:
    """Attribute name -> "int" | "float" | "bool", from pytmx's own casting table."""
    inner = pytmx_module.pytmx
    out = {}
    for name, cast in inner.types.items():
        if cast is int:
            out[name] = "int"
        elif cast is float:
            out[name] = "float"
        elif cast is inner.convert_to_bool:
            out[name] = "bool"
    return out


class AttributeChecks:
    """Checks one subtree (a map without its tilesets, one tileset, one template's object)."""

    def __init__(self, doc: Doc, pytmx_module: Any) -> None:
        self.doc = doc
        self.kinds = _kinds(pytmx_module)
        self.to_bool: Callable[[str], bool] = pytmx_module.pytmx.convert_to_bool
        self.errors: list[Problem] = []

    def check(self, root: Element, place: str, file: str, skip: tuple[str, ...] = ()) -> None:
        """Check every element under `root`, named from `place`; subtrees tagged `skip` are left
        (tilesets are checked on their own, with their file). Raises LoadError when any is wrong."""
        for el, where in _walk(root, place, skip):
            if el.tag in _CAST_TAGS:
                if el.tag == "tile":
                    self._int(el, "id", where, file, required=True)
                self._cast_attributes(el, where, file)
            elif el.tag == "frame":
                for name in ("tileid", "duration"):
                    self._int(el, name, where, file, required=True)
            elif el.tag == "image" and _is_tileset_image(el, root):
                for name in ("width", "height"):
                    self._int(el, name, where, file)
            elif el.tag in ("polygon", "polyline"):
                self._points(el, where, file)
            elif el.tag == "property":
                self._property(el, where, file)
        if self.errors:
            shown = self.errors[:_MAX_LISTED]
            if len(self.errors) > _MAX_LISTED:
                last = shown[-1]
                shown[-1] = Problem(last.file, last.place, f"{last.message} (and {len(self.errors) - _MAX_LISTED + 1} "
                                    "more wrong values)", last.fix)
            raise LoadError(shown)

    def _fail(self, file: str, place: str, message: str, name: str = "", tag: str = "object") -> None:
        hint = _HINTS.get(name, _FIX) if tag == "object" or name in ("opacity", "visible") else _FIX
        self.errors.append(Problem(file, place, message, hint))

    def _cast_attributes(self, el: Element, place: str, file: str) -> None:
        for name, raw in list(el.attrib.items()):
            kind = self.kinds.get(name)
            if kind == "int" and not (el.tag == "tile" and name == "id"):
                if name in ("offsetx", "offsety") and el.tag in _LAYER_TAGS:
                    self._offset(el, name, place, file)
                else:
                    self._int(el, name, place, file)
            elif kind == "float":
                value = _float(raw)
                if value is None or not math.isfinite(value):
                    self._fail(file, place, f"{name}={raw!r} is not a finite number", name, el.tag)
                elif name == "opacity" and not 0.0 <= value <= 1.0:
                    self._fail(file, place, f"opacity={raw!r} is outside 0 to 1", name, el.tag)
            elif kind == "bool" and not self._is_bool(raw):
                self._fail(file, place, f"{name}={raw!r} is not true or false (1 or 0)", name, el.tag)

    def _int(self, el: Element, name: str, place: str, file: str, required: bool = False) -> None:
        raw = el.get(name)
        if raw is None:
            if required:
                self._fail(file, place, f"missing the {name!r} attribute")
            return
        try:
            value = int(raw)
        except ValueError:
            self._fail(file, place, f"{name}={raw!r} is not a whole number", name, el.tag)
            return
        if name == "gid" and not 0 <= value < 2**32:
            self._fail(file, place, f"gid={raw!r} is not a tile number (0 to 4294967295)", name, el.tag)
        elif name == "firstgid" and not 1 <= value < 2**32:
            self._fail(file, place, f"firstgid={raw!r} must be from 1 to 4294967295",
                       "re-add the tileset to the map in Tiled")
        elif name in ("id", "tileid", "duration", "margin", "spacing", "tilecount", "columns") and value < 0:
            self._fail(file, place, f"{name}={raw!r} is negative", name, el.tag)

    def _offset(self, el: Element, name: str, place: str, file: str) -> None:
        """Layer offsets: Tiled writes decimals, pytmx reads whole numbers, the board ignores them."""
        raw = el.get(name, "0")
        value = _float(raw)
        if value is None or not math.isfinite(value):
            self._fail(file, place, f"{name}={raw!r} is not a finite number",
                       "set the layer's Offset in Tiled's Properties panel")
        elif value != int(value) or not raw.strip().lstrip("+-").isdigit():
            el.set(name, str(round(value)))

    def _is_bool(self, raw: str) -> bool:
        try:
            self.to_bool(raw)
        except ValueError:
            return False
        return True

    def _points(self, el: Element, place: str, file: str) -> None:
        raw = el.get("points")
        if raw is None:
            self._fail(file, place, f"the {el.tag} has no points", "draw the shape again in Tiled")
            return
        for i, pair in enumerate(raw.split()):
            parts = pair.split(",")
            values = [_float(p) for p in parts]
            if len(parts) != 2 or any(v is None or not math.isfinite(v) for v in values):
                self._fail(file, place, f"point {i + 1} of the {el.tag}, {pair!r}, is not two finite numbers x,y",
                           "draw the shape again in Tiled, or correct its points in a text editor")
                return

    def _property(self, el: Element, place: str, file: str) -> None:
        """A property value that does not fit its declared type is kept as text (for pytmx) and
        reported by `check` as a note: the board reads only its terrain properties, which the terrain
        reader checks itself (a terrain value it cannot read refuses the map in every command), so
        the map loads, and `check` passes it as every other command does (one reader decides)."""
        kind = el.get("type", "string")
        value = el.get("value")
        where = f"{place}.{el.get('name', '')}"
        if kind == "class":
            if el.get("propertytype") is None:
                el.set("propertytype", "")
            return
        problem = ""
        if kind not in _PROPERTY_TYPES:
            problem = f"unknown property type {kind!r} (Tiled's are {', '.join(_PROPERTY_TYPES)})"
        elif kind in ("int", "object") and not _is_int(value):
            problem = f"{el.get('name')!r} is an {kind} property, but its value {value!r} is not a whole number"
        elif kind == "float" and _float(value) is None:
            problem = f"{el.get('name')!r} is a float property, but its value {value!r} is not a number"
        elif kind == "bool" and not self._is_bool(value or ""):
            problem = f"{el.get('name')!r} is a bool property, but its value {value!r} is not true or false"
        if problem:
            self.doc.lint.append(Problem(file, where, problem, "enter the value again in Tiled's Properties panel",
                                         note=True))
            el.set("type", "string")
            if value is None:
                el.set("value", el.text or "")


def _walk(root: Element, place: str, skip: tuple[str, ...]) -> Iterator[tuple[Element, str]]:
    """Every element under `root` with the place that names it in messages, without recursion."""
    stack: list[tuple[Element, str]] = [(root, place)]
    while stack:
        el, where = stack.pop()
        yield el, where
        for child in reversed(list(el)):
            if child.tag in skip:
                continue
            stack.append((child, _place_of(child, where)))


def _place_of(el: Element, parent: str) -> str:
    name = el.get("name", "")
    if el.tag == "tileset":
        return f"tileset {name!r}"
    if el.tag == "tile":
        return f"{parent} tile {el.get('id', '?')}"
    if el.tag in _LAYER_TAGS:
        return f"layer {name!r}"
    if el.tag == "object":
        label = f" {name!r}" if name else ""
        return f"{parent} object {el.get('id', '?')}{label}"
    if el.tag in ("image", "polygon", "polyline", "animation"):
        return f"{parent} {el.tag}"
    if el.tag == "frame":
        return f"{parent} frame"
    return parent  # properties, property (named by the caller), data, text, ...


def _is_tileset_image(el: Element, root: Element) -> bool:
    """The tileset's own image (pytmx casts its size), not a tile's or an image layer's."""
    return root.tag == "tileset" and any(child is el for child in root)


def _float(raw: str | None) -> float | None:
    if raw is None:
        return None
    try:
        return float(raw)
    except ValueError:
        return None


def _is_int(raw: str | None) -> bool:
    if raw is None:
        return False
    try:
        int(raw)
    except ValueError:
        return False
    return True
