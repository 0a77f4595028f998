"""`battlemat check FILE...`: validate maps (.tmx), encounters, rule cases and lessons (.toml), listing
every problem.

A map (.tmx, or Tiled's JSON .tmj/.json) is checked for what stops loading (unsupported features,
bad terrain values, broken tokens) and for what loads but is probably a mistake (misspelled property
names, properties of the wrong Tiled type, missing images, terrain objects that cover nothing). An
encounter is checked as `load_encounter` reads it, then its map, then the two together: characters
off the map, on blocked squares or pits, sharing a square, and tokens that name no character.
A lesson (.lesson.toml) is read with its encounter and played through as written (teach.tutor).
A rule case (a .toml with a `[case]` table) is read as the case runner reads it (io.cases.load_case).
Notes (an infinite map's board is the box of its used chunks) are printed and pass.
Exit code 0 when every file is clean ("ok: FILE" lines), 2 otherwise.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from battlemat.io.cases import is_case_data, load_case
from battlemat.io.encounter import load_encounter, read_encounter_data
from battlemat.io.errors import LoadError, Problem
from battlemat.io.lessons import is_lesson_file, read_lesson_encounter
from battlemat.io.limits import MAX_ENCOUNTER_BYTES
from battlemat.io.maps import placement_problems, token_problems
from battlemat.io.tiled import lint_map
from battlemat.io.userfile import read_user_text, why_unreadable
from battlemat.teach.tutor import load_lesson

EXIT_PROBLEMS = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="maps (.tmx, .tmj), encounters and rule cases (.toml) and lessons (.lesson.toml)")


def run(args: argparse.Namespace) -> int:
    seen: set[str] = set()
    bad_files = 0
    total = 0
    out = sys.stdout
    for name in args.files:
        found = check_file(Path(name))
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
        if suffix in (".tmx", ".tmj", ".json", ".tsx", ".tsj"):
            return check_map(path)
        return [Problem(file, "", f"cannot check a {suffix or 'file without extension'}",
                        "pass maps (.tmx, .tmj) and encounters (.toml)")]
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
    return lint_map(path)[1]


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
    if _inline_map(path):  # a lesson's encounter draws its small board inline, as a rule case does
        read_lesson_encounter(path)
        return []
    try:
        enc = load_encounter(path, with_map=False)
    except LoadError as exc:  # the encounter's own problems, and its map's if it names one
        map_ref = _map_reference(path)
        if map_ref is None or why_unreadable(path.parent / map_ref) is not None:
            return exc.problems
        return exc.problems + lint_map(path.parent / map_ref)[1]
    if enc.map is None:
        return []
    board, problems = lint_map(path.parent / enc.map)
    if board is None:
        return problems
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
