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

from battlemat.io.tiled import load_map

pytestmark = pytest.mark.skipif(shutil.which("tiled") is None, reason="the tiled CLI (Debian package tiled) is absent")
MAPS = sorted((ROOT / "maps").glob("*.tmx"))
TILESETS = sorted((ROOT / "maps").glob("*.tsx"))
ARRAYS = ("blocked", "difficult", "difficult_dirs", "level", "opaque", "cover", "pit", "hazard", "feature")


def tiled(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(["tiled", *args], env=env, capture_output=True, text=True, timeout=120, check=False)


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
