"""Isometric and staggered maps play (issue 26 item 5): the rules on the square grid the map encodes,
drawn in the map's projection.

The small maps are written by tests/projected/make_maps.py (the bundled tileset's art). What is
checked, each against Tiled's own definitions rather than battlemat's formulas:
- M1 M11 on a staggered map: two cells are orthogonal neighbours on the board exactly when their
  diamonds share an edge in Tiled's picture (centres half a diamond apart both ways), diagonal ones
  when they share only a corner; an isometric map's cells are its squares;
- tokens placed in Tiled's object coordinates stand on their cells; `reach` and `resolve` work;
- the window draws each tile where tmxrasterizer does (pixel comparison), and in a screenshot each
  token's disc is centred on its cell's diamond, found from the water tile Tiled would draw;
- the real isometric and staggered maps of ../shared/realmaps load and play.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from battlemat.cli import main
from battlemat.core.board import OUTSIDE, Board, staggered_squares
from battlemat.io.tiled import load_map

sys.path.insert(0, str(ROOT / "tests" / "projected"))
import make_maps

REALMAPS = ROOT.parent / "shared" / "realmaps"
REAL = [REALMAPS / "tiled" / "examples" / "isometric_grass_and_water.tmx",
        REALMAPS / "tiled" / "examples" / "isometric_staggered_grass_and_water.tmx",
        REALMAPS / "pytmx" / "apps" / "data" / "embed_tile_image.tmx"]
TOKEN_FILL = {"hero": (70, 130, 230), "foe": (215, 75, 70)}  # theme.SIDE_COLORS of the two sides


@pytest.fixture
def maps(tmp_path: Path) -> dict[str, tuple[Path, Path]]:
    return make_maps.write(tmp_path)


def tiled_centre(orientation: str, x: int, y: int, tw: int, th: int, height: int) -> tuple[float, float]:
    """Where Tiled draws cell (x, y)'s centre: its isometric renderer (origin at height * tw / 2), or its
    staggered one (axis y, odd rows shifted right by half a diamond, rows half a diamond apart)."""
    if orientation == "isometric":
        return (x - y) * tw / 2 + height * tw / 2, (x + y) * th / 2 + th / 2
    return x * tw + (tw / 2 if y % 2 else 0) + tw / 2, y * th / 2 + th / 2


def square_of_cell(board: Board, orientation: str, x: int, y: int) -> tuple[int, int]:
    """The board square of a cell, found by where it is drawn (not by the conversion formula)."""
    want = tiled_centre(orientation, x, y, make_maps.TW, make_maps.TH, make_maps.H)
    cx, cy = board.screen_centers()
    d = (cx - want[0]) ** 2 + (cy - want[1]) ** 2
    iy, ix = np.unravel_index(int(np.argmin(d)), d.shape)
    assert d[iy, ix] < 1e-6, f"no square is drawn at cell {(x, y)}"
    return int(ix), int(iy)


@pytest.mark.parametrize("orientation", ["isometric", "staggered"])
def test_M1_M11_neighbours_are_the_diamonds_that_touch(orientation: str, maps: dict[str, tuple[Path, Path]]) -> None:
    board = load_map(maps[orientation][0])[0]
    assert board.grid == "square" and board.projection == orientation
    tw, th, w, h = make_maps.TW, make_maps.TH, make_maps.W, make_maps.H
    cells = {(x, y): square_of_cell(board, orientation, x, y) for y in range(h) for x in range(w)}
    assert len(set(cells.values())) == w * h  # one square a cell
    if orientation == "isometric":
        assert all(sq == cell for cell, sq in cells.items())
    for a, sa in cells.items():
        for b, sb in cells.items():
            ax, ay = tiled_centre(orientation, *a, tw, th, h)
            bx, by = tiled_centre(orientation, *b, tw, th, h)
            edge = abs(abs(ax - bx) - tw / 2) < 1e-6 and abs(abs(ay - by) - th / 2) < 1e-6
            beside = abs(abs(ax - bx) - tw) < 1e-6 and ay == by  # in a row
            above = ax == bx and abs(abs(ay - by) - th) < 1e-6  # in a column
            corner = beside or above
            du, dv = abs(sa[0] - sb[0]), abs(sa[1] - sb[1])
            assert (du + dv == 1) == edge, (a, b)
            assert (du == 1 and dv == 1) == corner, (a, b)
    outside = board.feature == (board.features.index(OUTSIDE) if OUTSIDE in board.features else -2)
    assert int(outside.sum()) == board.width * board.height - w * h and bool(board.blocked[outside].all())


@pytest.mark.parametrize("orientation", ["isometric", "staggered"])
def test_tokens_terrain_and_reach_on_the_encoded_squares(orientation: str, maps: dict[str, tuple[Path, Path]],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Tokens (placed in Tiled's object coordinates) and tiles land on their cells' squares; M5 the
    water is a pit, M1 the wall blocks; `reach` and `resolve` run on the map."""
    tmx, toml = maps[orientation]
    board = load_map(tmx)[0]
    assert board.tokens["hero"] == square_of_cell(board, orientation, *make_maps.HERO)
    assert board.tokens["foe"] == square_of_cell(board, orientation, *make_maps.FOE)
    wx, wy = square_of_cell(board, orientation, 3, 1)
    bx, by = square_of_cell(board, orientation, 2, 2)
    assert board.pit[wy, wx] and board.blocked[by, bx] and not board.blocked[board.tokens["hero"][::-1]]
    assert main(["reach", str(toml), "--who", "hero", "--use", "Dodge", "--json"]) == 0
    out = capsys.readouterr().out
    assert f'"{bx},{by}"' not in out.split('"unreachable"')[0]  # the wall is never reached
    assert main(["resolve", str(toml)]) == 0
    assert "Hero moves to" in capsys.readouterr().out


@pytest.mark.parametrize("orientation", ["isometric", "staggered"])
def test_M1_one_step_reaches_the_cells_sharing_an_edge(orientation: str, maps: dict[str, tuple[Path, Path]],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`reach --json`: the open cells whose diamonds share an edge with the hero's are one square away."""
    tmx, toml = maps[orientation]
    board = load_map(tmx)[0]
    assert main(["reach", str(toml), "--who", "hero", "--use", "Dodge", "--json"]) == 0
    reachable = json.loads(capsys.readouterr().out)["reachable"]
    hx, hy = make_maps.HERO
    tw, th, h = make_maps.TW, make_maps.TH, make_maps.H
    ax, ay = tiled_centre(orientation, hx, hy, tw, th, h)
    checked = 0
    for y in range(make_maps.H):
        for x in range(make_maps.W):
            bx, by = tiled_centre(orientation, x, y, tw, th, h)
            if abs(abs(ax - bx) - tw / 2) < 1e-6 and abs(abs(ay - by) - th / 2) < 1e-6:
                sx, sy = square_of_cell(board, orientation, x, y)
                if board.enterable((sx, sy)):
                    assert reachable.get(f"{sx},{sy}") == 1, (x, y)
                    checked += 1
    assert checked >= 3


# -- the window ----------------------------------------------------------------------------------
pygame = pytest.importorskip("pygame")


def _blob(img: np.ndarray, colours: set[tuple[int, int, int]], x_max: int) -> np.ndarray:
    """Pixel coordinates (x, y) of the screenshot's map area holding one of the colours."""
    flat = img[:, :x_max].reshape(-1, 3)
    keys = flat[:, 0].astype(np.int64) << 16 | flat[:, 1].astype(np.int64) << 8 | flat[:, 2]
    want = np.array([r << 16 | g << 8 | b for r, g, b in colours], np.int64)
    hit = np.isin(keys, want).reshape(img.shape[0], x_max)
    ys, xs = np.nonzero(hit)
    return np.stack([xs, ys], axis=1)


def _tile_colours(gid: int) -> set[tuple[int, int, int]]:
    sheet = pygame.image.load(str(ROOT / "assets" / "tiles" / "battlemat.png"))
    i = gid - 1
    tile = pygame.surfarray.array3d(sheet.subsurface(((i % 8) * 32, (i // 8) * 32, 32, 32))).reshape(-1, 3)
    return {tuple(int(v) for v in c) for c in tile}


@pytest.mark.ui
@pytest.mark.parametrize("orientation", ["isometric", "staggered"])
def test_tokens_stand_on_their_cells_in_a_screenshot(orientation: str, maps: dict[str, tuple[Path, Path]],
                                                     tmp_path: Path) -> None:
    """From pixels: the water tile's picture gives where Tiled puts cell (3, 1) and the zoom (its upper
    half is never covered: diamonds as tall as the tiles); each token's disc must be centred where
    Tiled draws its cell, within a tenth of a diamond."""
    shot = tmp_path / "shot.png"
    assert main(["play", str(maps[orientation][1]), "--screenshot", str(shot)]) == 0
    img = np.transpose(pygame.surfarray.array3d(pygame.image.load(str(shot))), (1, 0, 2))
    view = img.shape[1] * 7 // 10  # the map view (the panels are on the right)
    others = set().union(*(_tile_colours(g) for g in (make_maps.GRASS, make_maps.WALL, make_maps.MARBLE)))
    water = _blob(img, _tile_colours(make_maps.WATER) - others, view)
    assert len(water) > 50
    left, right, top = water[:, 0].min(), water[:, 0].max() + 1, water[:, 1].min()
    zoom = (right - left) / make_maps.TW
    wcx, wcy = (left + right) / 2, top + make_maps.TH / 2 * zoom  # a tile's picture is its diamond's box
    tw, th, h = make_maps.TW, make_maps.TH, make_maps.H
    water_at = tiled_centre(orientation, 3, 1, tw, th, h)
    for name, cell in (("hero", make_maps.HERO), ("foe", make_maps.FOE)):
        disc = _blob(img, {TOKEN_FILL[name]}, view)
        assert len(disc) > 30, name
        at = tiled_centre(orientation, *cell, tw, th, h)
        expected = wcx + (at[0] - water_at[0]) * zoom, wcy + (at[1] - water_at[1]) * zoom
        # the disc's widest row and column give its centre (the letters and the label cut into it)
        xs, ys = disc[:, 0], disc[:, 1]
        centre = ((xs.min() + xs.max() + 1) / 2, (ys.min() + ys.max() + 1) / 2)
        assert abs(centre[0] - expected[0]) < tw * zoom / 10 and abs(centre[1] - expected[1]) < th * zoom / 10, (
            name, centre, expected)


@pytest.mark.ui
@pytest.mark.skipif(shutil.which("tmxrasterizer") is None, reason="tmxrasterizer (Debian package tiled) absent")
@pytest.mark.parametrize("which", ["isometric", "staggered", "real isometric", "real staggered"])
def test_tiles_are_drawn_where_tiled_draws_them(which: str, maps: dict[str, tuple[Path, Path]], tmp_path: Path) -> None:
    """battlemat's renderer (marks and grid off) against tmxrasterizer, over black: mean absolute
    difference under 2 of 255 per channel, as for flat maps (tests/test_render_vs_tiled.py); a picture
    shifted by half a diamond is far off (the control)."""
    from battlemat.ui.layout import Layout
    from battlemat.ui.renderer import MapArt, load_tmx_ops

    path = {"isometric": maps["isometric"][0], "staggered": maps["staggered"][0],
            "real isometric": REAL[0], "real staggered": REAL[1]}[which]
    if not path.is_file():
        pytest.skip(f"{path} absent")
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    try:
        board = load_map(path)[0]
        lay = Layout(board)
        ops, tmx = load_tmx_ops(path, lay)
        art = MapArt(lay, ops, background=(0, 0, 0))
        art.show_grid = art.show_marks = False
        ours = pygame.surfarray.array3d(art.render_full()).astype(int)
        out = tmp_path / "tiled.png"
        names = [layer.name for layer in tmx.layers if hasattr(layer, "data")]
        shown = [a for n in names for a in ("--show-layer", n)]
        args = ["tmxrasterizer", "--no-smoothing", *shown, str(path), str(out)]
        proc = subprocess.run(args, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, capture_output=True,
                              text=True, timeout=120, check=False)
        assert proc.returncode == 0, proc.stderr
        img = pygame.image.load(str(out))
        flat = pygame.Surface(img.get_size())
        flat.fill((0, 0, 0))
        flat.blit(img, (0, 0))
        theirs = pygame.surfarray.array3d(flat).astype(int)
    finally:
        pygame.display.quit()
    w, h = min(ours.shape[0], theirs.shape[0]), min(ours.shape[1], theirs.shape[1])
    assert abs(ours.shape[0] - theirs.shape[0]) <= 1 and abs(ours.shape[1] - theirs.shape[1]) <= 1, (
        ours.shape, theirs.shape)
    diff = float(np.abs(ours[:w, :h] - theirs[:w, :h]).mean())
    assert diff < 2.0, diff
    dx = board.tile_width // 2
    shifted = float(np.abs(ours[dx:w, :h] - theirs[: w - dx, :h]).mean())
    assert shifted > 4 * max(diff, 0.5), (diff, shifted)


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_real_projected_maps_load_and_play(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real isometric and staggered maps load (no longer refused) and an encounter on them resolves."""
    if not path.is_file():
        pytest.skip(f"{path} absent")
    board = load_map(path)[0]
    assert board.projection in ("isometric", "staggered")
    free = [(x, y) for y in range(board.height) for x in range(board.width) if board.enterable((x, y))]
    a, b = free[len(free) // 2], free[len(free) // 2 + 3]
    enc = tmp_path / "enc.toml"
    enc.write_text(make_maps.ENCOUNTER.format(title="real", map=path.as_posix()).replace(
        'skills = {{ Melee = 3 }}'.replace("{{", "{").replace("}}", "}"),
        f'skills = {{ Melee = 3 }}\nat = [{b[0]}, {b[1]}]').replace(
        'side = "heroes"', f'side = "heroes"\nat = [{a[0]}, {a[1]}]'))
    assert main(["resolve", str(enc)]) == 0, capsys.readouterr().err
    assert main(["reach", str(enc), "--who", "hero", "--use", "Dodge"]) == 0


def test_staggered_squares_cover_the_box_once() -> None:
    """Every cell of a staggered map has its own square, for both axes and both indices."""
    ys, xs = np.mgrid[0:7, 0:9]
    for axis in ("x", "y"):
        for index in ("odd", "even"):
            u, v = staggered_squares(xs, ys, axis, index)
            assert len({(int(a), int(b)) for a, b in zip(u.ravel(), v.ravel(), strict=True)}) == 63


@pytest.mark.parametrize("orientation", ["isometric", "staggered"])
def test_picking_a_point_finds_the_diamond_under_it(orientation: str, maps: dict[str, tuple[Path, Path]]) -> None:
    """The window's pick undoes the projection: a square's centre, and points just inside its four
    corners, pick that square; outside the map (a staggered board's corners) nothing is picked."""
    from battlemat.ui.layout import Layout

    board = load_map(maps[orientation][0])[0]
    lay = Layout(board)
    tw, th = board.tile_width, board.tile_height
    for y in range(board.height):
        for x in range(board.width):
            cx, cy = lay.center((x, y))
            inside = [(cx, cy), (cx, cy - th / 2 + 1), (cx + tw / 2 - 2, cy), (cx, cy + th / 2 - 1),
                      (cx - tw / 2 + 2, cy)]
            want = None if lay.outside(x, y) else (x, y)
            assert [lay.pick(px, py) for px, py in inside] == [want] * 5, (x, y)


@pytest.mark.parametrize("orientation", ["isometric", "staggered"])
def test_annotate_writes_the_projected_board_back(orientation: str, maps: dict[str, tuple[Path, Path]],
                                                   tmp_path: Path) -> None:
    """Item 4 on these maps: the copy's terrain layer, in Tiled's object coordinates of the projection,
    gives the same board (the wall M1 and the water pit M5 on their squares)."""
    from battlemat.io.tiled.annotate import annotate_map, same_terrain

    tmx = maps[orientation][0]
    out = tmp_path / "annotated" / tmx.name
    out.parent.mkdir()
    done = annotate_map(tmx, out)
    assert done.squares >= 2
    board = load_map(tmx)[0]
    assert same_terrain(board, load_map(out)[0]) == []
    # the layer alone says it: with every tile grass, the wall and the pit are still on their squares
    data = ",".join(str(make_maps.GRASS) for _ in range(make_maps.W * make_maps.H))
    text = out.read_text()
    start = text.index('<data encoding="csv">') + len('<data encoding="csv">')
    grass = tmp_path / "annotated" / "grass.tmx"
    grass.write_text(text[:start] + data + text[text.index("</data>", start):])
    again = load_map(grass)[0]
    assert np.array_equal(again.blocked, board.blocked) and np.array_equal(again.pit, board.pit)
    assert board.pit.sum() == 1 and board.blocked.sum() == 1 + int((board.feature == (
        board.features.index(OUTSIDE) if OUTSIDE in board.features else -2)).sum())


@pytest.mark.ui
@pytest.mark.parametrize("orientation", ["isometric", "staggered"])
def test_a_click_on_a_diamond_moves_the_token_there(orientation: str, maps: dict[str, tuple[Path, Path]],
                                                    tmp_path: Path) -> None:
    """Through the real widgets: Tab selects the hero, Dodge shows its reach, a click near the top
    corner of a reachable diamond (not its centre) declares the move there (M1), and the turn plays it."""
    from test_ui import click, finish_turn, key, make_app, press_resolve, skill_key

    app = make_app(tmp_path, str(maps[orientation][1]))
    try:
        play = app.play
        key(app, pygame.K_TAB)
        assert play.ctx.sel.who == "hero"
        key(app, skill_key(app, "Dodge"))
        rc = play.declaring.current_reach()
        assert rc is not None
        far = max(rc.costs, key=lambda sq: (rc.costs[sq], sq))
        cx, cy = play.ctx.layout.center(far)
        near_top = play.ctx.cam.to_screen(cx, cy - play.ctx.layout.th * 0.35)
        click(app, near_top)
        assert play.session.declared["hero"].to == far
        press_resolve(app)
        finish_turn(app)
        assert play.session.position("hero") == far
    finally:
        pygame.display.quit()
