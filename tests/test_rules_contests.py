"""Contest rules as tables: C2-C7, S3, S6-S8, R6, named by rule ID."""

from __future__ import annotations

import pytest
from conftest import act, char, of, play_data
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemat.core.rating import Modifier, Rating


def contest(events, defender=None):
    cs = of(events, "contest")
    if defender is not None:
        cs = [c for c in cs if defender in c.data["defenders"]]
    assert len(cs) == 1, [c.text for c in cs]
    return cs[0].data


# (name, a skills, b skills, a intent, b intent, expected (a value, b value, winner, loser losses))
C3_CASES = [
    ("melee_vs_melee_higher_wins", {"Melee": 5}, {"Melee": 3}, "Melee", "Melee", ("b", 2)),
    ("tie_nobody_hurt", {"Melee": 3}, {"Melee": 3}, "Melee", "Melee", (None, 0)),
    ("press_vs_melee_matchup_S8", {"Press": 3}, {"Melee": 4}, "Press", "Melee", (None, 0)),
    ("wrestle_vs_melee", {"Wrestle": 2}, {"Melee": 4}, "Wrestle", "Melee", ("a", 2)),
]


@pytest.mark.parametrize("name,sa,sb,ua,ub,expected", C3_CASES, ids=[c[0] for c in C3_CASES])
def test_C3_mutual_reach_attacks_interfere(name, sa, sb, ua, ub, expected):
    match, events = play_data(
        [char("a", "x", skills=sa), char("b", "y", skills=sb)],
        [[act("a", ua, "b"), act("b", ub, "a")]],
    )
    (c,) = of(events, "contest")
    assert c.data["kind"] == "interfere"  # one contest, not two (C3)
    loser, n = expected
    losses = {e.data["who"]: e.data["n"] for e in of(events, "losses")}
    assert losses == ({} if loser is None else {loser: n})


def test_C3_tie_switch_both_succeed_still_no_losses():
    _, events = play_data(
        [char("a", "x", skills={"Melee": 3}), char("b", "y", skills={"Melee": 3})],
        [[act("a", "Melee", "b"), act("b", "Melee", "a")]],
        rules={"mutual_tie_both_succeed": True},
    )
    assert "both attacks succeed" in of(events, "no_effect")[0].text


def test_C4_ranged_attacks_do_not_interfere():
    _, events = play_data(
        [char("a", "x", skills={"Shoot": 4}), char("b", "y", skills={"Shoot": 3})],
        [[act("a", "Shoot", "b"), act("b", "Shoot", "a")]],
    )
    cs = of(events, "contest")
    assert len(cs) == 2 and all(c.data["kind"] == "attack" for c in cs)
    # each opposes the other's arrow with half its Shoot (C5): 4 vs 1 and 3 vs 2
    losses = {e.data["who"]: e.data["n"] for e in of(events, "losses")}
    assert losses == {"b": 3, "a": 1}


def test_C5_block_full_against_chosen_half_against_others():
    _, events = play_data(
        [char("d", "x", skills={"Block": 4}), char("a1", "y", skills={"Melee": 3}),
         char("a2", "y", skills={"Press": 3})],
        [[act("d", "Block", "a1"), act("a1", "Melee", "d"), act("a2", "Press", "d")]],
    )
    by_att = {c.data["attackers"][0]: c.data for c in of(events, "contest")}
    assert by_att["a1"]["defense"]["value"] == 4 and not by_att["a1"]["defense"]["halved"]
    assert by_att["a2"]["defense"]["value"] == 2 and by_att["a2"]["defense"]["halved"]
    # Block never inflicts losses, even when it out-rates the attacker (C5)
    assert [e.data["who"] for e in of(events, "losses")] == ["d"]


def test_C5_exit_escape_talent_extends_block_to_more_attackers():
    _, events = play_data(
        [
            char("d", "x", skills={"Block": 4, "Exit/Escape": 2}, talents={"Exit/Escape": 1}),
            char("a1", "y", skills={"Melee": 3}),
            char("a2", "y", skills={"Press": 3}),
        ],
        [[act("d", "Block", "a1"), act("a1", "Melee", "d"), act("a2", "Press", "d")]],
    )
    assert all(c.data["defense"]["value"] == 4 for c in of(events, "contest"))
    assert not of(events, "losses")


def test_C5_block_with_no_attacker_named_takes_the_strongest_threat():
    """[house] Block/Dodge with no attacker named works at full rating against the strongest threat."""
    _, events = play_data(
        [char("d", "x", skills={"Block": 4}), char("a1", "y", skills={"Melee": 2}),
         char("a2", "y", skills={"Press": 4})],
        [[act("d", "Block"), act("a1", "Melee", "d"), act("a2", "Press", "d")]],
    )
    by_att = {c.data["attackers"][0]: c.data["defense"] for c in of(events, "contest")}
    assert not by_att["a2"]["halved"] and by_att["a2"]["value"] == 4
    assert by_att["a1"]["halved"] and by_att["a1"]["value"] == 2


def test_C5_exit_escape_talent_adds_the_strongest_of_the_other_threats():
    """The extra threat an Exit/Escape talent point covers is the strongest left, not the first declared."""
    _, events = play_data(
        [
            char("d", "x", skills={"Block": 4, "Exit/Escape": 2}, talents={"Exit/Escape": 1}),
            char("a1", "y", skills={"Melee": 3}),
            char("a2", "y", skills={"Press": 2}),
            char("a3", "y", skills={"Wrestle/Disarm": 4}),
        ],
        [[act("d", "Block", "a1"), act("a1", "Melee", "d"), act("a2", "Press", "d"), act("a3", "Wrestle", "d")]],
    )
    halved = {c.data["attackers"][0]: c.data["defense"]["halved"] for c in of(events, "contest")}
    assert halved == {"a1": False, "a2": True, "a3": False}


def test_C5_group_is_one_threat_for_block():
    _, events = play_data(
        [char("d", "x", skills={"Dodge": 4}), char("a1", "y", skills={"Melee": 3}),
         char("a2", "y", skills={"Melee": 2})],
        [[act("d", "Dodge", "a2"), act("a1", "Melee", "d"), act("a2", "Melee", "d")]],
    )
    c = contest(events)
    assert c["attack"]["value"] == 4  # Melee 3 + group of 2 (S7)
    assert c["defense"]["value"] == 4 and not c["defense"]["halved"]  # chose a2: blocks the whole group


def test_C5_idle_item_and_technology_are_undefended():
    _, events = play_data(
        [
            char("a", "x", skills={"Melee": 3}),
            char("idle", "y", skills={"Block": 5}),
            char("potion", "y", skills={"Block": 5}),
            char("tinker", "y", skills={"Machinery": 5}),
        ],
        [[act("a", "Melee", "idle")], [act("a", "Melee", "potion"), act("potion", "item", item="concentration")],
         [act("a", "Melee", "tinker"), act("tinker", "Machinery")]],
    )
    assert [c.data["defense"]["value"] for c in of(events, "contest")] == [0, 0, 0]


def test_C5_other_skill_defense_zero_switch():
    _, events = play_data(
        [char("a", "x", skills={"Melee": 3}), char("b", "y", skills={"Perception": 4})],
        [[act("a", "Melee", "b"), act("b", "Perception")]],
        rules={"other_skill_defense": "zero"},
    )
    assert contest(events)["defense"]["value"] == 0


def test_C6_exit_talent_shrinks_attacking_group():
    chars = [char("d", "x", skills={"Exit/Escape": 3}, talents={"Exit/Escape": 2})]
    chars += [char(f"k{i}", "y", skills={"Shoot": 2}) for i in range(4)]
    _, events = play_data(chars, [[act("d", "Exit")] + [act(f"k{i}", "Shoot", "d") for i in range(4)]])
    c = contest(events)
    assert c["attack"]["group_size"] == 2 and c["attack"]["group"] == 1  # 4 - 2 members counted (C6)


def test_C7_secondary_targets_at_minus_one():
    _, events = play_data(
        [char("m", "x", skills={"Melee": 4}, talents={"Melee/Press": 1}), char("f1", "y"), char("f2", "y")],
        [[act("m", "Melee", "f1", also=["f2"])]],
    )
    vals = {c.data["defenders"][0]: (c.data["kind"], c.data["attack"]["value"]) for c in of(events, "contest")}
    assert vals == {"f1": ("attack", 4), "f2": ("secondary", 3)}


def test_S7_members_rated_zero_do_not_count():
    _, events = play_data(
        [char("t", "x"), char("a", "y", skills={"Melee": 3}), char("z", "y")],
        [[act("a", "Melee", "t"), act("z", "Melee", "t")]],
    )
    c = contest(events)
    assert c["attack"]["group"] == 0 and c["attack"]["value"] == 3


@pytest.mark.parametrize("size,bonus", [(1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (7, 3)])
def test_S7_group_table(size, bonus):
    chars = [char("t", "x")] + [char(f"a{i}", "y", skills={"Shoot": 2}) for i in range(size)]
    _, events = play_data(chars, [[act(f"a{i}", "Shoot", "t") for i in range(size)]])
    assert contest(events)["attack"]["value"] == 2 + bonus


def test_S6_situational_clamped_but_matchup_and_equipment_are_not():
    _, events = play_data(
        [
            char("a", "x", skills={"Press": 3}, equipment=[{"name": "lance", "skill": "Press", "bonus": 2}]),
            char("b", "y", skills={"Melee": 3}),
        ],
        [[act("a", "Press", "b", modifiers=[{"value": 2, "reason": "charge"}, {"value": 2, "reason": "high"}]),
          act("b", "Melee", "a")]],
    )
    c = contest(events)
    a = c["attack"] if c["attackers"] == ["a"] else c["defense"]
    assert a["situational_net"] == 2 and a["value"] == 3 + 2 + 2 + 1


def test_S8_provoke_vs_press_switch():
    data = ([char("p", "x", skills={"Provoke": 3}), char("q", "y", skills={"Press": 3})],
            [[act("p", "Provoke", "q"), act("q", "Press", "p")]])
    _, on = play_data(*data)
    _, off = play_data(*data, rules={"matchup_provoke_vs_press": False})
    assert {e.data["who"]: e.data["n"] for e in of(on, "losses")} == {"q": 2}
    assert not of(off, "losses")


def test_S3_acrobatics_talent_helps_exit():
    _, events = play_data(
        [char("r", "x", skills={"Exit": 3, "Acrobatics": 5}, talents={"Acrobatics/Climb": 5}),
         char("s", "y", skills={"Shoot": 6})],
        [[act("r", "Exit"), act("s", "Shoot", "r")]],
    )
    assert contest(events)["defense"]["talent"] == 2 and contest(events)["defense"]["value"] == 5


def test_R6_block_dodge_talent_reduces_missiles():
    _, events = play_data(
        [char("h", "x", skills={"Dodge": 3, "Melee": 3}, talents={"Block/Dodge": 2}),
         char("s", "y", skills={"Shoot": 5})],
        [[act("s", "Shoot", "h")]],
    )
    assert contest(events)["attack"]["value"] == 3


def test_C5_defense_inflicts_losses_switch():
    chars = [char("a", "x", skills={"Melee": 2}), char("b", "y", skills={"Melee": 6}), char("c", "x")]
    turns = [[act("a", "Melee", "b"), act("b", "Melee", "c")]]
    _, default = play_data(chars, turns)
    assert "a" not in {e.data["who"] for e in of(default, "losses")}
    _, switched = play_data(chars, turns, rules={"defense_inflicts_losses": True})
    assert {e.data["who"]: e.data["n"] for e in of(switched, "losses")}["a"] == 1  # 3 (half of 6) - 2


def test_C3_interference_found_when_two_groups_share_a_target():
    # x is attacked by y (Melee) and z (Press); x strikes back at y: x and y interfere, z attacks alone.
    _, events = play_data(
        [char("x", "a", skills={"Melee": 5}), char("y", "b", skills={"Melee": 2}), char("z", "b", skills={"Press": 2})],
        [[act("x", "Melee", "y"), act("y", "Melee", "x"), act("z", "Press", "x")]],
    )
    kinds = sorted(e.data["kind"] for e in of(events, "contest"))
    assert kinds == ["attack", "interfere"]


def test_forecast_matches_the_resolved_contest_C5_S7():
    from battlemat.core.intents import Intent
    from battlemat.core.match import Match
    from battlemat.core.resolver import forecast
    from battlemat.io.encounter import parse_encounter

    enc = parse_encounter({"encounter": {"title": "t"}, "character": [
        {"id": "a", "side": "x", "skills": {"Melee": 3}}, {"id": "b", "side": "x", "skills": {"Melee": 2}},
        {"id": "d", "side": "y", "skills": {"Block": 4}},
    ]}, "<t>")
    intents = [Intent("a", "Melee", "d"), Intent("b", "Melee", "d"), Intent("d", "Block", "a")]
    f = forecast(enc, enc.initial_state(), intents, "b")
    assert f is not None and (f.attack.value, f.defense.value, f.margin) == (4, 4, 0)
    events = Match(enc).play(intents)
    (c,) = [e for e in events if e.type == "contest"]
    assert (c.data["attack"]["value"], c.data["defense"]["value"]) == (f.attack.value, f.defense.value)


_MODS = st.lists(st.builds(Modifier, st.sampled_from([-2, -1, 1, 2]), st.sampled_from(["cover", "higher ground"]),
                           st.sampled_from(["R4", "R5", "S6"])), max_size=3)


_PARTS = st.fixed_dictionaries({
    "base": st.integers(0, 6), "equipment": st.integers(0, 2), "situational": _MODS.map(tuple),
    "group": st.integers(0, 3), "group_size": st.integers(1, 4), "talent": st.integers(0, 2),
    "matchup": st.integers(-2, 2), "losses": st.integers(0, 2), "adjustments": _MODS.map(tuple),
    "halved": st.booleans(), "fixed": st.sampled_from([None, 0]),
    "notes": st.lists(st.sampled_from(["group: a, b", "equipment: sword (S5)"]), max_size=2).map(tuple),
})


@settings(max_examples=200, deadline=None)
@given(_PARTS)
def test_S2_explain_reads_every_part_in_order(parts):
    """A rating's words (the log's 'Press 4 = base 2 +1 ...') name every part that parts() lists,
    in the same order, with the value after halving (S2, S3, S5-S8, L5, C5)."""
    r = Rating("Press", **parts)
    base, halved, fixed, notes = parts["base"], parts["halved"], parts["fixed"], parts["notes"]
    if fixed is not None:
        assert r.explain() == f"Press {r.value} (undefended, C5)"
        return
    bits = [f"base {base}"] + [f"{v:+d} {label} ({rule})" for label, v, rule in r.parts()[1:]]
    want = f"Press {r.value} = " + " ".join(bits) + (f", halved from {r.full}" if halved else "")
    assert r.explain() == want + "".join(f"; {n}" for n in notes)
