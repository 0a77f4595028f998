"""`battlemat check FILE...`: validate maps (.tmx, .dd2vtt), encounters, rule cases and lessons (.toml),
listing every problem.

A map (.tmx, or Tiled's JSON .tmj/.json) is checked for what stops loading (unsupported features,
bad terrain values, broken tokens) and for what loads but is probably a mistake (misspelled property
names, properties of the wrong Tiled type, missing images, terrain objects that cover nothing). An
encounter is checked as `load_encounter` reads it, then its map, then the two together: characters
off the map, on blocked squares or pits, sharing a square, and tokens that name no character.
A lesson (.lesson.toml) is read with its encounter and played through as written (teach.tutor).
A rule case (a .toml with a `[case]` table) is read as the case runner reads it (io.cases.load_case).
Notes (an infinite map's board is the box of its used chunks) are printed and pass; so are the lines
that say what terrain battlemat understood and where it came from (battlemat's own properties, a
convention, the game master's mapping). A map that marks no walls, no pits and no difficult ground
is a problem (every square would be open floor), with the fixes named; `--picture OUT.png` draws
the map with the understood terrain over it. A Universal VTT map (.dd2vtt, .uvtt, .df2vtt: io.uvtt)
is checked as it is read, its picture decoded, and a note says what was understood (walls, doors and
their states, lights, the picture's size, the grid); `--picture` draws its walls and doors over its
picture (sim.uvtt_picture).
Exit code 0 when every file is clean ("ok: FILE" lines), 2 otherwise.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from battlemat.core.board import Board
from battlemat.io.cases import is_case_data, load_case
from battlemat.io.encounter import load_encounter, read_encounter_data
from battlemat.io.errors import LoadError, Problem
from battlemat.io.lessons import is_lesson_file
from battlemat.io.limits import MAX_ENCOUNTER_BYTES
from battlemat.io.maps import MAP_SUFFIXES, placement_problems, survey_any, token_problems
from battlemat.io.tiled import OWN_TERRAIN, Understood, mapping_path
from battlemat.io.userfile import read_user_text, why_unreadable
from battlemat.io.uvtt import is_uvtt
from battlemat.teach.tutor import load_lesson

EXIT_PROBLEMS = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="maps (.tmx, .tmj, .dd2vtt, .uvtt, .df2vtt), encounters and rule cases (.toml) "
                             "and lessons (.lesson.toml)")
    parser.add_argument("--picture", metavar="OUT.png", default=None,
                        help="draw the (first) map with the terrain battlemat understood over it")


def run(args: argparse.Namespace) -> int:
    seen: set[str] = set()
    bad_files = 0
    total = 0
    out = sys.stdout
    for index, name in enumerate(args.files):
        found = check_file(Path(name))
        if index == 0 and getattr(args, "picture", None):
            found += _picture(Path(name), Path(args.picture))
        problems = [p for p in found if not p.note]
        for note in (p for p in found if p.note):  # worth knowing, nothing to fix
            if str(note) not in seen:
                seen.add(str(note))
                print(note, file=out)
        if not problems:
            print(f"ok: {name}", file=out)
            continue
        bad_files += 1
        for problem in problems:
            line = str(problem)
            if line in seen:  # a map shared by several encounters is reported once
                continue
            seen.add(line)
            total += 1
            print(line, file=out)
    if bad_files:
        print(f"battlemat check: {total} problem{'s' * (total != 1)} in {bad_files} of {len(args.files)} "
              f"file{'s' * (len(args.files) != 1)}", file=sys.stderr)
        return EXIT_PROBLEMS
    return 0


def check_file(path: Path) -> list[Problem]:
    """Every problem of one file; an empty list when it is clean."""
    file = str(path)
    try:
        why = why_unreadable(path)
        if why is not None:
            return [Problem(file, "", *why)]
        suffix = path.suffix.lower()
        if suffix == ".toml":
            if is_lesson_file(path):
                return check_lesson(path)
            return check_case(path) if _is_case(path) else check_encounter(path)
        if suffix in (*MAP_SUFFIXES, ".tsx", ".tsj"):
            return check_map(path)
        return [Problem(file, "", f"cannot check a {suffix or 'file without extension'}",
                        "pass maps (.tmx, .tmj, .dd2vtt) and encounters (.toml)")]
    except LoadError as exc:
        return exc.problems
    except (ArithmeticError, AttributeError, LookupError, OSError, RuntimeError, TypeError, ValueError) as exc:
        # a bug of ours must not hide the other files' results
        return [Problem(file, "", f"battlemat could not check this file ({type(exc).__name__}: {exc})",
                        "please report this with the file")]


def check_map(path: Path) -> list[Problem]:
    if path.suffix.lower() in (".tsx", ".tsj"):
        return [Problem(str(path), "", "a tileset is checked through the maps that use it",
                        "check the maps (.tmx, .tmj) that use it")]
    if is_uvtt(path):
        return survey_any(path)[1]
    return survey_problems(path, *survey_any(path))


def survey_problems(path: Path, board: Board | None, problems: list[Problem], understood: list[Understood],
                    terrain_file: str = "") -> list[Problem]:
    """A map's problems, then what its terrain was understood as (notes), then the loud warning when
    it marks nothing: every square open floor is rarely what the author drew."""
    if board is None:
        return problems
    # Maps that speak only battlemat's own terrain pass quietly; otherwise every reading is listed.
    others = any(u.origin != OWN_TERRAIN for u in understood)
    notes = [Problem(str(path), "terrain", str(u), note=True) for u in understood] if others else []
    marks = (board.blocked.any() or board.pit.any() or board.difficult.any() or (board.difficult_dirs > 0).any()
             or bool(board.walls) or bool(board.doors))
    if marks or _says_open(path):
        return problems + notes
    beside = mapping_path(path).name
    warning = Problem(
        str(path), "terrain",
        "WARNING: this map marks no walls, no pits and no difficult ground: every square is open floor, and "
        "reach and sight run through whatever its pictures show",
        f"if this map has walls, say which: write {beside} beside it ([tiles.TILESET] \"17-23\" = \"wall\", "
        "[layers] NAME = \"wall\"), or give those tiles battlemat's classes in Tiled (README: maps by others); "
        "if every square really is open, add the map property open_ground (bool, true)")
    return [*problems, *notes, warning]


def _says_open(path: Path) -> bool:
    """Whether the map says it is open ground on purpose (a bool map property `open_ground`)."""
    try:
        from battlemat.io.tiled.xmlsafe import read_document  # noqa: PLC0415 - start-up time: only maps that mark nothing

        root = read_document(path, str(path), "map")
    except LoadError:
        return False
    props = root.find("properties")
    return any(p.get("name") == "open_ground" and (p.get("value") or "").lower() == "true"
               for p in (props.findall("property") if props is not None else []))


def _picture(path: Path, out: Path) -> list[Problem]:
    """Draw `check --picture`: the map with its understood terrain over it (battlemat.sim.render)."""
    from battlemat.sim.terrain_picture import draw_terrain_picture  # noqa: PLC0415 - start-up time: matplotlib only for --picture

    if is_uvtt(path):
        return _uvtt_picture(path, out)
    if path.suffix.lower() != ".toml":
        return draw_terrain_picture(path, out)
    try:  # an encounter: its map, read with its [terrain] and [rules]
        enc = load_encounter(path, with_map=False)
    except LoadError:
        enc = None
    if enc is None or enc.map is None:
        return [Problem(str(out), "", "no picture: this file names no map it can be drawn from",
                        "pass a map (.tmx, .tmj, .dd2vtt) or an encounter with a map")]
    if is_uvtt(enc.map):
        return _uvtt_picture(path.parent / enc.map, out)
    terrain = read_encounter_data(path).get("terrain")
    return draw_terrain_picture(path.parent / enc.map, out, None if terrain is None else (terrain, str(path)),
                                enc.rules)


def _uvtt_picture(path: Path, out: Path) -> list[Problem]:
    """`check --picture` of a Universal VTT map: its picture with its walls and doors over it."""
    from battlemat.sim.render import MAX_RENDER_SIDE  # noqa: PLC0415 - start-up time: only for --picture
    from battlemat.sim.uvtt_picture import draw_uvtt_picture  # noqa: PLC0415 - start-up time: only for --picture

    return draw_uvtt_picture(path, out, MAX_RENDER_SIDE)


def check_lesson(path: Path) -> list[Problem]:
    """A lesson (`NAME.lesson.toml`), its encounter, and the lesson played through as written."""
    load_lesson(path)  # raises LoadError with every problem (check_file lists them)
    return []


def check_case(path: Path) -> list[Problem]:
    """A rule case (an encounter with a `[case]` table, io.cases): read as `load_case` reads it, its
    small board, start state, turns and expectations included; running it is `battlemat case`'s."""
    load_case(path)  # raises LoadError with every problem (check_file lists them)
    return []


_CASE_HEADER = re.compile(r"^[ \t]*\[[ \t]*case[ \t]*\]", re.MULTILINE)


def _is_case(path: Path) -> bool:
    """Whether the file is a rule case (a `[case]` table): its text is searched for the header first,
    so an encounter (the common file, up to 1 MB) is not parsed once more to be told apart."""
    try:
        text = read_user_text(path, MAX_ENCOUNTER_BYTES, "encounter", "check that this is the right file")
        return _CASE_HEADER.search(text) is not None and is_case_data(read_encounter_data(path))
    except LoadError:  # not TOML enough to say: the encounter's check reports why
        return False


def check_encounter(path: Path) -> list[Problem]:
    if _inline_map(path):  # the board drawn inline: read as every command reads it (the one reader)
        load_encounter(path)
        return []
    try:
        enc = load_encounter(path, with_map=False)
    except LoadError as exc:  # the encounter's own problems, and its map's if it names one
        map_ref = _map_reference(path)
        if map_ref is None or why_unreadable(path.parent / map_ref) is not None:
            return exc.problems
        return exc.problems + survey_any(path.parent / map_ref)[1]
    if enc.map is None:
        return []
    terrain = read_encounter_data(path).get("terrain")
    map_path = path.parent / enc.map
    board, problems, understood = survey_any(map_path, terrain=None if terrain is None else (terrain, str(path)),
                                             rules=enc.rules)
    if board is None:
        return problems
    if is_uvtt(map_path):  # what it understood is said by `check MAP.dd2vtt`; here only what is wrong
        problems = [p for p in problems if not p.note]
    else:
        problems = survey_problems(map_path, board, problems, understood)
    return problems + placement_problems(enc, board, str(path)) + token_problems(enc, board)


def _inline_map(path: Path) -> bool:
    """Whether the encounter draws its board in a [map] table (rows of squares) instead of a map file."""
    try:
        return isinstance(read_encounter_data(path).get("map"), dict)
    except LoadError:
        return False


def _map_reference(path: Path) -> str | None:
    """The encounter's `map`, when the file is TOML enough to name one."""
    try:
        head = read_encounter_data(path).get("encounter", {})
    except LoadError:
        return None
    ref = head.get("map") if isinstance(head, dict) else None
    return ref if isinstance(ref, str) else None
