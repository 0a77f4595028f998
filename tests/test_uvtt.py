"""Universal VTT maps (.dd2vtt, .uvtt, .df2vtt; issue 29 items 4 and 5): each exporter's shape loads
with its walls, doors and lights where the file puts them (map_origin subtracted); malformed files
get one clear message and exit 2 through `battlemat check`; a decode bomb is refused from its header;
`check --picture` draws the walls where they are; the bundled cellar map plays.

The files are written here from the exporters' published field lists (README "Universal VTT maps"),
each with a tiny generated picture.
"""

from __future__ import annotations

import base64
import copy
import importlib.util
import io
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from PIL import Image

from battlemat.cli import main
from battlemat.core import geometry
from battlemat.core.walls import Door, Wall
from battlemat.io.encounter import load_encounter
from battlemat.io.errors import LoadError
from battlemat.io.maps import read_map
from battlemat.io.uvtt import read_uvtt

PPG = 20
FLOOR = (250, 250, 250)


def picture(w: int, h: int, fmt: str = "PNG") -> str:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), FLOOR).save(buf, fmt)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def pt(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def dungeondraft() -> dict[str, Any]:
    """Dungeondraft 1.0 (format 0.3): a cropped export (origin (2, 1)), a room 6 x 4 split by a wall at
    x = 5 (absolute 7) cut where two portals sit, a round object, two lights as aarrggbb, a PNG."""
    return {
        "format": 0.3,
        "resolution": {"map_origin": pt(2, 1), "map_size": pt(8, 6), "pixels_per_grid": PPG},
        "line_of_sight": [
            [pt(7, 2), pt(7, 3)],
            [pt(7, 4), pt(7, 5)],
            [pt(7, 6), pt(7, 6.5)],
            [pt(9, 6.5), pt(3, 6.5), pt(3, 2), pt(9, 2), pt(9, 6.5)],
        ],
        "objects_line_of_sight": [[pt(4.2, 4.2), pt(4.8, 4.2), pt(4.8, 4.8), pt(4.2, 4.8), pt(4.2, 4.2)]],
        "portals": [
            {"position": pt(7, 3.5), "bounds": [pt(7, 3), pt(7, 4)], "rotation": 1.570796, "closed": True,
             "freestanding": False},
            {"position": pt(7, 5.5), "bounds": [pt(7, 5), pt(7, 6)], "rotation": 1.570796, "closed": False,
             "freestanding": False},
        ],
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "lights": [{"position": pt(4, 3), "range": 5, "intensity": 1, "color": "ffeccd8b", "shadows": True}],
        "image": picture(8 * PPG, 6 * PPG),
    }


def dungeonfog() -> dict[str, Any]:
    """DungeonFog (.df2vtt): every wall its own two-point segment, origin (0, 0), every portal a door,
    lights without shadows; no objects_line_of_sight, no environment; a WebP picture."""
    return {
        "format": 0.2,
        "resolution": {"map_origin": pt(0, 0), "map_size": pt(5, 4), "pixels_per_grid": PPG},
        "line_of_sight": [[pt(0, 0), pt(5, 0)], [pt(5, 0), pt(5, 4)], [pt(0, 2), pt(2, 2)], [pt(3, 2), pt(5, 2)]],
        "portals": [{"position": pt(2.5, 2), "bounds": [pt(2, 2), pt(3, 2)], "rotation": 0, "closed": True,
                     "freestanding": False}],
        "lights": [{"position": pt(1, 1), "range": 3, "intensity": 0.5, "color": "ff8800"}],
        "image": picture(5 * PPG, 4 * PPG, "WEBP"),
    }


def arkenforge() -> dict[str, Any]:
    """Arkenforge (.uvtt): map sizes as floats, walls and object outlines, no portals (its exporter
    writes none), environment and lights; the picture as a data: URL."""
    return {
        "format": 1.0,
        "resolution": {"map_origin": pt(0.0, 0.0), "map_size": pt(6.0, 3.0), "pixels_per_grid": PPG},
        "line_of_sight": [[pt(0.0, 1.0), pt(4.0, 1.0), pt(4.0, 3.0)]],
        "objects_line_of_sight": [[pt(5.0, 0.0), pt(6.0, 0.0)]],
        "environment": {"baked_lighting": True, "ambient_light": "ff202020"},
        "lights": [{"position": pt(2.5, 2.0), "range": 2.5, "intensity": 0.8, "color": "ff336699", "shadows": False}],
        "image": "data:image/png;base64," + picture(6 * PPG, 3 * PPG),
    }


def write(tmp: Path, doc: dict[str, Any], name: str = "m.dd2vtt") -> Path:
    path = tmp / name
    path.write_text(json.dumps(doc))
    return path


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], list[str]]:
    """(exit code, problem lines, note lines) of `battlemat check ...`."""
    code = main(["check", *argv])
    out = capsys.readouterr().out.splitlines()
    notes = [line for line in out if line.startswith("note:")]
    problems = [line for line in out if not line.startswith(("note:", "ok:"))]
    return code, problems, notes


# -- each exporter's shape -------------------------------------------------------------------------
def test_dungeondraft_walls_doors_and_lights_land_where_the_file_puts_them(tmp_path: Path) -> None:
    """M1, R4: every polyline's consecutive points are walls, in squares from the picture's corner
    (map_origin (2, 1) subtracted); portals are doors closed or open as `closed` says (M4)."""
    uvtt = read_uvtt(write(tmp_path, dungeondraft()))
    b = uvtt.board
    assert (b.width, b.height, b.tile_width, b.grid) == (8, 6, PPG, "square")
    assert Wall(5, 1, 5, 2) in b.walls and Wall(5, 5, 5, 5.5) in b.walls
    assert Wall(7, 5.5, 1, 5.5) in b.walls and Wall(1, 1, 7, 1) in b.walls
    assert len(b.walls) == 3 + 4 + 4  # three cut pieces, the room's four sides, the object's four
    assert uvtt.walls_from_objects == 4
    assert b.doors == (Door("portal1", Wall(5, 2, 5, 3), "closed"), Door("portal2", Wall(5, 4, 5, 5), "open"))
    assert [(li.x, li.y, li.range, li.color) for li in b.lights] == [(2, 2, 5, "#eccd8b")]
    assert not b.blocked.any()  # walls are lines: no square is blocked
    assert uvtt.picture is not None and uvtt.picture.words == "160x120 px PNG"
    assert uvtt.ambient == "#ffffff"


def test_dungeonfog_segments_and_webp_picture(tmp_path: Path) -> None:
    uvtt = read_uvtt(write(tmp_path, dungeonfog(), "m.df2vtt"))
    b = uvtt.board
    assert (b.width, b.height) == (5, 4)
    assert b.walls == (Wall(0, 0, 5, 0), Wall(5, 0, 5, 4), Wall(0, 2, 2, 2), Wall(3, 2, 5, 2))
    assert b.doors == (Door("portal1", Wall(2, 2, 3, 2), "closed"),)
    assert b.lights[0].color == "#ff8800" and b.lights[0].intensity == 0.5
    assert uvtt.picture is not None and uvtt.picture.format == "WEBP"
    assert uvtt.picture.decode().size == (5 * PPG, 4 * PPG)


def test_arkenforge_float_sizes_no_portals_and_a_data_url(tmp_path: Path) -> None:
    uvtt = read_uvtt(write(tmp_path, arkenforge(), "m.uvtt"))
    b = uvtt.board
    assert (b.width, b.height) == (6, 3)
    assert b.walls == (Wall(0, 1, 4, 1), Wall(4, 1, 4, 3), Wall(5, 0, 6, 0)) and b.doors == ()
    assert uvtt.baked_lighting is True and uvtt.ambient == "#202020"


@pytest.mark.parametrize(("make", "name", "words"), [
    (dungeondraft, "m.dd2vtt", "11 walls (4 around objects), 2 doors (portal1 closed, portal2 open), 1 light"),
    (dungeonfog, "m.df2vtt", "4 walls, 1 door (portal1 closed), 1 light"),
    (arkenforge, "m.uvtt", "3 walls (1 around objects), 0 doors, 1 light"),
])
def test_check_says_what_it_understood(tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, name: str,
                                       words: str) -> None:
    code, problems, notes = check(capsys, str(write(tmp_path, make(), name)))
    assert code == 0 and problems == []
    assert any(words in n and "px" in n and "grid" in n for n in notes), notes


def test_a_window_portal_is_read_as_an_open_door_and_said_so(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    _, _, notes = check(capsys, str(write(tmp_path, dungeondraft())))
    assert any("portal2 is open" in n and "windows" in n for n in notes)


# -- what a wall does on such a board (the core's rules, on a map read from a file) ----------------
def test_walls_and_a_closed_door_block_sight_and_adjacency(tmp_path: Path) -> None:
    """R4: a line of sight touching a wall or a closed door is blocked; an open door is not a wall.
    M6/P4: squares a wall lies between are not adjacent."""
    b = read_uvtt(write(tmp_path, dungeondraft())).board
    assert not geometry.sight(b, (4, 2), (5, 2))[0]  # across the closed portal1 (x = 5, y 2..3)
    assert not geometry.adjacent(b, (4, 2), (5, 2))
    assert geometry.sight(b, (4, 4), (5, 4))[0]  # through the open portal2 (x = 5, y 4..5)
    assert not geometry.sight(b, (4, 1), (5, 1))[0]  # the wall piece (5, 1)-(5, 2)
    assert geometry.sight(b, (1, 1), (1, 4))[0]  # open floor inside the room


# -- malformed files: one message, its place and fix, exit 2 ---------------------------------------
def _set(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    target = out
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


_DELETE = object()
JPEG = io.BytesIO()
Image.new("RGB", (8 * PPG, 6 * PPG)).save(JPEG, "JPEG")

BROKEN = {
    "ill-typed coordinate": (("line_of_sight", 3, 1, "x"), "3", "line_of_sight[3][1].x", "expected a number"),
    "missing map_size": (("resolution", "map_size"), _DELETE, "resolution.map_size", "missing 'map_size'"),
    "missing resolution": (("resolution",), _DELETE, "resolution", "missing 'resolution'"),
    "bad base64": (("image",), "iVBOR*not base64*", "image", "not valid base64"),
    "a JPEG picture": (("image",), base64.b64encode(JPEG.getvalue()).decode(), "image", "a JPEG, not PNG or WebP"),
    "picture of another size": (("image",), picture(100, 120), "image", "the walls would not line up"),
    "portal closed not a bool": (("portals", 0, "closed"), "yes", "portals[0].closed", "expected true or false"),
    "one-point wall": (("line_of_sight", 0), [pt(7, 2)], "line_of_sight[0]", "at least two points"),
    "zero pixels per grid": (("resolution", "pixels_per_grid"), 0, "resolution.pixels_per_grid", "at least 1"),
    "huge pixels per grid": (("resolution", "pixels_per_grid"), 10**6, "resolution.pixels_per_grid", "up to 1024"),
    "bad light colour": (("lights", 0, "color"), "orange", "lights[0].color", "expected a colour"),
    "walls not an array": (("line_of_sight",), {"x": 1}, "line_of_sight", "expected an array"),
}


@pytest.mark.parametrize("kind", BROKEN)
def test_a_malformed_file_gets_one_message_with_place_and_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             kind: str) -> None:
    path_in_doc, value, place, words = BROKEN[kind]
    path = write(tmp_path, _set(dungeondraft(), path_in_doc, value))
    code, problems, _ = check(capsys, str(path))
    assert code == 2
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{path}: {place}: ") and words in problems[0] and "Fix:" in problems[0], problems


@pytest.mark.parametrize(("text", "words"), [
    ('{"format": 0.3, "resolution": ', "not valid JSON"),
    ("[1, 2]", "expected an object"),
    (json.dumps(dungeondraft()).replace('"x": 9', '"x": NaN', 1), "not a finite coordinate"),
    (json.dumps(dungeondraft()).replace('"x": 9', '"x": Infinity', 1), "not a finite coordinate"),
])
def test_malformed_json_and_non_finite_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                               words: str) -> None:
    path = tmp_path / "m.dd2vtt"
    path.write_text(text)
    code, problems, _ = check(capsys, str(path))
    assert code == 2 and len(problems) == 1 and words in problems[0], problems


def test_too_many_walls_is_one_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("battlemat.io.uvtt.fields.MAX_UVTT_WALLS", 5)
    code, problems, _ = check(capsys, str(write(tmp_path, dungeondraft())))
    assert code == 2 and len(problems) == 1 and "more than 5 walls and portals" in problems[0], problems


def test_a_file_past_the_size_bound_is_refused_before_parsing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("battlemat.io.uvtt.MAX_UVTT_BYTES", 1000)
    monkeypatch.setattr("battlemat.io.uvtt.json.loads", _never)
    code, problems, _ = check(capsys, str(write(tmp_path, dungeondraft())))
    assert code == 2 and len(problems) == 1 and "bigger than 1000 bytes" in problems[0], problems


def test_millions_of_points_are_refused_before_parsing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    doc = dungeondraft()
    doc["line_of_sight"].append([pt(1, 1)] * 200_000)
    monkeypatch.setattr("battlemat.io.uvtt.json.loads", _never)
    code, problems, _ = check(capsys, str(write(tmp_path, doc)))
    assert code == 2 and len(problems) == 1 and "objects, more than" in problems[0], problems


def _never(*_: object, **__: object) -> None:
    raise AssertionError("parsed or decoded past a bound")


def png_header(width: int, height: int) -> bytes:
    """A PNG of just its signature, IHDR and IEND: a few bytes claiming any size."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")


def test_a_decode_bomb_is_refused_from_its_header(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A PNG header claiming 100000 x 100000 pixels (40 GB decoded) is refused without Pillow opening it."""
    doc = dungeondraft()
    doc["resolution"]["map_size"] = pt(1000, 1000)
    doc["resolution"]["pixels_per_grid"] = 100
    doc["image"] = base64.b64encode(png_header(100_000, 100_000)).decode()
    monkeypatch.setattr(Image, "open", _never)
    code, problems, _ = check(capsys, str(write(tmp_path, doc)))
    assert code == 2 and len(problems) == 1, problems
    assert "claims 100000x100000 pixels, more than the 64 megapixels" in problems[0]


def webp_header(width: int, height: int) -> bytes:
    """A WebP of just its extended header (VP8X): a few bytes claiming any canvas size."""
    payload = b"\x00\x00\x00\x00" + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    chunk = b"VP8X" + struct.pack("<I", len(payload)) + payload
    return b"RIFF" + struct.pack("<I", 4 + len(chunk)) + b"WEBP" + chunk


def test_a_webp_decode_bomb_is_refused_from_its_header(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    doc = dungeondraft()
    doc["image"] = base64.b64encode(webp_header(16_000, 16_000)).decode()
    monkeypatch.setattr(Image, "open", _never)
    code, problems, _ = check(capsys, str(write(tmp_path, doc)))
    assert code == 2 and len(problems) == 1 and "claims 16000x16000 pixels" in problems[0], problems


def test_an_exporters_rounding_pixel_is_tolerated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A picture one pixel off map_size x pixels_per_grid still lines up; two pixels off is refused."""
    code, problems, _ = check(capsys, str(write(tmp_path, _set(dungeondraft(), ("image",), picture(161, 119)))))
    assert code == 0 and problems == []
    code, problems, _ = check(capsys, str(write(tmp_path, _set(dungeondraft(), ("image",), picture(162, 120)))))
    assert code == 2 and "162x120 px" in problems[0] and "160x120 px" in problems[0]


def test_a_sound_header_over_broken_pixels_is_found_by_check(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    doc = dungeondraft()
    doc["image"] = base64.b64encode(png_header(8 * PPG, 6 * PPG)).decode()  # no pixel data at all
    code, problems, _ = check(capsys, str(write(tmp_path, doc)))
    assert code == 2 and len(problems) == 1 and "cannot be decoded" in problems[0], problems


def test_a_file_without_a_picture_loads_plain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, problems, notes = check(capsys, str(write(tmp_path, _set(dungeondraft(), ("image",), _DELETE))))
    assert code == 0 and problems == [] and any("no picture" in n for n in notes)


# -- check --picture ---------------------------------------------------------------------------------
def test_check_picture_draws_walls_where_the_walls_are(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The wall pieces at x = 5 (board units) are drawn at pixel x = 5 * 20; the closed door orange,
    the open one green; the floor away from them keeps the picture's colour."""
    out = tmp_path / "out.png"
    code, problems, _ = check(capsys, str(write(tmp_path, dungeondraft())), "--picture", str(out))
    assert code == 0 and problems == []
    img = Image.open(out).convert("RGB")
    assert img.width == 8 * PPG and img.height > 6 * PPG  # the picture, then the legend below it
    x = 5 * PPG
    assert img.getpixel((x, int(1.5 * PPG))) == (220, 30, 30)  # wall (5, 1)-(5, 2)
    assert img.getpixel((x, int(2.5 * PPG))) == (255, 150, 0)  # portal1, closed
    assert img.getpixel((x, int(4.5 * PPG))) == (40, 200, 60)  # portal2, open
    assert img.getpixel((int(3 * PPG), int(5.5 * PPG))) == (220, 30, 30)  # the room's south side at y 5.5
    assert img.getpixel((int(7.6 * PPG), 3 * PPG)) == FLOOR  # beyond the east wall and the light's range


# -- encounters and commands -----------------------------------------------------------------------
ENCOUNTER = """\
[encounter]
title = "t"
map = "{map}"
[[character]]
id = "a"
side = "one"
skills = {{ "Melee/Press" = 3, "Block/Dodge" = 2 }}
at = [1, 1]
[[character]]
id = "b"
side = "two"
skills = {{ "Melee/Press" = 3, "Block/Dodge" = 2 }}
at = [6, 4]
"""


def test_an_encounter_on_a_uvtt_map_loads_checks_and_simulates(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, dungeondraft())
    enc_path = tmp_path / "e.toml"
    enc_path.write_text(ENCOUNTER.format(map="m.dd2vtt"))
    enc = load_encounter(enc_path)
    assert enc.board is not None and len(enc.board.doors) == 2
    assert main(["check", str(enc_path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"ok: {enc_path}"]
    assert main(["simulate", str(enc_path), "--runs", "3", "--quiet"]) == 0


def test_check_picture_of_an_encounter_draws_its_uvtt_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, dungeondraft())
    enc_path = tmp_path / "e.toml"
    enc_path.write_text(ENCOUNTER.format(map="m.dd2vtt"))
    out = tmp_path / "enc.png"
    assert main(["check", str(enc_path), "--picture", str(out)]) == 0
    assert Image.open(out).convert("RGB").getpixel((5 * PPG, int(1.5 * PPG))) == (220, 30, 30)


def test_a_terrain_table_for_a_uvtt_map_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, dungeondraft())
    enc_path = tmp_path / "e.toml"
    enc_path.write_text(ENCOUNTER.format(map="m.dd2vtt") + '[terrain.layers]\nWalls = "wall"\n')
    assert main(["simulate", str(enc_path), "--runs", "2"]) == 2
    assert "terrain: a Universal VTT map has no tiles or layers" in capsys.readouterr().err
    code, problems, _ = check(capsys, str(enc_path))
    assert code == 2 and len(problems) == 1 and "terrain: a Universal VTT map has no tiles" in problems[0]


def test_a_character_off_a_uvtt_map_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, dungeondraft())
    enc_path = tmp_path / "e.toml"
    enc_path.write_text(ENCOUNTER.format(map="m.dd2vtt").replace("at = [6, 4]", "at = [8, 4]"))
    code, problems, _ = check(capsys, str(enc_path))
    assert code == 2 and any("off the 8x6 map" in p for p in problems), problems


def test_an_encounter_naming_a_broken_uvtt_map_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, _set(dungeondraft(), ("resolution", "map_size"), _DELETE))
    enc_path = tmp_path / "e.toml"
    enc_path.write_text(ENCOUNTER.format(map="m.dd2vtt"))
    assert main(["simulate", str(enc_path), "--runs", "2"]) == 2
    assert "resolution.map_size: missing 'map_size'" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["simulate", "--runs", "2"], ["resolve"]])  # (play sets a map up: test_ui_setup)
def test_a_map_where_an_encounter_is_wanted_says_what_to_write(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               command: list[str]) -> None:
    path = write(tmp_path, dungeondraft())
    assert main([command[0], str(path), *command[1:]]) == 2
    err = capsys.readouterr().err
    assert "this is a map, not an encounter" in err and 'map = "m.dd2vtt"' in err


def test_read_map_is_the_one_door_for_both_kinds(tmp_path: Path) -> None:
    assert read_map(write(tmp_path, dungeonfog(), "m.df2vtt")).width == 5
    assert read_map(ROOT / "maps" / "boulder_field.tmx").width > 0
    with pytest.raises(LoadError):
        read_map(write(tmp_path, {"format": 0.3}, "bad.uvtt"))


def test_the_report_draws_its_heat_on_the_picture(tmp_path: Path) -> None:
    from battlemat.sim.render import render_map, square_centre

    path = write(tmp_path, dungeondraft())
    image, tmx, scale = render_map(path, 1600)
    assert image.shape == (6 * PPG, 8 * PPG, 4) and scale == 1.0
    assert square_centre(tmx, (2, 3), read_map(path), scale) == (2.5 * PPG, 3.5 * PPG)


# -- the bundled map ---------------------------------------------------------------------------------
CELLAR = ROOT / "maps" / "cellar_door.dd2vtt"


def test_the_bundled_map_is_what_its_script_makes() -> None:
    spec = importlib.util.spec_from_file_location("make_uvtt_map", ROOT / "assets" / "make_uvtt_map.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert json.loads(CELLAR.read_text()) == module.document(module.picture())


def test_the_bundled_cellar_has_a_room_a_corridor_one_square_wide_a_closed_door_and_a_pillar() -> None:
    """M1: the corridor (row y = 4) is walled north and south; the cellar's door between (7, 4) and
    (8, 4) is closed; the pillar's square (4, 4) has a wall on every side, so no step enters it."""
    b = read_uvtt(CELLAR).board
    assert (b.width, b.height) == (16, 10) and len(b.lights) == 2
    for x in range(8, 12):
        assert not geometry.adjacent(b, (x, 4), (x, 3)) and not geometry.adjacent(b, (x, 4), (x, 5))
        if x < 11:
            assert geometry.adjacent(b, (x, 4), (x + 1, 4))
    door = geometry.barrier_between(b, (7, 4), (8, 4))
    assert door is not None and door[1] is not None and door[1].state == "closed"
    assert geometry.barrier_between(b.with_doors({"portal1": "open"}), (7, 4), (8, 4)) is None
    for n in [(3, 3), (4, 3), (5, 3), (3, 4), (5, 4), (3, 5), (4, 5), (5, 5)]:
        assert geometry.barrier_between(b, n, (4, 4)) is not None


def test_the_bundled_encounter_plays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(ROOT / "maps" / "cellar_door.toml"), "--runs", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "The Cellar Door" in out


@pytest.mark.ui
def test_the_window_shows_the_embedded_picture_scaled_to_the_board(tmp_path: Path) -> None:
    import pygame

    from battlemat.ui.renderer import build_art

    doc = dungeondraft()
    buf = io.BytesIO()
    img = Image.new("RGB", (8 * PPG, 6 * PPG), (10, 20, 30))
    img.putpixel((5, 7), (200, 100, 50))
    img.save(buf, "PNG")
    doc["image"] = base64.b64encode(buf.getvalue()).decode()
    path = write(tmp_path, doc)
    pygame.display.init()
    try:
        art = build_art(read_map(path), path)
        ops = list(art.ops_in(pygame.Rect(0, 0, art.width, art.height)))
        assert len(ops) == 1 and ops[0].image.get_size() == (8 * PPG, 6 * PPG)
        assert tuple(ops[0].image.get_at((5, 7)))[:3] == (200, 100, 50)
        assert tuple(ops[0].image.get_at((50, 50)))[:3] == (10, 20, 30)
    finally:
        pygame.display.quit()
