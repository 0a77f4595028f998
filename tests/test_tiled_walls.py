"""Walls between squares and doors drawn in Tiled (issue 29 item 3; battlemat.io.tiled.walls).

A polyline on a collision layer (or of class `wall`) is a thin wall between squares: the squares
on either side are not next to each other (M1, M6) and a line of sight across it is blocked (R4);
filled shapes stay blocked squares. Objects of class `door` are doors, closed unless `open`,
`locked` winning; an open door blocks nothing. Walls land where they are drawn on square, hex,
isometric and staggered maps; `check` says what it read and draws it; `annotate` and Tiled's JSON
keep them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from battlemat.cli import main
from battlemat.core import geometry
from battlemat.core.board import Board
from battlemat.core.walls import Wall
from battlemat.io.errors import LoadError
from battlemat.io.tiled import load_map, survey_map
from battlemat.io.tiled.annotate import annotate_map
from battlemat.io.tiled.walls import apply, units_to_picture

HAS_TILED = shutil.which("tiled") is not None


HEADER = {"version": "1.10", "orientation": "orthogonal", "renderorder": "right-down", "width": 8, "height": 6,
          "tilewidth": 32, "tileheight": 32, "infinite": 0, "nextlayerid": 9, "nextobjectid": 99}


def write_map(tmp: Path, objects: str, name: str = "m.tmx", **attrs: object) -> Path:
    """A map without tiles (no tileset: every square floor) and the object layers given; `attrs`
    override the map element's attributes (HEADER)."""
    path = tmp / name
    header = " ".join(f'{k}="{v}"' for k, v in {**HEADER, **attrs}.items())
    path.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<map {header}>\n{objects}\n</map>\n')
    return path


def layer(name: str, body: str, layer_id: int = 1, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f'<objectgroup id="{layer_id}" name="{name}"{attr}>\n{body}\n</objectgroup>'


def line(oid: int, at: tuple[float, float], points: str, cls: str = "", name: str = "", props: str = "") -> str:
    x, y = at
    attrs = (f' name="{name}"' if name else "") + (f' class="{cls}"' if cls else "")
    inner = f'<properties>{props}</properties>' if props else ""
    return f'<object id="{oid}"{attrs} x="{x}" y="{y}">{inner}<polyline points="{points}"/></object>'


def prop(name: str, value: str, kind: str = "bool") -> str:
    return f'<property name="{name}" type="{kind}" value="{value}"/>'


# -- walls on square grids --------------------------------------------------------------------------------
def test_a_wall_along_a_grid_line_parts_the_squares_beside_it_m1_r4(tmp_path: Path) -> None:
    """M1, M6: a polyline on a layer named Walls, along the grid line between (4, 1) and (5, 1), makes
    them not adjacent; R4: a line of sight across it is blocked; squares beside its end still meet."""
    path = write_map(tmp_path, layer("Walls", line(1, (160, 0), "0,0 0,96")))  # x = 5 squares, y 0..3
    board = load_map(path)[0]
    assert board.walls == (Wall(5, 0, 5, 3),)
    assert not board.blocked.any()  # a line is no square (issue 26 read it as squares)
    assert not geometry.adjacent(board, (4, 1), (5, 1))
    assert geometry.barrier_words(board, (4, 1), (5, 1)) == "wall between (4, 1) and (5, 1)"
    assert geometry.adjacent(board, (4, 4), (5, 4)) and geometry.adjacent(board, (4, 1), (4, 2))
    seen, _, why = geometry.sight(board, (2, 1), (7, 1))
    assert not seen and why
    assert geometry.sight(board, (2, 4), (7, 4))[0]  # below the wall's end: seen (R4)
    plain = load_map(write_map(tmp_path, layer("Decor", line(1, (160, 0), "0,0 0,96")), name="plain.tmx"))[0]
    assert plain.walls == () and geometry.adjacent(plain, (4, 1), (5, 1))  # not a collision layer: nothing


def test_class_wall_lines_on_any_layer_and_layers_of_class_wall_m1(tmp_path: Path) -> None:
    """M1: a polyline of class wall on any object layer (battlemat's terrain layer too), and every
    polyline of a layer of class wall, is a wall; each segment of a polyline is one wall."""
    objects = (layer("Things", line(1, (0, 64), "0,0 64,0 64,64", cls="wall") + line(2, (0, 0), "0,0 32,0"), 1)
               + layer("Borders", line(3, (192, 0), "0,0 0,32"), 2, cls="wall")
               + layer("terrain", line(4, (224, 0), "0,0 0,32", cls="wall"), 3))
    board, problems, understood = survey_map(write_map(tmp_path, objects))
    assert board is not None and set(board.walls) == {Wall(0, 2, 2, 2), Wall(2, 2, 2, 4), Wall(6, 0, 6, 1),
                                                       Wall(7, 0, 7, 1)}
    assert not geometry.adjacent(board, (1, 1), (1, 2)) and not geometry.adjacent(board, (6, 0), (7, 0))
    assert geometry.adjacent(board, (0, 0), (0, 1))  # object 2: no class, on no wall layer: nothing
    assert not any("terrain object must be an area" in p.message for p in problems)
    assert [str(u) for u in understood] == [
        "2 wall segments on object layer 'Things' (objects of class wall)",
        "1 wall segment on object layer 'Borders' (class wall)",
        "1 wall segment on object layer 'terrain' (objects of class wall)",
    ]


@pytest.mark.parametrize(("name", "cls"), [("Collision", ""), ("Fence", "wall")])
def test_filled_shapes_on_a_walls_layer_stay_blocked_squares_m1(tmp_path: Path, name: str, cls: str) -> None:
    """M1: rectangles and polygons (a closed outline too) on a collision layer, or a layer of class
    wall, block the squares they cover, as before; only lines are thin walls."""
    body = ('<object id="1" x="0" y="0" width="32" height="32"/>'
            '<object id="2" x="64" y="64"><polygon points="0,0 32,0 32,32 0,32"/></object>'
            + line(3, (128, 0), "0,0 0,64"))
    board = load_map(write_map(tmp_path, layer(name, body, cls=cls)))[0]
    assert board.blocked[0, 0] and board.blocked[2, 2] and int(board.blocked.sum()) == 2
    assert board.walls == (Wall(4, 0, 4, 2),)


def test_a_map_whose_only_marks_are_walls_passes_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`check` warns about a map that marks nothing; thin walls are marks, so a map of them passes."""
    path = write_map(tmp_path, layer("Walls", line(1, (160, 0), "0,0 0,96")))
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "WARNING" not in out and "1 wall segment on object layer 'Walls' (collision layer name)" in out


# -- doors -------------------------------------------------------------------------------------------------
def doors_map(tmp: Path, *objects: str) -> Path:
    return write_map(tmp, layer("Walls", line(1, (160, 0), "0,0 0,64")) + layer("Doors", "\n".join(objects), 2))


def test_doors_closed_open_and_locked_m1_r4(tmp_path: Path) -> None:
    """M1, R4: a closed door parts the squares beside it and blocks sight; an open one does neither;
    a locked one is a closed door that stays shut (its state 'locked'). A door drawn as a thin
    rectangle over a grid line is that grid line."""
    path = doors_map(
        tmp_path,
        '<object id="2" name="cellar" class="door" x="156" y="64" width="8" height="32"/>',  # x = 5, y 2..3
        line(3, (160, 96), "0,0 0,32", cls="door", props=prop("open", "true")),  # y 3..4: open
        line(4, (160, 128), "0,0 0,32", cls="door", name="vault", props=prop("locked", "true")),  # y 4..5
    )
    board = load_map(path)[0]
    by_id = {d.id: d for d in board.doors}
    assert {i: (d.state, d.wall) for i, d in by_id.items()} == {
        "cellar": ("closed", Wall(5, 2, 5, 3)), "door3": ("open", Wall(5, 3, 5, 4)),
        "vault": ("locked", Wall(5, 4, 5, 5))}
    assert by_id["cellar"].name == "cellar" and by_id["door3"].name == ""
    assert not geometry.adjacent(board, (4, 2), (5, 2))  # closed (M1)
    assert "closed door 'cellar'" in geometry.barrier_words(board, (4, 2), (5, 2))
    assert not geometry.sight(board, (3, 2), (6, 2))[0]  # closed blocks sight (R4)
    assert geometry.adjacent(board, (4, 3), (5, 3)) and geometry.sight(board, (3, 3), (6, 3))[0]  # open
    assert not geometry.adjacent(board, (4, 4), (5, 4)) and not geometry.sight(board, (3, 4), (6, 4))[0]  # locked
    opened = board.with_doors({"cellar": "open"})
    assert geometry.adjacent(opened, (4, 2), (5, 2))


def test_door_ids_are_names_when_unique_and_locked_wins_over_open(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Two doors named alike get 'door<object id>'; a door both open and locked is locked, and `check`
    says so once; check lists the doors it read."""
    path = doors_map(
        tmp_path,
        line(5, (0, 32), "0,0 32,0", cls="door", name="gate"),
        line(6, (0, 64), "0,0 32,0", cls="door", name="gate"),
        line(7, (0, 96), "0,0 32,0", cls="door", name="odd", props=prop("open", "true") + prop("locked", "true")),
    )
    board, problems, _ = survey_map(path)
    assert board is not None and [(d.id, d.state) for d in board.doors] == [
        ("door5", "closed"), ("door6", "closed"), ("odd", "locked")]
    assert [p.message for p in problems] == ["this door is both open and locked: it is read as locked"]
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr().out
    assert "3 doors on object layer 'Doors' (class door)" in out
    assert "1 wall segment on object layer 'Walls' (collision layer name)" in out


@pytest.mark.parametrize(("value", "kind"), [("yes", "string"), ("ajar", "string"), ("2", "int")])
def test_a_malformed_door_property_is_one_clear_message(tmp_path: Path, value: str, kind: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """open="yes" (a string) is no door state: the map is refused with one message naming the file,
    the object and the property, and the fix; `check` exits 2 with it, no traceback."""
    path = doors_map(tmp_path, line(2, (0, 32), "0,0 32,0", cls="door", name="hatch", props=prop("open", value, kind)))
    with pytest.raises(LoadError) as exc:
        load_map(path)
    assert len(exc.value.problems) == 1
    problem = exc.value.problems[0]
    assert problem.place == "layer 'Doors' object 2.open"
    assert problem.message == f"a door's open is true or false, found {value!r}"
    assert "bool property" in problem.fix
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr()
    assert f"found {value!r}" in out.out + out.err and "Traceback" not in out.out + out.err


def test_a_door_property_of_the_wrong_tiled_type_loads_and_check_asks_for_a_bool(tmp_path: Path) -> None:
    path = doors_map(tmp_path, line(2, (0, 32), "0,0 32,0", cls="door", props=prop("open", "true", "string")),
                     line(3, (0, 64), "0,0 32,0", cls="door", props=prop("lockd", "true")))
    board, problems, _ = survey_map(path)
    assert board is not None and [d.state for d in board.doors] == ["open", "closed"]
    assert [p.message for p in problems] == ["open is a string property; it should be a bool",
                                             "unknown door property 'lockd'"]


def test_doors_of_the_older_type_attribute_and_odd_shapes(tmp_path: Path) -> None:
    """Tiled before 1.9 writes `type`; a door drawn as an ellipse is no door (check says so); a door on
    the terrain or tokens layer is a door, not terrain or a token."""
    path = write_map(tmp_path, layer("Stuff", '<object id="1" type="door" x="32" y="0" width="32" height="6"/>'
                                     '<object id="2" class="door" x="0" y="0" width="32" height="32"><ellipse/>'
                                     '</object>')
                     + layer("terrain", '<object id="3" class="door" x="64" y="29" width="32" height="6"/>', 2)
                     + layer("tokens", '<object id="4" name="portal" class="door" x="96" y="29" width="32" '
                             'height="6"/>', 3), version="1.8")
    board, problems, _ = survey_map(path)
    assert board is not None and [(d.id, d.wall) for d in board.doors] == [
        ("door1", Wall(1, 3 / 32, 2, 3 / 32)), ("door3", Wall(2, 1, 3, 1)), ("portal", Wall(3, 1, 4, 1))]
    assert dict(board.tokens) == {} and not board.blocked.any()
    assert [p.message for p in problems] == ["a door is a line or a rectangle; this one is neither, so it is no door"]


def test_walls_and_doors_off_the_map_are_cut_or_left_out_and_check_says_so(tmp_path: Path) -> None:
    """A wall running off the map is cut a square beyond its edge; one wholly off it, and a door wholly
    off it, are left out, each with a message naming it."""
    path = doors_map(tmp_path, line(2, (0, 640), "0,0 32,0", cls="door", name="far"))
    text = path.read_text().replace('<polyline points="0,0 0,64"/>', '<polyline points="0,0 0,640"/>')
    text = text.replace("</objectgroup>", '<object id="9" x="-320" y="0"><polyline points="0,0 0,64"/></object>'
                        "</objectgroup>", 1)
    path.write_text(text)
    board, problems, _ = survey_map(path)
    assert board is not None and board.walls == (Wall(5, 0, 5, 7),)  # the edge is y = 6 and board.doors == ()
    assert sorted((p.place, p.message) for p in problems) == [
        ("door 'far'", "this door lies off the map"),
        ("layer 'Walls' object 9", "this wall line lies off the map")]


def test_a_json_map_of_tiled_1_9_with_class_reads_as_its_tmx(tmp_path: Path) -> None:
    """Tiled 1.9+ writes an object's class as `class` in JSON too: the same walls and doors as the .tmx."""
    import json

    src = doors_map(tmp_path, line(2, (0, 32), "0,0 32,0", cls="door", name="hatch", props=prop("locked", "true")))
    doc = {"type": "map", "version": "1.10", "orientation": "orthogonal", "renderorder": "right-down",
           "width": 8, "height": 6, "tilewidth": 32, "tileheight": 32, "infinite": False,
           "nextlayerid": 3, "nextobjectid": 3, "tilesets": [], "layers": [
               {"type": "objectgroup", "id": 1, "name": "Walls", "objects": [
                   {"id": 1, "x": 160, "y": 0, "polyline": [{"x": 0, "y": 0}, {"x": 0, "y": 64}]}]},
               {"type": "objectgroup", "id": 2, "name": "Doors", "objects": [
                   {"id": 2, "name": "hatch", "class": "door", "x": 0, "y": 32,
                    "polyline": [{"x": 0, "y": 0}, {"x": 32, "y": 0}],
                    "properties": [{"name": "locked", "type": "bool", "value": True}]}]}]}
    out = tmp_path / "m.tmj"
    out.write_text(json.dumps(doc))
    xml_board, json_board = load_map(src)[0], load_map(out)[0]
    assert xml_board.walls == json_board.walls == (Wall(5, 0, 5, 2),)
    assert xml_board.doors == json_board.doors and json_board.doors[0].state == "locked"


def test_rotated_lines_and_door_rectangles_turn_about_their_corner_as_tiled_draws_them(tmp_path: Path) -> None:
    """Tiled turns an object about its x, y: a line of 32 pixels east turned 90 degrees runs south, and a
    thin door rectangle turned 90 degrees lies along the grid line its turned centre line is on."""
    path = write_map(tmp_path, layer("Walls", line(1, (160, 0), "0,0 32,0").replace('x="160"', 'rotation="90" x="160"'))
                     + layer("Doors", '<object id="2" class="door" x="163" y="64" width="32" height="6" '
                             'rotation="90"/>', 2))
    board = load_map(path)[0]
    assert board.walls == (Wall(5, 0, 5, 1),)
    assert [d.wall for d in board.doors] == [Wall(5, 2, 5, 3)]


def test_a_tile_object_of_a_door_tile_is_a_door(tmp_path: Path) -> None:
    """Tiled 1.9+ gives a tile object its tile's class: a door tile placed as an object is a door (its
    long centre line: tile objects hang from their bottom-left corner), unless the object has a class
    of its own; on a collision layer it blocks no square."""
    tileset = ('<tileset firstgid="1" name="t" tilewidth="32" tileheight="8" tilecount="2" columns="2">'
               '<tile id="0" class="door"/><tile id="1" class="crate"/></tileset>')
    path = write_map(tmp_path, tileset + layer("Collision", '<object id="1" gid="1" x="64" y="100" width="32" '
                                               'height="8"/><object id="2" gid="1" class="wall" x="0" y="100" '
                                               'width="32" height="8"/>'))
    board = load_map(path)[0]
    assert [(d.id, d.wall, d.state) for d in board.doors] == [("door1", Wall(2, 3, 3, 3), "closed")]
    assert not board.blocked[2, 2] and not board.blocked[3, 2]  # the door is no square
    assert not geometry.adjacent(board, (2, 2), (2, 3))


# -- other grids: the wall lands where it is drawn ------------------------------------------------------------
GRIDS: dict[str, dict[str, object]] = {
    "hex y": {"orientation": "hexagonal", "tilewidth": 32, "tileheight": 28, "hexsidelength": 14, "staggeraxis": "y",
              "staggerindex": "odd"},
    "hex x": {"orientation": "hexagonal", "tilewidth": 28, "tileheight": 32, "hexsidelength": 14, "staggeraxis": "x",
              "staggerindex": "even"},
    "isometric": {"orientation": "isometric", "tilewidth": 64, "tileheight": 32},
    "staggered": {"orientation": "staggered", "tilewidth": 64, "tileheight": 32, "staggeraxis": "y",
                  "staggerindex": "odd"},
}


@pytest.mark.parametrize("grid", list(GRIDS))
def test_a_wall_on_a_hex_isometric_or_staggered_map_lands_where_it_is_drawn_m1_r4(tmp_path: Path,
                                                                                  grid: str) -> None:
    """A line drawn (in Tiled's object pixels, `Board.centers`) from one square's centre to another's is
    the wall between their board-unit centres (`geometry.centre`), and it draws back onto the
    squares' drawn centres (`Board.screen_centers`); a line across the middle of two neighbours
    parts them (M1) and blocks sight (R4)."""
    spec = GRIDS[grid]
    empty = load_map(write_map(tmp_path, layer("floor", ""), name="empty.tmx", **spec))[0]
    a, b = (1, 2), (2, 2)
    assert geometry.adjacent(empty, a, b)
    cx, cy = empty.centers()
    (ax, ay), (bx, by) = (float(cx[a[1], a[0]]), float(cy[a[1], a[0]])), (float(cx[b[1], b[0]]), float(cy[b[1], b[0]]))
    mx, my = (ax + bx) / 2, (ay + by) / 2
    across = f"{-(by - ay) / 2:g},{(bx - ax) / 2:g} {(by - ay) / 2:g},{-(bx - ax) / 2:g}"  # perpendicular, centred
    body = line(1, (ax, ay), f"0,0 {bx - ax:g},{by - ay:g}") + line(2, (mx, my), across)
    board = load_map(write_map(tmp_path, layer("Walls", body), **spec))[0]
    drawn, parting = board.walls
    ua, ub = geometry.centre(board, a), geometry.centre(board, b)
    assert drawn == pytest.approx((*ua, *ub), abs=1e-6)
    picture = units_to_picture(board)
    sx, sy = board.screen_centers()
    for (ux, uy), sq in (((drawn.x1, drawn.y1), a), ((drawn.x2, drawn.y2), b)):
        assert apply(picture, ux, uy) == pytest.approx((float(sx[sq[1], sq[0]]), float(sy[sq[1], sq[0]])), abs=1e-6)
    assert geometry.barrier_between(board, a, b) is not None
    only_parting = Board.empty(board.width, board.height, board.grid, stagger_axis=board.stagger_axis,
                               stagger_index=board.stagger_index, walls=(parting,))
    assert not geometry.adjacent(only_parting, a, b)  # M1: the perpendicular line alone parts them
    assert not geometry.sight(only_parting, a, b)[0]  # R4


# -- check --picture, annotate, JSON -------------------------------------------------------------------------
class _Axes:
    def __init__(self) -> None:
        self.lines: list[tuple[list[float], list[float], str]] = []

    def plot(self, xs: list[float], ys: list[float], **kw: object) -> None:
        self.lines.append((xs, ys, str(kw["linestyle"])))


def test_check_picture_draws_walls_and_doors_where_they_are(tmp_path: Path) -> None:
    """`check --picture` draws each wall and door over the map at its grid line (pixels at the
    picture's scale), doors dashed when open, and lists them in its legend."""
    from battlemat.sim.terrain_picture import draw_lines, line_rows

    path = doors_map(tmp_path, line(2, (0, 32), "0,0 32,0", cls="door", name="hatch", props=prop("open", "true")))
    board, _, understood = survey_map(path)
    assert board is not None
    ax = _Axes()
    draw_lines(ax, board, 0.5)
    assert ax.lines == [([79.5, 79.5], [-0.5, 31.5], "-"), ([-0.5, 15.5], [15.5, 15.5], "--")]
    assert line_rows(board, understood) == [
        ("wall", "wall segments: 1 (object layer 'Walls' (collision layer name))"), ("open", "doors, open: hatch")]
    out = tmp_path / "m.png"
    assert main(["check", str(path), "--picture", str(out)]) == 0 and out.stat().st_size > 0


def test_annotate_keeps_wall_lines_and_doors(tmp_path: Path) -> None:
    """`annotate` rewrites only the terrain layer: walls on other layers stay, and the doors and wall
    lines of the terrain layer itself are kept in the new one, as they were; the copy reads back
    to the same walls and doors (annotate checks that before it keeps the copy)."""
    terrain = layer("terrain", line(7, (0, 32), "0,0 32,0", cls="wall")
                    + line(8, (64, 0), "0,0 0,32", cls="door", name="trap", props=prop("open", "true"))
                    + '<object id="9" class="rubble" x="96" y="96" width="32" height="32"/>', 3)
    src = write_map(tmp_path, layer("Walls", line(1, (160, 0), "0,0 0,64") + '<object id="2" x="0" y="160" '
                                    'width="32" height="32"/>') + terrain)
    out = tmp_path / "out.tmx"
    annotate_map(src, out)
    before, after = load_map(src)[0], load_map(out)[0]
    assert sorted(after.walls) == sorted(before.walls) == [Wall(0, 1, 1, 1), Wall(5, 0, 5, 2)]
    assert after.doors == before.doors and after.doors[0].state == "open"
    text = out.read_text()
    assert text.count('name="terrain"') == 1
    assert '<object id="8" name="trap" class="door" x="64" y="0">' in text
    assert (after.blocked == before.blocked).all() and (after.difficult == before.difficult).all()


def test_annotate_keeps_a_template_door_of_the_terrain_layer_and_moves_its_reference(tmp_path: Path) -> None:
    """A door placed from an object template (.tx) on the terrain layer is a door (the template says
    so, not the instance): annotate keeps it, its template reference rewritten for a copy in another
    folder."""
    (tmp_path / "door.tx").write_text('<?xml version="1.0" encoding="UTF-8"?>\n<template>'
                                      '<object name="gate" type="door" width="32" height="6"/></template>\n')
    src = write_map(tmp_path, layer("terrain", '<object id="20" template="door.tx" x="96" y="61"/>'
                                    '<object id="21" class="rubble" x="0" y="0" width="32" height="32"/>'))
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "copy.tmx"
    annotate_map(src, out)
    assert '<object id="20" template="../door.tx" x="96" y="61"/>' in out.read_text()
    before, after = load_map(src)[0], load_map(out)[0]
    assert after.doors == before.doors and [(d.id, d.wall) for d in after.doors] == [("gate", Wall(3, 2, 4, 2))]
    assert after.difficult[0, 0]


@pytest.mark.skipif(not HAS_TILED, reason="the tiled CLI (Debian package tiled) is absent")
def test_tileds_json_export_reads_to_the_same_walls_and_doors(tmp_path: Path) -> None:
    """A map with walls and doors, exported to JSON by Tiled itself (`tiled --export-map`), reads to the
    same walls and doors as the .tmx (Debian's Tiled predates `class`: the fixture uses `type`)."""
    objects = (layer("Walls", line(1, (160, 0), "0,0 0,96") + line(2, (0, 96), "0,0 96,0 96,64"))
               + layer("Doors", '<object id="3" name="cellar" type="door" x="156" y="96" width="8" height="64"/>'
                       + line(4, (192, 0), "0,0 32,0").replace('<object id="4"', '<object id="4" type="door"')
                       .replace("<polyline", f"<properties>{prop('locked', 'true')}</properties><polyline"), 2))
    src = write_map(tmp_path, objects, version="1.8")
    out = tmp_path / "m.tmj"
    proc = subprocess.run(["tiled", "--export-map", str(src), str(out)], capture_output=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, check=False)
    assert proc.returncode == 0 and out.is_file(), proc.stderr
    saved = tmp_path / "saved.tmx"  # and saved back as Tiled saves a map
    proc = subprocess.run(["tiled", "--export-map", "tmx", str(out), str(saved)], capture_output=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, check=False)
    assert proc.returncode == 0 and saved.is_file(), proc.stderr
    xml_board, json_board, saved_board = load_map(src)[0], load_map(out)[0], load_map(saved)[0]
    assert len(xml_board.walls) == 3 and [d.state for d in xml_board.doors] == ["closed", "locked"]
    assert json_board.walls == xml_board.walls and json_board.doors == xml_board.doors
    assert saved_board.walls == xml_board.walls and saved_board.doors == xml_board.doors


def test_the_tiled_project_declares_door_and_wall_classes() -> None:
    """maps/battlemat.tiled-project (written by assets/make_tiles.py, kept in step here) gives objects
    the class door with bool members open and locked (false), and lets a layer be of class wall."""
    import json
    import sys

    from conftest import ROOT

    project = json.loads((ROOT / "maps" / "battlemat.tiled-project").read_text())
    types = {t["name"]: t for t in project["propertyTypes"]}
    door = types["door"]
    assert door["type"] == "class" and door["useAs"] == ["object"]
    assert {m["name"]: (m["type"], m["value"]) for m in door["members"]} == {"open": ("bool", False),
                                                                            "locked": ("bool", False)}
    assert "layer" in types["wall"]["useAs"]
    sys.path.insert(0, str(ROOT / "assets"))
    try:
        import make_tiles
    finally:
        sys.path.remove(str(ROOT / "assets"))
    assert make_tiles.project_json() == (ROOT / "maps" / "battlemat.tiled-project").read_text()
