"""Saves and replays (DESIGN: saves are the encounter, the seed and the intents of each turn)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

from battlemat.core.intents import Intent
from battlemat.core.rating import Modifier
from battlemat.io.errors import LoadError
from battlemat.io.saves import FORMAT_VERSION, Save, read_save, write_save
from battlemat.ui.session import Session

DEFAULT = ROOT / "maps" / "art_gallery.toml"


def _every_kind_of_intent() -> tuple[Intent, ...]:
    return (
        Intent("parwanna", "Perception", "ogre_boss", share=True),
        Intent("billin", "Press", "ogre_bolt2", modifiers=(Modifier(-1, "slippery floor"),), to=(3, 4),
               path=((2, 4), (3, 4))),
        Intent("cullin", "item", item="dexterity"),
        Intent("ogre_boss", "Wrestle", "garran", throw=(5, 6)),
    )


def test_save_round_trip_keeps_every_field(tmp_path: Path) -> None:
    save = Save(str(DEFAULT), 7, "d8", (_every_kind_of_intent(), ()), ("watch",), meta={"title": "x"})
    path = write_save(save, tmp_path / "game.json")
    back = read_save(path)
    assert back.encounter_path(path).resolve() == DEFAULT and back.seed == 7 and back.dice == "d8"
    assert not Path(back.encounter).is_absolute()  # written relative to the save (a moved folder keeps it)
    assert back.pc_sides == ("watch",)
    assert back.turns == save.turns  # Intent equality: who, use, target, modifiers, to, path, share, item
    data = json.loads(path.read_text())
    assert data["format"] == "battlemat-save" and data["version"] == FORMAT_VERSION


def test_replaying_a_save_reproduces_the_event_log(tmp_path: Path) -> None:
    """Determinism: same encounter + seed + intents -> identical event log."""
    s = Session(DEFAULT)
    for _ in range(2):
        s.resolve()
    path = write_save(s.to_save(), tmp_path / "two.json")
    resumed, pending = Session.from_save(read_save(path), path)
    assert pending == []
    assert resumed.turn == s.turn == 3
    assert [e.to_dict() for e in resumed.match.log] == [e.to_dict() for e in s.match.log]
    assert resumed.state.to_dict() == s.state.to_dict()


def test_replay_mode_returns_the_turns_unplayed(tmp_path: Path) -> None:
    s = Session(EXAMPLES / "kwirt_and_the_lizard.toml")
    turns = s.enc.turns[:3]
    for intents in turns:
        s.resolve(intents)
    path = write_save(s.to_save(), tmp_path / "k.json")
    fresh, pending = Session.from_save(read_save(path), path, replay=True)
    assert fresh.turn == 1 and pending == list(turns)
    for intents in pending:
        fresh.resolve(intents)
    assert [e.to_dict() for e in fresh.match.log] == [e.to_dict() for e in s.match.log]


def test_autosave_is_written_after_each_resolved_turn(tmp_path: Path) -> None:
    auto = tmp_path / "auto" / "autosave.json"
    s = Session(DEFAULT, autosave=auto)
    assert not auto.exists()
    s.resolve()
    assert len(read_save(auto).turns) == 1
    s.resolve()
    assert len(read_save(auto).turns) == 2


def test_autosave_is_atomic_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch) -> None:
    auto = tmp_path / "autosave.json"
    s = Session(DEFAULT, autosave=auto)
    s.resolve()
    before = auto.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(LoadError, match="disk full"):  # the writer's refusal (io.outfile), not an OSError
        s.resolve()
    assert auto.read_bytes() == before  # the previous autosave is intact
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]  # no temp file left behind


def test_write_goes_through_a_temp_file_then_os_replace(tmp_path: Path, monkeypatch) -> None:
    seen: list[tuple[str, str]] = []
    real = os.replace

    def spy(src: str, dst: str) -> None:
        seen.append((str(src), str(dst)))
        assert Path(src).parent == Path(dst).parent  # same directory: the rename is atomic
        assert json.loads(Path(src).read_text())["seed"] == 3  # complete before it is renamed
        real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    write_save(Save(str(DEFAULT), 3), tmp_path / "s.json")
    assert len(seen) == 1 and seen[0][1] == str(tmp_path / "s.json")


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("{not json", "line 1"),
        ('{"format": "something else"}', "format"),
        ('{"format": "battlemat-save", "version": 99, "encounter": "x", "seed": 1}', "version"),
        ('{"format": "battlemat-save", "version": 1, "seed": 1}', "encounter"),
        ('{"format": "battlemat-save", "version": 1, "encounter": "x", "seed": "7"}', "seed"),
        ('{"format": "battlemat-save", "version": 1, "encounter": "x", "seed": 1, "turns": [[{"use": "Melee"}]]}',
         "turns[0][0]"),
    ],
)
def test_bad_saves_name_the_place(tmp_path: Path, text: str, place: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(LoadError) as info:
        read_save(path)
    assert str(path) in str(info.value) and place in str(info.value)


def test_missing_save_is_a_load_error(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="file not found"):
        read_save(tmp_path / "nope.json")


def test_relative_encounter_is_found_beside_the_save(tmp_path: Path) -> None:
    enc = tmp_path / "e.toml"
    enc.write_text((EXAMPLES / "valtor_lore.toml").read_text())
    save = Save("e.toml", 1)
    assert save.encounter_path(tmp_path / "s.json") == enc


# -- issue 25 item 7: the AI draws from its own stream ------------------------------------------------
def _legacy_replay(tmp_path: Path, dice: str) -> Path:
    """A simulated run's replay as battlemat wrote it when its AI drew from the dice's stream
    (save version 2, with the words to skip before each turn)."""
    path = tmp_path / f"old-{dice}.json"
    path.write_text(json.dumps({"format": "battlemat-save", "version": 2,
                                "encounter": str(EXAMPLES / "kwirt_and_the_lizard.toml"), "seed": 3,
                                "dice": dice, "turns": [], "meta": {}, "ai_draws": [4, 6]}))
    return path


def test_an_old_replay_whose_dice_shared_the_ai_stream_is_refused_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as err:
        read_save(_legacy_replay(tmp_path, "d6"))
    assert "ai_draws" in str(err.value) and "simulate" in str(err.value) and "--replays" in str(err.value)


def test_an_old_diceless_replay_still_reads_and_saves_are_written_as_version_1(tmp_path: Path) -> None:
    save = read_save(_legacy_replay(tmp_path, "none"))
    assert save.dice == "none"
    out = json.loads(write_save(save, tmp_path / "again.json").read_text())
    assert out["version"] == FORMAT_VERSION == 1 and "ai_draws" not in out
