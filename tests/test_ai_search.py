"""The search AI (issue 31 items 1-3; battlemat/ai/search.py): its evaluation, its choices, its
secrecy (P1), its budget and determinism, and the commands that use it (`--ai`, `ai = "search"`)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from battlemat.ai import Brain, ai_stream, search
from battlemat.cli import main
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.memory import MatchMemory
from battlemat.io.encounter import load_encounter
from battlemat.sim.overrides import with_ai
from tests.conftest import ROOT

GALLERY = str(ROOT / "maps" / "art_gallery.toml")
AMBUSH = str(ROOT / "maps" / "forest_ambush.toml")

# Anna's script has her Block every turn next to Bors, who cannot hurt her and falls to a few blows:
# her tactic does nothing, a search on it should strike.
DUEL = """
[encounter]
title = "A guard who only guards"
seed = 1
dice = "none"
[map]
rows = ["......", "......", "......"]
[[character]]
id = "anna"
name = "Anna"
side = "left"
skills = { "Melee/Press" = 6, "Block/Dodge" = 3 }
at = [2, 1]
ai = "AI"
script = [ { use = "Block" } ]
[[character]]
id = "bors"
name = "Bors"
side = "right"
skills = { "Block/Dodge" = 1 }
fragile = true
at = [3, 1]
ai = "scripted"
script = [ { use = "Dodge" } ]
"""


def duel(ai: str, folder: Path):  # type: ignore[no-untyped-def]
    """The duel with Anna's `ai` (read from a file: an inline [map] is attached by load_encounter)."""
    path = folder / f"duel-{ai.replace(':', '-')}.toml"
    path.write_text(DUEL.replace('"AI"', f'"{ai}"'), encoding="utf-8")
    return load_encounter(path)


def test_parse_names_the_base_tactic() -> None:
    assert search.parse("search") == (True, "default")
    assert search.parse("search:archer") == (True, "archer")
    assert search.parse("brawler") == (False, "brawler")
    assert search.parse("") == (False, "default")
    assert search.searching("archer") == "search:archer" and search.searching("") == "search"


def test_value_ranks_a_defeated_foe_above_nothing_and_a_fled_friend_above_a_defeated_one(tmp_path) -> None:
    """The evaluation (module docstring): losses and defeats dealt count for the side, taken against
    it, and a character that gets away (fled) costs less than one defeated (L1, L4; the arena's order)."""
    enc = duel("scripted", tmp_path)
    known = MatchMemory(enc)
    start = enc.initial_state()

    def with_(cid: str, **kw: object):  # type: ignore[no-untyped-def]
        return replace(start, chars={**start.chars, cid: replace(start[cid], **kw)})

    nothing = search.value(enc, start, "left", known)
    assert search.value(enc, with_("bors", minor=1), "left", known) > nothing
    assert search.value(enc, with_("bors", defeated=True), "left", known) > search.value(
        enc, with_("bors", minor=2, major=1), "left", known)
    assert search.value(enc, with_("anna", minor=1), "left", known) < nothing
    fled, fell = search.value(enc, with_("anna", fled=True), "left", known), search.value(
        enc, with_("anna", defeated=True), "left", known)
    assert fell < fled < nothing
    # position: a fighter nearer its foe scores above one farther away (walking distance)
    far = replace(start, chars={**start.chars, "anna": replace(start["anna"], at=(0, 1))})
    assert search.value(enc, far, "left", known) < nothing


def test_value_projects_a_fight_not_over_and_a_side_that_got_away_loses_the_field_at_half(tmp_path) -> None:
    """The evaluation (module docstring): a fight not over yet counts the field by the square law of
    the sides' strengths (their best attacks, S2), so being outmatched costs before the defeat comes; a
    side whose characters all fled loses the field at half a lost fight's cost (the arena ranks a side
    that got away above one defeated)."""
    enc = duel("scripted", tmp_path)
    known = MatchMemory(enc)
    start = enc.initial_state()
    # Anna (Melee 6) against Bors (no attack): the field is all but hers
    w = search.WEIGHTS
    assert search.value(enc, start, "left", known) == pytest.approx(
        w.win * w.projected - w.approach * 1, abs=0.01)  # (next to Bors: one square of walking)
    assert search.value(enc, start, "right", known) == pytest.approx(-w.win * w.projected - w.approach, abs=0.01)

    def with_(cid: str, **kw: object):  # type: ignore[no-untyped-def]
        return replace(start, chars={**start.chars, cid: replace(start[cid], **kw)})

    ran, fell = with_("bors", fled=True), with_("bors", defeated=True)
    assert search.value(enc, ran, "right", known) == -w.fled - w.win / 2
    assert search.value(enc, fell, "right", known) == -w.defeated - w.win
    # fleeing now beats staying in the lost fight: what a search sees at the end of its play-out
    assert search.value(enc, ran, "right", known) > search.value(enc, start, "right", known) - w.fled


def test_outmatched_couriers_on_search_run_on_turn_one_as_their_tactic_does() -> None:
    """The retreat map (maps/tactics): the couriers cannot win (their best attacks 3 + 3 against 15);
    fighting on looks cheaper than leaving within a two-turn play-out unless the evaluation counts the
    field the hunters will hold. With the square law and the half-lost field of a side that got away, the
    search keeps both Exits (C5) and every combat ends with both couriers fled, none defeated."""
    enc = with_ai(load_encounter(ROOT / "maps" / "tactics" / "retreat.toml"), (("couriers", "search", ""),))
    for seed in (1, 2):
        m = Match(enc, seed=seed)
        brain = Brain(enc, m.memory, m.dice)
        rng = ai_stream(seed)
        first = brain.decide(m.state, rng)
        assert {it.who: it.use for it in first if it.who in ("pell", "quill")} == {"pell": "Exit", "quill": "Exit"}
        m.play(first)
        while not m.outcome().over and m.state.turn <= 10:
            m.play(brain.decide(m.state, rng))
        assert m.state["pell"].fled and m.state["quill"].fled, seed


def test_a_turn_that_strikes_scores_above_one_that_does_nothing(tmp_path) -> None:
    """The search resolves the candidate's turn on the real rules: Anna's Melee on Bors (losses dealt,
    C1, L1) evaluates above her scripted Block, which meets no attack."""
    enc = duel("search:scripted", tmp_path)
    m = Match(enc)
    brain = Brain(enc, m.memory, m.dice)
    s = search._Search(brain, m.state, 1, 100, None)
    dodge = Intent("bors", "Dodge", "anna")
    struck = s.evaluate({"anna": Intent("anna", "Melee", "bors"), "bors": dodge}, "left")
    guarded = s.evaluate({"anna": Intent("anna", "Block", "bors"), "bors": dodge}, "left")
    assert struck > guarded
    # diceless, one sample each: the strike defeats fragile Bors (L4) and ends the fight, so no play-out
    # follows it; the guard's turn is played out one more turn (PLAYOUT)
    assert s.used == 1 + 1 + search.PLAYOUT


def test_the_search_leaves_a_tactic_that_does_nothing_for_one_that_wins(tmp_path) -> None:
    """Anna's script Blocks forever (a stalemate); with ai = "search:scripted" the search strikes and
    wins the duel, and the AI's note says what it chose over the tactic."""
    plain, searched = duel("scripted", tmp_path), duel("search:scripted", tmp_path)
    m = Match(plain)
    first = Brain(plain, m.memory).decide(m.state, ai_stream(1))
    assert {it.who: it.use for it in first}["anna"] == "Block"
    m = Match(searched)
    brain = Brain(searched, m.memory, m.dice)
    rng = ai_stream(1)
    first = brain.decide(m.state, rng)
    assert {it.who: it.use for it in first}["anna"] in ("Melee", "Press")
    assert brain.notes["anna"].startswith("search: chose")
    m.play(first)
    while not m.outcome().over and m.state.turn <= 10:
        m.play(brain.decide(m.state, rng))
    assert m.outcome().winner == "left"


def test_the_search_keeps_its_side_secret_and_the_order_of_the_sides_changes_nothing() -> None:
    """P1 (everyone declares in secret): with the search on both sides, deciding both in one call gives
    each side the intents it chooses alone with the same draws; the foes are modelled from the state."""
    enc = with_ai(load_encounter(AMBUSH), tuple((s, "search", "") for s in load_encounter(AMBUSH).sides))
    m = Match(enc)
    for turn in range(3):
        first, second = enc.sides
        ids_first = [c.id for c in enc.characters if c.side == first]
        ids_second = [c.id for c in enc.characters if c.side == second]
        together = Brain(enc, m.memory, m.dice).decide(m.state, random.Random(turn), ids_first + ids_second)
        rng = random.Random(turn)
        apart = Brain(enc, m.memory, m.dice).decide(m.state, rng, ids_first) + Brain(
            enc, m.memory, m.dice).decide(m.state, rng, ids_second)
        assert sorted(together, key=lambda i: i.who) == sorted(apart, key=lambda i: i.who), turn
        if m.outcome().over:
            break
        m.play(together)


def test_the_budget_is_evaluated_turns_and_spent_the_same_way_whatever_the_load() -> None:
    """A budget in evaluated turns: a smaller budget evaluates fewer turns, never more than it allows,
    and the same budget makes the same choices (no clock in it)."""
    enc = with_ai(load_encounter(GALLERY), (("watch", "search", ""),))
    m = Match(enc)
    searchers = [c.id for c in enc.characters if c.side == "watch"]
    for budget in (2, 8):
        brain = Brain(enc, m.memory.fork(), m.dice, budget=budget)
        chosen = {it.who: it for it in Brain(enc, m.memory.fork(), m.dice, scripted=True).decide(
            m.state, ai_stream(3), searchers)}
        brain.before = brain.memory
        found = search.improve(brain, m.state, "watch", chosen, searchers)
        assert 0 < found.evaluated <= budget * len(searchers)
        again = search.improve(brain, m.state, "watch", chosen, searchers)
        assert again.intents == found.intents and again.evaluated == found.evaluated


def test_the_windows_time_cap_stops_the_search_but_not_its_choice_of_a_legal_intent() -> None:
    """`think_ms` (the window's cap per searching character) stops the search before a step would pass
    it: a cap already spent evaluates nothing and keeps the tactics' choices; no cap spends the budget."""
    enc = with_ai(load_encounter(GALLERY), (("watch", "search", ""),))
    m = Match(enc)
    searchers = [c.id for c in enc.characters if c.side == "watch"]
    chosen = {it.who: it for it in Brain(enc, m.memory.fork(), m.dice, scripted=True).decide(
        m.state, ai_stream(3), searchers)}
    for think_ms, none in ((1e-9, True), (None, False)):
        brain = Brain(enc, m.memory.fork(), m.dice, budget=8, think_ms=think_ms)
        brain.before = brain.memory
        found = search.improve(brain, m.state, "watch", chosen, searchers)
        assert (found.evaluated == 0) is none
        if none:
            assert found.intents == chosen


def test_the_windows_time_cap_guards_a_decisions_first_step_with_the_last_decisions_slowest() -> None:
    """A decision under the window's cap remembers its slowest step (Brain.step_s), and the next search
    stops before a first step that slow would pass its cap: with room for half of it, nothing is
    evaluated and the tactics' choices stand. A search that
    took no step leaves no guard, so one slow step never stops every later search."""
    enc = with_ai(load_encounter(GALLERY), (("watch", "search", ""),))
    m = Match(enc)
    searchers = [c.id for c in enc.characters if c.side == "watch"]
    brain = Brain(enc, m.memory.fork(), m.dice, budget=8, think_ms=1e6)
    brain.decide(m.state, ai_stream(3))
    assert brain.step_s > 0
    chosen = {it.who: it for it in Brain(enc, m.memory.fork(), m.dice, scripted=True).decide(
        m.state, ai_stream(3), searchers)}
    brain.think_ms = brain.step_s * 1000 / 2 / len(searchers)  # the whole cap: half the slowest step
    found = search.improve(brain, m.state, "watch", chosen, searchers)
    assert found.evaluated == 0 and found.intents == chosen
    assert brain.step_s == 0  # a search that took no step leaves no guard: the next one searches again
    brain.think_ms = 1e6  # (a cap no machine's load reaches: the foes' model is made inside it too)
    assert search.improve(brain, m.state, "watch", chosen, searchers).evaluated > 0


def _verdict(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if " for the " in line and " wins " in line]


@pytest.mark.parametrize("dice", ["none", "d6"])
def test_simulate_ai_search_is_deterministic_and_the_verdict_shows_both_plays(capsys, dice) -> None:
    """`simulate --ai watch=search` twice with the same seed prints the same report (on one worker and
    on two); the verdict has the watch with its tactics and with the search (issue 31 item 4: both plays)."""
    args = ["simulate", GALLERY, "--runs", "3", "--max-turns", "8", "--seed", "5", "--quiet", "--ai", "watch=search",
            "--dice", dice]
    assert main(args) == 0
    one = capsys.readouterr().out
    assert main([*args, "--workers", "2"]) == 0
    assert capsys.readouterr().out == one
    said = _verdict(one)
    assert any(" for the watch with tactics: " in line and "with watch on search: " in line for line in said), said


def test_arena_ai_search_compares_the_search_with_the_tactics_seed_by_seed(capsys) -> None:
    assert main(["arena", AMBUSH, "--runs", "2", "--max-turns", "6", "--ai", "bandits=search"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith("bandits ") and " search " in line]
    assert len(rows) == 1 and rows[0][1] == "search", out


def test_predict_ai_search_guesses_with_the_search(capsys) -> None:
    assert main(["predict", GALLERY, "--ai", "ogres=search"]) == 0
    assert "turn" in capsys.readouterr().out.lower()


def test_an_unknown_side_or_tactic_for_ai_exits_2_with_the_fix(capsys) -> None:
    assert main(["simulate", GALLERY, "--runs", "2", "--quiet", "--ai", "orcs=search"]) == 2
    err = capsys.readouterr().err
    assert "unknown side 'orcs'" in err and "ogres" in err and "Traceback" not in err
    try:
        main(["arena", GALLERY, "--ai", "watch=serch"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "did you mean 'search'" in capsys.readouterr().err


def test_an_encounter_names_the_search_per_character_and_per_side(tmp_path) -> None:
    text = DUEL.replace('"AI"', '"search"') + '[side.right]\nai = "search"\n'
    path = tmp_path / "duel.toml"
    path.write_text(text, encoding="utf-8")
    enc = load_encounter(path)
    assert enc.by_id["anna"].ai == "search" and enc.by_id["bors"].ai == "search:scripted"
    bad = tmp_path / "bad.toml"
    bad.write_text(DUEL.replace('"AI"', '"serch"'), encoding="utf-8")
    assert main(["simulate", str(bad), "--runs", "1", "--quiet"]) == 2


def test_the_log_of_a_run_says_what_the_search_chose_over_the_tactic(capsys) -> None:
    """`simulate --log-run` shows the search's choices as AI lines: what it chose, over which idea of
    its tactic, with both scores and the turns it evaluated."""
    assert main(["simulate", AMBUSH, "--runs", "1", "--quiet", "--ai", "bandits=search", "--log-run", "0"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "AI: " in line and "decides: " in line]
    assert lines and all("search: chose " in line and " over its tactic's " in line and "turns evaluated" in line
                         for line in lines), lines


def test_the_search_leaves_the_scripted_choice_only_for_a_clear_gain(tmp_path, monkeypatch) -> None:
    """A candidate must beat the current choice by more than MARGIN (a minor loss's worth, L1): with
    every other intent scored a little above Anna's scripted Block she keeps it; scored clearly above,
    she takes the first candidate that is."""
    enc = duel("search:scripted", tmp_path)
    m = Match(enc)
    brain = Brain(enc, m.memory, m.dice)
    brain.before = brain.memory
    block = Intent("anna", "Block")
    for gain, kept in ((search.MARGIN * 0.5, True), (search.MARGIN * 1.5, False)):
        def scored(self, joint, side, gain=gain):  # type: ignore[no-untyped-def]
            self.used += 1
            return 0.0 if joint["anna"] == block else gain
        monkeypatch.setattr(search._Search, "evaluate", scored)
        found = search.improve(brain, m.state, "left", {"anna": block}, ["anna"])
        assert (found.intents["anna"] == block) is kept
        assert ("anna" in found.notes) is not kept


def test_with_dice_every_candidate_is_compared_on_the_turn_without_luck() -> None:
    """With dice the search resolves the turns it looks at diceless (D1: ratings compared), so two
    candidates differ by their choices, never by their luck: an evaluation in a d6 match equals the same
    one in the diceless match, repeats exactly, and counts the turn and its play-out in the budget."""
    enc = with_ai(load_encounter(GALLERY), (("watch", "search", ""),))
    rolled, plain = Match(enc, seed=4, dice="d6"), Match(enc, seed=4, dice="none")
    joint = {it.who: it for it in Brain(enc, rolled.memory, rolled.dice, scripted=True).decide(
        rolled.state, ai_stream(4))}
    s = search._Search(Brain(enc, rolled.memory, rolled.dice), rolled.state, 9, 1000, None)
    first = s.evaluate(joint, "watch")
    assert s.evaluate(joint, "watch") == first
    assert s.used == 2 * (1 + search.PLAYOUT)
    assert search._Search(Brain(enc, plain.memory, plain.dice), plain.state, 9, 1000, None).evaluate(
        joint, "watch") == first
    # and the dice get DICE_BUDGET turns a character where the diceless get BUDGET
    searchers = [c.id for c in enc.characters if c.side == "watch"]
    chosen = {it.who: it for it in joint.values() if it.who in searchers}
    for m, per in ((rolled, search.DICE_BUDGET), (plain, search.BUDGET)):
        brain = Brain(enc, m.memory, m.dice)
        brain.before = brain.memory
        assert search.improve(brain, m.state, "watch", chosen, searchers).evaluated <= per * len(searchers)


def test_balance_ai_search_balances_the_rate_the_search_plays(tmp_path, capsys) -> None:
    """`balance --ai left=search` measures every batch with the search on the side: Anna's script Blocks
    forever (0 wins), the search strikes and wins every duel (C1, L4), so the base reads 100%, not 0%;
    the file written keeps the encounter's own `ai` and says which AI the rate was measured with."""
    path = tmp_path / "duel.toml"
    path.write_text(DUEL.replace('"AI"', '"scripted"'), encoding="utf-8")
    args = ["balance", str(path), "--side", "left", "--target", "0.5", "--runs", "10", "--depth", "1",
            "--workers", "1", "--quiet"]
    assert main(args) == 0
    assert "left wins 0.0% " in capsys.readouterr().out
    assert main([*args, "--ai", "left=search"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # (the table wraps long lines)
    assert "left wins 100.0% " in out and "played with --ai left=search" in out, out
    written = (tmp_path / "duel.balanced.toml").read_text()
    assert "played with --ai left=search" in written and 'ai = "scripted"' in written
    assert main([*args, "--ai", "lefty=search"]) == 2
    assert "unknown side 'lefty'" in capsys.readouterr().err


GANG = """
[encounter]
title = "Two on one"
seed = 1
dice = "none"
[map]
rows = ["......", "......", "......", "......", "......"]
[[character]]
id = "a1"
name = "Ash"
side = "left"
skills = { "Melee/Press" = 3, "Block/Dodge" = 2 }
at = [2, 1]
[[character]]
id = "a2"
name = "Birch"
side = "left"
skills = { "Melee/Press" = 3, "Block/Dodge" = 2 }
at = [2, 3]
ai = "search"
[[character]]
id = "x"
name = "Xan"
side = "right"
skills = { "Melee/Press" = 3, "Block/Dodge" = 2 }
at = [3, 2]
[[character]]
id = "y"
name = "Yew"
side = "right"
skills = { "Melee/Press" = 3, "Block/Dodge" = 2 }
at = [3, 3]
"""


def test_the_candidates_join_the_allies_target_with_their_half(tmp_path) -> None:
    """The portfolio's first ideas take the focus style with the allies' choices known: Birch, next to
    both foes, is offered Ash's foe with Ash's half first (one group at +1, S7; a Melee beside a Press
    would make two groups of one), whatever the search's draws."""
    path = tmp_path / "gang.toml"
    path.write_text(GANG, encoding="utf-8")
    enc = load_encounter(path)
    m = Match(enc)
    brain = Brain(enc, m.memory, m.dice)
    current = {"a1": Intent("a1", "Press", "x"), "a2": Intent("a2", "Block", "y")}
    for seed in range(6):
        first = search._Search(brain, m.state, seed, 100, None).candidates("a2", "left", current)[1]
        assert (first.use, first.target) == ("Press", "x"), (seed, first)
