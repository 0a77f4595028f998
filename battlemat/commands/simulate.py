"""`battlemat simulate ENCOUNTER --runs N ...`: play an encounter many times with AI on all sides.

Prints win rates with 95% Wilson intervals, turn quartiles, each character's defeat rate and
losses, and the most common reasons moves were cut short; `--report DIR` adds PNG figures and
report.json with every number.

Ctrl+C (or SIGTERM) stops a batch within a moment (battlemat.sim.pool): the summary and the report
are then made from the runs finished so far, marked partial, and the exit status is 130 (143 after
SIGTERM; battlemat.interrupt says why).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from battlemat.commands.args import (
    RUNS,
    RUNS_HELP,
    WORKERS,
    WORKERS_HELP,
    add_ai_argument,
    add_batch_options,
    ai_overrides,
)
from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.interrupt import stopped
from battlemat.io.encounter import load_encounter
from battlemat.io.limits import MAX_WORKERS
from battlemat.io.outfile import write_file
from battlemat.labels import display_names, labels_by_id
from battlemat.sim.overrides import with_ai
from battlemat.sim.pool import Batch, Interrupted, default_workers, run_batches
from battlemat.sim.progress import play_batches
from battlemat.sim.replays import write_replays
from battlemat.sim.report import write_report
from battlemat.sim.runlog import log_lines
from battlemat.sim.runner import RunResult
from battlemat.sim.stats import Summary, summarise
from battlemat.sim.sweep import print_sweep, sweep_styles
from battlemat.sim.variants import Paired, build_variant, paired, parse_variant
from battlemat.sim.verdict import stalemate_why, undecided, undecided_line, verdict_lines


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("encounter", help="encounter .toml file")
    p.add_argument("--runs", type=RUNS, default=200, help=f"number of combats to play (default 200; {RUNS_HELP})")
    add_batch_options(p)  # --seed, --dice, --max-turns, --dask-scheduler
    p.add_argument("--workers", type=WORKERS, default=None,
                   help=f"worker processes on this machine (default: one per core from 100 runs up, else 1; "
                        f"{WORKERS_HELP})")
    p.add_argument("--report", metavar="DIR", default=None,
                   help="write PNG figures, report.json and the typical and worst runs as replays here")
    p.add_argument("--replays", metavar="DIR", default=None,
                   help="save the typical run and each side's worst run as replays here (default: the --report folder)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_variant_argument(p)
    add_ai_argument(p, "play a side (or every side) with this AI instead of the encounter's; with search, the "
                       "batch is also played with the tactics on the same seeds and the verdict shows both")
    p.add_argument("--log-run", type=int, default=None, metavar="K",
                   help="also print the full log of run K (0-based), as `resolve` prints one, "
                        "with the AI's notes")
    p.add_argument("--sweep", choices=("styles",), default=None,
                   help="styles: play the batch under each side's style knobs; warn when the verdict depends on them")


def run(args: argparse.Namespace) -> int:
    workers = min(MAX_WORKERS, default_workers(args.runs)) if args.workers is None else args.workers
    if args.report:  # before the batch: a report folder that cannot be made fails now, not after the runs
        try:
            Path(args.report).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BattlematError(f"--report {args.report}: cannot make that folder ({exc.strerror or exc}). "
                                 "Fix: name a folder you can write to") from None
    if args.log_run is not None and not 0 <= args.log_run < args.runs:
        raise BattlematError(f"--log-run must be a run of the batch, 0 to {args.runs - 1}")
    path = str(Path(args.encounter).resolve())
    enc = load_encounter(path)  # fails early, in this process, with a clear message
    seed = enc.seed if args.seed is None else args.seed
    dice = args.dice or enc.dice
    ai = ai_overrides(enc, getattr(args, "ai", []))
    if getattr(args, "variant", None):  # what-if variants on the same seeds (battlemat.sim.variants)
        return simulate_variants(args, enc, path, seed, dice, workers, ai)
    plain = enc
    enc = with_ai(enc, ai)  # the encounter as played (--ai)
    searched = [side for side, tactic, _ in ai if tactic == "search"]
    console = Console(stderr=True)
    show = not args.quiet and sys.stderr.isatty() or os.environ.get("BATTLEMAT_PROGRESS") == "1"
    with Progress(
        TextColumn("[bold]simulating[/]"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=console, disable=not show,
    ) as bar:
        batch = Batch(path, args.runs, seed, dice, args.max_turns, ai=ai)
        # with the search on a side, the tactics' batch too, on the same seeds, for the verdict
        batches = [batch] + ([Batch(path, args.runs, seed, dice, args.max_turns)] if searched else [])
        task = bar.add_task("runs", total=args.runs * len(batches))
        stop: Interrupted | None = None
        try:
            groups = run_batches(batches, workers=workers,
                                 dask_scheduler=args.dask_scheduler, progress=lambda n: bar.advance(task, n))
        except Interrupted as exc:
            groups, stop = exc.groups, exc
        results = groups[0]
    status = 0 if stop is None else stopped(stop)  # "battlemat: interrupted" on stderr; the summary says more
    summary = summarise(enc, results, seed, dice, args.max_turns, planned=args.runs)
    plays = [("", results)]
    if searched and len(groups) > 1 and groups[1]:
        on = "search" if len(searched) == len(enc.sides) else f"{', '.join(searched)} on search"
        plays = [("tactics", groups[1]), (on, results)]
    summary.verdict = verdict(enc, plays, seed, dice, args.max_turns, explain=stop is None)
    if searched:
        print(f"AI: {', '.join(f'{side} {tactic}' for side, tactic, _ in ai)} (--ai); every other side its tactics")
    folder = args.replays or args.report  # replays go where asked: never into the maps' folder unasked
    if stop is None and folder:  # an interrupted batch stops now: its runs are not played again for replays
        where = Path(folder)
        prefix = "" if args.report and folder == args.report else f"{Path(path).stem}-"
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BattlematError(f"--replays {folder}: cannot make that folder ({exc.strerror or exc}). "
                                 "Fix: name a folder you can write to") from None
        summary.replay_dir = str(where)
        summary.replays = write_replays(enc, batch, results, where, prefix)
    print_summary(summary)
    if args.log_run is not None and stop is None:
        print(f"\n# run {args.log_run} in full")
        print("\n".join(log_lines(enc, args.log_run, seed, dice, args.max_turns)))
    if args.sweep == "styles" and stop is None:
        print_sweep(sweep_styles(Batch(path, args.runs, seed, dice, args.max_turns), plain, workers))
    if args.report:
        out = Path(args.report)
        files = write_report(enc, summary, out, Path(path), _numbers_written if stop is not None else None)
        print(f"\nreport: {', '.join(str(f) for f in files)}")
    return status


def verdict(enc: Encounter, plays: Sequence[tuple[str, Sequence[RunResult]]], seed: int, dice: str,
            max_turns: int, explain: bool = True) -> list[str]:
    """The game master's lines (sim.verdict): one per side over every (label, results) it was played
    with, then what the undecided combats of the first were, a stalemate explained from one of its runs
    played again (`explain`; not after a Ctrl+C, which should stop at once). Issue 31 items 1-3 pass a
    second play per side here (e.g. [("tactics", results), ("search", theirs)])."""
    if not plays or not plays[0][1]:
        return []
    lines = verdict_lines(enc, plays)
    results = plays[0][1]
    kinds = undecided(results)
    why = stalemate_why(enc, kinds.stalemate[0], seed, dice, max_turns) \
        if kinds.stalemate and explain else ""
    line = undecided_line(enc, results, max_turns, why)
    return lines + ([line] if line else [])


def _numbers_written(report: Path) -> None:
    """After a Ctrl+C the numbers are saved at once; the figures follow, and a second Ctrl+C skips
    them (battlemat.sim.report keeps report.json and every figure already written, each whole)."""
    print(f"battlemat: {report} written; drawing the figures (Ctrl+C again to skip them: "
          "what is written is kept; those not started within half a second are skipped)", file=sys.stderr, flush=True)


def print_summary(s: object) -> None:
    assert isinstance(s, Summary)
    con = Console(width=110)
    if s.partial:
        con.print(f"[bold]interrupted after {s.runs:,} of {s.planned:,} runs: partial results[/]", highlight=False)
        if not s.runs:
            con.print("No combat had finished: nothing to summarise.")
            return
    con.print(f"[bold]{s.title}[/]: {s.runs} combats, seed {s.seed}, dice {s.dice}, turn cap {s.max_turns}")
    wins = Table(title="Who wins (95% Wilson interval)", title_justify="left")
    for col in ("side", "wins", "rate", "95% interval"):
        wins.add_column(col, justify="right" if col != "side" else "left")
    for side in s.sides:
        wins.add_row(side.side, str(side.wins), f"{side.rate:.1%}", f"{side.low:.1%} - {side.high:.1%}")
    if s.undecided:
        wins.add_row("undecided", str(s.undecided), f"{s.undecided / s.runs:.1%}",
                     f"{s.capped} hit the turn cap")
    con.print(wins)
    con.print(f"Turns: median {s.turns_median:g}, quartiles {s.turns_q1:g} - {s.turns_q3:g}, "
              f"range {min(s.turns)} - {max(s.turns)}")
    chars = Table(title="Characters", title_justify="left")
    for col in ("token", "character", "side", "defeated", "fled", "losses taken (mean +- sd)"):
        chars.add_column(col, justify="left" if col in ("token", "character", "side") else "right")
    labels = labels_by_id(s.chars)  # the window's token labels: GS1, GS2 where initials repeat
    names = display_names(s.chars)  # names, with the id where two repeat
    for c in s.chars:
        chars.add_row(labels[c.id], names[c.id], c.side, f"{c.defeat_rate:.1%}", f"{c.fled_rate:.1%}",
                      f"{c.mean_losses:.2f} +- {c.sd_losses:.2f}")
    con.print(chars)
    if s.stop_reasons:
        stops = Table(title="Moves cut short, most common reasons", title_justify="left")
        stops.add_column("reason")
        stops.add_column("times", justify="right")
        stops.add_column("per combat", justify="right")
        for reason, n in s.stop_reasons:
            stops.add_row(reason, str(n), f"{n / s.runs:.2f}")
        con.print(stops)
    else:
        con.print("No move was cut short.")
    print_trust(con, s, labels)


def print_trust(con: object, s: object, labels: dict[str, str]) -> None:
    """The parts of the summary that say how far to trust it and what decides the fight (issue 18)."""
    assert isinstance(con, Console) and isinstance(s, Summary)
    names = display_names(s.chars)
    falls = Table(title="Defeat: chance (95% Wilson interval) and the turn it happens", title_justify="left")
    for col in ("token", "character", "defeated", "95% interval", "turn: median", "quartiles"):
        falls.add_column(col, justify="left" if col in ("token", "character") else "right")
    for c in s.chars:
        when = c.defeat_turn
        falls.add_row(labels[c.id], names[c.id], f"{c.defeat_rate:.1%}", f"{c.defeat_low:.1%} - {c.defeat_high:.1%}",
                      "-" if when is None else f"{when['median']:g}",
                      "-" if when is None else f"{when['q1']:g} - {when['q3']:g}")
    con.print(falls)
    skills = Table(title="Skills used (% of the character's turns; idle: no intent)", title_justify="left")
    skills.add_column("token")
    skills.add_column("character")
    skills.add_column("turns", justify="right")
    skills.add_column("skills")
    for c in s.chars:
        skills.add_row(labels[c.id], names[c.id], str(c.turns_active),
                       ", ".join(f"{use} {share:.0%}" for use, share in c.skills.items()) or "-")
    con.print(skills)
    _print_losses_by_turn(con, s)
    _print_decides(con, s)
    tail = s.tail()
    marks = [t for t in tail if 0 < t["rate"] < 1] or tail[-1:]
    if marks:
        step = max(1, len(marks) // 8)
        con.print("Lasting more than k turns: "
                  + ", ".join(f">{t['more_than']:g}: {t['rate']:.0%}" for t in marks[::step]), highlight=False)
    if s.diceless:
        con.print("Dice none: the rules add no chance, so every difference between these combats comes only "
                  "from the AI's choices (its tactics draw from each run's seed).", highlight=False)
    for what, rep in s.replays.items():
        won = rep["winner"] or "undecided"
        con.print(f"replay ({what}): {Path(s.replay_dir) / rep['file']}  run {rep['run']}, {won}, "
                  f"{rep['turns']} turns, losses " + ", ".join(f"{side} {n}" for side, n in rep["losses"].items()),
                  highlight=False)
    if s.verdict:
        con.print("[bold]Verdict[/] (the words' thresholds: battlemat/sim/verdict.py, README 'What the verdict says')")
        for line in s.verdict:
            con.print(f"  {line}", highlight=False, soft_wrap=True)


def _print_losses_by_turn(con: Any, s: Any) -> None:
    shown = max((len(rows) for rows in s.losses_by_turn.values()), default=0)
    if shown:
        per_turn = Table(title="Losses per turn by side: median (quartiles), over the combats still going",
                         title_justify="left")
        per_turn.add_column("turn", justify="right")
        per_turn.add_column("combats", justify="right")
        for side in s.losses_by_turn:
            per_turn.add_column(side, justify="right")
        for t in range(min(shown, 12)):
            cells = []
            for rows in s.losses_by_turn.values():
                row = rows[t] if t < len(rows) else None
                cells.append("-" if row is None else f"{row.median:g} ({row.q1:g} - {row.q3:g})")
            runs = next(rows[t].runs for rows in s.losses_by_turn.values() if t < len(rows))
            per_turn.add_row(str(t + 1), str(runs), *cells)
        con.print(per_turn)
        if shown > 12:
            con.print(f"  (turns 13-{shown} in report.json)", highlight=False)


def _print_decides(con: Any, s: Any) -> None:
    if s.defeats:
        decides = Table(title=f"What decides defeats: rule IDs of the events that dealt the defeating losses "
                              f"({s.defeats} defeats)", title_justify="left")
        for col in ("rule", "title", "defeats", "share"):
            decides.add_column(col, justify="right" if col in ("defeats", "share") else "left")
        for rule, n in s.decided_by:
            decides.add_row(rule, s.rule_titles.get(rule, ""), str(n), f"{n / s.defeats:.0%}")
        con.print(decides)
        shown_rules = {r for r, _ in s.decided_by}
        before = [f"{r} {n / s.defeats:.0%}" for r, n in s.before_defeat if r not in shown_rules]
        if before:
            con.print(f"Also cited earlier in the defeat's turn: {', '.join(before)}", highlight=False)
    else:
        con.print("No character was defeated.")


def summary_json(s: object) -> str:
    assert isinstance(s, Summary)
    return json.dumps(s.to_json(), indent=2)


# -- `simulate --variant` --------------------------------------------------------------------------
def add_variant_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", action="append", default=[], metavar="CHANGE",
                   help="what-if: also play a changed encounter on the same seeds and show the change in win "
                        "rate with a paired 95%% interval; -ID, +copy:ID, ID.SKILL=N (or +N, -N), ID.ai=TACTIC, "
                        "where ID is a character's id or its name as the window shows it (any case, or the start "
                        "of one name: \"Ogre leader.ai=brawler\"); join changes with ';'; repeatable")


def simulate_variants(args: argparse.Namespace, enc: Encounter, path: str, seed: int, dice: str,  # noqa: PLR0913
                      workers: int, ai: tuple[tuple[str, str, str], ...] = ()) -> int:
    """`simulate` with --variant: the base and every variant in one batch of work, then the base's
    summary and the variants' table. Ctrl+C: what finished, paired on the runs both finished."""
    variants = [parse_variant(v, enc) for v in args.variant]  # every mistake before any run
    for v in variants:
        build_variant(enc, path, v.text)  # a copy with no room, a file that will not read: now
    batches = [Batch(path, args.runs, seed, dice, args.max_turns, ai=ai)] + [
        Batch(path, args.runs, seed, dice, args.max_turns, v.text, ai=ai) for v in variants]
    groups, stop = play_batches(batches, workers, args.dask_scheduler, quiet=args.quiet, what="simulating")
    status = 0 if stop is None else stopped(stop)
    summary = summarise(enc, groups[0], seed, dice, args.max_turns, planned=args.runs)
    summary.verdict = verdict(enc, [("", groups[0])], seed, dice, args.max_turns, explain=stop is None)
    print_summary(summary)
    rows = [(v.text, [paired(side, groups[0], g) for side in enc.sides]) for v, g in zip(variants, groups[1:],
                                                                                          strict=True)]
    if groups[0]:
        print_variants(enc, groups[0], [(v.words(enc), ps) for v, (_, ps) in zip(variants, rows, strict=True)])
    if args.report:
        out = Path(args.report)
        vfile = out / "variants.json"  # the numbers first, as report.json (write_report)
        write_file(vfile, json.dumps([{"variant": t, "sides": [p.__dict__ for p in ps]} for t, ps in rows], indent=2),
                   "the variants' numbers", "choose another --report folder")
        files = write_report(enc, summary, out, Path(path), _numbers_written if stop is not None else None)
        print(f"\nreport: {', '.join(str(f) for f in [*files, vfile])}")
    return status


def print_variants(enc: Encounter, base: Sequence[RunResult], rows: Sequence[tuple[str, Sequence[Paired]]]) -> None:
    con = Console(width=130)
    t = Table(title="What if (same seeds as the base; change with a paired 95% interval)", title_justify="left")
    t.add_column("variant")
    t.add_column("runs", justify="right")
    for side in enc.sides:
        t.add_column(f"{side} wins", justify="right")
        t.add_column("change vs base", justify="right")
    base_cells: list[str] = []
    for side in enc.sides:
        rate = sum(r.winner == side for r in base) / len(base) if base else 0.0
        base_cells += [f"{rate:.1%}", ""]
    t.add_row("base", str(len(base)), *base_cells)
    for text, ps in rows:
        cells: list[str] = []
        for p in ps:
            cells += [f"{p.rate:.1%}", f"{p.change:+.1%} [{p.change_low:+.1%}, {p.change_high:+.1%}]"]
        t.add_row(text, str(ps[0].n if ps else 0), *cells)
    con.print(t)
