"""Images of a map: their sizes from file headers, images embedded in the file, and the loader the
window's pytmx uses.

The board needs no pictures, but pytmx needs every tileset image's width and height (Tiled omits them
in some tilesets: they are read from the PNG, GIF, BMP or JPEG header), and the window needs the
pictures themselves. An image embedded in a tileset or a layer (`<image format="png"><data
encoding="base64">`) is decoded once, with a bound, and kept in `Doc.embedded` under a stand-in
source path (EMBEDDED): pytmx joins paths and calls its image loader as for a file, and `wrap_loader`
hands the loader the bytes instead. The wrapper also turns an image that cannot be read (missing, not
a picture) into a LoadError that names the image and the fix; a tile beyond a picture smaller than its
tileset says is drawn empty, as Tiled draws it (`check` notes the sizes).
"""

from __future__ import annotations

import base64
import binascii
import io
import os
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO
from xml.etree.ElementTree import Element

from battlemat.io.limits import MAX_EMBEDDED_IMAGE_BYTES
from battlemat.io.tiled.document import Doc
from battlemat.io.tiled.xmlsafe import bounded_inflate

EMBEDDED = "/battlemat-embedded-image-"  # absolute, so pytmx's os.path.join keeps it as it is


def image_size(source: Path | bytes) -> tuple[int, int] | None:
    """Width and height from a PNG, GIF, BMP or JPEG header (a file, or an embedded image's bytes)."""
    try:
        if isinstance(source, bytes):
            return _header_size(io.BytesIO(source))
        with source.open("rb") as fh:
            return _header_size(fh)
    except (OSError, struct.error):
        return None


def _header_size(fh: BinaryIO) -> tuple[int, int] | None:
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
    return None


def embed_images(doc: Doc, root: Element, place: str, file: str) -> None:
    """Give every image embedded under `root` a stand-in source and keep its bytes in `doc.embedded`;
    its width and height are read from the bytes when not written."""
    for image in root.iter("image"):
        data = image.find("data")
        if image.get("source") or data is None:
            continue
        text = "".join((data.text or "").split())
        if data.get("encoding", "base64") != "base64":
            raise doc.fail(place, f"an embedded image has the encoding {data.get('encoding')!r}; Tiled writes base64",
                           "pick the image again in Tiled", file)
        if len(text) * 3 // 4 > MAX_EMBEDDED_IMAGE_BYTES:
            raise doc.fail(place, f"an embedded image is larger than {MAX_EMBEDDED_IMAGE_BYTES // 2**20} MB",
                           "save the image as a file beside the map and use it instead", file)
        try:
            raw = base64.b64decode(text, validate=True)
            compression = data.get("compression")
            if compression:
                inflated = bounded_inflate(raw, compression, MAX_EMBEDDED_IMAGE_BYTES)
                if inflated is None:
                    raise ValueError(f"it inflates to more than {MAX_EMBEDDED_IMAGE_BYTES // 2**20} MB")
                raw = inflated
        except (binascii.Error, ValueError, EOFError) as exc:
            raise doc.fail(place, f"an embedded image cannot be decoded ({exc})", "pick the image again in Tiled",
                           file) from None
        key = f"{EMBEDDED}{len(doc.embedded)}.{image.get('format') or 'png'}"
        doc.embedded[key] = raw
        image.remove(data)
        image.set("source", key)
        if image.get("width") is None or image.get("height") is None:
            size = image_size(raw)
            if size is not None:
                image.set("width", str(size[0]))
                image.set("height", str(size[1]))


def wrap_loader(doc: Doc, loader: Callable[..., Any]) -> Callable[..., Any]:
    """pytmx's image loader, given embedded images' bytes for their stand-in paths, and raising a
    LoadError naming the image for a picture that cannot be read or cut into its tiles."""

    def named(filename: str) -> str:
        return "an image embedded in the file" if filename in doc.embedded else f"the image {filename}"

    def load(filename: str, colorkey: Any, **kwargs: Any) -> Callable[..., Any]:
        data = doc.embedded.get(filename)
        source: Any = io.BytesIO(data) if data is not None else filename
        tileset = kwargs.get("tileset")  # pytmx names the tileset of a tileset's image
        place = f"tileset {getattr(tileset, 'name', '')!r}" if tileset is not None else ""
        try:
            cut = loader(source, colorkey, **kwargs)
        except FileNotFoundError:
            raise doc.fail(place, f"{named(filename)} is not found", "put the image there, or pick it again in "
                           "Tiled") from None
        except Exception as exc:  # noqa: BLE001 - pygame raises its own error type for a bad picture
            raise doc.fail(place, f"{named(filename)} cannot be read as a picture ({exc})",
                           "save it again as PNG, or pick another image in Tiled") from None

        def tile(rect: Any = None, flags: Any = None) -> Any:
            try:
                return cut(rect, flags)
            except ValueError:  # a tile off a picture smaller than its tileset says: drawn empty, as in Tiled
                return None

        return tile

    return load

