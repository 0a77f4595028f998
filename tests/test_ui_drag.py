"""Dragging a token to move it (issue 17, item 8) and a window that draws only when something changed
(item 11), driven by real pygame events through `App.tick` (SDL_VIDEODRIVER=dummy).

The ruler must say what the movement module says: its route is `movement.plan_route`'s for the
intent the drop declares, its costs the Steps', its stops the Refusals' rule IDs (M1, M7, M10...).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from test_ui import (  # noqa: E402
    click,
    finish_turn,
    key,
    press_resolve,
    skill_key,
    square_pos,
    ticks,
    token_pos,
)

from battlemat.core import movement  # noqa: E402
from battlemat.core.uses import sticky_uses  # noqa: E402
from battlemat.ui.options import PlayOptions  # noqa: E402

pytestmark = pytest.mark.ui


# -- a drag through pygame's event queue ---------------------------------------------------------------
def _xy(pos: tuple[float, float]) -> tuple[int, int]:
    return round(pos[0]), round(pos[1])


def press(app, pos: tuple[float, float], button: int = 1) -> None:
    pos = _xy(pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0), touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button, touch=False))
    ticks(app, 1)


def move(app, to: tuple[float, float], steps: int = 4) -> None:
    """The pointer moves to `to` with the left button held, in a few motion events."""
    x0, y0 = app.play.ctx.mouse
    x1, y1 = _xy(to)
    last = (x0, y0)
    for i in range(1, steps + 1):
        p = (round(x0 + (x1 - x0) * i / steps), round(y0 + (y1 - y0) * i / steps))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(p[0] - last[0], p[1] - last[1]),
                                             buttons=(1, 0, 0), touch=False))
        last = p
        ticks(app, 1)


def release(app, button: int = 1) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=app.play.ctx.mouse, button=button, touch=False))
    ticks(app, 1)


def drag(app, frm: tuple[float, float], to: tuple[float, float], drop: bool = True) -> None:
    press(app, frm)
    move(app, to)
    if drop:
        release(app)


def save_screen(app, path: Path) -> Path:
    """The window as it is now, as a PNG (BATTLEMAT_SHOTS=DIR keeps a copy to look at)."""
    pygame.image.save(pygame.display.get_surface(), str(path))
    keep = os.environ.get("BATTLEMAT_SHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)
    return path


def the_route(app, sq: tuple[int, int]) -> movement.Route:
    """The movement module's own route for the selected draft to `sq`, built here from its public
    functions exactly as the preview and the resolver's check build their questions."""
    play = app.play
    d = play.ctx.sel.draft
    s = play.session
    chars = s.chars_view()
    visible = {c: it for c, it in s.declared.items() if play.ctx.visible_intent(c) and c != d.who}
    mover = movement.mover_for(s.match.memory, chars, d.who, d.use, d.target, d.item)
    ctx = movement.context(s.enc, chars, s.enc.by_id[d.who].side, sticky_uses(s.enc.rules, visible), who=d.who)
    rc = movement.reach(s.board, s.enc.rules, mover, ctx)
    return rc.route_to(sq)


def _pick(app, who: str, half: str) -> None:
    click(app, token_pos(app, who))
    key(app, skill_key(app, half))
    assert app.play.ctx.sel.who == who and app.play.ctx.sel.draft.use == half


def _stays(app, who: str) -> bool:
    """Declared without a move (Dodge is declared as soon as it is picked: it needs no target)."""
    it = app.play.session.declared.get(who)
    return it is not None and not it.moves


# -- item 8: drag a token ----------------------------------------------------------------------------------
def test_M1_drag_to_a_reachable_square_declares_what_a_click_declares_and_the_ruler_is_the_route(
        app, tmp_path: Path) -> None:
    play = app.play
    _pick(app, "garran", "Dodge")
    here = play.session.position("garran")
    to = (here[0] + 2, here[1])
    route = the_route(app, to)
    assert route.stopped is None and route.cost == 2

    drag(app, token_pos(app, "garran"), square_pos(app, to), drop=False)
    r = play.dragging.drag.ruler
    assert play.dragging.token_dragged() and r is not None and r.to == to
    reach = play.declaring.current_reach()
    assert (r.route.squares, r.used, r.allowance) == (route.squares, route.cost, reach.allowance)
    assert [(s.at, s.cost, s.rule) for s in r.stops] == [(to, 2, "")]
    assert f"2 of {r.allowance} squares" in play.ctx.status
    shot = save_screen(app, tmp_path / "drag_ruler.png")
    assert shot.stat().st_size > 0
    release(app)
    dragged = play.session.declared["garran"]
    assert (dragged.to, dragged.path) == (to, route.squares)
    assert play.dragging.drag is None

    key(app, pygame.K_BACKSPACE)  # clear it, then the same square by a click
    assert "garran" not in play.session.declared
    key(app, skill_key(app, "Dodge"))
    assert _stays(app, "garran")
    click(app, square_pos(app, to))
    assert play.session.declared["garran"] == dragged

    press_resolve(app)  # and the resolver walks the route the ruler drew
    finish_turn(app)
    moved = [e for e in play.session.match.log if e.type == "moved" and e.data["who"] == "garran"]
    assert [tuple(sq) for sq in moved[0].data["route"]] == list(route.squares)
    assert moved[0].data["cost"] == r.used


def test_M1_drop_on_a_refused_square_refuses_with_the_reason(app) -> None:
    play = app.play
    _pick(app, "garran", "Dodge")
    here = play.session.position("garran")
    rc = play.declaring.current_reach()
    wall = next(sq for sq in sorted(rc.refused) if not play.session.board.enterable(sq))
    why = rc.why_not(wall)
    drag(app, token_pos(app, "garran"), square_pos(app, wall), drop=False)
    r = play.dragging.drag.ruler
    assert r.refusal == why and r.route.squares == ()
    assert [(s.at, s.rule, s.words) for s in r.stops] == [(wall, why.rule, why.why)]
    release(app)
    assert _stays(app, "garran")
    assert play.session.position("garran") == here
    status = play.ctx.status
    assert f"Cannot end on {wall}" in status and why.why in status and f"[{why.rule}]" in status

    far = next(sq for sq, ref in sorted(rc.refused.items()) if ref.rule == "M1" and play.session.board.enterable(sq))
    drag(app, token_pos(app, "garran"), square_pos(app, far))
    assert _stays(app, "garran")
    assert "beyond the allowance" in play.ctx.status and "[M1]" in play.ctx.status


def test_esc_and_the_right_button_cancel_a_drag(app) -> None:
    play = app.play
    _pick(app, "garran", "Dodge")
    here = play.session.position("garran")
    to = (here[0] + 1, here[1])
    drag(app, token_pos(app, "garran"), square_pos(app, to), drop=False)
    assert play.dragging.token_dragged()
    key(app, pygame.K_ESCAPE)
    assert play.dragging.drag is None
    assert play.ctx.sel.who == "garran" and play.ctx.sel.draft is not None  # Esc cancelled the drag only
    release(app)
    assert _stays(app, "garran")

    drag(app, token_pos(app, "garran"), square_pos(app, to), drop=False)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=play.ctx.mouse, button=3, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=play.ctx.mouse, button=3, touch=False))
    ticks(app, 1)
    assert play.dragging.drag is None
    release(app)
    assert _stays(app, "garran")
    assert play.ctx.sel.who == "garran"  # the right button cancelled the drag, not the selection


def test_a_press_without_moving_is_still_a_click_and_dragging_the_board_still_pans(app) -> None:
    play = app.play
    _pick(app, "garran", "Dodge")
    click(app, token_pos(app, "garran"))
    assert play.dragging.drag is None and play.ctx.sel.who == "garran"
    x, y = play.ctx.cam.x, play.ctx.cam.y
    empty = square_pos(app, (1, 1))
    drag(app, empty, (empty[0] + 60, empty[1] + 30))
    assert (play.ctx.cam.x, play.ctx.cam.y) != (x, y)
    assert _stays(app, "garran")


def test_M11_a_waypoint_changes_the_route_where_the_skill_lets_the_mover_choose(app, tmp_path: Path) -> None:
    play = app.play
    _pick(app, "garran", "Dodge")
    here = play.session.position("garran")
    to = (here[0] + 2, here[1])
    direct = the_route(app, to)
    via = (here[0] + 1, here[1] - 1)
    assert via not in direct.squares
    press(app, token_pos(app, "garran"))
    move(app, square_pos(app, via))
    key(app, pygame.K_LSHIFT)
    assert play.dragging.drag.waypoints == [via]
    move(app, square_pos(app, to))
    r = play.dragging.drag.ruler
    assert r.refusal is None and via in r.route.squares and r.route.squares != direct.squares
    save_screen(app, tmp_path / "drag_waypoint.png")
    # the movement module walks the same path to the same cost (follow: the resolver's check and P2)
    walked = movement.follow(play.session.board, play.ctx.enc.rules, *_mover_ctx(app), r.path)
    assert (walked.squares, walked.cost, walked.stopped) == (r.route.squares, r.used, None)
    assert [(s.at, s.words) for s in r.stops] == [(via, "waypoint"), (to, "ends here")]
    release(app)
    it = play.session.declared["garran"]
    assert it.to == to and it.path == r.path and via in it.path

    # a waypoint that takes the route past the allowance: refused, with the movement module's reason
    far = (here[0] + 2, here[1] + 2)
    press(app, token_pos(app, "garran"))
    move(app, square_pos(app, far))
    key(app, pygame.K_RSHIFT)
    move(app, square_pos(app, to))
    r = play.dragging.drag.ruler
    assert r.refusal is not None and r.refusal.rule == "M1"
    assert r.stops[-1].rule == "M1"
    save_screen(app, tmp_path / "drag_waypoint_refused.png")
    release(app)
    assert play.session.declared["garran"] == it  # the earlier move stands
    assert "[M1]" in play.ctx.status


def _mover_ctx(app):
    play = app.play
    d, s = play.ctx.sel.draft, play.session
    chars = s.chars_view()
    visible = {c: it for c, it in s.declared.items() if play.ctx.visible_intent(c) and c != d.who}
    mover = movement.mover_for(s.match.memory, chars, d.who, d.use, d.target, d.item)
    return mover, movement.context(s.enc, chars, s.enc.by_id[d.who].side, sticky_uses(s.enc.rules, visible), who=d.who)


def test_M7_press_takes_no_waypoints_and_the_ruler_says_why(app, tmp_path: Path) -> None:
    play = app.play
    _pick(app, "farran", "Press")
    click(app, token_pos(app, "statue"))
    assert play.session.declared["farran"].target == "statue"
    charge = play.session.declared["farran"]
    here = play.session.position("farran")
    press(app, token_pos(app, "farran"))
    move(app, square_pos(app, (here[0], here[1] + 1)))
    key(app, pygame.K_LSHIFT)
    d = play.dragging.drag
    assert d.waypoints == [] and d.note is not None and d.note.rule == "M7"
    assert "straight line" in d.note.why and "[M7]" in play.ctx.status
    save_screen(app, tmp_path / "drag_press_no_waypoint.png")
    # the ruler shows the charge the resolver takes, whatever the pointer is on
    mover, ctx = _mover_ctx(app)
    plan = movement.plan_route(play.session.board, play.ctx.enc.rules, mover, ctx, movement.Plan(None, (), ctx))
    end = play.declaring.current_reach()
    move(app, square_pos(app, plan.end))
    assert play.dragging.drag.ruler.route.squares == plan.squares and end.can_end(plan.end)
    release(app)
    assert play.session.declared["farran"] == charge


def test_drop_off_the_board_changes_nothing(app) -> None:
    play = app.play
    _pick(app, "garran", "Dodge")
    drag(app, token_pos(app, "garran"), (play.ctx.frame.side.centerx, play.ctx.frame.side.centery))
    assert _stays(app, "garran") and play.dragging.drag is None


# -- item 11: draw only when something changed -------------------------------------------------------------
def test_an_idle_window_draws_nothing(app) -> None:
    ticks(app, 3)
    drawn = app.draws
    ticks(app, 20)
    assert app.draws == drawn


def test_hover_a_command_and_a_resize_each_draw(app) -> None:
    play = app.play
    ticks(app, 3)
    drawn = app.draws
    sq = square_pos(app, (5, 5))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=_xy(sq), rel=(1, 0), buttons=(0, 0, 0), touch=False))
    ticks(app, 1)
    assert app.draws == drawn + 1  # the hover
    ticks(app, 5)
    assert app.draws == drawn + 1
    play.declaring.select("garran")  # a change made without an event: the board's looks changed
    ticks(app, 1)
    assert app.draws == drawn + 2
    ticks(app, 3)
    drawn = app.draws
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1500, 950), w=1500, h=950))
    pygame.event.post(pygame.event.Event(pygame.WINDOWRESIZED, x=1500, y=950))
    ticks(app, 1)
    assert app.draws == drawn + 1 and app.size == (1500, 950)


def test_a_widget_that_changes_by_itself_is_drawn(app) -> None:
    """A tooltip comes up after the pointer rests on a button: no event, a new widget image."""
    play = app.play
    button = play.ctx.side.resolve
    pos = button.get_abs_rect().center
    pygame.mouse.set_pos(pos)  # pygame_gui asks SDL where the pointer is; a posted event does not move it
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(0, 0, 0), touch=False))
    ticks(app, 2)  # the motion, then pygame_gui's hover events
    app._pointer_on_panels = 0.0  # as if the pointer had rested there a while: only a change draws now
    for _ in range(40):
        drawn = app.draws
        ticks(app, 1, dt=0.1)
        if button.tool_tip is not None:
            break
        assert app.draws == drawn  # nothing changed yet
    assert button.tool_tip is not None
    assert app.draws == drawn + 1  # the frame the tooltip came up in
    settled = app.draws
    ticks(app, 5, dt=0.1)
    assert app.draws == settled


def test_a_turn_playing_back_draws_every_frame(app) -> None:
    _pick(app, "garran", "Dodge")
    press_resolve(app)
    assert app.play.ctx.player is not None
    drawn = app.draws
    ticks(app, 5, dt=0.01)
    assert app.draws == drawn + 5
    finish_turn(app)
    ticks(app, 2)
    drawn = app.draws
    ticks(app, 10)
    assert app.draws - drawn <= 10  # at most the selection ring's pulse (none here: nobody is selected)


def test_the_selection_ring_pulses_in_its_own_square_then_rests(app, monkeypatch) -> None:
    import battlemat.ui.app as app_module

    play = app.play
    play.declaring.select("garran")
    ticks(app, 2)
    clock = [1000.0]
    monkeypatch.setattr(app_module.time, "monotonic", lambda: clock[0])  # (the one `time` module: play's too)
    app._last_event = clock[0]
    ticks(app, 1)
    drawn = app.draws
    for _ in range(6):
        clock[0] += 0.1
        ticks(app, 1)
    assert app.draws > drawn  # the ring moved
    area = play.ring()[1]
    assert play.ctx.frame.board.contains(area) and area.width < 200
    clock[0] += app_module.RING_PULSES + 1
    ticks(app, 1)
    drawn = app.draws
    for _ in range(6):
        clock[0] += 0.1
        ticks(app, 1)
    assert app.draws == drawn  # a window left alone rests


def test_a_resize_refits_the_map(app) -> None:
    play = app.play
    key(app, pygame.K_EQUALS)
    key(app, pygame.K_EQUALS)
    zoomed = play.ctx.cam.zoom
    for size in ((1700, 1000), (1024, 700)):
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
        ticks(app, 1)
        b = play.ctx.frame.board
        assert (play.ctx.cam.view_w, play.ctx.cam.view_h) == (b.width, b.height)
        cx, cy = play.ctx.cam.to_screen(play.ctx.art.width / 2, play.ctx.art.height / 2)
        assert abs(cx - b.centerx) <= 1 and abs(cy - b.centery) <= 1  # the map is centred ...
        x0, y0 = play.ctx.cam.to_screen(0, 0)
        x1, y1 = play.ctx.cam.to_screen(play.ctx.art.width, play.ctx.art.height)
        assert b.left <= x0 and x1 <= b.right and b.top <= y0 and y1 <= b.bottom  # ... and whole
    assert play.ctx.cam.zoom != zoomed


def test_first_launch_plays_at_once_while_the_search_is_prepared_in_the_background(tmp_path: Path) -> None:
    """`run` prepares the compiled search in a thread named movement.WARMING and does not wait for it
    (issue 30, item 4): the window is set up and draws, the status line says what happens in the
    background, and the core's searches meanwhile are the reference's (same answers); once the
    preparation ends, the words go."""
    import argparse
    import threading

    from battlemat.commands.args import add_play_arguments
    from battlemat.ui import app as app_module

    release, began = threading.Event(), threading.Event()

    def slow(started) -> None:  # type: ignore[no-untyped-def]
        assert threading.current_thread().name == movement.WARMING
        began.set()
        assert release.wait(60)

    p = argparse.ArgumentParser()
    p.add_argument("encounter", nargs="?", default=None)
    add_play_arguments(p)
    a = app_module.App(PlayOptions.from_namespace(p.parse_args(["--save-dir", str(tmp_path)])), warm=slow)
    try:
        assert began.wait(60) and movement.warming()  # set up while the preparation still runs
        ticks(a, 2)
        assert a.draws >= 1 and a.play.ctx.status == app_module.WARMING_WORDS
        save_screen(a, tmp_path / "first_launch.png")
        release.set()
        for _ in range(600):  # (a condition with a generous limit, never a fixed sleep)
            ticks(a, 1)
            if a.play.ctx.status != app_module.WARMING_WORDS:
                break
            threading.Event().wait(0.05)
        assert not movement.warming() and a.play.ctx.status != app_module.WARMING_WORDS
    finally:
        release.set()
        a.close()
