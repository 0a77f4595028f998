"""The checks on a map's structure before pytmx reads it: what battlemat refuses, and how to fix it.

pytmx fails on many maps Tiled writes without saying why (isometric orientations, zstd layers, the
old XML layer format), and trusts the sizes and gids a file declares. These checks run on the
prepared tree first, so each refusal is a LoadError naming the file, the place and the fix in Tiled,
which is also what `battlemat check` lists for the map: the map header (orientation, size against
MAX_CELLS, hex stagger), every tile layer's data (encoding, compression, bounded inflation, tile
count, gids within 32 bits) and image layers (a missing image is only reported, since the board
needs no pictures). Checked layer data is written back as plain Base64, so pytmx decodes exactly
what was checked. `lint_map` (the package front) lists these together with what the terrain reader
finds.
"""

from __future__ import annotations

import base64
import gzip
import os
import warnings
import zlib
from xml.etree.ElementTree import Element

import numpy as np

from battlemat.io.tiled.document import Doc, int_attr
from battlemat.io.tiled.xmlsafe import bounded_inflate

ORIENTATIONS = ("orthogonal", "hexagonal", "isometric", "staggered")


def check_map_header(doc: Doc, max_cells: int) -> None:
    """A finite orthogonal or hexagonal map of at least one square (an infinite one was made finite by
    `chunks` before), its declared size within `max_cells` before any layer data is decoded."""
    root = doc.root
    check_orientation(doc)
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
    if root.get("orientation") == "hexagonal":
        int_attr(root, "hexsidelength", doc, "map", 0)


def check_orientation(doc: Doc) -> None:
    """Orthogonal, hexagonal or staggered (with its stagger) or isometric: every grid Tiled draws
    (isometric and staggered maps play on the square grid they encode, `projection`)."""
    root = doc.root
    orientation = root.get("orientation", "orthogonal")
    if orientation not in ORIENTATIONS:
        what = {"isometric": "isometric", "staggered": "staggered (isometric)"}.get(orientation, repr(orientation))
        raise doc.fail("map", f"{what} maps are not supported; battlemat plays orthogonal (square), hexagonal, "
                       "isometric and staggered maps",
                       "in Tiled, Map > Map Properties > Orientation: choose one of those "
                       "(or make a new map with that orientation)")
    if orientation in ("hexagonal", "staggered") and (root.get("staggeraxis") not in ("x", "y")
                                                      or root.get("staggerindex") not in ("odd", "even")):
        raise doc.fail("map", f"a {orientation} map needs staggeraxis x or y and staggerindex odd or even",
                       "set Stagger Axis and Stagger Index in Map > Map Properties")


def check_layers(doc: Doc) -> None:
    """Every tile layer is the map's size and holds one valid gid per square; its data is rewritten as
    plain Base64 (the old XML format, CSV and every compression alike), so pytmx decodes what was
    checked and never inflates anything itself. Every image layer's image exists."""
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
        raise doc.fail(place, "the layer is stored in chunks, as in an infinite map, but the map is not infinite",
                       "re-save the map from Tiled")
    lw = int_attr(layer, "width", doc, place, width)
    lh = int_attr(layer, "height", doc, place, height)
    if (lw, lh) != (width, height):
        raise doc.fail(place, f"the layer is {lw}x{lh} but the map is {width}x{height}",
                       "re-save the map from Tiled (Map > Resize Map keeps layers the map's size)")
    layer.set("width", str(width))
    layer.set("height", str(height))
    gids = layer_gids(doc, data, data, place, want, width)
    if gids.size != want:
        raise doc.fail(place, f"the layer holds {gids.size} tiles, expected {width}x{height} = {want}",
                       "re-save the map from Tiled")
    set_plain_data(data, gids)


def set_plain_data(data: Element, gids: np.ndarray) -> None:
    """Write checked gids into a <data> as uncompressed Base64, the form pytmx decodes fastest."""
    for child in list(data):
        data.remove(child)
    data.attrib.pop("compression", None)
    data.set("encoding", "base64")
    data.text = base64.b64encode(gids.astype("<u4").tobytes()).decode("ascii")


def layer_gids(doc: Doc, data: Element, holder: Element, place: str, want: int, width: int) -> np.ndarray:
    """The gids a tile layer's <data> holds (or one <chunk> of it: `holder`), as uint32, in any format
    Tiled writes: the old XML <tile> elements, CSV, or Base64 uncompressed, zlib, gzip or zstd.
    Compressed data is inflated to at most the 4 bytes of each of the `want` squares (bounded_inflate),
    so a small layer cannot expand into gigabytes; every gid must fit Tiled's 32 bits."""
    encoding = data.get("encoding")
    compression = data.get("compression") or ""
    if encoding is None:
        tiles = holder.findall("tile")
        if len(tiles) > want:
            raise doc.fail(place, f"the layer holds {len(tiles)} tiles, expected {want}", "re-save the map from Tiled")
        return _whole_gids(doc, [t.get("gid", "0") for t in tiles], place, width)
    text = (holder.text or "").strip()
    if encoding == "csv":
        if compression:
            raise doc.fail(place, "CSV layer data cannot be compressed", "re-save the map from Tiled")
        count = text.count(",") + 1 if text else 0  # counted before splitting: the text may be huge
        if count > want:
            raise doc.fail(place, f"the layer holds {count} tiles, expected {want}", "re-save the map from Tiled")
        fast = _csv_gids(text, count)
        return fast if fast is not None else _whole_gids(doc, text.split(",") if text else [], place, width)
    if encoding != "base64":
        raise doc.fail(place, f"unknown layer encoding {encoding!r}",
                       "in Tiled, Map > Map Properties > Tile Layer Format: choose CSV or Base64")
    if compression not in ("", "zlib", "gzip", "zstd"):
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
    if len(raw) % 4:
        raise doc.fail(place, f"the layer data is {len(raw)} bytes, not 4 per tile", "re-save the map from Tiled")
    return np.frombuffer(raw, dtype="<u4").astype(np.uint32)


def _csv_gids(text: str, count: int) -> np.ndarray | None:
    """CSV gids parsed by numpy (15 times faster than int() per token), or None when anything is
    unusual, so that `_whole_gids` finds the bad token and names it."""
    if not text:
        return np.zeros(0, np.uint32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = np.fromstring(text, dtype=np.int64, sep=",")
        except ValueError:
            return None
    if out.size != count or (out.size and (int(out.min()) < 0 or int(out.max()) >= 2**32)):
        return None
    return out.astype(np.uint32)


def _whole_gids(doc: Doc, tokens: list[str], place: str, width: int) -> np.ndarray:
    """Gids written as text (CSV, or the old XML format), each a whole number from 0 to 2^32 - 1."""
    try:
        values = [int(t) for t in tokens]
    except ValueError:
        values = []
        for t in tokens:
            try:
                values.append(int(t))
            except ValueError:
                i = len(values)
                raise doc.fail(f"{place} square ({i % max(1, width)}, {i // max(1, width)})",
                               f"{t.strip()!r} is not a tile number", "re-save the map from Tiled") from None
    # Checked as Python ints: a number of 2^63 or more does not fit numpy's int64 (an OverflowError).
    wrong = next((k for k, v in enumerate(values) if not 0 <= v < 2**32), None)
    if wrong is not None:
        i, v = wrong, values[wrong]
        shown = str(v) if abs(v) < 10**30 else f"a number of {len(str(abs(v)))} digits"
        raise doc.fail(f"{place} square ({i % max(1, width)}, {i // max(1, width)})",
                       f"{shown} is not a tile number: Tiled writes 32 bits, the tile's number with its flip "
                       "flags (0 to 4294967295)", "re-save the map from Tiled")
    return np.array(values, dtype=np.uint32)


def _check_image_layer(doc: Doc, image_layer: Element) -> None:
    place = f"image layer {image_layer.get('name', '')!r}"
    img = image_layer.find("image")
    if img is None:
        image_layer.append(Element("image", {"source": ""}))  # pytmx needs the element
    elif img.get("source") and not doc.image_exists(img.get("source", "")):
        looked = os.path.normpath(doc.path.parent / img.get("source", ""))
        doc.missing_image(place, f"image not found (looked for {looked})",
                          "put the image there, or pick it again in the layer's properties in Tiled")
