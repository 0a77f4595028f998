"""The checks on a map's structure before pytmx reads it: what battlemat refuses, and how to fix it.

pytmx fails on many maps Tiled writes without saying why (infinite maps, zstd layers, isometric
orientations), and trusts the sizes a file declares. These checks run on the prepared tree first, so
each refusal is a LoadError naming the file, the place and the fix in Tiled, which is also what
`battlemat check` lists for the map: the map header (orientation, size against MAX_CELLS, hex
stagger), every tile layer's data (encoding, compression, bounded inflation, tile count) and image
layers (a missing image is only reported, since the board needs no pictures). `lint_map` (the
package front) lists these together with what the terrain reader finds.
"""

from __future__ import annotations

import base64
import gzip
import os
import zlib
from xml.etree.ElementTree import Element

from battlemat.io.tiled.document import Doc, int_attr
from battlemat.io.tiled.xmlsafe import bounded_inflate

ORIENTATIONS = ("orthogonal", "hexagonal")


def check_map_header(doc: Doc, max_cells: int) -> None:
    """A finite orthogonal or hexagonal map of at least one square, its declared size within
    `max_cells` before any layer data is decoded."""
    root = doc.root
    orientation = root.get("orientation", "orthogonal")
    if orientation not in ORIENTATIONS:
        what = {"isometric": "isometric", "staggered": "staggered (isometric)"}.get(orientation, repr(orientation))
        raise doc.fail("map", f"{what} maps are not supported; battlemat plays orthogonal (square) and hexagonal maps",
                       "in Tiled, Map > Map Properties > Orientation: choose Orthogonal or Hexagonal "
                       "(or make a new map with that orientation)")
    if root.get("infinite", "0") not in ("0", "", "false"):
        raise doc.fail("map", "infinite maps are not supported (a battlemat has edges)",
                       "in Tiled, Map > Map Properties > uncheck Infinite")
    width = int_attr(root, "width", doc, "map")
    height = int_attr(root, "height", doc, "map")
    for name in ("tilewidth", "tileheight"):
        if int_attr(root, name, doc, "map") <= 0:
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
        int_attr(root, "hexsidelength", doc, "map", 0)


def check_layers(doc: Doc) -> None:
    """Every tile layer is the map's size and holds one decodable gid per square (the old XML layer
    format is rewritten as CSV for pytmx); every image layer's image exists."""
    root = doc.root
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    for layer in root.iter("layer"):
        _check_tile_layer(doc, layer, width, height)
    for image_layer in root.iter("imagelayer"):
        _check_image_layer(doc, image_layer)


def _check_tile_layer(doc: Doc, layer: Element, width: int, height: int) -> None:
    want = width * height
    place = f"layer {layer.get('name', '')!r}"
    data = layer.find("data")
    if data is None:
        raise doc.fail(place, "the layer has no <data>", "re-save the map from Tiled")
    if data.find("chunk") is not None:
        raise doc.fail(place, "infinite maps are not supported (this layer is stored in chunks)",
                       "in Tiled, Map > Map Properties > uncheck Infinite")
    lw = int_attr(layer, "width", doc, place, width)
    lh = int_attr(layer, "height", doc, place, height)
    if (lw, lh) != (width, height):
        raise doc.fail(place, f"the layer is {lw}x{lh} but the map is {width}x{height}",
                       "re-save the map from Tiled (Map > Resize Map keeps layers the map's size)")
    layer.set("width", str(width))
    layer.set("height", str(height))
    if data.get("encoding") is None:
        _xml_tiles_to_csv(doc, data, place, want)
        return
    count = _encoded_tile_count(doc, data, place, want)
    if count != want:
        raise doc.fail(place, f"the layer holds {count} tiles, expected {width}x{height} = {want}",
                       "re-save the map from Tiled")


def _xml_tiles_to_csv(doc: Doc, data: Element, place: str, want: int) -> None:
    """The old XML layer format (one <tile gid=...> per square), which pytmx dropped, written as CSV."""
    tiles = data.findall("tile")
    if len(tiles) != want:
        raise doc.fail(place, f"the layer holds {len(tiles)} tiles, expected {want}",
                       "re-save the map from Tiled")
    text = ",".join(t.get("gid", "0") for t in tiles)
    for t in tiles:
        data.remove(t)
    data.set("encoding", "csv")
    data.text = text


def _encoded_tile_count(doc: Doc, data: Element, place: str, want: int) -> int:
    """How many gids a CSV or Base64 layer holds; compressed data is inflated to at most the 4 bytes
    of each of the `want` squares (bounded_inflate), so a small layer cannot expand into gigabytes."""
    encoding = data.get("encoding")
    compression = data.get("compression") or ""
    text = (data.text or "").strip()
    if encoding == "csv":
        if compression:
            raise doc.fail(place, "CSV layer data cannot be compressed", "re-save the map from Tiled")
        return text.count(",") + 1 if text else 0
    if encoding != "base64":
        raise doc.fail(place, f"unknown layer encoding {encoding!r}",
                       "in Tiled, Map > Map Properties > Tile Layer Format: choose CSV or Base64")
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
            inflated = bounded_inflate(raw, compression, 4 * want)
            if inflated is None:
                raise doc.fail(place, f"the layer data inflates to more than the {want} tiles of the map",
                               "re-save the map from Tiled")
            raw = inflated
    except (zlib.error, ValueError, EOFError, gzip.BadGzipFile) as exc:
        raise doc.fail(place, f"the layer data cannot be decoded ({exc})",
                       "re-save the map from Tiled") from None
    return len(raw) // 4


def _check_image_layer(doc: Doc, image_layer: Element) -> None:
    place = f"image layer {image_layer.get('name', '')!r}"
    img = image_layer.find("image")
    if img is None:
        image_layer.append(Element("image", {"source": ""}))  # pytmx needs the element
    elif img.get("source") and not (doc.path.parent / img.get("source", "")).is_file():
        looked = os.path.normpath(doc.path.parent / img.get("source", ""))
        doc.missing_image(place, f"image not found (looked for {looked})",
                          "put the image there, or pick it again in the layer's properties in Tiled")
