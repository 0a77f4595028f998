"""Tiled maps to boards (DESIGN: files people edit): terrain by rule, tokens, hex grids, safe loading.

Each test writes a tiny map, loads it with battlemat.io.tiled and checks the terrain arrays that the
rules read: blocked/pit (M5), difficult and difficult_dirs (M4), level (M12), opaque and cover (R4),
hazard and harm (E1).
"""

from __future__ import annotations

import base64
import gzip
import json
import struct
import subprocess
import sys
import textwrap
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from battlemat.core.board import DIRECTIONS, Board, Hazard, directions_text, parse_directions, transform_directions
from battlemat.io.encounter import load_encounter
from battlemat.io.errors import LoadError
from battlemat.io.tiled import PRESETS, TERRAIN_NAMES, lint_map, load_board, load_map, read_tiled

FLIP_X, FLIP_Y, FLIP_D = 0x80000000, 0x40000000, 0x20000000


# -- writing small maps ------------------------------------------------------------------------------
def prop(name: str, value: object, kind: str | None = None) -> str:
    if kind is None:
        kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "string"
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return f'<property name="{name}" type="{kind}" value="{text}"/>'


def tile(tid: int, cls: str = "", attr: str = "type", **props: object) -> str:
    head = f'<tile id="{tid}"' + (f' {attr}="{cls}"' if cls else "")
    if not props:
        return head + "/>"
    return head + "><properties>" + "".join(prop(k, v) for k, v in props.items()) + "</properties></tile>"


def tileset(*tiles: str, name: str = "t", image: str | None = None) -> str:
    img = f'<image source="{image}" width="64" height="32"/>' if image else ""
    return (f'<tileset firstgid="1" name="{name}" tilewidth="32" tileheight="32" tilecount="8" columns="0">'
            f'{img}{"".join(tiles)}</tileset>')


def csv(rows: list[list[int]]) -> str:
    return ",\n".join(",".join(str(g) for g in row) for row in rows)


def layer(name: str, rows: list[list[int]]) -> str:
    h, w = len(rows), len(rows[0])
    return f'<layer name="{name}" width="{w}" height="{h}"><data encoding="csv">\n{csv(rows)}\n</data></layer>'


def objects(name: str, *objs: str) -> str:
    return f'<objectgroup name="{name}">{"".join(objs)}</objectgroup>'


@dataclass(frozen=True)
class Area:
    """Where an object is, in pixels: x, y of its top-left corner (a tile object's bottom-left) and its
    width and height (both 0: a point, or a shape given by its points)."""

    x: float = 0
    y: float = 0
    w: float = 0
    h: float = 0


ORIGIN = Area()


def obj(oid: int, name: str = "", area: Area = ORIGIN, cls: str = "", shape: str = "", extra: str = "",
        **props: object) -> str:
    head = f'<object id="{oid}" name="{name}"' + (f' type="{cls}"' if cls else "")
    x, y, w, h = area.x, area.y, area.w, area.h
    head += f' x="{x}" y="{y}"' + (f' width="{w}" height="{h}"' if w or h else "") + extra + ">"
    body = ("<properties>" + "".join(prop(k, v) for k, v in props.items()) + "</properties>") if props else ""
    return head + body + shape + "</object>"


def write_map(tmp: Path, *parts: str, width: int = 4, height: int = 3, head: str = 'orientation="orthogonal"',
              name: str = "m.tmx", tile_size: tuple[int, int] = (32, 32)) -> Path:
    path = tmp / name
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.8" {head} renderorder="right-down" width="{width}" height="{height}" '
        f'tilewidth="{tile_size[0]}" tileheight="{tile_size[1]}" infinite="0">\n' + "\n".join(parts) + "\n</map>\n"
    )
    return path


def grid(width: int, height: int, fill: int = 0, **cells: int) -> list[list[int]]:
    """A layer's gids; cells given as x_y=gid."""
    rows = [[fill] * width for _ in range(height)]
    for key, gid in cells.items():
        x, y = (int(v) for v in key.lstrip("_").split("_"))
        rows[y][x] = gid
    return rows


def png(path: Path, w: int = 64, h: int = 32) -> None:
    raw = b"".join(b"\x00" + b"\x80\x80\x80\xff" * w for _ in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def problems_of(exc: pytest.ExceptionInfo[LoadError]) -> str:
    return str(exc.value)


# -- terrain over layers --------------------------------------------------------------------------------
def test_M4_M5_R4_any_layers_blocked_difficult_pit_opaque_win(tmp_path: Path) -> None:
    ts = tileset(tile(0, "floor"), tile(1, "wall"), tile(2, "rubble"), tile(3, "pit"), tile(4, "", cover=1))
    bottom = grid(4, 3, 1, _0_0=2, _1_1=3, _2_1=4, _3_2=3)
    top = grid(4, 3, 1, _0_0=5, _3_2=5)  # floor everywhere, cover at two squares
    b = load_board(write_map(tmp_path, ts, layer("ground", bottom), layer("top", top)))
    assert b.blocked[0, 0] and b.opaque[0, 0]  # wall under floor stays a wall
    assert b.difficult[1, 1] and not b.blocked[1, 1]  # rubble (M4)
    assert b.pit[1, 2] and not b.enterable((2, 1))  # pit: never entered (M5)
    assert b.difficult[2, 3] and b.cover[2, 3] == 1  # rubble below, cover above (R4)
    assert b.cover[0, 0] == 1
    assert b.feature_at((1, 1)) == "floor" and b.feature_at((0, 0)) == "wall"  # the top named tile
    assert int(b.blocked.sum()) == 1 and int(b.difficult.sum()) == 2 and int(b.pit.sum()) == 1


def test_M12_top_layer_that_sets_a_level_wins(tmp_path: Path) -> None:
    ts = tileset(tile(0, "", level=1), tile(1, "", level=3), tile(2, "floor"))
    low = grid(4, 3, 1, _0_0=2, _1_0=2)
    high = grid(4, 3, 0, _0_0=1, _1_0=3, _3_0=2)  # a lower level on top still wins; a levelless tile keeps
    b = load_board(write_map(tmp_path, ts, layer("low", low), layer("high", high)))
    assert b.level[0].tolist() == [1, 3, 1, 3]
    assert b.level[1].tolist() == [1, 1, 1, 1]


def test_M4_difficult_dirs_read_and_used_for_entering(tmp_path: Path) -> None:
    ts = tileset(tile(0, "floor"), tile(1, "", difficult_dirs="N,NE"))
    b = load_board(write_map(tmp_path, ts, layer("g", grid(4, 3, 1, _1_1=2))))
    assert int(b.difficult_dirs[1, 1]) == DIRECTIONS["N"] | DIRECTIONS["NE"]
    assert b.difficult_entering((1, 2), (1, 1))  # moving north into it: difficult (M4)
    assert b.difficult_entering((0, 2), (1, 1))  # north-east
    assert not b.difficult_entering((1, 0), (1, 1))  # going down the stairs: normal


def test_M4_stairs_turned_in_tiled_turn_their_direction(tmp_path: Path) -> None:
    ts = tileset(tile(0, "stairs"))  # preset: rising north
    cw = 1 | FLIP_D | FLIP_X  # Tiled's "rotate 90 degrees clockwise"
    rows = grid(4, 3, 0, _0_0=1, _1_0=cw, _2_0=1 | FLIP_Y, _3_0=1 | FLIP_D | FLIP_Y)
    b = load_board(write_map(tmp_path, ts, layer("g", rows)))
    assert [directions_text(int(v)) for v in b.difficult_dirs[0]] == ["N", "E", "S", "W"]


def test_presets_give_defaults_and_properties_override_them(tmp_path: Path) -> None:
    ts = tileset(tile(0, "wall"), tile(1, "wall", blocked=False), tile(2, "Statue"),
                 tile(3, "stairs", difficult_dirs="W"),
                 tile(4, "balcony", attr="class"))
    b = load_board(write_map(tmp_path, ts, layer("g", grid(4, 3, 0, _0_0=1, _1_0=2, _2_0=3, _3_0=4, _0_1=5))))
    assert b.blocked[0, 0] and b.opaque[0, 0]
    assert not b.blocked[0, 1] and b.opaque[0, 1]  # a wall you can walk through but not see through
    assert b.blocked[0, 2] and b.opaque[0, 2] and b.cover[0, 2] == 2  # class names in any case
    assert directions_text(int(b.difficult_dirs[0, 3])) == "W"
    assert b.level[1, 0] == 1  # Tiled 1.9's `class` attribute is read like 1.8's `type`


def test_R4_E1_opaque_cover_and_hazard(tmp_path: Path) -> None:
    ts = tileset(tile(0, "", opaque=True), tile(1, "", cover=2),
                 tile(2, "", hazard="Block/Dodge 4 or Perception 3", harm=2), tile(3, "trap"))
    b = load_board(write_map(tmp_path, ts, layer("g", grid(4, 3, 0, _0_0=1, _1_0=2, _2_0=3, _3_0=4))))
    assert b.opaque[0, 0] and b.cover[0, 1] == 2
    hz = b.hazard_at((2, 0))
    assert hz == Hazard("Block/Dodge 4 or Perception 3", (("Block/Dodge", 4), ("Perception", 3)), 2)
    # the trap preset is the same requirement on a floor trap, a mechanical one (O2): stored apart
    assert b.hazard_at((3, 0)) == Hazard(hz.text, hz.requirements, 2, mechanical=True)
    assert len(b.hazards) == 2 and b.hazard_at((0, 1)) is None


@pytest.mark.parametrize("props, words", [
    ({"hazard": "Swordplay 3", "harm": 1}, "unknown skill"),
    ({"hazard": "Perception three", "harm": 1}, "is not 'Skill rating'"),
    ({"hazard": "Perception 3", "harm": 0}, "harm"),
    ({"cover": 3}, "cover"),
    ({"level": "high"}, "whole number"),
    ({"difficult_dirs": "N,UP"}, "'UP' is not a direction"),
    ({"blocked": "maybe"}, "true or false"),
])
def test_bad_terrain_values_are_load_errors(tmp_path: Path, props: dict[str, object], words: str) -> None:
    ts = tileset(tile(0, "", **props))
    path = write_map(tmp_path, ts, layer("g", grid(4, 3, 1)))
    with pytest.raises(LoadError) as exc:
        load_board(path)
    text = problems_of(exc)
    assert words in text and "tileset 't' tile 0" in text and "Fix:" in text


# -- the terrain object layer --------------------------------------------------------------------------
def test_terrain_objects_override_tiles(tmp_path: Path) -> None:
    ts = tileset(tile(0, "wall"), tile(1, "floor"))
    rows = grid(6, 4, 2, _0_0=1, _1_0=1, _2_0=1)
    terrain = objects(
        "terrain",
        obj(1, "breach", Area(0, 0, 64, 32), blocked=False, opaque=False),  # opens two wall squares
        obj(2, "dais", Area(96, 32, 64, 64), level=2),
        obj(3, "chasm", Area(0, 64, 32, 32), cls="chasm"),
        obj(4, "later wins", Area(96, 32, 32, 32), level=1),
    )
    b = load_board(write_map(tmp_path, ts, layer("g", rows), terrain, width=6, height=4))
    assert b.blocked[0].tolist() == [False, False, True, False, False, False]
    assert not b.opaque[0, 0] and b.opaque[0, 2]
    assert b.level[1:3, 3:5].tolist() == [[1, 2], [2, 2]]  # objects apply in document order (M12)
    assert b.pit[2, 0] and b.feature_at((0, 2)) == "chasm"  # class preset on an object (M5)


def test_terrain_object_shapes_cover_the_squares_whose_centres_they_hold(tmp_path: Path) -> None:
    ts = tileset(tile(0, "floor"))
    terrain = objects(
        "terrain",
        obj(1, "ellipse", Area(8, 8, 80, 80), shape="<ellipse/>", difficult=True),  # a circle of radius 40
        obj(2, "triangle", Area(128, 0), shape='<polygon points="0,0 96,0 0,96"/>', cover=1),
        obj(3, "rotated", Area(224, 0, 96, 32), extra=' rotation="90"', pit=True),  # turns down-left, over x=6
        obj(4, "point", Area(40, 100), shape="<point/>", level=1),
    )
    b = load_board(write_map(tmp_path, ts, layer("g", grid(8, 4, 1)), terrain, width=8, height=4))
    assert b.difficult[:3, :3].astype(int).tolist() == [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
    assert b.cover[0, 4:7].tolist() == [1, 1, 0] and b.cover[1, 4:6].tolist() == [1, 0]
    assert b.pit[:, 6].tolist() == [True, True, True, False] and not b.pit[:, 7].any()
    assert b.level[3, 1] == 1 and int(b.level.sum()) == 1


def test_tile_objects_in_the_terrain_layer_bring_their_tile_terrain(tmp_path: Path) -> None:
    ts = tileset(tile(0, "floor"), tile(1, "statue"))
    terrain = objects("terrain", obj(1, "", Area(32, 64, 32, 32), extra=' gid="2"'))  # hangs from its bottom-left
    b = load_board(write_map(tmp_path, ts, layer("g", grid(4, 3, 1)), terrain))
    assert b.blocked[1, 1] and b.opaque[1, 1] and int(b.blocked.sum()) == 1


# -- tokens ---------------------------------------------------------------------------------------------
def test_tokens_place_characters_by_object_name(tmp_path: Path) -> None:
    ts = tileset(tile(0, "floor"), tile(1, "floor"))
    toks = objects(
        "tokens",
        obj(1, "kwirt", Area(36, 4, 24, 24), shape="<ellipse/>"),
        obj(2, "lizard", Area(100, 80), shape="<point/>"),
        obj(3, "tile_token", Area(0, 96, 32, 32), extra=' gid="2"'),  # tile objects hang from their bottom-left
        obj(4, "", Area(10, 10, 5, 5)),  # nameless: nobody (check reports it)
    )
    b = load_board(write_map(tmp_path, ts, layer("g", grid(4, 3, 1)), toks))
    assert dict(b.tokens) == {"kwirt": (1, 0), "lizard": (3, 2), "tile_token": (0, 2)}


@pytest.mark.parametrize("objs, words", [
    ((obj(1, "kwirt", Area(200, 10, 10, 10)),), "token 'kwirt' is off the map"),
    ((obj(1, "kwirt", Area(10, 10, 10, 10)), obj(2, "kwirt", Area(40, 10, 10, 10))), "a second token named 'kwirt'"),
])
def test_broken_tokens_are_load_errors(tmp_path: Path, objs: tuple[str, ...], words: str) -> None:
    path = write_map(tmp_path, tileset(tile(0, "floor")), layer("g", grid(4, 3, 1)), objects("tokens", *objs))
    with pytest.raises(LoadError) as exc:
        load_board(path)
    assert words in problems_of(exc) and "layer 'tokens' object" in problems_of(exc)


def test_tokens_from_object_templates(tmp_path: Path) -> None:
    (tmp_path / "token.tx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<template><object name="guard" width="24" height="24">'
        "<ellipse/></object></template>\n")
    toks = objects("tokens", '<object id="1" template="token.tx" x="68" y="36"/>',
                   '<object id="2" template="token.tx" name="captain" x="4" y="68"/>')
    b = load_board(write_map(tmp_path, tileset(tile(0, "floor")), layer("g", grid(4, 3, 1)), toks))
    assert dict(b.tokens) == {"guard": (2, 1), "captain": (0, 2)}


# -- hex grids ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("axis, index, step, shift", [
    ("y", "odd", (32, 27), (16, 0)),  # staggered rows sit half a tile right; rows 27 px apart
    ("y", "even", (32, 27), (-16, 0)),
    ("x", "odd", (25, 36), (0, 18)),  # staggered columns sit half a tile lower; columns 25 px apart
    ("x", "even", (25, 36), (0, -18)),
])
def test_M11_hex_stagger_is_read_and_places_tokens(tmp_path: Path, axis: str, index: str,
                                                   step: tuple[int, int], shift: tuple[int, int]) -> None:
    head = f'orientation="hexagonal" hexsidelength="18" staggeraxis="{axis}" staggerindex="{index}"'
    squares = [(0, 0), (1, 1), (4, 3), (3, 2), (2, 1)]
    geometry = Board.empty(5, 4, "hex", stagger_axis=axis, stagger_index=index, tile_width=32, tile_height=36,
                           hex_side_length=18)
    cx, cy = geometry.centers()
    toks = objects("tokens", *(obj(i + 1, f"c{i}", Area(float(cx[y, x]) + 3, float(cy[y, x]) - 3), shape="<point/>")
                               for i, (x, y) in enumerate(squares)))
    b = load_board(write_map(tmp_path, tileset(tile(0, "floor")), layer("g", grid(5, 4, 1)), toks, width=5, height=4,
                             head=head, tile_size=(32, 36)))
    assert (b.grid, b.stagger_axis, b.stagger_index, b.hex_side_length) == ("hex", axis, index, 18)
    assert dict(b.tokens) == {f"c{i}": sq for i, sq in enumerate(squares)}
    cx, cy = b.centers()
    if axis == "y":
        assert (cx[0, 2] - cx[0, 0], cy[2, 0] - cy[0, 0]) == (2 * step[0], 2 * step[1])
        assert cx[1, 0] - cx[0, 0] == shift[0]
    else:
        assert (cx[0, 2] - cx[0, 0], cy[2, 0] - cy[0, 0]) == (2 * step[0], 2 * step[1])
        assert cy[0, 1] - cy[0, 0] == shift[1]


def test_M4_hex_directions_follow_the_hex_neighbours() -> None:
    pointy = Board.empty(4, 4, "hex", stagger_axis="y", stagger_index="odd", tile_width=32, tile_height=36,
                         hex_side_length=18)
    assert [pointy.direction((1, 1), n) for n in [(2, 1), (2, 0), (1, 0), (0, 1), (1, 2), (2, 2)]] == \
        ["E", "NE", "NW", "W", "SW", "SE"]
    flat = Board.empty(4, 4, "hex", stagger_axis="x", stagger_index="odd", tile_width=36, tile_height=32,
                       hex_side_length=18)
    assert [flat.direction((1, 1), n) for n in [(1, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]] == \
        ["N", "NE", "SE", "S", "SW", "NW"]


HEX_120 = 0x10000000  # Tiled's own flag on hexagonal maps: the tile turned 120 degrees


@pytest.mark.parametrize("axis, base, turned", [
    # pointy tops (rows staggered): the six neighbours clockwise are NE E SE SW W NW
    ("y", "E", ["E", "SE", "SW", "W", "W", "NW"]),
    # flat tops (columns staggered): N NE SE S SW NW
    ("x", "N", ["N", "NE", "SE", "S", "S", "SW"]),
])
def test_M4_hex_tiles_turned_in_tiled_turn_their_directions(tmp_path: Path, axis: str, base: str,
                                                            turned: list[str]) -> None:
    """On hex maps Tiled's diagonal flag turns a tile 60 degrees and its hex flag 120, clockwise,
    after mirroring it (as Tiled draws it): a one-way slope turns with its picture (M4)."""
    head = f'orientation="hexagonal" hexsidelength="18" staggeraxis="{axis}" staggerindex="odd"'
    ts = tileset(tile(0, "", difficult_dirs=base))
    mirror = FLIP_X if axis == "y" else FLIP_Y  # the mirror that sends the base direction elsewhere
    cells = [1, 1 | FLIP_D, 1 | HEX_120, 1 | FLIP_D | HEX_120, 1 | mirror, 1 | mirror | FLIP_D]
    row = {f"_{x}_0": v for x, v in enumerate(cells)}
    b = load_board(write_map(tmp_path, ts, layer("g", grid(6, 2, 0, **row)), width=6, height=2, head=head,
                             tile_size=(32, 36) if axis == "y" else (36, 32)))
    assert [directions_text(int(v)) for v in b.difficult_dirs[0]] == turned


# -- clear errors ---------------------------------------------------------------------------------------
def expect_error(path: Path, *words: str) -> str:
    with pytest.raises(LoadError) as exc:
        load_map(path)
    text = str(exc.value)
    for w in words:
        assert w in text, text
    assert str(path) in text or any(p.file != str(path) for p in exc.value.problems)
    return text


def test_missing_tileset_is_refused(tmp_path: Path) -> None:
    path = write_map(tmp_path, '<tileset firstgid="1" source="gone.tsx"/>', layer("g", grid(4, 3, 1)))
    expect_error(path, "tileset file not found", "gone.tsx", "Fix:")


def test_missing_image_loads_the_board_but_not_the_pictures(tmp_path: Path) -> None:
    path = write_map(tmp_path, tileset(tile(0, "wall"), image="nowhere.png"), layer("g", grid(4, 3, 1)))
    assert load_board(path).blocked.all()  # terrain needs no pictures (Tiled opens it with placeholders)
    with pytest.raises(LoadError) as exc:
        read_tiled(path)  # the window's loader needs every image
    assert "tileset image not found" in str(exc.value) and "nowhere.png" in str(exc.value)
    with pytest.raises(LoadError):
        load_map(path, require_images=True)
    assert any("tileset image not found" in p.message for p in lint_map(path)[1])
    png(tmp_path / "nowhere.png")
    assert not lint_map(path)[1] and read_tiled(path).width == 4


@pytest.mark.parametrize("head, words, fix", [
    ('orientation="oblique"', "'oblique' maps are not supported", "Orientation"),
    ('orientation="staggered"', "a staggered map needs staggeraxis x or y", "Stagger Axis")])
def test_orientations_tiled_does_not_draw_are_refused(tmp_path: Path, head: str, words: str, fix: str) -> None:
    """Isometric and staggered maps play (issue 26, tests/test_projected_maps.py); an orientation Tiled
    does not have, or a staggered map without its stagger, is refused with the fix."""
    path = write_map(tmp_path, tileset(tile(0, "floor")), layer("g", grid(4, 3, 1)), head=head)
    expect_error(path, words, fix)


def test_too_big_maps_are_refused_before_decoding(tmp_path: Path) -> None:
    # 8000 x 8000 squares declared, with a few bytes of data: refused from the header alone
    data = base64.b64encode(zlib.compress(b"\0" * 64)).decode()
    path = write_map(tmp_path, tileset(tile(0, "floor")),
                     '<layer name="g" width="8000" height="8000"><data encoding="base64" compression="zlib">'
                     f"{data}</data></layer>",
                     width=8000, height=8000)
    expect_error(path, "too big", "64,000,000 cells", "Resize Map")
    small = write_map(tmp_path, tileset(tile(0, "floor")), layer("a", grid(10, 10, 1)), layer("b", grid(10, 10, 1)),
                      width=10, height=10, name="small.tmx")
    with pytest.raises(LoadError, match="too big"):
        load_map(small, max_cells=199)
    assert load_map(small, max_cells=200)[0].width == 10


def test_layer_data_that_inflates_past_the_map_is_refused(tmp_path: Path) -> None:
    data = base64.b64encode(zlib.compress(b"\0" * 4_000_000)).decode()  # 4 MB of zeros in 4 KB
    path = write_map(tmp_path, tileset(tile(0, "floor")),
                     '<layer name="g" width="4" height="3"><data encoding="base64" compression="zlib">'
                     f"{data}</data></layer>")
    expect_error(path, "inflates to more than")


def test_too_many_terrain_objects_are_refused(tmp_path: Path) -> None:
    many = objects("terrain", *(f'<object id="{i}" x="1" y="1" width="2" height="2"/>' for i in range(1, 10_002)))
    path = write_map(tmp_path, tileset(tile(0, "floor")), layer("g", grid(4, 3, 1)), many)
    expect_error(path, "10,001 objects, more than the 10,000")


def test_entity_bombs_are_refused(tmp_path: Path) -> None:
    bomb = textwrap.dedent("""\
        <?xml version="1.0"?>
        <!DOCTYPE map [
         <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
         <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
         <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
         <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
        ]>
        <map version="1.8" orientation="orthogonal" width="1" height="1" tilewidth="32" tileheight="32">
         <properties><property name="x" value="&d;"/></properties>
        </map>
        """)
    path = tmp_path / "bomb.tmx"
    path.write_text(bomb)
    expect_error(path, "declares entities", "XML bomb")
    (tmp_path / "bomb.tsx").write_text(bomb.replace("<map ", "<tileset ").replace("</map>", "</tileset>"))
    ts_path = write_map(tmp_path, '<tileset firstgid="1" source="bomb.tsx"/>', layer("g", grid(4, 3, 1)),
                        name="uses.tmx")
    text = expect_error(ts_path, "declares entities")
    assert "bomb.tsx" in text  # the tileset is read as safely as the map


def test_malformed_xml_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.tmx"
    path.write_text('<?xml version="1.0"?>\n<map width="4" height="3">\n <layer name="g">\n</map>\n')
    expect_error(path, "line 4, column", "not well-formed XML")


def test_not_a_map_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "t.tmx"
    path.write_text('<?xml version="1.0"?><tileset name="t" tilewidth="32" tileheight="32"/>')
    expect_error(path, "not a Tiled map", "a tileset")
    expect_error(tmp_path / "nothing.tmx", "map file not found")


def test_values_pytmx_cannot_convert_are_named_before_pytmx_reads_them(tmp_path: Path) -> None:
    # pytmx needs each tile id to be a number; this one is not: the message names the tile, not pytmx
    path = write_map(tmp_path, '<tileset firstgid="1" name="t" tilewidth="32" tileheight="32"><tile id="x"/></tileset>',
                     layer("g", grid(4, 3, 1)))
    text = expect_error(path, "tileset 't' tile x", "id='x' is not a whole number", "Fix:")
    assert "pytmx" not in text.replace(str(tmp_path), "") and "ValueError" not in text


# -- layer formats and tilesets -------------------------------------------------------------------------
def _encoded(rows: list[list[int]], compression: str) -> str:
    raw = b"".join(struct.pack("<I", g) for row in rows for g in row)
    if compression == "zlib":
        raw = zlib.compress(raw)
    elif compression == "gzip":
        raw = gzip.compress(raw)
    return base64.b64encode(raw).decode()


@pytest.mark.parametrize("fmt", ["csv", "base64", "zlib", "gzip", "xml"])
def test_every_layer_format_tiled_writes_loads_the_same(tmp_path: Path, fmt: str) -> None:
    rows = grid(4, 3, 1, _2_1=2)
    ts = tileset(tile(0, "floor"), tile(1, "wall"))
    if fmt == "csv":
        data = f'<data encoding="csv">{csv(rows)}</data>'
    elif fmt == "xml":
        data = "<data>" + "".join(f'<tile gid="{g}"/>' for row in rows for g in row) + "</data>"
    else:
        comp = "" if fmt == "base64" else f' compression="{fmt}"'
        data = f'<data encoding="base64"{comp}>{_encoded(rows, fmt)}</data>'
    b = load_board(write_map(tmp_path, ts, f'<layer name="g" width="4" height="3">{data}</layer>'))
    assert np.argwhere(b.blocked).tolist() == [[1, 2]]


def test_external_tileset_with_its_image_beside_it(tmp_path: Path) -> None:
    (tmp_path / "art").mkdir()
    png(tmp_path / "art" / "sheet.png")
    (tmp_path / "art" / "t.tsx").write_text(
        '<?xml version="1.0"?><tileset name="ext" tilewidth="32" tileheight="32" tilecount="2" columns="2">'
        '<image source="sheet.png"/>' + tile(1, "pit") + "</tileset>")  # no width/height: read from the PNG
    path = write_map(tmp_path, '<tileset firstgid="1" source="art/t.tsx"/>', layer("g", grid(4, 3, 1, _0_0=2)))
    board, info = load_map(path)
    assert board.pit[0, 0] and int(board.pit.sum()) == 1
    assert info.tilesets == ((1, "ext", str(tmp_path / "art" / "t.tsx")),)
    tmx = read_tiled(path)  # the window's loader finds the image relative to the map
    assert tmx.tilesets[0].source == "art/sheet.png" and tmx.tilesets[0].width == 64


def test_layer_order_is_the_documents(tmp_path: Path) -> None:
    ts = tileset(tile(0, "floor"))
    g = grid(4, 3, 1)
    doc = [ts, objects("under"), layer("ground", g),
           '<group name="grp">' + layer("inner", g) + objects("inner objects") + "</group>",
           '<imagelayer name="picture"><image source=""/></imagelayer>', layer("top", g), objects("tokens")]
    board, info = load_map(write_map(tmp_path, *doc))
    names = [(layer.name, layer.kind, layer.groups) for layer in info.layers]
    assert names == [("under", "object", ()), ("ground", "tile", ()), ("grp", "group", ()),
                     ("inner", "tile", ("grp",)), ("inner objects", "object", ("grp",)), ("picture", "image", ()),
                     ("top", "tile", ()), ("tokens", "object", ())]
    tmx = read_tiled(write_map(tmp_path, *doc))
    assert [tmx.layers[layer.index].name for layer in info.layers] == [n for n, _, _ in names]


# -- headless --------------------------------------------------------------------------------------------
def test_importing_the_map_loader_does_not_import_pygame() -> None:
    code = (
        "import sys, battlemat.io.tiled, battlemat.io.maps, battlemat.commands.check\n"
        "from battlemat.io.tiled import load_board\n"
        f"load_board({str(ROOT / 'maps' / 'art_gallery.tmx')!r})\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui')]\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "pygame" not in proc.stdout + proc.stderr  # no banner, no "cannot import pygame" log


def test_the_window_can_still_use_pytmx_with_pygame_afterwards() -> None:
    pytest.importorskip("pygame")
    code = (
        "import os; os.environ['SDL_VIDEODRIVER'] = 'dummy'; os.environ['PYGAME_HIDE_SUPPORT_PROMPT'] = '1'\n"
        "import battlemat.io.tiled\n"
        "import pygame; pygame.display.init(); pygame.display.set_mode((8, 8))\n"
        "from pytmx.util_pygame import pygame_image_loader\n"
        f"m = battlemat.io.tiled.read_tiled({str(ROOT / 'maps' / 'art_gallery.tmx')!r}, pygame_image_loader)\n"
        "assert isinstance(m.get_tile_image(0, 0, 0), pygame.Surface)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


# -- directions and hazards in the board -----------------------------------------------------------------
def test_direction_text_round_trips() -> None:
    assert parse_directions("n, ne") == DIRECTIONS["N"] | DIRECTIONS["NE"]
    assert directions_text(parse_directions("SW W N")) == "N,SW,W"
    assert transform_directions(DIRECTIONS["N"], flip_x=False, flip_y=True, diagonal=False) == DIRECTIONS["S"]
    with pytest.raises(ValueError, match="'UP'"):
        parse_directions("UP")


def test_E1_hazard_text_with_a_name_in_brackets() -> None:
    hz = Hazard.parse("Floor Trap [Block/Dodge 4 or Perception 3]", 1)
    assert hz.requirements == (("Block/Dodge", 4), ("Perception", 3))


# -- bundled content --------------------------------------------------------------------------------------
BUNDLED = sorted((ROOT / "maps").glob("*.tmx"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_bundled_maps_load_clean(path: Path) -> None:
    board, problems = lint_map(path)
    assert board is not None and not problems, "\n".join(map(str, problems))


def test_art_gallery_terrain_serves_the_rules() -> None:
    enc = load_encounter(ROOT / "maps" / "art_gallery.toml")
    b = enc.board
    assert b is not None and b.grid == "square"
    at = {c.id: c.at for c in enc.characters}
    assert all(sq is not None for sq in at.values())  # every character stands on its token
    # M12: balconies one level up; M4: the stairs to them are difficult going up only
    assert b.level[at["parwanna"][1], at["parwanna"][0]] == 1 and b.level[at["farran"][1], at["farran"][0]] == 0
    west_low, west_high = (6, 8), (5, 8)
    assert b.level[8, 6] == 0 and b.level[8, 5] == 1
    assert b.difficult_entering((7, 8), west_low) and b.difficult_entering(west_low, west_high)
    assert not b.difficult_entering(west_high, west_low)
    # R4: the great statues hide and shelter
    statues = [(x, y) for y in range(b.height) for x in range(b.width) if b.feature_at((x, y)) == "statue"]
    assert len(statues) >= 16 and all(b.opaque[y, x] and b.cover[y, x] == 2 for x, y in statues)


def test_forest_boulder_and_bridge_terrain_serve_the_rules() -> None:
    forest = load_board(ROOT / "maps" / "forest_ambush.tmx")
    assert forest.pit.any() and not forest.difficult[forest.pit].any()  # the creek: jump it (M5)
    assert forest.level.max() == 1 and forest.difficult.any() and forest.cover.any()  # ridge, underbrush
    assert forest.difficult_dirs.any() and forest.hazards  # slopes up the ridge (M4), wasps (E1)
    boulders = load_board(ROOT / "maps" / "boulder_field.tmx")
    kwirt = boulders.tokens["kwirt"]
    assert boulders.level[kwirt[1], kwirt[0] + 1] == 1 and boulders.level[kwirt[1], kwirt[0]] == 0  # R5 dive
    bridge = load_board(ROOT / "maps" / "bridge_hex.tmx")
    assert bridge.grid == "hex" and bridge.pit.sum() > 20
    deck = [(x, 7) for x in range(bridge.width) if bridge.feature_at((x, 7)) == "bridge"]
    assert deck and all(bridge.enterable(sq) and bridge.difficult[sq[1], sq[0]] for sq in deck)


def test_tileset_classes_and_project_types_match_the_presets() -> None:
    import xml.etree.ElementTree as ET

    project = json.loads((ROOT / "maps" / "battlemat.tiled-project").read_text())
    types = {t["name"]: t for t in project["propertyTypes"]}
    assert types["Direction"]["valuesAsFlags"] and types["Direction"]["values"] == list(DIRECTIONS)
    for name, preset in PRESETS.items():
        members = {m["name"]: m["value"] for m in types[name]["members"]}
        assert list(members) == list(TERRAIN_NAMES)
        for key, value in preset.items():
            assert members[key] == value, (name, key)
        assert {"tile", "object"} <= set(types[name]["useAs"])
    for tsx in (ROOT / "maps").glob("*.tsx"):
        for t in ET.parse(tsx).getroot().iter("tile"):
            assert t.get("type") in PRESETS, (tsx.name, t.get("id"))
