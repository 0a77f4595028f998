"""The play screen, driven headless by real pygame events (SDL_VIDEODRIVER=dummy)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from conftest import EXAMPLES, ROOT  # noqa: E402

from battlemat.commands.args import add_play_arguments  # noqa: E402
from battlemat.io.saves import read_save  # noqa: E402
from battlemat.ui.app import App  # noqa: E402
from battlemat.ui.options import PlayOptions  # noqa: E402
from battlemat.ui.panels import frame_rects  # noqa: E402
from battlemat.ui.screens import RulesScreen, VictoryScreen  # noqa: E402

pytestmark = pytest.mark.ui

ENCOUNTERS = sorted(ROOT.glob("maps/*.toml")) + sorted(EXAMPLES.glob("*.toml"))


# -- driving the window with real pygame events ----------------------------------------------------
def make_app(tmp_path: Path, *argv: str) -> App:
    p = argparse.ArgumentParser()
    p.add_argument("encounter", nargs="?", default=None)
    add_play_arguments(p)
    args = p.parse_args([*argv, "--save-dir", str(tmp_path)])
    return App(PlayOptions.from_namespace(args))


def key(app: App, k: int | tuple[int, int], mod: int = 0, frames: int = 1) -> None:
    """Press and release a key; `k` may be a (key, modifier) pair such as `skill_key` gives."""
    if isinstance(k, tuple):
        k, mod = k
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
    ticks(app, frames)


def click(app: App, pos: tuple[float, float], button: int = 1) -> None:
    pos = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0), touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button, touch=False))
    ticks(app, 1)


def type_text(app: App, text: str) -> None:
    """Text typed into whatever has the keyboard focus (SDL's text input events)."""
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    ticks(app, 1)


def ticks(app: App, n: int, dt: float = 1 / 30) -> None:
    for _ in range(n):
        code = app.tick(dt)
        assert code is None, f"the app asked to exit with {code}"


def token_pos(app: App, cid: str) -> tuple[float, float]:
    play = app.play
    return play.ctx.cam.to_screen(*play.ctx.layout.center(play.session.position(cid)))


def square_pos(app: App, sq: tuple[int, int]) -> tuple[float, float]:
    play = app.play
    return play.ctx.cam.to_screen(*play.ctx.layout.center(sq))


def skill_key(app: App, half: str) -> tuple[int, int]:
    """(key, modifier) of a skill half: its place in the rules data, the same for every character."""
    from battlemat.ui.input import skill_slots, slot_key

    slots = skill_slots(list(app.play.ctx.enc.rules.halves))
    assert half in slots, f"{half} has no key"
    return slot_key(slots[half])


def press_resolve(app: App) -> None:
    """Enter, and Enter again when Resolve asks about player characters left idle (ui/idle.py)."""
    from battlemat.ui.screens import ConfirmScreen

    key(app, pygame.K_RETURN)
    if isinstance(app.stack[-1], ConfirmScreen):
        key(app, pygame.K_RETURN)


def finish_turn(app: App, limit: int = 2000) -> None:
    for _ in range(limit):
        if app.play.ctx.player is None:
            return
        ticks(app, 1, dt=0.1)
    raise AssertionError("the turn never finished playing")



def test_select_declare_and_resolve_a_full_turn_with_input_events(app, tmp_path: Path) -> None:
    play = app.play
    key(app, pygame.K_TAB)
    assert play.ctx.sel.who == "parwanna"
    key(app, skill_key(app, "Perception"))
    click(app, token_pos(app, "ogre_boss"))
    assert (play.session.declared["parwanna"].use, play.session.declared["parwanna"].target) == \
        ("Perception", "ogre_boss")
    click(app, token_pos(app, "farran"))  # clicking one of ours selects it
    assert play.ctx.sel.who == "farran"
    key(app, skill_key(app, "Press"))
    assert "farran" not in play.session.declared  # Press needs a target first
    click(app, token_pos(app, "statue"))
    declared = play.session.declared["farran"]
    assert (declared.use, declared.target) == ("Press", "statue")

    press_resolve(app)
    assert play.ctx.player is not None  # the turn is animating
    finish_turn(app)
    s = play.session
    assert s.turn == 2
    words = [e.text for e in s.match.log]
    assert any(w.startswith("Farran uses Press on Bergtroll statue") for w in words)
    assert any(e.type == "check" and e.data["who"] == ["parwanna"] for e in s.match.log)  # P1 observation
    moved = [e for e in s.match.log if e.type == "moved" and e.data["who"] == "farran"]
    assert moved and tuple(moved[0].data["to"]) == declared.to  # the charge the UI showed is the one played
    # the log panel shows each event's words with its rule IDs
    assert "Farran uses Press on Bergtroll statue" in play.ctx.side.log_plain
    assert "[O1, C1" in play.ctx.side.log_plain
    # autosaved after the turn, with the intents that were played
    auto = read_save(tmp_path / "autosave-art_gallery.json")
    assert ("farran", "Press", "statue") in [(i.who, i.use, i.target) for i in auto.turns[0]]


def test_destination_comes_from_the_movement_reach(app) -> None:
    play = app.play
    play.declaring.select("garran")
    key(app, skill_key(app, "Dodge"))
    rc = play.declaring.current_reach()
    if rc is None:
        pytest.skip("battlemat.core.movement not available")
    here = play.session.position("garran")
    far = max(rc.costs, key=lambda sq: (rc.costs[sq], sq))
    click(app, square_pos(app, far))
    it = play.session.declared["garran"]
    assert it.to == far and it.path == tuple(rc.route_to(far).squares)
    # a refused square says why, with the rule ID, and nothing changes
    taken = {play.session.position(c) for c in play.session.active()}
    refused = sorted(sq for sq in rc.refused if sq not in taken and sq != here)
    assert refused
    click(app, square_pos(app, refused[0]))
    rule = rc.why_not(refused[0]).rule
    assert f"[{rule}]" in play.ctx.status and play.session.declared["garran"].to == far


def test_ctrl_z_undoes_the_last_declaration(app) -> None:
    play = app.play
    play.declaring.select("farran")
    key(app, skill_key(app, "Melee"))
    click(app, token_pos(app, "statue"))
    key(app, skill_key(app, "Dodge"))
    assert play.session.declared["farran"].use == "Dodge"
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert play.session.declared["farran"].use == "Melee"
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert "farran" not in play.session.declared


def test_npc_intents_are_secret_until_gm_mode(app) -> None:
    play = app.play
    rows = dict(play.ctx.side.rows)
    assert rows["ogre_boss"] == "Ogre leader: (secret)"
    play.declaring.select("ogre_boss")
    assert play.ctx.sel.who is None  # NPCs cannot be edited outside GM mode
    key(app, pygame.K_m)
    assert play.ctx.gm_mode and "(secret)" not in dict(play.ctx.side.rows)["ogre_boss"]
    click(app, token_pos(app, "ogre_boss"))
    assert play.ctx.sel.who == "ogre_boss"
    key(app, skill_key(app, "Block"))
    assert play.session.declared["ogre_boss"].use == "Block"


def test_f1_opens_the_rules_panel_with_core_and_house_tags(app) -> None:
    key(app, pygame.K_F1)
    top = app.stack[-1]
    assert isinstance(top, RulesScreen)
    text = top.text.html_text
    assert "M1" in text and "[core]" in text and "[house]" in text
    key(app, pygame.K_ESCAPE)
    assert app.stack == [app.play]


def test_step_mode_advances_one_event_per_key(app) -> None:
    """One key press, one line of the log: an event, or a run of idle characters (one line)."""
    from battlemat.ui.logbook import is_idle

    play = app.play
    key(app, pygame.K_t)
    press_resolve(app)
    ticks(app, 30, dt=0.5)
    assert play.ctx.player is not None and play.ctx.player.waiting
    singles = 0
    while play.ctx.player is not None and play.ctx.player.waiting and singles < 3:
        before = play.ctx.player.index
        key(app, pygame.K_SPACE)
        ticks(app, 1, dt=0.01)
        started = play.ctx.player.events[before:play.ctx.player.index]
        assert len(started) == 1 or (len(started) > 1 and all(is_idle(ev) for ev in started)), started
        singles += len(started) == 1
        ticks(app, 30, dt=0.5)
    assert singles == 3
    key(app, pygame.K_ESCAPE)  # finish
    finish_turn(app)
    assert play.session.turn == 2


def test_victory_screen_when_a_side_is_defeated(app) -> None:
    play = app.play
    for _ in range(12):
        if play.session.outcome().over:
            break
        press_resolve(app)
        key(app, pygame.K_ESCAPE)
        finish_turn(app)
    assert play.session.outcome().over
    assert isinstance(app.stack[-1], VictoryScreen)
    assert play.session.outcome().winner in app.stack[-1].window.window_display_title


def test_hover_shows_a_prediction_and_the_card_stays_on_the_board(app) -> None:
    play = app.play
    play.declaring.select("garran")
    key(app, skill_key(app, "Press"))
    pos = token_pos(app, "ogre_boss")
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(round(pos[0]), round(pos[1])), rel=(0, 0),
                                         buttons=(0, 0, 0), touch=False))
    ticks(app, 1)
    from battlemat.core.intents import Intent
    from battlemat.ui.forecast import forecast_attack

    # The Ogre leader is beyond Garran's charge (M7, M1): the card resolves the turn and says so (P4),
    # promising no losses, on the condition that the leader, whose intent is secret, stays put.
    card = play.board.shown_card
    assert "expected: no losses" in card and "if Ogre leader stays where it is" in card[1]
    npcs = [c.id for c in play.ctx.enc.characters if c.side == "ogres"]
    p = forecast_attack(play.ctx.enc, play.session.state, play.session.declared, Intent("garran", "Press", "ogre_boss"),
                        npcs)
    assert p is not None and p.failed is not None and p.failed.data["rule"] == "P4"
    assert p.assumed and "ogre_boss" in p.assumed
    # a ranged attack also draws the line of sight (R4) and range (R1) into its card
    play.declaring.select("billin")
    key(app, skill_key(app, "Shoot"))
    pos = token_pos(app, "ogre_bolt1")
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(round(pos[0]), round(pos[1])), rel=(0, 0),
                                         buttons=(0, 0, 0), touch=False))
    ticks(app, 1)
    blind = forecast_attack(play.ctx.enc, play.session.state, {}, Intent("billin", "Shoot", "ogre_bolt1"))
    assert blind is not None and blind.failed is not None and blind.failed.data["rule"] == "R4"  # a pillar between
    shot = forecast_attack(play.ctx.enc, play.session.state, {}, Intent("billin", "Shoot", "ogre_bolt2"))
    assert shot is not None and shot.attack is not None
    assert any(rule in ("R1", "R4", "R5") for _, _, rule in shot.attack.parts())


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_panels_never_overlap(tmp_path: Path, size: tuple[int, int]) -> None:
    f = frame_rects(*size)
    parts = [f.top, f.board, f.status, f.side]
    for i, a in enumerate(parts):
        assert pygame.Rect(0, 0, *size).contains(a)
        for b in parts[i + 1:]:
            assert not a.colliderect(b), (a, b)
    app = make_app(tmp_path, "--size", f"{size[0]}x{size[1]}")
    try:
        app.play.declaring.select("parwanna")
        ticks(app, 1)
        side = app.play.ctx.side
        widgets = [b for _, b in side.skill_buttons] + [side.intents, side.clear, side.undo, side.resolve, side.log]
        for w in widgets:
            assert f.side.contains(w.get_abs_rect()), w
        for i, a in enumerate(widgets):
            for b in widgets[i + 1:]:
                assert not a.get_abs_rect().colliderect(b.get_abs_rect())
    finally:
        app.close()


def test_window_resize_relayouts(app) -> None:
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1600, 900), w=1600, h=900))
    ticks(app, 1)
    assert app.play.ctx.frame.side.right == 1600 and app.play.ctx.cam.view_w == app.play.ctx.frame.board.width


def _cli_has_screenshot() -> bool:
    from battlemat.cli import build_parser

    try:
        build_parser().parse_args(["play", "--screenshot", "x.png"])
    except SystemExit:
        return False
    return True


@pytest.mark.parametrize("encounter", ENCOUNTERS, ids=lambda p: p.stem)
def test_screenshot_command_for_every_encounter(tmp_path: Path, encounter: Path) -> None:
    from battlemat.ui import app as ui_app

    out = tmp_path / "shot.png"
    code = ui_app.main([str(encounter), "--screenshot", str(out), "--frames", "2", "--save-dir", str(tmp_path)])
    assert code == 0 and out.is_file()
    img = pygame.image.load(str(out))
    assert img.get_size() == (1280, 800)
    arr = pygame.surfarray.array3d(img)
    assert arr.std() > 10  # a picture, not a blank window


def test_screenshot_with_selection_shows_the_reach(tmp_path: Path) -> None:
    from battlemat.ui import app as ui_app

    plain, chosen = tmp_path / "plain.png", tmp_path / "chosen.png"
    enc = str(ROOT / "maps" / "art_gallery.toml")
    assert ui_app.main([enc, "--screenshot", str(plain), "--save-dir", str(tmp_path)]) == 0
    assert ui_app.main([enc, "--screenshot", str(chosen), "--select", "garran", "--use", "Dodge",
                        "--save-dir", str(tmp_path)]) == 0
    a = pygame.surfarray.array3d(pygame.image.load(str(plain))).astype(int)
    b = pygame.surfarray.array3d(pygame.image.load(str(chosen))).astype(int)
    changed = (abs(a - b).sum(axis=2) > 30).mean()
    assert changed > 0.02  # reach shading, route and the skill panel are drawn


def test_battlemat_play_screenshot_through_the_cli(tmp_path: Path) -> None:
    if not _cli_has_screenshot():
        pytest.skip("cli.py does not call battlemat.ui.app.add_play_arguments yet")
    from battlemat.cli import main

    out = tmp_path / "cli.png"
    enc = str(EXAMPLES / "kwirt_and_the_lizard.toml")
    assert main(["play", enc, "--screenshot", str(out), "--frames", "2", "--select", "kwirt", "--use", "Acrobatics",
                 "--save-dir", str(tmp_path)]) == 0
    assert out.is_file()


def test_bad_select_exits_2(tmp_path: Path) -> None:
    from battlemat.ui import app as ui_app

    code = ui_app.main([str(EXAMPLES / "valtor_lore.toml"), "--screenshot", str(tmp_path / "x.png"),
                        "--select", "nobody", "--save-dir", str(tmp_path)])
    assert code == 2


def test_bad_target_exits_2_and_names_the_characters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from battlemat.ui import app as ui_app

    shot = tmp_path / "x.png"
    code = ui_app.main([str(EXAMPLES / "valtor_lore.toml"), "--screenshot", str(shot), "--select", "valtor",
                        "--use", "Melee", "--target", "nobody", "--save-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "--target 'nobody': no such character" in err and not shot.exists()
    assert "Traceback" not in err


def test_add_play_arguments_does_not_import_pygame() -> None:
    import subprocess
    import sys

    code = ("import sys, argparse\nfrom battlemat.commands.args import add_play_arguments\n"
            "add_play_arguments(argparse.ArgumentParser())\n"
            "sys.exit(1 if any(m.startswith('pygame') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_replay_plays_saved_turns_one_by_one(tmp_path: Path) -> None:
    from battlemat.io.saves import write_save
    from battlemat.ui.session import Session

    s = Session(EXAMPLES / "kwirt_and_the_lizard.toml")
    for intents in s.enc.turns[:2]:
        s.resolve(intents)
    path = write_save(s.to_save(), tmp_path / "k.json")
    app = make_app(tmp_path, "--replay", str(path))
    try:
        assert app.play.pending and app.play.session.turn == 1
        assert app.play.session.declared["kwirt"].use == "Melee"  # the saved turn is shown, ready to play
        key(app, pygame.K_RETURN)
        key(app, pygame.K_ESCAPE)
        finish_turn(app)
        assert app.play.session.turn == 2 and len(app.play.pending) == 1
        assert [e.to_dict() for e in app.play.session.match.log] == \
            [e.to_dict() for e in s.match.log if e.turn == 1]
    finally:
        app.close()


def test_args_namespace_without_play_options_still_runs(tmp_path: Path, monkeypatch) -> None:
    """cmd_play passes its own Namespace; options it does not know default sensibly."""
    from battlemat.ui.app import App

    monkeypatch.setenv("HOME", str(tmp_path))
    app = App(PlayOptions.from_namespace(argparse.Namespace(encounter=str(EXAMPLES / "valtor_lore.toml"))))
    try:
        ticks(app, 1)
        assert app.play.session.enc.title
    finally:
        app.close()


def test_open_dialog_loads_another_encounter(app) -> None:
    from battlemat.ui.screens import FileScreen

    key(app, pygame.K_o, pygame.KMOD_CTRL)
    top = app.stack[-1]
    assert isinstance(top, FileScreen)
    target = str(EXAMPLES / "kwirt_and_the_lizard.toml")
    entry = top.dialog.file_path_text_line
    click(app, entry.rect.center)  # type the path as a person would, then press the dialog's OK button
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    type_text(app, target)
    click(app, top.dialog.ok_button.rect.center)
    ticks(app, 2)
    assert app.stack == [app.play]
    assert app.play.session.enc.title == "Kwirt and the Lizard"


def test_opening_a_bad_file_keeps_the_game_and_says_why(app, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[encounter\n")
    title = app.play.session.enc.title
    app.play.open_path(str(bad))
    assert app.play.session.enc.title == title
    assert "Cannot open" in app.play.ctx.status and "not valid TOML" in app.play.ctx.status


@pytest.mark.parametrize(("axis", "index"), [("x", "odd"), ("x", "even"), ("y", "odd"), ("y", "even")])
def test_hex_layout_picks_the_hex_under_its_centre_and_corners(axis: str, index: str) -> None:
    from battlemat.core.board import Board
    from battlemat.ui.layout import Layout

    lay = Layout(Board(7, 6, "hex", axis, index, 60, 52, hex_side_length=30 if axis == "x" else 26))
    for y in range(6):
        for x in range(7):
            cx, cy = lay.center((x, y))
            assert lay.pick(cx, cy) == (x, y)
            for px, py in lay.polygon((x, y)):  # just inside each corner still picks this hex
                assert lay.pick(cx + (px - cx) * 0.8, cy + (py - cy) * 0.8) == (x, y)


def test_npc_fallback_declares_legal_attacks_on_the_nearest_foe() -> None:
    from battlemat.core.resolver import validate_intent
    from battlemat.ui.session import Session

    s = Session(ROOT / "maps" / "art_gallery.toml")
    npcs = [c.id for c in s.enc.characters if not s.is_pc(c.id)]
    assert set(s.declared) == set(npcs)
    for it in s.declared.values():
        assert validate_intent(s.enc, s.state, it) == it
        assert it.target is not None and s.enc.by_id[it.target].side == "watch"


def test_ctrl_s_saves_and_f12_takes_a_screenshot(app, tmp_path: Path) -> None:
    press_resolve(app)
    key(app, pygame.K_ESCAPE)
    finish_turn(app)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    saves = sorted(tmp_path.glob("art_gallery-*.json"))
    assert len(saves) == 1 and len(read_save(saves[0]).turns) == 1
    key(app, pygame.K_F12)
    shots = sorted(tmp_path.glob("screenshot-*.png"))
    assert len(shots) == 1 and pygame.image.load(str(shots[0])).get_size() == (1280, 800)


def test_clicking_an_intent_in_the_list_selects_that_character(app) -> None:
    import pygame_gui

    play = app.play
    row = dict(play.ctx.side.rows)["cullin"]
    pygame.event.post(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, text=row,
                                         ui_element=play.ctx.side.intents, ui_object_id="#intents"))
    ticks(app, 1)
    assert play.ctx.sel.who == "cullin"


def test_frame_bench_runs_and_prints_its_ratio() -> None:
    """Smoke test only (no timing asserted): the benchmark must keep working as the UI changes."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_frame.py"), "--frames", "5"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "ratio:" in proc.stdout and "reach 0 squares" not in proc.stdout


def test_kept_panels_are_redrawn_when_their_content_changes(app) -> None:
    """The app leaves the panels' pixels on screen between frames; a change must still show."""
    side = app.play.ctx.frame.side
    ticks(app, 3)
    assert app._ui_clean  # nothing changed: the panels were not redrawn
    before = pygame.surfarray.array3d(app.screen.subsurface(side)).copy()
    app.play.declaring.select("cullin")
    key(app, skill_key(app, "Dodge"))
    ticks(app, 1)
    after = pygame.surfarray.array3d(app.screen.subsurface(side))
    assert (before != after).any(axis=2).mean() > 0.05  # header, skill buttons and intents list changed


def test_gm_modifiers_and_shouting_adjust_the_declared_intent(app) -> None:
    play = app.play
    play.declaring.select("parwanna")
    key(app, skill_key(app, "Perception"))
    click(app, token_pos(app, "ogre_boss"))
    key(app, pygame.K_RIGHTBRACKET)
    key(app, pygame.K_RIGHTBRACKET)
    key(app, pygame.K_RIGHTBRACKET)  # a third +1 would break S6's +-2
    it = play.session.declared["parwanna"]
    assert sum(m.value for m in it.modifiers) == 2 and "S6" in play.ctx.status
    key(app, pygame.K_h)
    assert play.session.declared["parwanna"].share
    assert "GM +2" in dict(play.ctx.side.rows)["parwanna"] and "shouts" in dict(play.ctx.side.rows)["parwanna"]
    key(app, pygame.K_LEFTBRACKET)
    key(app, pygame.K_LEFTBRACKET)
    assert play.session.declared["parwanna"].modifiers == ()


def test_a_bad_encounter_fails_with_its_message_before_any_window_opens(tmp_path: Path) -> None:
    from battlemat.core.errors import BattlematError
    from battlemat.ui import app as ui_app

    bad = tmp_path / "bad.toml"
    bad.write_text('[encounter]\ntitle = "x"\n[[character]]\nid = "a"\nside = "s"\nskills = { Melee = 12 }\n')
    pygame.display.quit()
    with pytest.raises(BattlematError, match="0..8"):
        ui_app.main([str(bad), "--screenshot", str(tmp_path / "x.png"), "--save-dir", str(tmp_path)])
    assert not pygame.display.get_init()
    with pytest.raises(BattlematError, match="no side 'elves'"):
        ui_app.main([str(EXAMPLES / "valtor_lore.toml"), "--side", "elves", "--screenshot", str(tmp_path / "x.png"),
                     "--save-dir", str(tmp_path)])


def test_animated_tiles_play_their_frames_and_redraw_only_their_cells(tmp_path: Path) -> None:
    """A Tiled tile animation (red 100 ms, blue 200 ms) plays on the board's clock; a frame change
    redraws that cell in the chunk already built, and a still cell is left alone. A flipped cell
    shows every frame flipped, as Tiled does. (Frame 0 is what tmxrasterizer draws: test_render_vs_tiled.)"""
    sheet = pygame.Surface((96, 32))
    for i, colour in enumerate([(200, 40, 40), (40, 40, 200), (40, 160, 40)]):
        sheet.fill(colour, pygame.Rect(32 * i, 0, 32, 32))
        sheet.fill((255, 255, 255), pygame.Rect(32 * i, 0, 6, 32))  # a white left edge shows flips
    pygame.image.save(sheet, str(tmp_path / "anim.png"))
    path = tmp_path / "anim.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" renderorder="right-down"'
        ' width="3" height="1" tilewidth="32" tileheight="32" infinite="0">'
        '<tileset firstgid="1" name="a" tilewidth="32" tileheight="32" tilecount="3" columns="3">'
        '<image source="anim.png" width="96" height="32"/>'
        '<tile id="0"><animation><frame tileid="0" duration="100"/><frame tileid="1" duration="200"/>'
        '</animation></tile>'
        '</tileset><layer id="1" name="ground" width="3" height="1">'
        '<data encoding="csv">1,3,2147483649</data></layer></map>')  # the last one flipped horizontally
    from battlemat.core.board import Board
    from battlemat.ui.layout import Layout
    from battlemat.ui.renderer import MapArt, load_tmx_ops

    pygame.display.init()
    pygame.display.set_mode((64, 64))
    lay = Layout(Board(3, 1))
    ops, _ = load_tmx_ops(path, lay)
    art = MapArt(lay, ops, background=(0, 0, 0))
    art.show_grid = art.show_marks = False
    chunk = art.chunk(0, 0)

    def colours() -> list[tuple[int, int, int]]:
        return [tuple(chunk.get_at((16 + 32 * x, 16)))[:3] for x in range(3)]

    def flipped_edge() -> bool:  # the third cell is flipped horizontally: its white edge on the right
        white = (255, 255, 255)
        return tuple(chunk.get_at((64 + 29, 16)))[:3] == white and tuple(chunk.get_at((64 + 2, 16)))[:3] != white

    red, blue, green = (200, 40, 40), (40, 40, 200), (40, 160, 40)
    assert colours() == [red, green, red] and flipped_edge()
    assert art.advance(50) is False  # still the first frame
    assert art.advance(60) is True and colours() == [blue, green, blue] and flipped_edge()
    assert art.advance(150) is False and colours() == [blue, green, blue]
    assert art.advance(100) is True and colours() == [red, green, red] and flipped_edge()  # 310 ms: round again
    still = MapArt(lay, [op for op in ops[0] if not op.frames])  # (the map's one tile layer, cell by cell)
    assert still.advance(1000) is False  # nothing animated: nothing to redraw


# -- the window reads the rules data (issue: no skill names in battlemat/ui logic) ----------------
def test_contests_animate_as_arrows_for_ranged_halves_and_clashes_for_the_rest() -> None:
    """The arrow or clash of a contest follows the attacking half's `ranged` flag in the rules data."""
    from conftest import play_file

    from battlemat.ui.animation import Player

    match, events = play_file(ROOT / "maps" / "art_gallery.toml")
    enc = match.encounter
    positions = {c.id: (float(i), 0.0) for i, c in enumerate(enc.characters)}
    rules = enc.rules
    player = Player(tuple(events), positions, dict(enc.initial_state().chars), lambda sq: (float(sq[0]), float(sq[1])),
                    rules)
    drawn: list[tuple[str, str]] = []
    while not player.done:  # a contest lasts 0.8 s: at most one starts per 0.05 s frame
        before = {id(e) for e in player.effects}
        started = player.update(0.05)
        kinds = {e.kind for e in player.effects if id(e) not in before and e.kind in ("arrow", "clash")}
        drawn += [(ev.data["attack"]["skill"], kind) for ev in started if ev.type == "contest" for kind in kinds]
    assert len(drawn) == sum(e.type == "contest" for e in events)
    assert {rules.halves[skill].ranged for skill, _ in drawn} == {True, False}  # both kinds were played
    for skill, kind in drawn:
        assert kind == ("arrow" if rules.halves[skill].ranged else "clash"), skill


def test_skill_buttons_show_the_core_allowance_and_the_rules_item_moves() -> None:
    """M1-M3 from battlemat.core.movement.allowance; Shoot's moving allowance, the item kinds' moves
    and the item's defense from the rules data."""
    from conftest import play_text

    from battlemat.ui.play import skill_words

    match, _ = play_text("""
[encounter]
title = "buttons"
[[character]]
id = "a"
side = "x"
skills = { "Shoot/Throw" = 3, "Acrobatics/Climb" = 2 }
talents = { "Acrobatics/Climb" = 2 }
at = [1, 1]
[[character]]
id = "b"
side = "y"
skills = { "Shoot/Throw" = 2 }
at = [5, 1]
""")
    enc = match.encounter
    assert skill_words(enc, "b", "Shoot", 0)[0] == "Shoot \u00b7 0/1 sq \u00b7 P3 \u00b7 r2"
    # M2: ceil(talent 2 / 2) = +1 on any allowance above 0, the moving shot's too (as the reach counts it)
    assert skill_words(enc, "a", "Shoot", 0)[0] == "Shoot \u00b7 0/2 sq \u00b7 P3 \u00b7 r3"
    assert skill_words(enc, "a", "Throw", 0)[0] == "Throw \u00b7 3 sq \u00b7 P3 \u00b7 r3"
    label, tip = skill_words(enc, "b", "item", 0)
    assert label == "item \u00b7 2 sq \u00b7 P4 \u00b7 r0"
    assert tip == "Use an item: move 2 (1 if it needs dexterity, 0 if concentration); undefended (C5)"


def test_skill_buttons_read_the_effective_rating():
    """Text line 15: a skill rated 0 with an item for it is usable at its effective rating, so the window
    offers it (by the sling's +2), strongest first; a bare 0 is not offered."""
    import tomllib
    from types import SimpleNamespace

    from battlemat.io.encounter import parse_encounter
    from battlemat.ui.context import PlayContext

    enc = parse_encounter(tomllib.loads(
        '[encounter]\ntitle = "t"\n'
        '[[character]]\nid = "a"\nside = "x"\nskills = { "Block/Dodge" = 1, "Shoot/Throw" = 0 }\n'
        'equipment = [ { name = "sling", skill = "Shoot/Throw", bonus = 2 } ]\n'
        '[[character]]\nid = "b"\nside = "y"\nskills = { "Melee/Press" = 1 }\n'), "<test>")
    view = SimpleNamespace(enc=enc)
    skills = PlayContext.skills_of(view, "a")  # type: ignore[arg-type]
    assert skills[:4] == ["Shoot", "Throw", "Block", "Dodge"]
    assert "Melee" not in skills


def test_thrown_foes_fly_and_runners_on_the_edge_stay_until_the_turn_ends() -> None:
    """M13, E1, C5: the playback moves a thrown foe's token to where it lands (with the event's
    words), and marks a runner on the map's edge, which stays on the board until the turn ends."""
    from battlemat.io.cases import load_case
    from battlemat.teach.rule_cases import run_case
    from battlemat.ui.animation import Player

    for name, kind in (("E1_a_foe_thrown_onto_a_trap_takes_its_harm.toml", "thrown"),
                       ("C5_a_runner_at_the_map_edge_is_shot_before_it_leaves.toml", "leaving")):
        case = load_case(ROOT / "cases" / name)
        events = [e for turn in run_case(case).events for e in turn]
        ev = next(e for e in events if e.type == kind)
        who = ev.data["who"]
        start = case.start[who].at
        positions = {cid: (float(s.at[0]), float(s.at[1])) for cid, s in case.start.chars.items() if s.at}
        player = Player(tuple(events), positions, dict(case.start.chars), lambda sq: (float(sq[0]), float(sq[1])),
                        case.encounter.rules)
        words: list[str] = []
        while not player.done:
            player.update(0.05)
            words += [e.text for e in player.effects if e.text]
        if kind == "thrown":
            assert ev.text in words and player.positions[who] == tuple(float(v) for v in ev.data["to"])
            assert player.positions[who] != (float(start[0]), float(start[1]))
        else:
            assert "leaves at the end of the turn (C5)" in words
