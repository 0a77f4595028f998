"""Every grid map Tiled writes loads through one door, and every bad one gets battlemat's own message.

Formats: a map in Tiled's JSON (.tmj, exported by the Tiled CLI from each bundled map, with external
or embedded tilesets, or pointing at a .tsj), an infinite variant of each bundled map (chunks around
a negative origin, CSV, zlib or zstd) and every layer encoding must give the identical Board (terrain
arrays and tokens) as the bundled .tmx. The infinite variants are written here, from our own maps;
that they show the same map is checked independently with Tiled's own renderer (tmxrasterizer).

One door: the window reads maps through `read_tiled`, so a map `check` explains gives `check`'s
message and exit 2 from `play`, and maps that crashed the window before (collision shapes in a
tileset, a tileset image without its size, a missing image, an embedded image) load or are refused.

Bad input: the fuzz classes (thousands of nested groups, NaN or infinite coordinates, an unknown XML
encoding, a million objects, JSON of the wrong shape) are refused with the bound or the place named,
and a seeded, bounded fuzz of the bundled maps (XML and JSON) through `check`, `reach` and `resolve`
never gives a traceback, a "please report" catch-all or pytmx's own words.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import io
import json
import os
import random
import shutil
import struct
import subprocess
import zlib
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np
import pytest
import zstandard

from battlemat.cli import main
from battlemat.core.board import Board
from battlemat.io import limits
from battlemat.io.errors import LoadError
from battlemat.io.tiled import lint_map, load_map, read_tiled, xmlsafe

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted((ROOT / "maps").glob("*.tmx"))
HAS_TILED = shutil.which("tiled") is not None
HAS_RASTERIZER = shutil.which("tmxrasterizer") is not None
QT = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}


# -- fixtures made from our own maps ----------------------------------------------------------------
def copy_maps(dest: Path) -> Path:
    """The bundled maps, tilesets and encounters under dest/maps, their tile art under dest/assets,
    so tilesets find their images as in the repository."""
    shutil.copytree(ROOT / "maps", dest / "maps", ignore=shutil.ignore_patterns("examples"))
    shutil.copytree(ROOT / "assets" / "tiles", dest / "assets" / "tiles")
    return dest / "maps"


def assert_same_board(a: Board, b: Board) -> None:
    for f in dataclasses.fields(Board):
        if f.name in ("source", "cache"):
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y), f.name
        else:
            assert x == y, f.name


def layer_grid(layer: ET.Element, width: int, height: int) -> np.ndarray:
    data = layer.find("data")
    assert data is not None and data.get("encoding") == "csv"  # the bundled maps are CSV
    return np.array([int(t) for t in (data.text or "").split(",")], np.uint32).reshape(height, width)


def encode(gids: np.ndarray, compression: str) -> str:
    raw = gids.astype("<u4").tobytes()
    if compression == "zlib":
        raw = zlib.compress(raw)
    elif compression == "gzip":
        import gzip

        raw = gzip.compress(raw)
    elif compression == "zstd":
        raw = zstandard.ZstdCompressor().compress(raw)
    return base64.b64encode(raw).decode()


def set_data(data: ET.Element, gids: np.ndarray, fmt: str) -> None:
    """fmt: csv, xml (the old <tile> elements), base64 or base64-zlib/gzip/zstd."""
    for child in list(data):
        data.remove(child)
    data.attrib.clear()
    data.text = None
    if fmt == "csv":
        data.set("encoding", "csv")
        data.text = ",".join(map(str, gids.ravel()))
    elif fmt == "xml":
        for g in gids.ravel():
            ET.SubElement(data, "tile", {"gid": str(g)} if g else {})
    else:
        compression = fmt.partition("-")[2]
        data.set("encoding", "base64")
        if compression:
            data.set("compression", compression)
        data.text = encode(gids, compression)


def infinite_variant(src: Path, dst: Path, origin: tuple[int, int], fmt: str = "csv",
                     splits: tuple[int, int] = (2, 2)) -> Path:
    """The map drawn at tile `origin` of an infinite map: its layers cut into splits[0] x splits[1]
    chunks, its objects moved by the origin in pixels (on hex maps by Tiled's column or row pitch,
    and with the stagger index flipped when the origin is odd along the stagger axis, so each hex
    stays where it was drawn)."""
    root = ET.parse(src).getroot()
    w, h = int(root.get("width", "0")), int(root.get("height", "0"))
    tw, th = int(root.get("tilewidth", "0")), int(root.get("tileheight", "0"))
    ox, oy = origin
    dx, dy = ox * tw, oy * th
    if root.get("orientation") == "hexagonal":
        side, tw2, th2 = int(root.get("hexsidelength", "0")), tw & ~1, th & ~1
        axis_x = root.get("staggeraxis") == "x"
        dx, dy = (ox * ((tw2 - side) // 2 + side), oy * th2) if axis_x else (ox * tw2, oy * ((th2 - side) // 2 + side))
        if (ox if axis_x else oy) % 2:
            root.set("staggerindex", "even" if root.get("staggerindex") == "odd" else "odd")
    root.set("infinite", "1")
    for layer in root.iter("layer"):
        data = layer.find("data")
        assert data is not None
        grid = layer_grid(layer, w, h)
        set_data(data, np.zeros(0, np.uint32), fmt)
        data.text = None
        for ys in np.array_split(np.arange(h), splits[1]):
            for xs in np.array_split(np.arange(w), splits[0]):
                part = grid[ys[0] : ys[-1] + 1, xs[0] : xs[-1] + 1]
                chunk = ET.SubElement(data, "chunk")
                set_data(chunk, part, fmt)  # the encoding stays on <data>; the chunk holds its place
                chunk.attrib = {"x": str(ox + int(xs[0])), "y": str(oy + int(ys[0])), "width": str(len(xs)),
                                "height": str(len(ys))}
    for group in root.iter("objectgroup"):
        for obj in group.findall("object"):
            obj.set("x", str(float(obj.get("x", "0")) + dx))
            obj.set("y", str(float(obj.get("y", "0")) + dy))
    ET.ElementTree(root).write(dst, encoding="UTF-8", xml_declaration=True)
    return dst


def tiled_export(args: list[str]) -> None:
    proc = subprocess.run(["tiled", *args], env=QT, capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr


def rasterized(tmx: Path) -> np.ndarray:
    """Tiled's own picture of a map (tmxrasterizer), cropped to what it draws."""
    import matplotlib.image as mpimg

    png = tmx.with_suffix(".png")
    subprocess.run(["tmxrasterizer", "--ignore-visibility", str(tmx), str(png)], env=QT, check=True,
                   capture_output=True, timeout=120)
    img = np.asarray(mpimg.imread(str(png)), np.float32)
    ys, xs = np.nonzero(img[..., 3] > 0)
    return img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def mismatch(finite: np.ndarray, infinite: np.ndarray) -> float:
    """How far Tiled's picture of a finite map is from the best-placed window of its infinite
    variant's (Tiled clips a finite map to its edges, so tiles taller or wider than their cell can
    widen the infinite one's by a few pixels): the mean absolute difference per channel."""
    dy, dx = infinite.shape[0] - finite.shape[0], infinite.shape[1] - finite.shape[1]
    if dy < 0 or dx < 0 or dy > 32 or dx > 32:
        return 1.0
    return min(float(np.abs(infinite[y : y + finite.shape[0], x : x + finite.shape[1]] - finite).mean())
               for y in range(dy + 1) for x in range(dx + 1))


@pytest.fixture(scope="module")
def maps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_maps(tmp_path_factory.mktemp("formats"))


# -- JSON -----------------------------------------------------------------------------------------
@pytest.mark.skipif(not HAS_TILED, reason="the tiled CLI (Debian package tiled) is absent")
@pytest.mark.parametrize("src", BUNDLED, ids=lambda p: p.stem)
def test_tiled_json_export_of_each_bundled_map_gives_the_identical_board(maps: Path, src: Path) -> None:
    tmx = maps / src.name
    tmj = maps / f"{src.stem}.tmj"
    embedded = maps / f"{src.stem}_embedded.tmj"
    tiled_export(["--export-map", "json", str(tmx), str(tmj)])
    tiled_export(["--embed-tilesets", "--export-map", "json", str(tmx), str(embedded)])
    for tsx in maps.glob("*.tsx"):  # the map pointing at JSON tilesets instead
        tiled_export(["--export-tileset", "json", str(tsx), str(tsx.with_suffix(".tsj"))])
    with_tsj = maps / f"{src.stem}_tsj.tmj"
    with_tsj.write_text(tmj.read_text().replace('.tsx"', '.tsj"'))
    tmx_tsj = maps / f"{src.stem}_tsj.tmx"
    tmx_tsj.write_text(tmx.read_text().replace('.tsx"', '.tsj"'))
    assert '.tsj"' in with_tsj.read_text() and '.tsj"' in tmx_tsj.read_text()
    want, info = load_map(tmx)
    for path in (tmj, embedded, with_tsj, tmx_tsj):
        got, got_info = load_map(path)
        assert_same_board(want, got)
        assert [(la.name, la.kind) for la in got_info.layers] == [(la.name, la.kind) for la in info.layers]
        assert lint_map(path)[1] == []


def json_map(layers: list[dict], tilesets: list[dict], **head: object) -> dict:
    return {"type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32, "tileheight": 32,
            "infinite": False, "layers": layers, "tilesets": tilesets, **head}


def test_hand_written_json_map_in_old_and_new_forms_loads_terrain_and_tokens(tmp_path: Path) -> None:
    """Fields as Tiled 1.9+ writes them (class, typed properties, a group) and as Tiled 1.0 did
    (properties as an object, tiles keyed by id, tileproperties), in one map."""
    tilesets = [
        {"firstgid": 1, "name": "new", "tilewidth": 32, "tileheight": 32, "tilecount": 2, "columns": 0,
         "tiles": [{"id": 0, "class": "wall"},
                   {"id": 1, "properties": [{"name": "difficult", "type": "bool", "value": True}]}]},
        {"firstgid": 3, "name": "old", "tilewidth": 32, "tileheight": 32, "tiles": {"0": {"type": "pit"}},
         "tileproperties": {"1": {"cover": "1"}}, "tilepropertytypes": {"1": {"cover": "int"}}},
    ]
    layers = [
        {"type": "tilelayer", "name": "ground", "width": 4, "height": 3, "visible": True, "opacity": 1,
         "data": [1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0], "properties": {"note": "old-style"}},
        {"type": "group", "name": "stuff", "layers": [
            {"type": "objectgroup", "name": "terrain", "objects": [
                {"id": 1, "x": 0, "y": 64, "width": 0, "height": 0, "class": "rubble",
                 "polygon": [{"x": 0, "y": 0}, {"x": 64, "y": 0}, {"x": 64, "y": 32}, {"x": 0, "y": 32}]}]},
            {"type": "objectgroup", "name": "tokens", "objects": [
                {"id": 2, "name": "hero", "x": 112, "y": 48, "point": True},
                {"id": 3, "name": "foe", "x": 96, "y": 64, "width": 32, "height": 32, "ellipse": True}]}]},
        {"type": "objectgroup", "name": "notes", "objects": [
            {"id": 4, "x": 0, "y": 0, "width": 64, "height": 20, "text": {"text": "hello", "wrap": True}}]},
    ]
    path = tmp_path / "hand.tmj"
    path.write_text(json.dumps(json_map(layers, tilesets)))
    board, info = load_map(path)
    assert board.blocked[0, 0] and board.difficult[0, 1] and board.pit[0, 2] and board.cover[0, 3] == 1
    assert board.difficult[2, 0] and board.difficult[2, 1] and not board.difficult[2, 2]
    assert dict(board.tokens) == {"hero": (3, 1), "foe": (3, 2)}
    assert [la.name for la in info.layers] == ["ground", "stuff", "terrain", "tokens", "notes"]
    assert lint_map(path)[1] == []


def test_tmx_map_with_a_hand_written_json_tileset(tmp_path: Path) -> None:
    (tmp_path / "t.tsj").write_text(json.dumps({
        "type": "tileset", "name": "t", "tilewidth": 32, "tileheight": 32, "tilecount": 1, "columns": 0,
        "tiles": [{"id": 0, "type": "wall"}]}))
    path = tmp_path / "m.tmx"
    path.write_text('<map orientation="orthogonal" width="2" height="1" tilewidth="32" tileheight="32">'
                    '<tileset firstgid="1" source="t.tsj"/><layer name="g" width="2" height="1">'
                    '<data encoding="csv">1,0</data></layer></map>')
    board = load_map(path)[0]
    # the wall class from the .tsj; the untiled square of a map drawn in tiles is void (issue 26)
    assert board.blocked.tolist() == [[True, True]]
    assert (board.feature_at((0, 0)), board.feature_at((1, 0))) == ("wall", "void")


def test_json_object_template_places_its_terrain(tmp_path: Path) -> None:
    (tmp_path / "wall.tj").write_text(json.dumps({
        "type": "template", "object": {"name": "", "type": "wall", "width": 64, "height": 32, "rotation": 0}}))
    layers = [{"type": "tilelayer", "name": "g", "width": 4, "height": 3, "data": [0] * 12},
              {"type": "objectgroup", "name": "terrain",
               "objects": [{"id": 1, "template": "wall.tj", "x": 32, "y": 32}]}]
    path = tmp_path / "m.tmj"
    path.write_text(json.dumps(json_map(layers, [])))
    assert np.argwhere(load_map(path)[0].blocked).tolist() == [[1, 1], [1, 2]]


@pytest.mark.parametrize(("text", "words"), [
    ('{"type": "map", "width": 4,', ["line 1, column", "not valid JSON"]),
    ("[1, 2]", ["the JSON is an array, not a Tiled map"]),
    ('{"type": "map", "width": "four", "height": 3, "tilewidth": 32, "tileheight": 32, "layers": []}',
     ["map", "width='four' is not a number"]),
    ('{"type": "map", "width": 4, "height": 3, "tilewidth": 32, "tileheight": 32, "layers": {"a": 1}}',
     ["map.layers", "expected an array"]),
    ('{"type": "map", "width": 1, "height": 1, "tilewidth": 32, "tileheight": 32, "layers": '
     '[{"type": "tilelayer", "name": "g", "width": 1, "height": 1, "data": ["x"]}]}',
     ["layer 'g'.data[0]", "is a whole number"]),
    ('{"type": "map", "width": 1, "height": 1, "tilewidth": 32, "tileheight": 32, "layers": '
     '[{"type": "hexlayer", "name": "g"}]}', ["layer 'g'", "unknown layer type 'hexlayer'"]),
    ('{"type": "map", "width": 1, "height": 1, "tilewidth": 32, "tileheight": 32, "layers": '
     '[{"type": ["group"], "name": "g"}]}', ["layer 'g'", "unknown layer type ['group']"]),
    ('{"type": "map", "layers": ' + "[" * 3000 + "]" * 3000 + "}", [f"nest more than {limits.MAX_NESTING} deep"]),
    ('{"type": "map", "width": 1, "height": 1, "tilewidth": 32, "tileheight": 32, "layers": ['
     + '{"type": "group", "layers": [' * 200 + "]}" * 200 + "]}", [f"nest more than {limits.MAX_NESTING} deep"]),
    ('{"type": "map", "width": 1, "height": 1, "tilewidth": 32, "tileheight": 32, "layers": [{"type": "tilelayer", '
     '"name": "g", "width": 1, "height": 1, "data": [0]}, {"type": "objectgroup", "name": "tokens", "objects": '
     '[{"id": 1, "name": "a", "x": NaN, "y": Infinity}]}]}', ["object 1 'a'", "x='nan' is not a finite number"]),
])
def test_bad_json_maps_get_one_clear_message(tmp_path: Path, text: str, words: list[str]) -> None:
    path = tmp_path / "bad.tmj"
    path.write_text(text)
    with pytest.raises(LoadError) as exc:
        load_map(path)
    message = str(exc.value)
    assert all(w in message for w in words), message
    assert str(path) in message and "Fix:" in message


def test_json_with_too_many_objects_is_refused_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "many.tmj"
    path.write_text('{"type": "map", "layers": [' + ",".join(['{"x": 1}'] * (limits.MAX_JSON_OBJECTS + 1)) + "]}")
    monkeypatch.setattr(json, "loads", lambda *a, **k: pytest.fail("parsed"))
    with pytest.raises(LoadError, match=f"more than the {limits.MAX_JSON_OBJECTS:,}"):
        load_map(path)


# -- infinite maps and layer formats ---------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["csv", "base64-zlib", "base64-zstd"])
@pytest.mark.parametrize("origin", [(-13, -7), (16, 0)], ids=["odd-negative", "even-positive"])
@pytest.mark.parametrize("src", BUNDLED, ids=lambda p: p.stem)
def test_infinite_variant_of_each_bundled_map_gives_the_identical_board(
        maps: Path, src: Path, origin: tuple[int, int], fmt: str) -> None:
    path = infinite_variant(maps / src.name, maps / f"{src.stem}_inf_{fmt}_{origin[0]}.tmx", origin, fmt)
    want = load_map(maps / src.name)[0]
    got = load_map(path)[0]
    assert_same_board(want, got)
    board, problems = lint_map(path)
    assert board is not None and [p.note for p in problems] == [True]
    assert f"the box of its used chunks, {want.width}x{want.height} squares from tile {origin}" in problems[0].message


@pytest.mark.skipif(not HAS_RASTERIZER, reason="tmxrasterizer (Debian package tiled) is absent")
@pytest.mark.parametrize("name", ["bridge_hex", "art_gallery"])
def test_infinite_variants_show_the_same_map_in_tiled_itself(maps: Path, name: str) -> None:
    """The fixture, checked without battlemat: Tiled renders the infinite variant (odd origin: a hex
    map's stagger flips) exactly as the original, objects included; a control with tokens one tile
    off is noticed."""
    original = rasterized(maps / f"{name}.tmx")
    variant = infinite_variant(maps / f"{name}.tmx", maps / f"{name}_raster.tmx", (-13, -7), "base64-zstd")
    assert mismatch(original, rasterized(variant)) < 1e-4
    off = maps / f"{name}_off.tmx"
    off.write_text(variant.read_text().replace('name="tokens"', 'name="tokens" offsetx="32"'))
    assert mismatch(original, rasterized(off)) > 1e-3


@pytest.mark.skipif(not HAS_TILED, reason="the tiled CLI (Debian package tiled) is absent")
@pytest.mark.parametrize("name", ["bridge_hex", "art_gallery"])
def test_infinite_maps_as_tiled_saves_them_hold_the_map_inside_their_chunk_box(maps: Path, name: str) -> None:
    """Tiled re-cuts an infinite map into 16x16 chunks when it saves (TMX or JSON): the board is the
    box of those chunks, as when Tiled itself makes the map finite, with the map where it was drawn."""
    ours = infinite_variant(maps / f"{name}.tmx", maps / f"{name}_for_tiled.tmx", (-13, -7), "base64-zlib")
    want = load_map(maps / f"{name}.tmx")[0]
    for fmt, suffix in (("tmx", ".tmx"), ("json", ".tmj")):
        saved = maps / f"{name}_by_tiled{suffix}"
        tiled_export(["--export-map", fmt, str(ours), str(saved)])
        got = load_map(saved)[0]
        assert (got.width, got.height) == (32, 32)  # chunks from tile -16 to 16 on both axes
        ox, oy = -13 + 16, -7 + 16
        for field in ("blocked", "difficult", "difficult_dirs", "level", "opaque", "cover", "pit", "hazard"):
            assert np.array_equal(getattr(got, field)[oy : oy + want.height, ox : ox + want.width],
                                  getattr(want, field)), field
        assert {k: (x - ox, y - oy) for k, (x, y) in got.tokens.items()} == dict(want.tokens)


def test_infinite_hex_map_staggered_along_x_keeps_every_hex(maps: Path) -> None:
    """The bundled hex map turned to stagger along x (columns), drawn from an odd column of an infinite
    map: the stagger index flips and the board is the same; Tiled renders both alike."""
    src = maps / "bridge_hex_x.tmx"
    src.write_text((maps / "bridge_hex.tmx").read_text().replace('staggeraxis="y"', 'staggeraxis="x"')
                   .replace('tilewidth="32" tileheight="36"', 'tilewidth="36" tileheight="32"'))
    assert load_map(src)[1].orientation == "hexagonal" and load_map(src)[0].stagger_axis == "x"
    variant = infinite_variant(src, maps / "bridge_hex_x_inf.tmx", (-13, -7), "base64-zlib")
    assert_same_board(load_map(src)[0], load_map(variant)[0])
    if HAS_RASTERIZER:
        assert mismatch(rasterized(src), rasterized(variant)) < 1e-4
        unflipped = maps / "bridge_hex_x_unflipped.tmx"  # control: the stagger index left as it was
        unflipped.write_text(variant.read_text().replace('staggerindex="even"', 'staggerindex="odd"'))
        assert 'staggerindex="odd"' in unflipped.read_text()
        assert mismatch(rasterized(src), rasterized(unflipped)) > 1e-3


def test_infinite_board_is_the_box_of_chunks_that_hold_tiles(tmp_path: Path) -> None:
    path = tmp_path / "inf.tmx"
    path.write_text(
        '<map orientation="orthogonal" width="10" height="10" tilewidth="32" tileheight="32" infinite="1">'
        '<tileset firstgid="1" name="t" tilewidth="32" tileheight="32"><tile id="0" type="wall"/></tileset>'
        '<layer name="g" width="10" height="10"><data encoding="csv">'
        '<chunk x="-4" y="-2" width="2" height="2">0,1,0,0</chunk>'
        '<chunk x="0" y="0" width="2" height="2">0,0,1,0</chunk>'
        '<chunk x="90" y="90" width="2" height="2">0,0,0,0</chunk>'  # empty: not part of the board
        '</data></layer><objectgroup name="tokens"><object id="1" name="a" x="-112" y="-48"/></objectgroup></map>')
    board = load_map(path)[0]
    assert (board.width, board.height) == (6, 4)
    assert np.argwhere(board.blocked).tolist() == [[0, 1], [3, 4]]
    assert dict(board.tokens) == {"a": (0, 0)}
    code, said = run_cli(["check", str(path)])  # a note, and the map passes
    assert code == 0 and said.splitlines() == [
        f"note: {path}: map: an infinite map: the board is the box of its used chunks, 6x4 squares from tile (-4, -2) "
        "(objects keep their squares). Tip: to choose the edges yourself, uncheck Infinite in Map > Map Properties",
        f"ok: {path}"]


def test_an_infinite_map_without_tiles_is_refused_with_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "empty.tmx"
    path.write_text('<map orientation="orthogonal" width="10" height="10" tilewidth="32" tileheight="32" '
                    'infinite="1"><layer name="g" width="10" height="10"><data encoding="csv"/></layer></map>')
    with pytest.raises(LoadError, match="has no tiles, so it has no edges.*uncheck Infinite"):
        load_map(path)


@pytest.mark.parametrize("fmt", ["xml", "base64", "base64-zlib", "base64-gzip", "base64-zstd"])
@pytest.mark.parametrize("src", BUNDLED, ids=lambda p: p.stem)
def test_every_layer_format_gives_the_identical_board(maps: Path, src: Path, fmt: str) -> None:
    root = ET.parse(maps / src.name).getroot()
    w, h = int(root.get("width", "0")), int(root.get("height", "0"))
    for layer in root.iter("layer"):
        data = layer.find("data")
        assert data is not None
        set_data(data, layer_grid(layer, w, h), fmt)
    path = maps / f"{src.stem}_{fmt}.tmx"
    ET.ElementTree(root).write(path, encoding="UTF-8", xml_declaration=True)
    assert_same_board(load_map(maps / src.name)[0], load_map(path)[0])
    assert lint_map(path)[1] == []


def test_a_zstd_layer_that_inflates_past_the_map_is_refused(tmp_path: Path) -> None:
    bomb = base64.b64encode(zstandard.ZstdCompressor().compress(bytes(64 * 2**20))).decode()  # 64 MB of zeros
    path = tmp_path / "bomb.tmx"
    path.write_text('<map orientation="orthogonal" width="4" height="3" tilewidth="32" tileheight="32">'
                    f'<layer name="g" width="4" height="3"><data encoding="base64" compression="zstd">{bomb}'
                    '</data></layer></map>')
    assert len(path.read_bytes()) < 100_000
    with pytest.raises(LoadError, match="layer 'g': the layer data inflates to more than the 12 tiles"):
        load_map(path)


# -- images ---------------------------------------------------------------------------------------
def png_bytes(w: int, h: int, rgba: tuple[int, int, int, int]) -> bytes:
    raw = b"".join(b"\x00" + bytes(rgba) * w for _ in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def embedded_image_map(tmp_path: Path) -> Path:
    """A tile whose picture is embedded in the map (red), and a tileset whose sheet is (blue)."""
    red = base64.b64encode(png_bytes(32, 32, (255, 0, 0, 255))).decode()
    blue = base64.b64encode(png_bytes(64, 32, (0, 0, 255, 255))).decode()
    path = tmp_path / "embedded.tmx"
    path.write_text(
        '<map orientation="orthogonal" width="3" height="1" tilewidth="32" tileheight="32">'
        '<tileset firstgid="1" name="pics" tilewidth="32" tileheight="32" tilecount="1" columns="0">'
        f'<tile id="0" type="wall"><image format="png"><data encoding="base64">{red}</data></image></tile>'
        '</tileset>'
        '<tileset firstgid="2" name="sheet" tilewidth="32" tileheight="32" tilecount="2" columns="2">'
        f'<image format="png"><data encoding="base64">{blue}</data></image></tileset>'
        '<layer name="g" width="3" height="1"><data encoding="csv">1,2,3</data></layer></map>')
    return path


def test_an_image_embedded_in_the_file_loads_for_the_board(tmp_path: Path) -> None:
    path = embedded_image_map(tmp_path)
    assert load_map(path)[0].blocked.tolist() == [[True, False, False]]
    assert lint_map(path)[1] == []
    tiles = [img for _, _, img in read_tiled(path).layers[0].tiles()]
    assert all(isinstance(t[0], io.BytesIO) for t in tiles)  # the report's renderer gets the bytes
    from battlemat.sim.render import render_map

    picture = render_map(path)[0]
    assert [picture[16, 16 + 32 * i, :3].tolist() for i in range(3)] == [[1, 0, 0], [0, 0, 1], [0, 0, 1]]


# -- one door: the window -------------------------------------------------------------------------
@pytest.fixture
def window():
    pygame = pytest.importorskip("pygame")
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    yield pygame
    pygame.display.quit()


@pytest.mark.ui
def test_the_window_draws_images_embedded_in_the_file(tmp_path: Path, window) -> None:
    from battlemat.ui.layout import Layout
    from battlemat.ui.renderer import MapArt, load_tmx_ops

    path = embedded_image_map(tmp_path)
    layout = Layout(load_map(path)[0])
    ops, _ = load_tmx_ops(path, layout)
    picture = MapArt(layout, ops).render_full()
    assert [tuple(picture.get_at((16 + 32 * i, 16)))[:3] for i in range(3)] == [(255, 0, 0), (0, 0, 255), (0, 0, 255)]


def tileset_variants(tmp_path: Path) -> dict[str, Path]:
    """Maps that crashed the window before it read maps through read_tiled."""
    (tmp_path / "sheet.png").write_bytes(png_bytes(64, 32, (0, 128, 0, 255)))
    layer = '<layer name="g" width="2" height="1"><data encoding="csv">1,2</data></layer>'
    head = '<map orientation="orthogonal" width="2" height="1" tilewidth="32" tileheight="32">'
    out = {
        # tile collision shapes: a nameless <objectgroup> inside a <tile>
        "collision": (f'{head}<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="2" columns="2">'
                      '<image source="sheet.png" width="64" height="32"/><tile id="0"><objectgroup draworder="index">'
                      '<object id="1" x="0" y="0" width="12" height="12"/></objectgroup></tile></tileset>'
                      f'{layer}</map>'),
        # the tileset image without width and height
        "sizeless": (f'{head}<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="2" columns="2">'
                     f'<image source="sheet.png"/></tileset>{layer}</map>'),
        # the tileset image missing
        "missing": (f'{head}<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="2" columns="2">'
                    f'<image source="gone.png" width="64" height="32"/></tileset>{layer}</map>'),
        # the tileset image smaller than the tileset says (64x32): its second tile is off the picture
        "smaller": (f'{head}<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="2" columns="2">'
                    f'<image source="half.png" width="64" height="32"/></tileset>{layer}</map>'),
        # a "picture" that is not one
        "garbage": (f'{head}<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="2" columns="2">'
                    f'<image source="notes.png" width="64" height="32"/></tileset>{layer}</map>'),
    }
    (tmp_path / "notes.png").write_text("not a picture")
    (tmp_path / "half.png").write_bytes(png_bytes(32, 32, (0, 128, 0, 255)))
    paths = {}
    for name, text in out.items():
        paths[name] = tmp_path / f"{name}.tmx"
        paths[name].write_text(text)
    return paths


@pytest.mark.ui
def test_maps_that_crashed_the_window_load_or_give_checks_message(tmp_path: Path, window) -> None:
    from battlemat.ui.layout import Layout
    from battlemat.ui.renderer import load_tmx_ops

    def cells(path: Path) -> list:
        """Every draw op of the map, tile layers cell by cell (a TileLayer iterates its ops)."""
        drawn, _ = load_tmx_ops(path, Layout(load_map(path)[0]))
        return [op for d in drawn for op in (d if hasattr(d, "ops_in") else [d])]

    paths = tileset_variants(tmp_path)
    for name in ("collision", "sizeless"):
        ops = cells(paths[name])
        assert len(ops) == 2 and ops[0].image.get_size() == (32, 32), name
    missing = str(lint_map(paths["missing"])[1][0])
    with pytest.raises(LoadError) as exc:
        load_tmx_ops(paths["missing"], Layout(load_map(paths["missing"])[0]))
    assert str(exc.value) == missing and "tileset image not found" in missing
    with pytest.raises(LoadError, match="notes.png cannot be read as a picture.*Fix: save it again as PNG"):
        load_tmx_ops(paths["garbage"], Layout(load_map(paths["garbage"])[0]))
    ops = cells(paths["smaller"])
    assert [(op.x, op.y) for op in ops] == [(0, 0)]  # the tile off the picture is drawn empty, as in Tiled
    notes = lint_map(paths["smaller"])[1]
    assert [p.note for p in notes] == [True] and "the tileset image is 32x32 pixels but the tileset says 64x32" in \
        notes[0].message


ENCOUNTER = """
[encounter]
title = "t"
map = "{map}"
[[character]]
id = "a"
side = "x"
skills = {{ Melee = 3 }}
at = [0, 0]
[[character]]
id = "b"
side = "y"
skills = {{ Melee = 1 }}
at = [1, 0]
"""


@pytest.mark.ui
def test_play_on_a_map_check_explains_exits_2_with_checks_message_before_any_window(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pygame = pytest.importorskip("pygame")
    paths = tileset_variants(tmp_path)
    enc = tmp_path / "e.toml"
    enc.write_text(ENCOUNTER.format(map="missing.tmx"))
    assert main(["check", str(enc)]) == 2
    said = capsys.readouterr().out.strip().splitlines()[0]
    code = main(["play", str(enc), "--screenshot", str(tmp_path / "x.png"), "--save-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and said in err and "Traceback" not in err
    assert not pygame.display.get_init()
    enc.write_text(ENCOUNTER.format(map=paths["collision"].name))
    assert main(["play", str(enc), "--screenshot", str(tmp_path / "x.png"), "--save-dir", str(tmp_path)]) == 0


@pytest.mark.ui
def test_open_dialog_on_a_map_the_window_cannot_draw_says_why_and_keeps_the_game(tmp_path: Path) -> None:
    pytest.importorskip("pygame_gui")
    import argparse

    from battlemat.commands.args import add_play_arguments
    from battlemat.ui.app import App
    from battlemat.ui.options import PlayOptions

    paths = tileset_variants(tmp_path)
    good = tmp_path / "good.toml"
    good.write_text(ENCOUNTER.format(map=paths["sizeless"].name))
    bad = tmp_path / "bad.toml"
    bad.write_text(ENCOUNTER.format(map=paths["garbage"].name).replace('title = "t"', 'title = "bad"'))
    parser = argparse.ArgumentParser()
    parser.add_argument("encounter", nargs="?")
    add_play_arguments(parser)
    args = parser.parse_args([str(good), "--save-dir", str(tmp_path), "--screenshot", str(tmp_path / "s.png")])
    app = App(PlayOptions.from_namespace(args))
    try:
        art = app.play.ctx.art
        app.play.open_path(str(bad))
        assert app.play.session.enc.title == "t" and app.play.ctx.art is art
        assert "Cannot open" in app.play.ctx.status and "cannot be read as a picture" in app.play.ctx.status
        app.tick(1 / 60)
    finally:
        app.close()


# -- the fuzz classes -------------------------------------------------------------------------------
HEAD = ('<?xml version="1.0" encoding="{enc}"?>\n<map orientation="orthogonal" width="4" height="3" '
        'tilewidth="32" tileheight="32"><layer name="g" width="4" height="3"><data encoding="csv">'
        "0,0,0,0,0,0,0,0,0,0,0,0</data></layer>")


@pytest.mark.parametrize(("body", "enc", "words"), [
    ("<group>" * 5000 + "</group>" * 5000, "UTF-8",
     [f"elements nest more than {limits.MAX_NESTING} deep", "line 2", "flatten the group layers"]),
    ('<objectgroup name="terrain"><object id="1" x="0" y="0"><polygon points="0,0 nan,0 32,32"/></object>'
     "</objectgroup>", "UTF-8", ["layer 'terrain' object 1 polygon", "point 2 of the polygon, 'nan,0'"]),
    ('<objectgroup name="terrain"><object id="1" x="0" y="0"><polygon points="0,0 1e999,0 32,32"/></object>'
     "</objectgroup>", "UTF-8", ["layer 'terrain' object 1 polygon", "'1e999,0', is not two finite numbers"]),
    ('<objectgroup name="tokens"><object id="1" name="a" x="inf" y="0" width="-inf"/></objectgroup>', "UTF-8",
     ["layer 'tokens' object 1 'a': x='inf' is not a finite number", "width='-inf'"]),
    ('<objectgroup name="x" opacity="nan"/>', "UTF-8", ["layer 'x': opacity='nan' is not a finite number"]),
    ("", "x-klingon", ["line 1", "unknown text encoding", "x-klingon", 'encoding="UTF-8"']),
])
def test_fuzz_classes_are_refused_with_the_place_and_the_bound(tmp_path: Path, body: str, enc: str,
                                                                 words: list[str]) -> None:
    path = tmp_path / "m.tmx"
    path.write_text(HEAD.format(enc=enc) + body + "</map>")
    for read in (load_map, lint_map):
        try:
            message = "\n".join(map(str, read(path)[1]))  # type: ignore[arg-type]
        except LoadError as exc:
            message = str(exc)
        assert all(w in message for w in words), message
        assert "Fix:" in message


def test_a_file_of_too_many_objects_is_refused_before_it_is_parsed(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    n = limits.MAX_MAP_OBJECTS + 1
    objects = '<object id="1" x="0" y="0"/>' * n
    path = tmp_path / "many.tmx"
    path.write_text(HEAD.format(enc="UTF-8") + f'<objectgroup name="deco">{objects}</objectgroup></map>')
    with monkeypatch.context() as m:
        m.setattr(xmlsafe.SafeET, "DefusedXMLParser", lambda **k: pytest.fail("parsed"))
        with pytest.raises(LoadError, match=f"holds {n:,} objects; battlemat reads at most {limits.MAX_MAP_OBJECTS:,}"):
            load_map(path)
    # with a comment the bytes may lie, so the parser counts, and stops at the bound
    path.write_text(HEAD.format(enc="UTF-8") + f'<!-- x --><objectgroup name="deco">{objects}</objectgroup></map>')
    with pytest.raises(LoadError, match=f"holds more than {limits.MAX_MAP_OBJECTS:,} objects"):
        load_map(path)


def test_a_file_of_too_many_elements_is_refused_from_its_bytes_or_while_parsing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xmlsafe, "MAX_XML_ELEMENTS", 1000)
    path = tmp_path / "old.tmx"
    path.write_text(HEAD.format(enc="UTF-8").replace('encoding="csv">0,0,0,0,0,0,0,0,0,0,0,0', ">" + "<tile/>" * 3000)
                    + "</map>")
    with monkeypatch.context() as m:
        m.setattr(xmlsafe.SafeET, "DefusedXMLParser", lambda **k: pytest.fail("parsed"))
        with pytest.raises(LoadError, match="holds at least 1,50.* XML elements; battlemat reads at most 1,000.*"
                                            "Fix: use CSV or Base64 layer data"):
            load_map(path)
    path.write_text(path.read_text().replace("<layer", "<!-- a comment --><layer"))
    with pytest.raises(LoadError, match="holds more than 1,000 XML elements"):
        load_map(path)


def test_chunks_and_json_values_are_bounded_before_they_are_decoded(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "chunks.tmx"  # two chunks of a million cells each, their data not even Base64
    path.write_text('<map orientation="orthogonal" width="4" height="3" tilewidth="32" tileheight="32" infinite="1">'
                    '<layer name="g" width="4" height="3"><data encoding="base64" compression="zlib">'
                    + '<chunk x="0" y="0" width="1000" height="1000">!!</chunk>' * 2 + "</data></layer></map>")
    with pytest.raises(LoadError, match="chunks of this infinite map hold 2,000,000 cells, more than the 1,000,000"):
        load_map(path)
    from battlemat.io.tiled import tiledjson

    monkeypatch.setattr(tiledjson, "MAX_JSON_VALUES", 100)
    monkeypatch.setattr(json, "loads", lambda *a, **k: pytest.fail("parsed"))
    path = tmp_path / "values.tmj"
    path.write_text('{"type": "map", "layers": [{"type": "tilelayer", "data": [' + "0," * 200 + "0]}]}")
    with pytest.raises(LoadError, match="the JSON holds 20[0-9] values, more than the 100 battlemat reads"):
        load_map(path)


def test_a_csv_layer_longer_than_the_map_is_refused_by_its_count(tmp_path: Path) -> None:
    path = tmp_path / "long.tmx"
    path.write_text(HEAD.format(enc="UTF-8").replace("0,0,0,0,0,0,0,0,0,0,0,0", "0," * 100_000 + "0") + "</map>")
    with pytest.raises(LoadError, match="layer 'g': the layer holds 100001 tiles, expected 12"):
        load_map(path)


# -- a seeded, bounded fuzz of the bundled maps --------------------------------------------------------
GARBAGE = ("", "abc", "-1", "1e309", "nan", "-inf", "99999999999", "0", "1.5", "0x10", "true", "1,2", "\u0664")


def mutate_xml(rng: random.Random, text: str) -> str:
    root = ET.fromstring(text)
    elements = list(root.iter())
    el = rng.choice(elements)
    datas = list(root.iter("data"))
    kind = rng.randrange(8)
    if kind == 0 and el.attrib:
        del el.attrib[rng.choice(sorted(el.attrib))]
    elif kind in (1, 2) and el.attrib:
        el.set(rng.choice(sorted(el.attrib)), rng.choice(GARBAGE))
    elif kind == 3 and datas:
        d = rng.choice(datas)
        d.text = (d.text or "")[: rng.randrange(len(d.text or "") + 1)]
    elif kind == 4 and datas:
        rng.choice(datas).set(rng.choice(["encoding", "compression"]),
                              rng.choice(["base64", "csv", "zlib", "gzip", "zstd", "lz4", ""]))
    elif kind == 5 and datas:
        d = rng.choice(datas)
        parts = (d.text or "").split(",")
        parts[rng.randrange(len(parts))] = rng.choice(["4294967296", "-5", "x", "", "2147483648", "1.5"])
        d.text = ",".join(parts)
    elif kind == 6:
        parents = {c: p for p in root.iter() for c in p}
        if el in parents:
            parents[el].remove(el)
    else:
        el.set(rng.choice(["x", "y", "width", "height", "rotation", "gid", "id", "opacity", "visible", "offsetx",
                           "firstgid", "tilecount", "infinite"]), rng.choice(GARBAGE))
    return ET.tostring(root, encoding="unicode")


def mutate_json(rng: random.Random, value: object) -> None:
    """Delete a key, or put a value of another type or an absurd number in its place, somewhere."""
    spots: list[tuple[object, object]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        keys: list = list(item) if isinstance(item, dict) else list(range(len(item))) if isinstance(item, list) else []
        if isinstance(item, list) and len(item) > 8 and all(isinstance(v, int) for v in item):
            keys = [rng.randrange(len(item))]  # a layer's gids: one spot, so mutations also reach the fields
        for k in keys:
            spots.append((item, k))
            stack.append(item[k])  # type: ignore[index]
    holder, key = rng.choice(spots)
    if isinstance(holder, dict) and rng.random() < 0.3:
        del holder[key]
    else:
        holder[key] = rng.choice([None, "abc", -1, 1e308 * 10, float("nan"), 2**40, [], {}, True, 1.5])  # type: ignore


def run_cli(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = int(exc.code or 0)
    return code, out.getvalue() + err.getvalue()


def test_fuzz_bundled_maps_through_check_reach_and_resolve(tmp_path: Path) -> None:
    """Seeded and bounded (120 mutated maps, XML and JSON): every command ends with exit 0 or 2,
    never a traceback, a catch-all asking for a report, or pytmx's own words."""
    folder = copy_maps(tmp_path)
    rng = random.Random(15)
    originals = {p.name: p.read_text() for p in BUNDLED}
    tilesets = {p.name: p.read_text() for p in folder.glob("*.tsx")}
    encounters = {p.stem: p for p in folder.glob("*.toml")}
    import tomllib

    whos = {name: tomllib.loads(enc.read_text())["character"][0]["id"] for name, enc in encounters.items()}
    seen: set[int] = set()
    for i in range(120):
        name = rng.choice(sorted(originals))
        stem = name.removesuffix(".tmx")
        for ts, text in tilesets.items():
            (folder / ts).write_text(text)
        if rng.random() < 0.2:  # a broken tileset under an intact map
            ts = rng.choice(sorted(tilesets))
            (folder / ts).write_text(mutate_xml(rng, tilesets[ts]))
            text = originals[name]
        elif rng.random() < 0.25:  # the map as JSON (our converter writes the tree back as Tiled would)
            root = ET.fromstring(originals[name])
            value = _as_json(root)
            mutate_json(rng, value)
            text = json.dumps(value)
        else:
            text = mutate_xml(rng, originals[name])
        (folder / name).write_text(text)
        argv = [["check", str(folder / name)], ["check", str(encounters[stem])],
                ["resolve", str(encounters[stem])],
                ["reach", str(encounters[stem]), "--who", whos[stem], "--use", "Exit"]][i % 4]
        code, said = run_cli(argv)
        assert code in (0, 2), (argv, said)
        assert "Traceback" not in said and "please report" not in said and "pytmx" not in said, said
        seen.add(code)
    assert seen == {0, 2}  # the mutations are neither all harmless nor all fatal


def _as_json(root: ET.Element) -> dict:
    """A rough Tiled JSON of a bundled map (enough structure for mutations to land on real fields)."""
    def num(v: str) -> object:
        try:
            return int(v)
        except ValueError:
            try:
                return float(v)
            except ValueError:
                return v

    def obj(el: ET.Element) -> dict:
        out: dict[str, object] = {k: num(v) if k not in ("name", "type") else v for k, v in el.attrib.items()}
        props = el.find("properties")
        if props is not None:
            out["properties"] = [{"name": p.get("name"), "type": p.get("type", "string"), "value": p.get("value")}
                                 for p in props.findall("property")]
        for shape in ("polygon", "polyline"):
            found = el.find(shape)
            if found is not None:
                out[shape] = [{"x": num(a), "y": num(b)} for a, b in
                              (p.split(",") for p in (found.get("points") or "").split())]
        return out

    doc: dict[str, object] = {k: num(v) for k, v in root.attrib.items() if k != "infinite"}
    refs = [{"firstgid": int(t.get("firstgid", "1")), "source": t.get("source")} for t in root.findall("tileset")]
    doc.update(type="map", infinite=False, tilesets=refs)
    layers = []
    for el in root:
        if el.tag == "layer":
            data = el.find("data")
            layers.append({**obj(el), "type": "tilelayer",
                           "data": [int(t) for t in ((data.text if data is not None else "") or "").split(",")]})
        elif el.tag == "objectgroup":
            layers.append({**obj(el), "type": "objectgroup", "objects": [obj(o) for o in el.findall("object")]})
    doc["layers"] = layers
    return doc
