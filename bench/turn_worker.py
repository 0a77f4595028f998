"""bench_turn's helper: one turn with its full record read, timed by the battlemat found on PYTHONPATH
(bench_turn runs it on the code of an earlier commit, unpacked in a temporary folder).

Run: PYTHONPATH=OLD python bench/turn_worker.py SPEC.json; SPEC gives the encounter, the seed, the dice
and every turn's intents (`Intent.to_dict`). It plays all turns but the last, prints the last turn's
record (type and words of each event) as one JSON line, then for each line "N" read on stdin resolves
the last turn N times, reads each record whole (`to_dict`) and prints the seconds it took. Only what
every version of battlemat since issue 30 was filed has (load_encounter, Match, resolve_turn,
intent_from_dict, Event.to_dict) is used.
"""

from __future__ import annotations

import json
import random
import sys
import time

from battlemat.core import movement
from battlemat.core.match import Match
from battlemat.core.resolver import resolve_turn
from battlemat.io.encounter import load_encounter
from battlemat.io.saves import intent_from_dict


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    movement.prepare()
    enc = load_encounter(spec["encounter"])
    m = Match(enc, seed=spec["seed"], dice=spec["dice"])
    turns = [tuple(intent_from_dict(d) for d in t) for t in spec["turns"]]
    for intents in turns[:-1]:
        m.play(intents)
    state, last = m.state, turns[-1]

    def with_record() -> list[list[str]]:
        r = resolve_turn(enc, state, last, random.Random(5), m.dice, m.memory)
        sum(ev.data["n"] for ev in r.events if ev.type == "losses")
        [ev.to_dict() for ev in r.events]
        return [[ev.type, ev.text] for ev in r.events]

    print(json.dumps(with_record()), flush=True)
    for line in sys.stdin:
        t0 = time.perf_counter()
        for _ in range(int(line)):
            with_record()
        print(time.perf_counter() - t0, flush=True)


if __name__ == "__main__":
    main()
