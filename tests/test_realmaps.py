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
