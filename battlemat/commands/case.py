"""`battlemat case SAVE --turn N [-o FILE]`: a rule case recorded from a saved game's turn;
`battlemat case --run FILE...`: rule cases played from the command line.

Recording: the state before turn N as the start, the intents of turn N, and as the expected outcome
what the engine made of them, marked as recorded, to be checked by hand (battlemat.teach.rule_cases).
Running (STYLE 15, suites as data): each case is played and compared with what it expects, as
tests/test_cases.py does; `ok: FILE` for each that passes (and for a case marked `xfail` that still
fails, with its reason), the differences and that turn's events for each that does not. Exit code 0
when every case passes, 1 when an outcome is wrong, 2 when a file cannot be read as a case.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from battlemat.commands.args import bounded_int
from battlemat.io.limits import MAX_TURNS
from battlemat.io.outfile import check_writable, write_file
from battlemat.teach.rule_cases import record_case, run_files

EXIT_USAGE = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", nargs="?", default=None, help="a saved game (.json) to record a case from")
    parser.add_argument("--turn", type=bounded_int(1, MAX_TURNS, "a save holds at most that many turns"), default=None,
                        help=f"the turn to record (1 = the first; at most {MAX_TURNS}, the turns a save holds)")
    parser.add_argument("-o", "--output", default=None, help="write the case here (default: print it)")
    parser.add_argument("--run", nargs="+", metavar="FILE", default=None,
                        help="play these rule cases (cases/*.toml) and report each wrong outcome; exit 1 if any")


def run(args: argparse.Namespace) -> int:
    if args.run is not None:
        if args.save is not None or args.turn is not None:
            print("battlemat case: --run plays case files; record from a save without it (SAVE --turn N)",
                  file=sys.stderr)
            return EXIT_USAGE
        lines, code = run_files([Path(f) for f in args.run])
        print("\n".join(lines))
        return code
    if args.save is None or args.turn is None:
        print("battlemat case: give a save and --turn N to record a case, or --run FILE... to play cases",
              file=sys.stderr)
        return EXIT_USAGE
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
