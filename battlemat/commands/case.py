"""`battlemat case SAVE --turn N [-o FILE]`: a rule case recorded from a saved game's turn.

The state before turn N as the start, the intents of turn N, and as the expected outcome what the
engine made of them, marked as recorded, to be checked by hand (battlemat.teach.rule_cases).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from battlemat.teach.rule_cases import record_case


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", help="a saved game (.json)")
    parser.add_argument("--turn", type=int, required=True, help="the turn to record (1 = the first)")
    parser.add_argument("-o", "--output", default=None, help="write the case here (default: print it)")


def run(args: argparse.Namespace) -> int:
    out = Path(args.output) if args.output else None
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)  # the map's path is written relative to it
    text = record_case(args.save, args.turn, out.parent if out else Path.cwd())
    if out is None:
        sys.stdout.write(text)
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}: check its expected outcome by hand", file=sys.stderr)
    return 0
