"""The lab in the game master's words (issue 31 items 4-6): `simulate`'s verdict line per side with
its difficulty word, "undecided" broken down, characters typed by name in `--variant` and `balance`,
and the defeats map naming who fell where. Every test drives the real command where one exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

from battlemat.cli import main
from battlemat.io.encounter import load_encounter
from battlemat.sim import report as report_module
from battlemat.sim.pool import Batch, run_batches
from battlemat.sim.runner import CharResult, RunResult
from battlemat.sim.stats import summarise, wilson
from battlemat.sim.variants import parse_variant
from battlemat.sim.verdict import difficulty, outlook, side_verdict, undecided, verdict_lines

GALLERY = str(ROOT / "maps" / "art_gallery.toml")
BOULDERS = str(ROOT / "maps" / "boulder_field.toml")
OGRES = EXAMPLES / "garran_and_the_ogres.toml"


def verdict_of(out: str) -> list[str]:
    """The lines under "Verdict" at the end of simulate's summary."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Verdict"))
    return [line.strip() for line in lines[start + 1:] if line.startswith("  ")]


# -- item 4: the verdict -------------------------------------------------------------------------
@pytest.mark.parametrize(("wins", "runs", "word"), [
    (0, 40, "deadly"),  # 0.0% - 8.8%: under 10% even at the hopeful end
    (0, 20, "hard"),  # 0.0% - 16.1%: too few runs to say deadly
    (4, 40, "hard"),  # 10% (4.0% - 23.1%)
    (20, 40, "even"),
    (14, 40, "even"),  # 35% (22.1% - 50.5%): the interval holds 50%
    (30, 40, "even"),  # 75% (59.8% - 85.8%): the cautious end is under 60%
    (36, 40, "easy"),  # 90% (76.9% - 96.0%)
    (40, 40, "trivial"),  # 91.2% - 100%
    (20, 20, "easy"),  # 83.9% - 100%: too few runs to say trivial
])
def test_the_difficulty_word_is_the_most_cautious_the_win_rates_interval_allows(wins, runs, word):
    assert difficulty(*wilson(wins, runs)) == word


def test_the_words_are_symmetric_between_two_sides_with_nothing_undecided():
    mirror = {"deadly": "trivial", "hard": "easy", "even": "even", "easy": "hard", "trivial": "deadly"}
    for n in (10, 40, 200):
        for k in range(n + 1):
            assert difficulty(*wilson(n - k, n)) == mirror[difficulty(*wilson(k, n))], (k, n)


def test_simulate_ends_with_a_line_per_side_from_the_same_numbers(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(report_module, "_figures", lambda *a: [])  # report.json alone: the figures take seconds
    assert main(["simulate", GALLERY, "--runs", "40", "--quiet", "--report", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    said = verdict_of(out)
    assert len(said) == 2  # both sides decided every combat: no undecided line
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["verdict"] == said  # report.json keeps the same lines
    by_side = {s["side"]: s for s in data["sides"]}
    for side, line in zip(("watch", "ogres"), said, strict=True):
        s = by_side[side]
        assert line.startswith(f"{difficulty(s['low'], s['high'])} for the {side}: it wins {s['rate']:.1%} "
                               f"({s['low']:.1%} - {s['high']:.1%})")
    # The watch loses all five in every one of these fights (the characters table: defeated 100% each)
    assert said[0].startswith("deadly for the watch: it wins 0.0% (0.0% - 8.8%), and loses all 5 of its "
                              "characters in 100% of fights, most by turn ")
    assert said[1].startswith("trivial for the ogres")
    turn = int(re.search(r"most by turn (\d+)", said[0]).group(1))
    assert data["turns"]["q1"] <= turn <= data["turns"]["q3"]  # the last watchman falls as the fight ends


def test_a_side_played_by_two_ais_shows_both_rates():
    """Issue 31 items 1-3 will pass the search AI's batch beside the tactics': the verdict takes one or
    more (label, results) per side. Here the watch with its tactics and with the greedy baseline."""
    enc = load_encounter(str(OGRES))
    base = Batch(str(OGRES), 30, 2, "d6", 20)
    tactics, greedy = run_batches([base, Batch(str(OGRES), 30, 2, "d6", 20, ai=(("watch", "greedy", ""),))])
    lines = verdict_lines(enc, [("tactics", tactics), ("greedy", greedy)])
    watch = lines[0]
    mine, theirs = outlook(enc, "watch", tactics), outlook(enc, "watch", greedy)
    assert watch.startswith(f"{mine.word} for the watch with tactics: it wins {mine.rate:.1%} ")
    assert f"; {theirs.word} with greedy: it wins {theirs.rate:.1%} ({theirs.low:.1%} - {theirs.high:.1%})" in watch
    assert side_verdict("watch", [("tactics", mine)]) == f"{mine.word} for the watch: " + \
        watch.split(": ", 1)[1].split("; ", 1)[0]  # one play: no label


def test_a_stalemate_says_neither_side_harms_the_other_and_why(capsys):
    """The boulder field, dice none: Kwirt blocks at 5 every turn (C5: Block at full rating against its
    chosen attacker) and the Giant lizard's Melee 4 never beats it, so every combat reaches the cap."""
    assert main(["simulate", BOULDERS, "--runs", "10", "--quiet"]) == 0
    said = verdict_of(capsys.readouterr().out)
    assert said[0].startswith("even for the heroes: it wins 0.0% (0.0% - 27.8%) with 100% undecided")
    assert said[1].startswith("even for the monsters")
    assert said[2].startswith("undecided in 100.0% of fights (10 of 10): 10 stalemate: nobody took a loss in the "
                              "last 10 turns before the turn cap")
    assert "the heroes never attacked (Kwirt used Block every turn)" in said[2]
    assert "Giant lizard's Melee 4 against Kwirt's Block 5" in said[2]


NO_ATTACKS = """
[encounter]
title = "Two who only guard"
seed = 1
[map]
rows = ["......", "......", "......"]
[[character]]
id = "a"
name = "Anna"
side = "left"
skills = { "Block/Dodge" = 3 }
at = [0, 1]
[[character]]
id = "b"
name = "Bors"
side = "right"
skills = { "Block/Dodge" = 2, "Melee/Press" = 0 }
at = [5, 1]
"""


def test_sides_with_no_attack_rated_above_0_are_a_stalemate(tmp_path, capsys):
    enc = tmp_path / "guards.toml"
    enc.write_text(NO_ATTACKS, encoding="utf-8")
    assert main(["simulate", str(enc), "--runs", "3", "--max-turns", "12", "--quiet"]) == 0
    said = verdict_of(capsys.readouterr().out)
    assert "3 stalemate" in said[-1]
    assert "the left have no attack rated above 0 (Anna " in said[-1]
    assert "the right have no attack rated above 0 (Bors " in said[-1]  # Melee/Press 0 (S2) is no attack


def test_the_turn_cap_with_the_sides_still_fighting_is_not_a_stalemate(capsys):
    assert main(["simulate", GALLERY, "--runs", "5", "--max-turns", "3", "--quiet"]) == 0
    said = verdict_of(capsys.readouterr().out)
    assert said[-1] == "undecided in 100.0% of fights (5 of 5): 5 reached the turn cap (3) still fighting"


def _run(index, winner, capped, chars, losses):
    r = RunResult(index, 0, winner, len(losses["x"]), capped)
    r.chars = {cid: CharResult(0, 0, defeated, fled) for cid, (defeated, fled) in chars.items()}
    r.side_losses = losses
    return r


def test_undecided_is_broken_down_into_cap_stalemate_and_no_side_left():
    quiet = {"x": [2] + [0] * 10, "y": [1] + [0] * 10}
    busy = {"x": [0] * 10 + [1], "y": [0] * 11}
    runs = [
        _run(0, "x", False, {"a": (False, False), "b": (True, False)}, busy),
        _run(1, None, True, {"a": (False, False), "b": (False, False)}, busy),  # the cap, a loss in its last turns
        _run(2, None, True, {"a": (False, False), "b": (False, False)}, quiet),  # the cap after 10 quiet turns
        _run(3, None, False, {"a": (False, True), "b": (True, False)}, busy),  # one fled, the other fell
        _run(4, None, False, {"a": (True, False), "b": (True, False)}, busy),  # both fell in the same turn
    ]
    u = undecided(runs)
    assert (u.capped, u.stalemate, u.fled, u.fell) == ((1,), (2,), (3,), (4,))


def test_the_verdict_says_how_many_of_a_side_got_away(capsys):
    """A character that reaches the map's edge leaves the conflict (C5): the verdict says whether one or
    all of the side fled. On the retreat map both couriers run on turn 1 and get away in every fight."""
    from types import SimpleNamespace

    assert main(["simulate", str(ROOT / "maps" / "tactics" / "retreat.toml"), "--runs", "4", "--workers", "1",
                 "--quiet"]) == 0
    said = verdict_of(capsys.readouterr().out)
    couriers = next(line for line in said if "for the couriers" in line)
    assert couriers.endswith("loses none of its 2 characters in 100% of fights; all 2 of its characters flee in 100%")
    enc = SimpleNamespace(characters=[SimpleNamespace(id="a", side="x"), SimpleNamespace(id="b", side="x")])
    quiet = {"x": [0], "y": [0]}
    runs = [_run(0, "y", False, {"a": (False, True), "b": (False, True)}, quiet),
            _run(1, "y", False, {"a": (False, True), "b": (True, False)}, quiet),
            _run(2, "y", False, {"a": (True, False), "b": (True, False)}, quiet),
            _run(3, "y", False, {"a": (True, False), "b": (True, False)}, quiet)]
    line = side_verdict("x", [("tactics", outlook(enc, "x", runs))])  # type: ignore[arg-type]
    assert line.endswith("; at least one of its characters flees in 50% (all 2 in 25%)"), line


# -- item 5: names, not ids ------------------------------------------------------------------------
@pytest.mark.parametrize(("typed", "canonical"), [
    ("Ogre leader.ai=brawler", "ogre_boss.ai=brawler"),
    ("ogre LEADER.ai=brawler", "ogre_boss.ai=brawler"),
    ("-Ogre cross", "-ogre_bolt1"),
    ("+Garr", "+copy:garran"),
    ("Bergtroll statue.Melee-1", "statue.Melee/Press=3"),
    ("statue.Melee-1", "statue.Melee/Press=3"),  # the id still works
])
def test_a_variant_names_a_character_as_the_window_shows_it(typed, canonical):
    assert parse_variant(typed, load_encounter(GALLERY)).text == canonical


def test_simulate_takes_a_name_and_prints_the_change_in_words(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(report_module, "_figures", lambda *a: [])
    assert main(["simulate", GALLERY, "--runs", "4", "--quiet", "--variant", "Ogre leader.ai=brawler",
                 "--variant", "-ogre crossbowman", "--report", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "the Ogre leader fights as a brawler" in out
    assert "remove the Ogre crossbowman" in out and "(ogre_bolt1)" in out
    written = json.loads((tmp_path / "variants.json").read_text())  # a file keeps the canonical ids
    assert [v["variant"] for v in written] == ["ogre_boss.ai=brawler", "-ogre_bolt1"]


def test_an_ambiguous_name_lists_the_candidates_and_exits_2(capsys):
    assert main(["simulate", GALLERY, "--runs", "4", "--quiet", "--variant", "Ogre.ai=brawler"]) == 2
    err = capsys.readouterr().err
    assert "'Ogre' could be any of: Ogre leader (ogre_boss), Ogre crossbowman (ogre_bolt1), " \
           "Ogre sharpshooter (ogre_bolt2)" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


CROSSBOW = """
[encounter]
title = "Garran against a crossbowman"
seed = 3
[[character]]
id = "garran"
name = "Garran"
side = "watch"
skills = { "Melee/Press" = 3, "Block/Dodge" = 3 }
[[character]]
id = "ogre_bolt1"
name = "Ogre crossbowman"
side = "ogres"
skills = { "Shoot/Throw" = 6, "Melee/Press" = 2 }
[[character]]
id = "ogre_cook"
name = "Ogre cook"
side = "ogres"
skills = { "Melee/Press" = 1 }
"""


def test_balance_says_remove_the_ogre_crossbowman_by_name_with_its_id(tmp_path, capsys):
    enc = tmp_path / "crossbow.toml"
    enc.write_text(CROSSBOW, encoding="utf-8")
    assert main(["balance", str(enc), "--side", "watch", "--target", "0.9", "--runs", "10", "--dice", "d6",
                 "--depth", "1", "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "remove the Ogre crossbowman (ogre_bolt1)" in out
    rows = [line for line in out.splitlines() if re.match(r"│ \d ", line)]
    assert rows and not any(re.search(r"\w\.(ai|Melee|Shoot)", row) for row in rows)  # words, not -ID / ID.X=N
    written = (tmp_path / "crossbow.balanced.toml").read_text()
    assert "# battlemat balance: " in written  # the change in words, then the numbers, atop the file


def test_tables_show_the_id_where_two_names_repeat_and_an_exact_name_beats_a_prefix():
    """An encounter file refuses two characters of one name, but a table never relies on it."""
    from types import SimpleNamespace

    from battlemat.labels import AmbiguousName, display_names, find_character

    chars = [SimpleNamespace(id="b1", name="Bandit"), SimpleNamespace(id="b2", name="bandit"),
             SimpleNamespace(id="bl", name="Bandit leader"), SimpleNamespace(id="hero", name="Hero")]
    assert display_names(chars) == {"b1": "Bandit (b1)", "b2": "bandit (b2)", "bl": "Bandit leader", "hero": "Hero"}
    assert find_character(chars, "b2") == "b2" and find_character(chars, "bandit l") == "bl"
    assert find_character(chars, "HER") == "hero"
    with pytest.raises(AmbiguousName, match=r"could be any of: Bandit \(b1\), bandit \(b2\)"):
        find_character(chars, "BANDIT")


# -- item 6: who fell where ----------------------------------------------------------------------------
def test_the_defeats_map_marks_the_starts_and_names_each_dark_squares_main_casualty(tmp_path, monkeypatch):
    """L3: a character with two major losses is defeated where it stands; the map's legend names, for
    each of its darkest squares, the character defeated there most often."""
    drawn: dict[str, list[str]] = {}
    real_save = report_module._save

    def keep_legend(fig, path):
        legend = fig.axes[0].get_legend()
        drawn[Path(path).name] = [t.get_text() for t in legend.get_texts()] if legend else []
        return real_save(fig, path)

    monkeypatch.setattr(report_module, "_save", keep_legend)
    enc = load_encounter(GALLERY)
    results = run_batches([Batch(GALLERY, 30, 7, "d6", 30)])[0]
    s = summarise(enc, results, 7, "d6", 30)
    assert sum(k for who in s.defeated_here.values() for _, k in who) == int(s.defeat_heat.sum())
    for (x, y), who in s.defeated_here.items():
        assert sum(k for _, k in who) == s.defeat_heat[y, x]
    report_module.write_report(enc, s, tmp_path, Path(GALLERY))
    legend = drawn["defeats_map.png"]
    assert legend[:2] == ["watch start", "ogres start"]
    marks = legend[2:]
    assert 1 <= len(marks) <= report_module.MAX_MARKED
    top = max(s.defeated_here, key=lambda sq: s.defeat_heat[sq[1], sq[0]])
    who, k = s.defeated_here[top][0]
    name = enc.by_id[who].name
    assert marks[0] == f"1: {name} ({enc.by_id[who].side}): {k} of the {s.defeat_heat[top[1], top[0]]} defeats there"
    data = json.loads((tmp_path / "report.json").read_text())
    assert {tuple(d["at"]) for d in data["defeated_here"]} == set(s.defeated_here)
