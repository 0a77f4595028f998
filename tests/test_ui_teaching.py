"""The teaching overlay (issue 19 item 4): O shows every NPC's declared intent, the squares it threatens
(the resolver's own reach and sight code) and the phase (P1-P4) each part of it resolves in. Driven by
real key presses, headless; the phases are checked against the turn the resolver then plays."""

from __future__ import annotations

from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from test_ui import finish_turn, key, make_app, press_resolve, ticks  # noqa: E402

from battlemat.cli import main  # noqa: E402
from battlemat.core import geometry, ranges  # noqa: E402
from battlemat.log import describe_intent  # noqa: E402
from battlemat.ui.move_preview import reach_for  # noqa: E402

pytestmark = pytest.mark.ui


def test_o_shows_every_npc_intent_its_threats_and_phases(app) -> None:
    """P1-P4, M6, R1, R4: the overlay lists each NPC's declared intent; a reach attack threatens the
    squares next to where its route ends (P4's adjacency), a shot the squares in its unpenalized range
    (R1) and sight (R4); the route ends where the movement reach lets it (M1)."""
    play = app.play
    s = play.session
    assert play.teaching.now() is None
    key(app, pygame.K_o)
    assert play.teaching.on and play.ctx.top.buttons["teach"].is_selected
    layer = play.teaching.now()
    npcs = {c.id for c in s.enc.characters if not s.is_pc(c.id) and c.id in s.declared}
    assert {m.who for m in layer.marks} == npcs and npcs
    board, chars, rules = s.board, s.chars_view(), s.enc.rules
    everywhere = [(x, y) for y in range(board.height) for x in range(board.width)]
    kinds = set()
    for m in layer.marks:
        it = s.declared[m.who]
        half = rules.halves[it.use]
        assert m.words == describe_intent(s.enc, it)
        if m.route:
            rc = reach_for(s.enc, board, chars, it, s.declared, s.match.memory)
            assert rc is not None and rc.can_end(m.end)  # the movement reach's own answer
        if half.act == "attack" and half.reach:
            want = {sq for sq in everywhere if geometry.adjacent(board, m.end, sq) and board.enterable(sq)}
            assert m.threatened == want and m.threat_rule == "P4" and m.threat_kind == "reach"
        elif half.act == "attack" and half.ranged:
            radius = ranges.unpenalized(rules, s.enc.by_id[m.who], it.use, chars[m.who].major)
            want = {sq for sq in everywhere if sq != m.end and board.enterable(sq)
                    and geometry.distance(board, m.end, sq, rules.switch("diagonals")) <= radius
                    and geometry.sight(board, m.end, sq)[0]}
            assert m.threatened == want and m.threat_rule == "R1" and m.threat_kind == "ranged"
        else:
            assert not m.threatened
        kinds.add(m.threat_rule)
        phases = [b.phase for b in m.badges]
        assert phases == sorted(phases)  # in the phase order
        assert phases[-1] == half.phase_of(it.target)  # the rules data's phase of the half
        assert ("P2" in phases) == bool(m.route)  # a move happens in the movement phase
    assert {"P4", "R1"} <= kinds  # the art gallery's ogres: a charge and shots
    lines = " ".join(ln.text for ln in play.teaching.lines(layer))
    assert "P1 observations" in lines and "P4 reach effects" in lines
    assert "an NPC's reach attack strikes here" in [r.words for r in play.aids.legend_rows()]
    key(app, pygame.K_o)
    assert not play.teaching.on and play.teaching.now() is None


def test_the_badges_name_the_phase_the_resolver_plays_each_intent_in(app) -> None:
    """P1-P4: every badge's phase is the phase of the events that intent makes when the turn is played."""
    play = app.play
    key(app, pygame.K_o)
    layer = play.teaching.now()
    press_resolve(app)
    key(app, pygame.K_ESCAPE)  # the playback skipped to the end
    finish_turn(app)
    events = play.session.last_events
    for m in layer.marks:
        mine = [ev for ev in events if ev.phase in ("P1", "P2", "P3", "P4")
                and (ev.data.get("who") == m.who or m.who in ev.data.get("attackers", ()))]
        for badge in m.badges:
            assert any(ev.phase == badge.phase for ev in mine), (m.words, badge, [(e.phase, e.text) for e in mine])


def test_play_screenshot_with_the_teaching_overlay(tmp_path: Path) -> None:
    """`battlemat play ENC --screenshot FILE --overlay teaching` renders the overlay headless."""
    shot = tmp_path / "teach.png"
    assert main(["play", str(Path(__file__).resolve().parent.parent / "maps" / "boulder_field.toml"),
                 "--screenshot", str(shot), "--overlay", "teaching", "--frames", "1",
                 "--save-dir", str(tmp_path)]) == 0
    assert shot.stat().st_size > 10_000


def test_the_overlay_option_starts_the_window_with_it(tmp_path: Path) -> None:
    app = make_app(tmp_path, "--overlay", "teaching")
    try:
        ticks(app, 1)
        assert app.play.teaching.on and app.play.teaching.now() is not None
    finally:
        app.close()
