"""Rules fidelity (issue 16): every attack through one door, effective ratings, passive Perception,
holds, observations alone, and a log that says why when nothing happens. Named by rule ID; each
expected outcome is worked out by hand from the rules text in the test's comment."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import act, char, of, play_data

from battlemat.core import movement
from battlemat.core.board import Board, Hazard
from battlemat.core.character import Character, Equipment
from battlemat.core.encounter import Encounter
from battlemat.core.errors import IllegalIntent
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.memory import MatchMemory
from battlemat.core.resolver import validate_intent
from battlemat.core.state import CharacterState, MatchState
from battlemat.io.rules_file import load_rules

RULES = load_rules()
SWEEPER = {"Melee/Press": 5}
SWEEP_TALENT = {"Melee/Press": 1}


def losses(events) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in of(events, "losses"):
        out[e.data["who"]] = out.get(e.data["who"], 0) + e.data["n"]
    return out


def contest_on(events, attacker: str, defender: str) -> dict:
    cs = [c.data for c in of(events, "contest") if attacker in c.data["attackers"] + c.data["defenders"]
          and defender in c.data["attackers"] + c.data["defenders"]]
    assert len(cs) == 1, [c for c in cs]
    return cs[0]


# -- C7: a sweep is an attack like any other -------------------------------------------------------------
def test_C7_sweep_meets_the_named_block_like_any_attack():
    """d Blocks naming the sweeper s: full Block 4 against the sweep at Melee 5 - 1 = 4: no losses.
    (Before: the sweep was no threat d could name, so it met half the Block, 2, and did 2 losses.)"""
    _, events = play_data(
        [char("s", "x", skills=SWEEPER, talents=SWEEP_TALENT), char("p", "y"),
         char("d", "y", skills={"Block/Dodge": 4})],
        [[act("s", "Melee", "p", also=["d"]), act("d", "Block", "s")]],
    )
    c = contest_on(events, "s", "d")
    assert c["kind"] == "secondary" and c["attack"]["value"] == 4
    assert c["defense"]["value"] == 4 and not c["defense"]["halved"]
    assert "d" not in losses(events)


def test_C7_sweep_meets_half_block_when_another_attacker_was_named():
    """d Blocks naming a (Melee 2): a meets Block 4 and fails. The sweep (5 - 1 = 4) is another threat,
    so it meets half the Block, 2: d suffers 2 losses from s. (Before: the sweep shared a's key and met
    the full Block by accident: no losses.)"""
    _, events = play_data(
        [char("s", "x", skills=SWEEPER, talents=SWEEP_TALENT), char("a", "x", skills={"Melee/Press": 2}),
         char("p", "y"), char("d", "y", skills={"Block/Dodge": 4})],
        [[act("s", "Melee", "p", also=["d"]), act("a", "Melee", "d"), act("d", "Block", "a")]],
    )
    sweep = contest_on(events, "s", "d")
    assert sweep["defense"]["halved"] and sweep["defense"]["value"] == 2
    assert [e.data["by"] for e in of(events, "losses") if e.data["who"] == "d"] == [["s"]]
    assert losses(events)["d"] == 2


def test_C7_C5_block_naming_nobody_takes_the_strongest_threat_sweeps_included():
    """d Blocks naming nobody: the strongest threat is the sweep (5 - 1 = 4 against a's Melee 3), so the
    full Block meets the sweep and a meets half the Block: 3 - 2 = 1 loss from a. (Before: a's attack
    was the only threat d could choose, and the sweep met the full Block through a's key.)"""
    _, events = play_data(
        [char("s", "x", skills=SWEEPER, talents=SWEEP_TALENT), char("a", "x", skills={"Melee/Press": 3}),
         char("p", "y"), char("d", "y", skills={"Block/Dodge": 4})],
        [[act("s", "Melee", "p", also=["d"]), act("a", "Melee", "d"), act("d", "Block")]],
    )
    assert not contest_on(events, "s", "d")["defense"]["halved"]
    assert contest_on(events, "a", "d")["defense"]["halved"]
    assert [e.data["by"] for e in of(events, "losses") if e.data["who"] == "d"] == [["a"]]


def test_C5_C7_exit_escape_talent_covers_a_sweep():
    """d Blocks naming a (Press 3) and its Exit/Escape talent 1 covers one more threat: the sweep
    (5 - 1 = 4) meets the full Block 4 too, so nobody hurts d. (Before: half, 2 losses.)"""
    _, events = play_data(
        [char("s", "x", skills=SWEEPER, talents=SWEEP_TALENT), char("a", "x", skills={"Melee/Press": 3}),
         char("p", "y"), char("d", "y", skills={"Block/Dodge": 4, "Exit/Escape": 1}, talents={"Exit/Escape": 1})],
        [[act("s", "Melee", "p", also=["d"]), act("a", "Press", "d"), act("d", "Block", "a")]],
    )
    assert not contest_on(events, "s", "d")["defense"]["halved"]
    assert "d" not in losses(events)


@pytest.mark.parametrize("x_melee, loser, n", [(5, "s", 2), (2, "x", 1)])
def test_C3_C7_secondary_target_attacking_the_sweeper_interferes(x_melee, loser, n):
    """x attacks the sweeper s while s sweeps x: two reach attacks on each other, one contest, only the
    higher succeeds (C3). Sweep 4 - 1 = 3 against x's Melee: 5 beats 3 (s suffers 2), 3 beats 2 (x
    suffers 1). (Before: two contests, each at half the other's rating: 5 vs 2 and 3 vs 2.)"""
    _, events = play_data(
        [char("s", "x", skills={"Melee/Press": 4}, talents=SWEEP_TALENT), char("p", "y"),
         char("x", "y", skills={"Melee/Press": x_melee})],
        [[act("s", "Melee", "p", also=["x"]), act("x", "Melee", "s")]],
    )
    c = contest_on(events, "s", "x")
    assert c["kind"] == "interfere"
    assert {k: v for k, v in losses(events).items() if k != "p"} == {loser: n}


def test_C7_C5_defense_inflicts_losses_applies_to_a_sweep():
    """With `defense_inflicts_losses`, a defender who out-rates an attack it does not answer hurts the
    attacker. x (Melee 6, attacking y) opposes the sweep (2 - 1 = 1) with half, 3: s suffers 2."""
    _, events = play_data(
        [char("s", "a", skills={"Melee/Press": 2}, talents=SWEEP_TALENT), char("y", "a", skills={"Block/Dodge": 8}),
         char("p", "b"), char("x", "b", skills={"Melee/Press": 6})],
        [[act("s", "Melee", "p", also=["x"]), act("x", "Melee", "y"), act("y", "Dodge", "x")]],
        rules={"defense_inflicts_losses": True},
    )
    assert [(e.data["n"], e.data["by"]) for e in of(events, "losses") if e.data["who"] == "s"] == [(2, ["x"])]


def _board_match(chars: list[Character], level: np.ndarray | None = None, **board: object) -> Match:
    b = Board(6, 5, level=level, **board) if level is not None else Board(6, 5, **board)  # type: ignore[arg-type]
    return Match(Encounter("t", RULES, tuple(chars), board=b))


def test_C7_R5_sweep_takes_higher_ground_and_flanking():
    """s stands one level above x; its ally f stands on x's far side. The sweep on x gains +1 higher
    ground and +1 flanking like any attack (R5): Melee 4 - 1 + 2 = 5. (Before: 3, no position.)"""
    level = np.zeros((5, 6), np.int16)
    level[1, 2] = 1
    chars = [
        Character("s", "S", "h", skills={"Melee/Press": 4}, talents=SWEEP_TALENT, at=(2, 1)),
        Character("f", "F", "h", at=(2, 3)),
        Character("p", "P", "m", at=(3, 1)),
        Character("x", "X", "m", at=(2, 2)),
    ]
    m = _board_match(chars, level)
    events = m.play([Intent("s", "Melee", "p", also=("x",))])
    c = contest_on(list(events), "s", "x")
    rules = {mod["rule"] for mod in c["attack"]["situational"]}
    assert rules == {"R5"} and c["attack"]["value"] == 5


def test_C7_sweep_out_of_reach_fails_alone():
    """A secondary target not next to the sweeper after movement is not struck (C7), and says so; the
    primary attack still happens."""
    chars = [
        Character("s", "S", "h", skills={"Melee/Press": 4}, talents=SWEEP_TALENT, at=(1, 1)),
        Character("p", "P", "m", at=(2, 1)),
        Character("x", "X", "m", at=(4, 3)),
    ]
    events = list(_board_match(chars).play([Intent("s", "Melee", "p", also=("x",))]))
    assert [e.data["rule"] for e in of(events, "no_effect")] == ["C7"]
    assert losses(events) == {"p": 4}


def test_C7_sweep_happens_when_the_primary_target_is_out_of_reach():
    """A sweep differs from any other attack only by its -1 and by needing its target next to the sweeper
    (C7): the primary target out of reach after movement fails alone, and the sweep at an adjacent foe
    still lands (Melee 4 - 1 = 3 against an idle foe: 3 losses)."""
    chars = [
        Character("s", "S", "h", skills={"Melee/Press": 4}, talents=SWEEP_TALENT, at=(1, 1)),
        Character("p", "P", "m", at=(5, 5)),
        Character("x", "X", "m", at=(2, 1)),
    ]
    events = list(_board_match(chars).play([Intent("s", "Melee", "p", also=("x",))]))
    assert [e.data["rule"] for e in of(events, "no_effect")] == ["P4"]
    assert losses(events) == {"x": 3}


# -- effective ratings (text line 15) -----------------------------------------------------------------------
def test_S7_group_counts_effective_rating():
    """z's base Melee is 0 but its lance gives +1: effective 1, so z counts (the text: members with a zero
    rating do not). Group of 2: +1. a's Melee 3 + 1 = 4 against an idle target. (Before: 3.)"""
    _, events = play_data(
        [char("t", "x"), char("a", "y", skills={"Melee/Press": 3}),
         char("z", "y", equipment=[{"name": "lance", "skill": "Melee/Press", "bonus": 1}])],
        [[act("a", "Melee", "t"), act("z", "Melee", "t")]],
    )
    (c,) = of(events, "contest")
    assert c.data["attack"]["group"] == 1 and c.data["attack"]["value"] == 4


def test_S7_member_brought_to_zero_does_not_count_and_the_log_says_why():
    """z's base Melee is 1 but the GM's -1 brings it to an effective 0: z does not count, no group bonus,
    and the contest says why."""
    _, events = play_data(
        [char("t", "x"), char("a", "y", skills={"Melee/Press": 3}),
         char("z", "y", skills={"Melee/Press": 1})],
        [[act("a", "Melee", "t"), act("z", "Melee", "t", modifiers=[{"value": -1, "reason": "mud"}])]],
    )
    (c,) = of(events, "contest")
    assert c.data["attack"]["group"] == 0 and c.data["attack"]["value"] == 3
    assert "z: effective Melee 0, not counted (S7)" in c.text


def test_C6_S7_group_shrunk_to_no_bonus_says_so():
    _, events = play_data(
        [char("t", "x", skills={"Exit/Escape": 1}, talents={"Exit/Escape": 1}),
         char("a", "y", skills={"Melee/Press": 3}), char("b", "y", skills={"Melee/Press": 3})],
        [[act("a", "Melee", "t"), act("b", "Melee", "t")]],
    )
    (c,) = of(events, "contest")
    assert c.data["attack"]["group"] == 0
    assert "no group bonus" in c.text and "C6" in c.text


def test_R1_range_reads_effective_rating():
    """Shoot 1 with an excellent bow (+1): effective 2, unpenalized to 10 squares; the target stands 7
    squares away: no range penalty. (Before: the base 1 gave 5 squares and a -1.)"""
    bow = (Equipment("excellent bow", "Shoot/Throw", 1),)
    chars = [Character("arc", "Arc", "h", skills={"Shoot/Throw": 1}, equipment=bow, at=(0, 1)),
             Character("orc", "Orc", "m", at=(7, 1))]
    m = Match(Encounter("t", RULES, tuple(chars), board=Board(12, 3)))
    (c,) = of(list(m.play([Intent("arc", "Shoot", "orc")])), "contest")
    assert not any(mod["rule"] == "R1" for mod in c.data["attack"]["situational"])
    assert c.data["attack"]["value"] == 2


def test_M5_L5_jump_reads_effective_rating():
    """Jump length comes from the effective Acrobatics rating: base 3 + boots 1 - 1 major loss (L5) = 3."""
    boots = (Equipment("boots", "Acrobatics/Climb", 1),)
    k = Character("k", "K", "h", skills={"Acrobatics/Climb": 3}, equipment=boots, at=(0, 0))
    enc = Encounter("t", RULES, (k,), board=Board(6, 3))
    chars = {"k": CharacterState(major=1, at=(0, 0))}
    assert movement.mover_for(MatchMemory(enc), chars, "k", "Acrobatics").jump_rating == 3


def test_M13_L5_throw_reads_effective_rating():
    """Wrestle 3 with one major loss (L5): effective 2, so a held foe is thrown 2 squares, not 3."""
    w = Character("w", "W", "x", skills={"Wrestle/Disarm": 3}, at=(2, 1))
    f = Character("f", "F", "y", at=(3, 1))
    enc = Encounter("t", RULES, (w, f), board=Board(9, 3))
    state = MatchState(2, {"w": CharacterState(major=1, at=(2, 1)),
                           "f": CharacterState(at=(3, 1), held_by="w", hold=3)})
    validate_intent(enc, state, Intent("w", "Wrestle", "f", throw=(5, 1)))
    with pytest.raises(IllegalIntent) as err:
        validate_intent(enc, state, Intent("w", "Wrestle", "f", throw=(6, 1)))
    assert err.value.rule == "M13"


# -- E1, O2: passive Perception --------------------------------------------------------------------------
def _trap_board() -> Board:
    hz = np.full((3, 6), -1, np.int16)
    hz[1, 2] = 0
    return Board(6, 3, hazard=hz, hazards=(Hazard.parse("Floor Trap [Block/Dodge 4 or Perception 3]", 2),))


@pytest.mark.parametrize("use, to, harmed", [("Dodge", (3, 1), True), ("Perception", (2, 1), False)])
def test_E1_O2_passive_perception_halved_on_traps(use, to, harmed):
    """The text's floor trap: Perception 4 notices it only when actively searching (4 >= 3); walking in
    while dodging, Perception is halved to 2 (O2) and Block/Dodge 2 is short of 4: 2 losses."""
    c = Character("c", "C", "h", skills={"Perception/Etiquette": 4, "Block/Dodge": 2}, at=(1, 1))
    m = Match(Encounter("t", RULES, (c,), board=_trap_board()))
    events = list(m.play([Intent("c", use, to=to)]))
    (hz,) = of(events, "hazard")
    assert hz.data["harm"] == (2 if harmed else 0)
    assert ("halved" in hz.text) == harmed == ("O2" in hz.rules)


# -- C8, M13: only Escape breaks a hold ---------------------------------------------------------------------
TOUGH = {"Wrestle/Disarm": 8}


def test_C8_M13_held_character_cannot_exit():
    """f is held by w (turn 1). In turn 2 it tries Exit without a map: the Exit fails, with an event that
    names the holder and the rule; f stays in the fight, held, and its minor losses do not heal."""
    m, events = play_data(
        [char("w", "x", skills={"Wrestle/Disarm": 4}), char("f", "y", skills={"Exit/Escape": 5, **TOUGH},
                                                           talents=TOUGH)],
        [[act("w", "Wrestle", "f")], [act("f", "Exit")]],
    )
    s = m.state["f"]
    assert s.active and s.held_by == "w" and s.minor == 2
    assert not of(events, "fled")
    (stop,) = [e for e in of(events, "stopped", 2) if e.data["who"] == "f"]
    assert "C8" in stop.rules and "held by w" in stop.text and "only Escape" in stop.text


@pytest.mark.parametrize("opposes, value, hurt", [("half", 2, [2]), ("full", 4, [])])
def test_C8_C5_held_exit_user_is_not_fleeing_so_opposes_at_half(opposes, value, hurt):
    """[house, switch held_exit_opposes] A held character's Exit does not flee, so it does not oppose at
    full (C5 gives full Exit 'while fleeing'). Turn 1: w's Wrestle 4 beats f's Dodge 3 (1 loss) and grabs
    it. Turn 2: half f's Exit 4 = 2 against w's Melee 4: 2 losses (with the switch on full, 4 vs 4: none)."""
    m, events = play_data(
        [char("w", "x", skills={"Wrestle/Disarm": 4, "Melee/Press": 4}),
         char("f", "y", skills={"Exit/Escape": 4, "Block/Dodge": 3})],
        [[act("w", "Wrestle", "f"), act("f", "Dodge", "w")], [act("w", "Melee", "f"), act("f", "Exit")]],
        rules={"held_exit_opposes": opposes},
    )
    (c,) = of(events, "contest", 2)
    assert c.data["defense"]["halved"] == (opposes == "half") and c.data["defense"]["value"] == value
    assert [e.data["n"] for e in of(events, "losses", 2)] == hurt and m.state["f"].active


# -- O1: observations alone; O4: searches in a group ---------------------------------------------------------
def test_O1_observation_against_target_number_gets_no_group_bonus():
    """Two observers with Lore 3 study a foe whose target number is 4: each checks alone ('succeed or fail
    based entirely upon their own skill'), 3 < 4, both fail. (Before: a group of 2 made 4 and succeeded.)"""
    m, events = play_data(
        [char("a", "x", skills={"Identify/Lore": 3}), char("b", "x", skills={"Identify/Lore": 3}),
         char("o", "y", observe_tn={"Lore": 4})],
        [[act("a", "Lore", "o"), act("b", "Lore", "o")]],
    )
    checks = of(events, "check")
    assert len(checks) == 2 and not any(c.data["success"] for c in checks)
    assert all(c.data["rating"]["group"] == 0 for c in checks)
    assert not m.state["a"].advantages and not m.state["b"].advantages


def test_O4_S7_search_against_stealth_keeps_the_group_bonus():
    """The bandits: five searchers with Perception 3 and the GM's group bonus of 2 tie Meldela's Stealth 5;
    she is motionless, so she stays hidden. With the table's +3 they find her."""
    chars = [char("m", "x", skills={"Stealth/Track": 5})] + [
        char(f"b{i}", "y", skills={"Perception/Etiquette": 3}) for i in range(5)]
    turn = [act("m", "Stealth", "b0")] + [act(f"b{i}", "Perception") for i in range(5)]
    _, gm = play_data(chars, [turn], rules={"group_table": [0, 0, 1, 2, 2, 2]})
    _, table = play_data(chars, [turn])
    assert of(gm, "hidden") and of(table, "found")


# -- item 8: nothing silent --------------------------------------------------------------------------------------
def test_R3_R6_point_blank_says_what_it_removes():
    """A talented throw at point blank ignores the cover on the line (R4) and the target's
    missile-dodging talent (R6); the contest says so instead of leaving them out silently."""
    cover = np.zeros((3, 8), np.uint8)
    cover[1, 1] = 1
    chars = [Character("arc", "Arc", "h", skills={"Shoot/Throw": 1}, talents={"Shoot/Throw": 1}, at=(0, 1)),
             Character("orc", "Orc", "m", skills={"Block/Dodge": 1}, talents={"Block/Dodge": 1}, at=(3, 1))]
    m = Match(Encounter("t", RULES, tuple(chars), board=Board(8, 3, cover=cover)))
    (c,) = of(list(m.play([Intent("arc", "Throw", "orc")])), "contest")
    assert "point blank" in c.text and "R3" in c.text
    assert "cover" in c.text and "R6" in c.text
    assert c.data["attack"]["value"] == 1


def test_L2_no_healing_says_why():
    """a has a minor loss (turn 1). In turn 2 it causes none: it does not heal, and the log says why."""
    _, events = play_data(
        [char("a", "x", skills={"Melee/Press": 1, "Block/Dodge": 3}), char("b", "y", skills={"Melee/Press": 2})],
        [[act("a", "Melee", "b"), act("b", "Melee", "a")], [act("a", "Block", "b"), act("b", "Melee", "a")]],
    )
    (nh,) = of(events, "not_healed", 2)
    assert nh.data["who"] == "a" and "L2" in nh.rules and "caused no loss" in nh.text


def test_L2_healing_withheld_when_the_healer_also_suffered():
    """Turn 2: a (1 minor loss) strikes the idle c (1 loss) but e's arrow hits it first (Shoot 2 against
    half a's Melee 1 = 0: 2 losses): a caused a loss and suffered some, so nothing heals, and the log says so."""
    _, events = play_data(
        [char("a", "x", skills={"Melee/Press": 1}), char("b", "y", skills={"Melee/Press": 2}), char("c", "y"),
         char("e", "y", skills={"Shoot/Throw": 2})],
        [[act("a", "Melee", "b"), act("b", "Melee", "a")], [act("a", "Melee", "c"), act("e", "Shoot", "a")]],
    )
    assert not of(events, "healed", 2)
    (nh,) = [e for e in of(events, "not_healed", 2) if e.data["who"] == "a"]
    assert "suffered" in nh.text


def test_O2_machinery_talent_counts_only_against_mechanical_traps():
    """O2: the Machinery talent adds to Perception, unhalved, to notice a mechanical trap; any other
    hazard gets Perception alone (halved when not searching)."""
    from battlemat.core.board import Hazard
    from battlemat.core.elusion import elude
    from battlemat.io.rules_file import load_rules

    rules = load_rules()
    tinker = Character("t", "Tinker", "h", skills={"Perception/Etiquette": 2, "Machinery": 3},
                       talents={"Machinery": 2})
    reqs = (("Perception/Etiquette", 3),)
    trap = elude(tinker, Hazard("floor trap", reqs, 2, mechanical=True), rules, using="Block")
    assert trap.exempt and trap.helped and "+2 Machinery talent" in trap.text  # 2 // 2 + 2 = 3
    rockfall = elude(tinker, Hazard("rockfall", reqs, 2), rules, using="Block")
    assert not rockfall.exempt and not rockfall.helped  # 2 // 2 = 1 < 3
