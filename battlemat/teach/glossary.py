"""The glossary (battlemat/data/glossary.toml): every word the log, the `--json` events and the window
use, with a short definition and the rule IDs behind it. `glossary()` reads it, `glossary_entry(term)`
finds one word by its name or an alias (any case, singular or plural); `normal(words)` is how words
are compared. Pure: no pygame, no printing. battlemat.teach.rules_search searches it with the rules.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

RULE_ID = re.compile(r"^[A-Za-z][0-9]{1,2}$")  # what a rule ID looks like (M6, c3)


@dataclass(frozen=True)
class GlossaryEntry:
    """One word of the glossary: its term, the other spellings it goes by, a short definition and the
    rule IDs behind it."""

    term: str
    aliases: tuple[str, ...]
    text: str
    rules: tuple[str, ...]

    @property
    def href(self) -> str:
        return f"term:{self.term}"


def normal(words: str) -> str:
    """A word as the glossary compares it: lower case, `_` `-` `/` as spaces, numbers and bracketed
    asides left out ('group of 3' -> 'group', 'new_minor' -> 'new minor', 'P2' stays 'p2')."""
    w = words.lower().strip()
    w = re.sub(r"\([^)]*\)", " ", w)
    w = re.sub(r"[_\-/]", " ", w)
    if not RULE_ID.match(words.strip()):
        w = re.sub(r"\b\d+\b", " ", w)
    w = " ".join(w.split())
    return re.sub(r"\s+of$", "", w)


@lru_cache(maxsize=1)
def glossary() -> tuple[GlossaryEntry, ...]:
    """The glossary data, in its file's order."""
    text = resources.files("battlemat").joinpath("data/glossary.toml").read_text(encoding="utf-8")
    return tuple(GlossaryEntry(str(t["term"]), tuple(map(str, t.get("aliases", ()))), str(t["text"]),
                               tuple(map(str, t.get("rules", ()))))
                 for t in tomllib.loads(text)["term"])


@lru_cache(maxsize=1)
def _by_name() -> dict[str, GlossaryEntry]:
    out: dict[str, GlossaryEntry] = {}
    for e in glossary():
        for name in (e.term, *e.aliases):
            out.setdefault(normal(name), e)
    return out


def glossary_entry(term: str) -> GlossaryEntry | None:
    """The entry defining `term` (its own name or an alias, any case, singular or plural), or None."""
    names = _by_name()
    n = normal(term)
    for candidate in (n, n[:-1] if n.endswith("s") else "", n[:-2] if n.endswith("es") else ""):
        if candidate and candidate in names:
            return names[candidate]
    return None
