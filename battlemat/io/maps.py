"""An encounter meets its map: the board is loaded and every character gets its starting square.

Every map a command reads comes through `read_map` (its board) and `survey_any` (`check`'s problems
and notes): the one place a map's kind is told by its suffix, a Tiled map (.tmx, .tmj: io.tiled) or
a Universal VTT file (.dd2vtt, .uvtt, .df2vtt: io.uvtt), so every command takes both alike.

A character's square is its `at` in the encounter, else its token on the map (an object named by its
id in the `tokens` layer), else none (it stays off the board until the game master places it).
Where characters stand must make sense on the board: inside it, not on a blocked square or a pit
(M5: pits are never entered), and never two on one square (M10).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from battlemat.core.board import Board
from battlemat.core.character import Character
from battlemat.core.encounter import Encounter
from battlemat.core.rules import Rules
from battlemat.core.types import XY
from battlemat.io.errors import LoadError, Problem
from battlemat.io.tiled import Understood, check_pictures, load_map, survey_map
from battlemat.io.uvtt import UVTT_SUFFIXES, is_uvtt, read_uvtt, survey_uvtt

MAP_SUFFIXES = (".tmx", ".tmj", ".json", *UVTT_SUFFIXES)  # what `check` and the commands take as a map
Terrain = tuple[Any, str] | None  # an encounter's [terrain] table and its file


def read_map(path: str | Path, terrain: Terrain = None, rules: Rules | None = None) -> Board:
    """The board of a map file, whatever its kind. Raises LoadError. `terrain` (an encounter's
    [terrain] table) and `rules` (its map switches) apply to Tiled maps; a Universal VTT file has
    walls and doors, no terrain (every square open ground)."""
    if is_uvtt(path):
        if terrain is not None:
            raise LoadError([_no_terrain(terrain)])
        return read_uvtt(path).board
    return load_map(path, terrain=terrain, rules=rules)[0]


def survey_any(path: str | Path, terrain: Terrain = None,
               rules: Rules | None = None) -> tuple[Board | None, list[Problem], list[Understood]]:
    """`check`'s reading of a map: (its board or None, its problems and notes, what its terrain was
    understood as: Tiled maps only)."""
    if is_uvtt(path):
        board, problems = survey_uvtt(path)
        if terrain is not None:
            return None, [_no_terrain(terrain), *problems], []
        return board, problems, []
    return survey_map(path, terrain=terrain, rules=rules)


def _no_terrain(terrain: tuple[Any, str]) -> Problem:
    """An encounter's [terrain] tables for a Universal VTT map: nothing there for them to name."""
    return Problem(terrain[1], "terrain", "a Universal VTT map has no tiles or layers for [terrain] to name (its "
                   "walls are lines between squares)", "remove the [terrain] tables")


def check_map_pictures(path: str | Path) -> None:
    """Raise the LoadError of a map whose pictures cannot be drawn (before a window opens): a Tiled
    map's missing images, a Universal VTT file's picture that does not decode."""
    if not is_uvtt(path):
        check_pictures(path)
        return
    picture = read_uvtt(path).picture
    if picture is not None:
        try:
            picture.decode()
        except ValueError as exc:
            raise LoadError.one(str(path), "image", str(exc), "export the map again") from None


def attach_map(enc: Encounter, map_path: str | Path, encounter_file: str = "",
               terrain: tuple[Any, str] | None = None) -> Encounter:
    """Load the encounter's map into `Encounter.board` and place its characters; `terrain` is the
    encounter's [terrain] table and file (a mapping of the map's terrain, io.tiled.mapping).
    Raises LoadError for a map that cannot be read or characters that cannot stand where placed."""
    board = read_map(map_path, terrain=terrain, rules=enc.rules)  # its [rules] may set the map switches
    problems = placement_problems(enc, board, encounter_file)
    if problems:
        raise LoadError(problems)
    return place_characters(enc, board)


def refuse_map(path: Path) -> None:
    """A map passed where an encounter is wanted (`play MAP.dd2vtt`) is told so, with what to write."""
    if path.suffix.lower() in (".tmx", ".tmj", *UVTT_SUFFIXES):
        raise LoadError.one(str(path), "", "this is a map, not an encounter: playing needs an encounter that names the "
                            "map and the characters on it",
                            f'write one with map = "{path.name}" and each character placed with at = [x, y] (README: '
                            f"Encounters; maps/cellar_door.toml is one on a Universal VTT map); to see the map: "
                            f"battlemat check {path} --picture map.png")


def starting_square(c: Character, board: Board) -> tuple[XY | None, bool]:
    """A character's first square and whether it came from its token: `at` wins over a token."""
    if c.at is not None:
        return c.at, False
    if c.id in board.tokens:
        return board.tokens[c.id], True
    return None, False


def place_characters(enc: Encounter, board: Board) -> Encounter:
    """The encounter with its board, and each character without `at` on its token's square."""
    chars = tuple(dataclasses.replace(c, at=starting_square(c, board)[0]) for c in enc.characters)
    return dataclasses.replace(enc, board=board, characters=chars)


def placement_problems(enc: Encounter, board: Board, encounter_file: str = "") -> list[Problem]:
    """Characters off the board, on squares nobody can stand on, or sharing a square. Each problem
    names where the square was written: the character's `at`, or its token in the map."""
    problems: list[Problem] = []
    taken: dict[XY, str] = {}
    for index, c in enumerate(enc.characters):
        sq, from_token = starting_square(c, board)
        if sq is None:
            continue
        if from_token:
            file, place, fix_move = board.source, f"layer 'tokens' object {c.id!r}", "move the token in Tiled"
        else:
            file, place = encounter_file or "<encounter>", f"character[{index}] {c.id!r}.at"
            fix_move = "change at = [x, y]"
        if not board.inside(sq):
            size = f"{board.width}x{board.height}"
            problems.append(Problem(file, place, f"{c.id} stands at {list(sq)}, off the {size} map",
                                    f"{fix_move}; squares run from [0, 0] to [{board.width - 1}, {board.height - 1}]"))
            continue
        x, y = sq
        if board.blocked[y, x] or board.pit[y, x]:
            what = "a pit (never entered, M5)" if board.pit[y, x] else "a blocked square"
            name = board.feature_at(sq)
            problems.append(Problem(file, place, f"{c.id} stands at {list(sq)} on {what}{f' ({name})' if name else ''}",
                                    f"{fix_move} to an open square"))
            continue
        if sq in taken:
            problems.append(Problem(file, place, f"{c.id} and {taken[sq]} both stand at {list(sq)} (M10)",
                                    f"{fix_move}: one character per square"))
            continue
        taken[sq] = c.id
    return problems


def token_problems(enc: Encounter, board: Board) -> list[Problem]:
    """Tokens naming nobody in the encounter (for `battlemat check`)."""
    ids = {c.id for c in enc.characters}
    return [
        Problem(board.source, f"layer 'tokens' object {name!r}", f"token {name!r} is no character of this encounter",
                f"name it with a character id ({', '.join(sorted(ids))}), or delete it")
        for name in board.tokens
        if name not in ids
    ]
