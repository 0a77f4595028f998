"""Saves and replays (DESIGN: saves are the encounter, the seed and the intents of each turn)."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.rating import Modifier
from battlemat.core.walls import Door, Wall
from battlemat.io.encounter import load_encounter
from battlemat.io.errors import LoadError
from battlemat.io.limits import MAX_DOOR_CHANGES
from battlemat.io.saves import FORMAT_VERSION, DoorChange, Save, gm_doors, read_save, write_save
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


# -- issue 29: the game master's door changes ----------------------------------------------------------
def _door_save(tmp_path: Path, doors: object, turns: int = 2) -> Path:
    path = tmp_path / "doors.json"
    path.write_text(json.dumps({"format": "battlemat-save", "version": 1, "encounter": str(DEFAULT), "seed": 3,
                                "turns": [[] for _ in range(turns)], "doors": doors}))
    return path


def test_door_changes_round_trip_in_order_and_a_save_without_them_is_unchanged(tmp_path: Path) -> None:
    """M4: a GM's door change is saved with the turn it comes before; saves without doors read and
    write as they always did (no "doors" key)."""
    changes = (DoorChange(1, "d1", "open"), DoorChange(3, "d2", "locked"), DoorChange(3, "d1", "closed"))
    back = read_save(write_save(Save(str(DEFAULT), 3, None, ((), ()), doors=changes), tmp_path / "s.json"))
    assert back.doors == changes
    plain = write_save(Save(str(DEFAULT), 3, None, ((),)), tmp_path / "plain.json")
    assert "doors" not in json.loads(plain.read_text()) and read_save(plain).doors == ()
    shuffled = read_save(_door_save(tmp_path, [c.to_dict() for c in (changes[1], changes[0], changes[2])]))
    assert shuffled.doors == changes  # by turn; a turn's changes keep the order they were made in


@pytest.mark.parametrize(
    ("doors", "place", "words"),
    [
        ({"turn": 1}, "doors", "list of door changes"),
        ([{"turn": 1, "door": "d1"}], "doors[0]", "{turn, door, state}"),
        ([{"turn": 1, "door": "d1", "state": "ajar"}], "doors[0].state", "open, closed, locked"),
        ([{"turn": 4, "door": "d1", "state": "open"}], "doors[0].turn", "from 1 to 3"),
        ([{"turn": True, "door": "d1", "state": "open"}], "doors[0].turn", "from 1 to 3"),
        ([{"turn": 1, "door": "", "state": "open"}], "doors[0].door", "its id on the map"),
        ([{"turn": 1, "door": "d" * 201, "state": "open"}], "doors[0].door", "its id on the map"),
    ],
)
def test_bad_door_changes_name_the_place_and_the_fix(tmp_path: Path, doors: object, place: str, words: str) -> None:
    with pytest.raises(LoadError) as info:
        read_save(_door_save(tmp_path, doors))
    assert f"{place}:" in str(info.value) and words in str(info.value)


def test_door_changes_are_bounded(tmp_path: Path) -> None:
    """Every change writes a log line when replayed: a save may hold at most MAX_DOOR_CHANGES."""
    many = [{"turn": 1, "door": "d1", "state": "open"}] * (MAX_DOOR_CHANGES + 1)
    with pytest.raises(LoadError, match=f"at most {MAX_DOOR_CHANGES}"):
        read_save(_door_save(tmp_path, many))


def test_a_door_the_encounter_has_not_is_refused_when_the_save_is_opened(tmp_path: Path) -> None:
    """The art gallery has no doors: a change of door 'd1' names the place and the fix."""
    save = read_save(_door_save(tmp_path, [{"turn": 1, "door": "d1", "state": "open"}], turns=0))
    with pytest.raises(LoadError) as info:
        Session.from_save(save, tmp_path / "doors.json")
    assert "doors[0].door" in str(info.value) and "its map has no doors" in str(info.value)


def test_gm_doors_applies_the_changes_of_one_turn_in_order_and_logs_each_as_the_gms() -> None:
    """M4: before turn 2, the game master unlocks and opens the vault and locks the cellar; changes of
    other turns wait for theirs. Each is a 'door' event marked gm, in the words of the log."""
    enc = load_encounter(DEFAULT)
    assert enc.board is not None
    doors = (Door("v", Wall(1, 1, 1, 2), "locked", "vault"), Door("c", Wall(2, 1, 2, 2), "open"))
    match = Match(dataclasses.replace(enc, board=dataclasses.replace(enc.board, doors=doors)))
    changes = (DoorChange(1, "c", "closed"), DoorChange(2, "v", "open"), DoorChange(2, "c", "locked"))
    assert [e.text for e in gm_doors(match, changes, 2)] == ["GM unlocks and opens the door 'vault'",
                                                             "GM closes and locks the door c"]
    assert dict(match.state.doors) == {"v": "open", "c": "locked"}
    assert [(e.type, e.turn, dict(e.data)) for e in match.log] == [
        ("door", 2, {"door": "v", "state": "open", "gm": True}),
        ("door", 2, {"door": "c", "state": "locked", "gm": True})]
