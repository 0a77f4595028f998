"""Rules fidelity on the map (issue 20, items 1-4), named by rule ID; each expected outcome is worked out
by hand from the rules text in the test's docstring.

1. Every change of square goes through one door (resolver/enter.py): hazards (E1), pits (M5), walls
   (M1), occupied squares (M10) and levels (M12) for a walk, a charge, a jump, an escape and a throw.
2. Numbers derived from a rating read the rating as it stands, major-loss penalties included (L5).
3. A runner leaves the conflict at the end of the turn (C5): on a map, P3 and P4 still find it.
4. Stairs and slopes: a step up them at an angle is an ascent, ending the move (M4).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import ROOT, act, char, of, play_data

from battlemat.core import movement
from battlemat.core.board import ASCENDS, DIRECTION_STEPS, DIRECTIONS, Board
from battlemat.core.character import Character
from battlemat.core.encounter import Encounter
from battlemat.core.errors import IllegalIntent
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.memory import MatchMemory
from battlemat.core.movement import kernel
from battlemat.core.ranges import unpenalized
from battlemat.core.rating import standing
from battlemat.core.state import CharacterState, MatchState
from battlemat.io.cases import parse_case
from battlemat.io.rules_file import load_rules
from battlemat.io.tiled.terrain import PRESETS

RULES = load_rules()
TOUGH = {"Wrestle/Disarm": 8}  # a foe that no trap or blow here defeats (L3: Wrestle talent)


def play_rows(rows: list[str], chars: list[dict[str, Any]], turns: list[list[dict[str, Any]]],
              start: dict[str, Any] | None = None, legend: dict[str, Any] | None = None,
              rules: dict[str, Any] | None = None) -> tuple[Match, list[Any]]:
    """Play `turns` on a map written as text rows (the rule cases' legend: T a floor trap, O a pit,
    # a wall, ~ rubble, digits levels), from a start state written as a case writes it."""
    data: dict[str, Any] = {"case": {"about": "test"}, "map": {"rows": rows, "legend": legend or {}},
                            "character": chars, "turn": [{"intent": t} for t in turns]}
    if start:
        data["start"] = start
    if rules:
        data["rules"] = rules
    case = parse_case(data, "<test>", ROOT)
    m = Match(case.encounter)
    m.state = case.start
    events: list[Any] = []
    for turn in case.turns:
        events += m.play(turn.intents)
    return m, events


def losses_of(events: list[Any], who: str, hazard: bool = False) -> int:
    """The losses `who` suffered (`hazard`: those a hazard dealt, the losses with no source)."""
    return sum(e.data["n"] for e in of(events, "losses") if e.data["who"] == who and (not hazard or not e.data["by"]))


# -- 1. one door for every change of square -------------------------------------------------------------
WRESTLER = char("w", "x", skills={"Wrestle/Disarm": 3}, at=[1, 1])
HELD = {"f": {"held_by": "w", "hold": 3}}


def held_foe(**skills: int) -> dict[str, Any]:
    """The foe w holds, next to it: idle unless a test gives it a skill, and tough (L3)."""
    return char("f", "y", skills={**TOUGH, **skills}, talents=TOUGH, at=[2, 1])


def test_E1_M13_a_foe_thrown_onto_a_trap_takes_its_harm():
    """The issue's own case: w (Wrestle 3) throws the foe it holds onto the floor trap two squares away
    (M13: up to 3). The foe lands there as if it had walked in (E1): Block/Dodge 2 and a passive
    Perception 0 elude nothing, so the trap's harm 2 lands on it, after the 3 losses of the throw itself
    (Wrestle 3 against an idle foe, C2). (Before: it landed and took nothing from the trap.)"""
    m, events = play_rows(["......", "....T.", "......"], [WRESTLER, held_foe(**{"Block/Dodge": 2})],
                          [[act("w", "Wrestle", "f", throw=[4, 1])]], start=HELD)
    (thrown,) = of(events, "thrown")
    (hz,) = of(events, "hazard")
    assert events.index(thrown) < events.index(hz)  # it lands, then the trap strikes
    assert hz.data["who"] == "f" and hz.data["at"] == [4, 1] and hz.data["harm"] == 2 and "E1" in hz.rules
    assert m.state["f"].at == (4, 1) and m.state["f"].held_by is None
    assert losses_of(events, "f", hazard=True) == 2 and losses_of(events, "f") == 5 and m.state["f"].major == 3


def test_E1_M13_L5_a_thrown_foe_that_meets_the_requirement_is_not_harmed():
    """The throw's own 3 losses (Wrestle 3 against an idle foe) land first: the third is major, -1 to
    every skill (L5). Block/Dodge 5 - 1 = 4 still meets the trap's 'Block/Dodge 4' (E1): no harm; Block/
    Dodge 4 - 1 = 3 no longer does: 2 losses."""
    for dodge, harm in ((5, 0), (4, 2)):
        _, events = play_rows(["......", "....T.", "......"], [WRESTLER, held_foe(**{"Block/Dodge": dodge})],
                              [[act("w", "Wrestle", "f", throw=[4, 1])]], start=HELD)
        (hz,) = of(events, "hazard")
        assert hz.data["eluded"] == (harm == 0) and hz.data["harm"] == harm
        assert losses_of(events, "f", hazard=True) == harm


def test_M5_M13_no_throw_into_a_pit():
    """A pit is jumped, never stood in (M5): the throw into it is refused when declared, and says why."""
    with pytest.raises(IllegalIntent) as err:
        play_rows(["......", "...O..", "......"], [WRESTLER, held_foe()],
                  [[act("w", "Wrestle", "f", throw=[3, 1])]], start=HELD)
    assert err.value.rule == "M13" and "pit" in str(err.value) and "M5" in str(err.value)


def test_M1_M13_no_throw_onto_a_wall():
    with pytest.raises(IllegalIntent) as err:
        play_rows(["......", "...#..", "......"], [WRESTLER, held_foe()],
                  [[act("w", "Wrestle", "f", throw=[3, 1])]], start=HELD)
    assert err.value.rule == "M13" and "wall" in str(err.value)


def test_M12_M13_no_throw_up_onto_higher_ground_but_down_is_fine():
    """[house M13] A throw lifts nobody onto higher ground (M12: a level is climbed or taken by stairs);
    thrown down from a ledge, the foe lands below."""
    with pytest.raises(IllegalIntent) as err:
        play_rows(["......", "...1..", "......"], [WRESTLER, held_foe()],
                  [[act("w", "Wrestle", "f", throw=[3, 1])]], start=HELD)
    assert err.value.rule == "M13" and "higher ground" in str(err.value)
    ledge = [char("w", "x", skills={"Wrestle/Disarm": 3}, at=[1, 1]), char("f", "y", at=[2, 1])]
    m, events = play_rows(["......", ".11...", "......"], ledge, [[act("w", "Wrestle", "f", throw=[4, 1])]],
                          start=HELD)
    assert m.state["f"].at == (4, 1) and of(events, "thrown")


def test_M10_M13_a_throw_onto_a_square_taken_in_P2_lands_nowhere():
    """The square was free when the throw was declared; an ally of the foe steps onto it in P2. As the
    throw lands (P4) nobody may stand on someone (M10): it comes to nothing, the foe stays held where
    it was, and the log says why."""
    chars = [WRESTLER, held_foe(), char("a", "y", skills={"Exit/Escape": 2}, at=[4, 2])]
    m, events = play_rows(["......", "......", "......"], chars,
                          [[act("w", "Wrestle", "f", throw=[4, 1]), act("a", "Escape", to=[4, 1])]], start=HELD)
    (no,) = [e for e in of(events, "no_effect") if e.data["who"] == "w"]
    assert "M10" in no.rules and "M13" in no.rules and "occupied by a" in no.text
    assert m.state["f"].at == (2, 1) and m.state["f"].held_by == "w" and not of(events, "thrown")


def test_M13_L5_a_throw_reaches_as_far_as_the_wrestle_as_it_stands_when_thrown():
    """w declares a throw of 3 squares with Wrestle 3 (legal: 3 <= 3). In P3 an arrow gives it its first
    major loss (L1: its third loss), so as the throw comes in P4 its Wrestle is 3 - 1 = 2 (L5): the
    foe is not thrown 3 squares, and the log says why. (The arrow: Shoot 2 against half w's Wrestle,
    1, C5: one loss.)"""
    chars = [char("w", "x", skills={"Wrestle/Disarm": 3}, at=[1, 1]), held_foe(),
             char("a", "y", skills={"Shoot/Throw": 2}, at=[1, 3])]
    start = {**HELD, "w": {"minor": 2}}
    m, events = play_rows(["......", "......", "......", "......"], chars,
                          [[act("w", "Wrestle", "f", throw=[5, 1]), act("a", "Shoot", "w")]], start=start)
    assert m.state["w"].major == 1
    (no,) = [e for e in of(events, "no_effect") if e.data["who"] == "w"]
    assert "beyond Wrestle 2" in no.text and m.state["f"].at == (2, 1)


def test_E1_C8_an_escape_onto_a_hazard():
    """f breaks the grip (Escape 4 > grip 3, C8) and walks off onto the trap: an escape enters squares
    like any move, and Escape is no requirement of this trap: 2 losses (E1)."""
    m, events = play_rows(["......", "...T..", "......"], [WRESTLER, held_foe(**{"Exit/Escape": 4})],
                          [[act("f", "Escape", to=[3, 1])]], start=HELD)
    assert of(events, "escaped") and m.state["f"].at == (3, 1)
    (hz,) = of(events, "hazard")
    assert hz.data["who"] == "f" and hz.data["harm"] == 2 and losses_of(events, "f") == 2


def test_E1_M5_a_jump_lands_on_a_hazard_and_crosses_another_unharmed():
    """A standing jump (M5: Acrobatics 4 x 0.5 m = 2 m, one square) over rubble that hides a trap of its
    own lands on the floor trap: the landing square is entered (E1: Block/Dodge 0 and a passive
    Perception 0, 2 losses); the square it flies over is not (its harm 3 never comes)."""
    legend = {"R": {"class": "rubble", "hazard": "Block/Dodge 4", "harm": 3}}
    chars = [char("k", "x", skills={"Acrobatics/Climb": 4}, at=[0, 0])]
    m, events = play_rows([".RT..."], chars, [[act("k", "Acrobatics", path=[[2, 0]])]], legend=legend)
    (jump,) = of(events, "jumped")
    assert jump.data["over"] == [[1, 0]] and not jump.data["running"] and m.state["k"].at == (2, 0)
    (hz,) = of(events, "hazard")
    assert hz.data["at"] == [2, 0] and hz.data["harm"] == 2 and losses_of(events, "k") == 2


def test_E1_M7_a_charge_through_a_trap():
    """A Press charge runs straight at its target (M7) across the trap in its way: entered, it strikes."""
    chars = [char("p", "x", skills={"Melee/Press": 2}, at=[0, 1]), char("t", "y", at=[4, 1])]
    m, events = play_rows(["......", ".T....", "......"], chars, [[act("p", "Press", "t")]])
    (moved,) = of(events, "moved")
    assert [1, 1] in moved.data["route"]
    (hz,) = of(events, "hazard")
    assert hz.data["who"] == "p" and hz.data["harm"] == 2


def test_M10_a_mover_stopped_short_may_end_where_an_ally_moving_at_once_left():
    """Moves of one sub-phase are simultaneous. o and s (allies, a corridor) both head for (1, 2); s's
    higher Block takes it (M10 [house]) and o, passing through s's square, stops short there: s left
    it at the same time. The door takes the sub-phase's moves together, whatever their order."""
    chars = [char("o", "x", skills={"Block/Dodge": 1}, at=[1, 0]), char("s", "x", skills={"Block/Dodge": 3}, at=[1, 1])]
    m, events = play_rows(["#.#", "#.#", "#.#", "#.#"], chars,
                          [[act("o", "Block", to=[1, 2]), act("s", "Block", to=[1, 2])]])
    assert m.state["s"].at == (1, 2) and m.state["o"].at == (1, 1)
    assert [e.data["who"] for e in of(events, "collided")] == ["o"]


def test_M10_every_change_of_square_goes_through_the_door():
    """The class, not the case: in the rules core only resolver/enter.py sets a character's square (a
    state's `at`), so any new way to move a character meets hazards, pits, walls and occupants."""
    core = ROOT / "battlemat" / "core"
    writes = re.compile(r"with_\([^)]*\bat=")
    found = [str(p.relative_to(core)) for p in core.rglob("*.py") if writes.search(p.read_text(encoding="utf-8"))]
    assert found == [str(Path("resolver") / "enter.py")]


# -- 2. numbers derived from a rating read it as it stands (L5) ----------------------------------------
def test_R1_L5_range_band_shrinks_with_a_major_loss():
    """Shoot 2: unpenalized to 10 squares (R1). With one major loss its Shoot is 1 (L5): 5 squares, so a
    target 7 squares away costs -1 (R1). With the `major_loss_penalty` switch on movement, the skills keep
    their rating and the band its 10 squares."""
    archer = Character("a", "A", "x", skills={"Shoot/Throw": 2}, at=(0, 1))
    orc = Character("o", "O", "y", at=(7, 1))
    assert unpenalized(RULES, archer, "Shoot", 0) == 10 and unpenalized(RULES, archer, "Shoot", 1) == 5
    for switch, penalized in (("skills", True), ("movement", False)):
        rules = RULES.with_overrides({"major_loss_penalty": switch})
        m = Match(Encounter("t", rules, (archer, orc), board=Board(12, 3)))
        m.state = MatchState(1, {"a": CharacterState(minor=2, major=1, at=(0, 1)), "o": CharacterState(at=(7, 1))})
        (c,) = of(list(m.play([Intent("a", "Shoot", "o")])), "contest")
        assert any(mod["rule"] == "R1" for mod in c.data["attack"]["situational"]) == penalized


def test_M5_L5_a_major_loss_shortens_the_jump():
    """Acrobatics 4: a standing jump of 4 x 0.5 m = 2 m clears one square of rubble (2 m, M5). With one
    major loss it is 3 (L5): 1.5 m, short of the 2 m, so the jump needs a running start."""
    board = Board(5, 1, difficult=np.array([[False, True, False, False, False]]))
    k = Character("k", "K", "x", skills={"Acrobatics/Climb": 4}, at=(0, 0))
    enc = Encounter("t", RULES, (k,), board=board)
    for major, lands in ((0, True), (1, False)):
        mover = movement.mover_for(MatchMemory(enc), {"k": CharacterState(major=major, at=(0, 0))}, "k", "Acrobatics")
        assert mover.jump_rating == 4 - major
        route = movement.follow(board, RULES, mover, movement.Context(), [(2, 0)])
        assert (route.end == (2, 0)) == lands
        assert lands or (route.stopped is not None and "running start" in route.stopped.why)


def test_S2_L5_the_AI_counts_on_the_rating_as_it_stands():
    """The AI's figure of a rating is `rating.standing` (the one function): base + equipment + talent bonus,
    less major losses when they cost skills (L5)."""
    c = Character("c", "C", "x", skills={"Melee/Press": 3, "Exit/Escape": 2}, talents={"Acrobatics/Climb": 1})
    enc = Encounter("t", RULES, (c,))
    mem = MatchMemory(enc)
    for half in ("Melee", "Exit", "Dodge"):
        for major in (0, 1, 3):
            assert mem.figure("c", half, major) == standing(RULES, c, half, major)
    assert mem.figure("c", "Exit", 1) == 2  # 2 + 1 talent bonus (S3: Acrobatics helps flee) - 1


def test_C7_L5_secondary_targets_count_the_talent_which_no_loss_lowers():
    """C7: a Melee talent of 1 strikes one extra adjacent foe. A major loss takes -1 from skills (L5),
    not from talents: with one major loss the sweeper still strikes both foes, its Melee 4 - 1 = 3 on
    the first and 3 - 1 = 2 on the second (C7)."""
    chars = [char("s", "x", skills={"Melee/Press": 4}, talents={"Melee/Press": 1}, at=[1, 1]),
             char("p", "y", at=[2, 1]), char("q", "y", at=[1, 2])]
    _, events = play_rows(["...."] * 3, chars, [[act("s", "Melee", "p", also=["q"])]],
                          start={"s": {"minor": 2, "major": 1}})
    got = [(c.data["kind"], c.data["attack"]["value"]) for c in of(events, "contest")]
    assert got == [("attack", 3), ("secondary", 2)]


# -- 3. a runner leaves at the end of the turn (C5) -------------------------------------------------------
ARCHERS = [char(f"k{i}", "kobalts", skills={"Shoot/Throw": 2}, at=[5, i]) for i in range(4)]
SILMYN = char("s", "elves", skills={"Exit/Escape": 3}, at=[2, 1])


def test_C5_S7_fleeing_many_archers_on_a_map_as_in_the_text():
    """The text's Silmyn: four kobalts with Shoot 2 (group of four: 2 + 2 = 4, S7) against Exit 3 at full
    while fleeing (C5): one loss, 'hit, but does escape'. On a map she reaches the edge in P2; the P3
    arrows still find her there, and she leaves at the end of the turn. (Before: she was gone in P2 and
    every arrow found nobody.)"""
    turn = [act("s", "Exit", to=[0, 1])] + [act(f"k{i}", "Shoot", "s") for i in range(4)]
    m, events = play_rows(["......"] * 4, [SILMYN, *ARCHERS], [turn])
    (leaving,) = of(events, "leaving")
    assert leaving.phase == "P2" and "end of the turn" in leaving.text and "C5" in leaving.rules
    (c,) = of(events, "contest")
    assert c.phase == "P3" and c.data["attack"]["value"] == 4 and c.data["defense"]["value"] == 3
    assert losses_of(events, "s") == 1 and not of(events, "no_effect")
    (fled,) = of(events, "fled")
    assert fled.phase == "end" and "C5" in fled.rules and "end of the turn" in fled.text
    assert events.index(c) < events.index(fled)
    assert m.state["s"].fled and m.state["s"].minor == 0  # L2: leaving heals her minor losses


def test_C5_S7_fleeing_many_archers_without_a_map_takes_the_same_loss():
    """The same flight without a map: the same contest, the same one loss, gone at the end of the turn."""
    turn = [act("s", "Exit")] + [act(f"k{i}", "Shoot", "s") for i in range(4)]
    chars = [{k: v for k, v in c.items() if k != "at"} for c in (SILMYN, *ARCHERS)]
    m, events = play_data(chars, [turn])
    assert losses_of(events, "s") == 1 and m.state["s"].fled
    (fled,) = of(events, "fled")
    assert fled.phase == "end" and "end of the turn" in fled.text


def test_C5_P4_a_blow_that_reaches_the_runner_on_the_edge_lands():
    """The runner stops on the edge next to a foe who strikes it in P4 (Disarm 4 against Exit 3 at full:
    1 loss). It is still there to be struck, and leaves at the end of the turn. (Disarm is not sticky:
    a Melee user there would hold it on the edge, M6, test_M6_C5_every_way_off_the_map_meets_sticky_zones.)"""
    chars = [char("r", "a", skills={"Exit/Escape": 3}, at=[2, 1]), char("g", "b", skills={"Wrestle/Disarm": 4},
                                                                         at=[1, 2])]
    m, events = play_rows(["....", "....", "...."], chars, [[act("r", "Exit", to=[0, 1]), act("g", "Disarm", "r")]])
    (c,) = of(events, "contest")
    assert c.phase == "P4" and losses_of(events, "r") == 1 and m.state["r"].fled


def test_C5_P4_a_blow_that_cannot_reach_the_runner_says_so():
    """Out of reach after movement (P4): the blow fails and says why; the runner leaves at the end."""
    chars = [char("r", "a", skills={"Exit/Escape": 3}, at=[2, 1]), char("g", "b", skills={"Melee/Press": 4},
                                                                         at=[4, 1])]
    m, events = play_rows(["......"] * 3, chars, [[act("r", "Exit", to=[0, 1]), act("g", "Melee", "r")]])
    (no,) = of(events, "no_effect")
    assert no.data["rule"] == "P4" and m.state["r"].fled


def test_C5_C8_a_runner_grabbed_on_the_edge_does_not_leave():
    """Wrestle 5 steps next to the runner after it reached the edge (P2: the wrestler moves last and was
    not next to it, M6) and grabs it in P4 (5 against Exit 3 at full: 2 losses, and a grip). Only
    Escape breaks a hold (C8): at the end of the turn it cannot leave, and the log says why."""
    chars = [char("r", "a", skills={"Exit/Escape": 3}, at=[2, 1]), char("w", "b", skills={"Wrestle/Disarm": 5},
                                                                         at=[2, 3])]
    m, events = play_rows(["....", "....", "....", "...."], chars,
                          [[act("r", "Exit", to=[0, 1]), act("w", "Wrestle", "r", to=[1, 2])]])
    assert of(events, "grabbed") and not of(events, "fled")
    (stop,) = [e for e in of(events, "stopped") if e.phase == "end"]
    assert "C8" in stop.rules and "only Escape" in stop.text
    assert m.state["r"].active and m.state["r"].held_by == "w"


def test_C5_a_runner_that_does_not_reach_the_edge_stays():
    m, events = play_rows(["........"] * 3, [char("r", "a", skills={"Exit/Escape": 3}, at=[6, 1])],
                          [[act("r", "Exit", to=[3, 1])]])
    assert not of(events, "leaving") and not of(events, "fled") and m.state["r"].active


def test_C5_a_runner_already_on_the_edge_steps_off_without_a_move():
    """Exit on an edge square with nowhere to plan a move: the map ends there, so it is on its way out
    all the same (leaving in P2), still a target until the turn ends, then gone; one standing inside
    the board with no move stays."""
    chars = [char("r", "a", skills={"Exit/Escape": 3}, at=[0, 1]), char("k", "b", skills={"Shoot/Throw": 4},
                                                                         at=[5, 1])]
    m, events = play_rows(["......"] * 3, chars, [[act("r", "Exit"), act("k", "Shoot", "r")]])
    (leaving,) = of(events, "leaving")
    assert leaving.phase == "P2" and "stands on the edge" in leaving.text
    assert losses_of(events, "r") == 1 and m.state["r"].fled
    inside = [char("r", "a", skills={"Exit/Escape": 3}, at=[2, 1])]
    m, events = play_rows(["......"] * 3, inside, [[act("r", "Exit")]])
    assert not of(events, "leaving") and m.state["r"].active


# -- 4. stairs and slopes: a step up them at an angle is an ascent (M4) -------------------------------------
STEP_NAMES = {v: k for k, v in DIRECTION_STEPS.items()}


@pytest.mark.parametrize("preset", ["stairs", "slope"])
@pytest.mark.parametrize("compiled", [True, False])
def test_M4_a_diagonal_step_up_the_stairs_ends_the_move(preset: str, compiled: bool) -> None:
    """The bundled `stairs` and `slope` rise toward N. Stepping onto them N, NE or NW goes up, which is
    slow (M4: the move ends there); E or W goes along them and S, SE or SW down: the move goes on.
    Walled in so that the only way to the square beyond is over the stairs, the compiled search and
    the Python one agree on whether it can be reached. (Before: NE and NW went on.)"""
    for (dx, dy), name in STEP_NAMES.items():
        start, beyond = (1 - dx, 1 - dy), (1 + dx, 1 + dy)
        dirs = np.zeros((3, 3), np.uint8)
        dirs[1, 1] = DIRECTIONS[PRESETS[preset]["difficult_dirs"]]
        walls = np.ones((3, 3), bool)
        for x, y in (start, (1, 1), beyond):
            walls[y, x] = False
        board = Board(3, 3, difficult_dirs=dirs, blocked=walls)
        mover = movement.Mover("a", "Ada", "Exit", start, 4)
        with pytest.MonkeyPatch.context() as m:
            if not compiled:
                m.setattr(kernel, "AVAILABLE", False)
            rc = movement.reach(board, RULES, mover)
        route = movement.follow(board, RULES, mover, movement.Context(), [(1, 1), beyond])
        up = name in ("N", "NE", "NW")
        assert (route.end == (1, 1) and route.stopped is not None and route.stopped.rule == "M4") == up, name
        assert board.difficult_entering(start, (1, 1)) == up, name
        assert rc.can_end((1, 1)) and rc.can_end(beyond) == (not up), name


def test_M4_ascends_is_every_direction_with_a_part_along_the_rise():
    """For each step direction, the rises it climbs are those whose direction makes less than a right
    angle with it: three of the eight, its own and its two neighbours."""
    for step, bits in ASCENDS.items():
        sx, sy = DIRECTION_STEPS[step]
        want = {d for d, (x, y) in DIRECTION_STEPS.items() if sx * x + sy * y > 0}
        assert {d for d, b in DIRECTIONS.items() if bits & b} == want and len(want) == 3


def test_M4_a_path_diagonally_up_the_stairs_stops_on_them():
    """Through the one door of intents: a path that goes NE onto a stair tile rising N and on beyond it
    is refused as declared, because the step onto the stairs ends the move there (M4)."""
    legend = {"S": {"class": "stairs"}}
    with pytest.raises(IllegalIntent) as err:
        play_rows(["....", "..S.", ".S..", "...."], [char("a", "x", skills={"Exit/Escape": 2}, at=[0, 3])],
                  [[act("a", "Exit", path=[[1, 2], [2, 1]])]], legend=legend)
    assert err.value.rule == "M4" and "(1, 2)" in str(err.value)
