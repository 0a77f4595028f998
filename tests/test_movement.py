"""Movement rules on tiny boards built directly (RULES.md M1-M12, E1, P2): one table per rule ID."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from battlemat.core import geometry, movement
from battlemat.core.board import DIRECTIONS, Board, Hazard
from battlemat.core.character import Character
from battlemat.core.encounter import Encounter
from battlemat.core.errors import IllegalIntent
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.movement import Context, Mover, Occupant, StickyFoe, reach
from battlemat.core.types import XY
from battlemat.io.rules_file import load_rules

RULES = load_rules()


def rules(**over: object):
    return RULES.with_overrides(over) if over else RULES


def arr(rows: list[str], ch: str) -> np.ndarray:
    return np.array([[c == ch for c in row] for row in rows], bool)


def board_from(rows: list[str], **kw: object) -> Board:
    """'#' blocked, '~' difficult, 'O' pit, '^' stairs rising north (difficult going N), '2' level 1."""
    h, w = len(rows), len(rows[0])
    dirs = np.where(arr(rows, "^"), DIRECTIONS["N"], 0).astype(np.uint8)
    level = np.where(arr(rows, "2"), 1, 0).astype(np.int16)
    return Board(w, h, blocked=arr(rows, "#"), difficult=arr(rows, "~"), pit=arr(rows, "O"),
                 difficult_dirs=dirs, level=level, **kw)  # type: ignore[arg-type]


def mover(use: str = "Melee", at=(3, 3), allow: int = 2, **kw: object) -> Mover:
    return Mover("a", "Ada", use, at, allow, **kw)  # type: ignore[arg-type]


OPEN = ["......."] * 7


# -- M1, M2, M3: allowance ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "use, talent, major, penalty, expected",
    [
        ("Melee", 0, 0, "skills", 2),
        ("Exit", 0, 0, "skills", 4),
        ("Shoot", 0, 0, "skills", 0),
        ("Press", 3, 0, "skills", 5),  # M2: +ceil(3/2)
        ("Shoot", 3, 0, "skills", 0),  # M2 only above 0
        ("Melee", 1, 1, "movement", 2),  # M3: -1 per major loss
        ("Wrestle", 0, 2, "movement", 0),
        ("Melee", 0, 1, "skills", 2),
    ],
)
def test_M1_M2_M3_allowance(use, talent, major, penalty, expected):
    char = Character("a", "Ada", "h", talents={"Acrobatics/Climb": talent})
    assert movement.allowance(rules(major_loss_penalty=penalty), char, use, major) == expected


def test_M1_shoot_may_move_one_square():
    char = Character("a", "Ada", "h")
    assert movement.allowance(RULES, char, "Shoot", moving_shot=True) == 1


# -- M11: distances and steps ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "diagonals, sq, cost",
    [
        ("alternating", (4, 2), 1), ("alternating", (5, 1), 3), ("alternating", (5, 2), 2),
        ("chebyshev", (5, 1), 2), ("chebyshev", (4, 2), 1),
        ("manhattan", (4, 2), 2), ("manhattan", (5, 3), 2),
    ],
)
def test_M11_step_costs_by_diagonal_setting(diagonals, sq, cost):
    rc = reach(board_from(OPEN), rules(diagonals=diagonals), mover(allow=3))
    assert rc.costs[sq] == cost
    assert geometry.distance(board_from(OPEN), (3, 3), sq, diagonals) == cost


def test_M11_manhattan_never_steps_diagonally():
    rc = reach(board_from(OPEN), rules(diagonals="manhattan"), mover(allow=2))
    assert all(not s.diagonal for r in rc.routes.values() for s in r)
    assert (5, 5) not in rc.costs and rc.refused[(5, 5)].rule == "M1"


@pytest.mark.parametrize("axis", ["x", "y"])
@pytest.mark.parametrize("index", ["odd", "even"])
def test_M11_hex_neighbours_and_reach(axis, index):
    b = Board(9, 9, "hex", stagger_axis=axis, stagger_index=index)
    for sq in [(4, 4), (3, 3), (4, 3), (3, 4)]:
        ns = geometry.steps(b, sq)
        assert len(ns) == 6
        assert all(geometry.hex_distance(b, sq, n) == 1 for n, _, _ in ns)
        assert all(sq in [m for m, _, _ in geometry.steps(b, n)] for n, _, _ in ns)
    rc = reach(b, RULES, mover(at=(4, 4), allow=2))
    assert len(rc.costs) == 19  # 1 + 6 + 12 hexes
    assert all(geometry.hex_distance(b, (4, 4), sq) == c for sq, c in rc.costs.items())


# -- M4: difficult terrain --------------------------------------------------------------------------
def test_M4_entering_difficult_ends_the_move():
    b = board_from(["......."] * 3 + ["....~.."] + ["......."] * 3)
    rc = reach(b, RULES, mover(allow=3))
    assert rc.costs[(4, 3)] == 1
    assert rc.routes[(5, 3)][0].to != (4, 3)  # not through the difficult square
    rc = reach(b, RULES, mover(at=(3, 3), allow=2, use="Melee"))
    walled = board_from(["...#..."] * 3 + ["...#~.."] + ["...#..."] * 3)
    rc = reach(walled, RULES, mover(at=(4, 1), allow=2))
    assert rc.refused[(4, 4)] == movement.Refusal("M4", "difficult terrain ends the move (M4)")


@pytest.mark.parametrize("start, ends", [((3, 4), True), ((3, 2), False)])
def test_M4_one_way_difficult_stairs(start, ends):
    """A '^' square is difficult only when entered travelling north (stairs going up)."""
    b = board_from(["......."] * 3 + ["...^..."] + ["......."] * 3)
    route = movement.follow(b, RULES, mover(at=start, allow=3), Context(), [(3, 3), (3, 2 if ends else 4)])
    assert (route.stopped is not None and route.stopped.rule == "M4") == ends
    assert route.squares[0] == (3, 3)


# -- M5: jumps and pits -----------------------------------------------------------------------------
PIT1 = ["........"] * 3 + ["...O...."] + ["........"] * 3
PIT2 = ["...OO..."] * 7


def test_M5_pit_is_not_entered_without_acrobatics():
    rc = reach(board_from(PIT1), RULES, mover(at=(2, 3), allow=3))
    assert rc.refused[(3, 3)] == movement.Refusal("M5", "pit: jump it with Acrobatics (M5)")


def test_M5_standing_jump_over_one_square():
    rc = reach(board_from(PIT1), RULES, mover("Acrobatics", at=(2, 3), allow=3, jump_rating=4))
    (step,) = [s for s in rc.routes[(4, 3)] if s.over]
    assert step.over == ((3, 3),) and rc.costs[(4, 3)] == 2


def test_M5_two_squares_need_a_running_start():
    b = board_from(PIT2)
    standing = reach(b, RULES, mover("Acrobatics", at=(2, 3), allow=4, jump_rating=4))
    assert standing.refused[(5, 3)] == movement.Refusal("M5", "needs a running start to jump 2 squares (M5)")
    running = reach(b, RULES, mover("Acrobatics", at=(1, 3), allow=4, jump_rating=4))
    assert running.costs[(5, 3)] == 4
    assert [s.to for s in running.routes[(5, 3)]] == [(2, 3), (5, 3)]


def test_M5_jump_over_difficult_square_does_not_stop():
    b = board_from(["......."] * 3 + ["...~..."] + ["......."] * 3)
    rc = reach(b, RULES, mover("Acrobatics", at=(2, 3), allow=3, jump_rating=4))
    route = rc.routes[(5, 3)]
    assert any(s.over == ((3, 3),) for s in route)


# -- M6: sticky ------------------------------------------------------------------------------------
ORC = Context({(4, 3): Occupant("Orc", False)}, (StickyFoe((4, 3), "Orc", "Melee"),))


@pytest.mark.parametrize("use, leaves", [("Melee", False), ("Press", False), ("Dodge", True), ("Escape", True)])
def test_M6_cannot_leave_a_sticky_enemy(use, leaves):
    rc = reach(board_from(OPEN), RULES, mover(use, allow=2), ORC)
    assert ((1, 3) in rc.costs) == leaves
    assert (3, 2) in rc.costs  # moving around it, staying next to it, is allowed
    if not leaves:
        assert rc.refused[(2, 3)] == movement.Refusal("M6", "Orc uses Melee: sticky (M6)")


def test_M6_block_and_dodge_share_one_answer_and_each_keeps_its_mover():
    """Block and Dodge move alike (allowance, and sticky zones never hold them, M6): the remembered
    answer serves both, sticky foes or not, but each Reach names the mover that asked."""
    board = board_from(OPEN)
    block = reach(board, RULES, mover("Block", allow=2), ORC)
    dodge = reach(board, RULES, Mover("b", "Bo", "Dodge", (3, 3), 2), Context(ORC.occupants))
    assert dodge.costs is block.costs and (1, 3) in dodge.costs  # one search, and it leaves the Orc
    assert (block.mover.use, block.mover.who, dodge.mover.use, dodge.mover.who) == ("Block", "a", "Dodge", "b")
    melee = reach(board, RULES, mover("Melee", allow=2), ORC)
    assert (1, 3) not in melee.costs  # a sticky-bound mover is never given the free answer


def test_remembered_answers_asked_for_again_outlive_older_ones(monkeypatch):
    """A full memo drops its oldest answer, unless that answer was asked for again since: then it
    gets a second turn at the back, and the next oldest goes (memo.ReachMemo). Answers are
    values, so this changes what is searched again, never what reach returns."""
    board = board_from(OPEN)
    searched: list[XY] = []
    search = movement.answer

    def counting(gr, rules, m, *rest):  # type: ignore[no-untyped-def]
        searched.append(m.at)
        return search(gr, rules, m, *rest)

    monkeypatch.setattr(movement, "answer", counting)
    movement.grid(board).memo = movement.ReachMemo(3)
    ask = [mover("Exit", at=(x, 3)) for x in range(5)]
    first = [reach(board, RULES, m) for m in ask[:3]]  # the memo is full: (0, 3), (1, 3), (2, 3)
    assert reach(board, RULES, ask[0]) is first[0]  # asked for again
    reach(board, RULES, ask[3])  # makes room: (0, 3) was asked for again, so (1, 3) goes
    assert searched == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert reach(board, RULES, ask[0]) is first[0] and reach(board, RULES, ask[2]) is first[2]
    reach(board, RULES, ask[1])
    assert searched[-1] == (1, 3) and len(searched) == 5  # (1, 3) had gone; (0, 3) and (2, 3) had not
    movement.forget(board)


def test_M6_becoming_adjacent_during_the_move_holds_the_mover():
    rc = reach(board_from(OPEN), RULES, mover("Melee", at=(1, 3), allow=6), ORC)
    assert (3, 3) in rc.costs
    assert (6, 3) not in rc.costs  # the short way passes next to the orc and would leave it
    free = reach(board_from(OPEN), RULES, mover("Melee", at=(1, 3), allow=6), Context(ORC.occupants))
    assert free.costs[(6, 3)] == 6


# -- M7, M8 ----------------------------------------------------------------------------------------
def test_M7_press_charges_straight_at_its_target():
    occ = Context({(6, 3): Occupant("Ogre", False)})
    press = mover("Press", at=(1, 3), allow=4, target=(6, 3), target_name="Ogre")
    rc = reach(board_from(["........"] * 7), RULES, press, occ)
    assert list(rc.costs) == [(5, 3)]
    assert [s.to for s in rc.routes[(5, 3)]] == [(2, 3), (3, 3), (4, 3), (5, 3)]
    assert rc.refused[(4, 2)] == movement.Refusal("M7", "Press charges Ogre: straight line only (M7)")


def test_M8_provoke_never_steps_closer():
    rc = reach(board_from(OPEN), RULES, mover("Provoke", at=(3, 3), allow=2, target=(6, 3), target_name="Ogre"))
    assert (4, 3) not in rc.costs and rc.refused[(4, 3)].rule == "M8"
    assert (1, 3) in rc.costs and (3, 1) in rc.costs


# -- M10: occupied squares ------------------------------------------------------------------------
def test_M10_never_end_on_occupied_allies_pass_enemies_do_not():
    b = board_from(["#.#", "#.#", "#.#", "#.#"])
    friend = Context({(1, 1): Occupant("Billin", True)})
    rc = reach(b, RULES, mover(at=(1, 0), allow=2), friend)
    assert (1, 2) in rc.costs and (1, 1) not in rc.costs
    assert rc.refused[(1, 1)] == movement.Refusal("M10", "occupied by Billin (M10)")
    foe = Context({(1, 1): Occupant("Orc", False)})
    rc = reach(b, RULES, mover(at=(1, 0), allow=2), foe)
    assert (1, 2) not in rc.costs


# -- M12: levels -----------------------------------------------------------------------------------
@pytest.mark.parametrize("use, ok, ends", [("Melee", False, False), ("Climb", True, True)])
def test_M12_level_change_needs_stairs_or_climb(use, ok, ends):
    b = board_from(["...2...", "...2...", "...2..."])
    rc = reach(b, RULES, mover(use, at=(2, 1), allow=3))
    assert ((3, 1) in rc.costs) == ok
    if ok:
        assert (4, 1) not in rc.costs or rc.routes[(4, 1)][0].to != (3, 1)
    else:
        assert rc.refused[(3, 1)].rule == "M12"


def test_M12_stairs_change_level():
    b = board_from(["...2...", "...^...", "......."])
    route = movement.follow(b, RULES, mover(at=(3, 2), allow=3), Context(), [(3, 1), (3, 0)])
    assert route.squares == ((3, 1),) and route.stopped.rule == "M4"  # type: ignore[union-attr]


# -- the resolver: P2, M9, M6, M10, E1 -------------------------------------------------------------
def enc_with(board: Board, chars: list[Character], **over: object) -> Encounter:
    return Encounter("t", rules(**over), tuple(chars), board=board)


def C(cid: str, side: str, at, **skills: int) -> Character:
    sk = {RULES.pair_of(k.replace("_", " ")): v for k, v in skills.items()}
    return Character(cid, cid.title(), side, skills=sk, at=at)


def test_P2_moves_by_route_and_validate_refuses_unreachable_to():
    b = board_from(OPEN)
    enc = enc_with(b, [C("ada", "h", (1, 1), Melee=3), C("orc", "m", (6, 6), Melee=2)])
    m = Match(enc)
    evs = m.play([Intent("ada", "Melee", "orc", to=(3, 2))])
    moved = [e for e in evs if e.type == "moved"]
    assert moved and moved[0].data["route"][-1] == [3, 2] and m.state["ada"].at == (3, 2)
    assert any(e.type == "no_effect" and "P4" in e.rules for e in evs)  # not adjacent after moving
    with pytest.raises(IllegalIntent) as err:
        m.play([Intent("ada", "Melee", "orc", to=(6, 2))])
    assert err.value.rule == "M1"


def test_P2_no_board_behaviour_unchanged():
    enc = Encounter("t", RULES, (C("ada", "h", (1, 1), Melee=3), C("orc", "m", (2, 2), Melee=2)))
    evs = Match(enc).play([Intent("ada", "Melee", "orc", to=(40, 40))])
    assert [e.data["to"] for e in evs if e.type == "moved"] == [[40, 40]]


def test_M6_resolver_cuts_the_plan_and_says_why():
    b = board_from(OPEN)
    enc = enc_with(b, [C("ada", "h", (3, 3), Melee=3), C("orc", "m", (4, 3), Melee=2)])
    m = Match(enc)
    evs = m.play([Intent("ada", "Melee", "orc", to=(1, 3)), Intent("orc", "Melee", "ada")])
    stopped = [e for e in evs if e.type == "stopped"]
    assert stopped and stopped[0].rules == ("M6",) and "Orc uses Melee: sticky (M6)" in stopped[0].text
    assert m.state["ada"].at == (3, 3)


def test_M9_exit_moves_in_the_first_sub_phase():
    b = board_from(OPEN)
    enc = enc_with(b, [C("ada", "h", (3, 3), Melee=3), C("bob", "m", (1, 1), Exit=3)])
    evs = Match(enc).play([Intent("ada", "Escape", to=(3, 4)), Intent("bob", "Exit", to=(0, 0))])
    moved = [e for e in evs if e.type == "moved"]
    assert [e.data["who"] for e in moved] == ["bob", "ada"]
    assert [e.data["sub_phase"] for e in moved] == [1, 3]


def test_M10_same_square_conflict_higher_rating_wins():
    b = board_from(OPEN)
    enc = enc_with(b, [C("ada", "h", (1, 3), Escape=2), C("bob", "m", (5, 3), Escape=4)])
    m = Match(enc)
    evs = m.play([Intent("ada", "Escape", to=(3, 3)), Intent("bob", "Escape", to=(3, 3))])
    assert m.state["bob"].at == (3, 3) and m.state["ada"].at == (2, 3)
    assert any(e.type == "collided" and e.rules == ("M10",) for e in evs)


@pytest.mark.parametrize("dodge, harmed", [(4, False), (2, True)])
def test_E1_hazard_harms_unless_eluded(dodge, harmed):
    hz = np.full((7, 7), -1, np.int16)
    hz[3, 4] = 0
    b = board_from(OPEN, hazard=hz, hazards=(Hazard("Floor trap", (("Block/Dodge", 4), ("Perception", 3)), 2),))
    enc = enc_with(b, [C("ada", "h", (3, 3), Melee=2, Block=dodge)])
    m = Match(enc)
    evs = m.play([Intent("ada", "Escape", to=(5, 3))])
    (h,) = [e for e in evs if e.type == "hazard"]
    assert h.rules == ("E1",) and h.data["eluded"] is (not harmed)
    assert m.state["ada"].minor == (2 if harmed else 0)


def test_board_cache_is_per_board_object():
    b = board_from(OPEN)
    assert movement.grid(b) is movement.grid(b)
    assert movement.grid(dataclasses.replace(b)) is not movement.grid(b)


@pytest.mark.parametrize(
    "intent, rule",
    [
        (Intent("ada", "Escape", to=(6, 6)), "M1"),
        (Intent("ada", "Escape", path=((3, 4), (3, 5), (3, 6))), "M1"),
        (Intent("ada", "Escape", path=((4, 3), (5, 3))), "M10"),
        (Intent("ada", "Escape", to=(3, 0)), "M1"),  # a wall
        (Intent("ada", "Press", "orc", to=(2, 3)), "M7"),
        (Intent("ada", "Escape", to=(5, 3)), "M10"),  # the orc stands there
    ],
)
def test_validate_intent_refuses_unreachable_plans_naming_the_rule(intent, rule):
    b = board_from(["...#..."] + ["......."] * 6)
    enc = enc_with(b, [C("ada", "h", (3, 3), Melee=3, Escape=2), C("orc", "m", (5, 3), Melee=2)])
    with pytest.raises(IllegalIntent) as err:
        Match(enc).play([intent])
    assert err.value.rule == rule


def test_same_seed_same_log_on_a_board():
    b = board_from(["..~...."] * 7)
    chars = [C("ada", "h", (0, 3), Melee=3), C("bob", "h", (0, 4), Melee=2), C("orc", "m", (5, 3), Melee=2)]
    intents = [Intent("ada", "Press", "orc"), Intent("bob", "Melee", "orc", to=(1, 4)), Intent("orc", "Melee", "ada")]
    logs = []
    for _ in range(2):
        m = Match(enc_with(b, chars), seed=5)
        logs.append([e.to_dict() for e in m.play(intents)])
    assert logs[0] == logs[1]
    assert any(e["type"] == "stopped" or e["type"] == "moved" for e in logs[0])


@pytest.mark.parametrize("to, fled", [((0, 3), True), ((1, 3), False)])
def test_C5_exit_leaves_only_at_the_map_edge(to, fled):
    enc = enc_with(board_from(OPEN), [C("ada", "h", (3, 3), Exit=3), C("orc", "m", (6, 6), Melee=2)])
    m = Match(enc)
    evs = m.play([Intent("ada", "Exit", to=to)])
    assert m.state["ada"].fled == fled
    assert any(e.type == "fled" for e in evs) == fled


@pytest.mark.parametrize("seed", range(20))
def test_M6_sticky_context_built_on_a_start_context_is_a_fresh_context(seed):
    """P2 reuses the start-of-turn occupants while nobody has moved yet and adds the sticky foes of the
    sub-phase (M6, M10): the same context a fresh build gives, with the same foes in the same order."""
    import random
    from pathlib import Path

    from battlemat.io.encounter import load_encounter

    enc = load_encounter(Path(__file__).resolve().parent.parent / "maps" / "art_gallery.toml")
    rng = random.Random(seed)
    chars = {cid: s.with_(defeated=rng.random() < 0.2) for cid, s in enc.initial_state().chars.items()}
    uses = {c.id: rng.choice(["Melee", "Wrestle"]) for c in enc.characters if rng.random() < 0.5}
    for side in enc.sides:
        start = movement.context(enc, chars, side)
        reused = movement.context(enc, chars, side, uses, standing=start.occupants)
        assert reused == movement.context(enc, chars, side, uses) and reused.occupants is start.occupants
    assert any(movement.context(enc, chars, side, uses).sticky for side in enc.sides) or not uses


def test_refusal_names_what_cuts_the_way_within_the_allowance():
    """A square near enough (M1 distance within the allowance) but not reached says what bars the
    straight way there: a pit (M5), a wall, someone standing (M10); farther squares stay 'beyond the
    allowance' (M1)."""
    corridor = ["#######", "..O....", "#######"]
    rc = reach(board_from(corridor), RULES, mover(at=(1, 1), allow=2))
    assert rc.refused[(3, 1)].rule == "M5" and "pit at (2, 1)" in rc.refused[(3, 1)].why
    assert rc.refused[(4, 1)] == movement.Refusal("M1", "beyond the allowance of 2 squares (M1)")
    walled = ["#######", "..#....", "#######"]
    rc = reach(board_from(walled), RULES, mover(at=(1, 1), allow=2))
    assert rc.refused[(3, 1)].rule == "M1" and "wall at (2, 1) bars the way" in rc.refused[(3, 1)].why
    orc = Context({(2, 1): Occupant("Orc", False)})
    rc = reach(board_from(corridor[:1] + ["......."] + corridor[2:]), RULES, mover(at=(1, 1), allow=2), orc)
    assert rc.refused[(3, 1)].rule == "M10" and "Orc at (2, 1) bars the way" in rc.refused[(3, 1)].why
