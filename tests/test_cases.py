"""Rule cases as data (issue 16 item 12): every file of `cases/` played and held to what it states.

A case marked `xfail` in its file is expected to fail (strictly: it must flip once the engine is
fixed). The coverage test asks for a case for every rule ID; the runner's own tests show it can
fail, and say where.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from conftest import ROOT, SHARED

from battlemat import cli
from battlemat.io.cases import load_case, parse_case
from battlemat.io.errors import LoadError
from battlemat.io.rules_file import load_rules
from battlemat.io.saves import Save, write_save
from battlemat.teach.rule_cases import cited_rules, run_case

CASES = ROOT / "cases"
FILES = sorted(CASES.glob("*.toml"))


def _param(path: Path) -> object:
    """A case file as a test, xfailed when its [case] table says why today's engine disagrees.
    Only a failed expectation counts as the expected failure: a case that does not load fails."""
    try:
        reason = tomllib.loads(path.read_text(encoding="utf-8")).get("case", {}).get("xfail", "")
    except (OSError, tomllib.TOMLDecodeError):
        reason = ""
    marks = [pytest.mark.xfail(reason=reason, strict=True, raises=AssertionError)] if reason else []
    return pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_case(path: Path) -> None:
    run = run_case(load_case(path))
    assert run.ok, "\n" + run.report()


def test_there_are_at_least_60_cases() -> None:
    assert len(FILES) >= 60


def test_every_rule_id_is_expected_by_some_case() -> None:
    """Every ID of the rules data (which lists every ID of RULES.md: test_rules_table keeps them in
    step) appears in the `rules` a case expects to fire."""
    ids = set(load_rules().entries)
    path = SHARED / "RULES.md"
    if path.is_file():  # beside the clone in CI; the rules data is the package's copy of its IDs
        import re

        assert set(re.findall(r"^- \*\*([SPMRCOLED]\d{1,2})\b", path.read_text(), re.M)) == ids
    covered: set[str] = set()
    for f in FILES:
        covered |= load_case(f).rules
    assert not ids - covered, f"rule IDs no case expects: {sorted(ids - covered)}"


def test_every_case_says_what_it_is_about() -> None:
    for f in FILES:
        case = load_case(f)
        assert len(case.about.split()) >= 5, f"{f.name}: `about` is one line in words, citing the rule"
        assert len(f.stem.split("_")) >= 3, f"{f.name}: name a case by its rule and what happens"
        assert "\n" not in case.about.strip()


# -- the runner can fail, and says where --------------------------------------------------------------
def _kwirt(expect: str, intents: str = "") -> str:
    return f"""
[case]
about = "Melee 4 against Melee 2, each at the other: one contest, the lower side suffers the difference (C3)"
[[character]]
id = "kwirt"
side = "heroes"
skills = {{ Melee = 2 }}
[[character]]
id = "lizard"
side = "monsters"
skills = {{ Melee = 4 }}
[[turn]]
{intents or '''[[turn.intent]]
who = "kwirt"
use = "Melee"
target = "lizard"
[[turn.intent]]
who = "lizard"
use = "Melee"
target = "kwirt"'''}
[turn.expect]
{expect}
"""


def _run(text: str):  # type: ignore[no-untyped-def]
    return run_case(parse_case(tomllib.loads(text), "<test>", ROOT / "cases", "test"))


def test_a_met_expectation_passes() -> None:
    run = _run(_kwirt('rules = ["C3", "L1"]\nkwirt = { minor = 2, major = 0, defeated = false }'))
    assert run.ok, run.report()


def test_a_changed_expected_value_is_reported_with_turn_field_and_events() -> None:
    run = _run(_kwirt('rules = ["C2"]\nkwirt = { minor = 1 }'))
    assert not run.ok
    report = run.report()
    assert "turn 1: kwirt.minor: expected 1, got 2" in report
    assert "events of turn 1:" in report and "contest" in report


@pytest.mark.parametrize(
    "expect, words",
    [
        ('rules = ["C4"]', "rules ['C4'] cited"),
        ('not_rules = ["C3"]', "not_rules"),
        ('lizard = { at = [1, 1] }', "lizard.at"),
        ('kwirt = { defeated = true }', "kwirt.defeated: expected True, got False"),
        ('events = [ { type = "contest", margin = 3 } ]', "events[0]"),
        ('over = true', "over: expected True, got False"),
        ('refused = { rule = "C5" }', "refused"),
        ('kwirt = { advantages = [ { vs = "lizard", value = 1 } ] }', "kwirt.advantages"),
    ],
)
def test_every_kind_of_expectation_can_fail(expect: str, words: str) -> None:
    run = _run(_kwirt(expect))
    assert not run.ok and words in run.report()


def test_an_unexpected_refusal_is_reported() -> None:
    intents = '[[turn.intent]]\nwho = "lizard"\nuse = "Melee"\ntarget = "kwirt"\nalso = ["kwirt"]'
    run = _run(_kwirt("", intents))
    assert "refused: expected None, got 'C7:" in run.report()


def test_the_sheet_checks_fail_too() -> None:
    text = _kwirt("").replace('[[turn]]', '[sheet]\nrules = ["S1"]\nkwirt = { ratings = { Press = 3 } }\n[[turn]]')
    assert "sheet: kwirt.ratings.Press: expected 3, got 2" in _run(text).report()


def test_a_bad_case_names_the_place_and_the_fix() -> None:
    with pytest.raises(LoadError) as err:
        _run(_kwirt('rules = ["Q9"]\nnobody = { minor = 1 }'))
    text = str(err.value)
    assert "turn[0].expect.rules: no rule 'Q9'" in text
    assert "turn[0].expect.nobody: 'nobody' is no character of this case" in text and "Fix:" in text


def test_markers_cite_nothing_but_events_and_breakdowns_do() -> None:
    run = _run(_kwirt(""))
    fired = cited_rules(run.events[0])
    assert {"C3", "L1", "S2", "P4"} <= fired and "L2" not in fired  # L2 is only the turn_end marker's


# -- `battlemat case SAVE --turn N` -----------------------------------------------------------------------
def test_case_command_writes_a_case_that_passes(tmp_path: Path) -> None:
    """A save of a bundled encounter on its map; its second turn recorded as a case, which the runner passes."""
    from battlemat.io.encounter import load_encounter

    encounter = ROOT / "maps" / "boulder_field.toml"
    turns = load_encounter(encounter).turns
    save = write_save(Save(str(encounter), 1, None, turns), tmp_path / "game.json")
    out = tmp_path / "cases" / "recorded.toml"
    assert cli.main(["case", str(save), "--turn", "2", "-o", str(out)]) == 0
    text = out.read_text()
    assert "check by hand" in text.lower() and "[turn.expect]" in text
    case = load_case(out)
    assert case.start.turn == 2 and case.encounter.board is not None
    run = run_case(case)
    assert run.ok, run.report()
    assert {"R5", "S8"} <= case.rules  # Kwirt dives from the boulder: higher ground, Press against Melee


def test_case_command_refuses_a_turn_the_save_does_not_have(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = write_save(Save(str(ROOT / "maps" / "boulder_field.toml"), 1, None, ()), tmp_path / "g.json")
    assert cli.main(["case", str(save), "--turn", "1"]) == 2
    assert "the save has 0 turn(s)" in capsys.readouterr().err


def test_a_bad_inline_map_names_the_square_kind_and_the_fix() -> None:
    text = _kwirt("").replace("[[character]]", '[map]\nrows = ["..X", ".H."]\nlegend = { H = { level = "up" } }\n'
                              "[[character]]", 1)
    with pytest.raises(LoadError) as err:
        _run(text)
    assert "map.rows: 'X' is not in the legend" in str(err.value)
    assert "map.legend.'H'.level: level is a whole number -99..99, found 'up'" in str(err.value)


def test_an_inline_map_square_marked_mechanical_without_a_hazard_loads() -> None:
    """`mechanical` belongs to a hazard (O2); on its own it marks nothing, as harm alone does, and
    must not be taken for a terrain array of the board."""
    text = _kwirt("").replace("[[character]]", '[map]\nrows = ["...", ".M."]\nlegend = { M = { mechanical = true } }\n'
                              "[[character]]", 1)
    _run(text)
