"""One reader for encounters (issue 28 item 4): every command reads an encounter through
`io.encounter.load_encounter`, inline `[map]` and all; characters may start with losses already taken
(L1, O5); a target on a half that takes none is refused with its rule; rule cases run from the command
line (`battlemat case --run`)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import act, char, play_data

from battlemat.cli import main
from battlemat.core.errors import IllegalIntent
from battlemat.core.intents import Intent
from battlemat.io.encounter import load_encounter
from battlemat.io.errors import LoadError

ROOT = Path(__file__).resolve().parent.parent

INLINE = """
[encounter]
title = "inline"
seed = 3

[map]
rows = [
  "......",
  "..#...",
  "......",
]

[[character]]
id = "kwirt"
side = "heroes"
skills = { "Melee/Press" = 3 }
at = [0, 1]
minor = 2
major = 1

[[character]]
id = "lizard"
side = "beasts"
skills = { "Melee/Press" = 4 }
at = [4, 1]

[[turn]]
[[turn.intent]]
who = "kwirt"
use = "Melee"
target = "lizard"
to = [1, 0]
"""


@pytest.fixture
def inline(tmp_path: Path) -> Path:
    path = tmp_path / "inline.toml"
    path.write_text(INLINE, encoding="utf-8")
    return path


def test_P2_an_inline_map_encounter_plays_in_every_command(inline: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`check` accepted it; `resolve`, `reach` and `simulate` refused it ("unknown table 'map'"). Now one
    reader: every command reads it, the wall of its rows is a wall (M1)."""
    assert main(["check", str(inline)]) == 0
    assert main(["resolve", str(inline), "--json"]) == 0
    out = capsys.readouterr().out
    assert '"type": "moved"' in out and "unknown table" not in out
    assert main(["reach", str(inline), "--who", "kwirt", "--use", "Melee", "--json"]) == 0
    reach = json.loads(capsys.readouterr().out)
    assert "[2, 1]" not in json.dumps(reach.get("reachable", reach))  # the wall
    assert main(["simulate", str(inline), "--runs", "2", "--seed", "1"]) == 0
    enc = load_encounter(inline)
    assert enc.board is not None and enc.board.blocked[1, 2]


def test_L1_an_encounter_starts_with_losses_already_taken(inline: Path) -> None:
    """`minor` and `major` on a character: the start state has them (L1), and they count as suffered in
    this combat (O5's nervous foes, L4)."""
    enc = load_encounter(inline)
    s = enc.initial_state()["kwirt"]
    assert (s.minor, s.major, s.suffered) == (2, 1, 3)


def test_L1_L3_starting_losses_out_of_range_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(INLINE.replace("minor = 2", "minor = 3").replace("major = 1", "major = 2"), encoding="utf-8")
    with pytest.raises(LoadError) as err:
        load_encounter(path)
    text = str(err.value)
    assert "minor losses run 0..2 (L1)" in text and "L3: defeat at 2" in text and "kwirt" in text


def test_O5_a_foe_who_started_wounded_is_nervous() -> None:
    chars = [char("witch", "a", skills={"Bargain/Wonder": 4}), char("b", "b", skills={"Melee/Press": 3}, minor=1)]
    m, _ = play_data(chars, [[act("witch", "Wonder")]])
    assert [a.vs for a in m.state["witch"].advantages] == ["b"]


def test_M1_a_target_on_a_half_that_takes_none_is_refused() -> None:
    """Acrobatics only moves (act none in the rules data): a target on it does nothing, so it is refused
    with the half's phase rule and the fix; a half that acts on someone keeps its target."""
    chars = [char("a", "x", skills={"Acrobatics/Climb": 3}), char("b", "y", skills={"Melee/Press": 3})]
    m, _ = play_data(chars, [])
    with pytest.raises(IllegalIntent) as err:
        m.play([Intent("a", "Acrobatics", "b")])
    assert err.value.rule == "P2" and "takes no target" in err.value.reason and err.value.field == "target"
    m.play([Intent("b", "Melee", "a")])  # a half that acts on someone keeps its target


def test_C5_an_exit_may_not_pursue_an_ally() -> None:
    chars = [char("a", "x", skills={"Exit/Escape": 3}), char("b", "x", skills={"Exit/Escape": 3}),
             char("c", "y", skills={"Melee/Press": 3})]
    with pytest.raises(IllegalIntent) as err:
        play_data(chars, [[act("a", "Exit", "b")]])
    assert err.value.rule == "C5" and "enemy" in err.value.reason


def test_C2_case_run_passes_and_exits_one_on_a_wrong_outcome(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """`battlemat case --run FILE...`: every case of cases/ passes (exit 0); a case whose expected
    outcome is wrong exits 1 and prints the difference and that turn's events."""
    good = ROOT / "cases" / "C2_the_difference_is_the_losses.toml"
    assert main(["case", "--run", str(good)]) == 0
    assert f"ok: {good}" in capsys.readouterr().out
    text = good.read_text(encoding="utf-8")
    bad = tmp_path / "C2_wrong.toml"
    shutil.copy(good, bad)
    changed = re.sub(r"minor = (\d)", lambda m: f"minor = {int(m.group(1)) + 1}", text, count=1)
    assert changed != text
    bad.write_text(changed, encoding="utf-8")
    assert main(["case", "--run", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "expected" in out and "got" in out and "events of turn" in out and "1 not as expected" in out
    assert main(["case", "--run", str(tmp_path / "missing.toml")]) == 2


def test_the_whole_case_suite_runs_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in (ROOT / "cases").glob("*.toml"))
    assert main(["case", "--run", *files]) == 0
    assert "every outcome as expected" in capsys.readouterr().out


def test_M1_check_refuses_a_target_on_a_half_that_takes_none(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The reader says so before any turn is played: `check` lists it with the place and the fix."""
    path = tmp_path / "acro.toml"
    path.write_text(INLINE.replace('use = "Melee"\ntarget = "lizard"', 'use = "Acrobatics"\ntarget = "lizard"'),
                    encoding="utf-8")
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr().out
    assert "turn[0].intent[0].target" in out and "Acrobatics takes no target" in out and "P2" in out
