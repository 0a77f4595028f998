"""`battlemat check FILE...`: every problem listed with file and place; exit 0 when clean, 2 otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT
from test_maps import Area, grid, layer, obj, objects, tile, tileset, write_map

from battlemat.cli import main

ENCOUNTER = """\
[encounter]
title = "t"
{map_line}
[[character]]
id = "kwirt"
side = "heroes"
skills = {{ Melee = 2 }}
{kwirt_at}
[[character]]
id = "lizard"
side = "monsters"
skills = {{ Melee = 4 }}
{lizard_at}
"""


def encounter(tmp: Path, map_name: str | None = "m.tmx", kwirt_at: str = "", lizard_at: str = "",
              name: str = "e.toml") -> Path:
    path = tmp / name
    path.write_text(ENCOUNTER.format(map_line=f'map = "{map_name}"' if map_name else "",
                                     kwirt_at=f"at = {kwirt_at}" if kwirt_at else "",
                                     lizard_at=f"at = {lizard_at}" if lizard_at else ""))
    return path


def simple_map(tmp: Path, *extra: str) -> Path:
    ts = tileset(tile(0, "floor"), tile(1, "wall"), tile(2, "water"))
    return write_map(tmp, ts, layer("g", grid(4, 3, 1, _3_0=3, _3_1=2)), *extra)


def check(capsys: pytest.CaptureFixture[str], *files: Path | str) -> tuple[int, str]:
    code = main(["check", *map(str, files)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_bundled_maps_and_encounters_are_clean(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted((ROOT / "maps").glob("*.tmx")) + sorted((ROOT / "maps").glob("*.toml"))
    assert len(files) >= 8
    code, out = check(capsys, *files)
    assert code == 0, out
    assert out.splitlines() == [f"ok: {f}" for f in files]


def test_a_clean_map_and_encounter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = simple_map(tmp_path, objects("tokens", obj(1, "kwirt", Area(40, 40, 8, 8))))
    e = encounter(tmp_path, lizard_at="[0, 0]")
    code, out = check(capsys, m, e)
    assert code == 0 and out.splitlines() == [f"ok: {m}", f"ok: {e}"]


def test_misspelled_and_unknown_terrain_properties(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ts = tileset(tile(0, "floor"), tile(1, "", blokced=True), tile(2, "rubbel"), tile(3, "", door=True))
    terrain = objects("terrain", obj(1, "ledge", Area(0, 0, 32, 32), levle=1, colour="red", level=1))
    m = write_map(tmp_path, ts, layer("g", grid(4, 3, 1, _1_0=2, _2_0=3, _3_0=4)), terrain)
    code, out = check(capsys, m)
    assert code == 2
    assert f"{m}: tileset 't' tile 1.blokced: unknown terrain property 'blokced'. Fix: did you mean 'blocked'?" in out
    assert "tileset 't' tile 2.class: unknown terrain class 'rubbel'. Fix: did you mean 'rubble'?" in out
    assert "'door'" not in out  # a tile may carry properties for other uses; only likely typos are listed
    assert "layer 'terrain' object 1 'ledge'.levle: unknown terrain property 'levle'" in out
    assert "layer 'terrain' object 1 'ledge'.colour: unknown terrain property 'colour'" in out  # terrain: all


def test_wrong_property_types_and_bad_directions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ts = tileset(tile(0, "floor"),
                 '<tile id="1"><properties><property name="blocked" value="true"/>'
                 '<property name="level" type="float" value="1.0"/></properties></tile>',
                 tile(2, "", difficult_dirs="N,UP"))
    m = write_map(tmp_path, ts, layer("g", grid(4, 3, 1, _0_0=2, _1_0=3)))
    code, out = check(capsys, m)
    assert code == 2
    assert "tile 1.blocked: blocked is a string property; it should be a bool" in out
    assert "tile 1.level: level is a float property; it should be an int" in out
    assert "tile 2.difficult_dirs: bad direction in difficult_dirs: 'UP' is not a direction" in out


def test_tokens_without_characters_and_nameless_tokens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    simple_map(tmp_path, objects("tokens", obj(1, "kwirt", Area(40, 40, 8, 8)), obj(2, "bandit", Area(8, 8, 8, 8)),
                                 obj(3, "", Area(70, 8, 8, 8))))
    e = encounter(tmp_path)
    code, out = check(capsys, e)
    assert code == 2
    assert "layer 'tokens' object 'bandit': token 'bandit' is no character of this encounter" in out
    assert "layer 'tokens' object 3: a token without a name places nobody" in out


@pytest.mark.parametrize("kwirt_at, lizard_at, words", [
    ("[9, 1]", "", "character[0] 'kwirt'.at: kwirt stands at [9, 1], off the 4x3 map"),
    ("[3, 1]", "", "character[0] 'kwirt'.at: kwirt stands at [3, 1] on a blocked square (wall)"),
    ("[3, 0]", "", "character[0] 'kwirt'.at: kwirt stands at [3, 0] on a pit (never entered, M5) (water)"),
    ("[1, 1]", "[1, 1]", "character[1] 'lizard'.at: lizard and kwirt both stand at [1, 1] (M10)"),
])
def test_characters_must_stand_on_open_squares(tmp_path: Path, capsys: pytest.CaptureFixture[str], kwirt_at: str,
                                               lizard_at: str, words: str) -> None:
    simple_map(tmp_path)
    e = encounter(tmp_path, kwirt_at=kwirt_at, lizard_at=lizard_at)
    code, out = check(capsys, e)
    assert code == 2 and f"{e}: {words}" in out, out
    code, out = check(capsys, tmp_path / "m.tmx")
    assert code == 0  # the map alone is fine


def test_a_token_on_a_wall_is_reported_in_the_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = simple_map(tmp_path, objects("tokens", obj(1, "kwirt", Area(100, 40, 8, 8))))
    code, out = check(capsys, encounter(tmp_path))
    assert code == 2 and f"{m}: layer 'tokens' object 'kwirt': kwirt stands at [3, 1] on a blocked square" in out


def test_an_encounter_whose_map_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    e = encounter(tmp_path, map_name="nowhere.tmx")
    code, out = check(capsys, e)
    assert code == 2 and f"{e}: encounter.map: map file 'nowhere.tmx' not found next to the encounter" in out


def test_encounter_and_map_problems_are_listed_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    simple_map(tmp_path, objects("terrain", obj(1, "x", Area(0, 0, 32, 32), cover=5)))
    e = encounter(tmp_path, map_name="m.tmx")
    e.write_text(e.read_text().replace("Melee = 4", "Melee = 9"))
    code, out = check(capsys, e)
    assert code == 2
    assert "skills.'Melee': a rating must be a whole number 0..8 (S2), found 9" in out
    assert "layer 'terrain' object 1 'x'.cover: cover is cover 1 or 2 (R4), 0 for none, 0..2, found 5" in out


def test_unsupported_maps_and_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    iso = write_map(tmp_path, tileset(tile(0, "floor")), layer("g", grid(4, 3, 1)), head='orientation="oblique"',
                    name="iso.tmx")
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    code, out = check(capsys, iso, tmp_path / "gone.tmx", notes)
    assert code == 2
    assert f"{iso}: map: 'oblique' maps are not supported" in out
    assert f"{tmp_path / 'gone.tmx'}: file not found. Fix: check the path" in out
    assert f"{notes}: cannot check a .txt" in out
    assert "3 problems in 3 of 3 files" in out


def test_missing_images_are_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = write_map(tmp_path, tileset(tile(0, "floor"), image="lost.png"), layer("g", grid(4, 3, 1)))
    code, out = check(capsys, m)
    assert code == 2 and "tileset 't': tileset image not found" in out and "lost.png" in out


def test_a_problem_shared_by_two_encounters_is_listed_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    simple_map(tmp_path, objects("terrain", obj(1, "x", Area(0, 0, 32, 32), levle=1)))
    a, b = encounter(tmp_path, name="a.toml"), encounter(tmp_path, name="b.toml")
    code, out = check(capsys, a, b)
    assert code == 2 and out.count("unknown terrain property 'levle'") == 1
