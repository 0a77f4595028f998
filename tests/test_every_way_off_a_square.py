"""Every way a character changes square or leaves the map meets the same checks (issue 28 item 2):
M6 (a sticky foe next to it holds it unless it uses Block, Dodge or Escape), C8 (a grip holds it: only
Escape breaks one), and C5 (a runner steps off the map's edge only when nothing holds it). Leaving the
map is one more way through the one door (`core.resolver.enter`): a step out of a square like any other
(`movement.step_off` over `StepRules.leave`, the one definition of leaving a square).

A throw is the thrower's act, not the thrown character's move: M6 limits where a character moves, so
it does not hold a thrown foe; a throw meets the door's own checks instead (wall, pit, someone there,
a hazard entered: tests/test_rules_on_the_map.py)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import ROOT, act, char, of, play_data

from battlemat.core.errors import IllegalIntent
from battlemat.core.match import Match
from battlemat.io.cases import parse_case

OGRE = char("o", "ogres", skills={"Melee/Press": 4}, at=[3, 2])  # sticky (M6) while it uses Melee
GRIP = char("w", "ogres", skills={"Wrestle/Disarm": 5}, at=[3, 3])
OGRE_STRIKES = act("o", "Melee", "dummy")
DUMMY = char("dummy", "heroes", skills={"Block/Dodge": 1}, at=[6, 0])


def play_rows(rows: list[str], chars: list[dict[str, Any]], turn: list[dict[str, Any]],
              start: dict[str, Any] | None = None) -> tuple[Match, list[Any]]:
    data: dict[str, Any] = {"case": {"about": "test"}, "map": {"rows": rows}, "character": chars,
                            "turn": [{"intent": turn}]}
    if start:
        data["start"] = start
    case = parse_case(data, "<test>", ROOT)
    m = Match(case.encounter)
    m.state = case.start
    return m, m.play(case.turns[0].intents)


# (way, rows, the mover at (2, 2) next to the Melee ogre at (3, 2), its intent)
WAYS: list[tuple[str, list[str], dict[str, Any], dict[str, Any]]] = [
    ("walk", ["......."] * 5, char("h", "heroes", skills={"Shoot/Throw": 3}), act("h", "Throw", "o", to=[0, 2])),
    ("charge", ["......."] * 5, char("h", "heroes", skills={"Melee/Press": 3}), act("h", "Press", "far")),
    ("jump landing", [".......", ".......", ".~.....", ".......", "......."],
     char("h", "heroes", skills={"Acrobatics/Climb": 8}), act("h", "Acrobatics", to=[0, 2])),
    ("exit walking to the edge", ["......."] * 5, char("h", "heroes", skills={"Exit/Escape": 3}),
     act("h", "Exit", to=[0, 2])),
]
FAR = char("far", "ogres", skills={"Melee/Press": 1}, at=[0, 2])


@pytest.mark.parametrize("way,rows,mover,intent", WAYS, ids=[w[0] for w in WAYS])
def test_M6_every_way_out_of_a_sticky_foes_reach_is_held(way: str, rows: list[str], mover: dict[str, Any],
                                                         intent: dict[str, Any]) -> None:
    """M6: next to a Melee user, a walk, a charge, a jump and a flight all stop in its reach, and say so."""
    chars = [OGRE, {**mover, "at": [2, 2]}, DUMMY] + ([FAR] if intent.get("target") == "far" else [])
    m, events = play_rows(rows, chars, [intent, OGRE_STRIKES])
    x, y = m.state["h"].at
    assert max(abs(x - 3), abs(y - 2)) == 1, f"{way}: left the ogre's reach to {(x, y)}"
    assert any(e.data.get("who") == "h" and e.data.get("rule") == "M6" for e in of(events, "stopped")), way
    assert m.state["h"].active


@pytest.mark.parametrize("half", ["Escape", "Dodge"])
def test_M6_escape_and_dodge_walk_away_from_a_sticky_foe(half: str) -> None:
    pair = "Exit/Escape" if half == "Escape" else "Block/Dodge"
    m, events = play_rows(["......."] * 5, [OGRE, char("h", "heroes", skills={pair: 3}, at=[2, 2]), DUMMY],
                          [act("h", half, to=[0, 2]), OGRE_STRIKES])
    assert m.state["h"].at == (0, 2) and not of(events, "stopped")


def test_M6_C5_every_way_off_the_map_meets_sticky_zones() -> None:
    """The issue's case: a runner already on the map's edge with a Melee user next to it stays (the
    newer "on the edge" path used to let it go); one with nobody next to it leaves."""
    chars = [char("h", "heroes", skills={"Exit/Escape": 3}, at=[0, 2]), {**OGRE, "at": [1, 2]}, DUMMY,
             char("free", "heroes", skills={"Exit/Escape": 3}, at=[6, 4])]
    m, events = play_rows(["......."] * 5, chars, [act("h", "Exit"), OGRE_STRIKES, act("free", "Exit")])
    (stop,) = [e for e in of(events, "stopped") if e.data["who"] == "h"]
    assert stop.phase == "P2" and stop.data["rule"] == "M6" and "C5" in stop.rules and "step off" in stop.text
    assert not m.state["h"].fled and m.state["h"].active and m.state["free"].fled
    assert not [e for e in of(events, "leaving") if e.data["who"] == "h"]


def test_M6_a_runner_already_on_the_edge_is_held_by_positions_as_its_sub_phase_began() -> None:
    """M6 [house]: positions at the start of the sub-phase. A Melee user that steps next to the runner
    later (sub-phase 3) does not hold a runner that stepped off in sub-phase 1."""
    chars = [char("h", "heroes", skills={"Exit/Escape": 3}, at=[0, 2]), {**OGRE, "at": [2, 2]}, DUMMY]
    m, _ = play_rows(["......."] * 5, chars, [act("h", "Exit"), act("o", "Melee", "dummy", to=[1, 2])])
    assert m.state["h"].fled


# (way, the held mover, its square, its intent): each way to move, and leaving the map from the edge
HELD_WAYS = [
    ("walk", char("h", "heroes", skills={"Shoot/Throw": 3}), [2, 3], act("h", "Throw", "w", to=[2, 1])),
    ("charge", char("h", "heroes", skills={"Melee/Press": 3}), [2, 3], act("h", "Press", "far")),
    ("jump", char("h", "heroes", skills={"Acrobatics/Climb": 8}), [2, 3], act("h", "Acrobatics", to=[0, 3])),
    ("escape too weak", char("h", "heroes", skills={"Exit/Escape": 3}), [2, 3], act("h", "Escape", to=[2, 1])),
    ("exit off the edge", char("h", "heroes", skills={"Exit/Escape": 3}), [6, 3], act("h", "Exit")),
]


@pytest.mark.parametrize("way,mover,at,intent", HELD_WAYS, ids=[w[0] for w in HELD_WAYS])
def test_C8_a_held_character_goes_nowhere_by_any_way(way: str, mover: dict[str, Any], at: list[int],
                                                     intent: dict[str, Any]) -> None:
    """C8: held by a Wrestle 5 grip (the wrestler next to it), no way of moving gets it anywhere (only an
    Escape above 5 would): refused when declared, or stopped in P2 with C8, and it never leaves the map."""
    rows = [".......", ".......", ".......", ".~.....", "......."]
    grip = {**GRIP, "at": [at[0] - 1, at[1]]}
    chars = [grip, {**mover, "at": at}, DUMMY, {**FAR, "at": [0, 0]}]
    start = {"h": {"held_by": "w", "hold": 5}}
    try:
        m, events = play_rows(rows, chars, [intent, act("w", "Wrestle", "dummy")], start=start)
    except IllegalIntent as err:  # refused as declared: a held character may not plan a move (C8)
        assert err.rule == "C8", way
        return
    assert m.state["h"].at == tuple(at), way
    assert not m.state["h"].fled and m.state["h"].held_by == "w"
    assert any("C8" in e.rules for e in of(events, "stopped") if e.data.get("who") == "h"), way


def test_C8_a_held_character_without_a_map_stays_where_it_is() -> None:
    """Without a map a declared move is taken as declared, through the same door: held (turn 1's grab),
    the Escape that does not beat the grip leaves it where it was, and its Exit does not get it away."""
    chars = [char("w", "ogres", skills={"Wrestle/Disarm": 5}, at=[1, 1]),
             char("h", "heroes", skills={"Exit/Escape": 3, "Block/Dodge": 3}, at=[2, 1])]
    m, events = play_data(chars, [[act("w", "Wrestle", "h"), act("h", "Block", "w")], [act("h", "Escape", to=[5, 1])],
                                  [act("h", "Exit")]])
    assert m.state["h"].held_by == "w" and m.state["h"].at == (2, 1) and not m.state["h"].fled
    assert of(events, "stopped", turn=2) and of(events, "stopped", turn=3)
