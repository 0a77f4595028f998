"""Tiled maps (.tmx, .tmj) to a `Board`, read headless and safely (DESIGN: files people edit).

Every map read in battlemat comes through here: the headless commands (`load_map`), `check`
(`lint_map`) and the pictures of the window and the report (`read_tiled`). So all of them accept and
refuse the same maps with the same message. How a map is read, and why each step is there (the
module that does it in brackets):
1. The file is parsed with defusedxml, so entity bombs and external entities are refused before
   anything else happens; while it is parsed, objects are counted and nesting is measured without
   recursion, so a million objects or thousands of nested groups are refused before the tree is
   whole (`xmlsafe`; every bound is in `battlemat.io.limits` with its reason). A JSON file (.tmj,
   .tsj, .tj) becomes the same XML tree, so every later step applies to it unchanged (`tiledjson`).
2. An infinite map becomes the finite map of its used chunks, objects moved with it (`chunks`).
   The declared size is checked against MAX_CELLS before any layer data is decoded (a 332 KB zlib
   map declaring 8000x8000 costs pytmx 12 s and 1.3 GB), and every layer's data is decoded here,
   with bounded inflation (zlib, gzip, zstd), its gids checked and written back plain (`checks`).
3. What pytmx cannot read gets a LoadError that says how to fix it in Tiled: isometric
   orientations, missing tilesets, images and templates (`checks`, `adapter`), and every value pytmx
   would fail to convert, named by file and place (`attributes`). External tilesets and object
   templates are read here (again safely) and embedded in the tree pytmx receives, so pytmx never
   opens a file itself; images embedded in the files are kept as bytes (`adapter`, `images`).
4. pytmx decodes the layers and maps the gids (`TiledMap.parse_xml` on the prepared tree), with its
   default image loader: no graphics library. pytmx imports pygame when it can; the adapter keeps
   it out, so the headless layers stay headless (STYLE 1, 2) (`adapter`).
5. Terrain comes from tile properties and tile classes (presets), combined over all tile layers,
   then from the areas of object layers named `terrain`. Tokens come from object layers named
   `tokens`. Terrain properties are read from the XML, where their declared types are visible
   (`terrain`, with `shapes` for the squares an object covers). Walls drawn as lines (polylines on
   collision layers or of class `wall`) and objects of class `door` are thin walls and doors between
   squares, placed in board units (`walls`). Where battlemat's own terrain says
   nothing, the conventions maps by others use (collision layers, `collides`-style properties, tile
   collision shapes, void) are read (`conventions`), then the game master's mapping, beside the map
   as NAME.terrain.toml or an encounter's [terrain] table (`mapping`); `survey_map` says which.

`document` holds the tree while it is prepared, shared by the steps. This front keeps the public API
(`load_map`, `load_board`, `read_tiled`, `check_pictures`, `lint_map`: the last is what
`battlemat check` reports about a map) and every name other packages import from `battlemat.io.tiled`.

pytmx regroups layers by kind (pytmx issue #106); `MapInfo.layers` keeps the document order, which
is the drawing order, with each layer's index in `TiledMap.layers`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from battlemat.core.board import Board
from battlemat.core.rules import Rules
from battlemat.io.errors import LoadError, Problem
from battlemat.io.limits import MAX_CELLS, MAX_FILE_BYTES, MAX_OBJECTS, MAX_TILES
from battlemat.io.tiled.adapter import (
    GID_MASK,
    HEX_120,
    LayerInfo,
    MapInfo,
    gid_variants,
    map_info,
    parse_pytmx,
    prepare,
    pytmx,
)
from battlemat.io.tiled.conventions import OWN_TERRAIN, Understood
from battlemat.io.tiled.document import Doc
from battlemat.io.tiled.images import wrap_loader
from battlemat.io.tiled.mapping import load_mapping_file, mapping_path, read_mapping
from battlemat.io.tiled.projection import terrain_reader
from battlemat.io.tiled.terrain import IGNORED_NAMES, PRESETS, TERRAIN_NAMES, TerrainReader
from battlemat.io.tiled.walls import play_board

__all__ = [
    "GID_MASK", "HEX_120", "IGNORED_NAMES", "MAX_CELLS", "MAX_FILE_BYTES", "MAX_OBJECTS", "MAX_TILES", "OWN_TERRAIN",
    "PRESETS",
    "TERRAIN_NAMES", "LayerInfo", "MapInfo", "Understood", "check_pictures", "gid_variants", "lint_map", "load_board",
    "load_map", "mapping_path", "pytmx", "read_tiled", "survey_map",
]

# An encounter's [terrain] table: (its parsed data, the encounter file), or None.
Terrain = tuple[Any, str] | None


def _reader(doc: Doc, tmx: Any, terrain: Terrain, rules: Rules | None = None) -> TerrainReader:
    """The terrain reader of a map, with the game master's mapping: the encounter's [terrain] table
    when given, else NAME.terrain.toml beside the map when it exists. Raises LoadError for a bad one."""
    reader = terrain_reader(doc, tmx)  # objects read on the geometry the map's orientation places them on
    reader.rules = rules
    if terrain is not None:
        reader.mapping = read_mapping(terrain[0], terrain[1], "terrain.", PRESETS)
    elif mapping_path(doc.path).is_file():
        reader.mapping = load_mapping_file(mapping_path(doc.path), PRESETS)
    return reader


def load_map(path: str | Path, *, max_cells: int = MAX_CELLS, require_images: bool = False,
             terrain: Terrain = None, rules: Rules | None = None) -> tuple[Board, MapInfo]:
    """Read a .tmx into a Board and its MapInfo. Raises LoadError listing every problem found.
    Missing images are tolerated unless `require_images` (the board needs no pictures; Tiled itself
    opens such maps with placeholders); `battlemat check` and `read_tiled` report them."""
    doc = prepare(Path(path), max_cells, require_images)
    tmx = parse_pytmx(doc, None)
    reader = _reader(doc, tmx, terrain, rules)
    board = play_board(reader, doc)
    if reader.errors:
        raise LoadError(reader.errors)
    return board, map_info(doc, tmx)


def load_board(path: str | Path, *, max_cells: int = MAX_CELLS) -> Board:
    return load_map(path, max_cells=max_cells)[0]


def read_tiled(path: str | Path, image_loader: Callable[..., Any] | None = None, *, max_cells: int = MAX_CELLS) -> Any:
    """The pytmx TiledMap of a map, prepared as `load_map` does (safe XML or JSON, bounded size,
    tilesets and templates embedded, infinite maps made finite): the one door for every reader of
    pictures, the window (which passes pytmx.util_pygame.pygame_image_loader) and the report's
    renderer (pytmx's default loader: (file, rect, flags) tuples). Every image must exist here (a
    missing one is a LoadError), since they are drawn; embedded images reach the loader as bytes, and
    a picture that cannot be read is a LoadError naming it."""
    doc = prepare(Path(path), max_cells, require_images=True)
    loader = wrap_loader(doc, image_loader or pytmx.pytmx.default_image_loader)
    return parse_pytmx(doc, loader, load_all=image_loader is not None)


def check_pictures(path: str | Path, *, max_cells: int = MAX_CELLS) -> None:
    """Raise the LoadError `read_tiled` raises for a missing image, without pytmx or a graphics
    library: the window calls it before it opens, so a map it cannot draw gives `check`'s message
    and no window flashes up."""
    prepare(Path(path), max_cells, require_images=True)


def lint_map(path: str | Path, *, max_cells: int = MAX_CELLS,
             terrain: Terrain = None) -> tuple[Board | None, list[Problem]]:
    """Every problem of a map, for `battlemat check`: what load_map refuses plus what it tolerates
    (unknown or misspelled property names, properties of the wrong Tiled type, nameless tokens)."""
    board, problems, _ = survey_map(path, max_cells=max_cells, terrain=terrain)
    return board, problems


def survey_map(path: str | Path, *, max_cells: int = MAX_CELLS, terrain: Terrain = None,
               rules: Rules | None = None) -> tuple[Board | None, list[Problem], list[Understood]]:
    """`lint_map` and what the board's terrain came from (DESIGN: `check` says which it used):
    battlemat's own terrain, each convention, the game master's mapping, with its squares."""
    try:
        doc = prepare(Path(path), max_cells)
        tmx = parse_pytmx(doc, None)
        reader = _reader(doc, tmx, terrain, rules)
    except LoadError as exc:
        return None, exc.problems, []
    board = play_board(reader, doc)
    return (None if reader.errors else board), doc.lint + reader.errors + reader.lint, reader.understood

