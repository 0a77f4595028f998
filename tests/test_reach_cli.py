"""`battlemat reach` on a tiny Tiled map written in a temporary directory (DESIGN: commands; M1, M7, M10)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from battlemat.cli import main

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="6" height="5"
     tilewidth="32" tileheight="32" infinite="0" nextlayerid="2" nextobjectid="1">
 <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="2" columns="2">
  <tile id="1"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="6" height="5">
  <data encoding="csv">
1,1,1,2,1,1,
1,1,1,2,1,1,
1,1,1,1,1,1,
1,1,1,2,1,1,
1,1,1,2,1,1
</data>
 </layer>
</map>
"""

ENC = """
[encounter]
title = "tiny"
map = "m.tmx"
[[character]]
id = "ada"
name = "Ada"
side = "heroes"
skills = { "Melee/Press" = 3 }
at = [1, 2]
[[character]]
id = "orc"
name = "Orc"
side = "monsters"
skills = { "Melee/Press" = 2 }
at = [5, 2]
"""


@pytest.fixture
def encounter(tmp_path: Path) -> Path:
    if importlib.util.find_spec("battlemat.io.maps") is None:
        pytest.skip("map loading (battlemat.io.maps) is not there yet")
    (tmp_path / "m.tmx").write_text(TMX)
    (tmp_path / "e.toml").write_text(ENC)
    return tmp_path / "e.toml"


def test_reach_json_lists_costs_and_rule_ids(encounter, capsys):
    assert main(["reach", str(encounter), "--who", "ada", "--use", "Melee", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reachable"]["1,2"] == 0 and out["reachable"]["3,2"] == 2
    assert out["unreachable"]["3,1"] == "M1: blocked (wall)"
    assert out["unreachable"]["4,2"].startswith("M1:")  # allowance 2
    assert set(out) == {"reachable", "unreachable"}


def test_reach_press_charges_M7(encounter, capsys):
    assert main(["reach", str(encounter), "--who", "ada", "--use", "Press", "--target", "orc", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reachable"] == {"4,2": 3}
    assert out["unreachable"]["5,2"] == "M10: occupied by Orc (M10)"
    assert out["unreachable"]["2,1"].startswith("M7: Press charges Orc")


def test_reach_text_map(encounter, capsys):
    assert main(["reach", str(encounter), "--who", "ada", "--use", "Melee"]) == 0
    text = capsys.readouterr().out
    assert "allowance 2" in text and "@" in text and "#" in text and "5,2: M10: occupied by Orc (M10)" in text


def test_reach_bad_input_exit_2(encounter, capsys):
    assert main(["reach", str(encounter), "--who", "nobody", "--use", "Melee"]) == 2
    assert main(["reach", str(encounter), "--who", "ada", "--use", "Flying"]) == 2
    assert "battlemat" in capsys.readouterr().err
