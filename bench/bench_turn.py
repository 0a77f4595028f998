"""Benchmark: one art-gallery turn resolved for a search (nobody reads its words) against the same turn
with its full record read (issue 30: a turn cheap enough to search).

The turn: the art gallery with d6 dice, the match of seed 2 played by the AI for two turns, then the
AI's intents for the third (a mid-fight turn: moves, a same-square conflict, a stop, contests, losses,
a defeat, refusals), made once outside the timing. Each round resolves it with the same dice (a fresh
random.Random(5)) and the match's memory (warm, as in a batch or a search).

1. for search: `resolve_turn`, and only the new state and the events' structured fields read (the
   losses, as a search's evaluation would).
2. with its record: the same, and every event read as `--json` prints it (`to_dict`: its words, its
   rule IDs, its data with the ratings' breakdowns), as the log, the window and the lessons read it.
Goal: (2) / (1) >= 2.5 (medians of the per-round ratios, the two in alternate rounds).

Run: python bench/bench_turn.py [--rounds N]   (prints medians and the ratio; no assertions)
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from timing import paired  # bench/timing.py

from battlemat.ai import Brain, ai_stream
from battlemat.core import movement
from battlemat.core.match import Match
from battlemat.core.resolver import resolve_turn
from battlemat.io.encounter import load_encounter

GALLERY = Path(__file__).resolve().parent.parent / "maps" / "art_gallery.toml"
SEED, TURNS_BEFORE = 2, 2
TURNS_PER_ROUND = 20


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=60)
    args = ap.parse_args()
    movement.prepare()
    enc = load_encounter(GALLERY)
    m = Match(enc, seed=SEED, dice="d6")
    rng = ai_stream(SEED)
    brain = Brain(enc, m.memory)
    for _ in range(TURNS_BEFORE):
        m.play(brain.decide(m.state, rng))
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
    for_search()
    with_record()
    ts, tr, ratio = paired(for_search, with_record, args.rounds)
    print(f"for search (no words read)  : {1e6 * ts / TURNS_PER_ROUND:8.0f} us a turn")
    print(f"with its record (to_dict)   : {1e6 * tr / TURNS_PER_ROUND:8.0f} us a turn")
    print(f"ratio record / search: {ratio:.2f}  (median of {args.rounds} rounds' ratios; goal >= 2.5)")


if __name__ == "__main__":
    main()
