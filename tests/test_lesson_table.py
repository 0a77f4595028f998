"""Lessons at the table (issue 32, item 7), through the real window and the real commands: a step never
asks about characters it does not involve; a pointer's tag names its event and is never cut at the
board's edge; `lesson-from` points at a turn's decisive events; the lesson's log starts with the
lesson; a one-square low wall (R4 cover) reads as a wall, not a pip."""

from __future__ import annotations

import html
import tomllib
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from test_lessons import declare_step, lesson_app, press_button  # noqa: E402
from test_ui import finish_turn, key, ticks  # noqa: E402
from test_ui_table import resize  # noqa: E402

from battlemat.cli import main  # noqa: E402
from battlemat.core.match import Match  # noqa: E402
from battlemat.io.saves import Save, write_save  # noqa: E402
from battlemat.teach.tutor import load_lesson  # noqa: E402
from battlemat.ui.cover_mark import LOW_WALL  # noqa: E402
from battlemat.ui.lesson import POINTER  # noqa: E402
from battlemat.ui.screens import ConfirmScreen  # noqa: E402

pytestmark = pytest.mark.ui

LESSONS = Path(__file__).resolve().parent.parent / "lessons"


def play_step(app) -> None:  # type: ignore[no-untyped-def]
    """Declare what the step asks, one Enter (no question may come), skip the animation."""
    s = app.play.session
    declare_step(app, s.step)
    key(app, pygame.K_RETURN)
    assert not isinstance(app.stack[-1], ConfirmScreen), "the step asked about idle characters"
    key(app, pygame.K_ESCAPE)
    finish_turn(app)
    assert s.played


def test_a_step_never_asks_about_characters_it_does_not_involve(tmp_path: Path) -> None:
    """ranged, step 1 asks for Arva alone: Enter plays it, with no 'Resolve with idle characters?
    Brin'; and Enter on a step still waiting for its own character says what it waits for."""
    app = lesson_app(tmp_path, LESSONS / "ranged.lesson.toml")
    try:
        s = app.play.session
        key(app, pygame.K_RETURN)  # nothing declared yet: the step's gate answers, no question
        assert not isinstance(app.stack[-1], ConfirmScreen)
        assert "waits for Arva: Shoot on Bandit 1" in app.play.ctx.status and not s.played
        play_step(app)
        assert "brin" not in s.declared and s.turn == 2
    finally:
        app.close()


def tags_inside(app) -> None:  # type: ignore[no-untyped-def]
    board = app.play.ctx.frame.board
    assert app.play.pointer_tags
    for rect, _ in app.play.pointer_tags:
        assert board.contains(rect), (rect, board)
        assert tuple(app.screen.get_at((rect.left + 2, rect.centery)))[:3] == POINTER  # drawn, not cut


def test_a_pointer_tag_names_its_event_and_is_never_cut_at_the_board_edge_P4_R4(tmp_path: Path) -> None:
    """movement, step 3: the tag says what the ogre's Melee did ('did nothing: Kwirt is out of reach
    after movement', P4), not the phase's title; ranged, step 2: the shot through the low wall names
    the cover's -1 (R4). Every tag lies inside the board, at the window's size and at 1000x640."""
    app = lesson_app(tmp_path, LESSONS / "movement.lesson.toml")
    try:
        for _ in range(2):
            play_step(app)
            press_button(app, app.play.lesson_panel.next)
        play_step(app)
        ticks(app, 2)
        labels = {p.rule: p.label for p in app.play.session.pointers}
        assert labels["P4"] == "Ogre's Melee did nothing: Kwirt is out of reach after movement"
        assert labels["P2"] == "Kwirt moves 2 squares to (1, 2)"
        assert "Phase" not in " ".join(labels.values())
        assert all(html.escape(label) in app.play.lesson_panel.shown for label in labels.values())  # panel too
        tags_inside(app)
    finally:
        app.close()
    app = lesson_app(tmp_path, LESSONS / "ranged.lesson.toml")
    try:
        play_step(app)
        press_button(app, app.play.lesson_panel.next)
        play_step(app)
        (cover,) = app.play.session.pointers
        assert cover.label == "Arva's Shoot 2 (-1 cover on the line) vs Bandit 2's Dodge 2: a tie"
        for size in ((1280, 800), (1000, 640)):
            resize(app, size)
            ticks(app, 2)
            tags_inside(app)
    finally:
        app.close()


def test_the_lesson_screen_says_the_lesson_not_a_games_notes(tmp_path: Path) -> None:
    app = lesson_app(tmp_path, LESSONS / "movement.lesson.toml")
    try:
        words = [e.plain for e in app.play.ctx.side.book.entries]
        lesson = app.play.session.lesson
        assert words[0] == f"{lesson.title}: {lesson.goal}"
        assert not any("marks no walls" in w or "M shows them" in w for w in words)
        assert app.play.ctx.top.full_title == lesson.title and app.play.ctx.top.title.text == lesson.title
        shown = app.play.ctx.side.help.html_text  # the sidebar's help: what a lesson needs, not every key
        assert shown.startswith("<b>A lesson</b>") and "Ctrl+Shift+S" not in shown
    finally:
        app.close()


def test_a_one_square_low_wall_reads_as_a_wall_R4(tmp_path: Path) -> None:
    """ranged's '+' square (cover 1) on a map without art: a stone wall across a good part of the
    square, not a pip of a few pixels."""
    app = lesson_app(tmp_path, LESSONS / "ranged.lesson.toml")
    try:
        ticks(app, 2)
        ctx = app.play.ctx
        corners = [ctx.cam.to_screen(*p) for p in ctx.layout.polygon((5, 3))]
        xs, ys = [round(p[0]) for p in corners], [round(p[1]) for p in corners]
        stone = sum(tuple(app.screen.get_at((x, y)))[:3] == LOW_WALL
                    for x in range(min(xs), max(xs)) for y in range(min(ys), max(ys)))
        area = (max(xs) - min(xs)) * (max(ys) - min(ys))
        assert stone >= 0.08 * area and stone >= 150, (stone, area)
    finally:
        app.close()


def test_lesson_from_points_at_a_turns_decisive_events(tmp_path: Path) -> None:
    """The phases lesson played as a game and saved: its third turn has seven events that cite a rule
    (moved, leaving, moved, contest, contest, fled, not healed); the step `lesson-from` writes points
    at Valtor's flight (C5) and both attacks on him, not at the first four."""
    lesson = load_lesson(LESSONS / "phases.lesson.toml")
    turns = tuple((*[next(w for w in st.wants if w.who == who).example() for who in st.whos], *st.npcs)
                  for st in lesson.steps)
    m = Match(lesson.enc)
    for t in turns:
        m.play(t)
    save = tmp_path / "game.json"
    write_save(Save(str(LESSONS / "phases.toml"), m.seed, None, turns, lesson.sides), save)
    out = tmp_path / "mine.lesson.toml"
    assert main(["lesson-from", str(save), "-o", str(out)]) == 0
    steps = tomllib.loads(out.read_text(encoding="utf-8"))["step"]
    third = [(p["type"], p.get("who")) for p in steps[2]["point"]]
    assert ("fled", "valtor") in third and third.count(("contest", "kobold")) + third.count(("contest", "ogre")) == 2
    assert ("leaving", "valtor") not in third and len(third) == 4
    load_lesson(out)  # and it plays: every pointer finds its event


def test_the_legend_comes_and_goes_and_the_whole_small_map_stays_in_view(tmp_path: Path) -> None:
    """L docks the legend beside the board; the lesson's map is fitted again to what is left, so none
    of it is hidden, and the legend draws cover as the map does (a low wall, R4)."""
    app = lesson_app(tmp_path, LESSONS / "ranged.lesson.toml")
    try:
        ctx = app.play.ctx
        for legend in (True, False):
            key(app, pygame.K_l)
            ticks(app, 2)
            assert app.play.aids.legend is legend
            board = ctx.frame.board
            x0, y0 = ctx.cam.to_screen(0, 0)
            x1, y1 = ctx.cam.to_screen(ctx.art.width, ctx.art.height)
            assert board.collidepoint(x0, y0) and board.collidepoint(x1 - 1, y1 - 1), ((x0, y0, x1, y1), board)
            assert (x1 - x0) >= 0.6 * board.width or (y1 - y0) >= 0.6 * board.height  # and large
        assert "low_wall" in [row.swatch for row in app.play.aids.legend_rows()]
    finally:
        app.close()
