"""The bundled encounters play their scripted turns on their maps, movement included (M4, M5, M7,
M9, M12, R4, R5, R6, C3, C5)."""

from __future__ import annotations

from conftest import ROOT, of, play_file

MAPS = ROOT / "maps"


def moved(events, who, turn=None):
    return [tuple(e.data["to"]) for e in of(events, "moved", turn) if e.data["who"] == who]


def test_boulder_field_climb_then_dive_from_higher_ground_M12_R5_C3():
    match, events = play_file(MAPS / "boulder_field.toml")
    assert moved(events, "kwirt", 1) == [(8, 6)]  # a Climb step up ends the move (M12)
    dive = of(events, "contest", 2)[0].data
    kwirt = dive["attack"] if dive["attackers"] == ["kwirt"] else dive["defense"]
    assert [m["rule"] for m in kwirt["situational"]] == ["R5"] and kwirt["matchup"] == 1
    assert dive["kind"] == "interfere" and dive["winner"] == "tie"
    assert of(events, "contest", 3)[0].data["winner"] == "defense"  # Dodge 5 holds Melee 4 (C5)
    assert match.state["kwirt"].at == (8, 6) and match.state["kwirt"].minor == 2


def test_forest_ambush_jump_the_creek_and_sight_from_the_ridge_M5_R4_R5():
    match, events = play_file(MAPS / "forest_ambush.toml")
    (jump,) = of(events, "jumped", 1)
    assert jump.data["who"] == "tobin" and [tuple(o) for o in jump.data["over"]] == [(7, 9)]
    assert match.state["tobin"].at != (6, 9)
    blocked = [e for e in of(events, "no_effect", 1) if "R4" in e.rules]
    assert blocked, "an archer on the ridge has no line of sight to Aldric (R4)"
    shot = [e.data for e in of(events, "contest", 1) if e.data["defenders"] == ["tobin"]][0]
    assert "R5" in [m["rule"] for m in shot["attack"]["situational"]]  # shooting down from the ridge
    assert moved(events, "aldric", 2)  # the charge moves (M7) even when it falls short


def test_bridge_hex_block_holds_against_the_archers_R4_R6_C5():
    match, events = play_file(MAPS / "bridge_hex.toml")
    assert moved(events, "brunna", 1) == [(6, 4)] and moved(events, "odo", 1) == [(7, 7)]
    assert any("R4" in e.rules for e in of(events, "no_effect", 1))
    on_brunna = [e.data for e in of(events, "contest", 1) if e.data["defenders"] == ["brunna"]]
    assert on_brunna and on_brunna[0]["defense"]["skill"] == "Block" and not on_brunna[0]["defense"]["halved"]
    assert any(a["rule"] == "R6" for a in on_brunna[0]["attack"]["adjustments"])
    assert match.state["brunna"].losses == 0
