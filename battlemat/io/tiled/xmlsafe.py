"""Reading untrusted map files safely, and the size bounds that keep a small file from costing a lot.

Maps, tilesets and templates are files people download and share, so each one is parsed with
defusedxml (entity bombs and external entities are refused before anything else happens), and
nothing battlemat reads may grow without bound: the file, the declared map, the tiles cut from
tileset images, the inflated layer data and the objects read for terrain and tokens. Every limit is
in `battlemat.io.limits` with its reason, so they are judged together.

`read_document` is the one entry for every file of a map: it reads Tiled's XML formats (.tmx, .tsx,
.tx) and its JSON formats (.tmj, .tsj, .tj, .json), told apart by their first byte, not their name;
JSON becomes the same XML tree (`tiledjson`), so every later step and check is the same. While the
XML is parsed, elements are counted and their nesting measured without recursion (`_BoundedBuilder`):
a file of a million objects or of thousands of nested group layers is refused before its tree is
whole, with the bound it broke (MAX_MAP_OBJECTS, MAX_NESTING).
"""

from __future__ import annotations

import io
import re
import zlib
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

import defusedxml
import defusedxml.ElementTree as SafeET

from battlemat.io.errors import LoadError, Problem
from battlemat.io.limits import MAX_FILE_BYTES, MAX_MAP_OBJECTS, MAX_NESTING, MAX_XML_ELEMENTS
from battlemat.io.tiled.tiledjson import json_document

_BOM = b"\xef\xbb\xbf"
_SPACE = re.compile(rb"\s*")


def read_document(path: Path, file: str, what: str) -> Element:
    """The root element of a Tiled file (XML, or JSON converted to the same XML); every failure is a
    LoadError naming the file. `what` ("map", "tileset", "template") words the messages."""
    data = read_bytes(path, file, what)
    start = len(_BOM) if data.startswith(_BOM) else 0
    first = _SPACE.match(data, start)
    if first is not None and data[first.end() : first.end() + 1] in (b"{", b"["):
        return json_document(data[start:], file, what)
    return parse_xml(data, file, what)


def read_bytes(path: Path, file: str, what: str) -> bytes:
    """A file's bytes, refused when larger than MAX_FILE_BYTES (the size is checked before reading)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise LoadError.one(file, "", f"{what} file not found", "check the path") from None
    except OSError as exc:
        raise LoadError.one(file, "", f"cannot read the {what} file ({exc.strerror or exc})") from None
    if size > MAX_FILE_BYTES:
        raise LoadError.one(file, "", f"the file is {size // 2**20} MB, more than {MAX_FILE_BYTES // 2**20} MB",
                            "split the map, or use Base64 (zlib compressed) layer data")
    try:
        with path.open("rb") as fh:
            return fh.read(MAX_FILE_BYTES + 1)[: MAX_FILE_BYTES + 1]
    except OSError as exc:
        raise LoadError.one(file, "", f"cannot read the {what} file ({exc.strerror or exc})") from None


class _Refused(Exception):
    """Raised from inside the parser when a bound is broken; carries the problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


class _BoundedBuilder(TreeBuilder):
    """The standard tree builder, counting objects and measuring nesting as elements open, so a file
    that breaks a bound stops the parser there (no recursion, no whole tree)."""

    def __init__(self, file: str) -> None:
        super().__init__()
        self.file = file
        self.depth = 0
        self.objects = 0
        self.elements = 0
        self.parser: Any = None  # the expat parser, for the line of a refusal

    def _line(self) -> str:
        line = getattr(self.parser, "CurrentLineNumber", 0)
        return f"line {line}" if line else ""

    def start(self, tag: str, attrs: dict[str, str]) -> Element:
        self.depth += 1
        self.elements += 1
        if self.elements > MAX_XML_ELEMENTS:
            raise _Refused(_too_many_elements(self.file, f"more than {MAX_XML_ELEMENTS:,}"))
        if self.depth > MAX_NESTING:
            raise _Refused(Problem(self.file, self._line(),
                                   f"elements nest more than {MAX_NESTING} deep (<{tag}> here; a Tiled map nests "
                                   "group layers a few deep)", "flatten the group layers in Tiled"))
        if tag == "object":
            self.objects += 1
            if self.objects > MAX_MAP_OBJECTS:
                raise _Refused(_too_many_objects(self.file, f"more than {MAX_MAP_OBJECTS:,}"))
        return super().start(tag, attrs)

    def end(self, tag: str) -> Element:
        self.depth -= 1
        return super().end(tag)


def _too_many_objects(file: str, count: str) -> Problem:
    return Problem(file, "", f"the file holds {count} objects; battlemat reads at most {MAX_MAP_OBJECTS:,} "
                   "(each costs memory and time even in layers it does not use)",
                   "delete unused objects, or move them to another map")


def _too_many_elements(file: str, count: str) -> Problem:
    return Problem(file, "", f"the file holds {count} XML elements; battlemat reads at most {MAX_XML_ELEMENTS:,}",
                   "use CSV or Base64 layer data in Tiled (Map > Map Properties > Tile Layer Format), or split the map")


def parse_xml(data: bytes, file: str, what: str) -> Element:
    """Parse XML bytes with defusedxml, within MAX_XML_ELEMENTS, MAX_MAP_OBJECTS and MAX_NESTING."""
    plain = None  # without comments or CDATA, every "<" opens or closes an element (or the declaration)

    def is_plain() -> bool:
        nonlocal plain
        if plain is None:
            plain = b"<!--" not in data and b"<![CDATA[" not in data
        return plain

    marks = data.count(b"<")
    if marks > 2 * MAX_XML_ELEMENTS + 2 and is_plain():
        raise LoadError([_too_many_elements(file, f"at least {(marks - 2) // 2:,}")])
    # Every "<object" opens an object element or an object layer: counted at C speed, a map of a
    # million objects is refused before it is parsed at all.
    count = data.count(b"<object")
    if count > MAX_MAP_OBJECTS:
        count -= data.count(b"<objectgroup")
        if count > MAX_MAP_OBJECTS and is_plain():
            raise LoadError([_too_many_objects(file, f"{count:,}")])
    builder = _BoundedBuilder(file)
    parser = SafeET.DefusedXMLParser(target=builder)
    builder.parser = parser.parser
    try:
        parser.feed(data)
        root = parser.close()
    except _Refused as exc:
        raise LoadError([exc.problem]) from None
    except defusedxml.EntitiesForbidden:
        raise LoadError.one(file, "", "the XML declares entities, which can expand without bound (an XML bomb)",
                            "Tiled never writes entities: remove the <!DOCTYPE ...> block, or re-save the file "
                            "in Tiled") from None
    except defusedxml.DefusedXmlException as exc:
        raise LoadError.one(file, "", f"the XML refers to outside resources ({type(exc).__name__})",
                            "remove the <!DOCTYPE ...> block, or re-save the file in Tiled") from None
    except ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        message = str(exc).split(": line")[0]
        raise LoadError.one(file, f"line {line}, column {col}", f"not well-formed XML ({message})",
                            "fix the file at that place, or re-save it from Tiled") from None
    except LookupError as exc:  # the XML declaration names an encoding Python does not know
        raise LoadError.one(file, "line 1", f"the XML declaration names an unknown text encoding ({exc})",
                            'write encoding="UTF-8" in the first line, or re-save the file from Tiled') from None
    except (ValueError, UnicodeError) as exc:  # an encoding expat cannot read, or bytes not in it
        raise LoadError.one(file, "", f"the {what} file's text cannot be decoded ({exc})",
                            "save it as UTF-8 (Tiled does)") from None
    if not isinstance(root, Element):
        raise LoadError.one(file, "", f"the {what} file holds no XML element", "re-save it from Tiled")
    return root


def bounded_inflate(data: bytes, compression: str, limit: int) -> bytes | None:
    """Inflate at most `limit` + 1 bytes, so a small layer cannot expand into gigabytes (zlib, gzip
    and zstd, the compressions Tiled writes). None when the data inflates to more than `limit`."""
    if compression == "zstd":
        import zstandard  # noqa: PLC0415 - start-up time: zstandard (25 ms) only for a zstd-compressed layer

        parts: list[bytes] = []
        got = 0
        try:
            with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)) as reader:
                while got <= limit:
                    part = reader.read(limit + 1 - got)
                    if not part:
                        break
                    parts.append(part)
                    got += len(part)
        except zstandard.ZstdError as exc:
            raise ValueError(f"zstd: {exc}") from None
        out = b"".join(parts)
    else:
        d = zlib.decompressobj(31 if compression == "gzip" else 15)
        out = d.decompress(data, limit + 1)
    return out if len(out) <= limit else None
