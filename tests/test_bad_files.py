"""Bad and oversized files and command lines (issue 15): one clear message, exit 2, never a traceback.

Each class of the issue has its own test (named after it), and a seeded, bounded fuzz test mutates the
bundled encounters and a save written by `battlemat.io.saves` (wrong types everywhere, huge numbers,
NaN, unicode, deep nesting, cut text) and runs them through the commands in this process. Bounds come
from `battlemat.io.limits`, so a test follows a bound that moves.
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
import shutil
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from battlemat.cli import main
from battlemat.core.intents import Intent
from battlemat.io import limits
from battlemat.io.errors import LoadError
from battlemat.io.saves import Save, read_save, remove_stale_temps, write_save
from battlemat.io.userfile import check_nesting, read_user_file

MAPS = ROOT / "maps"
KWIRT = MAPS / "examples" / "kwirt_and_the_lizard.toml"


# -- helpers -----------------------------------------------------------------------------------------
def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out + out.err


def assert_clear(code: int, text: str, file: str | Path, *needles: str) -> None:
    """Exit 2 with a message naming the file and a fix; no traceback, no internal-error catch-all."""
    assert code == 2, text
    assert "Traceback" not in text and "please report" not in text, text
    assert str(file) in text, text
    assert "Fix:" in text, text
    for needle in needles:
        assert needle in text, text


def maps_copy(tmp: Path) -> Path:
    """`tmp`/maps with the bundled maps and tilesets, so mutated encounters find their maps beside
    them (and the window its tile images, through a link to the assets)."""
    (tmp / "maps").mkdir(exist_ok=True)
    if not (tmp / "assets").exists():
        (tmp / "assets").symlink_to(ROOT / "assets", target_is_directory=True)
    for f in [*MAPS.glob("*.tmx"), *MAPS.glob("*.tsx")]:
        shutil.copy(f, tmp / "maps" / f.name)
    return tmp / "maps"


def with_line(text: str, after: str, line: str) -> str:
    """`text` with `line` inserted after the first line equal to `after`."""
    lines = text.splitlines()
    i = lines.index(after)
    return "\n".join([*lines[: i + 1], line, *lines[i + 1:]]) + "\n"


# -- class 1: nesting ----------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["array", "inline_table", "rules_override", "dotted_keys"])
def test_nesting_deep_toml_is_refused_with_the_bound(tmp_path: Path, capsys, where: str) -> None:
    base = KWIRT.read_text()
    deep = {
        "array": base + "\nx = " + "[" * 5000 + "]" * 5000 + "\n",
        "inline_table": base.replace("[encounter]", "[encounter]\nfoo = " + "{a=" * 3000 + "1" + "}" * 3000, 1),
        "rules_override": base + "\n[rules]\ngroup_table = " + "[" * 5000 + "]" * 5000 + "\n",
        "dotted_keys": base + "\n[rules]\n" + ".".join(["a"] * 5000) + " = 1\n",
    }[where]
    path = tmp_path / "deep.toml"
    path.write_text(deep)
    for command in ("check", "resolve"):
        code, text = run(capsys, command, path)
        assert_clear(code, text, path, f"more than {limits.MAX_DATA_NESTING} deep")


def test_nesting_brackets_inside_strings_and_comments_do_not_count() -> None:
    text = 'a = "[[[[[["\nb = \'{{{{{{\'\n# [[[[[[[[\nc = """\n[[[[[[\\"""\n"""\nd = [[[1]]]\n'
    check_nesting(text, "f.toml", "toml", limit=3)
    with pytest.raises(LoadError, match="line 8"):
        check_nesting(text + "e = [[[[1]]]]\n", "f.toml", "toml", limit=3)
    check_nesting('{"a": "[[[[[[\\"[[[[", "b": [[1]]}', "f.json", "json", limit=3)


def test_nesting_deep_json_save_is_refused(tmp_path: Path, capsys) -> None:
    save = tmp_path / "deep.json"
    save.write_text('{"format": "battlemat-save", "version": 1, "encounter": "x", "seed": 1, "meta": '
                    + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(LoadError, match=f"more than {limits.MAX_DATA_NESTING} deep"):
        read_save(save)


# -- class 2: file names the file system refuses ---------------------------------------------------------
@pytest.mark.parametrize("ref", ["a" * 5000 + ".tmx", ("b" * 200 + "/") * 30 + "x.tmx", "nul\0.tmx", ""])
def test_oserror_map_path_the_file_system_refuses(tmp_path: Path, capsys, ref: str) -> None:
    path = tmp_path / "e.toml"
    path.write_text(with_line(KWIRT.read_text(), "[encounter]", f"map = {json.dumps(ref)}"))
    for command in ("check", "resolve"):
        code, text = run(capsys, command, path)
        assert_clear(code, text, path, "encounter.map")


def test_oserror_any_unreadable_file_is_a_message(tmp_path: Path, capsys) -> None:
    long_name = tmp_path / ("c" * 5000 + ".toml")
    code, text = run(capsys, "resolve", long_name)
    assert_clear(code, text, "c" * 100, "File name too long", "shorter path")
    code, text = run(capsys, "check", long_name)
    assert code == 2 and "File name too long" in text and "please report" not in text
    code, text = run(capsys, "resolve", tmp_path)
    assert_clear(code, text, tmp_path, "directory")
    code, text = run(capsys, "play", "--load", tmp_path / ("s" * 5000 + ".json"), "--screenshot", tmp_path / "x.png")
    assert_clear(code, text, "s" * 100, "File name too long")


def test_oserror_save_naming_an_unreadable_encounter(tmp_path: Path, capsys) -> None:
    save = tmp_path / "s.json"
    write_save(Save("d" * 5000 + ".toml", 1), save)
    code, text = run(capsys, "play", "--load", save, "--screenshot", tmp_path / "x.png", "--save-dir", tmp_path)
    assert_clear(code, text, save, "encounter", "File name too long")


# -- class 3: every file read is bounded -----------------------------------------------------------------
@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_bounded_read_of_endless_and_special_files(tmp_path: Path, capsys, special: str) -> None:
    if special == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        path = tmp_path / "fifo.toml"
        os.mkfifo(path)  # nobody writes: a blocking open would hang the test
    else:
        path = Path(special)
        if not path.exists():
            pytest.skip("no /dev/zero here")
    start = time.monotonic()
    code, text = run(capsys, "resolve", path)
    assert_clear(code, text, path, "not a regular file")
    code, text = run(capsys, "play", "--load", path, "--screenshot", tmp_path / "x.png")
    assert_clear(code, text, path, "not a regular file")
    assert time.monotonic() - start < 10


def test_bounded_read_refuses_big_encounters_and_saves_naming_the_bound(tmp_path: Path, capsys) -> None:
    enc = tmp_path / "big.toml"
    enc.write_text(KWIRT.read_text() + "# padding\n" * (limits.MAX_ENCOUNTER_BYTES // 10 + 1))
    code, text = run(capsys, "resolve", enc)
    assert_clear(code, text, enc, f"bigger than {limits.MAX_ENCOUNTER_BYTES // 2**20} MB")
    save = tmp_path / "big.json"
    save.write_text('{"format": "battlemat-save", "meta": "' + "a" * limits.MAX_SAVE_BYTES + '"}')
    code, text = run(capsys, "play", "--load", save, "--screenshot", tmp_path / "x.png")
    assert_clear(code, text, save, f"bigger than {limits.MAX_SAVE_BYTES // 2**20} MB")


def test_bounded_read_reads_at_most_the_limit_plus_one_byte(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_user_file(path, 100, "file", "") == b"x" * 100
    with pytest.raises(LoadError, match="bigger than 99 bytes"):
        read_user_file(path, 99, "file", "")


# -- class 4: hand-edited saves ----------------------------------------------------------------------------
@pytest.fixture
def good_save(tmp_path: Path) -> Path:
    """A save of three turns of the art gallery, its encounter beside it (relative reference)."""
    from battlemat.ui.session import Session

    folder = maps_copy(tmp_path)
    shutil.copy(MAPS / "art_gallery.toml", folder / "art_gallery.toml")
    session = Session(folder / "art_gallery.toml")
    for _ in range(3):
        session.resolve()
    save = session.to_save()
    path = folder / "good.json"
    write_save(Save("art_gallery.toml", save.seed, save.dice, save.turns, save.pc_sides, meta=save.meta), path)
    return path


def edited(path: Path, change: Callable[[dict[str, Any]], object]) -> Path:
    data = json.loads(path.read_text())
    change(data)
    out = path.with_name("edited.json")
    out.write_text(json.dumps(data))
    return out


def first_moving(data: dict[str, Any]) -> dict[str, Any]:
    return next(it for turn in data["turns"] for it in turn if "to" in it)


SAVE_EDITS: list[tuple[str, Callable[[dict[str, Any]], object], list[str]]] = [
    ("to_one_number", lambda d: first_moving(d).update(to=[1]), [".to", "a square is [x, y]"]),
    ("to_text", lambda d: first_moving(d).update(to="here"), [".to", "a square is [x, y]"]),
    ("to_off_any_map", lambda d: first_moving(d).update(to=[10**12, 5]), [".to"]),
    ("dice_typo", lambda d: d.update(dice="D6"), ["dice", "unknown dice 'D6'", "did you mean 'd6'?"]),
    ("dice_unknown", lambda d: d.update(dice="d7"), ["dice", "unknown dice 'd7'"]),
    ("use_typo", lambda d: d["turns"][0][0].update(use="Pres"), ["turns[0][0].use", "did you mean 'Press'?"]),
    ("who_missing", lambda d: d["turns"][1][0].pop("who"), ["turns[1][0].who"]),
    ("who_unknown", lambda d: d["turns"][2][0].update(who="nobody"), ["turns[2]", "nobody"]),
    ("modifier_big", lambda d: d["turns"][0][0].update(modifiers=[{"value": 7}]), ["turns[0][0].modifiers[0].value"]),
    ("turn_not_list", lambda d: d["turns"].__setitem__(1, {"who": "x"}), ["turns[1]", "a turn is a list"]),
    ("seed_huge", lambda d: d.update(seed=10**30), ["seed", "64-bit"]),
    ("seed_nan", lambda d: d.update(seed=math.nan), ["seed"]),
    ("pc_side_unknown", lambda d: d.update(pc_sides=["nobody"]), ["pc_sides", "nobody"]),
    ("too_many_turns", lambda d: d.update(turns=[[]] * (limits.MAX_TURNS + 1)), ["turns", str(limits.MAX_TURNS)]),
    ("version_zero", lambda d: d.update(version=0), ["version"]),
    ("unknown_field", lambda d: d["turns"][0][0].update(speed=3), ["turns[0][0].speed", "unknown intent field"]),
]


@pytest.mark.parametrize("name,change,needles", SAVE_EDITS, ids=[e[0] for e in SAVE_EDITS])
def test_hand_edited_save_names_the_place(good_save: Path, tmp_path: Path, capsys, name, change, needles) -> None:
    bad = edited(good_save, change)
    before = bad.read_bytes()
    code, text = run(capsys, "play", "--load", bad, "--screenshot", tmp_path / "x.png", "--save-dir", tmp_path)
    assert_clear(code, text, bad, *needles)
    assert bad.read_bytes() == before  # nothing saved is damaged


def test_hand_edited_save_with_deep_nesting(good_save: Path, tmp_path: Path, capsys) -> None:
    text = good_save.read_text().rstrip()
    bad = tmp_path / "deep.json"
    bad.write_text(text[:-1] + ', "x": ' + "[" * 5000 + "]" * 5000 + "}")
    code, out = run(capsys, "play", "--load", bad, "--screenshot", tmp_path / "x.png", "--save-dir", tmp_path)
    assert_clear(code, out, bad, f"more than {limits.MAX_DATA_NESTING} deep")


def test_hand_edited_save_good_one_still_loads(good_save: Path) -> None:
    from battlemat.ui.session import Session

    session, pending = Session.from_save(read_save(good_save), good_save)
    assert session.turn == 4 and pending == []


def test_hand_edited_save_killed_writes_leave_no_stray_temp_files(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "s.json"
    stale = tmp_path / ".s.json.abc123.tmp"  # what a write killed before its rename leaves
    stale.write_text("{half a save")
    old = time.time() - 2 * 3600
    os.utime(stale, (old, old))
    fresh = tmp_path / ".s.json.def456.tmp"  # a write in progress elsewhere: left alone
    fresh.write_text("{")
    other = tmp_path / ".t.json.abc123.tmp"  # another save's: left alone
    other.write_text("{")
    os.utime(other, (old, old))
    write_save(Save("e.toml", 1), target)
    assert not stale.exists() and fresh.exists() and other.exists()
    assert read_save(target).seed == 1
    assert remove_stale_temps(target) == []

    def broken_fsync(fd: int) -> None:
        raise KeyboardInterrupt  # interrupted mid-write: the finally removes the temp file

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(KeyboardInterrupt):
        write_save(Save("e.toml", 2), target)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([".s.json.def456.tmp", ".t.json.abc123.tmp", "s.json"])
    assert read_save(target).seed == 1  # the older save is intact


# -- class 5: names typed on the command line --------------------------------------------------------------
@pytest.mark.parametrize("command", [
    ["resolve", KWIRT],
    ["play", KWIRT, "--screenshot", "x.png"],
    ["simulate", KWIRT, "--runs", "2"],
])
def test_command_line_dice_typo_is_the_encounter_message(capsys, command: list[str | Path]) -> None:
    code, text = run(capsys, *command, "--dice", "D6")
    assert code == 2 and "Traceback" not in text
    assert "unknown dice 'D6'" in text and "did you mean 'd6'?" in text and "Fix:" in text


def test_command_line_dice_typo_same_words_as_in_a_file(tmp_path: Path, capsys) -> None:
    path = tmp_path / "e.toml"
    path.write_text(KWIRT.read_text().replace('dice = "none"', 'dice = "D6"'))
    code, in_file = run(capsys, "resolve", path)
    assert_clear(code, in_file, path, "encounter.dice")
    code, on_line = run(capsys, "resolve", KWIRT, "--dice", "D6")
    assert in_file.split("encounter.dice: ")[1].strip() in on_line


@pytest.mark.parametrize("args,needles", [
    (["--who", "kwrit", "--use", "Press"], ["--who", "did you mean 'kwirt'?"]),
    (["--who", "kwirt", "--use", "Pres"], ["--use", "unknown skill 'Pres'", "did you mean 'Press'?"]),
    (["--who", "kwirt", "--use", "Press", "--target", "liz"], ["--target", "did you mean 'lizard'?"]),
    (["--who", "kwirt", "--use", "item", "--item", "dexterous"], ["--item", "did you mean 'dexterity'?"]),
])
def test_command_line_unknown_names_for_reach(capsys, args: list[str], needles: list[str]) -> None:
    code, text = run(capsys, "reach", MAPS / "boulder_field.toml", *args)
    assert code == 2 and "Traceback" not in text and "Fix:" in text
    for needle in needles:
        assert needle in text, text


@pytest.mark.parametrize("args,needle", [
    (["--frames", "100000000000"], "--frames"),
    (["--size", "100000x100000"], "--size"),
    (["--seed", "1" * 40], "--seed"),
])
def test_command_line_numbers_out_of_bounds(capsys, args: list[str], needle: str) -> None:
    code, text = run(capsys, "play", KWIRT, "--screenshot", "x.png", *args)
    assert code == 2 and needle in text and "Fix:" in text and "Traceback" not in text


# -- class 6: absurd coordinates -----------------------------------------------------------------------------
@pytest.mark.parametrize("at", ["[1000000000000, 5]", "[-3, 5]", "[5, 1e12]", "[true, 5]", "[0x" + "f" * 5000 + ", 1]"])
@pytest.mark.parametrize("with_map", [False, True], ids=["no_map", "map"])
def test_coordinates_absurd_are_refused(tmp_path: Path, capsys, at: str, with_map: bool) -> None:
    base = (MAPS / "boulder_field.toml") if with_map else KWIRT
    path = (maps_copy(tmp_path) if with_map else tmp_path) / "e.toml"
    path.write_text(with_line(base.read_text(), 'side = "heroes"', f"at = {at}"))
    for command in (["resolve", path], ["play", path, "--screenshot", tmp_path / "x.png"]):
        code, text = run(capsys, *command)
        assert_clear(code, text, path, "character[0] 'kwirt'.at")
        assert len(text) < 2000


def test_coordinates_without_a_map_stay_within_the_arena_bound(tmp_path: Path, capsys) -> None:
    top = limits.MAX_ARENA_SQUARE
    path = tmp_path / "e.toml"
    path.write_text(with_line(KWIRT.read_text(), 'side = "heroes"', f"at = [{top}, {top}]"))
    assert run(capsys, "check", path)[0] == 0
    path.write_text(with_line(KWIRT.read_text(), 'side = "heroes"', f"at = [{top + 1}, 0]"))
    code, text = run(capsys, "check", path)
    assert_clear(code, text, path, f"[{top}, {top}]")


def test_coordinates_of_scripted_moves_without_a_map(tmp_path: Path, capsys) -> None:
    path = tmp_path / "e.toml"
    path.write_text(with_line(KWIRT.read_text(), 'who = "kwirt"', "to = [8, 60000000000]"))
    code, text = run(capsys, "resolve", path)
    assert_clear(code, text, path, "turn[0].intent[0].to")


@pytest.mark.parametrize("square", [[999_999, 999_999], [12, 0], [0, 8]])
def test_coordinates_saved_moves_off_the_arena(tmp_path: Path, capsys, square: list[int]) -> None:
    """A map-less encounter's arena is 12x8 here: a saved move off it was an IndexError in the window."""
    save = tmp_path / "s.json"
    write_save(Save(str(KWIRT), 1, turns=((Intent("kwirt", "Acrobatics", to=tuple(square)),),)), save)
    code, text = run(capsys, "play", "--load", save, "--screenshot", tmp_path / "x.png", "--save-dir", tmp_path)
    assert_clear(code, text, save, "turns[0][0].to", "off the 12x8 arena")


# -- class 7: too many characters ----------------------------------------------------------------------------
def many_characters(n: int, turns: bool = False) -> str:
    lines = ['[encounter]', 'title = "crowd"']
    for i in range(n):
        lines += ["[[character]]", f'id = "c{i}"', f'side = "{"ab"[i % 2]}"', "skills = { Melee = 3 }",
                  f"at = [{i % 100}, {i // 100}]"]
    for i in range(0, n if turns else 0, 2):  # refused with the crowd, not one problem per intent
        lines += ["[[turn]]", "[[turn.intent]]", f'who = "c{i}"', 'use = "Melee"', f'target = "c{i + 1}"']
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n,turns", [(10_000, False), (1_000, True)])
def test_characters_over_the_cap_are_refused_fast(tmp_path: Path, capsys, n: int, turns: bool) -> None:
    path = tmp_path / "crowd.toml"
    path.write_text(many_characters(n, turns))
    start = time.monotonic()
    for command in (["check", path], ["resolve", path], ["simulate", path, "--runs", "2", "--quiet"]):
        code, text = run(capsys, *command)
        assert_clear(code, text, path, f"{n} characters", f"at most {limits.MAX_CHARACTERS}")
        assert text.count("\n") <= 3  # one message, not one per character or intent
    # Generous for a busy 2-core CI (22 s seen at load 9); resolving or simulating the crowd takes minutes.
    assert time.monotonic() - start < 90


def test_characters_at_the_cap_load(tmp_path: Path, capsys) -> None:
    path = tmp_path / "crowd.toml"
    path.write_text(many_characters(limits.MAX_CHARACTERS))
    assert run(capsys, "check", path)[0] == 0


# -- class 8: fuzzing ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("override,needles", [
    ("aggressive_skills = [[1, 2]]", ["rules.aggressive_skills", "in a list of text"]),  # was a TypeError in P3
    ('aggressive_skills = ["Melee", "Pres"]', ["rules.aggressive_skills", "did you mean 'Press'?"]),
    ("group_table = [0, 1, 0x" + "f" * 5000 + "]", ["rules.group_table", "digits"]),  # was an OverflowError
    ("jump_running_m_per_rating = nan", ["rules.jump_running_m_per_rating", "+-100"]),
    ("default_observe_tn = 1000000000", ["rules.default_observe_tn", "+-100"]),  # a billion dice for d6
])
def test_fuzz_found_rules_overrides_out_of_bounds(tmp_path: Path, capsys, override: str, needles: list[str]) -> None:
    path = tmp_path / "e.toml"
    path.write_text(KWIRT.read_text() + "\n[rules]\n" + override + "\n")
    for command in ("check", "resolve"):
        code, text = run(capsys, command, path)
        assert_clear(code, text, path, *needles)


def test_fuzz_found_huge_numbers_in_messages(tmp_path: Path, capsys) -> None:
    """Python refuses to print an int of over 4,300 digits: a message showing one would crash."""
    path = tmp_path / "e.toml"
    huge = "0x" + "f" * 5000
    path.write_text(KWIRT.read_text().replace("skills = { Melee = 4 }", f"skills = {{ Melee = {huge} }}")
                    .replace("seed = 1", f"seed = {huge}"))
    code, text = run(capsys, "resolve", path)
    assert_clear(code, text, path, "encounter.seed", "'lizard'.skills.'Melee'", "digits")
    path.write_text(KWIRT.read_text().replace("seed = 1", "seed = " + "9" * 5000))
    code, text = run(capsys, "resolve", path)
    assert_clear(code, text, path, "4300 digits")


def test_fuzz_found_save_dir_that_cannot_be_written(good_save: Path, tmp_path: Path, capsys) -> None:
    """Loading a save no longer autosaves after every replayed turn: once at the end, and a failing
    autosave does not stop the load (the window reports it after the next turn, as in live play)."""
    blocked = tmp_path / "file"
    blocked.write_text("")
    code, text = run(capsys, "play", "--load", good_save, "--screenshot", tmp_path / "x.png", "--frames", "1",
                     "--save-dir", blocked / "sub")
    assert code == 0 and "Traceback" not in text, text


def deep(n: int) -> Any:
    v: Any = 1
    for _ in range(n):
        v = [v]
    return v


DEEP = "<deep>"  # written out as 3,000 nested brackets (Python's own json and repr would recurse on it)
HUGE = "<huge>"  # written out as a number of 5,000 digits (more than Python converts to text)

# Values a careless or hostile hand puts anywhere: wrong types, huge and odd numbers, odd text.
VALUES: list[Any] = [
    "", " ", "x", "Press", "d7", "D6", "kwirt", "ü🎲\u202eé", "a" * 300, "a" * 5000, "../../etc/passwd",
    "Melee/Press", -1, 0, 1, 2, 9, 255, 2**31, 2**63, 2**70, -(2**70), 10**30, HUGE,
    0.5, -0.0, 1e300, math.nan, math.inf, -math.inf, True, False,
    [], {}, [1], [0, 0], [1, 2, 3], [-1, 5], [10**12, 5], [[1, 2]], ["x"], {"a": 1}, {"value": 1}, deep(40), DEEP,
]


def toml_value(v: Any) -> str:
    if v == DEEP:
        return "[" * 3000 + "]" * 3000
    if v == HUGE:
        return "7" * 5000
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def to_toml(data: dict[str, Any]) -> str:
    """Any parsed TOML document back to text, with inline tables (no table headers needed)."""
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in data.items())


def nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every value inside `value` (dict keys and list indexes)."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += nodes(v, (*path, i))
    return out


def get(value: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        value = value[p]
    return value


# The values that broke battlemat before issue 15 (recursion, 4,300-digit ints, file names, NaN).
SHARP: list[Any] = [DEEP, HUGE, "a" * 5000, math.nan, math.inf, 2**70, [10**12, 5], [-3, 5], "", "D6"]


def pick(data: Any, rng: random.Random) -> tuple[Any, ...]:
    """A path to a value, the field name chosen first: a map path or a seed is as likely to be hit
    as one of a hundred list items."""
    groups: dict[str, list[tuple[Any, ...]]] = {}
    for path in nodes(data):
        if path:
            groups.setdefault(path[-1] if isinstance(path[-1], str) else "[]", []).append(path)
    return rng.choice(groups[rng.choice(sorted(groups))])


def mutate(data: Any, rng: random.Random) -> Any:
    """One to three structural mutations: replace (often with a value that broke battlemat before),
    delete, add, duplicate, swap or misspell a value."""
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in nodes(data) if p]
        path = pick(data, rng)
        parent, key = get(data, path[:-1]), path[-1]
        op = rng.randrange(7)
        if op == 0:
            parent[key] = copy.deepcopy(rng.choice(VALUES))
        elif op == 6:
            parent[key] = copy.deepcopy(rng.choice(SHARP))
        elif op == 1:
            del parent[key]
        elif op == 2 and isinstance(parent, dict):
            parent[rng.choice(["x", "id", "to", "at", "dice", "map", "seed", "who", "use"])] = rng.choice(VALUES)
        elif op == 3 and isinstance(parent, list):
            parent.extend(copy.deepcopy(parent[key]) for _ in range(rng.choice([1, 60])))
        elif op == 4:
            parent[key] = copy.deepcopy(get(data, rng.choice(paths)))  # a real value in the wrong place
        elif isinstance(parent[key], str) and parent[key]:
            s, i = parent[key], rng.randrange(len(parent[key]))
            parent[key] = s[:i] + rng.choice(["", "x", "/", "\\", "\n", "[", '"']) + s[i + 1:]
    return data


def cut(text: str, rng: random.Random) -> str:
    """A text mutation: cut short, a line dropped or doubled, or a stray character."""
    lines = text.splitlines(keepends=True)
    i = rng.randrange(len(lines))
    op = rng.randrange(4)
    if op == 0:
        return text[: rng.randrange(len(text))]
    if op == 1:
        return "".join(lines[:i] + lines[i + 1:])
    if op == 2:
        return "".join(lines[:i] + [lines[i]] * 2 + lines[i + 1:])
    j = rng.randrange(len(text))
    return text[:j] + rng.choice("[]{}\"'#=\n\\,0") + text[j:]


def encounter_case(rng: random.Random) -> tuple[str, str]:
    """(bundled encounter name, mutated text). A third get every house rule written out first, so
    mutations reach the rules overrides too."""
    import tomllib

    from battlemat.io.rules_file import load_rules

    source = rng.choice([*sorted(MAPS.glob("*.toml")), *sorted((MAPS / "examples").glob("*.toml"))])
    text = source.read_text()
    if rng.random() < 0.25:
        return source.name, cut(text, rng)
    data = tomllib.loads(text)
    if rng.random() < 0.33:
        data["rules"] = {key: switch.value for key, switch in load_rules().switches.items()}
    return source.name, to_toml(mutate(data, rng))


def first_id(text: str) -> str:
    after = text.split('id = "', 1)
    return after[1].split('"', 1)[0] if len(after) > 1 else "x"


def encounter_commands(path: Path, text: str, max_turns: int) -> list[list[str | Path]]:
    return [
        ["check", path],
        ["resolve", path],
        ["reach", path, "--who", first_id(text), "--use", "Press"],
        ["simulate", path, "--runs", "2", "--max-turns", str(max_turns), "--quiet"],
    ]


def save_case(save: dict[str, Any], rng: random.Random) -> str:
    if rng.random() < 0.2:
        return cut(json.dumps(save, indent=1), rng)
    text = json.dumps(mutate(save, rng), indent=1)
    return text.replace(json.dumps(DEEP), "[" * 3000 + "]" * 3000).replace(json.dumps(HUGE), "7" * 5000)


def fuzz_run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str]:
    """`run`, with an exception escaping `main` turned into exit -1 and its traceback as the text."""
    try:
        return run(capsys, *argv)
    except Exception:  # noqa: BLE001 - the fuzz harness: any exception that escapes `main` is the finding
        capsys.readouterr()
        return -1, traceback.format_exc()


def fuzz_failure(code: int, text: str, label: str) -> str | None:
    """What is wrong with one fuzzed run (None when it exited 0, or 2 with a message and no traceback)."""
    if code not in (0, 2) or "Traceback" in text or "please report" in text:
        return f"{label}: exit {code}\n{text[-2000:]}"
    return None


FUZZ_ENCOUNTERS, FUZZ_SAVES = int(os.environ.get("FUZZ_ENCOUNTERS", 80)), int(os.environ.get("FUZZ_SAVES", 40))


def test_fuzz_encounters_and_saves_never_crash(tmp_path: Path, capsys, good_save: Path) -> None:
    """Seeded and bounded: 80 mutated encounters through check, resolve, reach and simulate, and 40
    mutated saves through `play --load` (a few seconds in all). Before issue 15's fixes, 10 of these
    runs ended in a traceback or the catch-all."""
    rng = random.Random(15)
    folder = maps_copy(tmp_path)
    failures = []
    for n in range(FUZZ_ENCOUNTERS):
        source, text = encounter_case(rng)
        path = folder / f"fuzz{n}.toml"
        path.write_text(text)
        for command in encounter_commands(path, text, max_turns=2):
            code, out = fuzz_run(capsys, *command)
            failures.append(fuzz_failure(code, out, f"{source} #{n}: {command[0]}"))
    save = json.loads(good_save.read_text())
    for n in range(FUZZ_SAVES):
        path = good_save.with_name(f"fuzz{n}.json")
        path.write_text(save_case(save, rng))
        code, out = fuzz_run(capsys, "play", "--load", path, "--screenshot", tmp_path / "x.png", "--frames", "1",
                             "--save-dir", tmp_path)
        failures.append(fuzz_failure(code, out, f"save #{n}"))
    failures = [f for f in failures if f]
    assert not failures, f"{len(failures)} failures, the first:\n{failures[0]}"


def test_limits_readme_states_the_bounds_of_limits_py() -> None:
    text = " ".join((ROOT / "README.md").read_text().split())
    for words in (f"an encounter is at most {limits.MAX_ENCOUNTER_BYTES // 2**20} MB",
                  f"a save {limits.MAX_SAVE_BYTES // 2**20} MB", f"nested at most {limits.MAX_DATA_NESTING} levels",
                  f"at most {limits.MAX_CHARACTERS} characters", f"and {limits.MAX_TURNS} turns",
                  f"`[{limits.MAX_ARENA_SQUARE}, {limits.MAX_ARENA_SQUARE}]`", "battlemat/io/limits.py"):
        assert words in text, words
