"""Benchmark: one art-gallery turn resolved for a search (nobody reads its words) against the same turn
with its full record read (issue 30: "one art-gallery turn resolved for search (no texts) at least 2.5x
faster than a turn with its full record today").

The turn: the art gallery with d6 dice, the match of seed 2 played by the AI for two turns, then the
AI's intents for the third (a mid-fight turn: moves, a same-square conflict, a stop, contests, losses,
a defeat, refusals), made once outside the timing. Each round resolves it with the same dice (a fresh
random.Random(5)) and the match's memory (warm, as in a batch or a search).

1. for search: `resolve_turn`, and only the new state and the events' structured fields read (the
   losses, as a search's evaluation would).
2. then, with its record (the goal's baseline): the same turn with every event read as `--json` prints
   it (`to_dict`: its words, its rule IDs, its data with the ratings' breakdowns), by the code as it
   was when issue 30 was filed ("today" in the issue: commit THEN, where its work began). That code is
   unpacked from git into a temporary folder and run in a process of its own (bench/turn_worker.py),
   which replays the same intents and must print the same record; its rounds alternate with (1)'s.
3. now, with its record: the same read by today's code, in this process (the record's own cost now
   that words are written when read).
Goal: (2) / (1) >= 2.5; (3) / (1) is printed too. Medians of the per-round ratios, all three in
alternate rounds, so load from other processes hits them alike.

Run: python bench/bench_turn.py [--rounds N]   (prints medians and the ratios; no assertions)
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from timing import once  # bench/timing.py

from battlemat.ai import Brain, ai_stream
from battlemat.core import movement
from battlemat.core.match import Match
from battlemat.core.resolver import resolve_turn
from battlemat.io.encounter import load_encounter

ROOT = Path(__file__).resolve().parent.parent
GALLERY = ROOT / "maps" / "art_gallery.toml"
SEED, TURNS_BEFORE = 2, 2
TURNS_PER_ROUND = 20
# The code as it was when issue 30 was filed: the commit both of its first branches started from.
THEN = "278c29f96877b750d8408ce6ba162f91115cb201"


@contextmanager
def then_worker(spec: dict[str, object]) -> Iterator[tuple[Callable[[], float], list[list[str]]] | None]:
    """A process running bench/turn_worker.py on commit THEN's battlemat: a function that times one
    round there (seconds), and the record it printed. None when git cannot give that commit."""
    try:
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", THEN, "battlemat"], capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"(no baseline: git archive {THEN[:7]} failed: {exc})")
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="bench_turn_then_") as tmp:
        with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
            tf.extractall(tmp, filter="data")
        (Path(tmp) / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
        proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "turn_worker.py"), str(Path(tmp) / "spec.json")],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tmp,
                                env={**os.environ, "PYTHONPATH": tmp})
        assert proc.stdin is not None and proc.stdout is not None
        stdin, stdout = proc.stdin, proc.stdout
        try:
            record = json.loads(stdout.readline())

            def round_there() -> float:
                stdin.write(f"{TURNS_PER_ROUND}\n")
                stdin.flush()
                return float(stdout.readline())

            yield round_there, record
        finally:
            stdin.close()
            proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=60)
    args = ap.parse_args()
    movement.prepare()
    enc = load_encounter(GALLERY)
    m = Match(enc, seed=SEED, dice="d6")
    rng = ai_stream(SEED)
    brain = Brain(enc, m.memory)
    played = []
    for _ in range(TURNS_BEFORE):
        played.append(tuple(brain.decide(m.state, rng)))
        m.play(played[-1])
    state, intents = m.state, tuple(brain.decide(m.state, rng))

    def for_search() -> None:
        for _ in range(TURNS_PER_ROUND):
            r = resolve_turn(enc, state, intents, random.Random(5), m.dice, m.memory)
            sum(ev.data["n"] for ev in r.events if ev.type == "losses")

    def with_record() -> None:
        for _ in range(TURNS_PER_ROUND):
            r = resolve_turn(enc, state, intents, random.Random(5), m.dice, m.memory)
            sum(ev.data["n"] for ev in r.events if ev.type == "losses")
            [ev.to_dict() for ev in r.events]

    events = resolve_turn(enc, state, intents, random.Random(5), m.dice, m.memory).events
    kinds = sorted({ev.type for ev in events})
    print(f"the turn: art gallery, d6, seed {SEED}, turn {state.turn}: {len(intents)} intents, {len(events)} events "
          f"({', '.join(kinds)})")
    spec = {"encounter": str(GALLERY), "seed": SEED, "dice": "d6",
            "turns": [[it.to_dict() for it in t] for t in (*played, intents)]}
    with then_worker(spec) as then:
        if then is not None:
            same = then[1] == [[ev.type, ev.text] for ev in events]
            print(f"the code of {THEN[:7]} (issue 30 filed) resolves it to the same record: {'yes' if same else 'NO'}")
        for_search()
        with_record()
        ts, tt, tr, goal, now = [], [], [], [], []
        for _ in range(args.rounds):
            a = once(for_search)
            b = then[0]() if then is not None else float("nan")
            c = once(with_record)
            ts.append(a)
            tt.append(b)
            tr.append(c)
            goal.append(b / a)
            now.append(c / a)
    med = statistics.median
    print(f"for search (no words read)          : {1e6 * med(ts) / TURNS_PER_ROUND:8.0f} us a turn")
    if then is not None:
        print(f"with its record, code of {THEN[:7]}   : {1e6 * med(tt) / TURNS_PER_ROUND:8.0f} us a turn")
    print(f"with its record, code of today      : {1e6 * med(tr) / TURNS_PER_ROUND:8.0f} us a turn")
    if then is not None:
        print(f"ratio record then / search: {med(goal):.2f}  (median of {args.rounds} rounds' ratios; goal >= 2.5)")
    print(f"ratio record now / search : {med(now):.2f}  (the record's own cost today)")


if __name__ == "__main__":
    main()
