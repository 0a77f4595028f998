"""`battlemat resolve ENCOUNTER [--json] [--seed S] [--dice D]`: the scripted turns played headless.

Prints the event log and the final state (per character: square, minor, major, defeated); `--json`
writes one object per event, then the final state. An intent the rules refuse names its place in the
encounter file and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from battlemat.commands.args import dice_argument, fail, seed_argument
from battlemat.core.errors import IllegalIntent
from battlemat.core.match import Match
from battlemat.io.encounter import load_encounter
from battlemat.log import format_event, format_state


def add_arguments(r: argparse.ArgumentParser) -> None:
    r.add_argument("encounter", help="encounter .toml file")
    r.add_argument("--json", action="store_true", help="one JSON object per event, then the final state")
    r.add_argument("--seed", type=seed_argument, default=None, help="override the encounter's seed")
    r.add_argument("--dice", type=dice_argument, default=None, help="override the encounter's dice engine")


def run(args: argparse.Namespace) -> int:
    enc = load_encounter(args.encounter)
    match = Match(enc, seed=args.seed, dice=args.dice)
    out = sys.stdout
    if not args.json:
        print(f"# {enc.title}  (seed {match.seed}, dice {match.dice.name})", file=out)
    for index, intents in enumerate(enc.turns):
        if match.outcome().over:
            if not args.json:
                left = len(enc.turns) - index
                print(f"\n(the combat is over; {left} scripted turn{'s' if left != 1 else ''} not played)", file=out)
            break
        try:
            events = match.play(intents)
        except IllegalIntent as exc:
            place = next((i for i, it in enumerate(intents) if it.who == exc.who), 0)
            field = f".{exc.field}" if exc.field else ""
            return fail("battlemat",
                        f"{args.encounter}: turn[{index}].intent[{place}]{field}: {exc}. "
                        "Fix: change or remove that intent (a defeated or fled character cannot act).")
        for ev in events:
            if args.json:
                print(json.dumps(ev.to_dict(), sort_keys=False), file=out)
            else:
                line = format_event(ev, enc.board)  # a hazard by its name on the map (E1)
                if line is not None:
                    print(line, file=out)
    result = match.outcome()
    if args.json:
        print(json.dumps({"final": match.state.to_dict()}), file=out)
    else:
        print("\n== final ==", file=out)
        print(format_state(enc, match.state), file=out)
        if result.over:
            print(result.reason, file=out)
    return 0
