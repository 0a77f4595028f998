"""The picture inside a Universal VTT file: base64 to bytes, its header checked, decoded on demand.

The `image` field is base64 (sometimes as a `data:image/png;base64,` URL) of a PNG or a WebP.
Nothing is decoded before its size is known: it is read here from the header's bytes (a PNG's IHDR
chunk, a WebP's first chunk), before Pillow sees the picture at all. A picture claiming more than
MAX_UVTT_PIXELS is refused then (no decode bomb), and so is one whose size does not fit the map's
squares (map_size x pixels_per_grid, give or take the pixel an exporter rounds).
"""

from __future__ import annotations

import base64
import binascii
import io
import struct
import warnings
from dataclasses import dataclass

from PIL import Image

from battlemat.io.errors import Problem
from battlemat.io.limits import MAX_UVTT_PIXELS

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
FORMATS = {"PNG": "PNG", "WEBP": "WebP"}  # what battlemat reads, by Pillow's format name
RE_EXPORT = "export the map again as Universal VTT (PNG or WebP picture)"


@dataclass(frozen=True)
class Picture:
    """An embedded picture whose header was read: its bytes, Pillow format name and size."""

    data: bytes
    format: str  # "PNG" or "WEBP"
    width: int
    height: int

    @property
    def words(self) -> str:
        return f"{self.width}x{self.height} px {FORMATS[self.format]}"

    def decode(self) -> Image.Image:
        """The picture as RGBA pixels. Raises ValueError saying why it cannot be decoded (the
        header was read already, so its size is within MAX_UVTT_PIXELS)."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                img = Image.open(io.BytesIO(self.data), formats=[self.format])
                img.load()
                return img.convert("RGBA")
        except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombWarning) as exc:
            raise ValueError(f"the {FORMATS[self.format]} picture cannot be decoded ({exc})") from None


def image_bytes(text: str) -> bytes:
    """The bytes of a base64 `image` (a data: URL prefix and line breaks allowed). Raises ValueError."""
    if text.startswith("data:"):
        head, sep, text = text.partition(",")
        if not sep or ";base64" not in head:
            raise ValueError("a data: URL that is not base64")
    try:
        raw = text.encode("ascii")
    except UnicodeEncodeError:
        raise ValueError("it holds characters that are not base64") from None
    try:
        return base64.b64decode(raw, validate=True)
    except binascii.Error:
        pass
    try:  # some writers wrap the base64 in lines
        return base64.b64decode(raw.translate(None, b" \t\r\n"), validate=True)
    except binascii.Error as exc:
        raise ValueError(f"it is not valid base64 ({exc})") from None


def read_header(data: bytes, file: str, place: str) -> tuple[Picture | None, list[Problem]]:
    """The picture's format and size from its header, without decoding its pixels."""
    if data.startswith(PNG_MAGIC):
        if len(data) < 24 or data[12:16] != b"IHDR":
            return None, [Problem(file, place, "the PNG picture has no header (IHDR)", RE_EXPORT)]
        width, height = struct.unpack(">II", data[16:24])
        fmt = "PNG"
    elif data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        size = webp_size(data)
        if size is None:
            return None, [Problem(file, place, "the WebP picture's header cannot be read", RE_EXPORT)]
        width, height = size
        fmt = "WEBP"
    else:
        return None, [Problem(file, place, f"the picture is {_kind(data)}, not PNG or WebP",
                              "battlemat reads PNG and WebP pictures: " + RE_EXPORT)]
    if width < 1 or height < 1:
        return None, [Problem(file, place, f"the picture claims {width}x{height} pixels", RE_EXPORT)]
    if width * height > MAX_UVTT_PIXELS:
        return None, [_too_many(file, place, FORMATS[fmt], f"{width}x{height}")]
    return Picture(data, fmt, width, height), []


def webp_size(data: bytes) -> tuple[int, int] | None:
    """A WebP's canvas size from its first chunk (VP8X extended, VP8L lossless or VP8 lossy), as
    libwebp reads it; None when the header is cut short or is none of these."""
    kind, body = data[12:16], data[20:]
    if kind == b"VP8X" and len(body) >= 10:
        return 1 + int.from_bytes(body[4:7], "little"), 1 + int.from_bytes(body[7:10], "little")
    if kind == b"VP8L" and len(body) >= 5 and body[0] == 0x2F:
        bits = int.from_bytes(body[1:5], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if kind == b"VP8 " and len(body) >= 10 and body[3:6] == b"\x9d\x01\x2a":
        return (int.from_bytes(body[6:8], "little") & 0x3FFF), (int.from_bytes(body[8:10], "little") & 0x3FFF)
    return None


def _too_many(file: str, place: str, fmt: str, size: str) -> Problem:
    return Problem(file, place, f"the {fmt} picture claims {size} pixels, more than the "
                   f"{MAX_UVTT_PIXELS // 2**20} megapixels battlemat decodes",
                   "export it with fewer pixels per grid square (Dungeondraft: Export > Grid PPI)")


def _kind(data: bytes) -> str:
    if data.startswith(b"\xff\xd8\xff"):
        return "a JPEG"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "a GIF"
    if not data:
        return "empty"
    return "not a picture battlemat knows"
