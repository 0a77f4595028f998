"""The window at the table (issue 32 items 3-5): nothing swallows a click or covers the board, any
window size lays out without overlap or clipping, and step mode and the log group idle characters.
Driven headless by real pygame events (clicks, keys, resizes)."""

from __future__ import annotations

from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from conftest import ROOT  # noqa: E402
from test_ui import click, finish_turn, key, make_app, press_resolve, skill_key, ticks, token_pos  # noqa: E402

from battlemat.ui import theme  # noqa: E402
from battlemat.ui.logbook import is_idle  # noqa: E402

pytestmark = pytest.mark.ui

SIZES = [(1000, 640), (1280, 800), (1920, 1080), (3840, 2160)]
FOREST = ROOT / "maps" / "forest_ambush.toml"


def move(app, pos: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    pos = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0), touch=False))
    ticks(app, 1)


def resize(app, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """As SDL resizes a window: VIDEORESIZE, then WINDOWSIZECHANGED."""
    w, h = size
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=w, h=h))
    pygame.event.post(pygame.event.Event(pygame.WINDOWSIZECHANGED, x=w, y=h))
    ticks(app, 2)


# -- item 3: a card never takes a click meant for the board; panels dock beside it ---------------------
def test_a_card_under_the_pointer_gives_way_and_the_click_declares(app) -> None:
    """Billin, Throw (key 6), the pointer moves to the Ogre leader in two quick moves, so that the
    card of the square it passed lies over the Ogre leader when it gets there: the card gives way to
    the token under it (its forecast, R1), and the click declares the throw at the Ogre leader (P)."""
    play = app.play
    click(app, token_pos(app, "billin"))
    key(app, skill_key(app, "Throw"))
    assert play.ctx.sel.draft is not None and play.ctx.sel.draft.use == "Throw"
    ogre = token_pos(app, "ogre_boss")
    move(app, (ogre[0] - 30, ogre[1] - 30))  # a square's refusal card, drawn down-right of the pointer
    card = play.ctx.cards.card
    assert card is not None and card.rect.collidepoint(round(ogre[0]), round(ogre[1])), "the card covers the foe"
    move(app, ogre)
    shown = play.ctx.cards.card
    assert shown is not None and not shown.held, "a card held over the foe would hide it"
    assert "Predicted contest" in play.board.shown_card[0] or any("sight" in w for w in play.board.shown_card)
    click(app, ogre)
    it = play.session.declared.get("billin")
    assert it is not None and (it.use, it.target) == ("Throw", "ogre_boss")


def test_a_click_on_a_held_card_goes_to_the_board(app) -> None:
    """A card the pointer holds still (to hover its rule IDs) takes no click but on a rule ID: a
    click elsewhere on it is the board's, here a square Billin can reach (M1)."""
    play = app.play
    click(app, token_pos(app, "billin"))
    key(app, skill_key(app, "Throw"))
    rc = play.declaring.current_reach()
    assert rc is not None
    # a held card made by hand over a reachable square: the same memory the hover fills
    from battlemat.ui.cards import Line, ShownCard

    sq = max((s for s in rc.costs if rc.can_end(s) and s != play.session.position("billin")),
             key=lambda s: rc.costs[s])
    at = play.ctx.cam.to_screen(*play.ctx.layout.center(sq))
    at = (round(at[0]), round(at[1]))
    rect = pygame.Rect(at[0] - 40, at[1] - 10, 160, 40)
    play.ctx.cards.card = ShownCard([Line("a card")], at, play.ctx.frame.board, 360, rect, 0.0, held=True)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=at, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=at, button=1, touch=False))
    ticks(app, 1)
    assert play.ctx.sel.draft is not None and play.ctx.sel.draft.to == sq


def test_predict_and_legend_dock_beside_the_board_never_over_it(app) -> None:
    """P: the predicted turn's summary and the legend sit in the dock column; the board view (and so
    every ghost) is what is left of the stage; nothing docked overlaps it."""
    play = app.play
    click(app, token_pos(app, "billin"))
    key(app, skill_key(app, "Throw"))
    key(app, pygame.K_p)
    ticks(app, 2)
    f = play.ctx.frame
    assert play.ctx.ghost is not None and f.dock.width > 0
    assert play.aids.dock_card is not None and f.dock.contains(play.aids.dock_card)
    assert play.aids.legend_spots and all(f.dock.contains(r) for r, _ in play.aids.legend_spots)
    assert not f.dock.colliderect(f.board) and f.stage.contains(f.board)
    cam = play.ctx.cam
    assert (cam.view_x, cam.view_y, cam.view_w, cam.view_h) == (f.board.x, f.board.y, f.board.width, f.board.height)
    for cid, end in play.ctx.ghost.ends.items():  # the ghosts are on the board, none under the dock
        x, y = cam.to_screen(*play.ctx.layout.center(end))
        assert not f.dock.collidepoint(x, y), cid
    key(app, pygame.K_l)  # the legend hidden, the prediction cleared: nothing docked, the board takes it all
    key(app, pygame.K_p)
    ticks(app, 1)
    assert play.ctx.frame.dock.width == 0 and play.ctx.frame.board == play.ctx.frame.stage


def test_a_legend_row_in_the_dock_opens_its_rule(app) -> None:
    from battlemat.ui.screens import RulesScreen

    ticks(app, 1)
    rect, row = next((r, row) for r, row in app.play.aids.legend_spots if row.rule)
    click(app, rect.center)
    assert isinstance(app.stack[-1], RulesScreen)


# -- item 4: any window size --------------------------------------------------------------------------
def check_layout(app, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    play = app.play
    f = play.ctx.frame
    screen = pygame.Rect(0, 0, *size)
    parts = [f.top, f.stage, f.status, f.side]
    for i, a in enumerate(parts):
        assert screen.contains(a), (size, a)
        for b in parts[i + 1:]:
            assert not a.colliderect(b), (size, a, b)
    top = play.ctx.top
    scale = f.scale
    buttons = list(top.buttons.values())
    for i, b in enumerate(buttons):
        r = b.get_abs_rect()
        assert f.top.contains(r), (size, b.text)
        assert theme.font(max(12, round(14 * scale))).size(b.text)[0] <= r.width - 8, (size, b.text, r)
        for o in buttons[i + 1:]:
            assert not r.colliderect(o.get_abs_rect()), (size, b.text, o.text)
    title = top.title.get_abs_rect()
    assert not any(title.colliderect(b.get_abs_rect()) for b in buttons), size
    shown = top.title.text
    assert theme.font(round(18 * scale), True).size(shown)[0] <= top.title_room(), (size, shown)
    assert shown == top.full_title or shown.endswith("\u2026"), (size, shown)
    side = play.ctx.side
    widgets = [b for _, b in side.skill_buttons] + [side.intents, side.clear, side.undo, side.resolve, side.log]
    for w in widgets:
        assert f.side.contains(w.get_abs_rect()), (size, w)
    for i, a in enumerate(widgets):
        for b in widgets[i + 1:]:
            assert not a.get_abs_rect().colliderect(b.get_abs_rect()), (size, a, b)
    skill_face = theme.font(max(12, round(13 * scale)))
    for _, b in side.skill_buttons:
        assert skill_face.size(b.text)[0] <= b.get_abs_rect().width - 12, (size, b.text)
    line = theme.font(max(11, round(13 * scale))).get_linesize()
    assert side.log.get_abs_rect().height >= 3 * line + 8, (size, side.log.get_abs_rect())


@pytest.mark.parametrize("size", SIZES)
def test_every_size_lays_out_without_overlap_or_clipping(tmp_path: Path, size: tuple[int, int]) -> None:
    """A window opened at each size, Parwanna (the most skills) selected, then the same window resized
    to every other size by SDL's events."""
    app = make_app(tmp_path, str(FOREST) if size[0] == 1000 else str(ROOT / "maps" / "art_gallery.toml"),
                   "--size", f"{size[0]}x{size[1]}")
    try:
        ticks(app, 2)
        first = app.play.ctx.enc.characters[0].id
        click(app, token_pos(app, first))
        most = max(app.play.ctx.enc.characters, key=lambda c: len(app.play.ctx.skills_of(c.id)))
        app.play.declaring.select(most.id) if app.play.ctx.controllable(most.id) else None
        ticks(app, 1)
        check_layout(app, size)
        for other in SIZES:
            if other != size:
                resize(app, other)
                assert app.play.ctx.frame.side.right == other[0]
                check_layout(app, other)
    finally:
        app.close()


def test_the_whole_title_is_said_on_hover_when_cut(tmp_path: Path) -> None:
    """At 1000x640 with a long title (a replay's words), the title ends in an ellipsis and the
    status line says it whole when the pointer is on it."""
    app = make_app(tmp_path, str(FOREST), "--size", "1000x640")
    try:
        ticks(app, 2)
        top = app.play.ctx.top
        long = "Forest Ambush  -  turn 3 of 12 - replay: Enter plays the saved turn; declaring here branches " * 2
        top.set_title(long)
        assert top.title.text.endswith("\u2026") and top.full_title == long
        move(app, top.title.get_abs_rect().midleft)
        move(app, (top.title.get_abs_rect().x + 40, top.title.get_abs_rect().centery))
        assert app.play.ctx.status == long
    finally:
        app.close()


def test_screenshots_at_the_smallest_and_a_common_size(tmp_path: Path) -> None:
    """The screenshots looked at for the report (also a smoke test of drawing at both sizes)."""
    for size in ((1000, 640), (1920, 1080)):
        app = make_app(tmp_path, str(FOREST), "--size", f"{size[0]}x{size[1]}")
        try:
            ticks(app, 2)
            first = next(c.id for c in app.play.ctx.enc.characters if app.play.ctx.controllable(c.id))
            click(app, token_pos(app, first))
            key(app, pygame.K_p)
            ticks(app, 2)
            out = tmp_path / f"table_{size[0]}x{size[1]}.png"
            app.screenshot(out)
            assert pygame.image.load(str(out)).get_size() == size
        finally:
            app.close()


# -- item 5: step mode and the log at the table ---------------------------------------------------------
def test_idle_characters_are_one_line_and_one_step(app) -> None:
    """Resolve with every watchman idle (P: no intent, opposes with 0, C5): the events stay one per
    character, the log shows each run of them as one line, and step mode starts a run with one key."""
    play = app.play
    key(app, pygame.K_t)  # step mode
    press_resolve(app)
    player = play.ctx.player
    assert player is not None
    idle = [ev for ev in player.events if is_idle(ev)]
    assert len(idle) >= 5  # the five watchmen
    presses = 0
    while player.index < len(player.events) and player.events[player.index - 1].type != "phase" and presses < 40:
        ticks(app, 30, dt=0.5)
        if player.waiting:
            key(app, pygame.K_SPACE)
            presses += 1
    before_phase = player.events[:player.index]
    assert before_phase[-1].type == "phase"
    assert presses < len(before_phase) - 1, (presses, len(before_phase))
    key(app, pygame.K_ESCAPE)
    finish_turn(app)
    lines = [ln for ln in play.ctx.side.log_plain.splitlines() if ln.endswith(" idle") or ln.endswith(" is idle")]
    assert len(lines) < len(idle), lines
    names = {play.ctx.enc.by_id[str(ev.data["who"])].name for ev in idle}
    assert all(any(n in ln for ln in lines) for n in names), (names, lines)
    assert sum(1 for e in play.ctx.side.book.entries if e.plain.endswith(" idle")) >= 1


def test_the_step_hint_and_the_timeline_do_not_meet(app) -> None:
    """Once there is a turn to go back to, the timeline has its strip under the board; the step hint
    is drawn at the bottom of the board view, above the strip."""
    play = app.play
    press_resolve(app)
    finish_turn(app)
    key(app, pygame.K_t)
    press_resolve(app)
    ticks(app, 30, dt=0.5)
    f = play.ctx.frame
    assert f.strip.height > 0 and not f.strip.colliderect(f.board)
    assert f.strip.contains(play.timeline.rect)
    cam = play.ctx.cam
    hint_bottom = cam.view_y + cam.view_h - 10  # animation.Player.draw: the hint's midbottom
    assert hint_bottom <= f.strip.top
    key(app, pygame.K_ESCAPE)
    finish_turn(app)


def test_opening_another_encounter_forgets_the_status_of_the_last(app) -> None:
    play = app.play
    click(app, token_pos(app, "billin"))
    key(app, skill_key(app, "Throw"))
    click(app, token_pos(app, "ogre_boss"))
    assert "Ogre leader" in play.ctx.status or "Billin" in play.ctx.status
    move(app, play.ctx.frame.status.center)  # the pointer off the board (on the status line)
    play.restart()  # the victory screen's "play again", and the path every open takes (load_session)
    ticks(app, 1)
    assert "Ogre" not in play.ctx.status and "Billin" not in play.ctx.status, play.ctx.status
    play.open_path(str(FOREST))
    ticks(app, 1)
    assert play.session.enc.title == "Forest Ambush"
    assert "Art Gallery" not in play.ctx.status and "Ogre" not in play.ctx.status, play.ctx.status
