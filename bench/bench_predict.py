"""Benchmark: the whole-turn preview (`battlemat predict`, the window's P) against one `resolve_turn`.

1. The art gallery's first turn as `battlemat predict maps/art_gallery.toml` asks it: the scripted intents
   known, the AI guessing the statue's, diceless (one sample). Goal: <= 100 ms. Baseline: one
   `resolve_turn` of the same turn (the same intents, the match's memory), timed in alternate rounds in
   this process; the ratio is predict / resolve (medians of the per-round ratios).
2. The same turn as the window asks it before anyone declared: the AI guesses all four NPCs.
3. With d6 dice: 50 samples, the spread the window shows.

The compiled reach search is prepared first; a prediction forks the match's memory each time (it must
not change it), so every round pays for what a fresh fork does not know.

Run: python bench/bench_predict.py   (prints medians in ms and ratios; no assertions)
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from timing import paired  # bench/timing.py

from battlemat.core import movement
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.resolver import resolve_turn
from battlemat.io.encounter import load_encounter
from battlemat.predict import DICE_SAMPLES, Question, predict_turn

GALLERY = Path(__file__).resolve().parent.parent / "maps" / "art_gallery.toml"
ROUNDS = 60


def main() -> int:
    movement.prepare()
    enc = load_encounter(GALLERY)
    m = Match(enc)
    known = tuple(enc.turns[0])
    npcs = tuple(c.id for c in enc.characters if c.side != enc.sides[0])
    cases = [
        ("first turn, scripted intents + AI for the statue (battlemat predict)",
         Question(enc, m.state, known, tuple(c for c in npcs if c not in {it.who for it in known}), seed=m.seed)),
        ("first turn, nothing declared, AI for the 4 NPCs (the window's P)",
         Question(enc, m.state, (), npcs, seed=m.seed)),
        (f"first turn, d6 dice, {DICE_SAMPLES} samples",
         Question(enc, m.state, known, (), "d6", DICE_SAMPLES, m.seed)),
    ]
    t0 = time.perf_counter()
    predict_turn(cases[0][1], m.memory)
    print(f"first prediction in this process: {1000 * (time.perf_counter() - t0):.1f} ms")
    for words, q in cases:
        intents = predict_turn(q, m.memory).first.intents

        def predict(q: Question = q) -> None:
            predict_turn(q, m.memory)

        def resolve(intents: tuple[Intent, ...] = intents) -> None:
            resolve_turn(enc, m.state, intents, random.Random(1), m.dice, m.memory)

        predict(), resolve()  # warm
        t_resolve, t_predict, ratio = paired(resolve, predict, ROUNDS)
        print(f"{words}:\n  predict {1000 * t_predict:.2f} ms (median of {ROUNDS}), one resolve_turn "
              f"{1000 * t_resolve:.2f} ms, ratio {ratio:.2f}x; goal <= 100 ms: "
              f"{'met' if t_predict <= 0.1 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
