"""The bundled maps and tilesets open in the real Tiled editor, and survive being saved by it.

`tiled --export-map json` proves Tiled reads each map (with its tilesets); `--export-map tmx` writes
the map back the way Tiled saves it, and that file must give the same board (terrain, tokens,
hazards). Skipped where the `tiled` CLI (Debian package `tiled`) is absent.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from battlemat.core.board import directions_text
from battlemat.io.tiled import load_map

pytestmark = pytest.mark.skipif(shutil.which("tiled") is None, reason="the tiled CLI (Debian package tiled) is absent")
MAPS = sorted((ROOT / "maps").glob("*.tmx"))
TILESETS = sorted((ROOT / "maps").glob("*.tsx"))
ARRAYS = ("blocked", "difficult", "difficult_dirs", "level", "opaque", "cover", "pit", "hazard", "feature")


def tiled(*args: str, program: str = "tiled") -> subprocess.CompletedProcess[str]:
    """Run Tiled's command line (or its `tmxrasterizer`) headless."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([program, *args], env=env, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_tiled_opens_the_map(path: Path, tmp_path: Path) -> None:
    out = tmp_path / f"{path.stem}.json"
    proc = tiled("--export-map", "json", str(path), str(out))
    assert proc.returncode == 0 and out.is_file(), proc.stderr
    data = json.loads(out.read_text())
    board, info = load_map(path)
    assert (data["width"], data["height"]) == (board.width, board.height)
    assert [layer["name"] for layer in data["layers"]] == [layer.name for layer in info.layers]
    assert data["orientation"] == ("hexagonal" if board.grid == "hex" else "orthogonal")


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_a_map_saved_by_tiled_gives_the_same_board(path: Path, tmp_path: Path) -> None:
    out = tmp_path / path.name
    proc = tiled("--export-map", "tmx", str(path), str(out))
    assert proc.returncode == 0 and out.is_file(), proc.stderr
    ours, again = load_map(path)[0], load_map(out)[0]
    for name in ARRAYS:
        assert np.array_equal(getattr(ours, name), getattr(again, name)), name
    assert dict(ours.tokens) == dict(again.tokens)
    assert ours.hazards == again.hazards and ours.features == again.features


@pytest.mark.parametrize("path", TILESETS, ids=lambda p: p.stem)
def test_tiled_opens_the_tileset(path: Path, tmp_path: Path) -> None:
    out = tmp_path / f"{path.stem}.json"
    proc = tiled("--export-tileset", "json", str(path), str(out))
    assert proc.returncode == 0 and out.is_file(), proc.stderr
    data = json.loads(out.read_text())
    ours = ET.parse(path).getroot()
    assert data["tilecount"] == int(ours.get("tilecount", "0"))  # Tiled counts the same cells in the image
    written = [(int(t.get("id", "-1")), t.get("type")) for t in ours.iter("tile")]
    assert [(t["id"], t.get("type")) for t in data["tiles"]] == written


FLIP_X, FLIP_Y, FLIP_D, HEX_120 = 0x80000000, 0x40000000, 0x20000000, 0x10000000


@pytest.mark.skipif(shutil.which("tmxrasterizer") is None, reason="tmxrasterizer (Debian package tiled) is absent")
@pytest.mark.parametrize("axis", ["y", "x"])
def test_M4_turned_hex_tiles_point_where_tiled_draws_them(axis: str, tmp_path: Path) -> None:
    """A hex tile whose picture has a mark on the side its `difficult_dirs` names: however the tile is
    mirrored or turned in Tiled (60 and 120 degrees on hex maps), Tiled's own renderer draws the mark
    on the side our board says the direction now points (M4)."""
    from matplotlib import image

    w, h = (32, 36) if axis == "y" else (36, 32)
    base = "E" if axis == "y" else "N"
    picture = np.full((h, w, 4), 0.8, np.float32)
    picture[..., 3] = 1.0
    yy, xx = np.mgrid[0:h, 0:w]
    mx, my = (w - 6, h / 2) if base == "E" else (w / 2, 6)  # the mark, near the side `base` names
    picture[(xx - mx) ** 2 + (yy - my) ** 2 <= 9] = (1, 0, 0, 1)
    image.imsave(tmp_path / "tile.png", picture)
    cells = [1, 1 | FLIP_D, 1 | HEX_120, 1 | FLIP_D | HEX_120, 1 | FLIP_X, 1 | FLIP_Y | FLIP_D, 1 | FLIP_X | HEX_120]
    n = len(cells)
    rows, cols = (1, n) if axis == "y" else (n, 1)  # one unstaggered row, or one unstaggered column
    data = ",".join(map(str, cells))
    path = tmp_path / "turned.tmx"
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="hexagonal" renderorder="right-down"'
        f' width="{cols}" height="{rows}" tilewidth="{w}" tileheight="{h}" infinite="0" hexsidelength="18"'
        f' staggeraxis="{axis}" staggerindex="odd" nextlayerid="2" nextobjectid="1">\n'
        f' <tileset firstgid="1" name="t" tilewidth="{w}" tileheight="{h}" tilecount="1" columns="1">\n'
        f'  <image source="tile.png" width="{w}" height="{h}"/>\n'
        f'  <tile id="0"><properties><property name="difficult_dirs" value="{base}"/></properties></tile>\n'
        f' </tileset>\n <layer id="1" name="g" width="{cols}" height="{rows}">'
        f'<data encoding="csv">{data}</data></layer>\n'
        f'</map>\n')
    out = tmp_path / "turned.png"
    proc = tiled(str(path), str(out), program="tmxrasterizer")
    assert proc.returncode == 0 and out.is_file(), proc.stderr
    drawn = image.imread(out)
    board = load_map(path)[0]
    cx, cy = board.centers()
    bearings = {"N": -90, "NE": -60 if axis == "y" else -30, "E": 0, "SE": 60 if axis == "y" else 30, "S": 90,
                "SW": 120 if axis == "y" else 150, "W": 180, "NW": -120 if axis == "y" else -150}
    for i in range(n):
        x, y = (i, 0) if axis == "y" else (0, i)
        said = directions_text(int(board.difficult_dirs[y, x]))
        left, top = int(cx[y, x] - w / 2), int(cy[y, x] - h / 2)
        cell = drawn[top:top + h, left:left + w]
        red = (cell[..., 0] > 0.9) & (cell[..., 1] < 0.3) & (cell[..., 3] > 0.5)
        ys, xs = np.nonzero(red)
        assert len(xs), f"cell {i}: no mark drawn"
        angle = np.degrees(np.arctan2(ys.mean() - h / 2, xs.mean() - w / 2))
        off = (angle - bearings[said] + 180) % 360 - 180
        assert abs(off) < 20, f"cell {i} (flags {cells[i]:#x}): drawn at {angle:.0f} degrees, board says {said}"
