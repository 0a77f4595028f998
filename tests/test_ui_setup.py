"""Set-up by hand (issue 32 item 2), driven headless through the window's real event flow: a bare map
opens ready to set up, characters are made with the form's real widgets (clicks and typed text),
dragged, copied, removed and saved as an encounter file that the real loader, `check` and `resolve`
accept and that reopens identically."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from conftest import ROOT  # noqa: E402
from test_ui import click, key, make_app, square_pos, ticks, type_text  # noqa: E402

from battlemat.cli import main as cli  # noqa: E402
from battlemat.core.intents import Intent  # noqa: E402
from battlemat.core.match import Match  # noqa: E402
from battlemat.io.encounter import load_encounter  # noqa: E402
from battlemat.io.errors import LoadError  # noqa: E402
from battlemat.ui.screens import FileScreen  # noqa: E402
from battlemat.ui.setup import SetupScreen  # noqa: E402

pytestmark = pytest.mark.ui

MAP = ROOT / "maps" / "forest_ambush.tmx"  # no tokens: every character is placed in the set-up
ENCOUNTER = ROOT / "maps" / "boulder_field.toml"


def squares(app) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(open squares, blocked squares) of the board, in reading order."""
    board = app.play.session.board
    free = [(x, y) for y in range(board.height) for x in range(board.width)
            if not board.blocked[y, x] and not board.pit[y, x]]
    walls = [(int(x), int(y)) for y, x in zip(*np.nonzero(board.blocked), strict=True)]
    return free, walls


def setup_of(app) -> SetupScreen:
    top = app.stack[-1]
    assert isinstance(top, SetupScreen), f"the set-up is not on top: {top}"
    return top


def fill(app, entry, text: str) -> None:
    """Click a field, select what it holds, type over it."""
    click(app, entry.rect.center)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    key(app, pygame.K_BACKSPACE)
    type_text(app, text)


def form_submit(app, name: str, side: str, ratings: dict[str, str]) -> None:
    form = setup_of(app).form
    assert form is not None, "the form is not open"
    fill(app, form.name, name)
    fill(app, form.side, side)
    for pair, value in ratings.items():
        fill(app, form.ratings[pair], value)
    press(app, form.ok)


def press(app, button) -> None:
    """Click a widget's button; its press arrives as an event the next frame."""
    click(app, button.rect.center)
    ticks(app, 1)


def drag(app, start: tuple[float, float], end: tuple[float, float]) -> None:
    a, b = (round(start[0]), round(start[1])), (round(end[0]), round(end[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0), touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1, touch=False))
    ticks(app, 1)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=b, rel=(b[0] - a[0], b[1] - a[1]),
                                         buttons=(1, 0, 0), touch=False))
    ticks(app, 1)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1, touch=False))
    ticks(app, 1)


def set_up_and_drag_the_first_token(app):  # type: ignore[no-untyped-def]
    """F2 on an encounter at turn 1, then its first character dragged to a free square it may stand on:
    the set-up screen, that character as it was, and the square it went to."""
    key(app, pygame.K_F2)
    setup = setup_of(app)
    first = app.play.session.enc.characters[0]
    free, _ = squares(app)
    to = next(sq for sq in free if setup.draft.square_problem(sq) is None and sq != first.at)
    drag(app, square_pos(app, first.at), square_pos(app, to))
    assert app.play.session.enc.by_id[first.id].at == to
    return setup, first, to


def save_through_dialog(app, target: Path) -> None:
    top = app.stack[-1]
    assert isinstance(top, FileScreen), f"no file dialog: {top}"
    entry = top.dialog.file_path_text_line
    click(app, entry.rect.center)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    type_text(app, str(target))
    ticks(app, 2)
    click(app, top.dialog.ok_button.rect.center)
    ticks(app, 3)


@pytest.fixture
def bare(tmp_path: Path):
    app = make_app(tmp_path, str(MAP))
    ticks(app, 2)
    yield app
    app.close()


def test_a_bare_map_opens_ready_to_set_up_and_plays_after_saving(bare, tmp_path: Path) -> None:
    """M10 (one character per square), S1/S2 (ratings by pair, 0..8): the whole flow by clicks and typing."""
    app = bare
    setup = setup_of(app)
    assert not app.play.session.enc.characters
    free, walls = squares(app)
    a, b, c = free[40], free[44], free[80]

    click(app, square_pos(app, a))
    assert setup.square == a
    press(app, setup.buttons["New"])
    form_submit(app, "Aldric", "heroes", {"Melee/Press": "4", "Block/Dodge": "3"})
    assert setup.form is None, setup.form and setup.form.said
    aldric = app.play.session.enc.by_id["aldric"]
    assert (aldric.at, aldric.side, aldric.base("Melee/Press"), aldric.base("Block/Dodge")) == (a, "heroes", 4, 3)
    assert "as a new PC (S4) it spends 7 points, a new PC spends 40" in setup.said

    click(app, square_pos(app, b))
    press(app, setup.buttons["New"])
    form_submit(app, "Bandit", "bandits", {"Melee/Press": "3"})
    assert app.play.session.enc.by_id["bandit"].at == b
    assert app.play.session.enc.sides == ("heroes", "bandits")

    press(app, setup.buttons["Copy"])  # the bandit is chosen: its copy stands beside it
    copy = app.play.session.enc.by_id["bandit_2"]
    assert copy.name == "Bandit 2" and copy.skills == app.play.session.enc.by_id["bandit"].skills
    assert max(abs(copy.at[0] - b[0]), abs(copy.at[1] - b[1])) == 1
    press(app, setup.buttons["Remove"])  # the copy is chosen now
    assert "bandit_2" not in app.play.session.enc.by_id

    drag(app, square_pos(app, b), square_pos(app, c))
    assert app.play.session.enc.by_id["bandit"].at == c
    assert "Bandit now starts at" in setup.said

    target = tmp_path / "camp" / "ambush.toml"
    target.parent.mkdir()
    press(app, setup.buttons["Play"])  # not saved yet: Play asks where first
    save_through_dialog(app, target)
    ticks(app, 2)
    assert app.stack == [app.play], "the set-up did not give way to the game"
    assert app.play.session.path == target and target.exists()

    enc = load_encounter(target)  # the real loader, its map and all
    assert [(x.id, x.name, x.side, x.at, dict(x.skills)) for x in enc.characters] == [
        ("aldric", "Aldric", "heroes", a, {"Melee/Press": 4, "Block/Dodge": 3}),
        ("bandit", "Bandit", "bandits", c, {"Melee/Press": 3})]
    assert enc.characters == app.play.session.enc.characters  # reopened identically
    match = Match(enc)
    events = match.play([Intent("aldric", "Press", target="bandit"), Intent("bandit", "Dodge")])
    assert events and match.state.turn == 2
    assert cli(["check", str(target)]) == 0
    assert cli(["resolve", str(target)]) == 0


def test_bad_input_in_the_form_and_on_the_board_gets_a_clear_message(bare) -> None:
    """An empty name, a rating out of 0..8 (S2), a wall, a taken square (M10): refused, said, nothing placed."""
    app = bare
    setup = setup_of(app)
    free, walls = squares(app)
    a, b = free[40], free[44]
    click(app, square_pos(app, a))
    press(app, setup.buttons["New"])
    form_submit(app, "", "heroes", {})
    assert setup.form is not None and "Name: write a name" in setup.form.said
    form_submit(app, "Aldric", "heroes", {"Melee/Press": "9"})
    assert "Melee/Press: a rating is a whole number 0..8 (S2), found '9'" in setup.form.said
    form_submit(app, "Aldric", "", {"Melee/Press": "4"})
    assert "Side: name a side" in setup.form.said
    click(app, square_pos(app, walls[0]))  # the form stays open: the square is chosen on the board
    assert "is a wall or blocked" in app.play.ctx.status
    form_submit(app, "Aldric", "heroes", {"Melee/Press": "4"})
    assert "Square:" in setup.form.said and "is a wall or blocked" in setup.form.said
    assert not app.play.session.enc.characters
    click(app, square_pos(app, a))
    form_submit(app, "Aldric", "heroes", {"Melee/Press": "4"})
    assert setup.form is None and app.play.session.enc.by_id["aldric"].at == a

    click(app, square_pos(app, b))
    press(app, setup.buttons["New"])
    form_submit(app, "aldric", "bandits", {})  # a name taken (any case): logs tell characters apart by name
    assert "is already used by aldric" in setup.form.said
    form_submit(app, "Bandit", "bandits", {})
    drag(app, square_pos(app, b), square_pos(app, a))  # onto Aldric
    assert "Bandit cannot stand there" in setup.said and "taken by Aldric (M10" in setup.said
    drag(app, square_pos(app, b), square_pos(app, walls[0]))
    assert "is a wall or blocked" in setup.said
    assert app.play.session.enc.by_id["bandit"].at == b
    click(app, square_pos(app, b))  # the bandit's token: chosen; Delete removes it
    key(app, pygame.K_DELETE)
    assert "bandit" not in app.play.session.enc.by_id and "Bandit removed" in setup.said


def test_a_map_whose_tokens_name_nobody_is_not_saved(tmp_path: Path) -> None:
    """The boulder field's map places kwirt and the lizard by tokens: a set-up without them is refused
    with the words of `check`, and nothing is written."""
    app = make_app(tmp_path, str(ROOT / "maps" / "boulder_field.tmx"))
    try:
        ticks(app, 2)
        setup = setup_of(app)
        tokens = dict(app.play.session.board.tokens)
        assert f"The map's tokens name kwirt {list(tokens['kwirt'])}, lizard {list(tokens['lizard'])}" in setup.said
        free, _ = squares(app)
        click(app, square_pos(app, free[40]))
        press(app, setup.buttons["New"])
        form_submit(app, "Aldric", "heroes", {})
        with pytest.raises(LoadError, match="token 'kwirt' is no character of this encounter"):
            setup.draft.save(tmp_path / "x.toml")
        assert not (tmp_path / "x.toml").exists()
        for name, side in (("Kwirt", "heroes"), ("Lizard", "monsters")):
            press(app, setup.buttons["New"])  # no square chosen: the token's square
            form_submit(app, name, side, {"Melee/Press": "2"})
            assert setup.form is None, setup.form and setup.form.said
            assert app.play.session.enc.by_id[name.lower()].at == tokens[name.lower()]
        setup.draft.save(tmp_path / "x.toml")
        assert cli(["check", str(tmp_path / "x.toml")]) == 0
    finally:
        app.close()


def test_saving_never_replaces_the_map(bare) -> None:
    app = bare
    setup = setup_of(app)
    free, _ = squares(app)
    click(app, square_pos(app, free[40]))
    press(app, setup.buttons["New"])
    form_submit(app, "Aldric", "heroes", {})
    before = MAP.read_bytes()
    with pytest.raises(LoadError, match="replace a map"):
        setup.draft.save(MAP)
    press(app, setup.buttons["Save"])
    save_through_dialog(app, MAP)
    assert "Not saved" in setup.said and "replace a map" in setup.said
    assert MAP.read_bytes() == before


def test_set_up_an_encounter_before_turn_1_keeps_the_authors_comments(tmp_path: Path) -> None:
    """F2 on an encounter at turn 1: drag a token, add a copy, save; the comments and untouched tables stay."""
    from battlemat.io.toml_write import relative_path

    enc_file = tmp_path / "boulder_field.toml"
    source = ENCOUNTER.read_text().replace('map = "boulder_field.tmx"',
                                           f'map = "{relative_path(ROOT / "maps" / "boulder_field.tmx", tmp_path)}"')
    text = "# set up for the test: this comment must stay\n" + source
    enc_file.write_text(text)
    app = make_app(tmp_path, str(enc_file))
    try:
        ticks(app, 2)
        setup, first, to = set_up_and_drag_the_first_token(app)
        press(app, setup.buttons["Copy"])
        press(app, setup.buttons["Save"])
        save_through_dialog(app, enc_file)
        written = enc_file.read_text()
        assert written.startswith("# set up for the test: this comment must stay\n")
        kept = [line for line in text.splitlines() if line.lstrip().startswith("#")]
        assert all(line in written for line in kept), "an author's comment was lost"
        back = load_encounter(enc_file)
        assert back.by_id[first.id].at == to and len(back.characters) == len(app.play.session.enc.characters)
        assert back.characters == setup.draft.enc.characters
    finally:
        app.close()


def test_a_gm_rating_and_losses_change_mid_fight_is_logged_and_survives_save_and_replay(tmp_path: Path) -> None:
    """S2 and L1/L3 during a fight, in GM mode (E): the log marks the change as the game master's, the
    save keeps it and a replay makes it again before the same turn; a rating out of 0..8 changes nothing."""
    from test_ui import finish_turn, press_resolve, token_pos

    from battlemat.io.saves import read_save
    from battlemat.ui.gm_edit import GmEditScreen
    from battlemat.ui.session import Session

    app = make_app(tmp_path, str(ROOT / "maps" / "examples" / "valtor_lore.toml"))  # idle turns do not end it
    try:
        ticks(app, 2)
        press_resolve(app)
        key(app, pygame.K_ESCAPE)
        finish_turn(app)
        assert app.play.session.turn == 2
        key(app, pygame.K_e)  # not in GM mode: it says how
        assert "GM mode (M)" in app.play.ctx.status
        key(app, pygame.K_m)
        click(app, token_pos(app, "snail"))
        assert app.play.ctx.sel.who == "snail"
        key(app, pygame.K_e)
        edit = app.stack[-1]
        assert isinstance(edit, GmEditScreen)
        fill(app, edit.form.ratings["Melee/Press"], "9")
        press(app, edit.form.ok)
        assert "Melee/Press: a rating is a whole number 0..8 (S2), found 9" in edit.form.said
        assert app.play.session.enc.by_id["snail"].base("Melee/Press") == 0
        fill(app, edit.form.ratings["Melee/Press"], "6")
        fill(app, edit.form.major, "1")
        press(app, edit.form.ok)
        ticks(app, 1)
        assert app.stack == [app.play]
        s = app.play.session
        assert s.enc.by_id["snail"].base("Melee/Press") == 6 and s.state["snail"].major == 1
        log = app.play.ctx.side.log_plain
        assert "GM sets Giant snail's Melee/Press to 6 (was 0)" in log
        assert "GM sets Giant snail's major losses to 1 (were 0)" in log
        gm_events = [e for e in s.match.log if e.type == "gm_change"]
        assert [e.data["gm"] for e in gm_events] == [True, True]

        key(app, pygame.K_s, pygame.KMOD_CTRL)
        saved = sorted(tmp_path.glob("valtor_lore-*.json"))[-1]
        save = read_save(saved)
        assert [(c.turn, c.who, c.what, c.value) for c in save.gm] == [
            (2, "snail", "Melee/Press", 6), (2, "snail", "major", 1)]
        resumed, _ = Session.from_save(save, saved)
        assert resumed.enc.by_id["snail"].base("Melee/Press") == 6 and resumed.state["snail"].major == 1
        assert [e.text for e in resumed.match.log if e.type == "gm_change"] == [e.text for e in gm_events]
        replay, pending = Session.from_save(save, saved, replay=True)
        assert replay.enc.by_id["snail"].base("Melee/Press") == 0  # turn 1: as the encounter had it
        replay.go_to(2)
        assert replay.enc.by_id["snail"].base("Melee/Press") == 6 and replay.state["snail"].major == 1
        replay.resolve()  # the next turn plays on the changed ratings
        assert replay.turn == 3
    finally:
        app.close()


def test_leaving_an_encounters_set_up_unsaved_keeps_the_encounter_as_it_was(tmp_path: Path) -> None:
    """F2, a drag, then the window's close button: nothing is played that no file holds."""
    app = make_app(tmp_path, str(ENCOUNTER))
    try:
        ticks(app, 2)
        setup, first, to = set_up_and_drag_the_first_token(app)
        click(app, setup.window.close_window_button.rect.center)
        ticks(app, 2)
        assert app.stack[-1] is setup and "Esc (or close) again to drop them" in setup.said
        click(app, setup.window.close_window_button.rect.center)
        ticks(app, 2)
        assert app.stack == [app.play]
        assert app.play.session.enc.by_id[first.id].at == first.at
        assert "changes not saved are dropped" in app.play.ctx.status
    finally:
        app.close()


def test_a_universal_vtt_map_opens_in_its_set_up_and_leaving_asks_before_dropping(tmp_path: Path) -> None:
    app = make_app(tmp_path, str(ROOT / "maps" / "cellar_door.dd2vtt"))
    try:
        ticks(app, 2)
        setup = setup_of(app)
        assert app.play.session.board.doors  # the Universal VTT map's portals
        assert "set-up" in app.play.ctx.top.full_title
        press(app, app.play.ctx.top.buttons["grid"])  # the views work during the set-up
        assert app.play.ctx.art.show_grid is False
        press(app, app.play.ctx.top.buttons["save"])  # a game's save waits: there is no game yet
        assert "Leave the set-up first" in setup.said
        key(app, pygame.K_ESCAPE)  # nothing placed: the set-up just ends, F2 opens it again
        assert app.stack == [app.play]
        key(app, pygame.K_F2)
        setup = setup_of(app)
        free, _ = squares(app)
        click(app, square_pos(app, free[5]))
        press(app, setup.buttons["New"])
        form_submit(app, "Aldric", "heroes", {})
        key(app, pygame.K_ESCAPE)
        assert app.stack[-1] is setup and "again to drop them" in setup.said
        key(app, pygame.K_ESCAPE)
        assert app.stack == [app.play] and not app.play.session.enc.characters
    finally:
        app.close()


def test_play_on_a_map_opens_the_set_up_and_a_bad_map_is_one_message(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    shot = tmp_path / "setup.png"
    assert cli(["play", str(MAP), "--screenshot", str(shot), "--frames", "2", "--save-dir", str(tmp_path)]) == 0
    assert shot.stat().st_size > 0
    assert cli(["play", str(tmp_path / "nowhere.tmx"), "--screenshot", str(shot), "--save-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "nowhere.tmx" in err and "Traceback" not in err
    assert cli(["resolve", str(MAP)]) == 2  # a command that needs an encounter still says so
    assert "this is a map, not an encounter" in capsys.readouterr().err


def test_a_saved_gm_change_that_does_not_fit_its_encounter_is_one_message(tmp_path: Path) -> None:
    import json

    from battlemat.io.saves import read_save
    from battlemat.ui.session import Session

    lore = ROOT / "maps" / "examples" / "valtor_lore.toml"
    save = {"format": "battlemat-save", "version": 1, "encounter": str(lore), "seed": 1, "dice": "none",
            "pc_sides": ["heroes"], "turns": [[]], "meta": {},
            "gm": [{"turn": 2, "who": "snail", "what": "Melee/Press", "value": 5}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(save))
    session, _ = Session.from_save(read_save(path), path)
    assert session.enc.by_id["snail"].base("Melee/Press") == 5
    for who, what, value, words in (("nobody", "Melee/Press", 5, "no character 'nobody'"),
                                    ("snail", "Melee/Press", 9, "0..8 (S2)"), ("snail", "minor", 3, "0..2 (L1")):
        save["gm"] = [{"turn": 2, "who": who, "what": what, "value": value}]
        path.write_text(json.dumps(save))
        with pytest.raises(LoadError, match=r"gm\[0\]") as got:
            Session.from_save(read_save(path), path)
        assert words in str(got.value)


def test_open_on_a_map_sets_it_up_in_place_of_the_game(app) -> None:
    """Ctrl+O, a map's path typed in the file dialog, OK: the bare map and its set-up."""
    key(app, pygame.K_o, pygame.KMOD_CTRL)
    top = app.stack[-1]
    assert isinstance(top, FileScreen)
    save_through_dialog(app, MAP)  # (typing a path and OK, as for saving)
    setup = setup_of(app)
    assert app.stack == [app.play, setup]
    assert app.play.session.path == MAP and not app.play.session.enc.characters
