"""Reading untrusted XML safely, and the size bounds that keep a small file from costing a lot.

Maps, tilesets and templates are files people download and share, so each one is parsed with
defusedxml (entity bombs and external entities are refused before anything else happens), and
nothing battlemat reads may grow without bound: the file, the declared map, the tiles cut from
tileset images, the inflated layer data and the objects read for terrain and tokens. Every limit is
in `battlemat.io.limits` with its reason, so they are judged together.
"""

from __future__ import annotations

import zlib
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree as SafeET

from battlemat.io.errors import LoadError
from battlemat.io.limits import MAX_FILE_BYTES


def read_xml(path: Path, file: str, what: str) -> Element:
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


def bounded_inflate(data: bytes, compression: str, limit: int) -> bytes | None:
    """Inflate at most `limit` + 1 bytes, so a small layer cannot expand into gigabytes."""
    wbits = 31 if compression == "gzip" else 15
    d = zlib.decompressobj(wbits)
    out = d.decompress(data, limit + 1)
    return out if len(out) <= limit else None
