"""The one `battlemat` command with its subcommands (DESIGN: commands).

Errors people can fix (bad files, unknown skills, illegal intents) print one clear message and
exit 2; nothing here prints a traceback for them.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from battlemat.core.errors import BattlematError, IllegalIntent
from battlemat.interrupt import sigterm_raises, stopped

EXIT_BAD_INPUT = 2
DEFAULT_ENCOUNTER = Path(__file__).resolve().parent.parent / "maps" / "art_gallery.toml"


def _fail(message: str) -> int:
    print(f"battlemat: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def dice_argument(text: str) -> str:
    """argparse type of every `--dice`: a known engine, else the encounter file's message with the
    close match (argparse then exits 2 with it)."""
    from battlemat.io.names import dice_problem

    problem = dice_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"{problem[0]}. Fix: {problem[1]}")
    return text


def bounded_int(low: int, high: int, why: str) -> Callable[[str], int]:
    """argparse type of a whole number from `low` to `high` (`why` says where the bound comes from)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value if abs(value) < 10**15 else 'it'} is out of range. "
                                             f"Fix: use {low} to {high} ({why})")
        return value

    return parse


def seed_argument(text: str) -> int:
    """argparse type of every `--seed`: a 64-bit whole number, like the seed of an encounter or a save."""
    from battlemat.io.limits import MAX_SEED

    return bounded_int(-MAX_SEED, MAX_SEED, "a seed is a 64-bit whole number")(text)


# -- resolve ---------------------------------------------------------------------------------------
def cmd_resolve(args: argparse.Namespace) -> int:
    from battlemat.core.match import Match
    from battlemat.io.encounter import load_encounter
    from battlemat.log import format_event, format_state

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
            return _fail(
                f"{args.encounter}: turn[{index}].intent[{place}]{field}: {exc}. "
                "Fix: change or remove that intent (a defeated or fled character cannot act)."
            )
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


# -- rules -----------------------------------------------------------------------------------------
EXIT_NOT_FOUND = 1  # a search that found nothing (as grep): not bad input, but nothing to show


def cmd_rules(args: argparse.Namespace) -> int:
    """The rules table; one rule by its ID (with its current values); or a search of IDs, titles, rule
    text and the glossary (battlemat.rules_search)."""
    from battlemat.io.rules_file import load_rules
    from battlemat.log import format_hits, format_rule, format_rules_table
    from battlemat.rules_search import RULE_ID, search, suggestions

    rules = load_rules()
    if args.encounter:
        from battlemat.io.encounter import load_encounter

        rules = load_encounter(args.encounter).rules
    query = " ".join(args.query).strip()
    if not query:
        print(format_rules_table(rules))
        return 0
    if query.upper() in rules.entries:
        print(format_rule(rules, query.upper()))
        return 0
    hits = search(query, rules)
    if hits:
        print(format_hits(query, hits, rules))
        return 0
    close = suggestions(query, rules)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    if RULE_ID.match(query):  # an ID that does not exist: a mistyped reference, bad input
        return _fail(f"no rule {query!r}; {hint}`battlemat rules` lists every ID")
    print(f"battlemat: nothing in the rules or the glossary matches {query!r}; {hint}"
          "`battlemat rules` lists every rule", file=sys.stderr)
    return EXIT_NOT_FOUND


def cmd_play(args: argparse.Namespace) -> int:
    try:
        from battlemat.ui.app import run  # type: ignore[import-not-found]
    except ModuleNotFoundError as exc:
        if exc.name not in ("battlemat.ui.app", "pygame", "pygame_gui"):
            raise
        # Until the window lands (issue 5), `play` resolves the encounter headless and prints its log.
        ns = argparse.Namespace(encounter=args.encounter or str(DEFAULT_ENCOUNTER), json=False, seed=None, dice=None)
        return cmd_resolve(ns)
    return int(run(args))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="battlemat", description="Tactical simulator for a diceless skill-based RPG.")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("resolve", help="run an encounter's scripted turns headless and print the event log")
    r.add_argument("encounter", help="encounter .toml file")
    r.add_argument("--json", action="store_true", help="one JSON object per event, then the final state")
    r.add_argument("--seed", type=seed_argument, default=None, help="override the encounter's seed")
    r.add_argument("--dice", type=dice_argument, default=None, help="override the encounter's dice engine")
    r.set_defaults(func=cmd_resolve)

    ru = sub.add_parser("rules", help="the rules table, one rule with its current values, or a search of the "
                        "rules and the glossary")
    ru.add_argument("query", nargs="*", metavar="ID|WORDS",
                    help="a rule ID such as M1, or words to look up (sticky, allowance, higher ground)")
    ru.add_argument("--encounter", help="show values with this encounter's [rules] overrides")
    ru.set_defaults(func=cmd_rules)

    pl = sub.add_parser("play", help="open the window on an encounter (default: the art gallery)")
    pl.add_argument("encounter", nargs="?", default=None)
    if importlib.util.find_spec("battlemat.ui.app") is not None:
        from battlemat.ui.app import add_play_arguments  # imports no pygame

        add_play_arguments(pl)
    pl.set_defaults(func=cmd_play)

    for name, module, words in OPTIONAL_COMMANDS:
        if importlib.util.find_spec(module) is None:
            continue
        mod = importlib.import_module(module)
        c = sub.add_parser(name, help=words)
        mod.add_arguments(c)
        c.set_defaults(func=mod.run)
    return p


# Subcommands living in their own modules, each exposing add_arguments(parser) and run(args) -> int.
OPTIONAL_COMMANDS = (
    ("check", "battlemat.io.check", "validate maps and encounters; exit 2 listing every problem"),
    ("reach", "battlemat.reach_cli", "squares a character can reach this turn, and why not the others"),
    ("simulate", "battlemat.sim.cli", "play an encounter many times with AI and report statistics"),
    ("calibrate", "battlemat.sim.calibrate", "win probability and mean losses per rating difference, per dice engine"),
    ("case", "battlemat.cases", "write a rule case from a saved game's turn, its outcome to check by hand"),
    ("arena", "battlemat.sim.arena", "each side's tactics against random and greedy baselines, win-rate differences"),
    ("predict", "battlemat.predict_cli", "the next turn as it would resolve, unknown intents filled by the AI"),
    ("balance", "battlemat.sim.balance", "small changes that bring a side to a target win rate, as a new encounter"),
    ("learn", "battlemat.learn_cli", "list the lessons, or play one in the window: each step teaches a rule"),
    ("lesson-from", "battlemat.lesson_from", "write a lesson skeleton from a saved game, one step per turn"),
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Ctrl+C or SIGTERM, wherever it lands (imports and parsing included), ends in
    one line and exit status 130 or 143 (battlemat.interrupt); `simulate` first reports the runs it
    finished. A stop damages no save: saves are written beside their target and renamed
    (battlemat.io.saves)."""
    try:
        with sigterm_raises():
            try:
                args = build_parser().parse_args(argv)
            except SystemExit as exc:  # argparse printed --help (0) or the usage error (2): return, not exit
                return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
            return int(args.func(args))
    except BattlematError as exc:
        return _fail(str(exc))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt as stop:  # Ctrl+C, or SIGTERM (interrupt.Terminated)
        return stopped(stop)


if __name__ == "__main__":
    sys.exit(main())
