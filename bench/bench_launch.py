"""First launch (issue 30, item 4): seconds from starting the window to its first frame with the board,
with numba's cache empty (a first launch after an install) and full (every later launch).

Each launch is a fresh process with the dummy video driver: it starts the play window on the default
encounter as `battlemat play` does (the compiled search prepared in the background, `ui.app.warm_search`),
draws frames until the board is drawn, and prints the seconds since the process started, and whether
the compiled search was still being prepared then. Goals: cold <= 5 s, warm <= 2 s. The machine is
noisy: three launches each, alternating, medians quoted. An absolute time, as the goal is one.

Run: python bench/bench_launch.py [ROUNDS]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAUNCH = """
import time, argparse
t0 = time.monotonic()
from battlemat.commands.args import add_play_arguments
from battlemat.ui import app as app_module
from battlemat.ui.options import PlayOptions
from battlemat.core import movement
p = argparse.ArgumentParser(); p.add_argument("encounter", nargs="?", default=None); add_play_arguments(p)
a = app_module.App(PlayOptions.from_namespace(p.parse_args(["--save-dir", {save!r}])), warm=app_module.warm_search)
while a.draws < 1:
    a.tick(1 / 60)
print(f"{{time.monotonic() - t0:.2f}} {{movement.warming()}}")
a.close()
"""


def launch(cache: str, save: str) -> tuple[float, bool]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", NUMBA_CACHE_DIR=cache)
    t_start = __import__("time").monotonic()
    out = subprocess.run([sys.executable, "-c", LAUNCH.format(save=save)], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    whole = __import__("time").monotonic() - t_start  # (the interpreter's own start included)
    return max(whole, float(out[0])), out[1] == "True"


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    warm_cache = tempfile.mkdtemp(prefix="bm-warm-")
    subprocess.run([sys.executable, "-m", "battlemat", "prepare", "--quiet"], cwd=ROOT, check=True,
                   env=dict(os.environ, NUMBA_CACHE_DIR=warm_cache))
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as save:
        for _ in range(rounds):
            with tempfile.TemporaryDirectory(prefix="bm-cold-") as empty:
                cold.append(launch(empty, save))
            warm.append(launch(warm_cache, save))
    for name, runs, goal in (("cold (empty cache)", cold, 5.0), ("warm (cache full)", warm, 2.0)):
        secs = [t for t, _ in runs]
        print(f"{name}: first frame after {statistics.median(secs):.2f} s (runs {', '.join(f'{t:.2f}' for t in secs)}; "
              f"goal <= {goal:.0f} s); still preparing then: {sum(w for _, w in runs)} of {len(runs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
