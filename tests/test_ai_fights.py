"""Issue 18 items 1, 2, 7: tactics that fight (and say why when they hold back), `simulate --log-run`,
the arena, style knobs and the style sweep."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from battlemat.cli import main
from battlemat.core.match import Match
from battlemat.io.encounter import load_encounter, parse_encounter
from battlemat.io.errors import LoadError
from battlemat.log import format_event
from battlemat.sim.arena import arena, format_table
from battlemat.sim.overrides import with_ai
from battlemat.sim.runlog import log_lines, trace_run
from battlemat.sim.sweep import SweepRow, warnings

MAPS = Path(__file__).resolve().parent.parent / "maps"
BUNDLED = sorted(MAPS.glob("*.toml"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_nobody_idles_without_saying_why(path: Path) -> None:
    """Every active character attacks, observes, hides, flees or moves each turn; a character that
    stands idle or defends in place has a note (its tactic's reason) that the log shows."""
    enc = load_encounter(path)
    for run in range(2):
        _, turns = trace_run(enc, run, enc.seed, None, 12)
        before = enc.initial_state()
        for intents, notes, _events, after in turns:
            by = {i.who: i for i in intents}
            for c in enc.characters:
                if not before[c.id].active:
                    continue
                it = by.get(c.id)
                act = enc.rules.halves[it.use].act if it else None
                if it is None or (act in ("defend", "none") and it.to is None and not it.path):
                    assert notes.get(c.id), f"{path.stem} run {run} turn {before.turn}: {c.id} holds back silently"
            before = after


def test_forest_ambush_travellers_are_not_shot_where_they_stand() -> None:
    enc = load_encounter(MAPS / "forest_ambush.toml")
    travellers = {c.id for c in enc.characters if c.side == "travellers"}
    on_start = 0
    for run in range(4):
        _, turns = trace_run(enc, run, enc.seed, None, 30)
        for _i, _n, events, after in turns:
            on_start += sum(ev.type == "defeated" and ev.data["who"] in travellers
                            and after[ev.data["who"]].at == enc.by_id[ev.data["who"]].at for ev in events)
    assert on_start <= 1


def test_log_run_prints_that_run_and_equals_resolving_its_intents(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(MAPS / "forest_ambush.toml")
    assert main(["simulate", path, "--runs", "3", "--quiet"]) == 0
    plain = capsys.readouterr().out
    assert main(["simulate", path, "--runs", "3", "--quiet", "--log-run", "2"]) == 0
    logged = capsys.readouterr().out
    assert logged.startswith(plain)  # the numbers do not change
    enc = load_encounter(path)
    result, turns = trace_run(enc, 2, enc.seed, None, 30)
    match = Match(enc, seed=result.seed)
    for intents, _notes, events, _after in turns:
        replayed = match.play(intents)
        assert [format_event(e, enc.board) for e in replayed] == [format_event(e, enc.board) for e in events]
    lines = log_lines(enc, 2, enc.seed, None, 30)
    assert "\n".join(lines[1:]) in logged
    assert main(["simulate", path, "--runs", "3", "--log-run", "3"]) == 2


def test_arena_table_and_tactics_beat_random() -> None:
    path = str(MAPS / "forest_ambush.toml")
    rows = arena(path, 4, 11, None, 30, 1)
    assert [(r.side, r.baseline) for r in rows] == [
        ("travellers", "random"), ("travellers", "greedy"), ("bandits", "random"), ("bandits", "greedy")]
    table = format_table("Forest Ambush", rows, 11)
    assert len(table.splitlines()) == 2 + len(rows) + 3
    assert rows[0].beats


def test_focus_fire_concentrates_attacks() -> None:
    enc = load_encounter(MAPS / "forest_ambush.toml")

    def spread_of(style: str) -> float:
        e = with_ai(enc, (("travellers", "", style), ("bandits", "", style)))
        per_turn = []
        for run in range(3):
            _, turns = trace_run(e, run, e.seed, None, 6)
            for intents, *_ in turns:
                hits = [i.target for i in intents if i.target and e.rules.halves[i.use].act == "attack"]
                if len(hits) > 1:
                    per_turn.append(len(set(hits)) / len(hits))
        return sum(per_turn) / len(per_turn)

    assert spread_of("focus=focus") < spread_of("focus=spread")


def test_bad_style_values_say_what_to_write() -> None:
    data = {"encounter": {"title": "t"}, "character": [
        {"id": "a", "side": "x", "style": {"focus": "sometimes"}},
        {"id": "b", "side": "y", "style": {"mood": "calm"}}],
        "side": {"y": {"style": {"risk": "wild"}}, "z": {"style": {}}}}
    with pytest.raises(LoadError) as err:
        parse_encounter(data, "bad.toml")
    text = str(err.value)
    assert "unknown focus style 'sometimes'" in text and "focus, spread" in text
    assert "unknown style knob 'mood'" in text
    assert "unknown risk style 'wild'" in text and "cautious, reckless" in text
    assert "no character is on side 'z'" in text
    good = dict(data, character=[{"id": "a", "side": "x"}], side={"x": {"style": {"focus": "spread"}}})
    enc = parse_encounter(good, "good.toml")
    assert dict(enc.by_id["a"].style) == {"focus": "spread"}
    assert replace(enc.by_id["a"], style={}).style == {}


def test_sweep_warns_when_the_verdict_moves() -> None:
    rows = [SweepRow("ogres", "risk=cautious", {"watch": 4, "ogres": 16}, 20),
            SweepRow("ogres", "risk=reckless", {"watch": 13, "ogres": 7}, 20)]
    found = warnings(rows)
    assert found and "the watch win 20%-65% depending on the ogres' style" in found[0]
    steady = [SweepRow("ogres", "a", {"watch": 10, "ogres": 10}, 20),
              SweepRow("ogres", "b", {"watch": 11, "ogres": 9}, 20)]
    assert warnings(steady) == []


def test_outmatched_brawler_guards_instead_of_trading_losing_blows() -> None:
    """C2, C5: next to the giant lizard (Melee 4), Kwirt's best blow is 2; his Dodge 5 holds the bite
    and costs nothing, so he guards, naming the lizard, and the AI note says why. The lizard can never
    hurt him: every combat runs to the turn cap. A reckless Kwirt trades blows and falls."""
    enc = load_encounter(MAPS / "boulder_field.toml")
    result, turns = trace_run(enc, 0, enc.seed, None, 8)
    assert result.winner is None and not result.chars["kwirt"].defeated
    guarded = [i for intents, *_ in turns for i in intents if i.who == "kwirt" and i.target == "lizard"]
    assert guarded and all(i.use in ("Block", "Dodge") for i in guarded)
    notes = [n for _, n, *_ in turns if "kwirt" in n]
    assert notes and "outmatched by Giant lizard" in notes[-1]["kwirt"]
    reckless = with_ai(enc, (("heroes", "", "risk=reckless"),))
    result, _ = trace_run(reckless, 0, enc.seed, None, 8)
    assert result.chars["kwirt"].defeated


@pytest.mark.slow
def test_arena_rows_are_the_same_on_1_or_2_workers_and_on_dask() -> None:
    """The arena plays every batch as one piece of work; seeds, not workers, decide the numbers."""
    path = str(MAPS / "boulder_field.toml")
    one = arena(path, 6, 3, "d6", 8, 1)
    assert arena(path, 6, 3, "d6", 8, 2) == one
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        assert arena(path, 6, 3, "d6", 8, 1, cluster.scheduler_address) == one


def test_observer_studies_only_when_it_costs_no_blow_and_no_shot_is_on_it() -> None:
    """O1 buys +1 for the rest of the combat at the price of a turn: in the art gallery the ogres'
    crossbows see Parwanna from the start (R4), so she fights at once; with the crossbowmen gone
    she opens by studying the strongest ogre (and steps toward it: Perception moves 1, M1)."""
    from battlemat.ai import Brain

    enc = load_encounter(MAPS / "art_gallery.toml")
    match = Match(enc, seed=1)
    (first,) = Brain(enc, match.memory).decide(match.state, match.rng, who=["parwanna"])
    assert first.use not in ("Perception", "Lore")
    calm = replace(enc, characters=tuple(c for c in enc.characters if not c.id.startswith("ogre_bolt")))
    match = Match(calm, seed=1)
    (first,) = Brain(calm, match.memory).decide(match.state, match.rng, who=["parwanna"])
    assert (first.use, first.target, first.share) == ("Perception", "ogre_boss", True)


def test_archer_throws_when_a_foe_could_charge_next_to_it() -> None:
    """R2: a Shoot fails next to an aggressive foe, a Throw does not. With Farran three squares from
    the sharpshooter (a charge of 3 ends next to it, M7), the archer throws; from where Farran
    starts, it shoots."""
    from battlemat.ai import Brain

    enc = load_encounter(MAPS / "art_gallery.toml")
    match = Match(enc, seed=1)
    at = match.state["ogre_bolt2"].at
    assert at is not None

    def choice(farran_at: tuple[int, int]) -> str:
        chars = dict(match.state.chars)
        chars["farran"] = replace(chars["farran"], at=farran_at)
        state = match.state.replace_chars(chars)
        (i,) = Brain(enc, match.memory).decide(state, random.Random(1), who=["ogre_bolt2"])
        return i.use

    near = (at[0] - 3, at[1])
    assert enc.board is not None and enc.board.enterable(near)
    assert choice(near) == "Throw"
    assert choice(match.state["farran"].at) == "Shoot"
