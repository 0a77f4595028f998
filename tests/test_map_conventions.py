"""A map by others plays as its author drew it (issue 26; DESIGN "A map is what its author drew";
STYLE 16): the conventions game engines read (collision layers, `collides`-style tile properties and
classes, tile collision shapes, shapes on collision layers, terrain names, void), a mapping the game
master writes once, and `check` saying what it understood. Walls are blocked and opaque (M1, R4);
pits are never entered (M5); difficult ground ends a move (M4); shapes become squares by the house
switch map_shape_cover (M11). Each convention is tested on a small map made for it and on a real
map from ../shared/realmaps (read in place or copied to a temporary folder, never into the repo).
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from battlemat.cli import main
from battlemat.io.errors import LoadError
from battlemat.io.rules_file import load_rules
from battlemat.io.tiled import GID_MASK, OWN_TERRAIN, gid_variants, load_map, pytmx, survey_map
from battlemat.io.tiled import conventions as conv
from battlemat.io.tiled.adapter import parse_pytmx, prepare

REALMAPS = ROOT.parent / "shared" / "realmaps"
real = pytest.mark.skipif(not REALMAPS.is_dir(), reason=f"no real maps in {REALMAPS}")
PERSPECTIVE = REALMAPS / "tiled" / "examples" / "perspective_walls.tmx"
ACID = REALMAPS / "pytmx" / "apps" / "data" / "acid0.tmx"
SEWERS = REALMAPS / "tiled" / "examples" / "sewers.tmx"
MAPBIG = REALMAPS / "pytmx" / "apps" / "data" / "mapbig.tmx"
FORMOSA = REALMAPS / "pytmx" / "apps" / "data" / "formosa-base64.tmx"
MAPOBJECT = REALMAPS / "tiled" / "tests" / "data" / "mapobject.tmx"
CONTROL_TSX = REALMAPS / "pytmx" / "apps" / "data" / "control.tsx"


def tmx(tmp: Path, body: str, w: int = 4, h: int = 3, tilesets: str = "", name: str = "m.tmx") -> Path:
    """A small square map, 32-pixel squares; `tilesets` defaults to one plain 8-tile set named t."""
    ts = tilesets or '<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="8" columns="0"/>'
    path = tmp / name
    path.write_text(f'<map version="1.10" orientation="orthogonal" width="{w}" height="{h}" tilewidth="32" '
                    f'tileheight="32">{ts}{body}</map>')
    return path


def layer(name: str, rows: list[list[int]]) -> str:
    h, w = len(rows), len(rows[0])
    data = ",".join(str(v) for row in rows for v in row)
    return f'<layer name="{name}" width="{w}" height="{h}"><data encoding="csv">{data}</data></layer>'


def full(w: int = 4, h: int = 3, gid: int = 1) -> list[list[int]]:
    return [[gid] * w for _ in range(h)]


def layer_gids(path: Path) -> dict[str, np.ndarray]:
    """Each tile layer's Tiled gids (flip bits off) as pytmx decodes them: the author's marks, read
    without the conventions reader."""
    doc = prepare(path, 10**7)
    tiled = parse_pytmx(doc, None)
    raw = np.zeros(tiled.maxgid + 1, np.int64)
    for gid, tiled_gid, _ in gid_variants(tiled):
        if gid:
            raw[gid] = tiled_gid & GID_MASK
    return {layer.name: raw[np.asarray(layer.data, np.int64)] for layer in tiled.layers
            if isinstance(layer, pytmx.TiledTileLayer)}


def walls(board: object) -> list[list[int]]:
    return np.argwhere(board.blocked).tolist()  # type: ignore[attr-defined]


# -- collision layer names --------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["walls", "Collisions", "COLLISION", "Walls level 2", "CollisionLayer", "wall_layer",
                                  "Obstacles", "solid", "blocked", "Mauern", "murs", "paredes", "стены", "碰撞"])
def test_collision_named_tile_layers_are_walls(tmp_path: Path, name: str) -> None:
    """M1, R4: every tile on a layer named for collision is a wall (blocked and opaque)."""
    path = tmx(tmp_path, layer("floor", full()) + layer(name, [[0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]))
    board = load_map(path)[0]
    assert walls(board) == [[0, 1], [2, 3]] and board.opaque[0, 1] and board.feature_at((1, 0)) == "wall"


@pytest.mark.parametrize("name", ["Wall decor", "Grass and Water", "walls of text above", "Ground", "Top"])
def test_names_that_only_mention_a_wall_are_not_collision_layers(tmp_path: Path, name: str) -> None:
    """A layer is a collision layer only when its name is collision words and filler: 'Wall decor' is art."""
    path = tmx(tmp_path, layer("floor", full()) + layer(name, [[0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]))
    assert walls(load_map(path)[0]) == []


@real
def test_real_map_perspective_walls_walls_layers_are_walls() -> None:
    """Tiled's perspective_walls.tmx marks its walls on tile layers named Walls, Walls level 2 and 3."""
    board, problems, understood = survey_map(PERSPECTIVE)
    marked = np.zeros((32, 32), bool)
    for name, gids in layer_gids(PERSPECTIVE).items():
        assert name.startswith("Walls")
        marked |= gids != 0
    assert board is not None and (board.blocked == marked).all() and (board.opaque == marked).all()
    assert {u.origin for u in understood} == {f"tile layer {n!r} (collision layer name)"
                                              for n in ("Walls", "Walls level 2", "Walls level 3")}


# -- tile properties and classes --------------------------------------------------------------------
TILE_DATA = ('<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="8" columns="0">'
             '<tile id="1"><properties><property name="collides" type="bool" value="true"/></properties></tile>'
             '<tile id="2"><properties><property name="block" value="1"/></properties></tile>'
             '<tile id="3"><properties><property name="solid" type="bool" value="false"/></properties></tile>'
             '<tile id="4" type="solid"/>'
             '<tile id="5" class="collision"/>'
             '<tile id="6"><properties><property name="walkable" type="bool" value="false"/></properties></tile>'
             '</tileset>')


def test_collision_tile_properties_and_classes_are_walls(tmp_path: Path) -> None:
    """Phaser's setCollisionByProperty style: collides/block true, walkable false, class solid/collision."""
    path = tmx(tmp_path, layer("ground", [[1, 2, 3, 4], [5, 6, 7, 1], [1, 1, 1, 1]]), tilesets=TILE_DATA)
    board, _, understood = survey_map(path)
    # gid = tile id + 1: collides (2), block (3), solid false (4: no), type solid (5), class collision (6),
    # walkable false (7)
    assert board is not None and walls(board) == [[0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]
    assert "walls: 1 square, tile property 'collides' (tileset 't')" in [str(u) for u in understood]
    assert "walls: 1 square, tile class 'solid' (tileset 't')" in [str(u) for u in understood]


@real
def test_real_tileset_control_tsx_block_property_makes_walls(tmp_path: Path) -> None:
    """pytmx's control.tsx (used by testtrack1.tmx) marks its three tiles `block` = 1."""
    ts = f'<tileset firstgid="1" source="{CONTROL_TSX}"/>'
    path = tmx(tmp_path, layer("ground", [[1, 2, 3, 0], [0, 0, 0, 0], [0, 0, 0, 0]]), tilesets=ts, w=4, h=3)
    board, _, understood = survey_map(path)
    assert board is not None and board.blocked[0, :3].all() and not board.blocked[1:].any()
    assert [str(u) for u in understood] == ["walls: 3 squares, tile property 'block' (tileset 'control')"]


# -- tile collision shapes ----------------------------------------------------------------------------
def shapes_tileset(objects: str) -> str:
    return ('<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="8" columns="0">'
            f'<tile id="1"><objectgroup draworder="index">{objects}</objectgroup></tile></tileset>')


@pytest.mark.parametrize(("objects", "cover", "wall"), [
    ('<object id="1" x="0" y="0" width="32" height="32"/>', "centre", True),
    ('<object id="1" x="0" y="0" width="12" height="12"/>', "centre", False),  # a corner post misses the centre
    ('<object id="1" x="0" y="0" width="20" height="32"/>', "centre", True),  # covers the centre, 62% of the square
    ('<object id="1" x="0" y="0" width="14" height="32"/>', "most", False),  # 44%: not most of it
    ('<object id="1" x="0" y="0" width="20" height="32"/>', "most", True),
    ('<object id="1" x="8" y="8" width="16" height="16"><ellipse/></object>', "centre", True),
    ('<object id="1" x="0" y="0"><polygon points="0,0 32,0 0,32"/></object>', "centre", False),  # the edge: half-open
    ('<object id="1" x="0" y="0"><polygon points="0,0 32,0 32,32 0,32"/></object>', "most", True),
])
def test_tile_collision_shapes_cover_a_square_by_the_house_switch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, objects: str, cover: str, wall: bool) -> None:
    """M11 house switch map_shape_cover: a square is a wall where the shapes cover its centre, or most of it."""
    rules = load_rules().with_overrides({"map_shape_cover": cover})
    monkeypatch.setattr(conv, "load_rules", lambda: rules)
    path = tmx(tmp_path, layer("ground", [[2, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 2]]), tilesets=shapes_tileset(objects))
    assert walls(load_map(path)[0]) == ([[0, 0], [2, 3]] if wall else [])


def test_a_tall_tiles_shapes_fall_on_the_squares_it_is_drawn_over(tmp_path: Path) -> None:
    """A 32x64 tile hangs from its square's bottom-left, so its upper half's shape falls on the square above."""
    ts = ('<tileset firstgid="1" name="tall" tilewidth="32" tileheight="64" tilecount="1" columns="0">'
          '<tile id="0"><objectgroup><object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>'
          '</tileset>')
    path = tmx(tmp_path, layer("ground", [[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]]), tilesets=ts)
    assert walls(load_map(path)[0]) == [[0, 1]]


@real
def test_real_map_acid0_tile_shapes_are_walls() -> None:
    """pytmx's acid0.tmx: tile 2 of ACID2 (gid 9) carries collision shapes over its centre."""
    board, _, understood = survey_map(ACID)
    marked = np.zeros((10, 10), bool)
    for gids in layer_gids(ACID).values():
        marked |= gids == 9
    assert marked.any() and board is not None and (board.blocked == marked).all()
    assert [u.origin for u in understood] == ["tile collision shapes (tileset 'ACID2')"]


# -- shapes on collision object layers -----------------------------------------------------------------
def test_shapes_on_a_collision_object_layer_are_walls(tmp_path: Path) -> None:
    """Rectangles, ellipses, polygons: squares whose centre they cover; a polyline is a thin wall
    between squares (issue 29, tests/test_tiled_walls.py), blocking no square of its own (M1)."""
    objs = ('<objectgroup name="Collision">'
            '<object id="1" x="0" y="0" width="64" height="32"/>'  # squares (0,0), (1,0)
            '<object id="2" x="96" y="32" width="32" height="32"><ellipse/></object>'  # (3,1)
            '<object id="3" x="0" y="64"><polygon points="0,0 32,0 32,32 0,32"/></object>'  # (0,2)
            '<object id="4" x="40" y="80"><polyline points="0,0 48,0"/></object>'  # a wall, no squares
            '<object id="5" x="100" y="90"><point/></object>'  # no area: nothing
            '</objectgroup>')
    path = tmx(tmp_path, layer("floor", full()) + objs)
    board, _, understood = survey_map(path)
    assert board is not None and walls(board) == [[0, 0], [0, 1], [1, 3], [2, 0]]
    assert board.walls == ((1.25, 2.5, 2.75, 2.5),)  # through the middle of (1, 2) and (2, 2), in squares
    assert [str(u) for u in understood] == ["walls: 4 squares, object layer 'Collision' (collision layer name)",
                                            "1 wall segment on object layer 'Collision' (collision layer name)"]


@real
def test_real_map_objects_on_a_layer_renamed_walls_are_walls(tmp_path: Path) -> None:
    """Tiled's mapobject.tmx test map, its object layer renamed 'walls' in a temporary copy: every
    rectangle, ellipse and polygon of it makes walls where it covers a square's centre."""
    root = ET.parse(MAPOBJECT).getroot()
    objects = root.find("objectgroup")
    assert objects is not None
    objects.set("name", "walls")
    copy = tmp_path / "mapobject.tmx"
    ET.ElementTree(root).write(copy)
    for ts in root.findall("tileset"):
        if ts.get("source"):
            shutil.copy(MAPOBJECT.parent / ts.get("source", ""), tmp_path)
    board = load_map(copy)[0]
    rects = [o for o in objects.findall("object") if len(o) == 0 and float(o.get("width", "0")) > 0]
    assert rects
    tw, th = int(root.get("tilewidth", "0")), int(root.get("tileheight", "0"))
    for o in rects:  # each plain rectangle's centre square is a wall
        cx = (float(o.get("x", "0")) + float(o.get("width", "0")) / 2) // tw
        cy = (float(o.get("y", "0")) + float(o.get("height", "0")) / 2) // th
        if 0 <= cx < board.width and 0 <= cy < board.height and not o.get("rotation"):
            assert board.blocked[int(cy), int(cx)]
    assert not load_map(MAPOBJECT)[0].blocked.any()  # as the author left it, the layer is art


# -- terrain names -------------------------------------------------------------------------------------
def test_water_lava_and_mud_names_make_pits_and_difficult_ground(tmp_path: Path) -> None:
    """M5, M4 house switch map_terrain_names: deep water and lava are pits, mud is difficult."""
    ts = ('<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="8" columns="0">'
          '<tile id="2" class="Mud"/><tile id="3" type="deep water"/></tileset>')
    body = (layer("ground", [[1, 3, 4, 1], [1, 1, 1, 1], [1, 1, 1, 1]])
            + layer("Lava", [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]])
            + '<objectgroup name="Deep Water"><object id="1" x="64" y="64" width="32" height="32"/></objectgroup>')
    board, _, understood = survey_map(tmx(tmp_path, body, tilesets=ts))
    assert board is not None
    assert np.argwhere(board.difficult).tolist() == [[0, 1]]
    assert np.argwhere(board.pit).tolist() == [[0, 2], [1, 1], [2, 2]]
    assert board.feature_at((1, 1)) == "lava" and not board.blocked.any()
    assert "pit: 1 square, tile layer 'Lava' (layer name 'lava' -> pit)" in [str(u) for u in understood]


@real
def test_real_map_formosa_grass_and_water_layer_is_no_water_layer() -> None:
    """pytmx's formosa map has a layer 'Grass and Water': a mixed name, so nothing is read from it."""
    board, _, understood = survey_map(FORMOSA)
    assert board is not None and not board.pit.any() and understood == []


# -- void ---------------------------------------------------------------------------------------------
def test_untiled_squares_of_a_tiled_map_are_void(tmp_path: Path) -> None:
    """Never entered, never seen through: blocked and opaque, named void."""
    rows = full()
    rows[1][2] = 0
    board, _, understood = survey_map(tmx(tmp_path, layer("g", rows)))
    assert board is not None and walls(board) == [[1, 2]] and board.opaque[1, 2]
    assert board.feature_at((2, 1)) == "void" and [u.terrain for u in understood] == ["void"]


def test_no_void_on_a_map_mostly_untiled_or_drawn_over_a_picture(tmp_path: Path) -> None:
    sparse = [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    assert walls(load_map(tmx(tmp_path, layer("g", sparse)))[0]) == []
    rows = full()
    rows[0][0] = 0
    picture = '<imagelayer name="art"><image source="none.png" width="128" height="96"/></imagelayer>'
    assert walls(load_map(tmx(tmp_path, picture + layer("g", rows), name="p.tmx"))[0]) == []


@real
def test_real_map_mapbig_untiled_squares_are_void() -> None:
    board, _, understood = survey_map(MAPBIG)
    tiled = np.zeros((50, 100), bool)
    for gids in layer_gids(MAPBIG).values():
        tiled |= gids != 0
    assert board is not None and (~tiled).sum() == 294 and (board.blocked == ~tiled).all()
    assert [u.terrain for u in understood] == ["void"]


# -- battlemat's own terrain wins ------------------------------------------------------------------------
def test_battlemats_own_classes_and_terrain_layer_win_over_a_convention(tmp_path: Path) -> None:
    ts = ('<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="8" columns="0">'
          '<tile id="1" class="floor"/><tile id="2" class="rubble"/></tileset>')
    body = (layer("ground", full(gid=1)) + layer("walls", [[2, 3, 3, 0], [0, 0, 0, 0], [0, 0, 0, 3]])
            + '<objectgroup name="terrain"><object id="1" x="96" y="64" width="32" height="32" type="floor"/>'
              '</objectgroup>')
    board = load_map(tmx(tmp_path, body, tilesets=ts))[0]
    # (0,0): the floor class under the 'walls' layer's plain tile: battlemat's own terrain, not a wall
    assert walls(board) == [] and board.difficult[0, 1]


def test_bundled_maps_get_nothing_from_the_conventions() -> None:
    """The bundled maps speak battlemat's own terms everywhere: their boards are as before."""
    for path in sorted((ROOT / "maps").glob("*.tmx")):
        board, problems, understood = survey_map(path)
        assert board is not None and understood and {u.origin for u in understood} == {OWN_TERRAIN}, path


# -- the measurement over real maps that mark walls ----------------------------------------------------
def marked_walls(path: Path) -> np.ndarray:
    """Squares the author marked as walls, read straight from the XML: tiles on layers named Walls*
    (perspective_walls) and tiles whose collision shape covers the centre (acid0: gid 9)."""
    layers = layer_gids(path)
    out = np.zeros(next(iter(layers.values())).shape, bool)
    for name, gids in layers.items():
        if name.lower().startswith("walls"):
            out |= gids != 0
        elif path == ACID:
            out |= gids == 9
    return out


@real
@pytest.mark.parametrize("path", [PERSPECTIVE, ACID], ids=lambda p: p.name)
def test_marked_walls_are_walls_on_the_board(path: Path) -> None:
    """At least 95% of the squares an author marked are walls, and at most 5% of the walls are unmarked."""
    board = load_map(path)[0]
    marked = marked_walls(path)
    assert marked.sum() > 0
    assert (board.blocked & marked).sum() >= 0.95 * marked.sum()
    assert (board.blocked & ~marked).sum() <= 0.05 * board.blocked.sum()


# -- the game master's mapping ---------------------------------------------------------------------------
SEWERS_MAPPING = """# sewers.tmx by Tiled's authors: its walls and sewage are only in its art
[tiles.sewer_tileset]
"0-2" = "wall"     # the black tops of walls
"8-23" = "wall"    # brick wall faces and their tops
"27" = "water"     # the sewage channels: deep (a pit, jumped, M5)
"""


def sewers_copy(tmp: Path) -> Path:
    shutil.copy(SEWERS, tmp / "sewers.tmx")
    shutil.copy(SEWERS.parent / "sewer_tileset.png", tmp / "sewer_tileset.png")
    return tmp / "sewers.tmx"


@real
def test_check_warns_on_sewers_and_a_mapping_beside_it_fixes_it(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = sewers_copy(tmp_path)
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr().out
    assert "WARNING: this map marks no walls, no pits and no difficult ground" in out and "sewers.terrain.toml" in out
    (tmp_path / "sewers.terrain.toml").write_text(SEWERS_MAPPING)
    board, _, understood = survey_map(path)
    assert board is not None and board.blocked.any()
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "walls:" in out and "sewers.terrain.toml: tiles 8-23 of 'sewer_tileset' -> wall" in out


def test_a_mapping_by_layer_class_and_property_and_it_beats_a_convention(tmp_path: Path) -> None:
    ts = ('<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="8" columns="0">'
          '<tile id="2" class="goo"/><tile id="3"><properties><property name="hot" type="bool" value="true"/>'
          '</properties></tile></tileset>')
    body = (layer("ground", [[1, 3, 4, 1], [1, 1, 1, 1], [1, 1, 1, 1]])
            + layer("Walls", [[0] * 4, [2, 2, 0, 0], [0] * 4]))
    path = tmx(tmp_path, body + layer("Ruins", [[0] * 4, [0] * 4, [0, 0, 0, 2]]), tilesets=ts)
    (tmp_path / "m.terrain.toml").write_text(
        '[classes]\ngoo = "rubble"\n[properties]\nhot = "pit"\n[layers]\nRuins = "wall"\nWalls = "floor"\n')
    board = load_map(path)[0]
    assert walls(board) == [[2, 3]] and np.argwhere(board.pit).tolist() == [[0, 2]]
    assert board.difficult[0, 1] and not board.blocked[1, 0]  # the mapping said the 'Walls' layer is floor


def test_an_encounters_terrain_table_maps_its_map(tmp_path: Path) -> None:
    from battlemat.io.encounter import load_encounter

    path = tmx(tmp_path, layer("ground", [[1, 2, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]))
    enc = tmp_path / "e.toml"
    enc.write_text(f'[encounter]\nmap = "{path.name}"\n[terrain.tiles.t]\n"1" = "wall"\n'
                   '[[character]]\nid = "a"\nside = "x"\nskills = { Melee = 3 }\nat = [0, 0]\n')
    assert load_encounter(enc).board.blocked.tolist()[0] == [False, True, False, False]


@pytest.mark.parametrize(("text", "place", "fix"), [
    ('[tiles.sewer]\n"1" = "wall"\n', "tiles.sewer", "use one of: t"),
    ('[tiles.t]\n"1" = "wal"\n', "tiles.t.'1'", "did you mean 'wall'?"),
    ('[tiles.t]\n"x-2" = "wall"\n', "tiles.t.'x-2'", 'a range of ids ("17-23")'),
    ('[layer]\nground = "wall"\n', "layer", "did you mean 'layers'?"),
    ('[layers]\ngrund = "wall"\n', "layers.grund", "did you mean 'ground'?"),
    ('[layers\n', "", "fix the syntax"),
])
def test_a_bad_mapping_names_file_place_and_fix_and_check_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, place: str, fix: str) -> None:
    path = tmx(tmp_path, layer("ground", full()))
    mapping = tmp_path / "m.terrain.toml"
    mapping.write_text(text)
    with pytest.raises(LoadError) as exc:
        load_map(path)
    assert str(mapping) in str(exc.value) and fix in str(exc.value)
    assert any(p.place == place for p in exc.value.problems)
    assert main(["check", str(path)]) == 2
    assert fix in capsys.readouterr().out


# -- check says what it understood, and draws it ---------------------------------------------------------
@real
def test_check_lists_the_understood_terrain_with_counts_and_origins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(PERSPECTIVE)]) == 0
    out = capsys.readouterr().out
    assert "terrain: walls: 77 squares, tile layer 'Walls' (collision layer name)" in out
    assert out.strip().endswith(f"ok: {PERSPECTIVE}")


def test_a_map_that_says_it_is_open_ground_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    props = '<properties><property name="open_ground" type="bool" value="true"/></properties>'
    path = tmx(tmp_path, props + layer("ground", full()))
    assert main(["check", str(path)]) == 0
    path = tmx(tmp_path, layer("ground", full()), name="n.tmx")
    assert main(["check", str(path)]) == 2
    assert "WARNING" in capsys.readouterr().out


@real
def test_check_picture_draws_the_understood_terrain_over_the_map(tmp_path: Path) -> None:
    import matplotlib.image as mpimg

    out = tmp_path / "acid.png"
    assert main(["check", str(ACID), "--picture", str(out)]) == 0
    image = mpimg.imread(out)
    reds = (image[..., 0] > 0.6) & (image[..., 1] < 0.35) & (image[..., 2] < 0.35)
    assert image.shape[0] > 100 and reds.sum() > 100  # the walls' red over the map, and the legend's patch


@real
def test_the_tiled_native_fix_battlemat_classes_on_the_sewers_tiles(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The four clicks of the README leave what Tiled writes: the tiles get battlemat's class `wall`
    (Tiled 1.9+ writes class=, older versions type=); check then passes without the warning."""
    path = sewers_copy(tmp_path)
    root = ET.parse(path).getroot()
    tileset = root.find("tileset")
    assert tileset is not None
    for i in range(8, 24):
        ET.SubElement(tileset, "tile", id=str(i), **{"class": "wall"})
    ET.ElementTree(root).write(path)
    board = load_map(path)[0]
    gids = layer_gids(path)
    marked = np.zeros(board.blocked.shape, bool)
    for g in gids.values():
        marked |= (g >= 9) & (g <= 24)
    assert marked.any() and (board.blocked == marked).all()
    assert main(["check", str(path)]) == 0
    assert "WARNING" not in capsys.readouterr().out


def test_unreadable_tile_shapes_and_wild_polylines_mark_nothing_and_never_crash(tmp_path: Path) -> None:
    """Bad input never crashes: a tile shape with unreadable points covers nothing; a polyline far
    off the map marks no square and makes no wall (walls are cut to the map, a square beyond its edges)."""
    ts = shapes_tileset('<object id="1" x="0" y="0"><polygon points="a,b 3,4 5,6"/></object>'
                        '<object id="2" x="nan" y="0" width="32" height="32"/>')
    objs = ('<objectgroup name="walls"><object id="1" x="0" y="0">'
            '<polyline points="-1e12,-1e12 1e12,-1e12 1e12,1e12"/></object></objectgroup>')
    board = load_map(tmx(tmp_path, layer("ground", [[2, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]) + objs,
                         tilesets=ts))[0]
    assert walls(board) == [] and board.walls == ()


def test_an_encounters_rules_set_the_map_switches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """M11: [rules] map_shape_cover = "most" in the encounter reads its map's shapes that way; check too."""
    from battlemat.io.encounter import load_encounter

    # a 12-pixel strip down the middle of square (0, 0): over its centre, but not over most of it
    objs = '<objectgroup name="walls"><object id="1" x="10" y="0" width="12" height="32"/></objectgroup>'
    tmx(tmp_path, layer("ground", full()) + objs)
    enc = tmp_path / "e.toml"
    body = ('[encounter]\nmap = "m.tmx"\n{rules}[[character]]\nid = "a"\nside = "x"\nskills = {{ Melee = 3 }}\n'
            'at = [3, 2]\n')
    enc.write_text(body.format(rules=""))
    assert load_encounter(enc).board.blocked[0, 0]  # the default, centre
    enc.write_text(body.format(rules='[rules]\nmap_shape_cover = "most"\n'))
    assert not load_encounter(enc).board.blocked[0, 0]
    assert main(["check", str(enc)]) == 2  # with "most" the map marks nothing: check warns
    assert "WARNING" in capsys.readouterr().out


def test_check_picture_of_an_encounter_draws_its_map_with_its_terrain_table(tmp_path: Path) -> None:
    path = tmx(tmp_path, layer("ground", [[1, 2, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]))
    enc = tmp_path / "e.toml"
    enc.write_text(f'[encounter]\nmap = "{path.name}"\n[terrain.tiles.t]\n"1" = "wall"\n'
                   '[[character]]\nid = "a"\nside = "x"\nskills = { Melee = 3 }\nat = [0, 0]\n')
    out = tmp_path / "e.png"
    assert main(["check", str(enc), "--picture", str(out)]) == 0 and out.is_file()
    bare = tmp_path / "bare.toml"
    bare.write_text('[encounter]\ntitle = "no map"\n[[character]]\nid = "a"\nside = "x"\nskills = { Melee = 3 }\n')
    assert main(["check", str(bare), "--picture", str(tmp_path / "b.png")]) == 2
