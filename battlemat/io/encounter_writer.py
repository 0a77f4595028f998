"""An encounter set up by hand, written back as an encounter file (the window's set-up, ui/setup.py).

The file is what `load_encounter` reads: [encounter] with its title, seed, dice and map (relative to
the file), and one [[character]] per character with its square. Written from an encounter file,
the author's text is kept where a TOML writer can (tomlkit): comments, the order of tables, [rules],
[terrain], [side.*], scripted turns and every field of a character that was not changed stay as
written; a character removed loses its table, a new one gets a table at the end. The text is read
back with the one reader (and its map) before anything is written, so a file that would not load is
never written; the write goes through the single writer (io/outfile.py) and never replaces the map.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AoT, Table

from battlemat.core.character import Character
from battlemat.core.encounter import Encounter
from battlemat.io.encounter import parse_encounter
from battlemat.io.errors import LoadError
from battlemat.io.outfile import write_file
from battlemat.io.toml_write import relative_path
from battlemat.io.uvtt import UVTT_SUFFIXES

ENCOUNTER_SUFFIX = ".toml"
MAP_SUFFIXES = (".tmx", ".tmj", *UVTT_SUFFIXES)  # what io.maps.read_map reads: never written over


def character_table(c: Character) -> dict[str, Any]:
    """A character as an encounter file writes it: the fields that differ from their defaults."""
    out: dict[str, Any] = {"id": c.id, "name": c.name, "side": c.side}
    if c.kind:
        out["kind"] = c.kind
    out["skills"] = {pair: v for pair, v in c.skills.items()}
    if any(c.talents.values()):
        out["talents"] = {pair: v for pair, v in c.talents.items() if v}
    if c.equipment:
        out["equipment"] = [{"name": e.name, "skill": e.named_for, **({"quality": e.quality} if e.quality
                                                                       else {"bonus": e.bonus})}
                            for e in c.equipment]
    for flag in ("fragile", "deadly"):
        if getattr(c, flag):
            out[flag] = True
    if c.observe_tn:
        out["observe_tn"] = dict(c.observe_tn)
    if c.at is not None:
        out["at"] = [c.at[0], c.at[1]]
    if c.ai:
        out["ai"] = c.ai
    if c.script:
        out["script"] = [{k: v for k, v in (("use", s.use), ("until", s.until), ("turns", s.turns),
                                            ("target", s.target)) if v} for s in c.script]
    if c.style:
        out["style"] = dict(c.style)
    if c.start_minor:
        out["minor"] = c.start_minor
    if c.start_major:
        out["major"] = c.start_major
    return out


def _inline(value: Any) -> Any:
    """Tables inside a character written inline ({ ... }), as people write skills and equipment."""
    if isinstance(value, Mapping):
        t = tomlkit.inline_table()
        t.update({k: _inline(v) for k, v in value.items()})
        return t
    if isinstance(value, list):
        arr = tomlkit.array()
        arr.extend(_inline(v) for v in value)
        return arr
    return value


def _set_fields(table: Table | dict[str, Any], fields: Mapping[str, Any], old: Mapping[str, Any]) -> None:
    """Write the fields that changed since `old` (what the file had), keeping the rest as written;
    a field gone since is removed."""
    for key in list(old):
        if key not in fields and key in table:
            del table[key]
    for key, value in fields.items():
        if old.get(key) != value:
            table[key] = _inline(value)


def encounter_text(enc: Encounter, target: Path, map_file: Path | None, original: str | None = None,
                   loaded: Sequence[Character] = ()) -> str:
    """The TOML text of `enc` written at `target`. `map_file`: its map (None: an inline [map] or none).
    `original`: the text of the encounter file it was set up from, kept where it can be; `loaded`:
    the characters as that file gave them (a character is rewritten only where it changed)."""
    doc = tomlkit.parse(original) if original is not None else tomlkit.document()
    head = doc.get("encounter")
    if not isinstance(head, Table):
        head = tomlkit.table()
        doc["encounter"] = head
    if head.get("title") != enc.title:
        head["title"] = enc.title
    if original is None:
        head["seed"] = enc.seed
        if enc.dice != "none":
            head["dice"] = enc.dice
    if map_file is not None:
        ref = relative_path(map_file, target.parent)
        if head.get("map") != ref:
            head["map"] = ref
    _write_characters(doc, enc.characters, {c.id: c for c in loaded})
    return tomlkit.dumps(doc)


def _write_characters(doc: tomlkit.TOMLDocument, chars: Sequence[Character], loaded: Mapping[str, Character]) -> None:
    """The [[character]] tables where the file has them: each kept (its changed fields rewritten) or
    removed, and a new one appended after the last, in the order set up."""
    aot = doc.get("character")
    if not isinstance(aot, AoT):  # none yet, or written inline (character = [{...}]): tables of their own now
        if "character" in doc:
            del doc["character"]
        aot = tomlkit.aot()
        doc.append("character", aot)
    wanted = {c.id: c for c in chars}
    for i in reversed(range(len(aot))):
        if str(aot[i].get("id")) not in wanted:
            del aot[i]
    tables = {str(t.get("id")): t for t in aot}
    for c in chars:
        fields = character_table(c)
        table = tables.get(c.id)
        if table is None:
            table = tomlkit.table()
            _set_fields(table, fields, {})
            table.add(tomlkit.nl())  # a blank line before whatever follows it
            aot.append(table)
            continue
        was = character_table(loaded[c.id]) if c.id in loaded else {}
        if "at" not in table and loaded.get(c.id) is not None and loaded[c.id].at == c.at:
            fields.pop("at", None)  # placed by its token on the map, and not moved: the token still places it
            was.pop("at", None)
        _set_fields(table, fields, was)


def write_encounter(enc: Encounter, target: str | Path, map_file: Path | None, original: str | None = None,
                    loaded: Sequence[Character] = ()) -> Path:
    """Write `enc` as an encounter file at `target` (`.toml` added when it has no such ending): read
    back with the one reader first (every problem is a LoadError naming the place and the fix, and
    nothing is written), never over its own map, through the single writer. Returns the file written."""
    target = Path(target).expanduser()
    mapped = map_file is not None and target.resolve() == map_file.resolve()
    if mapped or target.suffix.lower() in MAP_SUFFIXES:
        what = "the map the encounter is set up on" if mapped else "a map's name"
        raise LoadError.one(str(target), "", f"this is {what}: an encounter written there would replace a map",
                            "choose another name, ending in .toml")
    if target.suffix.lower() != ENCOUNTER_SUFFIX:
        target = target.with_name(target.name + ENCOUNTER_SUFFIX)
    if not enc.characters:
        raise LoadError.one(str(target), "character", "no characters: an encounter needs at least one",
                            "place a character on the map first (New)")
    text = encounter_text(enc, target, map_file, original, loaded)
    _check(text, target, enc)
    return write_file(target, text, "the encounter", "choose another place for the encounter")


def _check(text: str, target: Path, enc: Encounter) -> None:
    """The text read back as `load_encounter` would read it at `target`: its tables, and each character
    on a square of the board it was set up on."""
    data = tomllib.loads(text)
    back = parse_encounter(data, str(target), base_dir=target.parent, rules=None)
    board = enc.board
    if board is None:
        return
    from battlemat.io.maps import placement_problems, token_problems  # noqa: PLC0415 - start-up time: the map reader only for a map

    problems = placement_problems(back, board, str(target)) + token_problems(back, board)  # (as `check` says)
    if problems:
        raise LoadError(problems)
