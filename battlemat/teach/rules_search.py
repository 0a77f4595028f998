"""Search the rules and the glossary: `battlemat rules WORDS`, the window's rules panel (F1), lessons.

Pure (no pygame, no printing): `search(query)` returns ranked hits, `suggestions(query)` close
matches when nothing is found, `entry_text(href)` one entry's words. The glossary's words come from
battlemat.teach.glossary, the rules' own words from the rules data (`Rules.entries`,
`Rules.switches`), never restated here.

Ranking (best first): the exact rule ID; a glossary term or one of its aliases; a rule's title or a
house switch's key; then the text of rules, switches and definitions that holds every word asked.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from battlemat.core.rules import Rules
from battlemat.io.rules_file import load_rules
from battlemat.teach.glossary import glossary, glossary_entry, normal

SNIPPET = 90  # characters of a hit's snippet
RANKS = {"id": 0, "term": 1, "name": 2, "text": 3}


@dataclass(frozen=True)
class Hit:
    """A search result: what kind of match (`rank`: id, term, name or text), what it is (`href`:
    'rule:M6', 'term:sticky', 'switch:diagonals'), its heading, a short snippet, its related rules."""

    rank: str
    href: str
    title: str
    snippet: str
    rules: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return self.href.partition(":")[0]

    @property
    def key(self) -> str:
        return self.href.partition(":")[2]


def _rules(rules: Rules | None) -> Rules:
    return rules if rules is not None else load_rules()


def snippet(text: str, words: list[str]) -> str:
    """About SNIPPET characters of `text` around the first of `words` it holds."""
    low = text.lower()
    at = min((i for w in words if (i := low.find(w)) >= 0), default=0)
    if len(text) <= SNIPPET:
        return text
    start = max(0, at - SNIPPET // 3)
    end = min(len(text), start + SNIPPET)
    start = max(0, end - SNIPPET)
    if start:  # begin and end on whole words
        start = text.find(" ", start) + 1 or start
    if end < len(text):
        end = text.rfind(" ", start, end) if text.rfind(" ", start, end) > start else end
    return ("..." if start else "") + text[start:end].strip() + ("..." if end < len(text) else "")


def _holds(text: str, words: list[str]) -> bool:
    low = normal(text) + " " + text.lower()
    return all(re.search(rf"\b{re.escape(w)}", low) for w in words)


def search(query: str, rules: Rules | None = None) -> list[Hit]:
    """Every rule, house switch and glossary entry matching `query`, best first (see the module's
    ranking); each appears once, at its best rank."""
    rules = _rules(rules)
    q = query.strip()
    if not q:
        return []
    words = [w for w in normal(q).split() if w] or [q.lower()]
    hits: dict[str, Hit] = {}

    def add(hit: Hit) -> None:
        if hit.href not in hits or RANKS[hit.rank] < RANKS[hits[hit.href].rank]:
            hits[hit.href] = hit

    rid = q.upper()
    if rid in rules.entries:
        e = rules.entries[rid]
        add(Hit("id", f"rule:{rid}", f"{rid} {e.title}", snippet(e.text, words), (rid,)))
    entry = glossary_entry(q)
    if entry is not None:
        add(Hit("term", entry.href, entry.term, snippet(entry.text, words), entry.rules))
    for r, e in rules.entries.items():
        if _holds(e.title, words):
            add(Hit("name", f"rule:{r}", f"{r} {e.title}", snippet(e.text, words), (r,)))
        elif _holds(f"{e.text} {e.house}", words):
            add(Hit("text", f"rule:{r}", f"{r} {e.title}", snippet(f"{e.text} {e.house}".strip(), words), (r,)))
    for key, sw in rules.switches.items():
        if _holds(key, words):
            add(Hit("name", f"switch:{key}", f"{key} (house switch, {sw.rule})", snippet(sw.doc, words), (sw.rule,)))
        elif _holds(f"{sw.doc} {sw.value} {sw.options}", words):  # a value the log shows: 'alternating'
            add(Hit("text", f"switch:{key}", f"{key} (house switch, {sw.rule})", snippet(sw.doc, words), (sw.rule,)))
    for g in glossary():
        if any(_holds(name, words) for name in (g.term, *g.aliases)):
            add(Hit("name", g.href, g.term, snippet(g.text, words), g.rules))
        elif _holds(g.text, words):
            add(Hit("text", g.href, g.term, snippet(g.text, words), g.rules))
    return sorted(hits.values(), key=lambda h: RANKS[h.rank])  # (stable: the data's order within a rank)


def suggestions(query: str, rules: Rules | None = None, n: int = 3) -> list[str]:
    """Close matches for a query that found nothing: rule IDs, titles' words, glossary terms and
    aliases, switch keys, skill halves."""
    rules = _rules(rules)
    vocabulary = {r.lower(): r for r in rules.entries}
    for e in rules.entries.values():
        vocabulary.update({w.lower(): w.lower() for w in re.findall(r"[A-Za-z]{4,}", e.title)})
    for g in glossary():
        vocabulary.update({name.lower(): name for name in (g.term, *g.aliases)})
    vocabulary.update({k.lower(): k for k in rules.switches})
    vocabulary.update({h.lower(): h for h in rules.halves})
    close = difflib.get_close_matches(query.strip().lower(), list(vocabulary), n=n, cutoff=0.6)
    return list(dict.fromkeys(vocabulary[c] for c in close))


def entry_text(href: str, rules: Rules | None = None) -> tuple[str, str, tuple[str, ...]] | None:
    """(heading, words, related rule IDs) of what `href` names ('rule:M6', 'term:sticky',
    'switch:diagonals'), read from the rules data and the glossary; None if it names nothing."""
    rules = _rules(rules)
    kind, _, key = href.partition(":")
    if kind == "rule" and key in rules.entries:
        e = rules.entries[key]
        house = f" House part: {e.house}" if e.house and e.tag != "house" else ""
        return f"{key} [{e.tag}] {e.title}", e.text + house, (key,)
    if kind == "term":
        g = glossary_entry(key)
        if g is not None:
            return g.term, g.text, g.rules
    if kind == "switch" and key in rules.switches:
        sw = rules.switches[key]
        return f"{key} = {sw.value!r} [house, {sw.rule}]", sw.doc, (sw.rule,)
    return None
