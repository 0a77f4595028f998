"""The AI's table of a turn (battlemat.ai.table): every answer is the one its rule's own definition gives,
on square and hex maps and across walls and doors, so a tactic reading the table decides as it would
asking the geometry and the movement queries itself.

M7: a charge may end on the squares next to its foe that Dodge's reach holds (the table skips that
search where the foe stands beyond the farthest the move could go: M1, M5, M11 make that exact).
M6/P4: who stands next to whom; R4: sight; walking distances (movement.walk_field); M1-M12: reach.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import ROOT

from battlemat.ai import Brain
from battlemat.ai.table import Table
from battlemat.core import geometry, movement
from battlemat.core.encounter import Encounter
from battlemat.core.match import Match
from battlemat.core.resolver import start_context
from battlemat.io.encounter import load_encounter

WALLED = """
[encounter]
title = "walls and doors"
[map]
rows = ["..........", "....#..~~.", "..........", "....#...=.", "....#...1^"]
walls = [[6, 0, 6, 2], [6, 3, 6, 5]]
doors = [{ id = "hall", at = [6, 2, 6, 3], state = "closed", name = "hall door" }]
[[character]]
id = "a"
side = "x"
skills = { "Melee/Press" = 3, "Block/Dodge" = 2 }
at = [1, 1]
ai = "brawler"
[[character]]
id = "b"
side = "x"
skills = { "Shoot/Throw" = 3 }
at = [0, 3]
ai = "archer"
[[character]]
id = "c"
side = "y"
skills = { "Melee/Press" = 2, "Block/Dodge" = 3 }
at = [9, 0]
ai = "guardian"
[[character]]
id = "d"
side = "y"
skills = { "Melee/Press" = 2, "Acrobatics/Climb" = 2 }
at = [8, 4]
ai = "brawler"
"""


def _encounter(name: str, tmp_path: Path) -> Encounter:
    if name == "walled":
        path = tmp_path / "walled.toml"
        path.write_text(WALLED)
        return load_encounter(path)
    return load_encounter(ROOT / "maps" / f"{name}.toml")


def _states(enc: Encounter, turns: int = 5) -> list:  # type: ignore[type-arg]
    """The states of a few AI turns (the fight closes in, so charges come within reach)."""
    m, brain, rng, out = Match(enc, seed=3), Brain(enc), random.Random(5), []
    for _ in range(turns):
        if m.outcome().over:
            break
        out.append(m.state)
        m.play(brain.decide(m.state, rng))
    return out


@pytest.mark.parametrize("name", ["art_gallery", "bridge_hex", "boulder_field", "walled"])
def test_M7_charge_squares_are_dodges_reach_next_to_the_foe(name: str, tmp_path: Path) -> None:
    enc = _encounter(name, tmp_path)
    asked = found = 0
    for state in _states(enc):
        fitted = enc.fitted(state)
        board = fitted.board
        assert board is not None
        gr = movement.grid(board, enc.rules.switch_str("diagonals"))
        for side in enc.sides:
            table = Table(state, side, Brain(enc).known)
            ctx = start_context(fitted, state, side, table.known)
            for me in table.friends:
                mover = movement.mover_for(table.known, state.chars, me.id, "Dodge")
                reach = movement.reach(board, enc.rules, mover, ctx).costs
                same = table.allowance(me.id, "Press") == table.allowance(me.id, "Dodge")
                for foe in table.foes:
                    goal = state[foe.id].at
                    assert goal is not None
                    want = {gr.sq(j) for j in gr.zone(goal) if gr.sq(j) in reach} if same else set()
                    got = table.charge_squares(me.id, foe.id)
                    assert set(got) == want, (name, state.turn, me.id, foe.id)
                    asked, found = asked + 1, found + bool(want)
    assert asked and found  # some charges reach: the check is not only of empty answers


@pytest.mark.parametrize("name", ["art_gallery", "bridge_hex", "walled"])
def test_M6_R4_the_table_answers_as_the_geometry_does(name: str, tmp_path: Path) -> None:
    enc = _encounter(name, tmp_path)
    for state in _states(enc, 3):
        board = enc.fitted(state).board
        assert board is not None
        table = Table(state, enc.characters[0].side, Brain(enc).known)
        everyone = table.friends + table.foes
        for a in everyone:
            pa = state[a.id].at
            assert pa is not None
            for b in everyone:
                pb = state[b.id].at
                assert pb is not None
                if a is b:
                    continue
                assert table.adjacent(a.id, b.id) == geometry.adjacent(board, pa, pb)
                if b in table.friends:
                    assert (b.id in table.friends_next_to(a.id)) == geometry.adjacent(board, pb, pa)
                assert table.sees(a.id, b.id) == geometry.sight(board, pa, pb)[:2]
                walk = table.known.walk_field(pb, board)[pa[1] * board.width + pa[0]]
                assert table.distance(a.id, b.id) == (walk if walk < movement.FAR else
                                                     100 + geometry.distance(board, pa, pb, table.diagonals))


def test_a_table_is_built_from_the_state_alone() -> None:
    """Nothing a side declares reaches the other side's table: the table takes the state, the side and
    the match's memory, and gives the same answers before and after the other side has decided."""
    enc = load_encounter(ROOT / "maps" / "art_gallery.toml")
    m = Match(enc, seed=1)
    brain = Brain(enc, m.memory)
    side = enc.characters[0].side
    before = Table(m.state, side, m.memory)
    ask = [(c.id, use) for c in before.friends for use in ("Dodge", "Block", "Melee")]
    answers = [dict(before.reach(cid, use)) for cid, use in ask]
    brain.decide(m.state, random.Random(2), [c.id for c in enc.characters if c.side != side])
    after = Table(m.state, side, m.memory)
    assert [dict(after.reach(cid, use)) for cid, use in ask] == answers
    assert after.foes == before.foes and after.friends == before.friends


def test_a_side_never_learns_what_another_side_declared_in_the_same_decision() -> None:
    """Secrets stay secret (P1: everyone declares in secret): deciding every side in one call gives
    each side the intents it chooses when decided alone, after the others, with the same draws. The
    squares the other side chose to end on and the foes it aimed at are not its to know."""
    import random

    from battlemat.ai import Brain
    from battlemat.core.match import Match
    from battlemat.io.encounter import load_encounter

    differing = 0
    for name in ("art_gallery", "forest_ambush", "cellar_door"):
        enc = load_encounter(ROOT / "maps" / f"{name}.toml")
        m = Match(enc)
        for turn in range(6):
            together, apart = Brain(enc), Brain(enc)
            first, second = enc.sides[0], enc.sides[1]
            ids_first = [c.id for c in enc.characters if c.side == first]
            ids_second = [c.id for c in enc.characters if c.side == second]
            a = together.decide(m.state, random.Random(turn), ids_first + ids_second)
            rng = random.Random(turn)
            b = apart.decide(m.state, rng, ids_first) + apart.decide(m.state, rng, ids_second)
            assert a == b, (name, turn)
            differing += sum(1 for i in a if i.who in ids_second)
            if m.outcome().over:
                break
            m.play(a)
    assert differing > 10  # (the second side decided something to compare)
