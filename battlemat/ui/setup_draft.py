"""Setting up an encounter by hand, before turn 1: the characters being placed, as values (no pygame).

The window's set-up screen (ui/setup.py) edits a `Draft`: place a new character from a short form,
add a copy of one ("Bandit 2"), remove one, move one to another square. Every edit is checked here
and refused with one clear message (a square off the map, a wall, a pit, a square taken (M10); an
empty or taken name; a rating that is no whole number 0..8 (S2)). The draft is an `Encounter` at
every moment, so the play screen shows it with its own renderer, and it is written as an encounter
file through io/encounter_writer.py (the author's comments kept when it came from one).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path

from battlemat.core.board import Board
from battlemat.core.character import RATING_NAMES, Character
from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.core.types import XY, CharId
from battlemat.io.encounter_writer import MAP_SUFFIXES, write_encounter
from battlemat.io.maps import read_map
from battlemat.io.rules_file import load_rules

TOP_RATING = max(RATING_NAMES)  # S2: base ratings run 0..8


class SetupError(BattlematError):
    """An edit of the set-up refused, with what to do instead."""


def is_map(path: str | Path) -> bool:
    """Whether `path` names a map (Tiled or Universal VTT) rather than an encounter (io.maps.read_map's kinds)."""
    return Path(path).suffix.lower() in MAP_SUFFIXES


def bare_map(path: str | Path) -> Encounter:
    """An encounter with nobody yet on the map at `path`, ready to set up. Raises LoadError for a map
    that cannot be read."""
    path = Path(path)
    board = read_map(path)
    title = path.stem.replace("_", " ").replace("-", " ").strip().title() or "Encounter"
    return Encounter(title=title, rules=load_rules(), characters=(), map=path.name, board=board)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.casefold()).strip("_") or "character"


def _numbered(base: str, n: int, sep: str) -> str:
    return f"{base}{sep}{n}" if n > 1 else base


class Draft:
    """The characters being set up on a board. `source`: the map or the encounter file it came from;
    `original`: that encounter file's text (its comments are kept when it is written back)."""

    def __init__(self, enc: Encounter, board: Board, source: Path, original: str | None = None) -> None:
        self.enc = enc
        self.board = board  # the map, or the arena an encounter without a map is played on
        self.source = source
        self.original = original
        self.loaded = enc.characters if original is not None else ()
        self.map_file = source.parent / enc.map if enc.map is not None else None
        self.saved: Path | None = source if original is not None else None
        self.dirty = False

    @property
    def characters(self) -> tuple[Character, ...]:
        return self.enc.characters

    def position(self, cid: CharId) -> XY | None:
        return self.enc.by_id[cid].at

    def _set(self, chars: list[Character] | tuple[Character, ...]) -> None:
        self.enc = dataclasses.replace(self.enc, characters=tuple(chars))
        self.dirty = True

    # -- checks ----------------------------------------------------------------------------------
    def square_problem(self, sq: XY | None, moving: CharId | None = None) -> str | None:
        """Why nobody can be placed on `sq` (None: they can): off the board, a wall or a pit, taken (M10)."""
        board = self.board
        if sq is None:
            return "click a square on the board first"
        if not board.inside(sq):
            return f"square {list(sq)} is off the {board.width}x{board.height} map"
        x, y = sq
        if board.blocked[y, x]:
            feature = board.feature_at(sq)
            return f"square {list(sq)} is a wall or blocked{f' ({feature})' if feature else ''}: nobody stands there"
        if board.pit[y, x]:
            return f"square {list(sq)} is a pit: nobody stands in it (M5)"
        for c in self.characters:
            if c.id != moving and self.position(c.id) == sq:
                return f"square {list(sq)} is taken by {c.name} (M10: one character per square)"
        return None

    def free_near(self, sq: XY) -> XY | None:
        """The free square nearest `sq` (rings of growing size), for a copy placed beside its original."""
        for r in range(1, max(self.board.width, self.board.height)):
            ring = [(sq[0] + dx, sq[1] + dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)
                    if max(abs(dx), abs(dy)) == r]
            for cand in ring:
                if self.square_problem(cand) is None:
                    return cand
        return None

    def name_problem(self, name: str, renaming: CharId | None = None) -> str | None:
        name = name.strip()
        if not name:
            return "Name: write a name (the log and the board name characters by it)"
        taken = next((c for c in self.characters if c.id != renaming and c.name.strip().casefold() == name.casefold()),
                     None)
        if taken is not None:
            return f"Name: {name!r} is already used by {taken.id}; give each character a name of its own"
        return None

    # -- edits -----------------------------------------------------------------------------------
    def new_character(self, name: str, side: str, ratings: Mapping[str, str], at: XY | None) -> Character:
        """A character from the form's fields (text as typed): checked whole, refused with the first
        problem. Ratings by pair as the rules name them (S1), a whole number 0..8 each (S2); an
        empty field is 0."""
        problem = self.name_problem(name)
        if problem is None and not side.strip():
            problem = "Side: name a side (an existing one or a new one, e.g. bandits)"
        skills, rating_problem = parse_ratings(self.enc.rules.pairs, ratings)
        if at is None and _slug(name) in self.open_tokens():  # the map's token for it places it
            at = self.board.tokens[_slug(name)]
        problem = problem or rating_problem or self._square_words(at)
        if problem is not None:
            raise SetupError(problem)
        c = Character(id=self.unique_id(_slug(name)), name=name.strip(), side=side.strip(), skills=skills, at=at)
        self._set([*self.characters, c])
        return c

    def open_tokens(self) -> dict[str, XY]:
        """The map's tokens naming nobody yet (a Tiled `tokens` layer): a character made with that name
        stands there, and the encounter is saved only when every token names a character (as `check`)."""
        return {t: sq for t, sq in self.board.tokens.items() if t not in self.enc.by_id}

    def _square_words(self, at: XY | None) -> str | None:
        problem = self.square_problem(at)
        return None if problem is None else f"Square: {problem}"

    def unique_id(self, base: str) -> CharId:
        ids = set(self.enc.by_id)
        n = 1
        while _numbered(base, n, "_") in ids:
            n += 1
        return _numbered(base, n, "_")

    def copy(self, cid: CharId) -> Character:
        """A copy of `cid` on the free square nearest it, with an id and a name of its own ("Bandit 2")."""
        c = self.enc.by_id[cid]
        here = self.position(cid)
        at = self.free_near(here) if here is not None else None
        if at is None:
            raise SetupError(f"No free square left for a copy of {c.name}")
        stem = re.sub(r"\s+\d+$", "", c.name.strip()) or c.name
        names = {x.name.strip().casefold() for x in self.characters}
        n = 2
        while f"{stem} {n}".casefold() in names:
            n += 1
        id_stem = re.sub(r"_\d+$", "", c.id)
        copy = dataclasses.replace(c, id=self.unique_id(id_stem), name=f"{stem} {n}", at=at)
        self._set([*self.characters, copy])
        return copy

    def remove(self, cid: CharId) -> None:
        self._set([c for c in self.characters if c.id != cid])

    def move(self, cid: CharId, sq: XY) -> None:
        """`cid` starts on `sq` instead (refused: a wall, a pit, a taken square, off the map)."""
        problem = self.square_problem(sq, moving=cid)
        if problem is not None:
            raise SetupError(f"{self.enc.by_id[cid].name} cannot stand there: {problem}")
        self._set([dataclasses.replace(c, at=sq) if c.id == cid else c for c in self.characters])

    def save(self, target: str | Path) -> Path:
        """Write the set-up as an encounter file (io/encounter_writer.py). Raises LoadError."""
        written = write_encounter(self.enc, target, self.map_file, self.original, self.loaded)
        self.saved = written
        self.dirty = False
        return written


def parse_ratings(pairs: tuple[str, ...], typed: Mapping[str, str]) -> tuple[dict[str, int], str | None]:
    """{pair: rating} from the form's text (an empty field is 0) and the first problem, if any (S2)."""
    out: dict[str, int] = {}
    for pair in pairs:
        text = typed.get(pair, "").strip()
        if not text:
            continue
        if not text.isdigit() or not 0 <= int(text) <= TOP_RATING:
            return out, f"{pair}: a rating is a whole number 0..{TOP_RATING} (S2), found {text!r}"
        if int(text):
            out[pair] = int(text)
    return out, None
