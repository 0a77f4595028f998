"""Bounded everywhere (issue 27): every number a user types, every file a command writes, every picture
a report draws, every map and case file every command reads, and Ctrl+C with a report.

Each test runs the real command (`battlemat.cli.main` in-process, or `python -m battlemat` in a
child process where memory or a signal is the point), in the style of test_fuzz.py: exit 2 with one
message naming the file or the option and the fix, never a traceback.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from battlemat.io import limits
from tests.conftest import ROOT
from tests.test_fuzz import assert_clear, assert_refused, run

GALLERY = ROOT / "maps" / "art_gallery.toml"
posix_only = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc and sends POSIX signals")


@pytest.fixture
def maps(tmp_path: Path) -> Path:
    out = tmp_path / "maps"
    shutil.copytree(ROOT / "maps", out, ignore=shutil.ignore_patterns("examples"))
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    return out


def on_map(maps: Path, text: str, name: str) -> Path:
    (maps / f"{name}.tmx").write_text(text, encoding="utf-8")
    enc = (maps / "art_gallery.toml").read_text(encoding="utf-8").replace('"art_gallery.tmx"', f'"{name}.tmx"')
    (maps / f"{name}.toml").write_text(enc, encoding="utf-8")
    return maps / f"{name}.toml"


# -- item 1: --dask-scheduler where nothing listens, or malformed --------------------------------
DASK_COMMANDS = {
    "simulate": ["simulate", str(GALLERY), "--runs", "4"],
    "arena": ["arena", str(GALLERY), "--runs", "2"],
    "balance": ["balance", str(GALLERY), "--side", "watch", "--runs", "10"],
}


@pytest.mark.parametrize("command", sorted(DASK_COMMANDS))
@pytest.mark.parametrize(("address", "says"), [("127.0.0.1:1", "no Dask scheduler answers there"),
                                               ("tcp://[::1", "is not an address"),
                                               ("tcp://127.0.0.1:99999", "no Dask scheduler answers there")])
def test_dask_scheduler_that_does_not_answer_is_one_message_within_seconds(capsys, command, address, says):
    """Issue 27 item 1: Dask's own 30 s timeout and a traceback before; now a few seconds and exit 2.
    Loopback addresses only (127.0.0.1:1: nothing listens on port 1)."""
    start = time.monotonic()
    code, text = run([*DASK_COMMANDS[command], "--dask-scheduler", address], capsys)
    took = time.monotonic() - start
    assert_refused(code, text, f"{command} --dask-scheduler {address}", says)
    assert "Exception ignored" not in text
    assert took < 25, f"{command} took {took:.0f} s to say that no scheduler answers (Dask alone waits 30 s)"


# -- item 2: one writer for every output file ------------------------------------------------------
@pytest.fixture
def save(maps: Path) -> Path:
    from battlemat.io.saves import write_save
    from battlemat.ui.session import Session

    session = Session(maps / "art_gallery.toml")
    session.resolve()
    return write_save(session.to_save(), maps / "game.json")


def test_case_output_an_existing_folder_is_refused(save: Path, tmp_path: Path, capsys):
    folder = tmp_path / "cases"
    folder.mkdir()
    code, text = run(["case", str(save), "--turn", "1", "-o", str(folder)], capsys)
    assert_refused(code, text, "case -o FOLDER", "is a folder")
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("command", ["case", "lesson-from"])
def test_output_under_a_file_is_refused(save: Path, tmp_path: Path, capsys, command):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    extra = ["--turn", "1"] if command == "case" else []
    code, text = run([command, str(save), *extra, "-o", str(blocker / "out.toml")], capsys)
    assert_refused(code, text, f"{command} -o FILE/out.toml", "cannot write")


def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write reaching the disk fails as on a full disk (the flush before the rename)."""
    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)


def test_full_disk_keeps_the_older_file_and_leaves_no_half_file(save: Path, tmp_path: Path, capsys, monkeypatch):
    out = tmp_path / "cases" / "mine.toml"
    out.parent.mkdir()
    out.write_text("# an older case\n")
    full_disk(monkeypatch)
    for command, extra in (("case", ["--turn", "1"]), ("lesson-from", [])):
        code, text = run([command, str(save), *extra, "-o", str(out)], capsys)
        assert_refused(code, text, f"{command} on a full disk", "the disk is full")
        assert out.read_text() == "# an older case\n"
        assert [p.name for p in out.parent.iterdir()] == ["mine.toml"], "a temporary file was left behind"


def test_full_disk_during_a_report_is_one_message(tmp_path: Path, capsys, monkeypatch):
    full_disk(monkeypatch)
    code, text = run(["simulate", str(GALLERY), "--runs", "2", "--workers", "1", "--max-turns", "2",
                      "--report", str(tmp_path / "rep")], capsys)
    assert_refused(code, text, "simulate --report on a full disk", "the disk is full")
    assert not [p for p in (tmp_path / "rep").iterdir() if p.name.startswith(".")], "half files left"


def test_balance_output_a_folder_is_refused_before_the_search(tmp_path: Path, maps: Path, capsys):
    (maps / "out.balanced.toml").mkdir()
    code, text = run(["balance", str(maps / "art_gallery.toml"), "--side", "watch", "--runs", "10",
                      "--max-turns", "2", "--workers", "1", "-o", str(maps / "out.balanced.toml")], capsys)
    assert_refused(code, text, "balance -o FOLDER", "is a folder")


# -- item 4: every number on the command line -------------------------------------------------------
HUGE = [
    (["simulate", str(GALLERY), "--runs", "1000000000"], "--runs"),
    (["simulate", str(GALLERY), "--max-turns", "1000000000"], "--max-turns"),
    (["arena", str(GALLERY), "--workers", "1000000"], "--workers"),
    (["arena", str(GALLERY), "--runs", "1000000000"], "--runs"),
    (["arena", str(GALLERY), "--max-turns", "0"], "--max-turns"),
    (["balance", str(GALLERY), "--side", "watch", "--workers", "1000000"], "--workers"),
    (["balance", str(GALLERY), "--side", "watch", "--max-turns", "0"], "--max-turns"),
    (["balance", str(GALLERY), "--side", "watch", "--max-turns", "1000000000"], "--max-turns"),
    (["balance", str(GALLERY), "--side", "watch", "--depth", "1000"], "--depth"),
    (["balance", str(GALLERY), "--side", "watch", "--target", "1"], "--target"),
    (["balance", str(GALLERY), "--side", "watch", "--target", "nan"], "--target"),
    (["calibrate", "--samples", "1000000000"], "--samples"),
    (["predict", str(GALLERY), "--samples", "1000000000"], "--samples"),
    (["arena", str(GALLERY), "--seed", str(2**70)], "--seed"),
    (["case", "x.json", "--turn", "1000000000"], "--turn"),
]


@pytest.mark.parametrize(("argv", "option"), HUGE, ids=[f"{a[0]} {o}" for a, o in HUGE])
def test_numbers_out_of_bounds_are_refused_before_any_work(capsys, argv, option):
    """Issue 27 item 4: each accepted before (a memory error, workers without end, a run that never
    ends, a .balanced.toml of arbitrary changes); refused now by argparse with the bound and its reason."""
    code, text = run(argv, capsys)
    assert_refused(code, text, " ".join(argv), option, "Fix: use")


@pytest.mark.parametrize(("command", "option", "bound"), [
    ("simulate", "--runs", f"{limits.MAX_RUNS:,}"), ("arena", "--runs", f"{limits.MAX_RUNS:,}"),
    ("balance", "--runs", f"{limits.MAX_RUNS:,}"), ("simulate", "--workers", str(limits.MAX_WORKERS)),
    ("arena", "--workers", str(limits.MAX_WORKERS)), ("balance", "--workers", str(limits.MAX_WORKERS)),
    ("simulate", "--max-turns", str(limits.MAX_TURN_CAP)), ("arena", "--max-turns", str(limits.MAX_TURN_CAP)),
    ("balance", "--max-turns", str(limits.MAX_TURN_CAP)), ("calibrate", "--samples", "2,000,000"),
    ("predict", "--samples", f"{limits.MAX_PREDICT_SAMPLES:,}"), ("balance", "--target", "excluded"),
])
def test_help_states_each_bound_and_its_reason(capsys, command, option, bound):
    code, text = run([command, "--help"], capsys)
    assert code == 0
    flat = " ".join(text.split())
    part = flat[flat.index(option, flat.index("options:")):][:400]
    assert bound in part and ":" in part, part


def test_balance_max_turns_zero_writes_nothing(maps: Path, capsys):
    code, text = run(["balance", str(maps / "art_gallery.toml"), "--side", "watch", "--max-turns", "0"], capsys)
    assert_refused(code, text, "balance --max-turns 0", "--max-turns")
    assert not list(maps.glob("*.balanced.toml"))


def test_runs_are_streamed_never_listed_up_front():
    """A batch of two million runs costs nothing before its first run (item 4: `--runs 1000000000`
    listed every run number first, 4 GB in 30 s). The work is made as it is asked for."""
    from battlemat.sim.pool import Batch, _work

    tracemalloc.start()
    work = _work([Batch(str(GALLERY), 2_000_000, 1, None, 30)], 2)
    first = next(iter(work))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert list(first[2]) == list(range(100))
    assert peak < 10 * 2**20


# -- item 5: tile numbers of 2^63 or more -------------------------------------------------------------
@pytest.mark.parametrize("gid", [str(2**63), str(2**64 + 5), "-" + str(2**70), str(2**32)])
def test_tile_numbers_beyond_32_bits_are_one_message_in_every_command(maps: Path, capsys, gid):
    text = (maps / "art_gallery.tmx").read_text(encoding="utf-8")
    bad = re.sub(r'(<data encoding="csv">\s*)(\d+)', lambda m: m.group(1) + gid, text, count=1)
    assert bad != text
    enc = on_map(maps, bad, "big_gid")
    reach = ["reach", str(enc), "--who", "parwanna", "--use", "Press"]
    for argv in (["resolve", str(enc)], ["check", str(enc)], reach):
        code, out = run(argv, capsys)
        assert_refused(code, out, " ".join(argv[:1]), "is not a tile number", "32 bits")


# -- item 6: one reader decides, check reports it -------------------------------------------------------
def with_map_property(text: str, prop: str) -> str:
    head = re.search(r"<map[^>]*>", text)
    assert head is not None
    return text[:head.end()] + f"<properties>{prop}</properties>" + text[head.end():]


@pytest.mark.parametrize("prop", ['<property name="lighting" type="int" value="dim"/>',
                                  '<property name="scale" type="float" value="1,5"/>',
                                  '<property name="outdoor" type="bool" value="maybe"/>'])
def test_malformed_property_values_are_judged_alike_by_every_command(maps: Path, capsys, prop):
    """A property value that does not fit its Tiled type, on a property the board does not read:
    the map loads, so `check` passes it too, and prints what to fix as a note."""
    enc = on_map(maps, with_map_property((maps / "art_gallery.tmx").read_text(encoding="utf-8"), prop), "prop")
    codes = {}
    for argv in (["resolve", str(enc)], ["reach", str(enc), "--who", "parwanna", "--use", "Press"],
                 ["check", str(enc)]):
        code, out = run(argv, capsys)
        assert_clear(code, out, argv[0])
        codes[argv[0]] = code
        if argv[0] == "check":
            assert "note:" in out and "Properties panel" in out, out
    assert set(codes.values()) == {0}, codes


def test_a_terrain_property_the_board_cannot_read_is_refused_by_every_command(maps: Path, capsys):
    text = (maps / "art_gallery.tmx").read_text(encoding="utf-8")
    enc = on_map(maps, with_map_property(text, '<property name="x" type="int" value="1"/>'), "ok")
    assert run(["check", str(enc)], capsys)[0] == 0
    tileset = (maps / "battlemat.tsx").read_text(encoding="utf-8")
    bad = tileset.replace('propertytype="Direction" value="W"', 'value="up the wall"', 1)
    assert bad != tileset
    (maps / "battlemat.tsx").write_text(bad, encoding="utf-8")
    reach = ["reach", str(enc), "--who", "parwanna", "--use", "Press"]
    for argv in (["resolve", str(enc)], reach, ["check", str(enc)]):
        code, out = run(argv, capsys)
        assert_refused(code, out, argv[0], "difficult_dirs")


# -- item 7: rule case files ---------------------------------------------------------------------------
def test_check_accepts_every_bundled_rule_case(capsys):
    cases = sorted(str(p) for p in (ROOT / "cases").glob("*.toml"))
    assert cases
    code, text = run(["check", *cases], capsys)
    assert code == 0, text[-3000:]
    assert text.count("ok: ") == len(cases)


def test_a_bad_rule_case_is_refused_by_check_naming_the_place(tmp_path: Path, capsys):
    src = sorted((ROOT / "cases").glob("*.toml"))[0]
    bad = tmp_path / src.name
    bad.write_text(src.read_text(encoding="utf-8").replace("[case]", "[case]\nbogus = 1", 1), encoding="utf-8")
    code, text = run(["check", str(bad)], capsys)
    assert_clear(code, text, "check of a bad case")
    assert code == 2 and "bogus" in text


def test_a_deeply_nested_rule_case_is_bounded_like_an_encounter(tmp_path: Path, capsys):
    from battlemat.io.cases import load_case
    from battlemat.io.errors import LoadError

    deep = tmp_path / "deep.toml"
    deep.write_text('[case]\nabout = "x"\nx = ' + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    code, text = run(["check", str(deep)], capsys)
    assert_refused(code, text, "check of a deep case", "nest more than")
    with pytest.raises(LoadError, match="nest more than"):
        load_case(deep)  # the reader the tests use (tests/test_cases.py)
    big = tmp_path / "big.toml"
    big.write_text('[case]\nabout = "x"\n' + "# pad\n" * (limits.MAX_ENCOUNTER_BYTES // 6 + 1), encoding="utf-8")
    with pytest.raises(LoadError, match="bigger than"):
        load_case(big)


# -- item 3: report pictures on big maps ------------------------------------------------------------
PEAK = """
import runpy, sys
sys.argv = ["battlemat"] + sys.argv[1:]
from battlemat.cli import main
try:
    code = main()
finally:
    print("PEAK_KB", open("/proc/self/status").read().split("VmHWM:")[1].split()[0], file=sys.stderr)
sys.exit(code)
"""


@posix_only
def test_a_big_maps_report_is_drawn_within_the_figures_pixels(tmp_path: Path):
    """A 160 x 160 map of 32-pixel tiles: drawn at full resolution its picture is 5120 pixels square
    (400 MB a copy, 2.5 GB at the peak before); bounded by the figure, the whole command stays far
    under 1 GB, and the heat map still shows the map's own tiles (not the fallback sketch)."""
    from bench.bench_report import write_map

    enc = write_map(tmp_path, 160)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", PEAK, "simulate", str(enc), "--runs", "2", "--max-turns", "2",
                           "--workers", "1", "--quiet", "--report", str(tmp_path / "rep")],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    peak_kb = int(re.findall(r"PEAK_KB (\d+)", done.stderr)[-1])
    assert peak_kb < 1024 * 1024, f"peak {peak_kb // 1024} MB"
    import matplotlib.image as mpimg

    picture = mpimg.imread(tmp_path / "rep" / "defeats_map.png")[..., :3]
    grass = (abs(picture - (0.55, 0.75, 0.4)) < 0.03).all(axis=-1)  # the tileset's grass, drawn by bench_report
    assert grass.mean() > 0.05, "the heat map is not drawn over the map's tiles"


# -- item 8: Ctrl+C with --report ---------------------------------------------------------------------
@posix_only
@pytest.mark.parametrize("signals", [1, 2])
def test_ctrl_c_with_a_report_writes_report_json_first_and_a_second_keeps_it(tmp_path: Path, signals: int):
    """Issue 27 item 8: the stop writes report.json before any figure (every number in a moment); a
    second Ctrl+C while the figures are drawn keeps report.json and every figure written, each whole."""
    from tests.test_interrupt import GALLERY as gallery
    from tests.test_interrupt import simulation

    with simulation(gallery, "--workers", "1", "--report", "out", cwd=tmp_path) as sim:
        sim.wait_for(lambda: sim.runs_done() >= 3, "three runs finished")
        os.killpg(sim.pid, signal.SIGINT)
        report = tmp_path / "out" / "report.json"
        if signals == 2:
            sim.wait_for(report.is_file, "report.json")
            os.killpg(sim.pid, signal.SIGINT)
        code, _ = sim.finish(timeout=60)
        assert code == 130, sim.stderr
        assert "Traceback" not in sim.stderr, sim.stderr
        data = json.loads(report.read_text())
        assert data["partial"] is True and data["runs"] >= 3
        pngs = sorted((tmp_path / "out").glob("*.png"))
        assert all(p.stat().st_mtime >= report.stat().st_mtime for p in pngs), "a figure came before report.json"
        assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".")], "a half file was left"
        assert "written; drawing the figures (Ctrl+C again to skip them" in sim.stderr, sim.stderr
        if signals == 1:
            assert (tmp_path / "out" / "win_rates.png").is_file()
