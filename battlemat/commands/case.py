"""`battlemat case SAVE --turn N [-o FILE]`: a rule case recorded from a saved game's turn.

The state before turn N as the start, the intents of turn N, and as the expected outcome what the
engine made of them, marked as recorded, to be checked by hand (battlemat.teach.rule_cases).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from battlemat.commands.args import bounded_int
from battlemat.io.limits import MAX_TURNS
from battlemat.io.outfile import check_writable, write_file
from battlemat.teach.rule_cases import record_case


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", help="a saved game (.json)")
    parser.add_argument("--turn", type=bounded_int(1, MAX_TURNS, "a save holds at most that many turns"), required=True,
                        help=f"the turn to record (1 = the first; at most {MAX_TURNS}, the turns a save holds)")
    parser.add_argument("-o", "--output", default=None, help="write the case here (default: print it)")


def run(args: argparse.Namespace) -> int:
    out = Path(args.output) if args.output else None
    if out is not None:  # refused before the turn is replayed, as the writer would refuse it after
        check_writable(out, "the rule case", "name a file with -o, e.g. cases/my_case.toml")
    # the map's path is written relative to the case's folder
    text = record_case(args.save, args.turn, out.parent if out else Path.cwd())
    if out is None:
        sys.stdout.write(text)
        return 0
    write_file(out, text, "the rule case", "name another file with -o")
    print(f"wrote {out}: check its expected outcome by hand", file=sys.stderr)
    return 0
