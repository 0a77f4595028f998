"""`battlemat rules [ID|WORDS] [--encounter FILE]`: the rules table, one rule, or a search.

Without words, the rules table (core/house, current values); with a rule's ID, that rule with its
current values; otherwise a search of IDs, titles, rule text and the glossary (battlemat.teach.rules_search).
A search that finds nothing exits 1 (as grep); an ID that does not exist is bad input (exit 2).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence

from battlemat.commands.args import fail
from battlemat.core.rules import Rules
from battlemat.io.encounter import load_encounter
from battlemat.io.rules_file import load_rules
from battlemat.log import format_rule, format_rules_table
from battlemat.teach.glossary import RULE_ID
from battlemat.teach.rules_search import Hit, entry_text, search, suggestions

EXIT_NOT_FOUND = 1  # a search that found nothing (as grep): not bad input, but nothing to show
HITS_SHOWN = 15  # hits a search prints at most


def format_hits(query: str, hits: Sequence[Hit], rules: Rules) -> str:
    """A search's hits (battlemat.teach.rules_search): a glossary term asked for is shown whole, with
    its rules by title; then every other hit on a line with its snippet."""
    lines: list[str] = []
    rest = list(hits)
    if rest and rest[0].rank == "term":
        top = rest.pop(0)
        shown = entry_text(top.href, rules)
        assert shown is not None
        heading, words, related = shown
        lines.append(f"{heading} (glossary)")
        lines.append(textwrap.fill(words, width=100, initial_indent="  ", subsequent_indent="  "))
        if related:
            lines.append("  Rules: " + "; ".join(f"{r} {rules.entries[r].title}" for r in related))
        if rest:
            lines.append("")
            lines.append("Also:")
    else:
        lines.append(f"{len(rest)} match{'es' if len(rest) != 1 else ''} for {query!r}:")
    for h in rest[:HITS_SHOWN]:
        label = h.key if h.kind != "term" else h.title
        lines.append(f"  {label:<24} {h.kind:<7} {h.snippet}")
    if len(rest) > HITS_SHOWN:
        lines.append(f"  ... and {len(rest) - HITS_SHOWN} more (more words narrow the search)")
    lines.append("")
    lines.append("`battlemat rules ID` shows one rule with its current values.")
    return "\n".join(lines)


def add_arguments(ru: argparse.ArgumentParser) -> None:
    ru.add_argument("query", nargs="*", metavar="ID|WORDS",
                    help="a rule ID such as M1, or words to look up (sticky, allowance, higher ground)")
    ru.add_argument("--encounter", help="show values with this encounter's [rules] overrides")


def run(args: argparse.Namespace) -> int:
    rules = load_encounter(args.encounter).rules if args.encounter else load_rules()
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
        return fail("battlemat", f"no rule {query!r}; {hint}`battlemat rules` lists every ID")
    print(f"battlemat: nothing in the rules or the glossary matches {query!r}; {hint}"
          "`battlemat rules` lists every rule", file=sys.stderr)
    return EXIT_NOT_FOUND
