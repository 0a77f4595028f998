"""Losses and defeat (L1-L5) and observations (O1-O6), named by rule ID."""

from __future__ import annotations

from conftest import act, char, of, play_data

TOUGH = {"skills": {"Wrestle/Disarm": 8}, "talents": {"Wrestle/Disarm": 8}}  # defeated only at 10 major (L3)


def test_L1_first_two_losses_minor_then_major():
    m, _ = play_data([char("a", "x", skills={"Melee": 5}), char("b", "y")], [[act("a", "Melee", "b")]])
    assert (m.state["b"].minor, m.state["b"].major, m.state["b"].defeated) == (2, 3, True)


def test_L2_heal_one_minor_when_causing_and_not_suffering():
    m, events = play_data(
        [char("a", "x", skills={"Melee": 4, "Wrestle/Disarm": 8}, talents={"Wrestle/Disarm": 8}),
         char("b", "y", skills={"Melee": 4}), char("c", "y", **TOUGH)],
        [[act("b", "Melee", "a")], [act("a", "Melee", "c")], [act("a", "Melee", "c"), act("b", "Melee", "a")]],
    )
    healed = [(e.turn, e.data["who"]) for e in of(events, "healed")]
    assert healed == [(2, "a")]  # turn 3: a causes losses but also suffers one: no healing


def test_L3_wrestle_talent_adds_major_losses():
    m, events = play_data(
        [char("a", "x", skills={"Melee": 6}), char("t", "y", skills={"Wrestle": 3}, talents={"Wrestle/Disarm": 2})],
        [[act("a", "Melee", "t")]],
    )
    assert m.state["t"].major == 4 and m.state["t"].defeated  # 2 + 2 talent
    m2, _ = play_data(
        [char("a", "x", skills={"Melee": 5}), char("t", "y", skills={"Wrestle": 3}, talents={"Wrestle/Disarm": 2})],
        [[act("a", "Melee", "t")]],
    )
    assert m2.state["t"].major == 3 and not m2.state["t"].defeated


def test_L4_fragile_and_deadly():
    m, _ = play_data([char("a", "x", skills={"Melee": 2}), char("f", "y", fragile=True)], [[act("a", "Melee", "f")]])
    assert m.state["f"].defeated and m.state["f"].major == 0
    m, events = play_data([char("d", "x", skills={"Melee": 2}, deadly=True), char("p", "y")],
                          [[act("d", "Melee", "p")]])
    assert m.state["p"].defeated and "deadly" in of(events, "defeated")[0].text


def test_L5_major_losses_penalise_skills_or_movement():
    chars = [char("a", "x", skills={"Melee": 5, "Block": 3}), char("b", "y", skills={"Melee": 6, "Dodge": 1})]
    turns = [[act("b", "Melee", "a"), act("a", "Block", "b")], [act("a", "Melee", "b"), act("b", "Dodge", "a")]]
    m, events = play_data(chars, turns)
    last = of(events, "contest", 2)[0].data["attack"]
    assert last["losses"] == -1 and last["value"] == 4  # 3 losses in turn 1 -> 1 major -> -1 (L5)
    m, events = play_data(chars, turns, rules={"major_loss_penalty": "movement"})
    assert of(events, "contest", 2)[0].data["attack"]["value"] == 5


def test_O1_perception_lasting_and_O6_shared():
    m, events = play_data(
        [char("p", "x", skills={"Perception": 4}), char("ally", "x", skills={"Melee": 3}),
         char("foe", "y", observe_tn={"Perception": 4}, **TOUGH)],
        [[act("p", "Perception", "foe", share=True)], [act("ally", "Melee", "foe")], [act("ally", "Melee", "foe")]],
    )
    assert of(events, "shared")
    assert of(events, "contest", 2)[0].data["attack"]["value"] == 4
    assert of(events, "contest", 3)[0].data["attack"]["value"] == 4  # lasts the combat (O1)


def test_O1_default_target_number_and_lore_covers_kind():
    m, events = play_data(
        [char("v", "x", skills={"Lore": 4}), char("g1", "y", kind="goblin"), char("g2", "y", kind="goblin"),
         char("o", "y", kind="orc")],
        [[act("v", "Lore", "g1")]],
    )
    assert of(events, "check")[0].data["tn"] == 4  # house default (O1)
    assert {a.vs for a in m.state["v"].advantages} == {"g1", "g2"}


def test_O3_intuition_next_turn_only():
    m, events = play_data(
        [char("i", "x", skills={"Intuition": 4, "Melee": 2}), char("foe", "y", **TOUGH)],
        [[act("i", "Intuition", "foe")], [act("i", "Melee", "foe")], [act("i", "Melee", "foe")]],
    )
    assert of(events, "contest", 2)[0].data["attack"]["value"] == 4
    assert of(events, "contest", 3)[0].data["attack"]["value"] == 2


def test_O4_stealth_found_by_higher_perception_and_distraction_gives_two():
    m, events = play_data(
        [char("h", "x", skills={"Stealth": 3}), char("ally", "x", skills={"Melee": 2}),
         char("e", "y", skills={"Perception": 4})],
        [[act("h", "Stealth", "e"), act("e", "Perception")]],
    )
    assert of(events, "found") and not m.state["h"].advantages
    m, events = play_data(
        [char("h", "x", skills={"Stealth": 3}), char("ally", "x", skills={"Melee": 2}),
         char("e", "y", skills={"Perception": 4})],
        [[act("h", "Stealth", "e"), act("ally", "Melee", "e")]],
    )
    # not searching: Perception halved to 2 (O2); distracted by an ally: +2 next turn (O4)
    assert of(events, "hidden")[0].data["perception"]["value"] == 2
    assert [(a.value, a.turn) for a in m.state["h"].advantages] == [(2, 2)]


def test_O4_tie_finds_a_moving_hider():
    _, events = play_data(
        [char("h", "x", skills={"Stealth": 3}), char("e", "y", skills={"Perception": 3})],
        [[act("h", "Stealth", "e", to=[1, 1]), act("e", "Perception", "h")]],
    )
    assert of(events, "found")


def test_O5_wonder_advance_and_intimidation():
    m, events = play_data(
        [char("w", "x", skills={"Wonder": 4, "Melee": 5}), char("hurt", "y", **TOUGH),
         char("fresh", "y", skills={"Wonder": 1})],
        [[act("w", "Melee", "hurt")], [act("w", "Wonder")], [act("w", "Wonder", "fresh")]],
    )
    assert {a.vs for a in m.state["w"].advantages} == {"hurt"}
    c = of(events, "contest", 3)[0].data
    assert c["defense"]["skill"] == "Wonder" and c["defense"]["value"] == 1 and c["attack"]["value"] == 4


def test_L3_an_intent_legal_last_turn_is_checked_again_once_its_target_is_defeated():
    """validate_intent remembers what it found legal against one state; a new state is a new question."""
    import pytest

    from battlemat.core.errors import IllegalIntent
    from battlemat.core.intents import Intent
    from battlemat.core.resolver import validate_intent

    m, _ = play_data([char("a", "x", skills={"Melee": 5}), char("b", "y"), char("c", "x", skills={"Melee": 1})], [])
    strike = Intent("c", "melee", "b")
    before = m.state
    assert validate_intent(m.encounter, before, strike).use == "Melee"  # canonical spelling (S1)
    m.play([Intent("a", "Melee", "b")])
    assert m.state["b"].defeated
    with pytest.raises(IllegalIntent, match="already out of the fight"):
        validate_intent(m.encounter, m.state, strike)
    assert validate_intent(m.encounter, before, strike).use == "Melee"  # the old state still allows it
