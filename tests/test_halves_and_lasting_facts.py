"""A half is not its pair (S5, S3) and what a character suffered in the combat is remembered (O5, L4):
issue 28 items 1 and 3, beside the rule cases that pin them (cases/S5_a_bow_helps_shoot_not_throw.toml,
cases/O5_a_foe_who_healed_stays_nervous.toml, cases/L4_a_fragile_foe_counts_the_losses_it_healed.toml,
cases/O4_a_flanked_foe_gives_plus_two.toml, cases/C5_an_exit_with_a_target_stops_the_runner.toml)."""

from __future__ import annotations

from battlemat.core.board import Hazard
from battlemat.core.character import Character, Equipment
from battlemat.core.elusion import elude
from battlemat.core.rating import standing
from battlemat.core.state import CharacterState
from battlemat.io.rules_file import load_rules

RULES = load_rules()
SHIELD = Equipment("tower shield", "Block/Dodge", 2, half="Block")
TRAP = Hazard("Floor Trap [Block/Dodge 4]", (("Block/Dodge", 4),), 2)


def _guard(*items: Equipment) -> Character:
    return Character("g", "Guard", "x", skills={"Block/Dodge": 3}, equipment=items)


def test_S5_an_item_named_for_a_half_helps_that_half_only() -> None:
    g = _guard(SHIELD)
    assert standing(RULES, g, "Block") == 5 and standing(RULES, g, "Dodge") == 3
    assert standing(RULES, g, "Block/Dodge") == 3  # the pair as a whole: a half's item is not in use
    assert g.equipment_bonus("Block/Dodge", "Block") == (2, "tower shield, for Block")


def test_S5_an_item_named_for_the_pair_helps_both_halves_and_the_best_applies() -> None:
    g = _guard(SHIELD, Equipment("light buckler", "Block/Dodge", 1))
    assert standing(RULES, g, "Dodge") == 4 and standing(RULES, g, "Block") == 5
    assert g.equipment_bonus("Block/Dodge", "Dodge") == (1, "light buckler")


def test_E1_S5_a_shield_for_block_helps_elude_only_while_blocking() -> None:
    """Text line 158: a magic shield's bonus does not help avoid a javelin trap when it is strapped to
    the back instead of wielded. Blocking, 3 + 2 >= 4 eludes; dodging or idle, 3 does not."""
    g = _guard(SHIELD)
    assert elude(g, TRAP, RULES, 0, "Block").exempt
    assert not elude(g, TRAP, RULES, 0, "Dodge").exempt
    assert not elude(g, TRAP, RULES, 0, None).exempt


def test_O5_L4_what_was_suffered_outlasts_healing() -> None:
    """`suffered` never falls below the losses a character has, and healing (fewer minor losses) keeps it."""
    s = CharacterState(minor=2, major=1)
    assert s.suffered == 3
    healed = s.with_(minor=1)
    assert healed.losses == 2 and healed.suffered == 3
    assert CharacterState().suffered == 0 and CharacterState(minor=1).with_(minor=2).suffered == 2
