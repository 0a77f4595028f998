"""Would a compiled build of the rules pay? (issue 30: a measurement for a decision, not a device in use)

The turn's Python work is flat (no function above 4% of a batch), so the one change that speeds every
part of it at once is compiling the pure core and the AI, unchanged, with mypyc (it comes with mypy, in
the test extra). Nothing in battlemat is compiled that way: the principle is that speed devices stay
behind the fast-path modules, never in the rules' code, so this bench gives the numbers to decide on.

1. Copies this checkout (without .git) into a temporary folder and compiles there, with mypyc,
   every module of `core`, `core/resolver`, `core/movement` and `ai` except those in STAY_PYTHON (each
   with the reason it stays). About 2-3 minutes on this machine; the checkout is never touched.
2. Checks the compiled copy is the one imported, warms it (one short batch, which also fills numba's
   cache for the copy's kernel), and refuses it unless `tools/golden.py compare tests/golden` says
   every output is identical under it.
3. Runs `bench_turn.py` and `bench_sim.py` on the plain checkout and on the compiled copy, alternating
   (plain, compiled, plain, ...), and prints each run's ratios and the medians side by side: issue 30's
   goals are bench_turn's "record then / search" >= 2.5 and bench_sim's "full rules / crude" >= 1.5.

Run: python bench/bench_compiled.py [--rounds N]   (prints the ratios; no assertions)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("battlemat/core", "battlemat/core/resolver", "battlemat/core/movement", "battlemat/ai")
STAY_PYTHON = {
    "battlemat/core/movement/kernel.py": "numba compiles it (the fast-path search)",
    "battlemat/core/movement/dijkstra.py": "numba compiles it (the walking distances)",
    "battlemat/core/movement/grid.py": "compiled, its numpy.typing annotations fail at import (KeyError: 'npt')",
    "battlemat/core/movement/found.py": "kernel.py's Answer subclasses its Found, and an interpreted class "
                                        "cannot inherit from a compiled one",
    "battlemat/core/events.py": "compiled, the ClassVar in each payload dataclass reads as a field with a "
                                "default ('non-default argument follows default argument' at import)",
    "battlemat/core/board.py": "compiled, the field with init=False and a default is left unset "
                               "('attribute projection of Board undefined')",
}
# core/engines stays Python as a whole: each engine's NAME is a ClassVar read on the class, which a
# compiled class turns into a descriptor (the engines table then holds no names).
SCALE = {"turn": re.compile(r"ratio record then / search: ([\d.]+)"),
         "turn_us": re.compile(r"for search \(no words read\)\s*:\s*([\d.]+) us"),
         "sim": re.compile(r"ratio full rules \(1 worker\) / crude: ([\d.]+)"),
         "sim_rate": re.compile(r"full rules, 1 worker :\s*([\d.]+)"),
         "workers": re.compile(r"ratio 2 workers / 1 worker: ([\d.]+)")}


def modules(root: Path) -> list[str]:
    """The modules compiled: every .py of PACKAGES under root, except STAY_PYTHON."""
    found = sorted(str(p.relative_to(root)) for pkg in PACKAGES for p in (root / pkg).glob("*.py"))
    return [m for m in found if m not in STAY_PYTHON]


def run(args: list[str], pythonpath: Path, cwd: Path) -> str:
    """stdout of a Python command with battlemat taken from `pythonpath`; the output shown on failure."""
    proc = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(pythonpath)})
    if proc.returncode != 0:
        sys.exit(f"{' '.join(args)} failed (exit {proc.returncode}):\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc.stdout


def build(tree: Path) -> None:
    """The checkout (its maps and goldens too, without .git) copied to `tree`, its core and AI compiled."""
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "__pycache__", "*.so", "*.pyd", ".mypy_cache", ".pytest_cache", ".ruff_cache"))
    todo = modules(tree)
    print(f"compiling {len(todo)} modules with mypyc in {tree} (about 2-3 minutes; {len(STAY_PYTHON)} modules and "
          "core/engines stay Python)", flush=True)
    proc = subprocess.run([sys.executable, "-m", "mypyc", *todo], cwd=tree, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"mypyc failed (exit {proc.returncode}):\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    # imported as the benches import it: their folder first on sys.path, then PYTHONPATH
    where = run(["-c", "import battlemat.core.rules as m; print(m.__file__)"], tree, ROOT / "bench").strip()
    if not where.startswith(str(tree)) or not where.endswith(".so"):
        sys.exit(f"the compiled copy is not the one imported ({where})")
    run(["-m", "battlemat.cli", "simulate", "maps/art_gallery.toml", "--runs", "5", "--quiet"], tree, tree)
    verdict = run(["tools/golden.py", "compare", "tests/golden"], tree, tree).strip().splitlines()[-1]
    print(f"goldens under the compiled copy: {verdict}", flush=True)
    if "every output identical" not in verdict:
        sys.exit("the compiled copy changes results: no timing")


def measure(label: str, pythonpath: Path, into: dict[str, list[float]]) -> None:
    bench = ROOT / "bench"
    out = run([str(bench / "bench_turn.py")], pythonpath, ROOT) + run([str(bench / "bench_sim.py")], pythonpath, ROOT)
    got = {}
    for key, pattern in SCALE.items():
        match = pattern.search(out)
        if match is None:
            sys.exit(f"{label}: no '{pattern.pattern}' in the benches' output:\n{out}")
        got[key] = float(match.group(1))
        into.setdefault(key, []).append(got[key])
    print(f"{label:9}: bench_turn {got['turn']:.2f} ({got['turn_us']:.0f} us a search turn); bench_sim "
          f"{got['sim']:.2f} ({got['sim_rate']:.1f} combats/s), 2 workers / 1 {got['workers']:.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3, help="runs of both benches on each build, alternated")
    args = ap.parse_args()
    try:
        with tempfile.TemporaryDirectory(prefix="bench_compiled_") as name:
            tree = Path(name) / "battlemat"
            build(tree)
            plain: dict[str, list[float]] = {}
            compiled: dict[str, list[float]] = {}
            for k in range(args.rounds):
                measure(f"plain {k + 1}", ROOT, plain)
                measure(f"mypyc {k + 1}", tree, compiled)
    except KeyboardInterrupt:
        sys.exit("stopped (the temporary copy is removed)")
    med = statistics.median
    turn_x = med(plain["turn_us"]) / med(compiled["turn_us"])
    sim_x = med(compiled["sim_rate"]) / med(plain["sim_rate"])
    print(f"bench_turn record then / search (goal >= 2.5): plain {med(plain['turn']):.2f}, "
          f"compiled {med(compiled['turn']):.2f}; a search turn {turn_x:.2f}x faster compiled")
    print(f"bench_sim full rules / crude (goal >= 1.5): plain {med(plain['sim']):.2f}, "
          f"compiled {med(compiled['sim']):.2f}; combats {sim_x:.2f}x faster compiled")
    print(f"bench_sim 2 workers / 1 (goal >= 1.8): plain {med(plain['workers']):.2f}, "
          f"compiled {med(compiled['workers']):.2f}")


if __name__ == "__main__":
    main()
