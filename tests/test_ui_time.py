"""Files, the line of turns and asking before idle turns, driven through the window's real event flow:
clicks, typed text and keys go through pygame's event queue and `app.tick()`; widgets post their
own events (issue 17, items 3-5)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from conftest import EXAMPLES, ROOT  # noqa: E402
from test_ui import click, finish_turn, key, make_app, press_resolve, skill_key, square_pos, ticks, type_text  # noqa: E402

from battlemat.core.match import Match  # noqa: E402
from battlemat.io.errors import LoadError  # noqa: E402
from battlemat.io.saves import read_save, write_save  # noqa: E402
from battlemat.ui.screens import ConfirmScreen, FileScreen, SaveAsScreen  # noqa: E402
from battlemat.ui.session import Session  # noqa: E402
from battlemat.ui.timeline import Timeline  # noqa: E402

pytestmark = pytest.mark.ui

GALLERY = ROOT / "maps" / "art_gallery.toml"
KWIRT = EXAMPLES / "kwirt_and_the_lizard.toml"
LORE = EXAMPLES / "valtor_lore.toml"  # lasts: idle turns do not end it
TITLE = "Valtor's Lore"
CTRL_SHIFT = pygame.KMOD_CTRL | pygame.KMOD_SHIFT


def play_turns(app, n: int) -> None:
    """Resolve n turns as they stand (idle player characters confirmed), skipping the animation."""
    for _ in range(n):
        press_resolve(app)
        key(app, pygame.K_ESCAPE)
        finish_turn(app)


def list_row(dialog, name: str):
    """The button of one row of the file dialog's list (to click it as a person would)."""
    for item in dialog.file_selection_list.item_list:
        if item["text"] == name:
            assert item["button_element"] is not None, f"{name} is not shown in the list"
            return item["button_element"]
    raise AssertionError(f"{name} is not in {dialog.current_directory_path}")


def pick_from_dialog(app, name: str) -> None:
    """Click a file in the dialog's list, then OK, and let the picked path arrive."""
    dialog = app.stack[-1].dialog
    click(app, list_row(dialog, name).rect.center)  # the row posts its selection; the dialog takes it
    ticks(app, 2)
    assert dialog.ok_button.is_enabled, f"OK is not enabled after picking {name}"
    click(app, dialog.ok_button.rect.center)
    ticks(app, 3)


def states_equal(a: Match, b: Match) -> bool:
    return (a.state.to_dict() == b.state.to_dict() and [e.to_dict() for e in a.log] == [e.to_dict() for e in b.log]
            and a.rng.getstate() == b.rng.getstate())


def fresh_after(session: Session, turns: int) -> Match:
    m = Match(session.enc, seed=session.match.seed, dice=session.dice_override)
    for intents in session.line[:turns]:
        m.play(intents)
    return m


# -- item 3: open, replay, save as, saves that move -----------------------------------------------
def test_replay_dialog_starts_in_the_save_folder_and_replays_the_picked_save(app, tmp_path: Path) -> None:
    play_turns(app, 2)
    saved = app.play.session.line
    assert (tmp_path / "autosave-art_gallery.json").exists()
    key(app, pygame.K_r, pygame.KMOD_CTRL)
    top = app.stack[-1]
    assert isinstance(top, FileScreen)
    assert top.dialog.folder == tmp_path.resolve()  # the saves, not maps/
    pick_from_dialog(app, "autosave-art_gallery.json")
    assert app.stack == [app.play]
    s = app.play.session
    assert s.turn == 1 and s.line == saved and len(app.play.pending) == 2
    assert "replay" in app.play.ctx.top.title.text
    key(app, pygame.K_RETURN)  # a saved turn plays as saved: no question about idle characters
    assert not isinstance(app.stack[-1], ConfirmScreen)
    key(app, pygame.K_ESCAPE)
    finish_turn(app)
    assert s.turn == 2 and s.line == saved


def test_open_dialog_starts_beside_the_encounter_and_its_saves_button_opens_a_save(app, tmp_path: Path) -> None:
    play_turns(app, 1)
    key(app, pygame.K_o, pygame.KMOD_CTRL)
    top = app.stack[-1]
    assert isinstance(top, FileScreen)
    assert top.dialog.folder == GALLERY.parent.resolve()
    saves_button = next(b for b, folder in top.dialog.shortcuts if folder == tmp_path)
    click(app, saves_button.rect.center)
    ticks(app, 1)
    assert top.dialog.folder == tmp_path.resolve()
    pick_from_dialog(app, "autosave-art_gallery.json")
    assert app.stack == [app.play]
    assert app.play.session.turn == 2 and not app.play.pending  # opened to go on playing
    assert "Opened" in app.play.ctx.status


def test_save_as_writes_the_typed_name_and_asks_before_replacing(app, tmp_path: Path) -> None:
    play_turns(app, 1)
    key(app, pygame.K_s, CTRL_SHIFT)
    top = app.stack[-1]
    assert isinstance(top, SaveAsScreen)
    assert top.entry.is_focused
    type_text(app, "friday night")  # replaces the suggested name
    assert top.entry.get_text() == "friday night"
    key(app, pygame.K_RETURN)
    ticks(app, 2)
    target = tmp_path / "friday night.json"
    assert app.stack == [app.play] and target.exists()
    assert len(read_save(target).turns) == 1
    assert str(target) in app.play.ctx.status
    # the same name again: asked once more, then replaced
    play_turns(app, 1)
    key(app, pygame.K_s, CTRL_SHIFT)
    top = app.stack[-1]
    type_text(app, "friday night")
    click(app, top.ok.rect.center)
    ticks(app, 1)
    assert isinstance(app.stack[-1], SaveAsScreen) and "exists" in top.info.text
    assert len(read_save(target).turns) == 1
    click(app, top.ok.rect.center)
    ticks(app, 2)
    assert app.stack == [app.play] and len(read_save(target).turns) == 2


def test_a_save_moved_with_its_encounter_folder_still_loads(tmp_path: Path) -> None:
    camp = tmp_path / "campaign"
    camp.mkdir()
    shutil.copy(LORE, camp / "lore.toml")
    app = make_app(tmp_path / "saves", str(camp / "lore.toml"))
    try:
        play_turns(app, 2)
        key(app, pygame.K_s, CTRL_SHIFT)
        type_text(app, str(camp / "games" / "evening"))  # a path of its own, not the save folder
        key(app, pygame.K_RETURN)
        ticks(app, 2)
        log = [e.to_dict() for e in app.play.session.match.log]
    finally:
        app.close()
    data = json.loads((camp / "games" / "evening.json").read_text())
    assert data["encounter"] == "../lore.toml"  # relative to the save
    assert data["encounter_ref"]["title"] == TITLE and len(data["encounter_ref"]["sha256"]) == 64

    moved = tmp_path / "elsewhere" / "campaign2"
    moved.parent.mkdir()
    shutil.move(str(camp), str(moved))
    app = make_app(tmp_path / "saves", "--load", str(moved / "games" / "evening.json"))
    try:
        s = app.play.session
        assert s.path == moved / "lore.toml" and s.turn == 3
        assert [e.to_dict() for e in s.match.log] == log
    finally:
        app.close()

    # the save alone, far from both places: the error names the encounter it wants and the fix
    lone = tmp_path / "lone" / "evening.json"
    lone.parent.mkdir()
    shutil.copy(moved / "games" / "evening.json", lone)
    shutil.move(str(moved), str(tmp_path / "gone"))
    with pytest.raises(LoadError) as info:
        Session.from_save(read_save(lone), lone)
    words = str(info.value)
    assert f"{TITLE!r} (lore.toml, SHA-256" in words and "Fix:" in words


def test_old_saves_with_an_absolute_encounter_path_still_load(tmp_path: Path) -> None:
    s = Session(KWIRT)
    s.resolve(s.enc.turns[0])
    old = s.to_save().to_dict()
    old.pop("encounter_ref")
    old["encounter"] = str(KWIRT.resolve())  # as battlemat wrote saves before
    path = tmp_path / "far" / "away" / "old.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(old))
    back, _ = Session.from_save(read_save(path), path)
    assert back.turn == 2 and [e.to_dict() for e in back.match.log] == [e.to_dict() for e in s.match.log]


def test_a_changed_encounter_is_noticed_when_its_save_opens(tmp_path: Path) -> None:
    enc = tmp_path / "k.toml"
    shutil.copy(KWIRT, enc)
    s = Session(enc)
    s.resolve(s.enc.turns[0])
    path = write_save(s.to_save(), tmp_path / "k.json")
    assert not Session.from_save(read_save(path), path)[0].note
    enc.write_text(enc.read_text().replace('title = "Kwirt and the Lizard"', 'title = "Kwirt again"'))
    assert "changed since" in Session.from_save(read_save(path), path)[0].note


# -- item 4: rewind, the timeline, branches ----------------------------------------------------------
def test_rewind_gives_the_state_of_a_fresh_match_after_as_many_turns(app) -> None:
    play_turns(app, 2)
    s = app.play.session
    latest = Match(s.enc, seed=s.match.seed)
    for intents in s.line:
        latest.play(intents)
    assert states_equal(s.match, latest)
    key(app, pygame.K_PAGEUP)
    assert s.turn == 2 and states_equal(s.match, fresh_after(s, 1))  # after one turn
    assert s.declared == {it.who: it for it in s.line[1]}  # the recorded intents, ready to replay or change
    assert "turn 2 of 3 - rewound" in app.play.ctx.top.title.text
    key(app, pygame.K_PAGEUP)
    assert s.turn == 1 and states_equal(s.match, fresh_after(s, 0))
    assert s.state.to_dict() == s.enc.initial_state().to_dict()
    assert "== Turn" not in app.play.ctx.side.log_plain  # the log goes back with the board
    key(app, pygame.K_PAGEUP)
    assert "first turn" in app.play.ctx.status
    key(app, pygame.K_END)
    assert s.turn == 3 and states_equal(s.match, latest) and not s.future
    assert "== Turn 2 ==" in app.play.ctx.side.log_plain


def test_replaying_a_rewound_turn_stays_on_the_line(app, tmp_path: Path) -> None:
    play_turns(app, 2)
    s = app.play.session
    line = s.line
    auto = tmp_path / "autosave-art_gallery.json"
    key(app, pygame.K_PAGEUP)
    key(app, pygame.K_PAGEUP)
    play_turns(app, 1)  # Enter: the recorded turn 1
    assert s.turn == 2 and s.line == line and s.future == [line[1]] and not s.branched_at
    assert read_save(auto).turns == line
    key(app, pygame.K_PAGEDOWN)
    assert s.turn == 3 and states_equal(s.match, fresh_after(s, 2))


def test_timeline_click_and_drag_go_to_turns(app) -> None:
    play_turns(app, 2)
    s = app.play.session
    tl: Timeline = app.play.timeline
    y = tl.track.centery
    click(app, (tl.x_of(1, 3), y))
    assert s.turn == 1
    # the knob is drawn where the shown turn is
    ticks(app, 1)
    assert tuple(app.screen.get_at((round(tl.x_of(1, 3)), y + 8)))[:3] == (242, 184, 75)
    # drag from turn 1 to turn 3: the board follows through turn 2
    seen = []
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(tl.x_of(1, 3)), y), button=1,
                                         touch=False))
    ticks(app, 1)
    for turn in (2, 3):
        pos = (round(tl.x_of(turn, 3)), y)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(40, 0), buttons=(1, 0, 0),
                                             touch=False))
        ticks(app, 1)
        seen.append(s.turn)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(round(tl.x_of(3, 3)), y), button=1,
                                         touch=False))
    ticks(app, 1)
    assert seen == [2, 3] and s.turn == 3 and not s.future
    assert "== Turn 2 ==" in app.play.ctx.side.log_plain and not app.play.time.log_behind  # laid out on release
    assert app.play.ctx.pan_from is None  # the board did not take the drag as a pan
    click(app, (tl.x_of(2, 3), y))
    assert s.turn == 2 and states_equal(s.match, fresh_after(s, 1))


def test_branch_from_turn_1_writes_a_new_save_and_leaves_the_original(app, tmp_path: Path) -> None:
    play_turns(app, 2)
    auto = tmp_path / "autosave-art_gallery.json"
    original = auto.read_bytes()
    play = app.play
    s = play.session
    click(app, (play.timeline.x_of(1, 3), play.timeline.track.centery))
    assert s.turn == 1
    # Garran dodges this time
    play.declaring.select("garran")
    key(app, skill_key(app, "Dodge"))
    rc = play.declaring.current_reach()
    far = max(rc.costs, key=lambda sq: (rc.costs[sq], sq))
    click(app, square_pos(app, far))
    assert s.declared["garran"].to == far
    press_resolve(app)
    key(app, pygame.K_ESCAPE)
    finish_turn(app)
    assert s.turn == 2 and s.branched_at == 1 and not s.future
    assert auto.read_bytes() == original  # the original line stays
    branches = sorted(tmp_path.glob("art_gallery-branch-turn1-*.json"))
    assert len(branches) == 1
    assert "Branched at turn 1" in play.ctx.status and branches[0].name in play.ctx.status
    branch = read_save(branches[0])
    assert len(branch.turns) == 1 and branch.meta["branch_of"] == "autosave-art_gallery.json"
    assert ("garran", "Dodge", far) in [(i.who, i.use, i.to) for i in branch.turns[0]]
    branched_log = [e.to_dict() for e in s.match.log]
    app.close()

    # the branch replays to the branched log
    again = make_app(tmp_path, "--replay", str(branches[0]))
    try:
        key(again, pygame.K_RETURN)
        key(again, pygame.K_ESCAPE)
        finish_turn(again)
        assert [e.to_dict() for e in again.play.session.match.log] == branched_log
    finally:
        again.close()


def test_ctrl_z_with_nothing_to_undo_says_so(app) -> None:
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.play.ctx.status.startswith("Nothing to undo")
    play_turns(app, 1)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.play.ctx.status.startswith("Nothing to undo") and "PgUp" in app.play.ctx.status


# -- item 5: asking before idle player characters ----------------------------------------------------
def test_resolve_with_idle_player_characters_asks(app) -> None:
    play = app.play
    s = play.session
    play.declaring.select("farran")
    key(app, skill_key(app, "Dodge"))
    assert "farran" in s.declared
    key(app, pygame.K_RETURN)
    top = app.stack[-1]
    assert isinstance(top, ConfirmScreen)
    words = top.dialog.confirmation_text.html_text
    assert "4 of 5 have no intent" in words and "Garran" in words and "Farran" not in words
    # Cancel: back to declaring, the idle ones named, ringed and the first selected
    click(app, top.dialog.cancel_button.rect.center)
    ticks(app, 3)
    assert app.stack == [play] and s.turn == 1 and play.ctx.player is None
    assert set(play.ctx.idle) == {"parwanna", "billin", "cullin", "garran"}
    assert play.ctx.status.startswith("No intent yet:") and "Garran" in play.ctx.status
    assert play.ctx.sel.who == play.ctx.idle[0]
    # Esc cancels too
    key(app, pygame.K_RETURN)
    assert isinstance(app.stack[-1], ConfirmScreen)
    key(app, pygame.K_ESCAPE)
    ticks(app, 2)
    assert app.stack == [play] and s.turn == 1
    # OK resolves
    key(app, pygame.K_RETURN)
    top = app.stack[-1]
    click(app, top.dialog.confirm_button.rect.center)
    ticks(app, 3)
    assert app.stack == [play] and play.ctx.player is not None
    key(app, pygame.K_ESCAPE)
    finish_turn(app)
    assert s.turn == 2 and not play.ctx.idle


def test_resolve_does_not_ask_when_everyone_has_an_intent(app) -> None:
    play = app.play
    for cid in ("parwanna", "billin", "cullin", "farran", "garran"):
        play.declaring.select(cid)
        key(app, skill_key(app, "Dodge"))
    key(app, pygame.K_RETURN)
    assert app.stack == [play] and play.ctx.player is not None
