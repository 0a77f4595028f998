"""The map's XML tree while it is prepared for pytmx, and the problems found on the way.

The checks, the pytmx adapter and the terrain reader all work on one `Doc`: the map's root element
(tilesets and templates are embedded into it), the tilesets found in it, and the tolerated problems
that only `battlemat check` reports. It is a module of its own so that each of them can use it
without importing the others.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element

from battlemat.io.errors import LoadError, Problem


@dataclass
class Tileset:
    firstgid: int
    name: str
    file: str  # where its tiles are written: the .tsx, or the map for an embedded tileset
    element: Element  # the <tileset> in the prepared tree


@dataclass
class Doc:
    path: Path
    file: str
    root: Element
    tilesets: list[Tileset] = field(default_factory=list)
    require_images: bool = False
    lint: list[Problem] = field(default_factory=list)  # tolerated while loading, reported by check
    # Images embedded in the files (<image><data>): their bytes by the stand-in source path the tree
    # gives them (`images.EMBEDDED`), so pytmx and the window's image loader treat them as files.
    embedded: dict[str, bytes] = field(default_factory=dict)
    # Tiles' collision shapes (Tiled's collision editor) by (tileset firstgid, tile id): kept out of
    # the tree pytmx reads (it would list each as a nameless layer) for the conventions reader.
    tile_shapes: dict[tuple[int, int], Element] = field(default_factory=dict)

    def fail(self, place: str, message: str, fix: str = "", file: str | None = None) -> LoadError:
        return LoadError.one(file or self.file, place, message, fix)

    def image_exists(self, source: str, base: Path | None = None) -> bool:
        """Whether an image source (relative to `base`, the map's folder by default) can be read."""
        return source in self.embedded or (base or self.path.parent).joinpath(source).is_file()

    def missing_image(self, place: str, message: str, fix: str, file: str | None = None) -> None:
        """The board needs no pictures, so a missing image stops only the window (and `check`)."""
        problem = Problem(file or self.file, place, message, fix)
        if self.require_images:
            raise LoadError([problem])
        self.lint.append(problem)


def int_attr(el: Element, name: str, doc: Doc, place: str, default: int | None = None,
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

