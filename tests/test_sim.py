"""Batch simulation: reproducible numbers whatever the backend, statistics, report files."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES, ROOT

from battlemat.cli import main
from battlemat.io.encounter import load_encounter
from battlemat.sim.pool import Batch, run_batch
from battlemat.sim.runner import run_seed
from battlemat.sim.stats import summarise, wilson

GALLERY = str(ROOT / "maps" / "art_gallery.toml")


def test_wilson_interval_known_values():
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(50, 100)
    assert (lo, hi) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))


def test_run_seed_depends_only_on_batch_seed_and_index():
    assert run_seed(3, 7) == run_seed(3, 7)
    assert len({run_seed(3, i) for i in range(100)}) == 100
    assert run_seed(3, 7) != run_seed(4, 7)


def fingerprint(results):
    return [(r.index, r.seed, r.winner, r.turns, sorted(r.losses_taken.items())) for r in results]


def test_same_seed_same_results_with_one_or_two_workers():
    one = run_batch(Batch(GALLERY, 24, seed=9, dice="d6", max_turns=20), workers=1)
    two = run_batch(Batch(GALLERY, 24, seed=9, dice="d6", max_turns=20), workers=2)
    assert fingerprint(one) == fingerprint(two)
    other = run_batch(Batch(GALLERY, 24, seed=10, dice="d6", max_turns=20), workers=1)
    assert fingerprint(one) != fingerprint(other)


def test_summary_numbers_add_up():
    enc = load_encounter(GALLERY)
    results = run_batch(Batch(GALLERY, 30, seed=1, dice=None, max_turns=20))
    s = summarise(enc, results, 1, "none", 20)
    assert sum(side.wins for side in s.sides) + s.undecided == 30
    assert s.turns_q1 <= s.turns_median <= s.turns_q3
    assert all(0 <= c.defeat_rate <= 1 for c in s.chars)


def test_simulate_command_prints_summary_and_writes_report(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["simulate", str(EXAMPLES / "fleeing_many_archers.toml"), "--runs", "20", "--seed", "2",
                 "--dice", "d8", "--report", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Who wins" in text and "95%" in text and "Turns: median" in text
    report = json.loads((out / "report.json").read_text())
    assert report["runs"] == 20 and {s["side"] for s in report["sides"]} == {"heroes", "kobolds"}
    for name in ("win_rates.png", "turns.png", "characters.png"):
        assert (out / name).read_bytes()[:4] == b"\x89PNG"


def test_simulate_bad_input_exits_2(capsys):
    assert main(["simulate", GALLERY, "--runs", "0"]) == 2
    assert main(["simulate", GALLERY, "--dice", "d7"]) == 2
    assert "unknown dice" in capsys.readouterr().err


@pytest.mark.slow
def test_dask_local_cluster_gives_identical_results():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_dask = run_batch(Batch(GALLERY, 16, seed=4, dice="d6", max_turns=20),
                            dask_scheduler=cluster.scheduler_address)
    local = run_batch(Batch(GALLERY, 16, seed=4, dice="d6", max_turns=20), workers=1)
    assert fingerprint(on_dask) == fingerprint(local)


def test_wilson_at_the_edges_contains_the_observed_rate():
    for n in (1, 7, 100, 1000):
        assert wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0
        lo, hi = wilson(n, n)
        assert lo <= 1.0 <= hi


def test_workers_default_to_one_per_core_for_batches_worth_a_pool(monkeypatch):
    from battlemat.sim import pool as sim_cli

    monkeypatch.setattr(sim_cli.os, "cpu_count", lambda: 4)
    assert sim_cli.default_workers(20) == 1  # a small batch plays in this process
    assert sim_cli.default_workers(120) == 2  # about 50 runs per worker at least
    assert sim_cli.default_workers(10_000) == 4  # one per core
    monkeypatch.setattr(sim_cli.os, "cpu_count", lambda: None)
    assert sim_cli.default_workers(10_000) == 1


def test_batches_hold_the_garbage_collector_back_and_give_its_settings_back(monkeypatch):
    import gc

    from battlemat.sim import pool

    before = gc.get_threshold()
    seen: list[tuple[int, ...]] = []
    real = pool.play_one
    monkeypatch.setattr(pool, "play_one", lambda *a: (seen.append(gc.get_threshold()), real(*a))[1])
    with pytest.raises(ZeroDivisionError), pool.fewer_collections():
        assert gc.get_threshold()[0] == 10_000
        raise ZeroDivisionError  # settings come back even when a combat fails
    assert gc.get_threshold() == before
    pool.run_chunk(pool.Batch(str(ROOT / "maps" / "art_gallery.toml"), 1, 1, "d6", 2), [0])
    assert seen == [(10_000, *before[1:])] and gc.get_threshold() == before


def test_a_simulated_run_replays_from_its_seed_and_intents_alone() -> None:
    """Issue 25 item 7: the AI draws from its own stream (battlemat.ai.ai_stream), never from the
    dice's, so a run's intents replayed on a fresh Match of the same seed roll the same dice."""
    from battlemat.core.match import Match
    from battlemat.sim.runner import Recording, play_one

    enc = load_encounter(ROOT / "maps" / "art_gallery.toml")
    rec = Recording()
    result = play_one(enc, 3, 11, "d6", 12, record=rec)
    match = Match(enc, seed=result.seed, dice="d6")
    for intents in rec.turns:
        match.play(intents)
    assert match.state.turn - 1 == result.turns
    assert {c: (s.minor, s.major, s.defeated) for c, s in match.state.chars.items()} == \
        {c: (r.minor, r.major, r.defeated) for c, r in result.chars.items()}
