"""Same encounter + seed + intents -> identical event log (DESIGN: determinism), with and without dice."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES

from battlemat.cli import main


def log(capsys, *args):
    assert main(["resolve", *args, "--json"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("dice", ["none", "d6", "d8", "d10"])
def test_same_seed_same_json_log(capsys, dice):
    path = str(EXAMPLES / "kwirt_and_the_lizard.toml")
    first = log(capsys, path, "--dice", dice, "--seed", "11")
    second = log(capsys, path, "--dice", dice, "--seed", "11")
    assert first == second and first.count("\n") > 10


def test_dice_seeds_differ(capsys):
    path = str(EXAMPLES / "kwirt_and_the_lizard.toml")
    logs = {log(capsys, path, "--dice", "d10", "--seed", str(s)) for s in range(4)}
    assert len(logs) > 1  # the seed really drives the dice


def test_json_shape(capsys):
    lines = [json.loads(line) for line in log(capsys, str(EXAMPLES / "valtor_barely_exit.toml")).splitlines()]
    assert all({"turn", "phase", "type"} <= set(d) for d in lines[:-1])
    ends = [d for d in lines if d.get("type") == "turn_end"]
    assert ends and ends[0]["state"]["valtor"] == {"minor": 0, "major": 0, "defeated": False, "fled": True, "at": None}
    assert lines[-1] == {"final": ends[-1]["state"]}
