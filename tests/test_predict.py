"""Predictions are resolutions (issue 17, items 1 and 2): the hover card's forecast and the whole-turn
preview (`P`, `battlemat predict`) come from `resolve_turn` itself, with the intents that are known,
so they cannot disagree with the turn; unknown intents are assumed (and said) or guessed by the AI;
and predicting never changes the match. Window tests drive the real event flow."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import ROOT

from battlemat.cli import main
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.rating import Rating
from battlemat.core.resolver import forecast
from battlemat.io.encounter import load_encounter
from battlemat.io.saves import Save, intent_from_dict, write_save
from battlemat.predict import Question, intent_words, predict_turn, suffered_losses

GALLERY = ROOT / "maps" / "art_gallery.toml"


def duel(tmp_path: Path) -> Path:
    """A corridor of the forest map: Hero two squares from the Ogre, Near four squares beyond it on the
    other side, Far eight squares from it."""
    path = tmp_path / "duel.toml"
    path.write_text(f"""
[encounter]
title = "Duel"
map = "{(ROOT / 'maps' / 'forest_ambush.tmx').as_posix()}"
[[character]]
id = "hero"
name = "Hero"
side = "heroes"
skills = {{ "Melee/Press" = 3, "Block/Dodge" = 2 }}
at = [10, 8]
[[character]]
id = "far"
name = "Far"
side = "heroes"
skills = {{ "Melee/Press" = 3 }}
at = [20, 8]
[[character]]
id = "near"
name = "Near"
side = "heroes"
skills = {{ "Melee/Press" = 2 }}
at = [14, 8]
[[character]]
id = "ogre"
name = "Ogre"
side = "ogres"
skills = {{ "Melee/Press" = 4 }}
at = [12, 8]
ai = "guardian"
""")
    return path


# -- the core: a forecast is the turn ---------------------------------------------------------------
def test_forecast_reads_the_resolved_turn_P2_P4_S7() -> None:
    """The art gallery's first scripted turn: Farran's charge takes the square Garran's would need, so
    Garran's Press fails out of reach (P4) and Farran strikes alone (no group, S7), as the log says."""
    enc = load_encounter(GALLERY)
    m = Match(enc)
    intents = enc.turns[0]
    farran = forecast(enc, m.state, intents, "farran", memory=m.memory)
    garran = forecast(enc, m.state, intents, "garran", memory=m.memory)
    events = m.play(intents)
    (contest,) = [e for e in events if e.type == "contest" and "farran" in e.data["attackers"]]
    assert farran is not None and farran.attackers == ("farran",) and farran.failed is None
    assert farran.attack is not None and farran.attack.to_dict() == contest.data["attack"]
    assert farran.defense is not None and farran.defense.to_dict() == contest.data["defense"]
    assert (farran.winner, farran.losses) == (contest.data["winner"], contest.data["margin"])
    failed = [e for e in events if e.type == "no_effect" and e.data.get("who") == "garran"]
    assert garran is not None and garran.attack is None and garran.failed == failed[0]
    assert garran.failed.data["rule"] == "P4"


def test_a_recorded_rating_reads_back_whole() -> None:
    enc = load_encounter(GALLERY)
    for ev in Match(enc).play(enc.turns[0]):
        for part in ("attack", "defense", "rating"):
            if isinstance(ev.data.get(part), dict):
                assert Rating.from_dict(ev.data[part]).to_dict() == ev.data[part]


def test_an_exact_prediction_is_the_turn() -> None:
    """Diceless with every intent known, the predicted turn is the resolved one, event for event."""
    enc = load_encounter(GALLERY)
    m = Match(enc)
    pred = predict_turn(Question(enc, m.state, tuple(enc.turns[0])), m.memory)
    assert pred.question.exact and len(pred.samples) == 1
    assert pred.first.events == m.play(enc.turns[0])
    assert pred.first.state == m.state


# -- the window: the hover card (item 1) ---------------------------------------------------------------
pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from test_ui import (  # noqa: E402
    click,
    finish_turn,
    key,
    make_app,
    press_resolve,
    skill_key,
    square_pos,
    ticks,
    token_pos,
)

from battlemat.ui.prediction import GUESS  # noqa: E402
from battlemat.ui.tokens import radius  # noqa: E402


def hover(app, cid: str) -> None:
    pos = token_pos(app, cid)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(round(pos[0]), round(pos[1])), rel=(0, 0),
                                         buttons=(0, 0, 0), touch=False))
    ticks(app, 1)


def declare(app, who: str, half: str, target: str | None = None, to: tuple[int, int] | None = None) -> None:
    """Select `who` by clicking its token, press its skill key, click the target, click the square."""
    while app.play.ctx.sel.who is not None:  # nobody selected: a click on a token selects it
        key(app, pygame.K_ESCAPE)
    click(app, token_pos(app, who))
    assert app.play.ctx.sel.who == who
    key(app, skill_key(app, half))
    if target is not None:
        click(app, token_pos(app, target))
    if to is not None:
        click(app, square_pos(app, to))
    assert who in app.play.session.declared, app.play.ctx.status


@pytest.mark.ui
def test_melee_on_a_foe_two_squares_away_is_out_of_reach_unless_it_comes_closer(tmp_path: Path) -> None:
    app = make_app(tmp_path, str(duel(tmp_path)))
    try:
        ticks(app, 2)
        declare(app, "hero", "Melee", "ogre")
        hover(app, "ogre")
        card = app.play.board.shown_card
        assert card[0] == "Predicted contest (conditional)"
        assert "if Ogre stays where it is: its intent is secret" in card
        assert "   Ogre is out of reach after movement (P4)" in card and "   unless Ogre comes closer" in card
        assert "expected: no losses" in card
        assert not any("loss to" in line or "losses to" in line for line in card)  # nothing promised
    finally:
        app.close()


@pytest.mark.ui
def test_with_the_foe_intent_known_the_forecast_is_the_turn_contest_C3(tmp_path: Path) -> None:
    """GM mode: the Ogre declared to step next to Hero and strike it; Hero strikes back. The card's
    contest is the one the turn plays (C3: one contest), ratings, winner and losses alike."""
    app = make_app(tmp_path, str(duel(tmp_path)))
    try:
        ticks(app, 2)
        key(app, pygame.K_m)  # GM mode: the Ogre's intent is shown and can be declared
        declare(app, "ogre", "Melee", "hero", to=(11, 8))
        declare(app, "hero", "Melee", "ogre")
        hover(app, "ogre")
        play = app.play
        p = play.board.forecast_for("ogre")
        assert p is not None and not p.conditional and p.attack is not None and p.defense is not None
        assert p.verdict() in play.board.shown_card and play.board.shown_card[0] == "Predicted contest"
        assert p.verdict() == "expected: the attack fails, and its attacker suffers 1 loss"
        press_resolve(app)
        finish_turn(app)
        (contest,) = [e for e in play.session.match.log if e.type == "contest"]
        mine, theirs = ("attack", "defense") if "hero" in contest.data["attackers"] else ("defense", "attack")
        assert p.attack.to_dict() == contest.data[mine] and p.defense.to_dict() == contest.data[theirs]
        assert p.found.losses == contest.data["margin"] and contest.data["kind"] == "interfere"
        assert play.session.state["hero"].minor == p.losses_to("hero") == 1
    finally:
        app.close()


@pytest.mark.ui
def test_the_group_card_shows_the_group_that_forms_after_movement_S7(tmp_path: Path) -> None:
    app = make_app(tmp_path, str(duel(tmp_path)))
    try:
        ticks(app, 2)
        declare(app, "far", "Melee", "ogre")  # eight squares away: out of reach, no group
        declare(app, "hero", "Melee", "ogre", to=(11, 8))
        hover(app, "ogre")
        card = app.play.board.shown_card
        assert "Hero: Melee 3" in card and not any("group" in line or "Far" in line for line in card)
        declare(app, "near", "Melee", "ogre", to=(13, 8))  # two squares away: it steps in, the group forms
        declare(app, "hero", "Melee", "ogre", to=(11, 8))
        hover(app, "ogre")
        card = app.play.board.shown_card
        assert "Hero + Near (group, S7): Melee 5" in card and "   +1  group of 2  [S7]" in card
        assert "   +1  flanking Ogre  [R5]" in card  # and, standing on either side of it after movement, R5
        assert not any("Far" in line for line in card)
    finally:
        app.close()


# -- the window: the whole-turn preview (item 2) ------------------------------------------------------
@pytest.fixture
def gallery(tmp_path: Path):
    app = make_app(tmp_path)
    ticks(app, 2)
    yield app
    app.close()


@pytest.mark.ui
def test_p_shows_the_turn_as_ghosts_and_its_losses_are_the_turn(gallery) -> None:
    app, play = gallery, gallery.play
    key(app, pygame.K_m)  # GM mode: every intent known, so the prediction is exact
    declare(app, "farran", "Press", "ogre_boss")
    declare(app, "garran", "Press", "ogre_boss")
    key(app, pygame.K_p)
    ghost = play.ctx.ghost
    assert ghost is not None and play.ctx.top.buttons["predict"].is_selected
    assert ghost.card[1].text.startswith("diceless, every intent known")
    told = [ln.text for ln in ghost.card]
    for ev in ghost.events:
        if ev.type in ("losses", "defeated", "no_effect"):
            assert ev.text in told  # the events' own words
    ticks(app, 2)  # drawn over the board
    predicted = ghost.pred.first
    press_resolve(app)
    assert play.ctx.ghost is None
    finish_turn(app)
    turn = [e for e in play.session.match.log if e.turn == 1]
    assert ghost.losses == suffered_losses(turn) and ghost.losses
    assert predicted.state == play.session.state
    assert predicted.events == tuple(turn)


@pytest.mark.ui
def test_p_again_or_esc_clears_and_a_new_declaration_predicts_again(gallery) -> None:
    app, play = gallery, gallery.play
    key(app, pygame.K_p)
    assert play.ctx.ghost is not None and not play.ctx.ghost.pred.question.exact
    assert "the AI guesses the secret or undeclared intents of Ogre leader" in play.ctx.ghost.card[1].text
    key(app, pygame.K_p)
    assert play.ctx.ghost is None
    key(app, pygame.K_p)
    first = play.ctx.ghost
    declare(app, "garran", "Melee", "statue")
    ticks(app, 1)
    assert play.ctx.ghost is not None and play.ctx.ghost is not first  # the new declaration is in it
    assert "garran" in {it.who for it in play.ctx.ghost.pred.first.intents}
    key(app, pygame.K_ESCAPE)  # Esc clears the ghosts before it drops the selection
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_ESCAPE)
    assert play.ctx.ghost is None


@pytest.mark.ui
def test_the_predict_button_toggles_the_ghosts(gallery) -> None:
    app, play = gallery, gallery.play
    centre = play.ctx.top.buttons["predict"].get_abs_rect().center
    for _ in range(2):
        was = play.ctx.ghost
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre, rel=(0, 0), buttons=(0, 0, 0),
                                             touch=False))
        ticks(app, 1)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1, touch=False))
        ticks(app, 1)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre, button=1, touch=False))
        ticks(app, 2)  # the button posts its own event, handled on the next frame
        assert (play.ctx.ghost is None) == (was is not None)


@pytest.mark.ui
def test_predicting_leaves_the_match_unchanged(tmp_path: Path) -> None:
    """With dice (the match's random generator matters): predicting, sampling and hovering change
    neither the state, the generator, the memory nor the AI's notes, and the turn played afterwards
    is the one a match that never predicted plays."""
    from battlemat.ui.session import Session

    app = make_app(tmp_path, "--dice", "d6")
    try:
        ticks(app, 2)
        play = app.play
        s = play.session
        declare(app, "farran", "Press", "ogre_boss")
        rng, state, notes = s.match.rng.getstate(), s.state, repr(s.brain.memory)  # type: ignore[attr-defined]
        remembered = s.match.memory.of_state(s.state)
        valid = dict(remembered.valid)
        key(app, pygame.K_p)
        assert play.ctx.ghost is not None and len(play.ctx.ghost.pred.samples) > 1
        key(app, pygame.K_m)  # GM mode: predicted again, with the NPCs' intents
        ticks(app, 2)
        hover(app, "ogre_boss")
        assert s.match.rng.getstate() == rng and s.state is state
        assert repr(s.brain.memory) == notes  # type: ignore[attr-defined]
        assert s.match.memory.of_state(s.state) is remembered and remembered.valid == valid
        intents = s.turn_intents()
        press_resolve(app)
        finish_turn(app)
        fresh = Session(GALLERY, dice="d6")
        assert fresh.turn_intents()[-4:] == intents[-4:]  # the NPCs declared alike
        assert fresh.resolve(intents) == s.last_events
    finally:
        app.close()


@pytest.mark.ui
def test_p_marks_each_guessed_foe_with_the_ais_choices_and_their_share_P1(gallery) -> None:
    """P1: the NPCs declare in secret, so the players' window guesses every one of them. The panel
    says so per foe, with the AI's choices over ten draws of its own stream and how many chose each
    (the sharpshooter's shots spread over the heroes), and a '?' tag marks each guessed foe on the
    map. The guesses never read the foes' declared intents: the GM changing them changes nothing."""
    app, play = gallery, gallery.play
    s = play.session
    key(app, pygame.K_p)
    ghost = play.ctx.ghost
    assert ghost is not None
    told = [ln.text for ln in ghost.card]
    head = next(i for i, t in enumerate(told) if t.startswith("Guessed (10 draws of the AI"))
    npcs = [c for c in s.enc.characters if not s.is_pc(c.id)]
    lines = told[head + 1:head + 1 + len(npcs)]
    for c, line in zip(npcs, lines, strict=True):
        assert line.startswith(f"? {c.name}: ")
        assert sum(int(k) for k in re.findall(r"\((\d+) of 10\)", line)) == 10
    spread = [g for g in ghost.pred.guesses if len(g.choices) > 1]
    assert spread and all(f"; the turn plays {g.played}" in told[head + 1 + npcs.index(s.enc.by_id[g.who])]
                          for g in spread)
    played = {it.who: it for it in ghost.pred.first.guessed}
    assert all(g.played == intent_words(s.enc, played[g.who]) for g in ghost.pred.guesses)
    ticks(app, 2)
    assert play.aids.dock_card is not None  # the card is drawn, docked beside the board
    for g in ghost.pred.guesses:  # the '?' tag, left of the top of the guessed foe's predicted square
        cx, cy = play.ctx.cam.to_screen(*play.ctx.layout.center(ghost.ends[g.who]))
        r = radius(play.ctx.layout.cell, play.ctx.cam.zoom)
        assert tuple(app.screen.get_at((round(cx - r * 0.6) - 1, round(cy - r * 0.9))))[:3] == GUESS
    before = [ln for ln in told if ln.startswith("? ")]
    key(app, pygame.K_m)  # the GM declares otherwise for the statue and leaves GM mode
    declare(app, "statue", "Melee", "garran")
    key(app, pygame.K_m)
    ticks(app, 2)
    again = play.ctx.ghost
    assert again is not None and again is not ghost and s.declared["statue"].use == "Melee"
    assert [ln.text for ln in again.card if ln.text.startswith("? ")] == before


# -- the command line ------------------------------------------------------------------------------
def test_battlemat_predict_json_is_resolve_json(capsys: pytest.CaptureFixture[str]) -> None:
    """The events print exactly as `resolve --json` writes them: the same as resolving the known intents
    with the AI's guesses."""
    assert main(["predict", str(GALLERY), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    pred = lines[-1]["prediction"]
    assert pred["turn"] == 1 and pred["samples"] == 1 and [g["who"] for g in pred["guessed"]] == ["statue"]
    enc = load_encounter(GALLERY)
    intents = [intent_from_dict(d) for d in pred["known"] + pred["guessed"]]
    m = Match(enc)
    assert lines[:-2] == [json.loads(json.dumps(ev.to_dict())) for ev in m.play(intents)]
    assert lines[-2] == json.loads(json.dumps({"final": m.state.to_dict()}))


def test_battlemat_predict_text_is_resolve_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["predict", str(GALLERY)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# The Art Gallery  (seed 7, dice none)\n# predicted turn 1: one sample (seed 7)\n")
    assert "#     Bergtroll statue: Press on " in out
    assert "\n== Turn 1 ==\n" in out and "\n== final ==\n" in out
    assert "Garran: Press on Ogre leader fails: Ogre leader is out of reach after movement (P4)  [P4]" in out


def test_battlemat_predict_samples_with_dice_after_a_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    enc = load_encounter(GALLERY)
    save = tmp_path / "game.json"
    write_save(Save(str(GALLERY), 7, None, (tuple(enc.turns[0]),), ("watch",)), save)
    args = ["predict", str(GALLERY), "--load", str(save), "--dice", "d6", "--samples", "7", "--seed", "3"]
    assert main([*args, "--json"]) == 0
    pred = json.loads(capsys.readouterr().out.splitlines()[-1])["prediction"]
    assert (pred["turn"], pred["samples"], pred["dice"], pred["seed"], pred["known"]) == (2, 7, "d6", 3, [])
    assert {sum(sp["losses"].values()) for sp in pred["spread"].values()} == {7}
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "# predicted turn 2: 7 samples (seed 3); the first is shown" in out
    assert "== over 7 samples: losses suffered this turn ==" in out
    assert main(args) == 0 and capsys.readouterr().out == out  # the same seed, the same prediction


def test_battlemat_predict_says_what_it_guessed_and_how_sure_P1(capsys: pytest.CaptureFixture[str]) -> None:
    """The forest ambush: every bandit its first scripted turn leaves out has its intent guessed, printed with the AI's
    choices over ten draws and their share, as the window's panel says it; --json carries them too."""
    forest = ROOT / "maps" / "forest_ambush.toml"
    assert main(["predict", str(forest)]) == 0
    out = capsys.readouterr().out.splitlines()
    head = out.index("#   guessed by the AI (its choices over 10 draws of its own stream, never from declared "
                     "intents):")
    enc = load_encounter(forest)
    state = Match(enc).state
    scripted = {it.who for it in enc.turns[0]}
    foes = [c for c in enc.characters if c.side != enc.sides[0] and state[c.id].active and c.id not in scripted]
    for c, line in zip(foes, out[head + 1:head + 1 + len(foes)], strict=True):
        assert line.startswith(f"#     {c.name}: ")
        assert sum(int(k) for k in re.findall(r"\((\d+) of 10\)", line)) == 10
    assert any(", " in line and "; the turn plays " in line for line in out[head + 1:head + 1 + len(foes)])
    assert main(["predict", str(forest), "--json"]) == 0
    pred = json.loads(capsys.readouterr().out.splitlines()[-1])["prediction"]
    assert list(pred["guesses"]) == [c.id for c in foes]
    for cid, g in pred["guesses"].items():
        assert g["draws"] == 10 and sum(ch["draws"] for ch in g["choices"]) == 10
        (played,) = [it for it in pred["guessed"] if it["who"] == cid]
        assert g["played"] == intent_words(enc, intent_from_dict(played))


def test_battlemat_predict_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["predict", str(GALLERY), "--samples", "0"]) == 2
    assert main(["predict", str(GALLERY), "--dice", "d7"]) == 2
    assert main(["predict", str(GALLERY), "--side", "elves"]) == 2
    err = capsys.readouterr().err
    assert "argument --samples: 0 is out of range" in err  # the bounded type every command shares (commands.args)
    assert "argument --dice" in err and "d7" in err and "no side 'elves'" in err


def test_an_unknown_intent_is_guessed_with_a_generator_of_its_own() -> None:
    """The AI's guesses draw from a generator seeded by (seed, turn, sample): the same question, the
    same guesses; and the known intents are kept as declared."""
    enc = load_encounter(GALLERY)
    m = Match(enc)
    known = (Intent("garran", "Melee", "statue"),)
    q = Question(enc, m.state, known, ("statue", "ogre_boss"), samples=3, seed=5)
    a, b = predict_turn(q, m.memory), predict_turn(q, m.memory)
    assert [s.intents for s in a.samples] == [s.intents for s in b.samples]
    assert all(known[0] in s.intents and {g.who for g in s.guessed} <= {"statue", "ogre_boss"} for s in a.samples)
