"""networkx as the oracle of `reach` (DESIGN: the movement graph is the model and the oracle).

For movers without sticky foes or jumps, on random boards (square grids under each diagonal setting,
and hex maps, with walls, pits, difficult squares, stairs and levels, allies and enemies), the squares
`reach` says a mover can end on, and their costs, are those networkx's Dijkstra finds over the board's
movement graph with the rules' step weights:
- a step costs the edge's `cost` (M11: 1, or 1.5 for an alternating diagonal: a path with d diagonals
  costs o + d + floor(d / 2) = floor(o + 1.5 d), so the rules' cost is the floor of networkx's);
- a wall, a pit (M1, M5) or an enemy's square (M10) is never entered; changing level needs stairs at
  either end or a Climb, one level at a time (M12);
- entering difficult terrain (M4) or climbing (M12) ends the move: those steps may only come last,
  so networkx walks the other steps and each ending step is added once at the end of a walk;
- nobody ends on another character's square (M10).
Both the compiled search and the reference search are checked. The searches read the grid's flat
tables, not the graph: the tables are checked to be the graph's, edge for edge; and the AI's walking
distances (compiled, and in Python) to be networkx's Dijkstra over the graph with the walking weights.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from conftest import random_board
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemat.core import geometry, movement, walls
from battlemat.core.board import DIRECTION_STEPS, DIRECTIONS, Board
from battlemat.core.movement import kernel
from battlemat.core.movement.grid import DOOR, WALLED
from battlemat.io.rules_file import load_rules

RULES = load_rules()
GRIDS = [("square", "", "", "alternating"), ("square", "", "", "chebyshev"), ("square", "", "", "manhattan"),
         ("hex", "y", "odd", "alternating"), ("hex", "x", "even", "alternating")]
USES = ["Exit", "Dodge", "Melee", "Climb", "Wrestle", "Escape"]


@st.composite
def scenes(draw):  # type: ignore[no-untyped-def]
    grid, axis, index, diagonals = draw(st.sampled_from(GRIDS))
    board, free = random_board(draw, (grid, axis, index), size=10, stairs=0.15, walls=draw(st.booleans()))
    if not free:
        return None
    start = draw(st.sampled_from(free))
    others = draw(st.lists(st.sampled_from(free), max_size=5, unique=True))
    occupants = {sq: movement.Occupant(f"N{i}", draw(st.booleans())) for i, sq in enumerate(others) if sq != start}
    mover = movement.Mover("a", "Ada", draw(st.sampled_from(USES)), start, draw(st.integers(0, 7)))
    doors = draw(st.sampled_from(["ends_move", "free", "closed"]))  # M4 house: how closed doors open
    return board, RULES.with_overrides({"diagonals": diagonals, "door_opening": doors}), mover, occupants


def between(board: Board, u, v) -> str:  # type: ignore[no-untyped-def]
    """What lies between two neighbouring squares, worked out again from the board's segments alone
    (core.walls: the line between the centres touches it, ends included): "wall" (a wall or a locked
    door, M1), "door" (a closed door), "" (nothing, or open doors only)."""
    (ax, ay), (bx, by) = geometry.centre(board, u), geometry.centre(board, v)
    found = ""
    for w in board.walls:
        if walls.touches(ax, ay, bx, by, w):
            return "wall"
    for d in board.doors:
        if d.state != "open" and walls.touches(ax, ay, bx, by, d.wall):
            if d.state == "locked":
                return "wall"
            found = "door"
    return found


def oracle(board: Board, rules, mover: movement.Mover, occupants) -> dict:  # type: ignore[no-untyped-def]
    """The squares `mover` can end on and their costs, by networkx's Dijkstra over the movement graph."""
    g = movement.grid(board, str(rules.switch("diagonals"))).graph
    climb = rules.halves[mover.use].climbs
    foes = {sq for sq, o in occupants.items() if not o.friend}
    doors = rules.switch_str("door_opening")

    def enters(u, v, d) -> bool:  # type: ignore[no-untyped-def]
        there, dl = g.nodes[v], d["dlevel"]
        if there["blocked"] or there["pit"] or v in foes:
            return False
        if d["wall"] == "wall" or (d["wall"] == "door" and doors == "closed"):
            return False  # M1: no step across a wall; a door only the game master opens
        stairs = g.nodes[u]["stairs"] or there["stairs"]
        return dl == 0 or (abs(dl) == 1 and (stairs or climb))

    def ends(u, v, d) -> bool:  # type: ignore[no-untyped-def]
        if d["wall"] == "door" and doors == "ends_move":
            return True  # M4 house: opening a door ends the move
        return bool(d["difficult"]) or (d["dlevel"] != 0 and not (g.nodes[u]["stairs"] or g.nodes[v]["stairs"]))

    def goes_on(u, v, d):  # type: ignore[no-untyped-def]
        return d["cost"] if enters(u, v, d) and not ends(u, v, d) else None  # None hides the edge

    cutoff = mover.allowance + 0.5  # floor(cost) <= allowance (costs are multiples of 0.5)
    walked = nx.single_source_dijkstra_path_length(g, mover.at, cutoff=cutoff, weight=goes_on)
    best = dict(walked)
    for u, cost in walked.items():
        for v, d in g[u].items():
            if enters(u, v, d) and ends(u, v, d) and cost + d["cost"] <= cutoff:
                best[v] = min(best.get(v, math.inf), cost + d["cost"])
    return {sq: math.floor(c) for sq, c in best.items() if sq not in occupants}


@pytest.mark.parametrize("compiled", [True, False])
@settings(max_examples=150, deadline=None)
@given(scene=scenes())
def test_reach_is_networkx_dijkstra_over_the_movement_graph(scene, compiled: bool) -> None:  # type: ignore[no-untyped-def]
    if scene is None:
        return
    board, rules, mover, occupants = scene
    with pytest.MonkeyPatch.context() as m:
        if not compiled:
            m.setattr(kernel, "AVAILABLE", False)
        movement.forget(board)
        got = movement.reach(board, rules, mover, movement.Context(occupants))
    assert dict(got.costs) == oracle(board, rules, mover, occupants)


def test_the_oracle_sees_a_wrong_step_weight(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The comparison can fail: with every alternating diagonal costing 1 (as chebyshev counts them)
    the reach of an open board's corner disagrees with the oracle (M11)."""
    board = Board(6, 6)
    mover = movement.Mover("a", "Ada", "Exit", (0, 0), 4)
    right = dict(movement.reach(board, RULES, mover).costs)
    assert right == oracle(board, RULES, mover, {})
    wrong = dict(movement.reach(board, RULES.with_overrides({"diagonals": "chebyshev"}), mover).costs)
    assert wrong != oracle(board, RULES, mover, {})


def test_walking_distances_count_difficult_ground_climbs_walls_and_pits() -> None:
    """The AI's walks over several turns (movement.walk_field, networkx over the reversed graph): a step
    costs 1, entering difficult ground 2 (M4), a level change without stairs CLIMB (M12); walls and
    pits are never walked (M1, M5), nor two levels at once."""
    level = np.zeros((1, 7), np.int16)
    level[0, 5:] = 1  # a ledge one level up
    level[0, 6] = 2  # and another above it
    difficult = np.zeros((1, 7), bool)
    difficult[0, 1] = True
    board = Board(7, 1, level=level, difficult=difficult)
    field = movement.walk_field(board, "alternating", (0, 0))
    assert list(field[:6]) == [0, 1, 3, 4, 5, 5 + movement.walks.CLIMB]  # into (1,0) is difficult: 2 (M4)
    assert field[6] == 5 + 2 * movement.walks.CLIMB  # one level at a time (M12)
    walled = Board(3, 1, blocked=np.array([[False, True, False]]))
    assert movement.walk_field(walled, "alternating", (0, 0))[2] == movement.FAR


@settings(max_examples=60, deadline=None)
@given(scene=scenes())
def test_the_grid_tables_are_the_movement_graph(scene) -> None:  # type: ignore[no-untyped-def]
    """Each edge of the graph is the table entry of its slot (neighbour, diagonal M11, difficult M4),
    each node's terrain its table entry (M1, M5, M12), and the tables hold nothing else. An edge is
    difficult exactly when the rules say (`ascent`: a difficult square, or a step up stairs or a slope,
    straight or at an angle)."""
    if scene is None:
        return
    board, rules, _, _ = scene
    gr = movement.grid(board, str(rules.switch("diagonals")))
    g, w, slots = gr.graph, board.width, gr.slots
    nbr = np.full((gr.size, slots), -1)
    for (ux, uy), (vx, vy), d in g.edges(data=True):
        i, k = uy * w + ux, d["slot"]
        nbr[i, k] = vy * w + vx
        assert (gr.diag[i * slots + k], gr.hard[i * slots + k]) == (d["diagonal"], d["difficult"])
        assert d["difficult"] == ascent(board, (ux, uy), (vx, vy))
        assert d["wall"] == between(board, (ux, uy), (vx, vy))  # M1: walls and doors between squares
        assert gr.walled[i * slots + k] == {"": 0, "wall": WALLED, "door": DOOR}[d["wall"]]
    assert (nbr == gr.arrays.nbr).all()
    for (x, y), d in g.nodes(data=True):
        i = y * w + x
        terrain = (gr.blocked[i], gr.pit[i], gr.level[i], gr.stairs[i])
        assert terrain == (d["blocked"], d["pit"], d["level"], d["stairs"])


def ascent(board: Board, a, b) -> bool:  # type: ignore[no-untyped-def]
    """M4, worked out again from the board alone: entering b from a ends the move when b is difficult,
    or when the step's compass direction has a part along one of the directions b rises toward (their
    unit steps make less than a right angle): stairs rising N are climbed by a step N, NE or NW."""
    x, y = b
    if board.difficult[y, x]:
        return True
    sx, sy = DIRECTION_STEPS[board.direction(a, b)]
    rises = [DIRECTION_STEPS[name] for name, bit in DIRECTIONS.items() if int(board.difficult_dirs[y, x]) & bit]
    return any(sx * rx + sy * ry > 0 for rx, ry in rises)


def walks_oracle(board: Board, diagonals: str, goal, doors: str = "ends_move") -> list[int]:  # type: ignore[no-untyped-def]
    """Walking distances to `goal` by networkx's Dijkstra over the movement graph: a step costs 1,
    entering difficult ground 2 (M4), a level change without stairs CLIMB (M12); walls and pits are
    never walked (M1, M5), nor two levels at once; a closed door costs 2 when opening it ends the
    move, nothing more when it opens freely, and is never walked when only the GM opens doors (M4)."""
    g = movement.grid(board, diagonals).graph

    def weight(u, v, d):  # type: ignore[no-untyped-def]
        a, b = g.nodes[u], g.nodes[v]
        if a["blocked"] or a["pit"] or b["blocked"] or b["pit"] or abs(d["dlevel"]) > 1:
            return None
        if d["wall"] == "wall" or (d["wall"] == "door" and doors == "closed"):
            return None
        if d["dlevel"] and not (a["stairs"] or b["stairs"]):
            return movement.walks.CLIMB
        return 2 if d["difficult"] or (d["wall"] == "door" and doors == "ends_move") else 1

    lengths = nx.single_source_dijkstra_path_length(g.reverse(copy=False), goal, weight=lambda v, u, d: weight(u, v, d))
    out = [movement.FAR] * (board.width * board.height)
    for (x, y), d in lengths.items():
        out[y * board.width + x] = int(d)
    return out


@pytest.mark.parametrize("compiled", [True, False])
@settings(max_examples=60, deadline=None)
@given(scene=scenes())
def test_walking_distances_are_networkx_dijkstra_over_the_movement_graph(scene, compiled: bool) -> None:  # type: ignore[no-untyped-def]
    if scene is None:
        return
    board, rules, mover, _ = scene
    diagonals = str(rules.switch("diagonals"))
    with pytest.MonkeyPatch.context() as m:
        if not compiled:
            m.setattr(kernel, "AVAILABLE", False)
        board.cache.walks.clear()
        doors = rules.switch_str("door_opening")
        got = list(movement.walk_field(board, diagonals, mover.at, doors))
    assert got == walks_oracle(board, diagonals, mover.at, doors)
