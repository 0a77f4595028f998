"""Walls between squares and doors (issue 29), by rule: a step across a wall is refused (M1), a diagonal
step never squeezes past a wall's end (M1 house `wall_corners`), a jump never passes through one (M5),
a foe across a wall is not next to you (M6 sticky, P4 reach), a wall blocks sight (R4), and doors
open by the house switch `door_opening` (M4): a step through a closed door opens it and ends the move
(ends_move), opens it freely (free), or is refused (closed); a locked door is a wall (M1). The AI
walks through doors it may open. Each expected outcome is worked out by hand in the test.

The boards are tiny text maps (the rule cases' rows) with walls added as segments: on square grids
square (x, y) spans x..x+1 and y..y+1, so Wall(5, 0, 5, 3) runs between columns 4 and 5 of rows 0-2.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from conftest import ROOT, act, char, of, random_board
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemat.ai import Brain
from battlemat.core import geometry, movement
from battlemat.core.encounter import Encounter
from battlemat.core.errors import IllegalIntent
from battlemat.core.match import Match
from battlemat.core.walls import Door, Wall
from battlemat.io.cases import parse_case
from battlemat.io.rules_file import load_rules
from battlemat.io.saves import intent_from_dict

RULES = load_rules()
ROWS = ["." * 10] * 7
# a wall down the line x = 4 from top to bottom, with a door in it between (3, 4) and (4, 4)
WALL = (Wall(4, 0, 4, 4), Wall(4, 5, 4, 7))
DOOR = Door("cellar", Wall(4, 4, 4, 5), "closed", "cellar door")


def encounter(chars: list[dict[str, Any]], walls: tuple[Wall, ...] = WALL, doors: tuple[Door, ...] = (DOOR,),
              rules: dict[str, Any] | None = None, rows: list[str] | None = None) -> Encounter:
    data: dict[str, Any] = {"case": {"about": "walls"}, "map": {"rows": rows or ROWS, "legend": {}},
                            "character": chars, "turn": [{"intent": []}]}
    if rules:
        data["rules"] = rules
    enc = parse_case(data, "<test>", ROOT).encounter
    assert enc.board is not None
    return dataclasses.replace(enc, board=dataclasses.replace(enc.board, walls=walls, doors=doors))


def play(enc: Encounter, *turns: list[dict[str, Any]]) -> tuple[Match, list[Any]]:
    m = Match(enc)
    events: list[Any] = []
    for intents in turns:
        events += m.play([intent_from_dict(i) for i in intents])
    return m, events


def runner(cid: str = "r", at: tuple[int, int] = (2, 2), side: str = "a", **skills: int) -> dict[str, Any]:
    return char(cid, side, at=list(at), skills={"Exit/Escape": 2, **skills})


def test_M1_a_step_across_a_wall_is_refused_and_says_which_squares():
    enc = encounter([runner(at=(3, 1))])
    rc = movement.reach(enc.map_board, RULES, movement.Mover("r", "R", "Exit", (3, 1), 4))
    # (4, 1) is one step east, across the wall: reached only by going round below it, through the door
    assert rc.why_not((4, 1)).why == "wall between (3, 1) and (4, 1) (M1)"
    assert (4, 1) not in rc.costs and (3, 3) in rc.costs


def test_M1_wall_corners_a_diagonal_step_never_squeezes_past_a_walls_end():
    """The free-standing wall (2, 1)-(2, 3) ends at the corner (2, 3): the diagonal step (1, 2)->(2, 3)
    runs through that end, so it is refused [house wall_corners]; going round, (1, 3)->(2, 3), is not."""
    board = encounter([runner(at=(1, 2))], walls=(Wall(2, 1, 2, 3),), doors=()).map_board
    assert geometry.barrier_between(board, (1, 2), (2, 3)) is not None
    assert geometry.barrier_between(board, (1, 3), (2, 3)) is None
    assert not geometry.adjacent(board, (1, 2), (2, 3)) and geometry.adjacent(board, (1, 3), (2, 3))
    rc = movement.reach(board, RULES, movement.Mover("r", "R", "Exit", (1, 2), 1))
    assert (2, 3) not in rc.costs and (1, 3) in rc.costs and (2, 2) not in rc.costs


def test_M1_a_path_across_a_wall_is_refused_as_declared_with_the_reason():
    enc = encounter([runner(at=(3, 1)), char("f", "b", at=[7, 0], skills={"Melee": 1})])
    with pytest.raises(IllegalIntent) as err:
        play(enc, [act("r", "Exit", to=[5, 1], path=[[4, 1], [5, 1]])])
    assert err.value.rule == "M1" and "wall between (3, 1) and (4, 1) (M1)" in str(err.value)


def test_R4_a_wall_blocks_sight_and_a_shot_through_it_fails():
    enc = encounter([char("s", "a", at=[1, 1], skills={"Shoot/Throw": 4}),
                     char("t", "b", at=[6, 1], skills={"Block/Dodge": 1})])
    seen, _, why = geometry.sight(enc.map_board, (1, 1), (6, 1))
    assert not seen and "(R4)" in why and "wall" in why
    _, events = play(enc, [act("s", "Shoot", "t")])
    assert not of(events, "losses") and any("R4" in e.rules and e.data.get("who") == "s" for e in events
                                           if e.type not in ("intent", "phase", "turn_start"))


def test_M6_P4_a_foe_across_a_wall_is_not_next_to_you():
    """The Melee foe at (4, 1) stands across the wall from (3, 1): not adjacent (P4: its blow cannot
    land) and not sticky (M6: the runner may walk away along the wall)."""
    enc = encounter([runner(at=(3, 1)), char("m", "b", at=[4, 1], skills={"Melee": 3})])
    board = enc.map_board
    assert not geometry.adjacent(board, (3, 1), (4, 1))
    m, events = play(enc, [act("r", "Exit", to=[3, 2]), act("m", "Melee", "r")])
    assert m.state["r"].at == (3, 2)  # not held (M6)
    assert not [e for e in of(events, "stopped") if e.data.get("who") == "r"]
    assert not of(events, "losses")  # the blow did not reach across the wall (P4)


def test_M5_a_jump_never_passes_through_a_wall():
    """Acrobatics 4 jumps the pit at (3, 1) from (2, 1) to (4, 1), unless a wall stands between the
    pit and the landing square."""
    rows = ["........", "...O....", "........"]
    acro = char("j", "a", at=[2, 1], skills={"Acrobatics/Climb": 4})
    mover = movement.Mover("j", "J", "Acrobatics", (2, 1), 3, jump_rating=4)
    open_ground = encounter([acro], walls=(), doors=(), rows=rows)
    assert (4, 1) in movement.reach(open_ground.map_board, RULES, mover).costs
    walled = encounter([acro], walls=(Wall(4, 1, 4, 2),), doors=(), rows=rows)
    rc = movement.reach(walled.map_board, RULES, mover)
    assert not [s for s in rc.routes.values() if any(step.over for step in s)]


def test_M4_door_opening_ends_move_a_step_through_a_closed_door_opens_it_and_ends_the_move():
    """The runner at (3, 4) may go no farther than (4, 4) through the closed door between (3, 4) and
    (4, 4): it opens the door, the move ends there (M4 house), and the door stays open."""
    enc = encounter([runner(at=(3, 4))])
    rc = movement.reach(enc.map_board, RULES, movement.Mover("r", "R", "Exit", (3, 4), 4))
    assert rc.costs[4, 4] == 1 and rc.why_not((5, 4)).why == "opening a door ends the move (M4, house: door_opening)"
    m, events = play(enc, [act("r", "Exit", to=[4, 4])])
    (door,) = of(events, "door")
    assert door.data["door"] == "cellar" and door.data["state"] == "open" and "M4" in door.rules
    ruling = {"rule": "M4", "switch": "door_opening", "value": "ends_move"}
    assert door.data["house"] and ruling in door.data["house_rules"]
    assert m.state["r"].at == (4, 4) and m.state.doors["cellar"] == "open"
    (end,) = of(events, "turn_end")
    assert end.data["doors"] == [{"door": "cellar", "state": "open"}]  # how the doors stand after the turn
    m.play([intent_from_dict(act("r", "Exit", to=[7, 4]))])
    assert m.state["r"].at == (7, 4)  # an open door is no wall


def test_M4_door_opening_free_and_closed():
    free = encounter([runner(at=(3, 4))], rules={"door_opening": "free"})
    m, events = play(free, [act("r", "Exit", to=[6, 4])])
    assert m.state["r"].at == (6, 4) and of(events, "door") and m.state.doors["cellar"] == "open"
    shut = encounter([runner(at=(3, 4))], rules={"door_opening": "closed"})
    rc = movement.reach(shut.map_board, shut.rules, movement.Mover("r", "R", "Exit", (3, 4), 4))
    assert rc.why_not((4, 4)).rule == "M4" and "only the game master opens doors" in rc.why_not((4, 4)).why
    assert "only the game master opens doors" in rc.why_not((6, 4)).why
    with pytest.raises(IllegalIntent):
        play(shut, [act("r", "Exit", to=[6, 4])])


def test_M1_a_locked_door_is_a_wall_until_the_game_master_unlocks_it():
    locked = encounter([runner(at=(3, 4))], doors=(dataclasses.replace(DOOR, state="locked"),))
    rc = movement.reach(locked.map_board, RULES, movement.Mover("r", "R", "Exit", (3, 4), 4))
    assert rc.why_not((4, 4)).why == "locked door 'cellar door' between (3, 4) and (4, 4) (M1)"
    m = Match(locked)
    m.state = m.state.with_doors({"cellar": "open"})  # the game master opens it between turns
    m.play([intent_from_dict(act("r", "Exit", to=[6, 4]))])
    assert m.state["r"].at == (6, 4)


def test_R4_a_door_opened_in_P2_is_open_for_P3_of_the_same_turn():
    """The archer at (6, 4) shoots the scout at (1, 4) across the closed door: no sight at the start
    of the turn; the runner opens the door in P2, so the P3 shot sees its target."""
    enc = encounter([runner(at=(3, 3)), char("s", "b", at=[6, 4], skills={"Shoot/Throw": 4}),
                     char("t", "a", at=[1, 4], skills={"Block/Dodge": 0})])
    assert not geometry.sight(enc.map_board, (6, 4), (1, 4))[0]
    _, events = play(enc, [act("r", "Exit", to=[4, 4], path=[[3, 4], [4, 4]]), act("s", "Shoot", "t")])
    assert of(events, "door")
    shot = [e for e in events if e.phase == "P3"]
    assert shot and not any("no line of sight" in e.text for e in shot), [e.text for e in shot]
    assert of(events, "contest") or of(events, "losses"), [e.text for e in shot]


def test_the_state_of_each_door_is_part_of_the_state_and_starts_as_the_map_draws_it():
    enc = encounter([runner(at=(3, 4))], doors=(DOOR, Door("gate", Wall(0, 2, 1, 2), "open")))
    state = enc.initial_state()
    assert dict(state.doors) == {"cellar": "closed", "gate": "open"}
    assert enc.fitted(state) is enc
    shut = state.with_doors({"gate": "closed"})
    assert enc.fitted(shut).map_board.door_states == {"cellar": "closed", "gate": "closed"}
    assert enc.fitted(shut) is enc.fitted(shut)  # one door state, one board (its own caches)


def test_the_ai_walks_through_a_door_it_may_open():
    """The brawler at (1, 1) and its foe at (6, 1) are on either side of the wall; the only way is the
    door below. With doors that open it gets there; when only the GM opens doors it cannot."""
    chars = [char("b", "a", at=[1, 1], skills={"Melee": 3}, ai="brawler"),
             char("f", "b", at=[6, 1], skills={"Block/Dodge": 1}, ai="guardian")]
    for mode, arrives in (("ends_move", True), ("closed", False)):
        enc = encounter(chars, rules={"door_opening": mode})
        m, brain = Match(enc), Brain(enc)
        rng = random.Random(3)
        for _ in range(6):
            m.play(brain.decide(m.state, rng, ["b"]))
        at = m.state["b"].at
        assert at is not None
        assert (at[0] >= 4) == arrives, (mode, at)


def test_M13_a_throw_never_passes_through_a_wall():
    """The wrestler at (2, 1) holds the foe at (3, 1); Wrestle 3 reaches (5, 1), across the wall at
    x = 4: refused as declared; (3, 3), on this side, is fine."""
    enc = encounter([char("w", "a", at=[2, 1], skills={"Wrestle/Disarm": 3}),
                     char("f", "b", at=[3, 1], skills={"Melee": 1, "Wrestle/Disarm": 8})])
    m = Match(enc)
    m.state = m.state.replace_chars({**m.state.chars, "f": m.state["f"].with_(held_by="w", hold=3)})
    with pytest.raises(IllegalIntent) as err:
        m.play([intent_from_dict(act("w", "Wrestle", "f", throw=[5, 1]))])
    assert err.value.rule == "M13" and "a wall (4, 0)-(4, 4) stands between (3, 1) and (5, 1)" in str(err.value)
    events = m.play([intent_from_dict(act("w", "Wrestle", "f", throw=[3, 3]))])
    assert of(events, "thrown") and m.state["f"].at == (3, 3)


@pytest.mark.parametrize("line, words", [
    ('walls = [[3, 0, 3]]', "map.walls[0]: a wall is four numbers"),
    ('walls = [[3, 0, 3, 99]]', "map.walls[0]: a wall [3, 0, 3, 99] lies off the 4x2 map"),
    ('doors = [{ id = "d", at = [1, 0, 1, 1], state = "ajar" }]', "map.doors[0]: a door has an id"),
    ('doors = [{ id = "d", at = [1, 0, 1, 1] }, { id = "d", at = [2, 0, 2, 1] }]', "two doors are called 'd'"),
])
def test_an_inline_maps_bad_walls_and_doors_get_one_clear_message(tmp_path, capsys, line: str, words: str):
    from battlemat.cli import main

    case = tmp_path / "walls.toml"
    case.write_text(f'[case]\nabout = "bad walls in an inline map (M1)"\n[map]\nrows = ["....", "...."]\n{line}\n'
                    '[[character]]\nid = "a"\nside = "x"\nat = [0, 0]\n', encoding="utf-8")
    assert main(["check", str(case)]) == 2
    out = capsys.readouterr()
    said = out.out + out.err
    assert words in said and "Traceback" not in said


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_board_at_other_door_states_is_the_board_drawn_with_them(data) -> None:  # type: ignore[no-untyped-def]
    """Board.with_doors shares the walls' work between the boards of one map (BoardCache.family):
    what lies between each pair of neighbours (M1) is what a board drawn with those door states from
    the start says, on square and hex grids."""
    shape = data.draw(st.sampled_from([("square", "", ""), ("hex", "y", "odd"), ("hex", "x", "even")]))
    board, _ = random_board(data.draw, shape, size=9, walls=True)
    if not board.doors:
        return
    states = {d.id: data.draw(st.sampled_from(["open", "closed", "locked"])) for d in board.doors}
    geometry.barrier_between(board, (0, 0), (0, 0))  # the first board works its walls out first
    variant = board.with_doors(states)
    drawn = dataclasses.replace(board, doors=tuple(dataclasses.replace(d, state=states[d.id]) for d in board.doors))
    for y in range(board.height):
        for x in range(board.width):
            for n, _, _ in geometry.steps(board, (x, y), "chebyshev"):
                assert geometry.barrier_between(variant, (x, y), n) == geometry.barrier_between(drawn, (x, y), n)


def test_M1_a_locked_door_beside_a_closed_one_on_the_same_line_holds_the_step():
    """Two doors drawn on one line, one closed and one locked: the locked one holds (a wall, M1),
    whatever their order on the map; opening the closed one changes nothing."""
    for doors in ((Door("a", Wall(4, 4, 4, 5), "closed"), Door("b", Wall(4, 4, 4, 5), "locked")),
                  (Door("b", Wall(4, 4, 4, 5), "locked"), Door("a", Wall(4, 4, 4, 5), "closed"))):
        board = encounter([runner(at=(3, 4))], doors=doors).map_board
        for b in (board, board.with_doors({"a": "open"})):
            rc = movement.reach(b, RULES, movement.Mover("r", "R", "Exit", (3, 4), 4))
            assert rc.why_not((4, 4)).why == "locked door b between (3, 4) and (4, 4) (M1)"
