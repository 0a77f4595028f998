"""Walls between squares and doors in the window (issue 29 item 2): drawn where they are, the hover
says which edge holds what, previews read the doors as the match state has them (the preview is the
outcome, M1/M4/R4), the game master toggles a door with a click in GM mode (Shift+click locks), and a
save and its replay keep the change. Driven headless by real pygame events (tests/test_ui.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from test_ui import click, finish_turn, key, make_app, press_resolve, skill_key, ticks, token_pos  # noqa: E402

from battlemat.core.board import Board  # noqa: E402
from battlemat.core.geometry import centre  # noqa: E402
from battlemat.core.walls import Light  # noqa: E402
from battlemat.io.saves import read_save  # noqa: E402
from battlemat.ui import theme  # noqa: E402
from battlemat.ui.camera import Camera  # noqa: E402
from battlemat.ui.layout import Layout  # noqa: E402
from battlemat.ui.session import Session  # noqa: E402
from battlemat.ui.walls_view import WallsView  # noqa: E402

pytestmark = pytest.mark.ui

ENCOUNTER = """[encounter]
title = "The cellar door"
seed = 3
dice = "none"

# The line x = 4 between columns 3 and 4 is a wall but for one door, between (3, 2) and (4, 2).
[map]
rows = ["........", "........", "........", "........", "........"]
walls = [[4, 0, 4, 2], [4, 3, 4, 5]]
doors = [{ id = "d1", at = [4, 2, 4, 3], state = "closed", name = "cellar door" }]

[[character]]
id = "ann"
side = "heroes"
skills = { Melee = 3, Dodge = 2, Shoot = 3 }
at = [2, 2]

[[character]]
id = "bob"
side = "foes"
skills = { Melee = 2 }
at = [7, 2]
"""


@pytest.fixture
def cellar(tmp_path: Path) -> Path:
    """The encounter file: a board drawn inline with its wall and its door (io/inline_map.py)."""
    path = tmp_path / "cellar.toml"
    path.write_text(ENCOUNTER)
    return path


@pytest.fixture
def app(cellar: Path, tmp_path: Path):
    a = make_app(tmp_path, str(cellar))
    ticks(a, 2)
    yield a
    a.close()


def at_units(app, u: float, v: float) -> tuple[int, int]:
    """The screen pixel of a point in board units."""
    ctx = app.play.ctx
    x, y = ctx.cam.to_screen(*ctx.layout.point(u, v))
    return round(x), round(y)


def pixel(app, u: float, v: float) -> tuple[int, int, int]:
    ticks(app, 1)
    return tuple(pygame.display.get_surface().get_at(at_units(app, u, v))[:3])


def near(c: tuple[int, ...], want: tuple[int, ...], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c, want, strict=False))


def door_state(app) -> str:
    s = app.play.session
    return s.state.doors["d1"]


def hover(app, pos: tuple[int, int]) -> None:
    """The pointer moved over a point (the status line then says what is there)."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0), touch=False))
    ticks(app, 2)


def shift_click(app, pos: tuple[int, int]) -> None:
    pygame.key.set_mods(pygame.KMOD_SHIFT)
    try:
        click(app, pos)
    finally:
        pygame.key.set_mods(0)


# -- drawing -------------------------------------------------------------------------------------------
def test_walls_are_drawn_as_dark_lines_where_they_are_and_the_door_as_its_symbol(app) -> None:
    """M1: the wall segments drawn along their board-unit coordinates; M4: the door in its state."""
    app.play.ctx.mouse = (0, 0)  # no hover over the board
    assert near(pixel(app, 4, 1), theme.WALL)  # on the wall between (3, 1) and (4, 1)
    assert near(pixel(app, 4, 4), theme.WALL)
    assert not near(pixel(app, 2.5, 0.5), theme.WALL)  # a square's middle is the map, not a wall
    assert not near(pixel(app, 4.5, 1.5), theme.WALL)  # half a square off the wall
    assert near(pixel(app, 4, 2.5), theme.DOOR_COLOURS["closed"])  # the closed door's leaf, solid


def test_the_terrain_view_counts_the_walls_and_doors_as_the_state_has_them(app) -> None:
    """V: the legend counts the walls and the doors by state (the match state's), the lines drawn
    over the view's fills; V again hides the counts."""
    play = app.play
    key(app, pygame.K_v)
    words = [row.words for _, row in play.aids.legend_spots]
    assert "walls: 2 segments" in words and "doors: 1 closed" in words
    play.ctx.mouse = (0, 0)
    assert near(pixel(app, 4, 1), theme.WALL)
    key(app, pygame.K_m)
    click(app, at_units(app, 4, 2.5))
    ticks(app, 1)
    assert "doors: 1 open" in [row.words for _, row in play.aids.legend_spots]
    key(app, pygame.K_v)
    assert not any(row.words.startswith("walls:") for _, row in play.aids.legend_spots)


def test_a_light_is_a_faint_additive_glow_as_wide_as_its_range() -> None:
    """A map's light (Universal VTT `lights`; no rule reads it) brightens what is under it, most at its
    centre, nothing beyond its range, and never hides the map."""
    board = dataclasses.replace(Board.empty(8, 8, tile_width=40, tile_height=40),
                                lights=(Light(4.0, 4.0, 2.0, "#ff8000", 1.0),))
    lay = Layout(board)
    cam = Camera(0, 0, 320, 320)
    surface = pygame.Surface((320, 320))
    surface.fill((50, 50, 50))
    WallsView(lay).draw_lights(surface, cam)
    centre_px, edge, beyond = (surface.get_at((160 + dx, 160)) for dx in (0, 70, 90))
    assert centre_px[0] > edge[0] > 50 and centre_px[2] == 50  # warm light adds red, no blue
    assert tuple(beyond)[:3] == (50, 50, 50)  # 2 squares of 40 pixels: nothing past 80
    assert centre_px[0] < 140  # faint: the map still shows through


def test_layout_points_take_board_units_to_the_drawn_centres_on_hexes_and_diamonds() -> None:
    """Walls on hex and projected maps are placed by the same map as the squares' centres."""
    boards = [Board.empty(7, 5, "hex", stagger_axis=a, stagger_index=i, tile_width=64, tile_height=56,
                          hex_side_length=30) for a in "xy" for i in ("odd", "even")]
    boards += [Board.empty(6, 5, tile_width=64, tile_height=32).projected(p, (160.0, 16.0))
               for p in ("isometric", "staggered")]
    for b in boards:
        lay = Layout(b)
        for sq in [(0, 0), (3, 2), (b.width - 1, b.height - 1), (1, 4)]:
            got, want = lay.point(*centre(b, sq)), lay.center(sq)
            assert got == pytest.approx(want, abs=1e-6), (b.grid, b.stagger_axis, b.projection, sq)


def test_the_hover_says_which_edge_holds_a_wall_or_the_door(app) -> None:
    """The status line and the card of a square next to a wall: 'wall to the east (M1)', the door by
    its name and state (M4)."""
    play = app.play
    hover(app, at_units(app, 3.5, 1.5))
    assert "wall to the east (M1)" in play.ctx.status
    hover(app, at_units(app, 3.5, 2.5))
    assert "closed door 'cellar door' to the east (M4)" in play.ctx.status
    assert any("closed door 'cellar door' to the east" in ln.text for ln in play.ctx.cards.drawn.lines)
    hover(app, at_units(app, 1.5, 3.5))
    assert "wall" not in play.ctx.status and "door" not in play.ctx.status


# -- the game master's click -----------------------------------------------------------------------------
def test_a_gm_click_opens_and_closes_the_door_and_shift_click_locks_it(app) -> None:
    """GM mode: a click on the door toggles open <-> closed, Shift+click locked; the match state's doors
    change, the log says it was the GM, and the drawing follows."""
    play = app.play
    door = at_units(app, 4, 2.5)
    key(app, pygame.K_m)
    assert play.ctx.gm_mode and "Shift+click" in play.ctx.status
    click(app, door)
    assert door_state(app) == "open" and play.session.board.door("d1").state == "open"
    assert "GM opens the door 'cellar door'" in play.ctx.side.log_plain
    assert play.session.door_changes[-1].state == "open"
    play.ctx.mouse = (0, 0)
    assert not near(pixel(app, 4, 2.5), theme.DOOR_COLOURS["closed"])  # the gap is open
    click(app, door)
    assert door_state(app) == "closed" and "GM closes the door 'cellar door'" in play.ctx.side.log_plain
    shift_click(app, door)
    assert door_state(app) == "locked" and "GM locks the door 'cellar door'" in play.ctx.side.log_plain
    play.ctx.mouse = (0, 0)
    assert near(pixel(app, 4, 2.75), theme.DOOR_COLOURS["locked"])
    hover(app, door)
    click(app, door)  # a plain click leaves a locked door locked, and says how to unlock it
    assert door_state(app) == "locked" and "is locked: Shift+click unlocks it" in play.ctx.status
    shift_click(app, door)
    assert door_state(app) == "closed" and "GM unlocks the door 'cellar door'" in play.ctx.side.log_plain


def test_a_click_on_the_door_outside_gm_mode_changes_nothing(app) -> None:
    """Only the game master toggles doors: in the players' mode a click there is a board click."""
    play = app.play
    assert not play.ctx.gm_mode
    click(app, at_units(app, 4, 2.5))
    shift_click(app, at_units(app, 4, 2.5))
    assert door_state(app) == "closed" and not play.session.door_changes
    assert "GM" not in play.ctx.side.log_plain


def test_the_move_preview_reads_the_door_as_the_state_has_it(app) -> None:
    """The preview is the outcome (M1, M4 door_opening = ends_move): through the closed door Ann ends on
    its far side; open, she walks on; locked, it is a wall."""
    play = app.play
    play.declaring.select("ann")
    key(app, skill_key(app, "Dodge"))
    rc = play.declaring.current_reach()
    assert rc is not None and rc.can_end((4, 2)) and not rc.can_end((5, 2))
    key(app, pygame.K_m)
    click(app, at_units(app, 4, 2.5))
    assert door_state(app) == "open"
    play.declaring.select("ann")
    key(app, skill_key(app, "Dodge"))
    rc = play.declaring.current_reach()
    assert rc is not None and rc.can_end((5, 2))
    click(app, at_units(app, 4, 2.5))
    shift_click(app, at_units(app, 4, 2.5))
    assert door_state(app) == "locked"
    play.declaring.select("ann")
    key(app, skill_key(app, "Dodge"))
    rc = play.declaring.current_reach()
    assert rc is not None and not rc.can_end((4, 2)) and "wall" in str(rc.why_not((4, 2)))


# -- saves and replays -------------------------------------------------------------------------------------
def test_a_gm_door_change_is_saved_and_a_load_or_replay_reaches_the_same_state(app, cellar: Path,
                                                                                tmp_path: Path) -> None:
    """Play a turn, open the door as the GM, play another, save: resuming the save and replaying it
    give the same doors and the same event log (the change is applied before its turn)."""
    play = app.play
    press_resolve(app)
    finish_turn(app)
    key(app, pygame.K_m)
    click(app, at_units(app, 4, 2.5))
    assert door_state(app) == "open"
    press_resolve(app)
    finish_turn(app)
    target = play.files.save_game(tmp_path / "cellar-game.json")
    assert target is not None
    save = read_save(target)
    assert [(c.turn, c.door, c.state) for c in save.doors] == [(2, "d1", "open")]
    log = [(e.type, e.turn, e.text) for e in play.session.match.log]
    resumed, _ = Session.from_save(save, target)
    assert resumed.state.doors == play.session.state.doors
    assert [(e.type, e.turn, e.text) for e in resumed.match.log] == log
    replay, pending = Session.from_save(save, target, replay=True)
    assert replay.state.doors["d1"] == "closed"  # turn 1: as the map has it
    replay.go_to(2)
    assert replay.state.doors["d1"] == "open"  # the start of turn 2, after the GM's change
    for _ in pending[1:]:
        replay.resolve()
    assert [(e.type, e.turn, e.text) for e in replay.match.log] == log and replay.state.doors["d1"] == "open"
    play.open_path(str(target))  # the window's own open: the door is drawn open
    assert door_state(app) == "open"
    assert any(e.text == "GM opens the door 'cellar door'" for e in play.session.match.log)
    assert "marks no walls" not in play.ctx.side.log_plain


def test_a_door_change_at_a_rewound_turn_branches(app) -> None:
    """Changing a door at a past turn changes what follows: the turns ahead are dropped, as a changed
    intent drops them."""
    play = app.play
    for _ in range(2):
        press_resolve(app)
        finish_turn(app)
    key(app, pygame.K_PAGEUP)
    key(app, pygame.K_PAGEUP)
    assert play.session.turn == 1 and play.session.future
    key(app, pygame.K_m)
    click(app, at_units(app, 4, 2.5))
    s = play.session
    assert door_state(app) == "open" and not s.future and s.branched_at == 1
    assert [(c.turn, c.state) for c in s.door_changes] == [(1, "open")]


def test_a_step_through_the_door_opens_it_in_the_playback_and_the_log(app) -> None:
    """M4 door_opening = ends_move: Ann's move through the closed door opens it; the playback draws the
    door closed until the step reaches it, the log panel shows the resolver's door event, and the door
    stays open after the turn (read from the match state, not the map)."""
    play = app.play
    play.declaring.select("ann")
    key(app, skill_key(app, "Dodge"))
    click(app, at_units(app, 4.5, 2.5))
    assert play.session.declared["ann"].to == (4, 2)
    press_resolve(app)
    assert play.ctx.player is not None and play.ctx.player.doors["d1"] == "closed"
    finish_turn(app)
    assert door_state(app) == "open" and play.session.board.door("d1").state == "open"
    opened = [e for e in play.session.match.log if e.type == "door"]
    assert [(e.data["who"], e.data["door"], e.data["state"]) for e in opened] == [("ann", "d1", "open")]
    assert opened[0].text in play.ctx.side.log_plain
    play.ctx.mouse = (0, 0)
    assert not near(pixel(app, 4, 2.5), theme.DOOR_COLOURS["closed"])


def test_the_hover_forecast_sees_through_the_door_only_when_it_is_open(app) -> None:
    """R4: a closed door blocks the line of sight the hover card draws; opened by the game master, the
    same card says the line is clear (the forecast reads the doors as the match has them)."""
    play = app.play
    play.declaring.select("ann")
    key(app, skill_key(app, "Shoot"))
    hover(app, token_pos(app, "bob"))
    card = play.board.shown_card
    assert any("closed door 'cellar door' stands between" in words for words in card), card
    key(app, pygame.K_m)
    hover(app, at_units(app, 4, 2.5))
    click(app, at_units(app, 4, 2.5))
    assert door_state(app) == "open"
    play.declaring.select("ann")
    key(app, skill_key(app, "Shoot"))
    hover(app, token_pos(app, "bob"))
    assert "line of sight: clear" in play.board.shown_card, play.board.shown_card
