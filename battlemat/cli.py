"""The one `battlemat` command: it registers the subcommands and maps their errors to exit codes.

Each subcommand is a module of `battlemat.commands` with `add_arguments(parser)` and `run(args) -> int`.
Only the chosen command's module is imported (a command imports what it needs, so `battlemat rules`
never loads the simulator's plots or the window); `battlemat --help` lists them from the table below.
Errors people can fix (bad files, unknown skills, illegal intents) print one clear message and exit 2;
nothing here prints a traceback for them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from battlemat.core.errors import BattlematError
from battlemat.interrupt import sigterm_raises, stopped

EXIT_BAD_INPUT = 2

# name -> (module, help line), in the order `battlemat --help` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "resolve": ("battlemat.commands.resolve", "run an encounter's scripted turns headless and print the event log"),
    "rules": ("battlemat.commands.rules", "the rules table, one rule with its current values, or a search of the "
              "rules and the glossary"),
    "play": ("battlemat.commands.play", "open the window on an encounter (default: the art gallery)"),
    "check": ("battlemat.commands.check", "validate maps and encounters; exit 2 listing every problem"),
    "annotate": ("battlemat.commands.annotate", "write the terrain battlemat reads from a map into a copy of it, "
                 "as its own terrain layer to correct in Tiled"),
    "reach": ("battlemat.commands.reach", "squares a character can reach this turn, and why not the others"),
    "simulate": ("battlemat.commands.simulate", "play an encounter many times with AI and report statistics"),
    "calibrate": ("battlemat.commands.calibrate",
                  "win probability and mean losses per rating difference, per dice engine"),
    "case": ("battlemat.commands.case", "write a rule case from a saved game's turn, its outcome to check by hand"),
    "arena": ("battlemat.commands.arena",
              "each side's tactics against random and greedy baselines, win-rate differences"),
    "predict": ("battlemat.commands.predict", "the next turn as it would resolve, unknown intents filled by the AI"),
    "balance": ("battlemat.commands.balance",
                "small changes that bring a side to a target win rate, as a new encounter"),
    "learn": ("battlemat.commands.learn", "list the lessons, or play one in the window: each step teaches a rule"),
    "lesson-from": ("battlemat.commands.lesson_from", "write a lesson skeleton from a saved game, one step per turn"),
    "prepare": ("battlemat.commands.prepare", "compile the movement search now (first run after an install)"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command (`only`: of that one alone; the others are listed, not imported)."""
    p = argparse.ArgumentParser(prog="battlemat", description="Tactical simulator for a diceless skill-based RPG.")
    sub = p.add_subparsers(dest="command", required=True)
    for name, (module, words) in COMMANDS.items():
        c = sub.add_parser(name, help=words)
        if only is None or name == only:
            command = importlib.import_module(module)
            command.add_arguments(c)
            c.set_defaults(func=command.run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Ctrl+C or SIGTERM, wherever it lands (imports and parsing included), ends in
    one line and exit status 130 or 143 (battlemat.interrupt); `simulate` first reports the runs it
    finished. A stop damages no save: saves are written beside their target and renamed
    (battlemat.io.saves)."""
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        with sigterm_raises():
            chosen = words[0] if words and words[0] in COMMANDS else None  # else argparse says what is wrong
            try:
                args = build_parser(chosen).parse_args(words)
            except SystemExit as exc:  # argparse printed --help (0) or the usage error (2): return, not exit
                return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
            return int(args.func(args))
    except BattlematError as exc:
        print(f"battlemat: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt as stop:  # Ctrl+C, or SIGTERM (interrupt.Terminated)
        return stopped(stop)


if __name__ == "__main__":
    sys.exit(main())
