"""The simulate report a GM can trust (issue 18 items 3-4): its fields and their shapes, 1 vs 2 workers,
the diceless note, and replays of the typical and worst runs that play back to the batch's outcomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battlemat.cli import main
from battlemat.core.match import Match
from battlemat.io.encounter import load_encounter
from battlemat.io.saves import read_save
from battlemat.sim.pool import Batch, run_batch
from battlemat.sim.stats import summarise

ROOT = Path(__file__).resolve().parent.parent
BOULDER = str(ROOT / "maps" / "boulder_field.toml")
GALLERY = str(ROOT / "maps" / "art_gallery.toml")


def _simulate(tmp_path: Path, capsys: pytest.CaptureFixture[str], dice: str, path: str = GALLERY,
              runs: int = 12) -> tuple[dict, str, Path]:
    out = tmp_path / f"report-{dice}"
    assert main(["simulate", path, "--runs", str(runs), "--seed", "4", "--dice", dice, "--workers", "1",
                 "--quiet", "--report", str(out)]) == 0
    return json.loads((out / "report.json").read_text()), capsys.readouterr().out, out


def test_report_fields_shapes_and_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rep, text, out = _simulate(tmp_path, capsys, "d6")
    enc = load_encounter(GALLERY)
    assert rep["diceless"] is False and "only from the AI's choices" not in text
    for c in rep["characters"]:
        assert c["defeat_low"] <= c["defeat_rate"] <= c["defeat_high"]
        if c["defeat_turn"] is not None:
            t = c["defeat_turn"]
            assert 1 <= t["q1"] <= t["median"] <= t["q3"] <= rep["max_turns"]
        assert c["turns_active"] > 0 and sum(c["skills"].values()) == pytest.approx(1.0)
    assert set(rep["losses_by_turn"]) == set(enc.sides)
    for rows in rep["losses_by_turn"].values():
        assert rows[0]["turn"] == 1 and rows[0]["runs"] == rep["runs"]
        assert all(r["q1"] <= r["median"] <= r["q3"] for r in rows)
    assert rep["defeats"] > 0 and rep["decided_by"] and rep["decided_by"][0]["defeats"] <= rep["defeats"]
    assert all({"rule", "title", "defeats"} <= set(d) for d in rep["decided_by"] + rep["before_defeat"])
    tail = rep["turns_tail"]
    assert [t["more_than"] for t in tail] == list(range(1, max(int(k) for k in rep["turns"]["histogram"]) + 1))
    assert all(t["low"] <= t["rate"] <= t["high"] for t in tail)
    assert [t["rate"] for t in tail] == sorted((t["rate"] for t in tail), reverse=True)
    assert set(rep["presence"]) == set(rep["starts"]) == set(enc.sides)
    assert all(len(sqs) == sum(c.side == side for c in enc.characters) for side, sqs in rep["starts"].items())
    for name in ("losses_by_turn.png", *(f"presence_{side}.png" for side in enc.sides)):
        assert (out / name).stat().st_size > 10_000
    assert "What decides defeats" in text and "Lasting more than" in text and "Skills used" in text


def test_replays_play_back_to_the_batch_outcome(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rep, text, out = _simulate(tmp_path, capsys, "d6")
    enc = load_encounter(GALLERY)
    assert set(rep["replays"]) == {"typical", *(f"worst-{side}" for side in enc.sides)}
    for what, r in rep["replays"].items():
        assert f"replay ({what})" in text
        file = out / r["file"]
        save = read_save(file)
        assert len(save.turns) == r["turns"] and "ai_draws" not in file.read_text()
        m = Match(load_encounter(save.find_encounter(file)), seed=save.seed, dice=save.dice)
        for intents in save.turns:
            m.play(intents)
        assert m.outcome().winner == r["winner"]
        assert sorted(c for c, s in m.state.chars.items() if s.defeated) == r["defeated"]
        losses = dict.fromkeys(enc.sides, 0)
        for c in enc.characters:
            losses[c.side] += sum(e.data["n"] for e in m.log if e.type == "losses" and e.data["who"] == c.id)
        assert losses == r["losses"]


def test_diceless_note_and_replays_where_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    enc_dir = tmp_path / "maps"
    enc_dir.mkdir()
    for f in (ROOT / "maps").iterdir():
        if f.is_file():
            (enc_dir / f.name).write_bytes(f.read_bytes())
    assert main(["simulate", str(enc_dir / "boulder_field.toml"), "--runs", "6", "--dice", "none",
                 "--workers", "1", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "only from the AI's choices" in text
    assert not list(enc_dir.glob("*.json"))  # nothing written beside the maps unasked
    assert main(["simulate", str(enc_dir / "boulder_field.toml"), "--runs", "6", "--dice", "none",
                 "--workers", "1", "--quiet", "--replays", str(tmp_path / "replays")]) == 0
    saved = tmp_path / "replays" / "boulder_field-typical.json"
    assert saved.is_file() and read_save(saved).turns


def test_one_and_two_workers_give_the_same_report() -> None:
    enc = load_encounter(BOULDER)
    batch = Batch(BOULDER, 8, 5, "d6", 30)
    one = summarise(enc, run_batch(batch, workers=1), 5, "d6", 30).to_json()
    two = summarise(enc, run_batch(batch, workers=2), 5, "d6", 30).to_json()
    assert one == two


def test_after_a_stop_only_the_figures_started_within_the_budget_are_drawn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 8: after a Ctrl+C, report.json is written first; figures are started only within
    FIGURES_AFTER_STOP of it (the one being drawn finishes), the others are named, so a stopped batch
    ends within about 2 s. The clock is the test's: each look at it is 0.3 s later."""
    from battlemat.sim import report as report_module

    enc = load_encounter(BOULDER)
    summary = summarise(enc, run_batch(Batch(BOULDER, 4, 5, "d6", 30), workers=1), 5, "d6", 30)
    ticks = iter(range(1000))
    told: list[Path] = []
    files = report_module.write_report(enc, summary, tmp_path, Path(BOULDER), told.append,
                                       clock=lambda: next(ticks) * 0.3)
    assert told == [tmp_path / "report.json"]
    drawn = sorted(p.name for p in tmp_path.glob("*.png"))
    assert drawn == ["win_rates.png"]  # started 0.3 s after report.json; the next look, 0.6 s, is past the 0.5 s budget
    assert [f.name for f in files] == ["win_rates.png", "report.json"]
    err = capsys.readouterr().err
    assert "figures not drawn after the stop: turns.png, characters.png" in err and "report.json" in err


def test_without_a_stop_every_figure_is_drawn(tmp_path: Path) -> None:
    from battlemat.sim import report as report_module

    enc = load_encounter(BOULDER)
    summary = summarise(enc, run_batch(Batch(BOULDER, 4, 5, "d6", 30), workers=1), 5, "d6", 30)
    files = report_module.write_report(enc, summary, tmp_path, Path(BOULDER), clock=lambda: 1e9)
    assert {"win_rates.png", "turns.png", "characters.png", "report.json"} <= {f.name for f in files}
