"""NPC tactics (battlemat.ai): legal intents always (property test), and each tactic's signature move."""

from __future__ import annotations

import random

from conftest import EXAMPLES, act, char, play_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlemat.ai import TACTICS, Brain
from battlemat.ai.view import Memory, View
from battlemat.core.match import Match
from battlemat.core.resolver import validate_intent
from battlemat.io.encounter import load_encounter, parse_encounter

PAIRS = ["Melee/Press", "Shoot/Throw", "Wrestle/Disarm", "Block/Dodge", "Exit/Escape", "Perception/Etiquette",
         "Identify/Lore", "Intuition/Provoke", "Stealth/Track", "Bargain/Wonder", "Machinery"]

characters = st.lists(
    st.fixed_dictionaries({
        "skills": st.dictionaries(st.sampled_from(PAIRS), st.integers(0, 8), max_size=6),
        "ai": st.sampled_from(sorted(TACTICS)),
        "side": st.sampled_from(["a", "b", "c"]),
    }),
    min_size=2, max_size=6,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(characters, st.integers(0, 2**32), st.sampled_from(["none", "d6"]))
def test_every_tactic_idea_is_legal_turn_after_turn(chars, seed, dice):
    data = {"encounter": {"title": "prop", "dice": dice},
            "character": [{"id": f"c{i}", **c} for i, c in enumerate(chars)]}
    enc = parse_encounter(data, "<prop>")
    match = Match(enc, seed=seed)
    brain = Brain(enc, match.memory)
    for _ in range(6):
        if match.outcome().over:
            break
        for c in enc.characters:
            if not match.state[c.id].active:
                continue
            view = View.of(match.state, c, random.Random(seed), Memory(), match.memory)
            idea = TACTICS[c.ai or "default"](view)
            if idea is not None:
                validate_intent(enc, match.state, idea)  # raises IllegalIntent if a tactic cheats
        match.play(brain.decide(match.state, match.rng))


def test_scripted_lizard_melee_until_major_then_one_press():
    lizard = load_encounter(EXAMPLES / "kwirt_and_the_lizard.toml").by_id["lizard"]
    assert [s.use for s in lizard.script] == ["Melee", "Press", "Melee"]
    enc = parse_encounter({"encounter": {"title": "t"}, "character": [
        {"id": "prey", "side": "x", "skills": {"Wrestle/Disarm": 8, "Melee": 1}, "talents": {"Wrestle/Disarm": 8}},
        {"id": "lizard", "side": "y", "skills": {"Melee": 3}, "ai": "scripted",
         "script": [{"use": s.use, "until": s.until, "turns": s.turns} for s in lizard.script]},
    ]}, "<t>")
    match = Match(enc)
    brain = Brain(enc)
    uses = []
    for _ in range(4):
        (intent,) = brain.decide(match.state, match.rng, who=["lizard"])
        uses.append(intent.use)
        match.play([intent])
    # Turn 1: Melee 3 vs an idle prey -> 2 minor, 1 major; then one Press; then Melee again.
    assert uses == ["Melee", "Press", "Melee", "Melee"]


def test_coward_exits_after_a_major_loss():
    m, _ = play_data([char("c", "x", skills={"Melee": 2, "Exit": 2}, ai="coward"), char("o", "y", skills={"Melee": 3})],
                     [[act("o", "Melee", "c")]])
    assert m.state["c"].major == 1
    (intent,) = Brain(m.encounter).decide(m.state, m.rng, who=["c"])
    assert intent.use == "Exit"


def test_observer_opens_with_perception_on_the_strongest_and_shares():
    enc = parse_encounter({"encounter": {"title": "t"}, "character": [
        {"id": "o", "side": "x", "skills": {"Perception": 4, "Melee": 3}, "ai": "observer"},
        {"id": "weak", "side": "y", "skills": {"Melee": 1}},
        {"id": "strong", "side": "y", "skills": {"Melee": 6}},
    ]}, "<t>")
    match = Match(enc)
    brain = Brain(enc)
    (first,) = brain.decide(match.state, match.rng, who=["o"])
    assert (first.use, first.target, first.share) == ("Perception", "strong", True)
    (second,) = brain.decide(match.state, match.rng, who=["o"])
    assert second.use in ("Melee", "Press")


def test_guardian_blocks_strongest_without_allies():
    enc = parse_encounter({"encounter": {"title": "t"}, "character": [
        {"id": "g", "side": "x", "skills": {"Block": 4, "Melee": 3}, "ai": "guardian"},
        {"id": "weak", "side": "y", "skills": {"Melee": 1}},
        {"id": "strong", "side": "y", "skills": {"Shoot": 6}},
    ]}, "<t>")
    match = Match(enc)
    (i,) = Brain(enc).decide(match.state, match.rng, who=["g"])
    assert (i.use, i.target) == ("Block", "strong")


def test_archer_shoots():
    enc = parse_encounter({"encounter": {"title": "t"}, "character": [
        {"id": "a", "side": "x", "skills": {"Shoot": 4}, "ai": "archer"},
        {"id": "f", "side": "y", "skills": {"Melee": 3}},
    ]}, "<t>")
    match = Match(enc)
    (i,) = Brain(enc).decide(match.state, match.rng)[:1]
    assert (i.use, i.target) == ("Shoot", "f")


def test_same_seed_same_ai_choices():
    enc = load_encounter(EXAMPLES.parent / "art_gallery.toml")
    runs = []
    for _ in range(2):
        match = Match(enc, seed=5)
        brain = Brain(enc)
        seen = []
        for _ in range(3):
            intents = brain.decide(match.state, match.rng)
            seen.append([i.to_dict() for i in intents])
            match.play(intents)
        runs.append(seen)
    assert runs[0] == runs[1]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(0, 2**32), st.integers(1, 4),
       st.sampled_from([0.0, 0.2, 0.8, 1.0]))
def test_level_change_lookup_matches_looking_around_every_square(w, h, seed, r, raised):
    """M12: the brawler's 'could a Climb help here?' table (movement.level_changes_near) says yes
    exactly where some square within r in x and y lies on another level, edges included."""
    import numpy as np

    from battlemat.core.board import Board
    from battlemat.core.movement import level_changes_near

    rng = np.random.default_rng(seed)
    level = (rng.random((h, w)) < raised).astype(np.int8) * rng.integers(1, 3)  # some squares up 1 or 2
    board = Board(w, h, level=level)
    for y in range(h):
        for x in range(w):
            around = level[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
            assert level_changes_near(board, (x, y), r) == bool((around != level[y, x]).any()), (x, y)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=9), st.integers(0, 2**32))
def test_weighted_choice_draws_as_random_choices(weights, seed):
    """The AI's weighted pick (nearest foe, archer's target) is Random.choices without its checks:
    the same pick and the same draws from the match's one rng, so seeded fights stay as they were."""
    from battlemat.ai.view import weighted_choice

    population = [f"c{i}" for i in range(len(weights))]
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(5):
        assert weighted_choice(ours, population, weights) == theirs.choices(population, weights=weights)[0]
    assert ours.random() == theirs.random()
