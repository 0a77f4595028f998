"""Bad input gets one clear message (file, field, fix), exit code 2 and no traceback (DESIGN quality bars)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from battlemat.cli import main

GOOD = """
[encounter]
title = "t"
dice = "none"
[[character]]
id = "a"
side = "x"
skills = { Melee = 3 }
[[character]]
id = "b"
side = "y"
skills = { Melee = 1 }
[[turn]]
[[turn.intent]]
who = "a"
use = "Melee"
target = "b"
"""

CASES = [
    ("malformed_toml", GOOD.replace('title = "t"', "title = "), ["not valid TOML", "line"]),
    ("unknown_skill", GOOD.replace("skills = { Melee = 3 }", "skills = { Swordplay = 3 }"),
     ["character[0] 'a'.skills.'Swordplay'", "unknown skill", "Fix:"]),
    ("rating_out_of_range", GOOD.replace("Melee = 3", "Melee = 9"), ["skills.'Melee'", "0..8", "Fix:"]),
    ("talent_above_base", GOOD.replace("skills = { Melee = 3 }", 'skills = { Melee = 3 }\ntalents = { Melee = 4 }'),
     ["talents.'Melee/Press'", "above the base rating", "Fix:"]),
    ("unknown_who", GOOD.replace('who = "a"', 'who = "zed"'), ["turn[0].intent[0].who", "unknown character 'zed'"]),
    ("duplicate_id", GOOD.replace('id = "b"', 'id = "a"'), ["character[1]", "duplicate id 'a'", "Fix:"]),
    ("missing_target", GOOD.replace('target = "b"', 'target = "nobody"'), ["turn[0].intent[0].target", "'nobody'"]),
    ("unknown_dice", GOOD.replace('dice = "none"', 'dice = "d7"'), ["encounter.dice", "unknown dice 'd7'", "d10"]),
    ("unknown_use", GOOD.replace('use = "Melee"', 'use = "Fireball"'), ["turn[0].intent[0].use", "unknown skill"]),
    ("pair_as_use", GOOD.replace('use = "Melee"', 'use = "Melee/Press"'), ["turn[0].intent[0].use", "one half"]),
    ("unknown_rules_key", GOOD + '\n[rules]\nflanking_bonus = 3\n', ["rules", "unknown rules key", "battlemat rules"]),
    ("wrong_rules_type", GOOD + '\n[rules]\ndiagonals = 3\n', ["rules", "diagonals"]),
    ("bad_modifier", GOOD.replace('target = "b"', 'target = "b"\nmodifiers = [ { value = 3, reason = "x" } ]'),
     ["modifiers[0].value", "S6"]),
    ("defeated_acts", GOOD.replace("Melee = 3", "Melee = 8") + textwrap.dedent("""
        [[character]]
        id = "c"
        side = "y"
        [[turn]]
        [[turn.intent]]
        who = "b"
        use = "Melee"
        target = "a"
        """), ["turn[1].intent[0]", "defeated", "L3", "Fix:"]),
]


@pytest.mark.parametrize("name,text,needles", CASES, ids=[c[0] for c in CASES])
def test_bad_encounter_exits_2_with_clear_message(tmp_path, capsys, name, text, needles):
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    before = path.read_bytes()
    assert main(["resolve", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err
    for needle in needles:
        assert needle in err, err
    assert "Traceback" not in err
    assert path.read_bytes() == before  # nothing saved is damaged


def test_good_encounter_resolves(tmp_path, capsys):
    path = tmp_path / "good.toml"
    path.write_text(GOOD)
    assert main(["resolve", str(path)]) == 0
    assert "suffers 3 losses" in capsys.readouterr().out


def test_missing_file_and_no_traceback_in_a_real_process(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "battlemat", "resolve", str(tmp_path / "nope.toml")],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 2
    assert "file not found" in proc.stderr and "Traceback" not in proc.stderr


def test_unknown_rule_id(capsys):
    assert main(["rules", "Z9"]) == 2
    assert "no rule 'Z9'" in capsys.readouterr().err


def test_list_fields_name_the_entry(tmp_path, capsys):
    extra = '\nequipment = [ { name = "axe", skill = "Melee", bonus = 1, sharp = true } ]\nscript = "Melee"'
    text = GOOD.replace("skills = { Melee = 3 }", "skills = { Melee = 3 }" + extra)
    path = tmp_path / "lists.toml"
    path.write_text(text)
    assert main(["resolve", str(path)]) == 2
    err = capsys.readouterr().err
    assert "character[0] 'a'.equipment[0].sharp" in err and "unknown field 'sharp'" in err
    assert "character[0] 'a'.script" in err and "list of tables" in err
