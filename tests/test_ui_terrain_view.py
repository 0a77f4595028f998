"""The window's terrain view (issue 26 item 3): V shows what battlemat understood of a map by others,
the walls of its collision layer filled over the map with a legend row, in the palette of
`check --picture`; V again hides it. Pressed through the real event flow, headless."""

from __future__ import annotations

from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from test_ui import key, make_app, square_pos, ticks  # noqa: E402

pytestmark = pytest.mark.ui

MAP = """<map version="1.10" orientation="orthogonal" width="6" height="5" tilewidth="48" tileheight="48">
 <tileset firstgid="1" name="t" tilewidth="48" tileheight="48" tilecount="2" columns="0"/>
 <layer name="ground" width="6" height="5"><data encoding="csv">
1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1</data></layer>
 <objectgroup name="Collisions"><object id="1" x="144" y="0" width="48" height="192"/></objectgroup>
</map>"""

ENCOUNTER = """[encounter]
title = "Walls by others"
map = "walls.tmx"
[[character]]
id = "a"
side = "x"
skills = { Melee = 3 }
at = [0, 0]
[[character]]
id = "b"
side = "y"
skills = { Melee = 2 }
at = [5, 4]
"""


def test_v_shows_the_understood_walls_with_a_legend_row_and_hides_them_again(tmp_path: Path) -> None:
    (tmp_path / "walls.tmx").write_text(MAP)
    enc = tmp_path / "walls.toml"
    enc.write_text(ENCOUNTER)
    app = make_app(tmp_path, str(enc))
    play = app.play
    screen = pygame.display.get_surface()
    ticks(app, 2)
    assert not play.aids.terrain_view.on
    at = tuple(round(v) for v in square_pos(app, (3, 1)))
    before = screen.get_at(at)[:3]
    key(app, pygame.K_v)
    assert play.aids.terrain_view.on and "Terrain view" in play.ctx.status
    words = [row.words for _, row in play.aids.legend_spots]
    assert "walls: 4 squares" in words
    after = screen.get_at(at)[:3]
    assert after[0] > before[0] + 40 and after[0] > after[1] + 40  # the wall square turned red
    key(app, pygame.K_v)
    assert not play.aids.terrain_view.on
    assert "walls: 4 squares" not in [row.words for _, row in play.aids.legend_spots]
    assert screen.get_at(at)[:3] == before


def test_a_map_that_marks_nothing_says_so_in_the_log_and_one_with_walls_does_not(tmp_path: Path) -> None:
    """Issue 26: a map whose walls are only in its art no longer plays as open floor in silence."""
    (tmp_path / "open.tmx").write_text(MAP.replace('<objectgroup name="Collisions"><object id="1" x="144" y="0" '
                                                   'width="48" height="192"/></objectgroup>', ""))
    enc = tmp_path / "open.toml"
    enc.write_text(ENCOUNTER.replace("walls.tmx", "open.tmx"))
    app = make_app(tmp_path, str(enc))
    ticks(app, 2)
    assert "This map marks no walls, pits or difficult ground" in app.play.ctx.side.log_plain
    (tmp_path / "walls.tmx").write_text(MAP)
    walls = tmp_path / "walls.toml"
    walls.write_text(ENCOUNTER)
    app = make_app(tmp_path, str(walls))
    ticks(app, 2)
    assert "marks no walls" not in app.play.ctx.side.log_plain
