"""Every worked example of the core rules text (RULES.md, last section), reproduced per turn."""

from __future__ import annotations

import random

from conftest import EXAMPLES, of, play_file

from battlemat.core.dice import SumDice, faces
from battlemat.core.match import Match
from battlemat.core.resolver import resolve_turn
from battlemat.io.encounter import load_encounter


def losses_by_turn(events, who):
    return {
        e.turn: (e.data["n"], e.data["minor"], e.data["major"]) for e in of(events, "losses") if e.data["who"] == who
    }


def test_kwirt_and_the_lizard_C3_S8_C5_L2_L3():
    match, events = play_file(EXAMPLES / "kwirt_and_the_lizard.toml")
    contests = {e.turn: e for e in of(events, "contest")}
    # Turn 1 (C3): Melee 2 vs Melee 4 interfere -> Kwirt 2 minor.
    assert contests[1].data["kind"] == "interfere"
    assert (contests[1].data["attack"]["value"], contests[1].data["defense"]["value"]) in ((2, 4), (4, 2))
    assert losses_by_turn(events, "kwirt") == {1: (2, 2, 0)}
    # Turn 2 (S8 + S6): Press 2 +1 matchup +1 higher ground = 4 vs Melee 4 -> tie, nobody hurt (C3).
    t2 = contests[2]
    kwirt_side = t2.data["attack"] if t2.data["attackers"] == ["kwirt"] else t2.data["defense"]
    assert kwirt_side["value"] == 4 and kwirt_side["matchup"] == 1 and kwirt_side["situational_net"] == 1
    assert t2.data["winner"] == "tie" and not of(events, "losses", 2)
    # Turn 3 (C5): Dodge 5 vs Melee 4 -> nothing; Block/Dodge never inflicts losses.
    t3 = contests[3]
    assert t3.data["defense"]["skill"] == "Dodge" and t3.data["defense"]["value"] == 5
    assert t3.data["winner"] == "defense" and not of(events, "losses", 3)
    # Turn 4: sapping, no contest.
    assert 4 not in contests
    # Turn 5: Press 4 vs Melee 2 -> lizard 2 minor; Kwirt heals one (L2).
    assert losses_by_turn(events, "lizard")[5] == (2, 2, 0)
    assert [e.data["who"] for e in of(events, "healed", 5)] == ["kwirt"]
    # Turn 6: again -> lizard defeated (L3) and Kwirt heals his last minor loss.
    assert losses_by_turn(events, "lizard")[6] == (2, 2, 2)
    assert [e.data["who"] for e in of(events, "defeated", 6)] == ["lizard"]
    assert [e.data["who"] for e in of(events, "healed", 6)] == ["kwirt"]
    final = match.state
    assert (final["kwirt"].minor, final["kwirt"].major, final["kwirt"].defeated) == (0, 0, False)
    assert final["lizard"].defeated
    assert match.outcome().winner == "heroes"


def test_fleeing_many_archers_S7_C5():
    match, events = play_file(EXAMPLES / "fleeing_many_archers.toml")
    (contest,) = of(events, "contest")
    assert contest.data["attack"]["value"] == 4  # Shoot 2 + group bonus 2 for four (S7)
    assert contest.data["attack"]["group"] == 2 and contest.data["attack"]["group_size"] == 4
    assert contest.data["defense"]["skill"] == "Exit" and contest.data["defense"]["value"] == 3  # full (C5)
    assert losses_by_turn(events, "silmyn") == {1: (1, 1, 0)}
    assert [e.data["who"] for e in of(events, "fled")] == ["silmyn"]
    assert match.state["silmyn"].fled and not match.state["silmyn"].defeated


def test_valtor_cannot_exit_S5_S6_L3():
    match, events = play_file(EXAMPLES / "valtor_cannot_exit.toml")
    (contest,) = of(events, "contest")
    att = contest.data["attack"]
    assert (att["base"], att["equipment"], att["situational_net"], att["value"]) == (4, 1, 2, 7)
    assert contest.data["defense"]["value"] == 3
    assert losses_by_turn(events, "valtor") == {1: (4, 2, 2)}
    assert match.state["valtor"].defeated and not of(events, "fled")


def test_valtor_barely_exits_C2_L2():
    match, events = play_file(EXAMPLES / "valtor_barely_exit.toml")
    (contest,) = of(events, "contest")
    assert (contest.data["attack"]["value"], contest.data["defense"]["value"]) == (5, 3)
    assert losses_by_turn(events, "valtor") == {1: (2, 2, 0)}
    assert match.state["valtor"].fled and match.state["valtor"].minor == 0  # minor losses heal on leaving (L2)


def test_garran_opposes_with_half_and_the_ogre_is_undefended_C5():
    match, events = play_file(EXAMPLES / "garran_and_the_ogres.toml")
    by_def = {tuple(e.data["defenders"]): e for e in of(events, "contest")}
    statue_vs_garran = by_def[("garran",)]
    d = statue_vs_garran.data["defense"]
    # Press 3 +1 because the statue uses Melee (S8) = 4, halved while charging someone else (C5) = 2.
    assert d["skill"] == "Press" and d["halved"] and d["matchup"] == 1 and d["value"] == 2
    assert statue_vs_garran.data["attack"]["value"] == 5 and statue_vs_garran.data["margin"] == 3
    farran_vs_ogre = by_def[("ogre_boss",)]
    assert farran_vs_ogre.data["defense"]["undefended"] and farran_vs_ogre.data["defense"]["value"] == 0
    assert farran_vs_ogre.data["margin"] == 3
    assert losses_by_turn(events, "ogre_boss") == {1: (3, 2, 1)}
    assert not match.state["ogre_boss"].defeated  # Ogres are tough: Wrestle talent 3 (L3)


def test_valtor_lore_O1():
    match, events = play_file(EXAMPLES / "valtor_lore.toml")
    checks = of(events, "check")
    assert [(e.data["tn"], e.data["success"]) for e in checks] == [(1, True), (3, True), (4, True), (6, False)]
    advs = {a.vs for a in match.state["valtor"].advantages}
    assert advs == {"snail", "slug", "whelk"}


def test_valtor_and_his_sword_S5():
    _, events = play_file(EXAMPLES / "valtor_and_his_sword.toml")
    (contest,) = of(events, "contest")
    assert (contest.data["attack"]["base"], contest.data["attack"]["value"]) == (3, 5)


def test_hiding_from_bandits_O4_S7():
    match, events = play_file(EXAMPLES / "hiding_from_bandits.toml")
    (hid,) = of(events, "hidden")
    assert hid.data["perception"]["value"] == 5 and hid.data["stealth"]["value"] == 5
    assert not of(events, "found")
    assert [(a.value, a.turn) for a in match.state["meldela"].advantages] == [(1, 2)]  # next turn only
    adv = of(events, "advantage")[0]
    assert adv.data["value"] == 1 and adv.data["until"] == 2


class ScriptedDice(random.Random):
    """A random.Random that rolls queued faces, to pin a worked dice example: a die face is drawn
    from getrandbits (dice.faces), so each draw returns the next face less one."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def getrandbits(self, k):
        value = self.faces.pop(0) - 1
        assert 0 <= value < 1 << k
        return value


def test_dice_d8_worked_examples_D2():
    enc = load_encounter(EXAMPLES / "dice_d8.toml")
    match = Match(enc)
    # Turn 1: Lore 5 rolls five d8 against six d8 for the target number 6.
    faces = [2, 3, 1, 4, 2] + [3, 3, 2, 5, 1, 4]
    result = resolve_turn(enc, match.state, enc.turns[0], ScriptedDice(faces), match.dice)
    (check,) = [e for e in result.events if e.type == "check"]
    assert not check.data["success"]  # 12 against 18
    assert "5d8" in check.text and "6d8" in check.text
    # Turn 2: Press 5 +1 (S8) rolls 6d8 = 26 against Melee 3d8 = 14: (26 - 14) // 5 = 2 losses.
    state = result.state
    faces = [5, 5, 4, 4, 4, 4] + [5, 5, 4]
    result = resolve_turn(enc, state, enc.turns[1], ScriptedDice(faces), match.dice)
    (contest,) = [e for e in result.events if e.type == "contest"]
    assert contest.data["totals"] in ([26, 14], [14, 26])
    (loss,) = [e for e in result.events if e.type == "losses"]
    assert loss.data["who"] == "troll" and loss.data["n"] == 2


def test_D2_faces_are_fair_dice_drawn_like_randint():
    """A die face comes from getrandbits by rejection, as random.randint draws it: each face of a
    d6 about a sixth of the time, and a seed keeps the results it had with randint."""
    rng = random.Random(11)
    rolled = faces(rng, 6, 60_000)
    assert set(rolled) == {1, 2, 3, 4, 5, 6}
    assert all(abs(rolled.count(f) - 10_000) < 400 for f in range(1, 7))  # about 4 standard deviations
    a, b = random.Random(5), random.Random(5)
    for sides in (6, 8, 10, 20):
        assert faces(a, sides, 50) == [b.randint(1, sides) for _ in range(50)]
    assert faces(a, 6, 0) == [] and faces(a, 6, -2) == []


def test_D2_true_excess_rounds_down():
    assert SumDice(8).true_excess(26 - 14) == 2  # the text's "= 3" contradicts its own rule
    assert SumDice(6).true_excess(8) == 2 and SumDice(10).true_excess(11) == 1
