"""io/encounter_writer.py: an encounter written back reads the same (every field of a character, S1-S5,
L1), keeps its author's text where nothing changed, and never goes where it would replace a map."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import ROOT

from battlemat.io.encounter import load_encounter
from battlemat.io.encounter_writer import write_encounter
from battlemat.io.errors import LoadError

ENCOUNTERS = sorted((ROOT / "maps").glob("*.toml")) + sorted((ROOT / "maps" / "examples").glob("*.toml"))


def _map_of(path: Path) -> Path | None:
    enc = load_encounter(path, with_map=False)
    return path.parent / enc.map if enc.map else None


@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: p.stem)
def test_written_from_its_file_it_reads_the_same_and_only_the_map_line_moves(path: Path, tmp_path: Path) -> None:
    enc = load_encounter(path)
    text = path.read_text()
    target = write_encounter(enc, tmp_path / path.name, _map_of(path), text, enc.characters)
    back = load_encounter(target)
    assert back.characters == enc.characters and back.turns == enc.turns and back.rules == enc.rules
    changed = [(a, b) for a, b in zip(text.splitlines(), target.read_text().splitlines(), strict=False) if a != b]
    assert all(a.startswith("map =") for a, _ in changed), changed[:3]


@pytest.mark.parametrize("path", [p for p in ENCOUNTERS if "[map]" not in p.read_text()], ids=lambda p: p.stem)
def test_written_afresh_every_field_of_every_character_reads_the_same(path: Path, tmp_path: Path) -> None:
    """character_table writes what the reader reads: talents, equipment by half or quality, observation
    TNs, scripts, styles, start losses."""
    enc = load_encounter(path)
    target = write_encounter(dataclasses.replace(enc, turns=()), tmp_path / "fresh.toml", _map_of(path))
    back = load_encounter(target)
    if enc.board is None:  # (written squares: the arena placed nobody differently)
        assert [dataclasses.replace(c, at=None) for c in back.characters] == \
            [dataclasses.replace(c, at=None) for c in enc.characters]
    else:
        assert back.characters == enc.characters
    assert (back.title, back.seed, back.dice) == (enc.title, enc.seed, enc.dice)


def test_a_map_is_never_written_over_and_nothing_is_written_when_it_would_not_load(tmp_path: Path) -> None:
    path = ROOT / "maps" / "boulder_field.toml"
    enc = load_encounter(path)
    for name in ("boulder_field.tmx", "x.tmj", "y.dd2vtt"):
        with pytest.raises(LoadError, match="replace a map"):
            write_encounter(enc, tmp_path / name, _map_of(path))
    with pytest.raises(LoadError, match="replace a map"):
        write_encounter(enc, ROOT / "maps" / "boulder_field.tmx", _map_of(path))
    two = dataclasses.replace(enc, characters=(enc.characters[0], dataclasses.replace(
        enc.characters[1], at=enc.characters[0].at)))
    with pytest.raises(LoadError, match=r"both stand at .* \(M10\)"):
        write_encounter(two, tmp_path / "two.toml", _map_of(path))
    assert not list(tmp_path.iterdir())


def test_characters_written_inline_become_tables_and_the_rest_stays(tmp_path: Path) -> None:
    src = tmp_path / "inline.toml"
    chars = '{ id = "a", side = "x", at = [1, 1] }, { id = "b", side = "y", at = [3, 1] }'
    src.write_text(f'# arena\ncharacter = [{chars}]\n[encounter]\ntitle = "Inline"  # the title\n')
    enc = load_encounter(src)
    moved = dataclasses.replace(enc, characters=(dataclasses.replace(enc.characters[0], at=(2, 2)),))
    out = write_encounter(moved, tmp_path / "out.toml", None, src.read_text(), enc.characters)
    text = out.read_text()
    assert text.startswith("# arena\n") and 'title = "Inline"  # the title' in text
    back = load_encounter(out)
    assert [(c.id, c.at) for c in back.characters] == [("a", (2, 2))]
