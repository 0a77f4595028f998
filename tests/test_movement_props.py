"""Properties of Reach and Route on random tiny boards (hypothesis): every reachable square has a
legal route within the allowance, that route is followed exactly when resolved alone, and reach
never contains blocked, pit or occupied squares (M1, M4, M5, M10, M11)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemat.core import geometry, movement
from battlemat.core.board import Board
from battlemat.core.character import Character
from battlemat.core.encounter import Encounter
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.memory import MatchMemory
from battlemat.io.rules_file import load_rules

RULES = load_rules()
GRIDS = [("square", "", ""), ("hex", "y", "odd"), ("hex", "x", "even")]


@st.composite
def scenes(draw):
    w, h = draw(st.integers(3, 8)), draw(st.integers(3, 8))
    grid, axis, index = draw(st.sampled_from(GRIDS))
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    roll = rng.random((h, w))
    blocked, difficult, pit = roll < 0.15, (roll >= 0.15) & (roll < 0.3), (roll >= 0.3) & (roll < 0.37)
    level = (rng.random((h, w)) < 0.1).astype(np.int16)
    board = Board(w, h, grid, stagger_axis=axis, stagger_index=index, blocked=blocked,
                  difficult=difficult, pit=pit, level=level)
    free = [(x, y) for y in range(h) for x in range(w) if board.enterable((x, y))]
    start = draw(st.sampled_from(free)) if free else None
    other = draw(st.sampled_from(free)) if len(free) > 1 else None
    use = draw(st.sampled_from(["Melee", "Press", "Exit", "Acrobatics", "Climb", "Escape"]))
    diagonals = draw(st.sampled_from(["alternating", "chebyshev", "manhattan"]))
    return board, start, other if other != start else None, use, diagonals


@settings(max_examples=60, deadline=None)
@given(scenes(), st.integers(0, 4))
def test_reach_properties(scene, rating):
    board, start, other, use, diagonals = scene
    if start is None:
        return
    rules = RULES.with_overrides({"diagonals": diagonals})
    allow = rules.allowance(use)
    mover = movement.Mover("a", "Ada", use, start, allow, jump_rating=rating if use == "Acrobatics" else 0)
    occ = {other: movement.Occupant("Orc", False)} if other else {}
    rc = movement.reach(board, rules, mover, movement.Context(occ))
    for sq, cost in rc.costs.items():
        assert board.enterable(sq) and sq not in occ  # never blocked, pit or occupied
        assert cost <= allow
        route = rc.routes[sq]
        assert (route[-1].to if route else start) == sq
        assert (route[-1].cost if route else 0) == cost
        followed = movement.follow(board, rules, mover, movement.Context(occ), [s.to for s in route])
        assert followed.squares == tuple(s.to for s in route) and followed.stopped is None
        assert followed.cost == cost
        for prev, step in zip((start,) + tuple(s.to for s in route), route, strict=False):
            if not step.over:
                assert geometry.adjacent(board, prev, step.to)
    for sq in rc.refused:
        assert sq not in rc.costs and board.inside(sq)


@settings(max_examples=25, deadline=None)
@given(scenes())
def test_route_is_followed_exactly_when_resolved_alone(scene):
    board, start, _, use, diagonals = scene
    if start is None:
        return
    use = {"Melee": "Dodge", "Press": "Block"}.get(use, use)  # attacks need a target: move without one
    rules = RULES.with_overrides({"diagonals": diagonals})
    char = Character("a", "Ada", "h", skills={rules.pair_of(use): 3}, at=start)
    enc = Encounter("t", rules, (char,), board=board)
    mover = movement.mover_for(MatchMemory(enc), enc.initial_state().chars, "a", use)
    rc = movement.reach(board, rules, mover)
    for sq in sorted(rc.costs)[:4]:
        if sq == start:
            continue
        m = Match(enc)
        evs = m.play([Intent("a", use, to=sq)])
        (moved,) = [e for e in evs if e.type == "moved"]
        assert moved.data["route"] == [list(s.to) for s in rc.routes[sq]]
        assert m.state["a"].at == sq
