"""A board view draws one side's knowledge, not the whole truth (issue 25 item 4): a second view is a
second `BoardView` with its own `Knowledge`, drawing from the same context as the window's. Checked
from the pixels drawn, headless."""

from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from battlemat.ui.boardview import BoardView  # noqa: E402
from battlemat.ui.knowledge import GM, Knowledge  # noqa: E402
from battlemat.ui.tokens import radius  # noqa: E402

pytestmark = pytest.mark.ui


def _drawn(view: BoardView, size: tuple[int, int]) -> pygame.Surface:
    surface = pygame.Surface(size)
    view.draw(surface)
    return surface


def _map_only(view: BoardView, size: tuple[int, int]) -> pygame.Surface:
    """The map as the views draw it under everything else: what shows where no token is drawn."""
    ctx = view.ctx
    surface = pygame.Surface(size)
    surface.fill((0, 0, 0))
    ctx.art.draw(surface, ctx.cam)
    return surface


def _token_area(view: BoardView, cid: str) -> pygame.Rect:
    """A square inside a character's token, on the screen."""
    ctx = view.ctx
    x, y = ctx.cam.to_screen(*ctx.layout.center(ctx.session.position(cid)))
    k = max(3, radius(ctx.layout.cell, ctx.cam.zoom) // 2)
    return pygame.Rect(round(x) - k, round(y) - k, 2 * k, 2 * k)


def _same(a: pygame.Surface, b: pygame.Surface, area: pygame.Rect) -> bool:
    return all(a.get_at((x, y)) == b.get_at((x, y)) for x in range(area.left, area.right)
               for y in range(area.top, area.bottom))


def test_a_second_view_with_a_knowledge_that_hides_a_foe_does_not_draw_its_token(app) -> None:
    play = app.play
    ctx = play.ctx
    s = play.session
    assert play.board.knowledge == GM  # the window's view: the game master's, everything
    foes = [c.id for c in s.enc.characters if not s.is_pc(c.id) and s.position(c.id) is not None]
    hidden, seen = foes[0], foes[1]
    players = BoardView(ctx, play.declaring, Knowledge(hidden=frozenset({hidden}), npc_intents=False,
                                                        overlays=False, sheets=False))
    ctx.mouse = (-1, -1)  # no hover: only the board, its plans and its tokens
    size = app.screen.get_size()
    gm, theirs, bare = _drawn(play.board, size), _drawn(players, size), _map_only(play.board, size)
    hid, other = _token_area(play.board, hidden), _token_area(play.board, seen)
    assert not _same(gm, bare, hid)  # the game master sees the hidden foe's token ...
    assert _same(theirs, bare, hid)  # ... the players' view draws only the map there
    assert not _same(theirs, bare, other) and _same(theirs, gm, other)  # a foe they see is drawn as the GM's
    assert players.token_under(hid.center) is None and play.board.token_under(hid.center) == hidden
