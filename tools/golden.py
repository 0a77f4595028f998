"""Golden outputs: record what battlemat prints, and later tell byte for byte whether a tree still prints it.

A refactor must not change a result; a change that alters results on purpose re-records and says why.
Every output is a command a user runs, played in this process through `battlemat.cli.main`:

- `resolve --json` of every bundled and example encounter (diceless as written, and with `--dice d6`);
- `simulate --report` (200 runs, seed 7, dice `none` and `d6`) of the four bundled maps: the printed
  summary, `report.json`, and the figures (by SHA-256: PNG bytes depend on matplotlib's version, so
  they are compared only when the version matches the one recorded);
- `reach --json` for every bundled map, several characters, ten skills each (refusals included).

    python tools/golden.py record DIR [--quick]     # write DIR/<case>.out and DIR/MANIFEST.json
    python tools/golden.py compare DIR [--quick]    # exit 1 naming every case that differs
    python tools/golden.py compare DIR --tree PATH  # the same for another checkout (e.g. a git worktree)

`--quick` is the subset the test suite runs (tests/test_golden.py against tests/golden/).
The committed goldens in tests/golden/ are the full set recorded with `record tests/golden`; the
quick subset compares against the same files.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import sys
import tempfile
import tomllib
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
BUNDLED = ("art_gallery", "forest_ambush", "boulder_field", "bridge_hex", "cellar_door")
SKILLS = ("Exit", "Escape", "Dodge", "Melee", "Wrestle", "Shoot", "Acrobatics", "Climb", "Press", "Provoke")
TARGETED = ("Press", "Provoke")
# Per bundled map: the characters asked about (the first foe of each is the Press/Provoke target).
REACH_WHO = {
    "art_gallery": (("billin", "ogre_boss"), ("garran", "statue"), ("ogre_boss", "garran")),
    "forest_ambush": (),  # filled from the encounter: its first two characters of each side
    "boulder_field": (("kwirt", "lizard"), ("lizard", "kwirt")),
    "bridge_hex": (),
    "cellar_door": (),  # (a Universal VTT map: walls between squares and a door, issue 29)
}
SIM_RUNS, SIM_SEED = 200, 7


@dataclass(frozen=True)
class Case:
    name: str  # the file it is kept in, without .out
    argv: tuple[str, ...]  # relative to the tree's root
    report: bool = False  # simulate --report: also keep report.json and the figures' hashes
    quick: bool = False  # in the test suite's subset


def cases(root: Path) -> list[Case]:
    """Every golden case, in a fixed order."""
    out: list[Case] = []
    examples = sorted(p.stem for p in (root / "maps" / "examples").glob("*.toml"))
    for name in BUNDLED:
        out.append(Case(f"resolve-{name}", ("resolve", f"maps/{name}.toml", "--json"), quick=True))
        out.append(Case(f"resolve-{name}-d6", ("resolve", f"maps/{name}.toml", "--json", "--dice", "d6")))
    for name in examples:
        out.append(Case(f"resolve-examples-{name}", ("resolve", f"maps/examples/{name}.toml", "--json"), quick=True))
        out.append(Case(f"resolve-examples-{name}-d6",
                        ("resolve", f"maps/examples/{name}.toml", "--json", "--dice", "d6")))
    for name in BUNDLED:
        for who, target in _reach_who(root, name):
            for skill in SKILLS:
                argv = ["reach", f"maps/{name}.toml", "--who", who, "--use", skill, "--json"]
                if skill in TARGETED:
                    argv += ["--target", target]
                quick = who == _reach_who(root, name)[0][0] and skill in ("Exit", "Melee", "Press", "Acrobatics")
                out.append(Case(f"reach-{name}-{who}-{skill}", tuple(argv), quick=quick))
    for name in BUNDLED:
        for dice in ("none", "d6"):
            out.append(Case(f"simulate-{name}-{dice}", (
                "simulate", f"maps/{name}.toml", "--runs", str(SIM_RUNS), "--seed", str(SIM_SEED), "--dice", dice,
                "--quiet", "--report", "{report}"), report=True, quick=name == "boulder_field"))
    return out


def _reach_who(root: Path, name: str) -> tuple[tuple[str, str], ...]:
    """The characters asked about on a map, each with a foe to charge or provoke."""
    if REACH_WHO[name]:
        return REACH_WHO[name]
    chars = tomllib.loads((root / "maps" / f"{name}.toml").read_text())["character"]
    sides: dict[str, list[str]] = {}
    for c in chars:
        sides.setdefault(c["side"], []).append(c["id"])
    picks = []
    for side, ids in sides.items():
        foe = next(c["id"] for c in chars if c["side"] != side)
        picks += [(cid, foe) for cid in ids[:2]]
    return tuple(picks)


def run_case(case: Case, root: Path, scratch: Path) -> dict[str, str]:
    """The case's outputs by file name: the printed text (with its exit code), report.json, and
    the figures' hashes."""
    from battlemat.cli import main  # noqa: PLC0415 - start-up: the --tree's battlemat, once main() put it on sys.path

    report = scratch / case.name
    argv = [a.replace("{report}", str(report)) for a in case.argv]
    out, err = io.StringIO(), io.StringIO()
    cwd = Path.cwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        os.chdir(cwd)
    text = out.getvalue().replace(str(report), "{report}")
    files = {f"{case.name}.out": f"exit {code}\n{text}{err.getvalue()}"}
    if case.report:
        files[f"{case.name}.report.json"] = (report / "report.json").read_text()
        import matplotlib  # noqa: PLC0415 - start-up: only the simulate cases draw figures

        figures = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(report.glob("*.png"))}
        files[f"{case.name}.figures.json"] = json.dumps(
            {"matplotlib": matplotlib.__version__, "sha256": figures}, indent=2) + "\n"
    return files


def _outputs(root: Path, quick: bool, names: Collection[str] | None = None) -> Iterator[tuple[Case, dict[str, str]]]:
    with tempfile.TemporaryDirectory(prefix="battlemat-golden-") as tmp:
        for case in cases(root):
            if (quick and not case.quick) or (names is not None and case.name not in names):
                continue
            yield case, run_case(case, root, Path(tmp))


def record(dest: Path, root: Path, quick: bool) -> int:
    dest.mkdir(parents=True, exist_ok=True)
    n = 0
    for case, files in _outputs(root, quick):
        for fname, text in files.items():
            (dest / fname).write_text(text)
            n += 1
        print(f"recorded {case.name}", file=sys.stderr)
    print(f"{n} files in {dest}")
    return 0


def differences(golden: Path, root: Path, quick: bool, names: Collection[str] | None = None) -> list[str]:
    """The names of the outputs that differ from those kept in `golden` (empty: all identical);
    `names` limits the cases compared."""
    bad: list[str] = []
    for case, files in _outputs(root, quick, names):
        for fname, text in files.items():
            kept = golden / fname
            if not kept.exists():
                bad.append(f"{fname}: not recorded")
            elif fname.endswith(".figures.json"):
                bad += _figures_differ(fname, json.loads(kept.read_text()), json.loads(text))
            elif kept.read_text() != text:
                bad.append(f"{fname}: differs ({case.name}: battlemat {' '.join(case.argv)})")
    return bad


def _figures_differ(fname: str, kept: dict, now: dict) -> list[str]:
    if kept["matplotlib"] != now["matplotlib"]:
        return []  # PNG bytes are matplotlib's: a different version draws the same numbers differently
    return [f"{fname}: figure {name} differs" for name, h in kept["sha256"].items() if now["sha256"].get(name) != h]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("action", choices=("record", "compare"))
    p.add_argument("dir", type=Path, help="where the goldens are kept")
    p.add_argument("--quick", action="store_true", help="only the test suite's subset")
    p.add_argument("--tree", type=Path, default=HERE, help="the checkout to run (default: this one)")
    args = p.parse_args(argv)
    root = args.tree.resolve()
    sys.path.insert(0, str(root))  # import that tree's battlemat, not the installed one
    os.environ.setdefault("MPLBACKEND", "Agg")
    if args.action == "record":
        return record(args.dir.resolve(), root, args.quick)
    bad = differences(args.dir.resolve(), root, args.quick)
    for line in bad:
        print(line)
    total = sum(1 for c in cases(root) if c.quick or not args.quick)
    print(f"{total} cases: " + ("every output identical" if not bad else f"{len(bad)} outputs differ"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
