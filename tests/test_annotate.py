"""`battlemat annotate MAP -o OUT.tmx` (issue 26 item 4): the terrain battlemat read, written back.

The copy must give the same board (every terrain array square by square, hazards and feature names,
tokens: the walls M1, difficult ground M4, pits M5, levels M12, sight and cover R4 all read them),
keep the rest of the map (Tiled opens it, `tmxrasterizer` draws the same picture), and hold the
terrain in the layer battlemat's reader reads: changing a rectangle there changes the board. Bad
outputs are refused with exit 2 and nothing is left behind. Tiled's CLI and tmxrasterizer are run
where Debian's `tiled` is installed, skipped elsewhere; real maps are read from ../shared/realmaps.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from battlemat.cli import main
from battlemat.io.errors import LoadError
from battlemat.io.tiled import annotate as annotate_module
from battlemat.io.tiled import load_map
from battlemat.io.tiled.annotate import LAYER_NAME, annotate_map, same_terrain

BUNDLED = sorted((ROOT / "maps").glob("*.tmx"))
REALMAPS = ROOT.parent / "shared" / "realmaps"
ARRAYS = ("blocked", "difficult", "difficult_dirs", "level", "opaque", "cover", "pit")
HAS_TILED = shutil.which("tiled") is not None
HAS_RASTERIZER = shutil.which("tmxrasterizer") is not None


def _loads(path: Path) -> bool:
    try:
        load_map(path)
    except LoadError:
        return False
    text = path.read_bytes()[:2000]
    return b'infinite="1"' not in text


REAL = sorted(p for p in REALMAPS.rglob("*.tmx") if _loads(p)) if REALMAPS.is_dir() else []


def tiled(*args: str, program: str = "tiled") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([program, *args], env=env, capture_output=True, text=True, timeout=120, check=False)


def assert_same_board(a: Path, b: Path) -> None:
    ours, again = load_map(a)[0], load_map(b)[0]
    for name in ARRAYS:
        assert np.array_equal(getattr(ours, name), getattr(again, name)), name
    assert same_terrain(ours, again) == []
    assert dict(ours.tokens) == dict(again.tokens)


def terrain_layers(path: Path) -> list[ET.Element]:
    return [g for g in ET.parse(path).getroot().iter("objectgroup") if (g.get("name") or "").lower() == LAYER_NAME]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_annotated_bundled_map_gives_the_same_board(path: Path, tmp_path: Path) -> None:
    """M1 M4 M5 M12 R4 E1: every terrain value of every square survives, written as rectangles."""
    out = tmp_path / path.name
    assert main(["annotate", str(path), "-o", str(out)]) == 0
    assert_same_board(path, out)
    layers = terrain_layers(out)
    assert len(layers) == 1 and layers[0].get("visible") == "0"
    board = load_map(path)[0]
    walls = int(board.blocked.sum())
    assert walls == 0 or len(layers[0].findall("object")) < board.width * board.height / 2  # runs were merged


def test_the_map_text_is_kept(tmp_path: Path) -> None:
    """Written beside the original, the copy is the original's text with one layer replaced and the
    next ids advanced: every other line is there, in order."""
    src = tmp_path / "forest.tmx"
    original = (ROOT / "maps" / "forest_ambush.tmx").read_text()
    src.write_text(original)
    for tsx in (ROOT / "maps").glob("*.tsx"):
        shutil.copy(tsx, tmp_path / tsx.name)
    out = tmp_path / "forest.annotated.tmx"
    annotate_map(src, out)
    kept = [line for line in original.splitlines() if not line.startswith("<map ")]
    old = terrain_layers(src)[0]
    old_lines = {f'  <object id="{o.get("id")}"' for o in old.findall("object")}
    written = out.read_text().splitlines()
    at = 0
    inside_old = False
    for line in kept:
        if 'name="terrain"' in line:
            inside_old = True
        if inside_old:
            if line.strip() == "</objectgroup>":
                inside_old = False
            continue
        assert not any(line.startswith(o) for o in old_lines)
        at = written.index(line, at) + 1  # raises when a line is missing or out of order
    assert 'nextobjectid="2"' not in written[1]


@pytest.mark.skipif(not HAS_TILED, reason="the tiled CLI (Debian package tiled) is absent")
@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_tiled_opens_the_annotated_map(path: Path, tmp_path: Path) -> None:
    """Written to another folder (references rewritten), Tiled reads it, terrain layer and all, and
    saving it from Tiled keeps the board."""
    out = tmp_path / "elsewhere" / path.name
    out.parent.mkdir()
    annotate_map(path, out)
    saved = tmp_path / f"saved_{path.name}"
    proc = tiled("--export-map", "tmx", str(out), str(saved))
    assert proc.returncode == 0 and saved.is_file(), proc.stderr
    assert_same_board(path, saved)


@pytest.mark.skipif(not HAS_RASTERIZER, reason="tmxrasterizer (Debian package tiled) is absent")
@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_tmxrasterizer_draws_the_same_picture(path: Path, tmp_path: Path) -> None:
    """The new terrain layer is hidden, so Tiled's renderer draws the map's art exactly as before (the
    original's own terrain layer hidden for the comparison: it is the layer that was replaced)."""
    from matplotlib import image

    out = tmp_path / "elsewhere" / path.name
    out.parent.mkdir()
    annotate_map(path, out)
    before, after = tmp_path / "before.png", tmp_path / "after.png"
    hide = ("--hide-layer", LAYER_NAME)
    assert tiled("--no-smoothing", *hide, str(path), str(before), program="tmxrasterizer").returncode == 0
    assert tiled("--no-smoothing", str(out), str(after), program="tmxrasterizer").returncode == 0
    a, b = image.imread(before), image.imread(after)
    assert a.shape == b.shape and np.array_equal(a, b)


@pytest.mark.skipif(not REAL, reason=f"no loadable Tiled maps in {REALMAPS}")
@pytest.mark.parametrize("path", REAL, ids=lambda p: p.relative_to(REALMAPS).as_posix())
def test_annotated_real_map_gives_the_same_board(path: Path, tmp_path: Path) -> None:
    """Maps by others (their conventions, tile shapes and objects), copied to another folder: same board,
    and Tiled opens the copy."""
    out = tmp_path / path.name
    annotate_map(path, out)
    assert_same_board(path, out)
    if HAS_TILED:
        proc = tiled("--export-map", "json", str(out), str(tmp_path / "check.json"))
        assert proc.returncode == 0, proc.stderr


def test_the_layer_is_the_one_battlemats_reader_uses(tmp_path: Path) -> None:
    """M1: unticking `blocked` on a wall rectangle of the written layer frees those squares on the
    board (the layer overrides the tiles under it); renaming the layer brings the tiles' walls back."""
    src = ROOT / "maps" / "art_gallery.tmx"
    out = tmp_path / "gallery.tmx"
    annotate_map(src, out)
    board = load_map(out)[0]
    tree = ET.parse(out)
    layer = next(g for g in tree.getroot().iter("objectgroup") if g.get("name") == LAYER_NAME)
    wall = next(o for o in layer.findall("object")
                if any(p.get("name") == "blocked" and p.get("value") == "true" for p in o.iter("property")))
    prop = next(p for p in wall.iter("property") if p.get("name") == "blocked")
    prop.set("value", "false")
    x, y = int(float(wall.get("x", "0"))) // board.tile_width, int(float(wall.get("y", "0"))) // board.tile_height
    assert board.blocked[y, x]
    corrected = tmp_path / "corrected.tmx"
    tree.write(corrected)
    assert not load_map(corrected)[0].blocked[y, x]
    layer.set("name", "not terrain")
    tree.write(corrected)
    assert load_map(corrected)[0].blocked[y, x]


def _plain_map(folder: Path, name: str = "plain.tmx", extra: str = "") -> Path:
    """A 4x3 map with one wall tile (property `blocked`) and, optionally, more layers."""
    path = folder / name
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="3" '
        'tilewidth="32" tileheight="32" infinite="0" nextlayerid="2" nextobjectid="1">\n'
        ' <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="2" columns="2">\n'
        '  <image source="nowhere.png" width="64" height="32"/>\n'
        '  <tile id="1"><properties><property name="blocked" type="bool" value="true"/></properties></tile>\n'
        ' </tileset>\n'
        ' <layer id="1" name="floor" width="4" height="3"><data encoding="csv">1,1,2,2,1,1,1,2,1,1,1,1</data></layer>\n'
        f'{extra}</map>\n')
    return path


def test_walls_merge_into_rectangles(tmp_path: Path) -> None:
    """M1: the three wall squares (a run of two, one below) become two rectangles, floor none."""
    out = tmp_path / "out.tmx"
    done = annotate_map(_plain_map(tmp_path), out)
    assert (done.rectangles, done.squares) == (2, 3)
    objs = terrain_layers(out)[0].findall("object")
    boxes = sorted((o.get("x"), o.get("y"), o.get("width"), o.get("height")) for o in objs)
    assert boxes == [("64", "0", "64", "32"), ("96", "32", "32", "32")]
    assert_same_board(tmp_path / "plain.tmx", out)


def test_refusals_exit_2_and_leave_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _plain_map(tmp_path)
    before = src.read_bytes()
    assert main(["annotate", str(src), "-o", str(src)]) == 2
    assert "the output is the map being read" in capsys.readouterr().err
    assert main(["annotate", str(src), "-o", str(tmp_path / "." / "plain.tmx"), "--force"]) == 2
    assert src.read_bytes() == before
    taken = tmp_path / "taken.tmx"
    taken.write_text("mine")
    assert main(["annotate", str(src), "-o", str(taken)]) == 2
    assert "--force" in capsys.readouterr().err and taken.read_text() == "mine"
    assert main(["annotate", str(src), "-o", str(taken), "--force"]) == 0
    assert_same_board(src, taken)
    assert main(["annotate", str(src), "-o", str(tmp_path / "no" / "such" / "x.tmx")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["annotate", str(src), "-o", str(tmp_path)]) == 2
    assert "folder" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.tmx", "taken.tmx"]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _plain_map(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert main(["annotate", str(src), "-o", str(locked / "x.tmx")]) == 2
        assert "cannot write there" in capsys.readouterr().err
    finally:
        locked.chmod(0o700)


def test_a_copy_that_would_differ_is_never_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy is read back before it is renamed into place: when it would not give the same board,
    nothing is written (no output, no temporary file)."""
    src = _plain_map(tmp_path)
    monkeypatch.setattr(annotate_module, "same_terrain", lambda a, b: ["blocked"])
    with pytest.raises(LoadError, match="would not give the same board"):
        annotate_map(src, tmp_path / "out.tmx")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.tmx"]


def test_json_and_infinite_maps_are_refused(tmp_path: Path) -> None:
    infinite = tmp_path / "inf.tmx"
    infinite.write_text(_plain_map(tmp_path).read_text().replace('infinite="0"', 'infinite="1"').replace(
        '<data encoding="csv">1,1,2,2,1,1,1,2,1,1,1,1</data>',
        '<data encoding="csv"><chunk x="0" y="0" width="4" height="3">1,1,2,2,1,1,1,2,1,1,1,1</chunk></data>'))
    with pytest.raises(LoadError, match="infinite map"):
        annotate_map(infinite, tmp_path / "out.tmx")
    tmj = tmp_path / "m.tmj"
    tmj.write_text('{"type": "map", "orientation": "orthogonal", "width": 1, "height": 1, "tilewidth": 32, '
                   '"tileheight": 32, "infinite": false, "layers": [], "tilesets": [], "renderorder": "right-down"}')
    with pytest.raises(LoadError, match="JSON"):
        annotate_map(tmj, tmp_path / "out.tmx")
    assert not (tmp_path / "out.tmx").exists()


def test_an_existing_terrain_layer_is_replaced(tmp_path: Path) -> None:
    """E1 M4: the map's own terrain objects (an ellipse hazard, a pit) are read, then replaced by
    rectangles that give the same squares; one terrain layer remains."""
    extra = (' <objectgroup id="2" name="Terrain">\n'
             '  <object id="1" name="nest" x="0" y="32" width="64" height="64"><properties>'
             '<property name="hazard" value="Perception 3"/><property name="harm" type="int" value="2"/>'
             '</properties><ellipse/></object>\n'
             '  <object id="2" x="0" y="0" width="32" height="32"><properties>'
             '<property name="pit" type="bool" value="true"/></properties></object>\n'
             ' </objectgroup>\n')
    src = _plain_map(tmp_path, extra=extra)
    out = tmp_path / "out.tmx"
    annotate_map(src, out)
    assert_same_board(src, out)
    assert len(terrain_layers(out)) == 1
    board = load_map(out)[0]
    hazard = board.hazard_at((0, 1))
    assert hazard is not None and hazard.harm == 2 and hazard.name == "nest" and board.pit[0, 0]
