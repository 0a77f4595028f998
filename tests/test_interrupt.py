"""Ctrl+C, SIGTERM and a killed parent (issue 15).

A batch stops at once, keeps the runs it finished (summary and report marked partial), exits 130
(143 after SIGTERM) and leaves no process behind; pool workers die with a parent killed outright.
The end-to-end cases run `python -m battlemat simulate` of the checkout holding this file, in a
session of its own, its stderr on a pseudo-terminal so that the progress bar shows (that is how
they know the batch is running); Ctrl+C is sent as a terminal sends it, to the whole process group.
"""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from battlemat.cli import main
from battlemat.interrupt import Terminated, sigterm_raises
from battlemat.sim.pool import Batch, Interrupted, run_batch

ROOT = Path(__file__).resolve().parent.parent
GALLERY = str(ROOT / "maps" / "art_gallery.toml")
KWIRT = str(ROOT / "maps" / "examples" / "kwirt_and_the_lizard.toml")  # no map: a report without map figures
RUNS = 100_000
STOP_WITHIN = 10  # seconds from the signal to the exit, summary included (a stop itself takes well under 1 s)

posix_only = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc and sends POSIX signals")


# -- in this process ---------------------------------------------------------------------------
def test_a_stopped_batch_keeps_the_runs_it_finished_unchanged():
    batch = Batch(GALLERY, 40, seed=3, dice="d6", max_turns=20)
    seen: list[int] = []

    def stop_after_five(n: int) -> None:
        seen.append(n)
        if sum(seen) >= 5:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stopped:
        run_batch(batch, workers=1, progress=stop_after_five)
    partial = stopped.value
    assert (len(partial.results), partial.planned, partial.signum) == (5, 40, signal.SIGINT)
    full = run_batch(Batch(GALLERY, 5, seed=3, dice="d6", max_turns=20), workers=1)
    assert [(r.index, r.seed, r.winner, r.turns) for r in partial.results] == \
        [(r.index, r.seed, r.winner, r.turns) for r in full]


def test_a_stopped_pool_ends_its_workers_at_once():
    import multiprocessing

    def stop(n: int) -> None:
        raise Terminated  # SIGTERM, as battlemat.interrupt raises it

    with pytest.raises(Interrupted) as stopped:  # chunks of 10 runs: the first ends soon
        run_batch(Batch(GALLERY, 160, seed=1, dice=None, max_turns=30), workers=2, progress=stop)
    assert stopped.value.signum == signal.SIGTERM and 0 < len(stopped.value.results) < 160
    assert multiprocessing.active_children() == []


def test_main_turns_a_stop_into_one_line_and_130_or_143(monkeypatch, capsys):
    import battlemat.commands.simulate as sim_cli

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(sim_cli, "run", interrupted)
    assert main(["simulate", GALLERY]) == 130
    assert capsys.readouterr().err == "battlemat: interrupted\n"

    def terminated(args: object) -> int:
        os.kill(os.getpid(), signal.SIGTERM)  # raises Terminated here, through sigterm_raises
        raise AssertionError("SIGTERM did not stop the command")

    monkeypatch.setattr(sim_cli, "run", terminated)
    before = signal.getsignal(signal.SIGTERM)
    assert main(["simulate", GALLERY]) == 143
    assert capsys.readouterr().err == "battlemat: interrupted by SIGTERM\n"
    assert signal.getsignal(signal.SIGTERM) is before  # main gives the process its handler back


def test_sigterm_raises_only_inside():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated), sigterm_raises():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler runs at the next bytecode; this is never reached in full
    assert signal.getsignal(signal.SIGTERM) is before


# -- a real process, a real signal ---------------------------------------------------------------
class Simulation:
    """`battlemat simulate` of this checkout in its own session; stderr read from a pseudo-terminal."""

    def __init__(self, encounter: str, *args: str, cwd: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TTY_")}
        env |= {"PYTHONPATH": str(ROOT), "TERM": "xterm", "COLUMNS": "100"}
        env.pop("BATTLEMAT_PROGRESS", None)
        master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "battlemat", "simulate", encounter, "--runs", str(RUNS), *args],
            cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
            start_new_session=True,
            # Ctrl+C must reach it even where this test runs with SIGINT ignored (a background job).
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        os.close(slave)
        self.pid = self.proc.pid  # also its process group: start_new_session
        self.err = bytearray()
        self._reader = threading.Thread(target=self._read, args=(master,), daemon=True)
        self._reader.start()

    def _read(self, fd: int) -> None:
        try:
            while chunk := os.read(fd, 4096):
                self.err += chunk
        except OSError:  # EIO: every writer has closed the terminal
            pass
        finally:
            os.close(fd)

    def wait_for(self, ready: Callable[[], bool], what: str, tries: int = 600) -> None:
        for _ in range(tries):  # 30 s at most: the first numba compile of a fresh checkout
            if ready():
                return
            assert self.proc.poll() is None, f"exited {self.proc.returncode} before {what}: {self.stderr}"
            time.sleep(0.05)
        pytest.fail(f"never saw {what}: {self.stderr}")

    @property
    def stderr(self) -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", bytes(self.err).decode(errors="replace"))

    def runs_done(self) -> int:
        counts = re.findall(rf"(\d+)/{RUNS}", self.stderr)
        return int(counts[-1]) if counts else 0

    def finish(self, timeout: float = STOP_WITHIN) -> tuple[int, str]:
        out, _ = self.proc.communicate(timeout=timeout)
        self._reader.join(timeout=5)
        return self.proc.returncode, out.decode()


def group(pgid: int) -> list[int]:
    """Live processes of a process group (zombies are dead: only their exit status waits to be read)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                state, _ppid, pgrp = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:3]
            except (OSError, ValueError):
                continue
            if int(pgrp) == pgid and state != "Z":
                found.append(int(entry.name))
    return found


@contextmanager
def simulation(encounter: str, *args: str, cwd: Path) -> Iterator[Simulation]:
    sim = Simulation(encounter, *args, cwd=cwd)
    try:
        yield sim
    finally:
        for pid in group(sim.pid):  # only if a check failed: never leave the test's processes behind
            os.kill(pid, signal.SIGKILL)
        if sim.proc.poll() is None:
            sim.proc.kill()
            sim.proc.wait()


def no_process_left(pgid: int) -> bool:
    for _ in range(100):  # 5 s at most
        if not group(pgid):
            return True
        time.sleep(0.05)
    return False


@posix_only
def test_ctrl_c_with_one_worker_reports_the_runs_finished_as_partial(tmp_path):
    with simulation(KWIRT, "--workers", "1", "--report", "out", cwd=tmp_path) as sim:
        sim.wait_for(lambda: sim.runs_done() >= 3, "three runs finished")
        os.killpg(sim.pid, signal.SIGINT)
        code, out = sim.finish(timeout=30)  # the figures of the partial report take a few seconds
        assert code == 130, sim.stderr
        assert "battlemat: interrupted" in sim.stderr and "Traceback" not in sim.stderr
        said = re.search(rf"interrupted after (\d+) of {RUNS:,} runs: partial results", out)
        assert said is not None, out
        done = int(said[1])
        assert done >= 3
        report = json.loads((tmp_path / "out" / "report.json").read_text())
        assert (report["partial"], report["runs"], report["runs_planned"]) == (True, done, RUNS)
        assert sum(s["wins"] for s in report["sides"]) + report["undecided"] == done
        assert (tmp_path / "out" / "win_rates.png").is_file()
        assert no_process_left(sim.pid)


def workers_started(sim: Simulation, workers: int) -> Callable[[], bool]:
    return lambda: "simulating" in sim.stderr and len(group(sim.pid)) > workers


@posix_only
def test_ctrl_c_with_two_workers_stops_them_and_exits_130(tmp_path):
    with simulation(GALLERY, "--workers", "2", cwd=tmp_path) as sim:
        sim.wait_for(workers_started(sim, 2), "the two workers")
        os.killpg(sim.pid, signal.SIGINT)  # the workers get it too, as from a terminal
        code, out = sim.finish()
        assert code == 130, sim.stderr
        assert "partial results" in out and "Traceback" not in sim.stderr
        assert no_process_left(sim.pid)


@posix_only
def test_sigterm_stops_a_pool_like_ctrl_c_with_exit_143(tmp_path):
    with simulation(GALLERY, "--workers", "2", cwd=tmp_path) as sim:
        sim.wait_for(workers_started(sim, 2), "the two workers")
        os.kill(sim.pid, signal.SIGTERM)  # the parent alone, as a supervisor sends it
        code, out = sim.finish()
        assert code == 143, sim.stderr
        assert "partial results" in out and "battlemat: interrupted by SIGTERM" in sim.stderr
        assert no_process_left(sim.pid)


@posix_only
def test_workers_die_with_a_parent_killed_outright(tmp_path):
    with simulation(GALLERY, "--workers", "2", cwd=tmp_path) as sim:
        sim.wait_for(workers_started(sim, 2), "the two workers")
        os.kill(sim.pid, signal.SIGKILL)  # no code of the parent runs: the kernel ends the workers
        sim.proc.wait(timeout=STOP_WITHIN)
        assert no_process_left(sim.pid), f"workers outlived their parent: {group(sim.pid)}"


@posix_only
@pytest.mark.slow
def test_ctrl_c_on_a_dask_cluster_cancels_the_batch_there(tmp_path):
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster, set_as_default=False) as watcher:

        def tasks() -> int:
            return int(watcher.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)))

        with simulation(GALLERY, "--dask-scheduler", cluster.scheduler_address, cwd=tmp_path) as sim:
            sim.wait_for(lambda: "simulating" in sim.stderr and tasks() > 0, "the batch on the cluster")
            os.killpg(sim.pid, signal.SIGINT)
            code, out = sim.finish()
            assert code == 130, sim.stderr
            assert "partial results" in out and "Traceback" not in sim.stderr
            assert no_process_left(sim.pid)
        for _ in range(100):  # the cluster forgets the cancelled chunks once the client is gone
            if tasks() == 0:
                break
            time.sleep(0.05)
        assert tasks() == 0
