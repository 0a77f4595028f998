"""Wrestle grabs and throws (M13) and Escape against a grip (C8), with and without a board."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import act, char, of, play_data

from battlemat.core.board import Board
from battlemat.core.errors import IllegalIntent
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.io.encounter import parse_encounter

TOUGH = {"Wrestle/Disarm": 8}


def test_M13_successful_wrestle_grabs_and_holds_in_place():
    m, events = play_data(
        [char("w", "x", skills={"Wrestle": 4}), char("f", "y", skills={"Exit/Escape": 3, **TOUGH},
                                                   talents=TOUGH)],
        [[act("w", "Wrestle", "f")]],
    )
    assert m.state["f"].held_by == "w" and m.state["f"].hold == 4
    assert of(events, "grabbed")[0].data["who"] == "f"
    with pytest.raises(IllegalIntent) as err:
        m.play([Intent("f", "Exit", to=(3, 3))])
    assert err.value.rule == "C8"


@pytest.mark.parametrize("escape,free", [(2, False), (3, True)])
def test_C8_escape_must_beat_the_grip(escape, free):
    m, events = play_data(
        [char("w", "x", skills={"Wrestle": 2}),
         char("f", "y", skills={"Exit/Escape": escape, **TOUGH}, talents=TOUGH)],
        [[act("w", "Wrestle", "f")], [act("f", "Escape", to=[2, 2])]],
    )
    assert (m.state["f"].held_by is None) == free
    assert (m.state["f"].at == (2, 2)) == free
    assert bool(of(events, "escaped", 2)) == free


def test_M13_grip_released_when_the_wrestler_falls():
    m, events = play_data(
        [char("w", "x", skills={"Wrestle": 4}), char("f", "y", skills=TOUGH, talents=TOUGH),
         char("archer", "y", skills={"Shoot": 8})],
        [[act("w", "Wrestle", "f")], [act("archer", "Shoot", "w")]],
    )
    assert m.state["w"].defeated and m.state["f"].held_by is None
    assert of(events, "released", 2)


def board_match() -> Match:
    data = {"encounter": {"title": "throw"}, "character": [
        {"id": "w", "side": "x", "skills": {"Wrestle/Disarm": 3}, "at": [2, 1]},
        {"id": "f", "side": "y", "skills": TOUGH, "talents": TOUGH, "at": [3, 1]},
    ]}
    enc = parse_encounter(data, "<t>")
    return Match(dataclasses.replace(enc, board=Board.empty(9, 3)))


def test_M13_throw_a_held_foe_up_to_one_square_per_rating():
    m = board_match()
    m.play([Intent("w", "Wrestle", "f")])
    assert m.state["f"].held_by == "w"
    with pytest.raises(IllegalIntent) as err:
        m.play([Intent("w", "Wrestle", "f", throw=(7, 1))])  # 4 squares > Wrestle 3
    assert err.value.rule == "M13"
    events = m.play([Intent("w", "Wrestle", "f", throw=(6, 1))])
    assert [e.type for e in events if e.type in ("grabbed", "thrown")] == ["thrown"]
    assert m.state["f"].at == (6, 1) and m.state["f"].held_by is None


def test_M13_throw_needs_a_grip_from_an_earlier_turn():
    m = board_match()
    with pytest.raises(IllegalIntent) as err:
        m.play([Intent("w", "Wrestle", "f", throw=(5, 1))])
    assert err.value.rule == "M13"
