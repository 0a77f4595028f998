"""The players' window (issue 32 item 1): a second window showing the board as one side knows it.
Squares none of its characters sees now are fogged (R4, the core's sight), terrain seen before is
dimmed, foes seen before are ghosts where last seen, a foe hidden by Stealth (O4) is not drawn at
all, and the game master's window still shows everything. Checked from the pixels of both windows,
driven by real keys and clicks, headless: pygame-ce's `pygame.Window` gives a second window under
SDL's dummy driver too (the first test proves it)."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator, Mapping
from contextlib import redirect_stderr
from pathlib import Path
from types import MappingProxyType

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from conftest import EXAMPLES, ROOT, play_file  # noqa: E402
from test_ui import click, finish_turn, key, make_app, press_resolve, skill_key, ticks  # noqa: E402
from test_ui_panel import click_at  # noqa: E402

from battlemat.cli import main as cli_main  # noqa: E402
from battlemat.core.events import Event  # noqa: E402
from battlemat.io.encounter import load_encounter  # noqa: E402
from battlemat.ui import theme  # noqa: E402
from battlemat.ui.app import App  # noqa: E402
from battlemat.ui.players_window import PlayersWindow  # noqa: E402
from battlemat.ui.seen import Eyes, Moment, Sight  # noqa: E402
from battlemat.ui.tokens import radius  # noqa: E402

pytestmark = pytest.mark.ui

FOREST = ROOT / "maps" / "forest_ambush.toml"
HIDING = EXAMPLES / "hiding_from_bandits.toml"


@pytest.fixture
def forest(tmp_path: Path) -> Iterator[App]:
    a = make_app(tmp_path, str(FOREST), "--players-window")
    ticks(a, 2)
    yield a
    a.close()


def players(app: App) -> PlayersWindow:
    assert app.players is not None and not app.players.closed
    return app.players


def screen_of(ctx, sq: tuple[int, int]) -> tuple[int, int]:
    x, y = ctx.cam.to_screen(*ctx.layout.center(sq))
    return round(x), round(y)


def token_box(ctx, sq: tuple[int, int]) -> pygame.Rect:
    """A square inside a token standing on `sq`, on that context's screen."""
    x, y = screen_of(ctx, sq)
    k = max(3, radius(ctx.layout.cell, ctx.cam.zoom) // 2)
    return pygame.Rect(x - k, y - k, 2 * k, 2 * k)


def colour_pixels(surface: pygame.Surface, box: pygame.Rect, colour: tuple[int, int, int], tol: int = 40) -> int:
    """Pixels in `box` within `tol` of a side's colour (a token's fill)."""
    return sum(1 for x in range(box.left, box.right) for y in range(box.top, box.bottom)
               if all(abs(c - w) <= tol for c, w in zip(surface.get_at((x, y))[:3], colour, strict=True)))


def brightness(surface: pygame.Surface, at: tuple[int, int]) -> int:
    r, g, b, _ = surface.get_at(at)
    return r + g + b


def drawn(app: App) -> tuple[pygame.Surface, pygame.Surface]:
    """A frame of both windows: the game master's and the players'."""
    app.invalidate()
    ticks(app, 1)
    return app.screen, players(app).surface()


def test_two_windows_under_the_dummy_driver_and_the_players_window_is_drawn(forest: App) -> None:
    pw = players(forest)
    assert isinstance(pw.window, pygame.Window) and pw.window.id != 0
    assert pw.surface().get_size() == forest.screen.get_size()
    _, theirs = drawn(forest)
    colours = {theirs.get_at((x, y))[:3] for x in range(0, theirs.get_width(), 37)
               for y in range(0, theirs.get_height(), 29)}
    assert len(colours) > 20  # a board, not an empty window
    assert pw.side == "travellers"  # the side the table plays (Session.pc_sides)
    assert "what the travellers know" in pw.ctx.status


def test_an_unseen_foe_is_fogged_and_never_drawn_but_the_game_master_sees_it(forest: App) -> None:
    """R4: no traveller sees Bandit archer 1 on the ridge at (14, 3) (opaque trees between), so its
    square is fogged in the players' view and its token is nowhere; the GM's window draws it."""
    pw, gm_ctx = players(forest), forest.play.ctx
    gm, theirs = drawn(forest)
    red = theme.side_color(1)
    archer = forest.play.session.position("bandit_archer1")
    assert archer == (14, 3)
    assert "bandit_archer1" in pw.view.knowledge.hidden
    assert colour_pixels(gm, token_box(gm_ctx, archer), red) > 10  # the GM's window: everything
    assert colour_pixels(theirs, token_box(pw.ctx, archer), red) == 0
    assert sum(colour_pixels(theirs, token_box(pw.ctx, (x, y)), red) for x in range(12, 17) for y in range(1, 6)) == 0
    # fogged: the unseen square is nearly black in the players' view, the map in the GM's
    assert brightness(theirs, screen_of(pw.ctx, archer)) < 80 < brightness(gm, screen_of(gm_ctx, archer))
    # a square in sight (the road) is drawn as the map: as bright as in the GM's window
    road = (10, 8)
    assert road in pw.view.knowledge.fog.now
    assert brightness(theirs, screen_of(pw.ctx, road)) > 0.7 * brightness(gm, screen_of(gm_ctx, road))
    # a foe they see is drawn (Bandit 1 on the road's edge)
    assert colour_pixels(theirs, token_box(pw.ctx, forest.play.session.position("bandit1")), red) > 10


def test_a_foe_out_of_sight_after_a_turn_is_a_ghost_where_last_seen(forest: App) -> None:
    """R4: only Tobin sees Bandit archer 2 at the start; he steps back to (4, 9), out of its sight,
    through the window (Tobin, Block, a click, Enter). The archer becomes a ghost where it was last
    seen; terrain seen before is dimmed; a ghost is not a token."""
    play, pw = forest.play, players(forest)
    assert not pw.view.knowledge.seen_at
    play.declaring.select("tobin")
    key(forest, skill_key(forest, "Block"))
    click(forest, play.ctx.cam.to_screen(*play.ctx.layout.center((4, 9))))
    assert play.session.declared["tobin"].to == (4, 9)
    press_resolve(forest)
    finish_turn(forest)
    k = pw.view.knowledge
    assert k.seen_at.get("bandit_archer2") == (20, 2) and k.fog.ghost_turns["bandit_archer2"] == 1
    assert (20, 2) not in k.fog.now and (20, 2) in k.fog.seen  # dimmed, not fogged
    _, theirs = drawn(forest)
    without = theirs.copy()  # (the same pixel format: the fog is blitted with a colour key)
    pw.view.knowledge = dataclasses.replace(k, seen_at=MappingProxyType({}))
    pw.view.draw(without)
    box = token_box(pw.ctx, (20, 2))
    red = theme.side_color(1)
    assert colour_pixels(theirs, box, red, tol=90) > 2 * colour_pixels(without, box, red, tol=90)
    # the terrain seen before is dimmed: darker than the GM's map, far brighter than the fog
    dim = sorted(k.fog.seen - k.fog.now)[:12]
    fogged = [(x, y) for x in range(32) for y in range(20) if (x, y) not in k.fog.seen][:12]
    assert dim and fogged

    def mean(surface: pygame.Surface, ctx, squares: list[tuple[int, int]]) -> float:
        return sum(brightness(surface, screen_of(ctx, sq)) for sq in squares) / len(squares)

    assert 2 * mean(theirs, pw.ctx, fogged) < mean(theirs, pw.ctx, dim) < 0.8 * mean(forest.screen, play.ctx, dim)
    # a ghosted foe's real square shows no token in the players' view (wherever it went)
    for cid in k.seen_at:
        real = play.session.position(cid)
        if real not in k.fog.now:
            assert colour_pixels(theirs, token_box(pw.ctx, real), theme.side_color(1)) == 0


def test_a_foe_hidden_by_stealth_never_shows_in_that_sides_view(tmp_path: Path) -> None:
    """O4: Meldela (Stealth 5) hides from Bandit 1, declared through the window; the bandits' view
    (--view bandits) drew her before and does not after (no token, no ghost); the GM's still does."""
    app = make_app(tmp_path, str(HIDING), "--view", "bandits")
    try:
        ticks(app, 2)
        play, pw = app.play, players(app)
        assert pw.side == "bandits"
        blue = theme.side_color(0)
        _, theirs = drawn(app)
        here = play.session.position("meldela")
        assert colour_pixels(theirs, token_box(pw.ctx, here), blue) > 10  # in plain sight before she hides
        key(app, pygame.K_TAB)
        assert play.ctx.sel.who == "meldela"
        key(app, skill_key(app, "Stealth"))
        click(app, play.ctx.cam.to_screen(*play.ctx.layout.center(play.session.position("bandit1"))))
        assert (play.session.declared["meldela"].use, play.session.declared["meldela"].target) == ("Stealth", "bandit1")
        press_resolve(app)
        finish_turn(app)
        assert any(e.type == "hidden" and e.data["who"] == "meldela" for e in play.session.match.log)
        k = pw.view.knowledge
        assert "meldela" in k.hidden and "meldela" not in k.seen_at
        gm, theirs = drawn(app)
        here = play.session.position("meldela")
        assert colour_pixels(theirs, token_box(pw.ctx, here), blue) == 0
        assert colour_pixels(gm, token_box(play.ctx, here), blue) > 10
        assert pw.view.token_under(token_box(pw.ctx, here).center) is None
        # her next hide: no "+1 vs" over her, no arrow or word on her square, while the turn plays (O4)
        key(app, pygame.K_TAB)
        key(app, skill_key(app, "Stealth"))
        click(app, play.ctx.cam.to_screen(*play.ctx.layout.center(play.session.position("bandit1"))))
        press_resolve(app)
        gm_marks = 0
        while play.ctx.player is not None:
            lay = play.ctx.layout
            gm_marks += sum(1 for e in play.ctx.player.effects if lay.pick(*e.a) == here)
            if pw.ctx.player is not None:
                assert all(here not in (lay.pick(*e.a), lay.pick(*e.b)) for e in pw.ctx.player.effects)
            ticks(app, 1, dt=0.05)
        assert gm_marks  # (the GM's window marks her)
    finally:
        app.close()


class Poisoned(Mapping[str, tuple[int, int]]):
    """Squares where looking up one character fails the test: a secret read."""

    def __init__(self, squares: Mapping[str, tuple[int, int]], secret: str) -> None:
        self.squares, self.secret = dict(squares), secret

    def __getitem__(self, cid: str) -> tuple[int, int]:
        if cid == self.secret:
            raise AssertionError(f"the square of {cid}, hidden from this side, was read")
        return self.squares[cid]

    def __contains__(self, cid: object) -> bool:
        if cid == self.secret:
            raise AssertionError(f"whether {cid}, hidden from this side, stands somewhere was asked")
        return cid in self.squares

    def __iter__(self):
        return iter(self.squares)

    def __len__(self) -> int:
        return len(self.squares)


def test_secrets_stay_secret_a_hidden_foes_square_is_never_read() -> None:
    """O4: after the forest ambush's scripted turn 2 Tobin hides from Bandit 1. The bandits' knowledge
    is the same whatever his recorded square says, and reading his square now fails the test."""
    match, events = play_file(FOREST)
    enc = load_encounter(FOREST)
    eyes = Eyes(enc, "bandits", Sight(enc.board))
    init = enc.initial_state()
    start = Moment({c: st.at for c, st in init.chars.items()})
    memory = eyes.remember(start, events)
    assert memory.hidden == {"tobin"}

    def moved(ev: Event) -> Event:  # Tobin's square as turn 2 ends, said to be on the open road in sight
        if ev.type != "turn_end" or ev.turn != 2:
            return ev
        state = {c: dict(v) for c, v in ev.data["state"].items()}
        state["tobin"]["at"] = [12, 8]
        return Event(ev.type, ev.turn, ev.phase, ev.text, ev.rules, {"state": state})

    assert eyes.remember(start, [moved(e) for e in events]) == memory
    now = {c: st.at for c, st in match.state.chars.items()}
    k = eyes.knowledge(memory, Moment(Poisoned(now, "tobin")))
    assert "tobin" in k.hidden and "tobin" not in k.seen_at


def test_secrets_stay_secret_no_other_sides_intent_is_drawn(forest: App) -> None:
    """P: declarations are secret. The travellers' view draws the same pixels whether the NPCs have
    declared or not (GM mode on in the GM's window), and the bandits' view the same whether the
    travellers have declared or not."""
    play, pw = forest.play, players(forest)
    key(forest, pygame.K_m)
    assert play.ctx.gm_mode
    assert any(not play.session.is_pc(c) for c in play.session.declared)  # the NPCs' secret plans
    _, with_npcs = drawn(forest)
    with_npcs = with_npcs.copy()
    npcs = {c: it for c, it in play.session.declared.items() if not play.session.is_pc(c)}
    for c in npcs:
        del play.session.declared[c]
    _, without = drawn(forest)
    assert pygame.image.tobytes(with_npcs, "RGB") == pygame.image.tobytes(without, "RGB")
    play.session.declared.update(npcs)
    # the bandits' view of the travellers' plans: Tobin's declared move does not show
    pw.close()
    forest.players = PlayersWindow(play.ctx, "bandits", forest.size, True)
    play.declaring.select("tobin")
    key(forest, skill_key(forest, "Block"))
    click(forest, play.ctx.cam.to_screen(*play.ctx.layout.center((6, 7))))
    assert "tobin" in play.session.declared
    play.declaring.select(None)
    _, planned = drawn(forest)
    planned = planned.copy()
    del play.session.declared["tobin"]
    _, unplanned = drawn(forest)
    assert pygame.image.tobytes(planned, "RGB") == pygame.image.tobytes(unplanned, "RGB")


def test_it_follows_the_game_masters_window_playback_step_mode_and_turns(forest: App) -> None:
    """The players' window draws from the GM's session each frame: the playback (step by step) and a
    turn gone back to (PgUp) show there too."""
    play, pw = forest.play, players(forest)
    start = pw.view.knowledge.fog
    key(forest, pygame.K_t)
    assert play.ctx.step_mode
    play.declaring.select("tobin")
    key(forest, skill_key(forest, "Block"))
    click(forest, play.ctx.cam.to_screen(*play.ctx.layout.center((4, 9))))
    press_resolve(forest)
    assert play.ctx.player is not None
    ticks(forest, 3)
    assert pw.ctx.player is not None and not pw.ctx.player.waiting  # (the GM's step hint is not the table's)
    for _ in range(60):  # a few steps, then Esc plays the rest at once
        if play.ctx.player.waiting:
            key(forest, pygame.K_SPACE)
        ticks(forest, 1, dt=0.2)
    key(forest, pygame.K_ESCAPE)
    finish_turn(forest)
    assert pw.ctx.player is None and pw.view.knowledge.seen_at
    key(forest, pygame.K_PAGEUP)  # back to turn 1: what they knew then
    assert play.session.turn == 1
    ticks(forest, 1)
    assert pw.view.knowledge.fog == start and not pw.view.knowledge.seen_at


def test_full_screen_by_a_key_in_it_and_its_keys_stay_its_own(forest: App) -> None:
    """F11 (or F) in the players' window toggles full screen; its own keys do not reach the GM's window
    (F there fits the map), other keys do (Enter still resolves)."""
    pw, cam = players(forest), forest.play.ctx.cam
    before = pw.window.size
    key(forest, pygame.K_EQUALS)
    zoom = cam.zoom
    for k in (pygame.K_F11, pygame.K_f):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0, window=pw.window))
        ticks(forest, 2)
        assert pw.fullscreen == (k == pygame.K_F11)
        assert pw.ctx.frame.board.width == pw.window.size[0]
    assert pw.window.size == before and cam.zoom == zoom
    assert forest.size == before  # the GM's window kept its size (VIDEORESIZE of the other window ignored)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="", scancode=0,
                                         window=pw.window))
    ticks(forest, 1)
    from battlemat.ui.screens import ConfirmScreen

    assert isinstance(forest.stack[-1], ConfirmScreen)  # Enter went on to the GM's window



def test_the_game_masters_window_still_resizes_with_the_players_window_open(forest: App) -> None:
    """SDL sends VIDEORESIZE for either window without saying which: the app takes the GM's size from
    its own WINDOWSIZECHANGED (no `window`: the display module's window) and lays it out again."""
    pw = players(forest)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1000, 640), w=1000, h=640))
    pygame.event.post(pygame.event.Event(pygame.WINDOWSIZECHANGED, x=1000, y=640, window=None))
    ticks(forest, 2)
    assert forest.size == (1000, 640) and forest.play.ctx.frame.side.right == 1000
    assert pw.size == (1280, 800)  # the players' window kept its own


def test_the_players_button_ctrl_p_and_closing_it(tmp_path: Path) -> None:
    app = make_app(tmp_path, str(FOREST))
    try:
        ticks(app, 2)
        assert app.players is None
        button = app.play.ctx.top.buttons["players"]
        click_at(app, button.get_abs_rect().center)
        pw = players(app)
        assert "travellers" in app.play.ctx.status and button.is_selected
        key(app, pygame.K_p, pygame.KMOD_CTRL)
        assert app.players is None and pw.closed and not app.play.ctx.top.buttons["players"].is_selected
        key(app, pygame.K_p, pygame.KMOD_CTRL)
        pw = players(app)
        pygame.event.post(pygame.event.Event(pygame.WINDOWCLOSE, window=pw.window))
        ticks(app, 1)
        assert pw.closed
    finally:
        app.close()


def test_view_and_screenshot_from_the_command_line(tmp_path: Path) -> None:
    shot = tmp_path / "bandits.png"
    assert cli_main(["play", str(FOREST), "--view", "bandits", "--screenshot", str(shot),
                     "--save-dir", str(tmp_path)]) == 0
    picture = pygame.image.load(str(shot))
    assert picture.get_size() == (1280, 800)
    err = io.StringIO()
    with redirect_stderr(err):
        code = cli_main(["play", str(FOREST), "--view", "orcs", "--screenshot", str(tmp_path / "x.png")])
    assert code == 2 and "--view 'orcs': no such side" in err.getvalue() and "travellers, bandits" in err.getvalue()
    assert not (tmp_path / "x.png").exists()


def test_a_replay_opened_in_the_game_masters_window_shows_in_the_players_window(forest: App, tmp_path: Path) -> None:
    """A replay (the game master opens the autosave to replay it) starts the players' window afresh:
    turn 1's knowledge, no ghosts; playing the saved turn brings the ghosts back, as in the game."""
    play, pw = forest.play, players(forest)
    start = pw.view.knowledge.fog
    play.declaring.select("tobin")
    key(forest, skill_key(forest, "Block"))
    click(forest, play.ctx.cam.to_screen(*play.ctx.layout.center((4, 9))))
    press_resolve(forest)
    key(forest, pygame.K_ESCAPE)
    finish_turn(forest)
    ghosts = dict(pw.view.knowledge.seen_at)
    assert ghosts
    play.open_path(str(tmp_path / "autosave-forest_ambush.json"), replay=True)
    ticks(forest, 1)
    assert pw.session is play.session and play.session.replay
    assert pw.view.knowledge.fog == start and not pw.view.knowledge.seen_at
    press_resolve(forest)  # Enter plays the saved turn
    key(forest, pygame.K_ESCAPE)
    finish_turn(forest)
    assert dict(pw.view.knowledge.seen_at) == ghosts


def test_a_door_out_of_sight_stays_as_the_side_last_saw_it() -> None:
    """R4: a side knows a door's state from when it last saw either of its squares; a door opened out
    of its sight still shows closed to it (the door event of the match's record is not enough)."""
    enc = load_encounter(ROOT / "maps" / "cellar_door.toml")
    sight = Sight(enc.board)
    door = enc.board.doors[0]
    sides = sight.door_squares()[door.id]
    assert len(sides) == 2 and door.state == "closed"
    eyes = Eyes(enc, "smugglers", sight)
    blind = next(sq for sq in ((x, y) for y in range(enc.board.height) for x in range(enc.board.width))
                 if not enc.board.blocked[sq[1], sq[0]] and not sight.from_square(sq, {}) & sides)
    init = enc.initial_state()
    start = {c: st.at for c, st in init.chars.items()}
    away = Moment({**start, "vessa": blind, "orrin": blind})
    memory = eyes.remember(away, [Event("door", 1, "declare", "GM opens the door", (),
                                        {"door": door.id, "state": "open", "gm": True})])
    assert memory.doors.get(door.id, door.state) == "closed"
    opened = {door.id: "open"}
    assert eyes.knowledge(memory, Moment(away.at, doors=opened)).doors == {door.id: "closed"}
    near = next(iter(sides))
    assert eyes.knowledge(memory, Moment({**away.at, "vessa": near}, doors=opened)).doors == {door.id: "open"}
