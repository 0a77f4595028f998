"""Issue 31 item 3: the scripted tactics learn the lessons of the test encounters (maps/tactics/):
archers shoot and back off (R2, S5, M1), a party gangs up with one half (S7, S8), a guard holds its
choke point (M10, R4), a coward runs in time (C5, M9)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from battlemat.ai import Brain
from battlemat.cli import main
from battlemat.core.encounter import Encounter
from battlemat.core.match import Match
from battlemat.core.state import MatchState
from battlemat.core.types import XY
from battlemat.io.encounter import load_encounter
from battlemat.sim.runlog import trace_run

TACTICS = Path(__file__).resolve().parent.parent / "maps" / "tactics"
ENCOUNTERS = sorted(TACTICS.glob("*.toml"))


def _moved(match: Match, **where: XY) -> MatchState:
    chars = dict(match.state.chars)
    for cid, at in where.items():
        chars[cid] = replace(chars[cid], at=at)
    return match.state.replace_chars(chars)


@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: p.stem)
def test_each_tactics_encounter_says_what_it_tests_and_plays(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every test encounter passes `check`, says in its comments what it tests and what good play
    is, and plays a batch through `simulate` to its verdict."""
    lines = path.read_text(encoding="utf-8").splitlines()
    words = " ".join(line.lstrip("# ") for line in lines if line.startswith("#"))
    assert "What it tests" in words and "Good play" in words
    assert main(["check", str(path)]) == 0
    assert main(["simulate", str(path), "--runs", "2", "--quiet"]) == 0
    assert "Verdict" in capsys.readouterr().out


def test_archer_backs_off_or_shoots_from_a_safe_square_instead_of_a_weaker_throw() -> None:
    """R2: a Shoot fails next to a foe using Melee or Press, a Throw does not; S5: Lira's longbow helps
    Shoot alone, so her Throw is 1 weaker. With a brute three squares off (its charge ends next to her,
    M7), she no longer throws (the old archer did): she shoots from a square one step away (M1: at -1)
    or steps back with Dodge, to a square no brute can reach this turn."""
    enc = load_encounter(TACTICS / "kiting.toml")
    match = Match(enc, seed=1)
    lira = match.state["lira"].at
    assert lira is not None
    state = _moved(match, brute2=(lira[0] + 3, lira[1]))
    for seed in range(5):
        (it,) = Brain(enc, match.memory).decide(state, random.Random(seed), who=["lira"])
        assert it.use in ("Shoot", "Dodge") and it.to is not None, it
        for b in ("brute1", "brute2", "brute3"):
            at = state[b].at
            assert at is not None
            # a brute's charge (Press 3, M1) and a step cannot reach her new square
            assert max(abs(at[0] - it.to[0]), abs(at[1] - it.to[1])) > 4


def test_kiting_archers_win_every_diceless_combat() -> None:
    """Shooting and backing off, the two archers (Dodge 4 with their Acrobatics talent, M2, against a
    charge of 3) beat the three brutes in every combat; the old archers, throwing whenever a brute
    could reach them, won about half (49 of 100 seeds)."""
    enc = load_encounter(TACTICS / "kiting.toml")
    for run in range(6):
        result, _ = trace_run(enc, run, enc.seed, None, 30)
        assert result.winner == "archers", run


def _swords_attacks(enc: Encounter, runs: int) -> list[list[tuple[str, str]]]:
    out = []
    for run in range(runs):
        _, turns = trace_run(enc, run, enc.seed, None, 30)
        for intents, *_ in turns:
            out.append([(i.target, i.use) for i in intents
                        if enc.by_id[i.who].side == "swords" and i.use in ("Melee", "Press") and i.target])
    return out


def test_the_party_joins_one_troll_with_one_half() -> None:
    """S7: characters doing the same thing together act as one group at the best rating plus the
    group bonus; a Press and a Melee on one foe are two groups. Ash stands next to the North troll;
    Bryn and Cato stand as near the South troll as the North one: they join Ash (4 + 1 = 5 only ties a
    troll's 5; all three make 6), and every blow at it is the same half, on every draw of the AI's
    dice (the old brawler picked between the trolls at random)."""
    enc = load_encounter(TACTICS / "focus_fire.toml")
    match = Match(enc, seed=1)
    state = _moved(match, troll1=(6, 2), troll2=(6, 6), ash=(5, 2), bryn=(4, 4), cato=(4, 3))
    for seed in range(8):
        chosen = Brain(enc, match.memory).decide(state, random.Random(seed), who=["ash", "bryn", "cato"])
        assert {i.target for i in chosen} == {"troll1"}, chosen
        assert len({i.use for i in chosen if i.use in ("Melee", "Press")}) == 1, chosen
    # and in whole combats no troll ever meets a Press group and a Melee group of swords in one turn
    for attacks in _swords_attacks(enc, 12):
        halves: dict[str, set[str]] = {}
        for target, use in attacks:
            halves.setdefault(target, set()).add(use)
        assert all(len(h) == 1 for h in halves.values()), attacks


def test_brawlers_charge_a_foe_that_may_meet_them_rather_than_close_in_behind_a_weaker_guard() -> None:
    """P2 then P4: every move is made before any blow, so a Press at a foe out of reach now strikes it
    where it stops if it steps up, and a foe that strikes me while I charge it meets my Press at full
    rating in one contest (C3), where a Block would meet it at a weaker one (C5). On the focus fire map
    the swords (Press 4, Block 3) and the trolls (Press 5, Block 2) stand 5 squares apart: a charge of 3
    and the trolls' own 3 cover it, so everyone charges on turn 1 (the old brawler closed in behind
    Block and walked into the trolls' blows), and the swords win nearly every diceless combat (they won
    64 of 100 before)."""
    enc = load_encounter(TACTICS / "focus_fire.toml")
    match = Match(enc, seed=1)
    chosen = Brain(enc, match.memory).decide(match.state, random.Random(1))
    assert {i.who: i.use for i in chosen} == {c.id: "Press" for c in enc.characters}, chosen
    wins = sum(trace_run(enc, run, enc.seed, None, 30)[0].winner == "swords" for run in range(10))
    assert wins >= 9, wins
    # a cautious brawler keeps its guard (its style's risk)
    careful = replace(enc.by_id["ash"], style=MappingProxyType({**enc.by_id["ash"].style, "risk": "cautious"}))
    enc2 = replace(enc, characters=tuple(careful if c.id == "ash" else c for c in enc.characters))
    chosen = Brain(enc2, Match(enc2, seed=1).memory).decide(enc2.initial_state(), random.Random(1), who=["ash"])
    assert chosen[0].use == "Block", chosen


def test_the_guard_holds_the_choke_point() -> None:
    """Hale stands in the gap where the bridge lands: only one raider at a time can stand next to him
    and none can pass (M10), while Wren shoots (R1, R4) and no raider shoots back. He holds: no move
    across the bridge on turn 1 (the old guardian walked or charged onto it), the AI note says why,
    and he never stands east of the gap, where three raiders make one group (S7) against him."""
    enc = load_encounter(TACTICS / "choke_point.toml")
    match = Match(enc, seed=1)
    brain = Brain(enc, match.memory)
    (it,) = brain.decide(match.state, match.rng, who=["hale"])
    assert it.to is None and it.use in ("Block", "Dodge", "Melee", "Press")
    assert "choke point" in brain.notes["hale"]
    for run in range(6):
        result, turns = trace_run(enc, run, enc.seed, None, 30)
        assert all((after["hale"].at or (0, 0))[0] <= 4 for *_, after in turns if after["hale"].active)
        assert result.winner == "wardens", run


def test_cowards_run_for_the_edge_on_turn_1_when_outmatched() -> None:
    """C5: a runner leaves the conflict from the map's edge, opposing attacks with its full Exit
    meanwhile; M9: Exit moves first. The couriers (best attacks 3 + 3) face hunters whose add up to
    15: both use Exit on turn 1 toward the west edge (the old coward fought until a major loss and
    fell first), and in every combat both get away instead of being defeated."""
    enc = load_encounter(TACTICS / "retreat.toml")
    match = Match(enc, seed=1)
    brain = Brain(enc, match.memory)
    chosen = brain.decide(match.state, match.rng, who=["pell", "quill"])
    assert [(i.use, i.to[0] if i.to else None) for i in chosen] == [("Exit", 0), ("Exit", 0)]
    assert "outmatched" in brain.notes["pell"]
    for run in range(4):
        result, _ = trace_run(enc, run, enc.seed, None, 30)
        assert result.chars["pell"].fled and result.chars["quill"].fled, run


def test_arena_says_the_guard_beats_greedy_at_the_choke(capsys: pytest.CaptureFixture[str]) -> None:
    """Through the real command: greedy Hale charges over the bridge; the tactics win more."""
    assert main(["arena", str(TACTICS / "choke_point.toml"), "--runs", "12"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("wardens")]
    greedy = next(line for line in rows if " greedy " in line)
    assert "100.0%" in greedy.split()[2] and "beats it" in greedy
