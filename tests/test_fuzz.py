"""Fuzz: every class of bad or oversized input issue 15 names gives one clear message and exit 2.

Each class is a small builder of hostile files (maps, encounters, saves, command lines), run through
the real commands in-process (`battlemat.cli.main`), so an exception escaping is a traceback a user
would see. The seeded random fuzzing lives beside the readers it exercises: mutated maps in
`test_tiled_formats.py`, mutated encounters and saves in `test_bad_files.py`.
The standard for every refusal (DESIGN: files people edit): exit 2, one message on stderr that
names the file and says what to do ("Fix: ..."), and never the catch-all "please report this"
(an internal error shown as a message is still an internal error).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from battlemat.cli import main
from tests.conftest import ROOT


class Case(list[str]):
    """One command line, and whether it must be refused (else working is fine too: never a crash)."""

    def __init__(self, argv: list[str], refused: bool = True) -> None:
        super().__init__(argv)
        self.refused = refused


def survive(argv: list[str]) -> Case:
    """A file that is odd but legal, or that battlemat may read within its bounds: no crash is enough."""
    return Case(argv, refused=False)


@pytest.fixture
def maps(tmp_path: Path) -> Path:
    """A copy of the bundled maps (ours), so mutations never touch the project."""
    out = tmp_path / "maps"
    shutil.copytree(ROOT / "maps", out, ignore=shutil.ignore_patterns("examples"))
    shutil.copytree(ROOT / "assets", tmp_path / "assets")  # the tilesets' pictures
    return out


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run one command in-process; any exception escaping is what a user would see as a traceback."""
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors exit 2 with its message
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out + err


def assert_clear(code: int, text: str, what: str) -> None:
    assert code in (0, 2), f"{what}: exit {code}\n{text[-2000:]}"
    assert "Traceback" not in text, f"{what}: traceback\n{text[-2000:]}"
    assert "please report" not in text.lower(), f"{what}: internal error shown as a message\n{text[-2000:]}"


def assert_refused(code: int, text: str, what: str, *needles: str) -> None:
    assert_clear(code, text, what)
    assert code == 2, f"{what}: accepted (exit 0), expected a refusal\n{text[-2000:]}"
    assert "Fix:" in text or "fix:" in text or "did you mean" in text, f"{what}: says no fix\n{text[-2000:]}"
    for needle in needles:
        assert needle.lower() in text.lower(), f"{what}: message lacks {needle!r}\n{text[-2000:]}"


def encounter_on(maps: Path, map_text: str, name: str = "fuzz") -> Path:
    """The art gallery's encounter on another map file (written beside it)."""
    (maps / f"{name}.tmx").write_text(map_text, encoding="utf-8")
    enc = (maps / "art_gallery.toml").read_text(encoding="utf-8").replace('"art_gallery.tmx"', f'"{name}.tmx"')
    path = maps / f"{name}.toml"
    path.write_text(enc, encoding="utf-8")
    return path


def reach(encounter: Path, who: str) -> list[str]:
    return ["reach", str(encounter), "--who", who, "--use", "Exit"]


def gallery_map(maps: Path) -> str:
    return (maps / "art_gallery.tmx").read_text(encoding="utf-8")


def with_objects(map_text: str, objects: str, name: str = "terrain") -> str:
    """The map with one more object layer holding `objects`."""
    layer = f' <objectgroup id="90" name="{name}">\n{objects}\n </objectgroup>\n'
    return map_text.replace("</map>", layer + "</map>")


# -- the classes --------------------------------------------------------------------------------------
def deep_xml(maps: Path) -> list[list[str]]:
    depth = 5000
    groups = '<group id="1" name="g">' * depth + "</group>" * depth
    enc = encounter_on(maps, gallery_map(maps).replace("</map>", groups + "</map>"))
    return [survive(["check", str(maps / "fuzz.tmx")]), survive(["resolve", str(enc)]),
            survive(reach(enc, "parwanna"))]


def deep_toml(maps: Path) -> list[list[str]]:
    base = (maps / "art_gallery.toml").read_text(encoding="utf-8")
    arrays = maps / "arrays.toml"
    arrays.write_text(base + "\n[extra]\nx = " + "[" * 20000 + "]" * 20000 + "\n", encoding="utf-8")
    tables = maps / "tables.toml"
    tables.write_text(base + "\n[extra]\nx = " + "{ a = " * 20000 + "1" + " }" * 20000 + "\n", encoding="utf-8")
    return [[cmd, str(f)] for f in (arrays, tables) for cmd in ("check", "resolve")]


def long_map_path(maps: Path) -> list[list[str]]:
    name = '"' + "x" * 5000 + '.tmx"'
    enc = (maps / "art_gallery.toml").read_text(encoding="utf-8").replace('"art_gallery.tmx"', name)
    path = maps / "long.toml"
    path.write_text(enc, encoding="utf-8")
    return [["check", str(path)], ["resolve", str(path)], reach(path, "parwanna")]


def non_finite_polygon(maps: Path) -> list[list[str]]:
    cases = []
    for i, points in enumerate(("0,0 nan,0 1,1", "0,0 inf,0 1,1", "0,0 1e400,5 -inf,1")):
        obj = f'  <object id="{500 + i}" x="64" y="64"><properties><property name="terrain" value="difficult"/>' \
              f'</properties><polygon points="{points}"/></object>'
        enc = encounter_on(maps, with_objects(gallery_map(maps), obj), f"poly{i}")
        cases += [["check", str(enc)], ["resolve", str(enc)]]
    obj = '  <object id="600" x="nan" y="inf" width="1e999" height="32"/>'
    enc = encounter_on(maps, with_objects(gallery_map(maps), obj), "rect")
    return [*cases, ["check", str(enc)], ["resolve", str(enc)]]


def unknown_encoding(maps: Path) -> list[list[str]]:
    text = gallery_map(maps).replace('encoding="UTF-8"', 'encoding="klingon-8"')
    enc = encounter_on(maps, text)
    return [["check", str(maps / "fuzz.tmx")], ["resolve", str(enc)], reach(enc, "parwanna")]


def window_maps(maps: Path) -> list[list[str]]:
    """Maps `check` explains that used to crash the window's own pytmx read (one door for maps)."""
    text = gallery_map(maps)
    tsx = (maps / "battlemat.tsx").read_text(encoding="utf-8")
    nameless = tsx.replace("</tileset>", ' <tile id="0"><objectgroup draworder="index">'
                           '<object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>\n</tileset>', 1)
    sized = re.sub(r'(<image [^>]*?) width="\d+" height="\d+"', r"\1", tsx, count=1)
    missing = re.sub(r'source="[^"]+\.png"', 'source="no_such_picture.png"', tsx, count=1)
    out = []
    for name, tileset in (("nameless", nameless), ("unsized", sized), ("missing", missing)):
        (maps / f"{name}.tsx").write_text(tileset, encoding="utf-8")
        enc = encounter_on(maps, text.replace('source="battlemat.tsx"', f'source="{name}.tsx"'), name)
        out.append(Case(["play", str(enc), "--screenshot", str(maps / f"{name}.png"), "--frames", "1",
                         "--save-dir", str(maps / "saves")], refused=name == "missing"))  # Tiled opens the others
    return out


def save_of(maps: Path, edit: Callable[[dict], object]) -> Path:
    save = {"format": "battlemat-save", "version": 1, "encounter": "art_gallery.toml", "seed": 7, "dice": "none",
            "pc_sides": ["watch"], "turns": [[{"who": "billin", "use": "Melee/Press", "to": [5, 5]}]], "meta": {}}
    edit(save)
    path = maps / f"save{len(list(maps.glob('save*.json')))}.json"
    path.write_text(json.dumps(save).replace('"NEST"', "[" * 50000 + "]" * 50000), encoding="utf-8")
    return path


def hand_edited_saves(maps: Path) -> list[list[str]]:
    def nest(s: dict) -> None:
        s["meta"] = "NEST"  # replaced in the text: json itself cannot write 50,000 levels

    edits = (lambda s: s["turns"][0][0].update(to=[1]), lambda s: s.update(dice="d7"), nest,
             lambda s: s.update(turns="all of them"), lambda s: s.update(seed="seven"),
             lambda s: s["turns"][0][0].update(who=None), lambda s: s.update(encounter=""))
    paths = [save_of(maps, e) for e in edits]
    (maps / "nest.json").write_text('{"format": "battlemat-save", "meta": ' + "[" * 50000 + "]" * 50000 + "}")
    paths.append(maps / "nest.json")
    return [["play", "--load", str(p), "--screenshot", str(maps / "x.png"), "--frames", "1",
             "--save-dir", str(maps / "saves")] for p in paths]


def simulate_options(maps: Path) -> list[list[str]]:
    enc = str(maps / "art_gallery.toml")
    return [["simulate", enc, "--runs", "2", "--report", "/dev/null/report"],
            ["simulate", enc, "--runs", "2", "--workers", "100000"]]


def dice_typo(maps: Path) -> list[list[str]]:
    enc = str(maps / "art_gallery.toml")
    return [["resolve", enc, "--dice", "D6"], ["resolve", enc, "--dice", "d7"],
            ["play", enc, "--dice", "D6", "--screenshot", str(maps / "x.png"), "--save-dir", str(maps / "saves")],
            ["simulate", enc, "--dice", "D6", "--runs", "2"]]


def endless_files(maps: Path) -> list[list[str]]:
    return [["resolve", "/dev/zero"], ["check", "/dev/zero"],
            ["play", "--load", "/dev/zero", "--screenshot", str(maps / "x.png"), "--save-dir", str(maps / "saves")]]


def absurd_positions(maps: Path) -> list[list[str]]:
    base = (maps / "art_gallery.toml").read_text(encoding="utf-8")
    out = []
    for i, at in enumerate(("[1000000000000, 5]", "[-3, 2]", "[5, 99999999]", "[1.5, 2]", "[true, 2]")):
        text = base.replace('id = "billin"\n', f'id = "billin"\nat = {at}\n', 1)
        path = maps / f"at{i}.toml"
        path.write_text(text, encoding="utf-8")
        out += [["resolve", str(path)], reach(path, "billin")]
    return out


def crowds(maps: Path) -> list[list[str]]:
    chars = "".join(f'\n[[character]]\nid = "g{i}"\nside = "{"ab"[i % 2]}"\nskills = {{ "Melee/Press" = 2 }}\n'
                    for i in range(10_000))
    path = maps / "crowd.toml"
    path.write_text('[encounter]\ntitle = "Crowd"\ndice = "none"\n' + chars, encoding="utf-8")
    return [["check", str(path)], ["simulate", str(path), "--runs", "1"]]


def million_objects(maps: Path) -> list[list[str]]:
    objects = "\n".join(f'  <object id="{i}" x="0" y="0"/>' for i in range(1000, 1_001_000))
    enc = encounter_on(maps, with_objects(gallery_map(maps), objects, "scenery"))
    return [["check", str(maps / "fuzz.tmx")], ["resolve", str(enc)]]


CLASSES: dict[str, Callable[[Path], list[Case] | list[list[str]]]] = {
    "deeply nested XML": deep_xml,
    "deeply nested TOML": deep_toml,
    "map path longer than the file system allows": long_map_path,
    "NaN or infinite coordinates": non_finite_polygon,
    "unknown XML encoding": unknown_encoding,
    "maps the window read with pytmx directly": window_maps,
    "hand-edited saves": hand_edited_saves,
    "dice typo on the command line": dice_typo,
    "simulate options out of bounds": simulate_options,
    "endless files": endless_files,
    "characters off the map": absurd_positions,
    "10,000 characters": crowds,
    "a million objects": million_objects,
}


@pytest.mark.parametrize("name", list(CLASSES))
def test_each_class_of_bad_input_is_refused_clearly(name: str, maps: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in CLASSES[name](maps):
        code, text = run(list(argv), capsys)
        what = f"{name}: battlemat {' '.join(a[:80] for a in argv)}"
        if getattr(argv, "refused", True):
            assert_refused(code, text, what)
        else:
            assert_clear(code, text, what)
