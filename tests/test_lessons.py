"""Lessons (issue 19): every bundled lesson played through the real window, headless, step by step,
as a learner would (select, skill key, click a target, click a square, Enter, Next); lesson files
checked like the other user files; a lesson written from a save plays."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from test_ui import click, finish_turn, key, press_resolve, skill_key, square_pos, ticks, token_pos  # noqa: E402

from battlemat.cli import main  # noqa: E402
from battlemat.commands.args import add_play_arguments  # noqa: E402
from battlemat.io.errors import LoadError  # noqa: E402
from battlemat.io.lessons import Step, bundled, lesson_name  # noqa: E402
from battlemat.teach.tutor import event_rules, load_lesson, matches  # noqa: E402
from battlemat.ui.app import App  # noqa: E402
from battlemat.ui.options import PlayOptions  # noqa: E402

pytestmark = pytest.mark.ui

LESSONS = bundled()


def lesson_app(tmp_path: Path, lesson_file: Path) -> App:
    p = argparse.ArgumentParser()
    add_play_arguments(p)
    args = p.parse_args(["--save-dir", str(tmp_path)])
    args.lesson = load_lesson(lesson_file)
    app = App(PlayOptions.from_namespace(args))
    ticks(app, 2)
    return app


def press_button(app: App, button) -> None:  # type: ignore[no-untyped-def]
    """Click a pygame_gui button as a user does; its press event is handled on the next frame."""
    click(app, button.get_abs_rect().center)
    ticks(app, 1)


def declare_step(app: App, step: Step) -> None:
    """Declare each intent the step asks for: the character (Tab), the skill by its key, the target's
    token, the square (the first the step names)."""
    for who in step.whos:
        want = next(w for w in step.wants if w.who == who)
        for _ in range(len(app.play.session.active())):  # Tab goes through the learner's characters
            if app.play.ctx.sel.who == who:
                break
            key(app, pygame.K_TAB)
        assert app.play.ctx.sel.who == who, app.play.ctx.status
        key(app, skill_key(app, want.use[0]))
        if want.target is not None:
            click(app, token_pos(app, want.target))
        if want.to:
            click(app, square_pos(app, want.to[0]))
        assert who in app.play.session.declared, app.play.ctx.status


def assert_pointed(app: App, step: Step) -> None:
    """Every event the step names is pointed at, with a rule the event cites (or its phase), the
    rules data's line for it, and the squares of the characters it concerns."""
    s = app.play.session
    shown = s.pointers
    for p in step.points:
        hits = [f for f in shown if matches(p, f.event)]
        assert hits, f"nothing pointed for {p} in {[f.event.text for f in shown]}"
        for f in hits:
            assert f.rule in event_rules(f.event) or f.rule == f.event.phase
            entry = s.enc.rules.entries[f.rule]
            assert f.line.startswith(f"{f.rule} {entry.title}: ")
            for cid in f.tokens:
                at = s.position(cid)
                assert at is None or at in f.squares
    panel = app.play.lesson_panel.shown
    assert all(f.line.split(":")[0] in panel for f in shown)  # each pointer's rule line is in the panel


def play_lesson(app: App) -> None:
    s = app.play.session
    steps = s.lesson.steps
    for k, step in enumerate(steps):
        assert s.step_index == k and f"step {k + 1} of {len(steps)}" in app.play.lesson_panel.shown
        declare_step(app, step)
        press_resolve(app)
        key(app, pygame.K_ESCAPE)  # skip the animation to the end, as a learner may
        finish_turn(app)
        assert s.played and s.turn == k + 2
        assert_pointed(app, step)
        press_button(app, app.play.lesson_panel.next)
    assert s.complete


@pytest.mark.parametrize("path", LESSONS, ids=[lesson_name(p) for p in LESSONS])
def test_every_bundled_lesson_plays_through_the_window(tmp_path: Path, path: Path) -> None:
    app = lesson_app(tmp_path, path)
    try:
        play_lesson(app)
    finally:
        app.close()


def test_there_are_six_lessons_or_more() -> None:
    names = {lesson_name(p) for p in LESSONS}
    assert len(names) >= 6


def test_a_wrong_declaration_is_refused_with_the_expected_one_and_M6_is_pointed_at(tmp_path: Path) -> None:
    """movement: step 2 asks for Throw; Dodge is refused with the reason and the hint, nothing is
    declared; then the Throw plays, and the ogre's Melee holds Kwirt in place: M6 on his square."""
    app = lesson_app(tmp_path, Path(__file__).resolve().parent.parent / "lessons" / "movement.lesson.toml")
    try:
        s = app.play.session
        declare_step(app, s.step)
        press_resolve(app)
        key(app, pygame.K_ESCAPE)
        finish_turn(app)
        press_button(app, app.play.lesson_panel.next)
        assert s.step_index == 1
        key(app, pygame.K_TAB)
        key(app, skill_key(app, "Dodge"))
        assert "kwirt" not in s.declared
        assert "this step asks for Kwirt: Throw on Ogre, to (1, 2), not Dodge" in app.play.ctx.status
        key(app, skill_key(app, "Throw"))
        assert "now click Ogre" in app.play.ctx.status and "kwirt" not in s.declared
        click(app, token_pos(app, "ogre"))  # the pointer rests on the ogre: the panel keeps the hint
        assert "Kwirt: now click the square (1, 2)" in app.play.lesson_panel.shown
        press_resolve(app)  # not yet: the step waits for the square
        assert "Refused" in app.play.ctx.status and "waits for Kwirt: Throw on Ogre" in app.play.ctx.status
        assert s.turn == 2
        click(app, square_pos(app, (1, 2)))
        assert s.declared["kwirt"].to == (1, 2)
        press_resolve(app)
        key(app, pygame.K_ESCAPE)
        finish_turn(app)
        (sticky,) = [p for p in s.pointers if p.rule == "M6"]
        assert sticky.event.type == "stopped" and sticky.squares[0] == (3, 2) and sticky.tokens[0] == "kwirt"
        assert sticky.line.startswith("M6 " + s.enc.rules.entries["M6"].title)
        # the tag on the map opens the rule's line (from the rules data) and the event's words
        (rect,) = [r for r, p in app.play.pointer_tags if p is sticky]
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0),
                                             touch=False))
        ticks(app, 2)
        shown = [ln.text for ln in app.play.ctx.cards.drawn.lines]
        assert shown == [sticky.line, sticky.event.text]
        # Retry plays the step again from its start
        press_button(app, app.play.lesson_panel.retry)
        assert s.step_index == 1 and s.turn == 2 and not s.played and not s.pointers
    finally:
        app.close()


def test_a_lesson_written_from_a_save_plays_in_the_window(tmp_path: Path) -> None:
    """Play two turns of a lesson's encounter in the window (its NPC decided by the AI), take the
    autosave, `battlemat lesson-from` it, and play the skeleton through the window step by step:
    each turn's intents are the step's, and its pointers find their events."""
    from test_ui import make_app

    enc = Path(__file__).resolve().parent.parent / "lessons" / "movement.toml"
    app = make_app(tmp_path, str(enc))
    try:
        ticks(app, 2)
        for half, sq in (("Acrobatics", (0, 0)), ("Dodge", (1, 1))):
            key(app, pygame.K_TAB)
            key(app, skill_key(app, half))
            click(app, square_pos(app, sq))
            press_resolve(app)
            key(app, pygame.K_ESCAPE)
            finish_turn(app)
    finally:
        app.close()
    save = tmp_path / "autosave-movement.json"
    out = tmp_path / "lessons" / "from_save.lesson.toml"
    assert main(["lesson-from", str(save), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("[[step]]") == 2 and "(Write what to try.)" in text and '"Acrobatics"' in text
    lesson = load_lesson(out)
    recorded = json.loads(save.read_text(encoding="utf-8"))["turns"]
    for step, turn in zip(lesson.steps, recorded, strict=True):
        npc = {(it.who, it.use) for it in step.npcs}
        assert npc == {(d["who"], d["use"]) for d in turn if d["who"] != "kwirt"}
    app = lesson_app(tmp_path, out)
    try:
        play_lesson(app)
    finally:
        app.close()


BAD_LESSON = """
[lesson]
title = "Broken"
goal = "Shows the messages"
encounter = "movement.toml"
[[step]]
text = "Kwirt does something"
expect = [ { who = "kwirt", use = "Dodgy" }, { who = "ogre", use = "Melee" } ]
point = [ { type = "moved", rule = "Z9" } ]
"""


def test_a_bad_lesson_names_the_file_the_place_and_the_fix_and_exits_2(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    lessons = Path(__file__).resolve().parent.parent / "lessons"
    bad = tmp_path / "broken.lesson.toml"
    bad.write_text(BAD_LESSON, encoding="utf-8")
    (tmp_path / "movement.toml").write_text((lessons / "movement.toml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(LoadError) as err:
        load_lesson(bad)
    words = str(err.value)
    assert f"{bad}: step[0].expect[0].use: unknown skill half 'Dodgy'" in words and "Dodge" in words
    assert "step[0].expect[1].who: 'ogre' is not on the learner's side 'heroes'" in words
    assert "step[0].point[0].rule: no rule 'Z9'" in words and "Fix:" in words
    assert main(["check", str(bad)]) == 2
    assert main(["learn", str(bad)]) == 2
    assert main(["lesson-from", str(tmp_path / "missing.json")]) == 2
    err_text = capsys.readouterr().err
    assert "Traceback" not in err_text and "missing.json: save file not found" in err_text
    assert main(["check", *map(str, sorted(lessons.glob("*.toml")))]) == 0  # lessons and their encounters


def test_a_lesson_the_rules_refuse_is_caught_by_check(tmp_path: Path) -> None:
    """M1: Acrobatics allows 3 squares; a lesson asking for 5 is refused when it is played through."""
    lessons = Path(__file__).resolve().parent.parent / "lessons"
    (tmp_path / "movement.toml").write_text((lessons / "movement.toml").read_text(encoding="utf-8"), encoding="utf-8")
    bad = tmp_path / "far.lesson.toml"
    bad.write_text(BAD_LESSON.replace('use = "Dodgy" }, { who = "ogre", use = "Melee" }',
                                      'use = "Acrobatics", to = [5, 2] }').replace('rule = "Z9"', 'who = "kwirt"'),
                   encoding="utf-8")
    with pytest.raises(LoadError, match=r"step\[0\]\.expect: the rules refuse kwirt's intent: .*\(M1\)"):
        load_lesson(bad)


def test_learn_lists_every_lesson_with_its_goal_and_steps(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["learn"]) == 0
    out = capsys.readouterr().out
    for path in LESSONS:
        lesson = load_lesson(path)
        assert lesson.title in out and lesson.goal in out and f"({len(lesson.steps)} steps)" in out


def test_learn_name_screenshot_opens_the_lesson_panel(tmp_path: Path) -> None:
    shot = tmp_path / "lesson.png"
    assert main(["learn", "movement", "--screenshot", str(shot), "--save-dir", str(tmp_path)]) == 0
    assert shot.stat().st_size > 10_000
