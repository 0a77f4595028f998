"""Maps made by others (Tiled's examples, pytmx's test maps): each loads into a Board or fails with a
LoadError that says why, never another exception. Read in place from ../shared/realmaps (never copied
into the project); skipped when that folder is absent.

Expected refusals, each for a stated reason: isometric and staggered maps (not battlemat grids) and a
map whose tileset file is missing (its terrain is unknowable; Tiled opens it with an empty
placeholder tileset). Maps whose images are missing load (the board needs no pictures) and `check`
lists the missing images. Where the `tiled` CLI is installed, every orthogonal or hexagonal map it
opens whose tilesets exist must load. Maps in Tiled's JSON format load too, and the window draws
every map `check` accepts (a missing image: `check`'s own message).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from battlemat.core.board import OUTSIDE, Board
from battlemat.io.errors import LoadError
from battlemat.io.tiled import lint_map, load_map

REALMAPS = Path(__file__).resolve().parents[2] / "shared" / "realmaps"
MAPS = sorted(REALMAPS.rglob("*.tmx")) if REALMAPS.is_dir() else []


def _is_json_map(path: Path) -> bool:
    try:
        doc = json.loads(path.read_text())
    except (OSError, UnicodeError, ValueError):
        return False
    return isinstance(doc, dict) and doc.get("type", "map") == "map" and "layers" in doc


JSON_MAPS = sorted(p for p in REALMAPS.rglob("*.*") if p.suffix in (".json", ".tmj") and _is_json_map(p)) \
    if REALMAPS.is_dir() else []
pytestmark = pytest.mark.skipif(not MAPS, reason=f"no Tiled maps in {REALMAPS}")

# Relative path -> words the LoadError must contain.
REFUSED = {
    "tiled/tests/errors/tileset_not_found.tmx": "tileset file not found",
}
MISSING_IMAGES = {
    "tiled/tests/errors/tileset_image_not_found_in_map.tmx": "tileset image not found",  # isometric (issue 26)
    "tiled/tests/errors/tile_image_not_found_in_tileset.tmx": "tile image not found",
    "tiled/tests/errors/tileset_image_not_found_in_tileset.tmx": "tileset image not found",
}


def rel(path: Path) -> str:
    return path.relative_to(REALMAPS).as_posix()


@pytest.mark.parametrize("path", MAPS, ids=rel)
def test_real_map_loads_or_is_refused_clearly(path: Path) -> None:
    name = rel(path)
    if name in REFUSED:
        with pytest.raises(LoadError) as exc:
            load_map(path)
        assert REFUSED[name] in str(exc.value) and "Fix:" in str(exc.value)
        return
    board, info = load_map(path)
    assert isinstance(board, Board)
    if board.projection == "staggered":  # the isometric squares of its cells, in their box (issue 26)
        assert int((board.feature != board.features.index(OUTSIDE)).sum()) == info.width * info.height
    else:
        assert (board.width, board.height) == (info.width, info.height)
    assert board.blocked.shape == (board.height, board.width)
    assert [layer.name for layer in info.layers if layer.kind == "tile"] == \
        [el.get("name") for el in ET.parse(path).getroot().iter("layer")]


@pytest.mark.parametrize("path", MAPS, ids=rel)
def test_check_reports_real_maps_without_crashing(path: Path) -> None:
    board, problems = lint_map(path)
    name = rel(path)
    if name in REFUSED:
        assert board is None and any(REFUSED[name] in p.message for p in problems)
    elif name in MISSING_IMAGES:
        assert board is not None and any(MISSING_IMAGES[name] in p.message for p in problems)
    else:
        assert board is not None
    assert not any("could not" in p.message for p in problems)


@pytest.mark.parametrize("path", JSON_MAPS, ids=rel)
def test_real_json_maps_load_with_their_layers_in_order(path: Path) -> None:
    board, info = load_map(path)
    assert (board.width, board.height) == (info.width, info.height)

    def names(layers: list[dict]) -> list[str]:
        out = []
        for layer in layers:
            out.append(layer.get("name", ""))
            out += names(layer.get("layers", []))
        return out

    assert [layer.name for layer in info.layers] == names(json.loads(path.read_text())["layers"])
    assert lint_map(path)[0] is not None


@pytest.mark.ui
@pytest.mark.parametrize("path", MAPS + JSON_MAPS, ids=rel)
def test_the_window_draws_every_real_map_check_accepts_and_refuses_the_rest_with_checks_message(path: Path) -> None:
    """One door: the window reads maps as `check` does, so it draws each map `check` accepts, and a
    map with a missing image gives the very message `check` lists (never an exception of its own)."""
    pygame = pytest.importorskip("pygame")
    from battlemat.ui.layout import Layout
    from battlemat.ui.renderer import load_tmx_ops

    board, problems = lint_map(path)
    if board is None:
        return  # refused headless already (isometric, a missing tileset): the window never sees it
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    try:
        if rel(path) in MISSING_IMAGES:
            with pytest.raises(LoadError) as exc:
                load_tmx_ops(path, Layout(board))
            assert str(exc.value) in [str(p) for p in problems]
        else:
            load_tmx_ops(path, Layout(board))
    finally:
        pygame.display.quit()


def _tiled_opens(path: Path, out: Path) -> bool:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(["tiled", "--export-map", "json", str(path), str(out)], env=env, capture_output=True,
                          timeout=120, check=False)
    return proc.returncode == 0 and out.is_file()


def _tilesets_exist(path: Path) -> bool:
    root = ET.parse(path).getroot()
    return all((path.parent / ts.get("source", "")).is_file() for ts in root.findall("tileset") if ts.get("source"))


@pytest.mark.skipif(shutil.which("tiled") is None, reason="the tiled CLI (Debian package tiled) is absent")
def test_every_square_or_hex_map_tiled_opens_loads(tmp_path: Path) -> None:
    loaded = refused = 0
    for i, path in enumerate(MAPS):
        orientation = ET.parse(path).getroot().get("orientation", "orthogonal")
        if orientation not in ("orthogonal", "hexagonal") or not _tilesets_exist(path):
            refused += 1
            continue
        assert _tiled_opens(path, tmp_path / f"{i}.json"), f"Tiled cannot open {rel(path)}"
        load_map(path)  # raises if we cannot
        loaded += 1
    assert loaded >= 20 and loaded + refused == len(MAPS)


# -- walls drawn as lines (issue 29 item 3) ------------------------------------------------------------
# The real maps that hold polylines, and the object layers they are on: none is a collision layer
# (nor of class wall), so issue 26 read no squares from them and issue 29 reads no walls: their boards
# are unchanged, and no real map has walls or doors.
POLYLINE_LAYERS = {
    "pytmx/apps/data/acid0.tmx": {"Object Layer 1"},
    "pytmx/apps/data/formosa-base64.tmx": {"Object Layer 1"},
    "pytmx/apps/data/formosa.json": {"Object Layer 1"},
    "pytmx/tests/resources/test01.tmx": {"Object Layer 1"},
    "tiled/examples/orthogonal-outside.tmx": {"Objects"},
}


def _polyline_layers(path: Path) -> set[str]:
    if path.suffix == ".json":
        doc = json.loads(path.read_text())
        return {layer.get("name", "") for layer in doc["layers"]
                if any("polyline" in o for o in layer.get("objects", []))}
    return {g.get("name", "") for g in ET.parse(path).getroot().iter("objectgroup")
            if g.find("object/polyline") is not None}


def test_no_real_map_draws_walls_or_doors_and_where_their_lines_are() -> None:
    """Walls (M1) are read from lines on collision layers: the real maps' lines are paths and
    patrol routes on plain object layers, so every real map loads without walls or doors."""
    found = {rel(p): _polyline_layers(p) for p in MAPS + JSON_MAPS}
    assert {k: v for k, v in found.items() if v} == POLYLINE_LAYERS
    for path in MAPS + JSON_MAPS:
        board, _ = lint_map(path)
        if board is not None:
            assert (board.walls, board.doors) == ((), ()), rel(path)


def test_a_real_maps_lines_on_a_layer_renamed_walls_are_walls_m1_r4(tmp_path: Path) -> None:
    """Tiled's orthogonal-outside.tmx with its layer 'Objects' renamed 'Walls' in a temporary copy:
    its two patrol polylines (4 segments each) become 8 wall segments in squares (16-pixel tiles),
    and mark no square of their own (issue 26 blocked every square they crossed); squares that were
    next to each other across one are not any more (M1, M6) and cannot see across it (R4)."""
    from battlemat.core import geometry
    from battlemat.core.walls import Wall

    src = REALMAPS / "tiled" / "examples" / "orthogonal-outside.tmx"
    text = src.read_text().replace('name="Objects"', 'name="Walls"').replace(
        'source="buch-outdoor.png"', f'source="{src.parent / "buch-outdoor.png"}"')
    copy = tmp_path / "walls.tmx"
    copy.write_text(text)
    no_lines = tmp_path / "no_lines.tmx"
    root = ET.fromstring(text)
    for group in root.iter("objectgroup"):
        for obj in [o for o in group.findall("object") if o.find("polyline") is not None]:
            group.remove(obj)
    no_lines.write_bytes(ET.tostring(root))
    original, walled, squares_only = load_map(src)[0], load_map(copy)[0], load_map(no_lines)[0]
    assert original.walls == () and len(walled.walls) == 8 and walled.doors == ()
    assert walled.walls[4] == Wall(277 / 16, 18 / 16, 352 / 16, 96 / 16)  # guard 2's first leg, (0,0)-(75,78)
    assert (walled.blocked == squares_only.blocked).all()  # the areas block squares; the lines none
    a, b = (19, 3), (20, 3)  # the leg crosses the line between their centres at x = 19.6
    assert geometry.adjacent(original, a, b) and geometry.sight(original, (18, 3), (21, 3))[0]
    assert not geometry.adjacent(walled, a, b)
    assert geometry.barrier_words(walled, a, b) == "wall between (19, 3) and (20, 3)"
    assert not geometry.sight(walled, (18, 3), (21, 3))[0]
