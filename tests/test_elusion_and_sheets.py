"""E1 elusion checks and S4 character sheets."""

from __future__ import annotations

import pytest

from battlemat.core.board import Hazard
from battlemat.core.character import Character, Equipment
from battlemat.core.elusion import elude, parse_requirements
from battlemat.core.errors import RulesError
from battlemat.io.rules_file import load_rules

RULES = load_rules()


def test_E1_parse_floor_trap():
    reqs = parse_requirements("Floor Trap [Block/Dodge 4 or Perception 3]", RULES)
    assert reqs == (("Block/Dodge", 4), ("Perception/Etiquette", 3))
    with pytest.raises(RulesError):
        parse_requirements("Swordplay 3", RULES)
    with pytest.raises(RulesError):
        parse_requirements("Acrobatics four", RULES)


@pytest.mark.parametrize(
    "skills,equipment,using,exempt,harm",
    [
        ({"Block/Dodge": 4}, (), None, True, 0),
        ({"Perception/Etiquette": 3}, (), "Perception", True, 0),
        ({"Perception/Etiquette": 3}, (), None, False, 2),  # O2: passive Perception is halved
        ({"Perception/Etiquette": 6}, (), "Dodge", True, 0),
        ({"Block/Dodge": 3, "Perception/Etiquette": 2}, (), "Perception", False, 2),
        ({"Block/Dodge": 3}, (Equipment("magic shield", "Block/Dodge", 1),), None, True, 0),
    ],
)
def test_E1_any_requirement_exempts(skills, equipment, using, exempt, harm):
    c = Character("c", "C", "x", skills=skills, equipment=equipment)
    result = elude(c, Hazard("trap", parse_requirements("Block/Dodge 4 or Perception 3", RULES), 2), RULES, using=using)
    assert (result.exempt, result.harm) == (exempt, harm)


def test_E1_major_losses_and_partial_elusion():
    c = Character("c", "C", "x", skills={"Acrobatics/Climb": 4})
    cliff = Hazard("cliff", parse_requirements("Acrobatics 4", RULES), 3)
    assert not elude(c, cliff, RULES, major_losses=1).exempt  # L5: -1 to skills
    partial = RULES.with_overrides({"partial_elusion": True})
    assert elude(c, cliff, partial).harm == 1


def test_S4_new_pc_and_experience():
    skills = dict.fromkeys(["Melee/Press", "Block/Dodge", "Exit/Escape", "Perception/Etiquette"], 4)
    skills.update(dict.fromkeys(["Shoot/Throw", "Acrobatics/Climb", "Identify/Lore", "Stealth/Track"], 3))
    skills.update({"Wrestle/Disarm": 3, "Bargain/Wonder": 2, "Intuition/Provoke": 2, "Animals/Wilderness": 3,
                   "Alchemy": 1, "Machinery": 1, "Chemistry": 0, "Transmutery": 0})
    assert sum(skills.values()) == 40
    pc = Character("pc", "PC", "x", skills=skills)
    assert pc.new_pc_problems() == [] and pc.experience() == 0
    veteran = Character("v", "V", "x", skills={**skills, "Melee/Press": 6}, talents={"Melee/Press": 2})
    assert len(veteran.new_pc_problems()) == 3 and veteran.experience() == 4
