"""What-if variants on common random numbers (`simulate --variant`) and `balance`."""

from __future__ import annotations

import shutil
import tomllib

import pytest
from conftest import EXAMPLES, ROOT

from battlemat.cli import main
from battlemat.core.errors import BattlematError
from battlemat.io.encounter import load_encounter
from battlemat.io.toml_write import dumps
from battlemat.sim.pool import Batch, run_batches
from battlemat.sim.variants import build_variant, paired, parse_variant

GALLERY = str(ROOT / "maps" / "art_gallery.toml")
OGRES = EXAMPLES / "garran_and_the_ogres.toml"


@pytest.fixture(scope="module")
def gallery():
    return load_encounter(GALLERY)


def fingerprint(results):
    return [(r.index, r.seed, r.winner, r.turns, sorted(r.losses_taken.items())) for r in results]


@pytest.mark.parametrize(("spec", "canonical"), [
    ("-statue", "-statue"),
    ("remove:statue", "-statue"),
    ("+copy:billin", "+copy:billin"),
    ("+billin", "+copy:billin"),
    ("parwanna.Melee=5", "parwanna.Melee/Press=5"),
    ("parwanna.Press+2", "parwanna.Melee/Press=6"),
    ("parwanna.Melee/Press-1", "parwanna.Melee/Press=3"),
    ("ogre_boss.ai=brawler", "ogre_boss.ai=brawler"),
    ("farran.Melee+1; farran.Melee+1; -statue", "farran.Melee/Press=4; farran.Melee/Press=5; -statue"),
])
def test_variant_syntax(gallery, spec, canonical):
    assert parse_variant(spec, gallery).text == canonical


@pytest.mark.parametrize(("spec", "words"), [
    ("-statoo", "no character 'statoo' (did you mean statue"),  # "-statu", a unique prefix, names it
    ("parwana.Melee=4", "did you mean parwanna"),
    ("parwanna.Mele=4", "unknown skill 'Mele' (did you mean Melee"),
    ("parwanna.ai=bralwer", "unknown tactic 'bralwer' (did you mean brawler"),
    ("parwanna.Melee=9", "ratings run 0..8"),
    ("parwanna.Melee=x", "not a whole number"),
    ("parwanna", "write -ID"),
    ("-ogre_boss; -ogre_bolt1; -ogre_bolt2; -statue", "leaves side 'ogres' with nobody"),
    ("-statue; -statue", "already removed"),
    ("", "is empty"),
])
def test_variant_errors_say_what_is_wrong(gallery, spec, words):
    with pytest.raises(BattlematError) as err:
        parse_variant(spec, gallery)
    assert words in str(err.value)


def test_simulate_bad_variant_exits_2(capsys):
    assert main(["simulate", GALLERY, "--runs", "4", "--variant=-nobody"]) == 2
    assert "no character 'nobody'" in capsys.readouterr().err


def test_copy_stands_beside_its_original_and_talent_follows_a_lowered_rating(gallery):
    enc = build_variant(gallery, GALLERY, "+copy:statue; ogre_boss.Wrestle=0")
    copy = enc.by_id["statue_copy"]
    assert copy.name == "Bergtroll statue (copy)" and copy.skills == gallery.by_id["statue"].skills
    sx, sy = gallery.by_id["statue"].at
    assert max(abs(copy.at[0] - sx), abs(copy.at[1] - sy)) <= 2
    assert enc.by_id["ogre_boss"].talents.get("Wrestle/Disarm", 0) == 0  # S3: never above the base


def test_no_op_variant_plays_exactly_the_base_runs(gallery):
    base, same = run_batches([Batch(GALLERY, 10, 3, None, 30), Batch(GALLERY, 10, 3, None, 30, "parwanna.Melee=4")])
    assert fingerprint(base) == fingerprint(same)
    p = paired("watch", base, same)
    assert (p.change, p.change_low, p.change_high) == (0.0, 0.0, 0.0)


def test_removing_a_strong_character_lowers_its_side_rate(gallery):
    base, weaker = run_batches([Batch(GALLERY, 24, 7, None, 30), Batch(GALLERY, 24, 7, None, 30, "-statue")])
    p = paired("ogres", base, weaker)
    assert p.change < 0 and p.change_high < 0  # the paired interval excludes no change


def test_variants_same_results_with_one_or_two_workers():
    batches = [Batch(GALLERY, 8, 5, "d6", 20), Batch(GALLERY, 8, 5, "d6", 20, "-statue; +copy:billin"),
               Batch(GALLERY, 12, 5, "d6", 20, "ogre_boss.ai=brawler", first=4)]
    one = run_batches(batches, workers=1)
    two = run_batches(batches, workers=2)
    assert [fingerprint(g) for g in one] == [fingerprint(g) for g in two]
    assert [r.index for r in one[2]] == list(range(4, 12))
    whole = run_batches([Batch(GALLERY, 12, 5, "d6", 20, "ogre_boss.ai=brawler")])[0]
    assert fingerprint(one[2]) == fingerprint(whole[4:])  # playing on from run 4 plays the same runs


def test_simulate_prints_the_variants_table(capsys):
    assert main(["simulate", str(OGRES), "--runs", "12", "--dice", "d6", "--quiet",
                 "--variant=-statue", "--variant", "statue.Melee=5"]) == 0
    out = capsys.readouterr().out
    assert "What if" in out and "+0.0% [+0.0%, +0.0%]" in out
    assert "remove the Huge statue (statue)" in out and "set the Huge statue's Melee/Press to 5" in out  # issue 31


def test_toml_writer_round_trips_every_bundled_encounter():
    for path in [*ROOT.glob("maps/*.toml"), *EXAMPLES.glob("*.toml"), *ROOT.glob("cases/*.toml")]:
        data = tomllib.loads(path.read_text())
        assert tomllib.loads(dumps(data)) == data, path


def test_balance_finds_a_variant_within_the_target_and_writes_a_file_check_accepts(tmp_path, capsys):
    enc_file = tmp_path / OGRES.name
    shutil.copy(OGRES, enc_file)
    assert main(["balance", str(enc_file), "--side", "ogres", "--target", "0.5", "--runs", "40",
                 "--dice", "d6", "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Best variants" in out
    written = tmp_path / "garran_and_the_ogres.balanced.toml"
    assert main(["check", str(written)]) == 0
    enc = load_encounter(written)
    assert enc.sides == ("watch", "ogres")
    first_row = next(line for line in out.splitlines() if line.lstrip("│ ").startswith("1 "))
    assert "within" in first_row


def test_balance_bad_input_exits_2(capsys):
    assert main(["balance", str(OGRES), "--side", "ogers"]) == 2
    assert "did you mean ogres" in capsys.readouterr().err
    assert main(["balance", str(OGRES), "--side", "ogres", "--target", "1.5"]) == 2


@pytest.mark.slow
def test_variants_on_a_dask_local_cluster_give_identical_results():
    distributed = pytest.importorskip("distributed")
    batches = [Batch(GALLERY, 6, 4, "d6", 20), Batch(GALLERY, 6, 4, "d6", 20, "-statue; parwanna.Melee+1")]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_dask = run_batches(batches, dask_scheduler=cluster.scheduler_address)
    local = run_batches(batches, workers=1)
    assert [fingerprint(g) for g in on_dask] == [fingerprint(g) for g in local]


def test_balance_stopped_prints_the_best_so_far_and_writes_nothing(tmp_path, capsys, monkeypatch):
    """Ctrl+C during the search: exit 130, the best screened candidate marked unconfirmed, no file."""
    from battlemat.sim import balance
    from battlemat.sim.pool import Interrupted

    enc = tmp_path / "ogres.toml"
    shutil.copy(OGRES, enc)  # no map: the copy stands alone
    real, calls = balance._play, []

    def stopping(s, plan):
        calls.append(plan)
        if len(calls) == 3:
            raise Interrupted([], 10, 2)
        return real(s, plan)

    monkeypatch.setattr(balance, "_play", stopping)
    assert main(["balance", str(enc), "--side", "watch", "--runs", "10", "--workers", "1", "--quiet"]) == 130
    out = capsys.readouterr().out
    assert "interrupted after" in out and "nothing written" in out
    assert "best so far (screened, not confirmed)" in out and "watch wins" in out
    assert not list(tmp_path.glob("*.balanced.toml"))
