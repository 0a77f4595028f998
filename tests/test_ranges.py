"""Ranges, sight and position on tiny boards (RULES.md R1-R6, P4 adjacency): one table per rule ID."""

from __future__ import annotations

import numpy as np
import pytest

from battlemat.core import geometry
from battlemat.core.board import Board
from battlemat.core.character import Character
from battlemat.core.encounter import Encounter
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.io.rules_file import load_rules

RULES = load_rules()


def C(cid: str, side: str, at, skills=None, talents=None) -> Character:
    return Character(cid, cid.title(), side, skills=skills or {}, talents=talents or {}, at=at)


def play(board: Board, chars: list[Character], intents: list[Intent]):
    m = Match(Encounter("t", RULES, tuple(chars), board=board))
    return m, list(m.play(intents))


def attack_of(evs, who: str) -> dict:
    (c,) = [e for e in evs if e.type == "contest" and who in e.data["attackers"]]
    return c.data["attack"]


def reasons(rating: dict) -> dict[str, int]:
    return {m["rule"]: m["value"] for m in rating["situational"] + rating["adjustments"]}


ARCHER = {"Shoot/Throw": 1}


# -- R1 range bands ---------------------------------------------------------------------------------
@pytest.mark.parametrize("use, rating, dist, penalty", [
    ("Shoot", 1, 5, False), ("Shoot", 1, 6, True), ("Throw", 2, 4, False), ("Throw", 2, 5, True),
])
def test_R1_beyond_range_is_minus_one(use, rating, dist, penalty):
    b = Board.empty(12, 3)
    _, evs = play(b, [C("arc", "h", (0, 1), {"Shoot/Throw": rating}), C("orc", "m", (dist, 1), {"Melee/Press": 1})],
                  [Intent("arc", use, "orc")])
    assert ("R1" in reasons(attack_of(evs, "arc"))) == penalty


# -- R2 no Shoot next to an aggressive opponent ---------------------------------------------------------
@pytest.mark.parametrize("use, foe_use, blocked", [
    ("Shoot", "Melee", True), ("Shoot", "Dodge", False), ("Throw", "Melee", False), ("Shoot", "Press", True),
])
def test_R2_no_shoot_next_to_aggressive_foe(use, foe_use, blocked):
    b = Board.empty(6, 3)
    chars = [C("arc", "h", (1, 1), ARCHER), C("orc", "m", (2, 1), {"Melee/Press": 2, "Block/Dodge": 2})]
    _, evs = play(b, chars, [Intent("arc", use, "orc"), Intent("orc", foe_use, "arc")])
    fails = [e for e in evs if e.type == "no_effect" and e.rules == ("R2",)]
    assert bool(fails) == blocked


# -- R3 point blank, R6 dodging arrows -------------------------------------------------------------------
@pytest.mark.parametrize("talent, dist, penalised", [(0, 2, True), (1, 3, False), (1, 4, True)])
def test_R3_point_blank_drops_penalties_and_R6(talent, dist, penalised):
    cover = np.zeros((3, 8), np.uint8)
    cover[1, 1] = 1
    b = Board(8, 3, cover=cover)
    chars = [
        C("arc", "h", (0, 1), {"Shoot/Throw": 1}, {"Shoot/Throw": talent}),
        C("orc", "m", (dist, 1), {"Block/Dodge": 1}, {"Block/Dodge": 1}),
    ]
    _, evs = play(b, chars, [Intent("arc", "Throw", "orc")])
    rs = reasons(attack_of(evs, "arc"))
    assert ("R4" in rs) == penalised and ("R6" in rs) == penalised


# -- R4 sight and cover --------------------------------------------------------------------------------
def test_R4_opaque_square_blocks_the_shot():
    op = np.zeros((3, 7), bool)
    op[1, 3] = True
    b = Board(7, 3, opaque=op)
    _, evs = play(b, [C("arc", "h", (0, 1), ARCHER), C("orc", "m", (6, 1))], [Intent("arc", "Shoot", "orc")])
    (ne,) = [e for e in evs if e.type == "no_effect"]
    assert ne.rules == ("R4",) and "opaque" in ne.text
    assert not [e for e in evs if e.type == "contest"]


@pytest.mark.parametrize("grid", ["square", "hex"])
def test_R4_sight_is_symmetric_and_ends_do_not_block(grid):
    rng = np.random.default_rng(3)
    op = rng.random((9, 9)) < 0.2
    kw = {"stagger_axis": "y", "stagger_index": "odd"} if grid == "hex" else {}
    b = Board(9, 9, grid, opaque=op, **kw)  # type: ignore[arg-type]
    for a in [(0, 0), (4, 4), (2, 7)]:
        for t in [(8, 8), (1, 5), (6, 2)]:
            assert geometry.sight(b, a, t)[0] == geometry.sight(b, t, a)[0]
    clear = Board(9, 9, grid, **kw)  # type: ignore[arg-type]
    assert geometry.sight(clear, (0, 0), (8, 5))[0]


def test_R4_cover_squares_give_minus_one_each():
    cover = np.zeros((3, 9), np.uint8)
    cover[1, 2] = cover[1, 4] = 1
    b = Board(9, 3, cover=cover)
    chars = [C("arc", "h", (0, 1), {"Shoot/Throw": 2}), C("orc", "m", (7, 1))]
    _, evs = play(b, chars, [Intent("arc", "Shoot", "orc")])
    assert reasons(attack_of(evs, "arc"))["R4"] == -2


# -- R5 higher ground and flanking ------------------------------------------------------------------------
def test_R5_higher_ground():
    lv = np.zeros((3, 4), np.int16)
    lv[1, 1] = 1
    b = Board(4, 3, level=lv)
    _, evs = play(b, [C("kw", "h", (1, 1), {"Melee/Press": 2}), C("liz", "m", (2, 1), {"Melee/Press": 4})],
                  [Intent("kw", "Press", "liz")])
    assert reasons(attack_of(evs, "kw"))["R5"] == 1


@pytest.mark.parametrize("ally_at, flanked", [((3, 2), True), ((2, 3), False)])
def test_R5_flanking_on_opposite_sides(ally_at, flanked):
    b = Board.empty(5, 5)
    chars = [C("a", "h", (1, 2), {"Melee/Press": 2}), C("b", "h", ally_at, {"Melee/Press": 2}),
             C("o", "m", (2, 2), {"Melee/Press": 1})]
    _, evs = play(b, chars, [Intent("a", "Melee", "o"), Intent("b", "Melee", "o")])
    assert ("R5" in reasons(attack_of(evs, "a"))) == flanked


# -- P4 reach attacks need adjacency after movement ----------------------------------------------------
@pytest.mark.parametrize("to, hits", [((3, 2), True), ((2, 2), False)])
def test_P4_reach_attack_needs_adjacency_after_movement(to, hits):
    b = Board.empty(6, 5)
    chars = [C("a", "h", (1, 2), {"Melee/Press": 3}), C("o", "m", (4, 2))]
    _, evs = play(b, chars, [Intent("a", "Melee", "o", to=to)])
    assert bool([e for e in evs if e.type == "contest"]) == hits
    assert bool([e for e in evs if e.type == "no_effect" and e.rules == ("P4",)]) != hits


def test_M7_press_charge_then_strikes():
    b = Board.empty(8, 3)
    chars = [C("g", "h", (0, 1), {"Melee/Press": 3}), C("ogre", "m", (4, 1), {"Melee/Press": 2})]
    m, evs = play(b, chars, [Intent("g", "Press", "ogre")])
    assert m.state["g"].at == (3, 1)
    assert [e for e in evs if e.type == "contest"]
